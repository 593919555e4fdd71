"""Safe, bounded reading of YAML documents.

Every file the library reads (content, rulesets, scenarios) comes through here: PyYAML's safe
loader only (no Python tags), and limits on bytes, nesting depth and the size a document would
have once its aliases are expanded, so that hostile input fails fast with a ContentError
instead of eating time or memory (docs/api.md, Errors).
"""

from __future__ import annotations

import os
import stat
from typing import Any

import yaml
from yaml.composer import Composer
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from .errors import ContentError

# Limits (docs/reliability.md). The base content and the scenario files are a few KiB and at
# most a thousand or so nodes; these leave a wide margin and keep the worst file to well under a
# second on one core of the CI machine.
MAX_BYTES = 512 * 1024           # bytes of one file
MAX_DEPTH = 64                   # nesting of mappings and sequences (block and flow)
MAX_NODES = 20_000               # nodes, counted once every alias is expanded
MAX_CHARS = 1024 * 1024          # characters of the scalars, counted once every alias is expanded


class _Limit(Exception):
    """A limit of this module was passed (turned into a ContentError naming the place)."""

    def __init__(self, message: str, mark=None):
        super().__init__(message)
        self.mark = mark


class _BoundedLoader(yaml.SafeLoader):
    """The safe loader, with limits on depth and nodes while composing (so that a hostile
    document is refused before it is read to its end) and on the expanded size after."""

    def __init__(self, stream):
        super().__init__(stream)
        self._depth = 0
        self._nodes = 0

    def compose_node(self, parent, index):
        self._depth += 1
        self._nodes += 1
        try:
            if self._depth > MAX_DEPTH:
                raise _Limit(f"nested deeper than {MAX_DEPTH} levels", self.peek_event().start_mark)
            if self._nodes > MAX_NODES:
                raise _Limit(f"more than {MAX_NODES} nodes", self.peek_event().start_mark)
            return Composer.compose_node(self, parent, index)
        finally:
            self._depth -= 1

    def compose_mapping_node(self, anchor):
        node = Composer.compose_mapping_node(self, anchor)
        _refuse_repeated_keys(node)
        return node

    def construct_object(self, node, deep=False):
        try:
            return super().construct_object(node, deep)
        except (ValueError, OverflowError) as exc:
            # a scalar its tag cannot be made from: an integer of thousands of digits, a
            # date that does not exist (2001-02-30)
            raise _Limit(f"a value that cannot be read: {exc}", node.start_mark) from None

    def fetch_flow_collection_start(self, token_class):
        # flow nesting ([[[[...) is refused as it is scanned, before the parser sees it
        if self.flow_level >= MAX_DEPTH:
            raise _Limit(f"nested deeper than {MAX_DEPTH} levels", self.get_mark())
        return super().fetch_flow_collection_start(token_class)


MERGE_TAG = "tag:yaml.org,2002:merge"


def _refuse_repeated_keys(node: MappingNode) -> None:
    """A key given twice in one mapping is a mistake (PyYAML would keep the last one in
    silence). Keys are compared as written, with their resolved tag (``count`` and
    ``"count"`` are the same key); ``<<`` merge keys follow YAML's own rule (explicit keys
    win) and are not counted."""
    seen: dict = {}
    for key, _ in node.value:
        if not isinstance(key, ScalarNode) or key.tag == MERGE_TAG:
            continue
        first = seen.setdefault((key.tag, key.value), key)
        if first is not key:
            raise _Limit(f"the key {key.value!r} is given twice in one mapping (first on line "
                         f"{first.start_mark.line + 1}); keep one", key.start_mark)


def _expanded_size(root: Node) -> tuple[int, int]:
    """(nodes, scalar characters) in the document once aliases are expanded; refuses cycles
    and alias bombs (in nodes, or in characters: one long string repeated by aliases)."""
    sizes: dict[int, tuple[int, int]] = {}
    active: set[int] = set()

    def size(node: Node) -> tuple[int, int]:
        key = id(node)
        known = sizes.get(key)
        if known is not None:
            return known
        if key in active:
            raise _Limit("a recursive alias (a node that contains itself)", node.start_mark)
        if isinstance(node, ScalarNode):
            total = (1, len(node.value))
        else:
            active.add(key)
            nodes, chars = 1, 0
            if isinstance(node, SequenceNode):
                children = node.value
            elif isinstance(node, MappingNode):
                children = [n for pair in node.value for n in pair]
            else:  # pragma: no cover - PyYAML has no other node kinds
                children = []
            for child in children:
                more_nodes, more_chars = size(child)
                nodes += more_nodes
                chars += more_chars
                if nodes > MAX_NODES:
                    raise _Limit(f"too large once its aliases are expanded (over {MAX_NODES} "
                                 "nodes)", child.start_mark)
                if chars > MAX_CHARS:
                    raise _Limit(f"too large once its aliases are expanded (over {MAX_CHARS} "
                                 "characters)", child.start_mark)
            active.discard(key)
            total = (nodes, chars)
        sizes[key] = total
        return total

    return size(root)


def _where(source: str | os.PathLike | None) -> str:
    return str(source) if source is not None else "<text>"


def _place(mark) -> str | None:
    return f"line {mark.line + 1}, column {mark.column + 1}" if mark is not None else None


def parse_yaml(data: bytes | str, source: str | os.PathLike | None = None) -> Any:
    """Parse one YAML document safely; any failure is a ContentError naming ``source`` and,
    where it can, the line and column."""
    where = _where(source)
    if isinstance(data, bytes):
        if len(data) > MAX_BYTES:
            raise ContentError(f"larger than {MAX_BYTES} bytes", where)
        try:
            text = data.decode("utf-8-sig")
        except UnicodeDecodeError as exc:
            line = data.count(b"\n", 0, exc.start) + 1
            raise ContentError("not UTF-8 text", where, f"line {line}, byte {exc.start}") from None
    else:
        text = data
        if len(text) > MAX_BYTES:
            raise ContentError(f"larger than {MAX_BYTES} characters", where)
    loader = None
    try:
        loader = _BoundedLoader(text)   # (reading checks the characters: NUL and the like)
        node = loader.get_single_node()
        if node is None:
            return None
        _expanded_size(node)
        return loader.construct_document(node)
    except _Limit as exc:
        raise ContentError(str(exc), where, _place(exc.mark)) from None
    except ContentError as exc:
        raise ContentError(str(exc), where) from None
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        problem = exc.problem or exc.context or "invalid YAML"
        raise ContentError(f"invalid YAML: {problem}", where, _place(mark)) from None
    except yaml.reader.ReaderError as exc:
        # a character YAML does not allow (NUL, most control characters)
        line = text.count("\n", 0, exc.position) + 1
        column = exc.position - (text.rfind("\n", 0, exc.position) + 1) + 1
        raise ContentError(f"invalid YAML: the character {chr(exc.character)!r} is not allowed"
                           if isinstance(exc.character, int) else f"invalid YAML: {exc.reason}",
                           where, f"line {line}, column {column}") from None
    except yaml.YAMLError as exc:
        raise ContentError(f"invalid YAML: {exc}", where) from None
    except RecursionError:
        raise ContentError("nested too deeply", where) from None
    finally:
        if loader is not None:
            loader.dispose()


def read_yaml(path: str | os.PathLike) -> Any:
    """Read and parse a YAML file, refusing files that are too large before reading them."""
    where = _where(path)
    try:
        info = os.stat(path)
        if not stat.S_ISREG(info.st_mode):
            # a folder, a FIFO (reading would wait for a writer), a device (/dev/zero)
            raise ContentError("not a regular file", where)
        if info.st_size > MAX_BYTES:
            raise ContentError(f"larger than {MAX_BYTES} bytes", where)
        with open(path, "rb") as handle:
            data = handle.read(MAX_BYTES + 1)
    except ContentError:
        raise
    except OSError as exc:
        raise ContentError(f"cannot be read: {exc.strerror or exc}", where) from None
    return parse_yaml(data, path)


MAX_INT_BITS = 13_000            # integers JSON (and Python's int <-> str) can carry: ~3,900 digits
MAX_JSON_DEPTH = 200             # nesting of data handed in as Python values (saved games, mappings)
MAX_JSON_VALUES = 2_000_000      # values in one document, shared ones counted each time they occur


def check_json_like(value: Any, where: str, path: str = "") -> None:
    """Refuse values JSON cannot carry (YAML dates, binary, non-string keys, NaN, integers
    too large to write, containers that contain themselves, nesting deeper than
    ``MAX_JSON_DEPTH``, more than ``MAX_JSON_VALUES`` values), in bounded time."""
    stack = [(value, path, 0)]
    open_ids: set = set()           # containers on the path from the top (a cycle is refused)
    budget = MAX_JSON_VALUES
    while stack:
        item, at, depth = stack.pop()
        budget -= 1
        if budget < 0:
            raise ContentError(f"more than {MAX_JSON_VALUES} values", where)
        if item is _CLOSE:
            open_ids.discard(at)
            continue
        kind = type(item)
        if kind is dict or kind is list:
            if depth >= MAX_JSON_DEPTH:
                raise ContentError(f"nested deeper than {MAX_JSON_DEPTH} levels", where, at or "(top)")
            key = id(item)
            if key in open_ids:
                raise ContentError("a value that contains itself", where, at or "(top)")
            open_ids.add(key)
            stack.append((_CLOSE, key, depth))
            if kind is dict:
                for name, sub in item.items():
                    if type(name) is not str:
                        hint = f" ({boolean_hint(name)})" if type(name) is bool else ""
                        raise ContentError(f"mapping key {_brief(name)} is not a string{hint}",
                                           where, at or "(top)")
                    if not name.isascii():
                        stack.append((name, f"{at}.<key>" if at else "<key>", depth + 1))
                    stack.append((sub, f"{at}.{name}" if at else name, depth + 1))
            else:
                for index, sub in enumerate(item):
                    stack.append((sub, f"{at}[{index}]", depth + 1))
        elif kind is float:
            if item != item or item in (float("inf"), float("-inf")):
                raise ContentError("not a finite number", where, at or "(top)")
        elif kind is int:
            if item.bit_length() > MAX_INT_BITS:
                raise ContentError(f"an integer of more than {MAX_INT_BITS} bits", where, at or "(top)")
        elif kind is str:
            if not item.isascii():
                try:
                    item.encode("utf-8")
                except UnicodeEncodeError:
                    raise ContentError("a string that is not Unicode text (a lone surrogate)",
                                       where, at or "(top)") from None
        elif kind is not bool and item is not None:
            raise ContentError(f"a value of type {kind.__name__} ({_brief(item)}) is not allowed here",
                               where, at or "(top)")


_CLOSE = object()


def boolean_hint(value: bool) -> str:
    """Why a YAML file has true or false where a word was meant: PyYAML reads YAML 1.1, where
    an unquoted on, off, yes and no are booleans too (a key as well as a value)."""
    words, example = ("on, yes or true", '"on"') if value else ("off, no or false", '"off"')
    return (f"YAML reads an unquoted {words} as {str(value).lower()}: quote the word if it "
            f"is meant as text, e.g. {example}")


def _brief(value) -> str:
    """A short repr that cannot fail (hostile ``__repr__``, huge ints, deep nesting)."""
    try:
        text = repr(value)
    except Exception:
        return f"a {type(value).__name__}"
    return text if len(text) <= 40 else text[:37] + "..."


def path_tokens(path: str) -> list:
    """``"overrides.provisions.wter"`` / ``"scenarios[2].setup.seats[1]"`` as keys and indexes."""
    tokens: list = []
    for part in path.replace("[", ".[").split("."):
        if part.startswith("[") and part.endswith("]") and part[1:-1].isdigit():
            tokens.append(int(part[1:-1]))
        elif part:
            tokens.append(part)
    return tokens


def line_of(source: str | os.PathLike, path) -> int | None:
    """The line (from 1) where the value at ``path`` (a dotted path or a list of keys and
    indexes) is written in the YAML file ``source``: the line of its key in a mapping, of the
    item in a sequence; the deepest place found when the path goes on beyond the file (a
    place of merged content). None when the file cannot be read again."""
    return lines_of(source, [path])[0]


def lines_of(source: str | os.PathLike, paths: list) -> list:
    """``line_of`` for each of ``paths``, the file read once."""
    try:
        with open(source, "rb") as handle:
            data = handle.read(MAX_BYTES + 1)
        if len(data) > MAX_BYTES:
            return [None] * len(paths)
        loader = _BoundedLoader(data.decode("utf-8-sig"))
        try:
            root = loader.get_single_node()
        finally:
            loader.dispose()
    except (OSError, UnicodeDecodeError, yaml.YAMLError, _Limit, RecursionError):
        return [None] * len(paths)
    return [_line_in(root, path_tokens(path) if isinstance(path, str) else list(path))
            for path in paths]


def _line_in(node, tokens: list) -> int | None:
    line = None
    for token in tokens:
        if isinstance(node, MappingNode) and isinstance(token, str):
            found = next(((k, v) for k, v in node.value
                          if isinstance(k, ScalarNode) and k.value == token), None)
            if found is None:
                break
            line, node = found[0].start_mark.line + 1, found[1]
        elif isinstance(node, SequenceNode) and isinstance(token, int) and token < len(node.value):
            node = node.value[token]
            line = node.start_mark.line + 1
        else:
            break
    return line
