"""Safe, bounded reading of YAML documents.

Every file the library reads (content, rulesets, scenarios) comes through here: PyYAML's safe
loader only (no Python tags), and limits on bytes, nesting depth and the size a document would
have once its aliases are expanded, so that hostile input fails fast with a ContentError
instead of eating time or memory (API.md, Errors).
"""

from __future__ import annotations

import os
from typing import Any

import yaml
from yaml.composer import Composer
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from .errors import ContentError

MAX_BYTES = 1024 * 1024          # content and scenario files are a few KiB; 1 MiB is generous
MAX_DEPTH = 64                   # nesting of mappings and sequences
MAX_NODES = 100_000              # nodes once every alias is expanded


class _BoundedLoader(yaml.SafeLoader):
    """The safe loader, with a depth limit while composing and an expanded-size limit after."""

    def __init__(self, stream):
        super().__init__(stream)
        self._depth = 0

    def compose_node(self, parent, index):
        self._depth += 1
        try:
            if self._depth > MAX_DEPTH:
                mark = self.peek_event().start_mark
                raise ContentError(f"nested deeper than {MAX_DEPTH} levels (line {mark.line + 1})")
            return Composer.compose_node(self, parent, index)
        finally:
            self._depth -= 1


def _expanded_size(root: Node) -> int:
    """Nodes in the document once aliases are expanded; refuses cycles and alias bombs."""
    sizes: dict[int, int] = {}
    active: set[int] = set()

    def size(node: Node) -> int:
        key = id(node)
        known = sizes.get(key)
        if known is not None:
            return known
        if key in active:
            raise ContentError("a recursive alias (a node that contains itself)")
        if isinstance(node, ScalarNode):
            total = 1
        else:
            active.add(key)
            total = 1
            if isinstance(node, SequenceNode):
                children = node.value
            elif isinstance(node, MappingNode):
                children = [n for pair in node.value for n in pair]
            else:  # pragma: no cover - PyYAML has no other node kinds
                children = []
            for child in children:
                total += size(child)
                if total > MAX_NODES:
                    raise ContentError(
                        f"too large once its aliases are expanded (over {MAX_NODES} nodes)")
            active.discard(key)
        sizes[key] = total
        return total

    return size(root)


def _where(source: str | os.PathLike | None) -> str:
    return str(source) if source is not None else "<text>"


def parse_yaml(data: bytes | str, source: str | os.PathLike | None = None) -> Any:
    """Parse one YAML document safely; any failure is a ContentError naming ``source``."""
    where = _where(source)
    if isinstance(data, bytes):
        if len(data) > MAX_BYTES:
            raise ContentError(f"larger than {MAX_BYTES} bytes", where)
        try:
            text = data.decode("utf-8-sig")
        except UnicodeDecodeError as exc:
            raise ContentError(f"not UTF-8 text (byte {exc.start})", where) from None
    else:
        text = data
        if len(text) > MAX_BYTES:
            raise ContentError(f"larger than {MAX_BYTES} characters", where)
    loader = _BoundedLoader(text)
    try:
        node = loader.get_single_node()
        if node is None:
            return None
        _expanded_size(node)
        return loader.construct_document(node)
    except ContentError as exc:
        raise ContentError(str(exc), where) from None
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        place = f"line {mark.line + 1}, column {mark.column + 1}" if mark else None
        problem = exc.problem or exc.context or "invalid YAML"
        raise ContentError(f"invalid YAML: {problem}", where, place) from None
    except yaml.YAMLError as exc:
        raise ContentError(f"invalid YAML: {exc}", where) from None
    except RecursionError:
        raise ContentError("nested too deeply", where) from None
    finally:
        loader.dispose()


def read_yaml(path: str | os.PathLike) -> Any:
    """Read and parse a YAML file, refusing files that are too large before reading them."""
    where = _where(path)
    try:
        size = os.path.getsize(path)
        if size > MAX_BYTES:
            raise ContentError(f"larger than {MAX_BYTES} bytes", where)
        with open(path, "rb") as handle:
            data = handle.read(MAX_BYTES + 1)
    except ContentError:
        raise
    except OSError as exc:
        raise ContentError(f"cannot be read: {exc.strerror or exc}", where) from None
    return parse_yaml(data, path)


def check_json_like(value: Any, where: str, path: str = "") -> None:
    """Refuse values JSON cannot carry (YAML dates, binary, non-string keys, NaN)."""
    stack = [(value, path)]
    while stack:
        item, at = stack.pop()
        kind = type(item)
        if kind is dict:
            for key, sub in item.items():
                if type(key) is not str:
                    raise ContentError(f"mapping key {key!r} is not a string", where, at or None)
                stack.append((sub, f"{at}.{key}" if at else key))
        elif kind is list:
            for index, sub in enumerate(item):
                stack.append((sub, f"{at}[{index}]"))
        elif kind is float:
            if item != item or item in (float("inf"), float("-inf")):
                raise ContentError("not a finite number", where, at or None)
        elif kind not in (str, int, bool) and item is not None:
            raise ContentError(f"a value of type {kind.__name__} ({item!r:.40}) is not allowed here",
                               where, at or None)
