"""The JSON schemas of schemas/ (shipped inside the package) and validation against them."""

from __future__ import annotations

import functools
import json
from importlib import resources
from typing import Any

import jsonschema

from .errors import BrokenPlugin, ContentError

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


def _describe(error: jsonschema.ValidationError) -> str:
    # oneOf/anyOf failures: the most specific sub-error says more than "is not valid under ..."
    if error.context:
        best = jsonschema.exceptions.best_match(error.context)
        if best is not None and best.message:
            inner = list(best.relative_path)
            return best.message + (f" (at {format_path(inner)})" if inner else "")
    return error.message


def _located(error: jsonschema.ValidationError) -> jsonschema.ValidationError:
    """For a oneOf/anyOf failure, the error inside the branch the value was meant for: among
    the branches whose type the value has (no "type" error on the value itself), the deepest
    sub-error, so that a problem inside one scenario of a file is reported at its place, not
    as the file's top "is not of type 'array'"; the error itself when nothing is deeper."""
    while error.context:
        branches: dict = {}
        for sub in error.context:
            branches.setdefault(sub.relative_schema_path[0], []).append(sub)
        fitting = [sub for subs in branches.values()
                   if not any(s.validator == "type" and not s.relative_path for s in subs)
                   for sub in subs]
        deepest = max(fitting, key=lambda sub: len(sub.relative_path), default=None)
        if deepest is None or not deepest.relative_path:
            break
        error = deepest
    return error


def problems(name: str, document: Any, prefix: str = "") -> list[tuple[str, str]]:
    """Every schema problem of ``document`` as (path, message), deepest first."""
    found = []
    for error in validator(name).iter_errors(document):
        error = _located(error)
        found.append((_prefixed(prefix, format_path(error.absolute_path)), _describe(error)))
        if len(found) >= MAX_REPORTED:
            break
    found.sort(key=lambda item: item[0])
    return found


def check(name: str, document: Any, where: str, prefix: str = "") -> None:
    """Raise one ContentError listing every problem of ``document`` against schema ``name``."""
    found = problems(name, document, prefix)
    if found:
        raise_problems(found, where)


def raise_problems(found: list, where: str, plugin: str | None = None) -> None:
    """One ``ContentError`` listing every problem, each ``(path, message)`` or ``(path,
    message, line)`` (``"line 7"``: written first, as a reader's place); a ``BrokenPlugin``
    (a ``PluginError`` too) naming ``plugin`` when a plugin's hooks are among them."""
    lines = [(f"{entry[2]}: " if len(entry) > 2 and entry[2] else "") + f"{entry[0]}: {entry[1]}"
             for entry in found]
    first = found[0]
    line = first[2] if len(first) > 2 else None
    if len(found) == 1:
        message, path = first[1], first[0]
    else:
        message, path, line = f"{len(found)} problems:\n  " + "\n  ".join(lines), None, None
    if plugin is not None:
        raise BrokenPlugin(message, where, path, problems=lines, plugin=plugin, line=line)
    raise ContentError(message, where, path, problems=lines, line=line)


@functools.lru_cache(maxsize=None)
def def_validator(name: str, definition: str) -> jsonschema.protocols.Validator:
    """A validator for one ``$defs`` entry of schema ``name``."""
    document = schema(name)
    cls = jsonschema.validators.validator_for(document)
    return _strict(cls)(_inline(document["$defs"][definition], document["$defs"]))


def check_def(name: str, definition: str, document: Any, where: str, prefix: str = "") -> None:
    found = []
    for error in def_validator(name, definition).iter_errors(document):
        error = _located(error)
        found.append((_prefixed(prefix, format_path(error.absolute_path)), _describe(error)))
        if len(found) >= MAX_REPORTED:
            break
    if found:
        found.sort(key=lambda item: item[0])
        raise_problems(found, where)
