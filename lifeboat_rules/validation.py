"""The JSON schemas of schemas/ (shipped inside the package) and validation against them."""

from __future__ import annotations

import copy
import difflib
import functools
import json
import os
import re
from importlib import resources
from typing import Any

import jsonschema

from .errors import BrokenPlugin, ContentError, problem_record
from .records import short
from .yamlio import boolean_hint, lines_of

MAX_REPORTED = 50  # problems listed in one ContentError


@functools.lru_cache(maxsize=None)
def schema(name: str) -> dict:
    """The schema ``schemas/<name>.schema.json`` as a mapping."""
    text = resources.files("lifeboat_rules.schemas").joinpath(f"{name}.schema.json").read_text("utf-8")
    return json.loads(text)


def _inline(node, defs: dict, depth: int = 0):
    """The schema with its local ``$ref``s replaced by their definitions: the same meaning,
    validated without a reference lookup per value (our schemas are not recursive)."""
    if depth > 50:
        raise ValueError("schema references nest too deeply")
    if isinstance(node, dict):
        ref = node.get("$ref")
        if isinstance(ref, str) and ref.startswith("#/$defs/") and len(node) == 1:
            return _inline(defs[ref[len("#/$defs/"):]], defs, depth + 1)
        return {k: _inline(v, defs, depth + 1) if k != "$defs" else v for k, v in node.items()}
    if isinstance(node, list):
        return [_inline(v, defs, depth + 1) for v in node]
    return node


def _strict(cls):
    """``cls`` with "integer" meaning a Python int: JSON Schema also counts 2.0 (and -0.0) as
    an integer, but a float count, size or damage breaks the game (``range(2.0)``)."""
    checker = cls.TYPE_CHECKER.redefine(
        "integer", lambda checker, value: type(value) is int)
    return jsonschema.validators.extend(cls, type_checker=checker)


@functools.lru_cache(maxsize=None)
def validator(name: str) -> jsonschema.protocols.Validator:
    document = schema(name)
    cls = jsonschema.validators.validator_for(document)
    cls.check_schema(document)
    return _strict(cls)(_inline(document, document.get("$defs", {})))


def format_path(parts) -> str:
    text = ""
    for part in parts:
        if isinstance(part, int):
            text += f"[{part}]"
        else:
            text += f".{part}" if text else str(part)
    return text or "(top)"


def _prefixed(prefix: str, path: str) -> str:
    if not prefix:
        return path
    if path == "(top)":
        return prefix
    return f"{prefix}{path}" if path.startswith("[") else f"{prefix}.{path}"


def _fitting(error: jsonschema.ValidationError) -> list:
    """The errors of each branch of a oneOf/anyOf failure whose shape the value has (no
    "type", "const" or "enum" error on the value itself)."""
    branches: dict = {}
    for sub in error.context:
        branches.setdefault(sub.relative_schema_path[0], []).append(sub)
    return [subs for subs in branches.values()
            if not any(s.validator in ("type", "const", "enum") and not s.relative_path
                       for s in subs)]


def _located(error: jsonschema.ValidationError) -> list:
    """The errors a oneOf/anyOf failure stands for, inside the branch the value was meant for:
    among the branches whose shape the value has (no "type", "const" or "enum" error on the
    value itself), the one with the deepest error (the fewest errors on a tie), so that a
    problem inside one scenario of a file is reported at its place, not as the file's top "is
    not of type 'array'", and a misspelt key of a single scenario as that key; the error
    itself when no branch stands out."""
    if not error.context:
        return [error]
    fitting = _fitting(error)

    def score(subs):
        return max(len(s.relative_path) for s in subs), -len(subs)

    scores = sorted((score(subs) for subs in fitting), reverse=True)
    if scores and (len(scores) == 1 or scores[0] != scores[1]):
        best = next(subs for subs in fitting if score(subs) == scores[0])
        return [inner for sub in best for inner in _located(sub)]
    deepest = max((sub for subs in fitting for sub in subs), key=lambda sub: len(sub.relative_path),
                  default=None)
    if deepest is None or not deepest.relative_path:
        return [error]
    return _located(deepest)


RULESET_KEYS = frozenset({"extends", "expansions", "variants", "options", "plugins", "overrides",
                          "description"})
CONTENT_KEYS = frozenset({"characters", "provisions", "navigation", "setup", "words"})
# the keys of a scenario (schemas/scenario.schema.json) that no ruleset or content file has
SCENARIO_ONLY_KEYS = frozenset({"rules", "ruleset", "seed", "steps", "expect", "scenarios"})


def document_kind(document) -> str:
    """Which kind of file a parsed document is, by its keys: "scenario", "content" or
    "ruleset" (the default: its schema then says what is wrong)."""
    if isinstance(document, list):
        return "scenario"
    if isinstance(document, dict):
        keys = set(document)
        setup = document.get("setup")
        # a content file may have a `setup` section too; a scenario's setup names the seats
        if keys & {"steps", "scenarios", "expect"} or (isinstance(setup, dict) and "seats" in setup):
            return "scenario"
        if keys and keys <= CONTENT_KEYS:
            return "content"
        if "setup" in keys and not keys & RULESET_KEYS:
            return "scenario"
    return "ruleset"


# keys that belong elsewhere in a document (by schema, written at its top): where to put them
ELSEWHERE = {"ruleset": {
    "players": "overrides.setup.players", "setup": "overrides.setup",
    "characters": "overrides.characters", "provisions": "overrides.provisions",
    "navigation": "overrides.navigation",
}}


def _unexpected(error: jsonschema.ValidationError) -> list:
    """The keys an ``additionalProperties: false`` error is about, in the document's order."""
    schema = error.schema if isinstance(error.schema, dict) else {}
    allowed = schema.get("properties", {})
    patterns = list(schema.get("patternProperties", {}))
    return [key for key in error.instance
            if key not in allowed and not any(re.search(p, str(key)) for p in patterns)]


def _unknown_key(key, error: jsonschema.ValidationError, name: str, at: list) -> str:
    """What to say of a key the schema does not allow: the allowed key it is nearest to (a
    misspelling), where it belongs instead, or the keys allowed there."""
    schema = error.schema if isinstance(error.schema, dict) else {}
    allowed = sorted(schema.get("properties", {}))
    moved = ELSEWHERE.get(name, {}).get(str(key)) if not at else None
    if moved is not None:
        return f"unknown key {key!r}: it goes under {moved} (docs/house-rules.md)"
    close = difflib.get_close_matches(str(key), allowed, n=1)
    if close:
        return f"unknown key {key!r}; did you mean {close[0]!r}?"
    return f"unknown key {key!r} (the keys here: {', '.join(allowed) or 'none'})"


def _entries(found_errors, name: str, prefix: str, inherited=None) -> list[tuple[str, str]]:
    """(path, message) of each problem of ``found_errors``: a key the schema does not allow is
    a problem of its own, at the key's place (so that its line can be found)."""
    found = []
    for error in found_errors:
        for located in _located(error):
            shown, inner = located, []
            forms = ""
            if located.context:
                # no branch stands out: the most specific sub-error says more than "is not
                # valid under ...", and the forms accepted say what to write instead
                forms = _forms(located)
                fitting = [sub for subs in _fitting(located) for sub in subs]
                best = jsonschema.exceptions.best_match(fitting)
                if best is not None and best.message:
                    shown, inner = best, list(best.relative_path)
            at = list(located.absolute_path) + inner
            if (shown.validator == "additionalProperties" and shown.validator_value is False
                    and isinstance(shown.instance, dict)):
                for key in _unexpected(shown):
                    message = _unknown_key(key, shown, name, at)
                    found.append((_prefixed(prefix, format_path(at + [key])),
                                  f"{message}; {forms}" if forms else message))
            else:
                if shown is located and forms:   # the value has the shape of no form
                    message = f"{short(located.instance)} is none of the {forms}"
                else:
                    message = _message(shown, name, inherited)
                    if shown is not located and inner:
                        message += f" (at {format_path(inner)})"
                    if forms:
                        message += f"; {forms}"
                found.append((_prefixed(prefix, format_path(located.absolute_path)),
                              message + _yaml_boolean(shown)))
            if len(found) >= MAX_REPORTED:
                return found[:MAX_REPORTED]
    return found


TYPE_WORDS = {"string": "text", "integer": "a whole number", "number": "a number",
              "boolean": "true or false", "null": "null", "object": "a mapping", "array": "a list"}
TYPES_WORDS = {"string": "texts", "integer": "whole numbers", "number": "numbers",
               "boolean": "true or false values", "object": "mappings", "array": "lists"}


def _form(branch) -> str:
    """One form a oneOf/anyOf accepts, in words: ``a list of ids``, ``'all'``,
    ``{all_except: ...}``, ``text``."""
    if not isinstance(branch, dict):
        return "anything" if branch is True else "nothing"
    if "const" in branch:
        return repr(branch["const"])
    if "enum" in branch:
        return " or ".join(repr(value) for value in branch["enum"])
    kinds = branch.get("type")
    kinds = kinds if isinstance(kinds, list) else [kinds] if isinstance(kinds, str) else []
    if kinds == ["object"] and branch.get("required"):
        return "{" + ", ".join(f"{key}: ..." for key in branch["required"]) + "}"
    if kinds == ["array"] and isinstance(branch.get("items"), dict):
        items = branch["items"]
        if items.get("type") == "string" and "pattern" in items:
            return "a list of ids"
        if isinstance(items.get("type"), str) and items["type"] in TYPES_WORDS:
            return f"a list of {TYPES_WORDS[items['type']]}"
    if kinds:
        return " or ".join(TYPE_WORDS.get(kind, kind) for kind in kinds)
    if branch.get("required"):
        return "a mapping with " + " and ".join(branch["required"])
    return "a value of another form"


def _forms(error: jsonschema.ValidationError) -> str:
    """``forms accepted here: a list of ids, 'all' or {marked: ...}`` for a oneOf/anyOf
    failure (every form, so that an author sees what else may be written); "" for others."""
    if error.validator not in ("oneOf", "anyOf") or not isinstance(error.validator_value, list):
        return ""
    forms = [_form(branch) for branch in error.validator_value]
    listed = ", ".join(forms[:-1]) + f" or {forms[-1]}" if len(forms) > 1 else forms[0]
    return f"forms accepted here: {listed}"


def _message(error: jsonschema.ValidationError, name: str, inherited=None) -> str:
    """The author's words for one schema error: a value of a oneOf that fits more than one of
    its forms (a treasure with both ``points`` and ``set``) says which keys clash and, for a
    key that comes from content extended (``inherited(path, key)``), how to drop it."""
    if error.validator != "oneOf" or error.context or not isinstance(error.instance, dict):
        return error.message
    keys = [branch["required"][0] for branch in error.validator_value
            if isinstance(branch, dict) and set(branch) == {"required"}
            and len(branch["required"]) == 1 and branch["required"][0] in error.instance]
    if len(keys) < 2:
        return error.message
    path = list(error.absolute_path)
    what = f"{path[-2]}'s {path[-1]}" if len(path) >= 2 else format_path(path)
    both = " and ".join(keys)
    old = [key for key in keys if inherited is not None and inherited(path, key)]
    if old and len(old) < len(keys):
        own = " and ".join(key for key in keys if key not in old)
        kept = ", ".join(f"{key}: {json.dumps(error.instance[key])}" for key in old)
        dropped = ", ".join(f"{key}: null" for key in old)
        return (f"{what} has {own} here and keeps {kept} from the content it extends; it takes "
                f"only one of {both}: write {dropped} to drop what it inherits")
    return f"{what} has both {both}; it takes only one of them"


def _yaml_boolean(error: jsonschema.ValidationError) -> str:
    """A hint for true/false where text is expected: YAML (1.1, as PyYAML reads it) takes an
    unquoted on, off, yes or no for a boolean."""
    if not isinstance(error.instance, bool):
        return ""
    schema = error.schema if isinstance(error.schema, dict) else {}
    kinds = schema.get("type")
    texts = [value for value in schema.get("enum", [schema.get("const")]) if isinstance(value, str)]
    if "string" in (kinds if isinstance(kinds, list) else [kinds]) or texts:
        return f" ({boolean_hint(error.instance)})"
    if error.validator in ("oneOf", "anyOf") and any(
            isinstance(branch, dict) and (branch.get("type") == "string"
                                          or isinstance(branch.get("const"), str))
            for branch in error.validator_value):
        return f" ({boolean_hint(error.instance)})"
    return ""


def _with_lines(found: list, file: str | None) -> list:
    """``found`` with the line of each place in ``file`` (the YAML file the document was read
    from), as ``(path, message, "line 7")``; as it is without a file."""
    if file is None or not os.path.isfile(file):
        return found
    lines = lines_of(file, [path if path != "(top)" else [] for path, _ in found])
    return [(path, message, f"line {line}" if line is not None else None)
            for (path, message), line in zip(found, lines)]


def problems(name: str, document: Any, prefix: str = "", file: str | None = None,
             inherited=None) -> list:
    """Every schema problem of ``document`` as (path, message), deepest first; as (path,
    message, line) with the ``file`` it was read from. ``inherited(path, key)``: whether the
    key at ``path`` comes from content extended, for the hint to drop it (``_message``)."""
    found = _entries(validator(name).iter_errors(document), name, prefix, inherited)
    found.sort(key=lambda item: item[0])
    return _with_lines(found, file)


def unknown_keys_apart(name: str, document: Any, file: str | None = None,
                       values: bool = False) -> tuple:
    """``(problems, usable)``: the schema problems of ``document`` (as ``problems`` gives
    them) and, when every one is a key the schema does not allow, a copy of the document
    without those keys, whose other parts can still be checked (so that an author's typo does
    not hide the rest of what is wrong); ``usable`` is None when other problems are among them
    ([] and the document itself when it is valid). With ``values``, a value the schema
    refuses is set aside too, with its key (a list item with its list)."""
    check_against = validator(name)
    errors = list(check_against.iter_errors(document))
    if not errors:
        return [], document
    found = problems(name, document, "", file)
    places = []
    for error in errors:
        for located in _located(error):
            at = list(located.absolute_path)
            if not located.context and (located.validator == "additionalProperties"
                                        and located.validator_value is False
                                        and isinstance(located.instance, dict)):
                places.append((at, _unexpected(located)))
                continue
            cut = _last_key(document, at) if values else None
            if cut is None:
                return found, None
            places.append((at[:cut], [at[cut]]))
    usable = copy.deepcopy(document)
    for at, keys in places:
        node = usable
        for part in at:   # (a place inside a part already set aside is gone with it)
            node = node.get(part) if isinstance(node, dict) else None
        for key in keys:
            if isinstance(node, dict):
                node.pop(key, None)
    return found, (usable if check_against.is_valid(usable) else None)


def _last_key(document: Any, path: list) -> int | None:
    """The index in ``path`` of its last key of a mapping (None for the top): what is set
    aside for a value refused there, so that the indexes of a list stay as written."""
    cut, node = None, document
    for index, part in enumerate(path):
        if isinstance(node, dict):
            cut = index
        node = node[part]
    return cut


def check(name: str, document: Any, where: str, prefix: str = "", file: str | None = None) -> None:
    """Raise one ContentError listing every problem of ``document`` against schema ``name``,
    each with its line in ``file`` (the YAML file read) when given."""
    found = problems(name, document, prefix, file)
    if found:
        raise_problems(found, where)


def problems_error(found: list, where: str, plugin: str | None = None,
                   file: str | None = None) -> ContentError:
    """One ``ContentError`` listing every problem, each ``(path, message)`` or ``(path,
    message, line)`` (``"line 7"``: written first, as a reader's place; a path of None: the
    message alone); a ``BrokenPlugin`` (a ``PluginError`` too) naming ``plugin`` when a
    plugin's hooks are among them. Each is also a ``Problem`` of ``details``, whose lines are
    in ``file`` (default: ``where``; one scenario of a file is ``file[2]``)."""
    lines, details = [], []
    for entry in found:
        path, message = entry[0], entry[1]
        line = entry[2] if len(entry) > 2 else None
        lines.append((f"{line}: " if line else "") + (f"{path}: " if path else "") + message)
        details.append(problem_record(path, line, message, file or where))
    first = found[0]
    line = first[2] if len(first) > 2 else None
    if len(found) == 1:
        message, path = first[1], first[0]
    else:
        message, path, line = f"{len(found)} problems:\n  " + "\n  ".join(lines), None, None
    if plugin is not None:
        return BrokenPlugin(message, where, path, problems=lines, plugin=plugin, line=line,
                            details=details)
    return ContentError(message, where, path, problems=lines, line=line, details=details)


def raise_problems(found: list, where: str, plugin: str | None = None) -> None:
    """Raise ``problems_error(found, where, plugin)``."""
    raise problems_error(found, where, plugin)


@functools.lru_cache(maxsize=None)
def def_validator(name: str, definition: str) -> jsonschema.protocols.Validator:
    """A validator for one ``$defs`` entry of schema ``name``."""
    document = schema(name)
    cls = jsonschema.validators.validator_for(document)
    return _strict(cls)(_inline(document["$defs"][definition], document["$defs"]))


def check_def(name: str, definition: str, document: Any, where: str, prefix: str = "") -> None:
    found = _entries(def_validator(name, definition).iter_errors(document), name, prefix)
    if found:
        found.sort(key=lambda item: item[0])
        raise_problems(found, where)
