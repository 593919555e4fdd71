"""Rulesets and content: YAML files validated by JSON Schema, plugins found by name, everything
merged and checked when a ruleset is loaded (API.md, Rulesets; issue #3).

Loading order: the base content (``lifeboat_rules/data/base/*.yaml``), then every plugin's
``lifeboat_content`` in registration order (base game, expansions, variants, plugins), then the
ruleset's ``overrides``; the result is validated against ``schemas/content.schema.json`` and
checked for consistency. Any problem is a ``ContentError`` naming the file and the place.
"""

from __future__ import annotations

import copy
import difflib
import functools
import importlib
import json
import os
from importlib import metadata, resources
from typing import Any

import attrs

from . import validation as schemas
from .errors import ContentError
from .model import CharacterInfo, NavigationCard, ProvisionInfo
from .yamlio import check_json_like, parse_yaml, read_yaml

BUILTIN_DIR = "lifeboat_rules.data"
ENTRY_POINT_GROUP = "lifeboat_rules"

# The base game, as plugins registered first (one module per part of the rulebook).
BASE_PLUGINS = (
    "lifeboat_rules.rules.setup",
    "lifeboat_rules.rules.status",
    "lifeboat_rules.rules.supply",
    "lifeboat_rules.rules.turn",
    "lifeboat_rules.rules.fights",
    "lifeboat_rules.rules.specials",
    "lifeboat_rules.rules.playing",
    "lifeboat_rules.rules.trading",
    "lifeboat_rules.rules.navigation",
    "lifeboat_rules.rules.overboard",
    "lifeboat_rules.rules.thirst",
    "lifeboat_rules.rules.scoring",
)

# The shipped expansions and variants; they are also registered as entry points, exactly as a
# third-party plugin would be, and found here when the package metadata is not installed.
SHIPPED_PLUGINS = {
    "cannibalism": "lifeboat_rules.expansions.cannibalism",
    "shark": "lifeboat_rules.expansions.shark",
    "quick": "lifeboat_rules.expansions.quick",
    "single_card_rowing": "lifeboat_rules.expansions.single_card_rowing",
}


# --------------------------------------------------------------------------- content records

@attrs.frozen(slots=True)
class Content:
    """The checked content of a ruleset. ``raw`` is the merged mapping (JSON-safe)."""
    characters: dict      # id -> CharacterInfo, in seat order
    provisions: dict      # kind -> ProvisionInfo
    navigation: dict      # id -> NavigationCard, in content order
    setup: dict
    raw: dict = attrs.field(repr=False)

    def removed_provisions(self, players: int) -> int:
        """R-SETUP-3: provisions removed at random before dealing, for this player count."""
        for entry in self.setup.get("removed_provisions", []):
            if players in entry["players"]:
                return entry["count"]
        return 0


def deep_merge(base: dict, overlay: dict) -> dict:
    """Merge ``overlay`` into ``base`` in place: mappings merge, other values replace, None
    removes the key. Returns ``base``."""
    for key, value in overlay.items():
        if value is None:
            base.pop(key, None)
        elif isinstance(value, dict) and isinstance(base.get(key), dict):
            deep_merge(base[key], value)
        else:
            base[key] = copy.deepcopy(value)
    return base


def _compose_overrides(base: dict, overlay: dict) -> dict:
    """Overrides of a ruleset on top of those it extends (None is kept: it removes later)."""
    for key, value in overlay.items():
        if isinstance(value, dict) and isinstance(base.get(key), dict):
            _compose_overrides(base[key], value)
        else:
            base[key] = copy.deepcopy(value)
    return base


@functools.lru_cache(maxsize=None)
def _base_content_text() -> str:
    merged: dict = {}
    folder = resources.files(BUILTIN_DIR).joinpath("base")
    for name in ("characters.yaml", "provisions.yaml", "navigation.yaml", "setup.yaml"):
        entry = folder.joinpath(name)
        where = f"lifeboat_rules/data/base/{name}"
        document = parse_yaml(entry.read_bytes(), where)
        check_fragment(document, where)
        deep_merge(merged, document)
    return json.dumps(merged)


def base_content() -> dict:
    """A fresh copy of the base game's content mapping."""
    return json.loads(_base_content_text())


def check_fragment(document: Any, where: str) -> None:
    """A content file (any of the four sections) against the content schema."""
    if not isinstance(document, dict):
        raise ContentError("a content file is a mapping of characters, provisions, navigation "
                           "and setup", where, "(top)")
    check_json_like(document, where)
    schemas.check("content", document, where)


def merge_file(content: dict, path: str | os.PathLike) -> dict:
    """Merge a content YAML file into ``content`` (for plugins' ``lifeboat_content``)."""
    document = read_yaml(path)
    check_fragment(document, str(path))
    return deep_merge(content, document)


def build_content(raw: dict, where: str, effect_names) -> Content:
    """Validate the merged content and build its records; every problem is reported."""
    check_json_like(raw, where)
    content, found = content_problems(raw, effect_names)
    if found:
        schemas.raise_problems(found, where)
    return content


def content_problems(raw: dict, effect_names) -> tuple[Content | None, list]:
    """``(content, [])`` for valid merged content, else ``(None, [(path, message), ...])``
    listing every problem (schema first; consistency once the schema holds)."""
    found = schemas.problems("content", raw)
    for section in ("characters", "provisions", "navigation", "setup"):
        if section not in raw:
            found.append((section, "the section is missing"))
    if found:
        return None, found
    setup = {"starting_hand": 1, "rowing_draws": 2, "seagulls_to_land": 4,
             "removed_provisions": [], **raw["setup"]}
    if "players" not in setup:
        found.append(("setup.players", "the player counts are missing"))
    characters = {}
    for cid, data in sorted(raw["characters"].items(), key=lambda item: (item[1]["seat"], item[0])):
        ability = data.get("ability", {})
        characters[cid] = CharacterInfo(
            cid, data.get("name", cid), data["size"], data["survival"], data["seat"],
            ability.get("double_treasure"), ability.get("fall_damage", 1),
            ability.get("pickpocket", False), tuple(ability.get("keeps_used", ())))
    provisions = {}
    for kind, data in raw["provisions"].items():
        treasure = data.get("treasure") or {}
        provisions[kind] = ProvisionInfo(
            kind, data.get("name", kind), data["count"], data.get("quenches", 0),
            data.get("weapon", 0), data.get("rowing_draws", 0), data.get("navigation_draws", 0),
            data.get("chum", False), data.get("preserver", False), treasure.get("group"),
            treasure.get("points", 0), tuple(treasure.get("set", ())), data.get("special"))
    navigation = {nid: NavigationCard.from_data(nid, data) for nid, data in raw["navigation"].items()}

    # consistency (things a schema cannot say)
    if "hand" in provisions or "all" in characters:
        found.append(("provisions" if "hand" in provisions else "characters",
                      "'hand' and 'all' are reserved words, not ids"))
    groups: dict[str, list] = {}
    for kind, info in provisions.items():
        if info.treasure_group:
            groups.setdefault(info.treasure_group, []).append(info)
        if info.special is not None and info.special["effect"] not in effect_names:
            found.append((f"provisions.{kind}.special.effect",
                          f"unknown effect {info.special['effect']!r} (known: {sorted(effect_names)})"))
    for group, infos in groups.items():
        tables = {info.treasure_set for info in infos if info.treasure_set}
        if tables and (len(tables) > 1 or any(not info.treasure_set for info in infos)):
            found.append((f"provisions.{infos[0].kind}.treasure",
                          f"every card of treasure group {group!r} needs the same set table"))
        elif tables:
            table = next(iter(tables))
            total = sum(info.count for info in infos)
            if len(table) <= total:
                found.append((f"provisions.{infos[0].kind}.treasure.set",
                              f"the set table of {group!r} must give points for 0 to {total} cards "
                              f"({total + 1} entries), it has {len(table)}"))
    for cid, info in characters.items():
        if info.double_treasure and info.double_treasure not in groups:
            found.append((f"characters.{cid}.ability.double_treasure",
                          f"no provision has treasure group {info.double_treasure!r}"))
        for kind in info.keeps_used:
            if kind not in provisions:
                found.append((f"characters.{cid}.ability.keeps_used", f"unknown provision {kind!r}"))
    players = setup.get("players")
    if players:
        if players["min"] > players["max"]:
            found.append(("setup.players", "min is more than max"))
        if players["max"] > len(characters):
            found.append(("setup.players.max",
                          f"{players['max']} players need {players['max']} characters; there are {len(characters)}"))
        total = sum(info.count for info in provisions.values())
        for count in range(players["min"], players["max"] + 1):
            removed = next((e["count"] for e in setup["removed_provisions"] if count in e["players"]), 0)
            needed = removed + count * setup["starting_hand"]
            if needed > total:
                found.append(("setup", f"{count} players need {needed} provisions to set up; "
                                       f"there are {total}"))
    if not navigation:
        found.append(("navigation", "the navigation deck is empty"))
    if found:
        return None, found
    return Content(characters, provisions, navigation, setup, raw), []


# --------------------------------------------------------------------------- plugins by name

@functools.lru_cache(maxsize=1)
def entry_point_plugins() -> dict:
    """Plugins registered by installed packages in the entry-point group ``lifeboat_rules``:
    ``{name: [import path, ...]}`` (more than one path: two packages claim the name)."""
    found: dict = {}
    try:
        points = metadata.entry_points(group=ENTRY_POINT_GROUP)
    except Exception:  # pragma: no cover - broken metadata must not break loading
        return found
    for point in points:
        values = found.setdefault(point.name, [])
        if point.value not in values:
            values.append(point.value)
    return found


def known_plugin_names() -> list:
    """Every plugin name a ruleset may use without a module path: the shipped expansions and
    variants and every entry point of the group ``lifeboat_rules``."""
    return sorted(set(SHIPPED_PLUGINS) | set(entry_point_plugins()))


PLUGIN_WORDS = {"expansions": "expansion", "variants": "variant", "plugins": "plugin"}


def plugin_target(name: str, where: str | None = None, path: str | None = None) -> str:
    """The import path of a plugin named in a ruleset: an entry-point name, a shipped
    expansion or variant, or an importable module path (``package.module[:attribute]``)."""
    points = entry_point_plugins().get(name)
    if points:
        if len(points) > 1:
            raise ContentError(f"the plugin name {name!r} is registered by more than one installed "
                               f"package (entry points {', '.join(points)} in group "
                               f"{ENTRY_POINT_GROUP!r}); name the module instead", where, path)
        return points[0]
    if name in SHIPPED_PLUGINS:
        return SHIPPED_PLUGINS[name]
    return name


def import_plugin(name: str, where: str, path: str, section: str = "plugins"):
    """The plugin object a ruleset names (a module, or ``module:attribute``). Every way this
    can fail is a ``ContentError`` naming the plugin and the place in the ruleset."""
    word = PLUGIN_WORDS.get(section, "plugin")
    target = plugin_target(name, where, path)
    module_name, _, attribute = target.partition(":")
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as exc:
        missing = exc.name or ""
        if target == name and (module_name == missing or module_name.startswith(missing + ".")):
            known = known_plugin_names()
            close = difflib.get_close_matches(name, known, n=1)
            hint = f"; did you mean {close[0]!r}?" if close else ""
            raise ContentError(f"unknown {word} {name!r}: no module of that name and no entry point "
                               f"in group {ENTRY_POINT_GROUP!r} (known names: "
                               f"{', '.join(known) or 'none'}){hint}", where, path) from None
        raise ContentError(f"{word} {name!r} cannot be imported ({target}): {exc}", where, path) from None
    except SyntaxError as exc:
        raise ContentError(f"{word} {name!r} cannot be imported ({target}): SyntaxError in "
                           f"{exc.filename}, line {exc.lineno}: {exc.msg}", where, path) from None
    except Exception as exc:
        raise ContentError(f"{word} {name!r} failed to import ({target}): {type(exc).__name__}: "
                           f"{exc}{_origin(exc)}", where, path) from None
    if attribute:
        try:
            return getattr(module, attribute)
        except AttributeError:
            raise ContentError(f"{word} {name!r}: module {module_name} has no {attribute!r}",
                               where, path) from None
    return module


def _origin(exc: BaseException) -> str:
    """`` (file, line N)`` of the innermost frame of an exception, for messages."""
    tb = exc.__traceback__
    if tb is None:
        return ""
    while tb.tb_next is not None:
        tb = tb.tb_next
    return f" ({tb.tb_frame.f_code.co_filename}, line {tb.tb_lineno})"


# --------------------------------------------------------------------------- rulesets

class Ruleset:
    """A loaded ruleset: its flattened definition, its checked content, its options, and the
    rules (plugins) that play it. Immutable once loaded; shared by all its games."""

    def __init__(self, name: str, spec: dict, content: Content, options: dict, rules, source):
        self.name = name
        self.spec = spec          # flattened: name, expansions, variants, options, plugins, overrides
        self.content = content
        self.options = options
        self.rules = rules
        self.source = source

    @property
    def players(self) -> range:
        setup = self.content.setup["players"]
        return range(setup["min"], setup["max"] + 1)

    def __repr__(self) -> str:
        extras = self.spec["expansions"] + self.spec["variants"] + self.spec["plugins"]
        return f"<Ruleset {self.name}{' +' + ', '.join(extras) if extras else ''}>"


def _builtin_ruleset_file(name: str):
    entry = resources.files(BUILTIN_DIR).joinpath("rulesets", f"{name}.yaml")
    return entry if entry.is_file() else None


def builtin_rulesets() -> list:
    folder = resources.files(BUILTIN_DIR).joinpath("rulesets")
    return sorted(p.name[:-5] for p in folder.iterdir() if p.name.endswith(".yaml"))


def _read(source, base_dir: str) -> tuple[dict, str, str, str | None]:
    """(spec mapping, where, its directory, identity for cycles) of a ruleset reference."""
    if isinstance(source, dict):
        return source, "<ruleset mapping>", base_dir, None
    if not isinstance(source, (str, os.PathLike)):
        raise ContentError(f"a ruleset is a name, a path or a mapping, not {type(source).__name__}")
    text = os.fspath(source)
    builtin = _builtin_ruleset_file(text) if os.sep not in text and "/" not in text and not text.endswith((".yaml", ".yml")) else None
    if builtin is not None:
        where = f"<built-in ruleset {text}>"
        return parse_yaml(builtin.read_bytes(), where), where, base_dir, f"builtin:{text}"
    path = text if os.path.isabs(text) else os.path.join(base_dir, text)
    if not os.path.exists(path):
        if not text.endswith((".yaml", ".yml")) and "/" not in text:
            raise ContentError(f"unknown ruleset {text!r} (built-in: {', '.join(builtin_rulesets())}; "
                               "or give the path of a YAML file)")
        raise ContentError("no such ruleset file", path)
    path = os.path.abspath(path)
    return read_yaml(path), path, os.path.dirname(path), path


def _flatten(source, base_dir: str, seen: tuple) -> tuple[dict, str]:
    spec, where, folder, identity = _read(source, base_dir)
    if spec is None:
        spec = {}
    if not isinstance(spec, dict):
        raise ContentError("a ruleset is a mapping", where, "(top)")
    check_json_like(spec, where)
    schemas.check("ruleset", spec, where)
    if identity is not None and identity in seen:
        raise ContentError("a ruleset extends itself (through " + " -> ".join(seen + (identity,)) + ")",
                           where, "extends")
    seen = seen + ((identity,) if identity else ())
    parent_name = spec.get("extends")
    if parent_name is None and identity != "builtin:classic":
        parent_name = "classic"
    if parent_name is not None:
        try:
            parent, _ = _flatten(parent_name, folder, seen)
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
    flat = {
        "name": spec.get("name", default_name),
        "expansions": parent["expansions"] + [e for e in spec.get("expansions", []) if e not in parent["expansions"]],
        "variants": parent["variants"] + [v for v in spec.get("variants", []) if v not in parent["variants"]],
        "options": {**parent["options"], **spec.get("options", {})},
        "plugins": parent["plugins"] + [p for p in spec.get("plugins", []) if p not in parent["plugins"]],
        "overrides": _compose_overrides(copy.deepcopy(parent["overrides"]), spec.get("overrides", {})),
    }
    return flat, where


_CACHE: dict = {}


def load_ruleset(source: Any = "classic") -> Ruleset:
    """A ruleset from a built-in name (``classic``, ...), the path of a YAML file, or a mapping
    (API.md). Raises ``ContentError`` naming the file and the place of any problem."""
    return load_ruleset_at(source, os.getcwd())


def load_ruleset_at(source: Any, base_dir: str) -> Ruleset:
    """``load_ruleset`` with relative paths taken from ``base_dir``."""
    if isinstance(source, Ruleset):
        return source
    flat, where = _flatten(source, base_dir, ())
    key = json.dumps(flat, sort_keys=True)
    cached = _CACHE.get(key)
    if cached is not None:
        return cached
    from .plugins import build_rules
    ruleset = build_rules(flat, where)
    if len(_CACHE) > 256:
        _CACHE.clear()
    _CACHE[key] = ruleset
    return ruleset


def ruleset_from_spec(spec: dict) -> Ruleset:
    """A ruleset from a flattened definition (as saved games carry it)."""
    return load_ruleset(copy.deepcopy(spec))
