"""Rulesets: a YAML file (or mapping) naming expansions, variants, options, plugins and content
overrides, extending another ruleset (``classic`` by default). ``load_ruleset`` flattens the
chain, registers the plugins, merges and checks the content and options, and returns a
``Ruleset`` shared by all its games (loaded once per definition).
"""

from __future__ import annotations

import copy
import difflib
import importlib
import json
import os
import types as pytypes
from importlib import resources
from typing import Any, Callable, Mapping, Union

from . import validation as schemas
from .content import BUILTIN_DIR, base_content, content_problems, deep_merge, new_thing_problems
from .errors import ContentError
from .plugins import (BASE_PLUGINS, Registry, Rules, check_action_types, check_effects,
                      check_markers, check_options, check_stages, defined_somewhere,
                      import_plugin, origin, shipped, unique)
from .records import Phase, short
from .yamlio import boolean_hint, check_json_like, line_of, parse_yaml, path_tokens, read_yaml


class Ruleset:
    """A loaded ruleset: its flattened definition (``spec``), its checked content, its options
    and the rules (plugins) that play it. Immutable once loaded."""

    def __init__(self, name: str, spec: dict[str, Any], rules: Rules, source: str) -> None:
        self.name: str = name
        self.spec: dict[str, Any] = spec   # name, expansions, variants, options, plugins, overrides
        self.rules = rules
        self.content = rules.content
        self.options: dict[str, str] = rules.options
        self.source = source

    @property
    def players(self) -> range:
        setup = self.content.setup["players"]
        return range(setup["min"], setup["max"] + 1)

    def trace(self, writer: Callable[..., object] = print) -> None:
        """Write every hook call of this ruleset's games with ``writer`` (pluggy tracing)."""
        self.rules.trace(writer)

    def __repr__(self) -> str:
        extras = self.spec["expansions"] + self.spec["variants"] + self.spec["plugins"]
        return f"<Ruleset {self.name}{' +' + ', '.join(extras) if extras else ''}>"


# --------------------------------------------------------------------------- files

def _builtin_file(name: str):
    entry = resources.files(BUILTIN_DIR).joinpath("rulesets", f"{name}.yaml")
    return entry if entry.is_file() else None


def builtin_rulesets() -> list:
    folder = resources.files(BUILTIN_DIR).joinpath("rulesets")
    return sorted(p.name[:-5] for p in folder.iterdir() if p.name.endswith(".yaml"))


def _read(source, base_dir: str) -> tuple[dict, str, str, str | None]:
    """(definition, where, its folder, identity for cycles) of a ruleset reference."""
    if isinstance(source, dict):
        return source, "<ruleset mapping>", base_dir, None
    if not isinstance(source, (str, os.PathLike)):
        raise ContentError(f"a ruleset is a name, a path or a mapping, not {type(source).__name__}")
    text = os.fspath(source)
    plain = os.sep not in text and "/" not in text and not text.endswith((".yaml", ".yml"))
    builtin = _builtin_file(text) if plain else None
    if builtin is not None:
        where = f"<built-in ruleset {text}>"
        return parse_yaml(builtin.read_bytes(), where), where, base_dir, f"builtin:{text}"
    path = text if os.path.isabs(text) else os.path.join(base_dir, text)
    if not os.path.exists(path):
        if plain:
            close = difflib.get_close_matches(text, builtin_rulesets(), n=1)
            hint = f"; did you mean {close[0]!r}?" if close else ""
            raise ContentError(f"unknown ruleset {text!r} (built-in: {', '.join(builtin_rulesets())}; "
                               f"or give the path of a YAML file){hint}")
        raise ContentError("no such ruleset file", path)
    path = os.path.abspath(path)
    return read_yaml(path), path, os.path.dirname(path), path


def _flatten(source, base_dir: str, seen: tuple, chain: list | None = None,
             deferred: list | None = None) -> tuple[dict, str]:
    """The flattened definition of a ruleset and where it is; ``chain`` gets the (where,
    definition) of every file of the ``extends`` chain, the ruleset's own first (to find the
    line a problem comes from). With ``deferred``, keys of the ruleset's own file that the
    schema does not allow go there (with their lines) and are left out, so that the rest is
    still checked (``build`` reports them all at once)."""
    spec, where, folder, identity = _read(source, base_dir)
    if spec is None:
        spec = {}
    if not isinstance(spec, dict):
        raise ContentError("a ruleset is a mapping", where, "(top)")
    check_json_like(spec, where)
    # a file's problems come with their lines (a built-in ruleset or a mapping has none)
    is_file = identity is not None and not identity.startswith("builtin:")
    found, usable = schemas.unknown_keys_apart("ruleset", spec, where if is_file else None,
                                               values=True)
    if found and (deferred is None or usable is None):
        schemas.raise_problems(found, where)
    if found:
        deferred.extend(found)
        spec = usable
    if chain is not None:
        chain.append((where, spec))
    if identity is not None and identity in seen:
        raise ContentError("a ruleset extends itself (through " + " -> ".join(seen + (identity,)) + ")",
                           where, "extends")
    seen = seen + ((identity,) if identity else ())
    parent_name = spec.get("extends")
    if parent_name is None and identity != "builtin:classic":
        parent_name = "classic"
    if parent_name is not None:
        try:
            parent, _ = _flatten(parent_name, folder, seen, chain)
        except ContentError as exc:
            if exc.where is None:
                raise ContentError(str(exc), where, "extends") from None
            raise
    else:
        parent = {"name": "classic", "expansions": [], "variants": [], "options": {},
                  "plugins": [], "overrides": {}}
    if identity is None:
        default_name = "custom"
    elif identity.startswith("builtin:"):
        default_name = identity[len("builtin:"):]
    else:
        default_name = os.path.splitext(os.path.basename(where))[0]

    def joined(key):
        return parent[key] + [e for e in spec.get(key, []) if e not in parent[key]]

    flat = {
        "name": spec.get("name", default_name),
        "expansions": joined("expansions"),
        "variants": joined("variants"),
        "options": {**parent["options"], **spec.get("options", {})},
        "plugins": joined("plugins"),
        "overrides": _compose(copy.deepcopy(parent["overrides"]), spec.get("overrides", {})),
    }
    if spec.get("words"):   # the ruleset's own words join the content as its overrides do
        _compose(flat["overrides"], {"words": spec["words"]})
    return flat, where


def _compose(base: dict, overlay: dict) -> dict:
    """Overrides on top of those of the ruleset extended (None is kept: it removes later)."""
    for key, value in overlay.items():
        if isinstance(value, dict) and isinstance(base.get(key), dict):
            _compose(base[key], value)
        else:
            base[key] = copy.deepcopy(value)
    return base


# --------------------------------------------------------------------------- building

def _matched(node, tokens: list) -> int:
    """How many of ``tokens`` (keys and indexes) lead from ``node`` into it."""
    matched = 0
    for token in tokens:
        if isinstance(node, dict) and isinstance(token, str) and token in node:
            node = node[token]
        elif isinstance(node, list) and isinstance(token, int) and token < len(node):
            node = node[token]
        else:
            break
        matched += 1
    return matched


def _overrides_path(overrides: dict, path: str) -> str:
    """A content problem's place, as ``overrides.<path>`` when the overrides set that place,
    else marked as a place of the merged content."""
    tokens = path_tokens(path)
    matched = _matched(overrides, tokens)
    if tokens and (matched == len(tokens) or matched >= 2):
        return f"overrides.{path}"
    return f"{path} (merged content)"


def _line(place: str, where: str, chain) -> str | None:
    """Where the file of the ``extends`` chain that sets ``place`` has it: ``line 7``, or
    ``parent.yaml, line 7`` in a file extended; None for a mapping or a built-in ruleset."""
    head = place.split(" ", 1)[0]
    if not head.startswith(("overrides.", "options.", "expansions[", "variants[", "plugins[")):
        return None
    tokens = path_tokens(head)
    best, best_file = 0, None
    for file, spec in chain:     # the file that sets most of the path (the nearest on a tie)
        matched = _matched(spec, tokens)
        if matched > best:
            best, best_file = matched, file
    least = 3 if tokens[0] == "overrides" else 2       # overrides.<section>.<id>, options.<name>
    if best_file is None or best < min(least, len(tokens)) or not os.path.isfile(best_file):
        return None
    line = line_of(best_file, tokens[:best])
    if line is None:
        return None
    return f"line {line}" if best_file == where else f"{best_file}, line {line}"


def _new_things(raw: dict, overrides: dict, chain) -> tuple[dict, list]:
    """The overrides without the ids the content lacks that are not complete new things, and
    the problems those are (``content.new_thing_problems``)."""
    def added(section, key):
        return any(isinstance(((spec.get("overrides") or {}).get(section) or {}).get(key), dict)
                   for _, spec in chain)

    found = new_thing_problems(raw, overrides, added)
    if not found:
        return overrides, []
    kept = copy.deepcopy(overrides)
    for path, _ in found:
        section, key = path.split(".", 1)
        kept[section].pop(key, None)
    return kept, [(f"overrides.{path}", message) for path, message in found]


def _inherited(spec: dict) -> Callable[[list, str], bool]:
    """Whether a key of the merged content at a place comes from what the ruleset ``spec``
    extends: the ruleset's own overrides write that place, but not that key (so ``key: null``
    there drops it, docs/house-rules.md)."""
    def inherited(path: list, key: str) -> bool:
        node: Any = spec.get("overrides")
        for part in path:
            node = node.get(part) if isinstance(node, dict) else None
        return isinstance(node, dict) and key not in node
    return inherited


def build(flat: dict, where: str, chain=(), deferred=()) -> Ruleset:
    """Register the plugins of a flattened ruleset and build its rules; every problem found
    is reported in one ``ContentError``, each with its file and line where it has one, after
    the ``deferred`` ones (the unknown keys ``_flatten`` left out)."""
    registry = Registry()
    for module_name in BASE_PLUGINS:
        registry.register(importlib.import_module(module_name),
                          "base." + module_name.rsplit(".", 1)[1], "")
    loaded = []
    for section, prefix in (("expansions", "expansion:"), ("variants", "variant:"),
                            ("plugins", "plugin:")):
        for index, name in enumerate(flat[section]):
            place = f"{section}[{index}]"
            try:
                plugin = import_plugin(name, where, place, section)
            except ContentError as exc:
                registry.problems.append((place, str(exc).split(f"{place}: ", 1)[-1]))
                continue
            declared = getattr(plugin, "LIFEBOAT_KIND", None)
            if section != "plugins" and isinstance(declared, str) and declared + "s" != section:
                article = "an" if declared[:1] in "aeiou" else "a"
                registry.problems.append((place, f"{name!r} is {article} {declared}, not one of the "
                                                 f"{section} (list it under {declared}s)"))
                continue
            if registry.register(plugin, prefix + name, place):
                loaded.append((name, plugin, place))
    present = {name for name, _, _ in loaded}
    for name, plugin, place in loaded:   # what plugins declare they cannot go with, or need
        for other in getattr(plugin, "LIFEBOAT_CONFLICTS", ()):
            if other in present:
                registry.problems.append((place, f"{name!r} cannot be combined with {other!r} "
                                                 f"({name} declares LIFEBOAT_CONFLICTS)"))
        for other in getattr(plugin, "LIFEBOAT_REQUIRES", ()):
            if other not in present:
                registry.problems.append((place, f"{name!r} needs {other!r} in the same ruleset "
                                                 f"({name} declares LIFEBOAT_REQUIRES)"))
        events = getattr(plugin, "LIFEBOAT_EVENTS", ())
        if not isinstance(events, (list, tuple)) or not all(isinstance(e, str) and e for e in events):
            registry.problems.append((place, f"{name!r}: LIFEBOAT_EVENTS is a list of the event "
                                             f"types it emits, not {short(events)}"))
    failed_plugins = len(registry.problems)

    # content: the base files, each plugin in registration order, then the overrides
    raw = base_content()
    stub = pytypes.SimpleNamespace(name=flat["name"], spec=flat)
    for impl in registry.implementations("lifeboat_content"):
        plugin = registry.plugin_name(impl)
        arguments = {"content": raw, "ruleset": stub}
        try:
            impl.function(**{arg: arguments[arg] for arg in impl.argnames})
        except ContentError as exc:
            registry.problems.extend(
                (registry.place(plugin), f"plugin {plugin!r} (lifeboat_content): "
                 f"{exc.where + ': ' if exc.where else ''}{line}") for line in exc.problems)
        except Exception as exc:
            registry.problems.append((registry.place(plugin), f"plugin {plugin!r} failed in "
                                      f"lifeboat_content: {type(exc).__name__}: {exc}{origin(exc)}"))
    if flat["overrides"]:
        overrides, found = _new_things(raw, flat["overrides"], chain)
        registry.problems.extend(found)
        deep_merge(raw, overrides)

    effects = unique(registry, registry.collect("lifeboat_effects", check_effects), "effect",
                     lambda item: item[0])
    effects = {name: item[1] for name, item in effects.items()}
    markers = unique(registry, registry.collect("lifeboat_markers", check_markers), "marker",
                     lambda marker: marker.name)
    content, found = content_problems(raw, set(effects), set(markers), defined_somewhere,
                                      _inherited(chain[0][1] if chain else flat))
    # a place no file of the ruleset wrote may come from a plugin's hook: name the candidates
    changers = [registry.plugin_name(impl) for impl in registry.implementations("lifeboat_content")
                if not shipped(impl.plugin)]
    merged = (f"merged content, after the lifeboat_content hook of {', '.join(changers)}"
              if changers else "merged content")
    for path, message in found:
        registry.problems.append((_overrides_path(flat["overrides"], path) if flat["overrides"]
                                  else f"{path} ({merged})", message))

    declared: dict = {}   # options: declared by plugins; a later declaration wins
    for _, options in registry.collect("lifeboat_options", check_options):
        declared.update(options)
    options = {name: spec["default"] for name, spec in declared.items()}
    for name, chosen in flat["options"].items():
        if name not in declared:
            close = difflib.get_close_matches(name, list(declared), n=1)
            hint = f"; did you mean {close[0]!r}?" if close else ""
            registry.problems.append((f"options.{name}", "unknown option (known: "
                                      f"{', '.join(sorted(declared)) or 'none'}){hint}"))
        elif chosen not in declared[name]["values"]:
            values = list(declared[name]["values"])
            # `dawn_heal: on` unquoted is YAML's true, not the word
            hint = (f" ({boolean_hint(chosen)})" if isinstance(chosen, bool)
                    and any(isinstance(value, str) for value in values) else "")
            registry.problems.append((f"options.{name}", f"{chosen!r} is not one of "
                                                         f"{values}{hint}"))
        else:
            options[name] = chosen

    types = unique(registry, registry.collect("lifeboat_action_types", check_action_types),
                   "action type", lambda atype: atype.name)
    stages = unique(registry, registry.collect("lifeboat_stages", check_stages), "stage",
                    lambda cls: cls.NAME)
    phases = None
    try:
        phases = registry.pm.hook.lifeboat_phases()
    except Exception as exc:
        registry.problems.append(("lifeboat_phases", f"lifeboat_phases failed: "
                                                     f"{type(exc).__name__}: {exc}{origin(exc)}"))
    else:
        if (not isinstance(phases, (list, tuple)) or not phases
                or not all(isinstance(p, (list, tuple)) and len(p) == 2 and p[0] in set(Phase)
                           and p[0] != Phase.OVER and callable(p[1]) for p in phases)):
            implementers = [registry.plugin_name(i) for i in registry.implementations("lifeboat_phases")]
            registry.problems.append(("lifeboat_phases", "lifeboat_phases must return a non-empty list "
                                      "of (Phase, begin) pairs (implemented by "
                                      f"{', '.join(implementers)})"))
    problems = registry.problems
    if problems or deferred:
        if failed_plugins:
            note = " (found without the plugins that failed to load)"
            problems[failed_plugins:] = [(path, message + note)
                                         for path, message in problems[failed_plugins:]]
        if deferred:
            # (every message of a key the schema lacks begins so: validation._unknown_key)
            parts = ("unknown keys" if all(entry[1].startswith("unknown key") for entry in deferred)
                     else "parts")
            problems = [(path, message + f" (found without the {parts} above)")
                        for path, message in problems]
        schemas.raise_problems(list(deferred) + [(place, message, _line(place, where, chain))
                                                 for place, message in problems],
                               where, registry.culprit)
    rules = Rules(registry.pm, content, options, registry.names, types, effects, stages, markers,
                  [(Phase(name), begin) for name, begin in phases])
    return Ruleset(flat["name"], flat, rules, where)


_CACHE: dict = {}


# what ``load_ruleset`` and ``new_game`` take: a loaded ruleset, a built-in name or the path of a
# YAML file, or the ruleset as a mapping (a dict)
RulesetSource = Union[Ruleset, str, "os.PathLike[str]", Mapping[str, object]]


def load_ruleset(source: RulesetSource = "classic") -> Ruleset:
    """A ruleset from a built-in name (``classic``...), the path of a YAML file, or a mapping
    (a dict). Raises ``ContentError`` naming the file and the place of any problem."""
    return load_ruleset_at(source, os.getcwd())


def load_ruleset_at(source: Any, base_dir: str) -> Ruleset:
    """``load_ruleset`` with relative paths taken from ``base_dir``."""
    if isinstance(source, Ruleset):
        return source
    parent = source.get("extends") if isinstance(source, dict) else None
    if isinstance(source, dict) and (parent is None or (
            isinstance(parent, str) and _builtin_file(parent) is not None)):
        # a mapping over a built-in ruleset is a value: the same mapping is the same ruleset
        # (saved games name theirs so, and are read often); files are read again each time,
        # since they may change between two loads
        # first the bounded check of what JSON can carry (a mapping sharing its parts may
        # stand for billions of values): only then is it written out as a key
        check_json_like(source, "<ruleset mapping>")
        try:
            key = json.dumps(source, sort_keys=True)
        except (TypeError, ValueError, RecursionError):   # not JSON: _load says what is wrong
            key = None
        cached = _MAPPINGS.get(key) if key is not None else None
        if cached is not None:
            return cached
        ruleset = _load(source, base_dir)
        if key is not None:
            if len(_MAPPINGS) > 256:
                _MAPPINGS.clear()
            _MAPPINGS[key] = ruleset
        return ruleset
    return _load(source, base_dir)


_MAPPINGS: dict = {}


def _load(source: Any, base_dir: str) -> Ruleset:
    chain: list = []
    deferred: list = []
    flat, where = _flatten(source, base_dir, (), chain, deferred)
    if deferred:
        build(flat, where, chain, deferred)      # raises: every problem at once
    key = json.dumps(flat, sort_keys=True)
    cached = _CACHE.get(key)
    if cached is None:
        cached = build(flat, where, chain)
        if len(_CACHE) > 256:
            _CACHE.clear()
        _CACHE[key] = cached
    return cached


def ruleset_from_spec(spec: dict) -> Ruleset:
    """A ruleset from a flattened definition (as saved games carry it)."""
    return load_ruleset(copy.deepcopy(spec))
