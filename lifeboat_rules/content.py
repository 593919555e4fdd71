"""Content: characters, provisions, navigation cards and setup numbers, as data.

Content comes from YAML files validated by ``schemas/content.schema.json``: the base game's
files in ``lifeboat_rules/data/base/``, then what each plugin's ``lifeboat_content`` adds, then a
ruleset's ``overrides`` (``rulesets.py`` runs that order). ``build_content`` checks the merged
mapping (the schema, then what a schema cannot say) and turns it into the frozen records below,
shared by every game of a ruleset. Every problem is a ``ContentError`` naming the file and place.
"""

from __future__ import annotations

import copy
import difflib
import functools
import json
import os
from importlib import resources
from typing import Any, Mapping

import attrs

from . import validation as schemas
from .errors import ContentError
from .yamlio import check_json_like, line_of, parse_yaml, read_yaml

BUILTIN_DIR = "lifeboat_rules.data"
SECTIONS = ("characters", "provisions", "navigation", "setup")


# --------------------------------------------------------------------------- records

def _names(data: dict) -> tuple:
    """Display names by language (``names: {zh: ...}``), as sorted pairs (hashable)."""
    return tuple(sorted((data.get("names") or {}).items()))


@attrs.frozen(slots=True)
class CharacterInfo:
    """A character as the content describes it (R-STATUS sizes, R-SCORE survival)."""
    id: str
    name: str
    size: int
    survival: int
    seat: int                                  # seat order at the start, bow (low) first
    double_treasure: str | None = None         # R-SCORE-3
    fall_damage: int = 1                       # R-OVER-3 (frenchy: 0)
    pickpocket: bool = False                   # R-ROB-4 (the_kid)
    keeps_used: tuple = ()                     # R-MED-1 (dr_harter: medical_kit)
    names: tuple = ()

    def display(self, lang: str = "en") -> str:
        return dict(self.names).get(lang, self.name)


@attrs.frozen(slots=True)
class ProvisionInfo:
    """A kind of provision card and what it does, as data (section C)."""
    kind: str
    name: str
    count: int
    quenches: int = 0                          # R-THIRST-2
    weapon: int = 0                            # R-FIGHT-3
    rowing_draws: int = 0                      # R-ROW-1 (oar)
    navigation_draws: int = 0                  # R-NAV-2 (compass)
    chum: bool = False                         # R-OVER-2
    preserver: bool = False                    # R-PRESERVER
    treasure_group: str | None = None          # R-SCORE-3
    treasure_points: int = 0
    treasure_set: tuple = ()
    special: tuple = ()                        # R-SPEC-1: (("effect", name), (param, value)...)
    names: tuple = ()

    @property
    def effect(self) -> str | None:
        return dict(self.special).get("effect")

    def param(self, key: str, default: Any = None) -> Any:
        """A parameter of the special action (``amount``, ``draws``, ``cancels``...)."""
        return dict(self.special).get(key, default)

    def display(self, lang: str = "en") -> str:
        return dict(self.names).get(lang, self.name)


@attrs.frozen(slots=True)
class Selection:
    """Who a navigation card names (R-OVER-1, R-THIRST-1): a list of characters, everyone
    (``all``), everyone but some (``{all_except: [...]}``), or everyone holding a marker
    (``{marked: drank}``). Names of characters not in play are ignored (section C)."""
    ids: tuple = ()
    every: bool = False
    but: tuple = ()
    marked: str | None = None

    @classmethod
    def from_data(cls, value) -> "Selection":
        if value is None:
            return cls()
        if value == "all":
            return cls(every=True)
        if isinstance(value, dict):
            if "marked" in value:
                return cls(marked=value["marked"])
            return cls(every=True, but=tuple(value.get("all_except", ())))
        return cls(ids=tuple(value))

    def data(self):
        if self.marked is not None:
            return {"marked": self.marked}
        if self.every:
            return {"all_except": list(self.but)} if self.but else "all"
        return list(self.ids)

    def select(self, candidates, holds=None) -> list:
        """The characters of ``candidates`` (in their order) this names; ``holds(c, marker)``
        answers for a marked selection."""
        if self.marked is not None:
            return [c for c in candidates if holds is not None and holds(c, self.marked)]
        if self.every:
            return [c for c in candidates if c not in self.but]
        return [c for c in candidates if c in self.ids]


@attrs.frozen(slots=True)
class NavigationCard:
    """A navigation card (section C): who falls overboard, who is thirsty, the oar and fight
    icons and the seagull (1, 0 or -1 for a crossed seagull)."""
    id: str
    overboard: Selection = Selection()
    thirst: Selection = Selection()
    oar: bool = False
    fight: bool = False
    seagull: int = 0
    name: str | None = None
    names: tuple = ()

    def data(self) -> dict:
        """The card as content data (JSON-safe), as views and events show it."""
        return {"id": self.id, "overboard": self.overboard.data(), "thirst": self.thirst.data(),
                "oar": self.oar, "fight": self.fight, "seagull": self.seagull}

    @classmethod
    def from_data(cls, card_id: str, data: dict) -> "NavigationCard":
        return cls(card_id, Selection.from_data(data.get("overboard")),
                   Selection.from_data(data.get("thirst")), bool(data.get("oar", False)),
                   bool(data.get("fight", False)), int(data.get("seagull", 0)),
                   data.get("name"), _names(data))


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

    @property
    def card_count(self) -> int:
        """Provision cards in a dealt game (R-SETUP-5: all of them get an id)."""
        return sum(info.count for info in self.provisions.values())


# --------------------------------------------------------------------------- files

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


@functools.lru_cache(maxsize=None)
def _base_content_text() -> str:
    merged: dict = {}
    folder = resources.files(BUILTIN_DIR).joinpath("base")
    for name in ("characters.yaml", "provisions.yaml", "navigation.yaml", "setup.yaml"):
        where = f"lifeboat_rules/data/base/{name}"
        document = parse_yaml(folder.joinpath(name).read_bytes(), where)
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
    schemas.check("content", document, where, file=where)   # (where: the file read)
    seated: dict = {}
    for cid, data in (document.get("characters") or {}).items():   # one character to a seat
        if data is not None and data.get("seat") in seated:
            line = line_of(where, ["characters", cid, "seat"])
            raise ContentError(f"two characters on one seat: {seated[data['seat']]!r} and {cid!r} "
                               f"both have seat {data['seat']}", where, f"characters.{cid}.seat",
                               line=f"line {line}" if line else None)
        if data is not None and "seat" in data:
            seated[data["seat"]] = cid


def merge_file(content: dict, path: str | os.PathLike) -> dict:
    """Merge a content YAML file into ``content`` (for plugins' ``lifeboat_content``)."""
    document = read_yaml(path)
    check_fragment(document, str(path))
    return deep_merge(content, document)


# --------------------------------------------------------------------------- building

SETUP_DEFAULTS = {"starting_hand": 1, "rowing_draws": 2, "seagulls_to_land": 4,
                  "removed_provisions": []}


# What a new character, provision or navigation card must give (docs/house-rules.md, "What a
# new thing needs"): an id the content lacks is taken as a new thing only when all of these are
# there, so that a misspelt id (``wter: {count: 12}``) is an error and not twelve blank cards.
# Everything else has a default (the record classes above).
NEW_THING_NEEDS = {
    "characters": ("name", "size", "survival", "seat"),
    "provisions": ("name", "count"),
    "navigation": ("overboard", "thirst", "oar", "fight", "seagull"),
}
THING_WORDS = {"characters": "character", "provisions": "provision", "navigation": "navigation card"}


def nearest(word: str, known) -> list:
    """The known ids closest to ``word`` (a misspelling's likely meaning), best first."""
    return difflib.get_close_matches(word, list(known), n=3, cutoff=0.6)


def never_ending(navigation: Mapping[str, "NavigationCard"]) -> bool:
    """Whether no navigation card shows a seagull: then only R-END-1's "no character alive"
    ends a game, and a lone rower who keeps away from thirst rows for ever (a house rule that
    takes the seagulls off; a plugin may still end it, which content alone cannot tell)."""
    return not any(card.seagull > 0 for card in navigation.values())


def did_you_mean(word: str, known) -> str:
    """``"did you mean 'water'?"``, or the known ids when none is close."""
    close = nearest(word, known)
    if close:
        return "did you mean " + " or ".join(repr(c) for c in close) + "?"
    return f"the ids are: {', '.join(sorted(known)) or 'none'}"


def new_thing_problems(content: dict, overlay: dict, added=lambda section, key: False) -> list:
    """``[(path, message)]`` for each id ``overlay`` (a ruleset's ``overrides``) names in
    ``characters``, ``provisions`` or ``navigation`` that ``content`` lacks and that is not
    complete as a new thing (``NEW_THING_NEEDS``), and for removing (``null``) an id the
    content lacks, unless ``added(section, id)`` (a ruleset extended added it, and this one
    takes it out again). The nearest existing ids are named."""
    found = []
    for section, needs in NEW_THING_NEEDS.items():
        entries = overlay.get(section)
        if not isinstance(entries, dict):
            continue
        have = content.get(section) or {}
        word = THING_WORDS[section]
        for key, value in entries.items():
            if key in have:
                continue
            if value is None:
                if added(section, key):
                    continue
                found.append((f"{section}.{key}", f"there is no {word} {key!r} to remove; "
                                                  f"{did_you_mean(key, have)}"))
            elif isinstance(value, dict):
                missing = [field for field in needs if field not in value]
                if missing:
                    found.append((f"{section}.{key}", f"the content has no {word} {key!r}; "
                                  f"{did_you_mean(key, have)} (a new {word} needs "
                                  f"{', '.join(needs)}; this one lacks {', '.join(missing)})"))
    return found


def named_characters(data) -> list:
    """``[(subpath, id)]`` of the character ids a navigation card's data names (``overboard``,
    ``thirst``: lists, ``all_except`` lists)."""
    named = []
    for side in ("overboard", "thirst"):
        value = data.get(side) if isinstance(data, dict) else None
        if isinstance(value, dict):
            value, side = value.get("all_except"), f"{side}.all_except"
        if isinstance(value, list):
            named.extend((f"{side}[{index}]", who) for index, who in enumerate(value))
    return named


def _schema_valid_parts(raw: dict) -> tuple[dict, set]:
    """``(usable, left_out)``: the sections of ``raw`` that are mappings, each with only the
    entries (a character, a provision, a navigation card, a setup number) the content schema
    accepts, and the ``(section,)`` or ``(section, id)`` left out; so that the consistency of
    the rest is still checked when some part is broken (docs/house-rules.md: "everything that
    is wrong at once")."""
    left_out: set = set()
    for section in SECTIONS:
        if not isinstance(raw.get(section), dict):
            left_out.add((section,))
    for error in schemas.validator("content").iter_errors(raw):
        path = list(error.absolute_path)
        if len(path) >= 2:
            left_out.add((path[0], path[1]))
        elif len(path) == 1:
            entries = raw.get(path[0])
            if isinstance(entries, dict) and isinstance(error.instance, str) and error.instance in entries:
                left_out.add((path[0], error.instance))      # an id the schema refuses
            elif error.validator != "additionalProperties":  # (an unknown key leaves the rest)
                left_out.add((path[0],))
    usable = {section: {key: value for key, value in raw[section].items()
                        if (section, key) not in left_out}
              for section in SECTIONS if (section,) not in left_out}
    return usable, left_out


def content_problems(raw: dict, effect_names, marker_names=(),
                     defined_elsewhere=lambda who: False,
                     inherited=None) -> tuple[Content | None, list]:
    """``(content, [])`` for valid merged content, else ``(None, [(path, message), ...])``
    listing every problem: the schema's, then the consistency of the parts the schema accepts
    (a broken card is left out of those checks, and so is a check it would change).

    ``defined_elsewhere(id)`` answers whether loaded content other than this one defines a
    character (a card may name an expansion's character the game does not have, section C);
    any other character id a card names is a mistake. ``inherited(path, key)`` answers whether
    a key at a place comes from content extended (``validation.problems``)."""
    found = schemas.problems("content", raw, inherited=inherited)
    for section in SECTIONS:
        if section not in raw:
            found.append((section, "the section is missing"))
    if not found:
        return _consistent(raw, raw, set(), effect_names, marker_names, defined_elsewhere)
    usable, left_out = _schema_valid_parts(raw)
    _, more = _consistent(raw, usable, left_out, effect_names, marker_names, defined_elsewhere)
    return None, found + more


def _consistent(raw: dict, usable: dict, left_out: set, effect_names, marker_names,
                defined_elsewhere) -> tuple[Content | None, list]:
    """``content_problems`` past the schema: the records of the ``usable`` parts and what a
    schema cannot say of them. A check that would read a part ``left_out`` is skipped, or
    reads only the ids of ``raw`` (a broken card is still a card of that id)."""
    found: list = []

    def ids(section) -> set | None:
        entries = raw.get(section)
        return set(entries) if isinstance(entries, dict) else None

    def whole(*places) -> bool:
        """None of ``places`` (a section, or a section and an id) is left out."""
        return not any(place in left_out or place[:1] in left_out for place in places)

    parts = {section: usable.get(section) or {} for section in SECTIONS}
    setup = {**SETUP_DEFAULTS, **parts["setup"]}
    if "players" not in setup and whole(("setup", "players")):
        found.append(("setup.players", "the player counts are missing"))
    characters = {}
    for cid, data in sorted(parts["characters"].items(), key=lambda item: (item[1]["seat"], item[0])):
        ability = data.get("ability", {})
        characters[cid] = CharacterInfo(
            cid, data.get("name", cid), data["size"], data["survival"], data["seat"],
            ability.get("double_treasure"), ability.get("fall_damage", 1),
            ability.get("pickpocket", False), tuple(ability.get("keeps_used", ())), _names(data))
    provisions = {}
    for kind, data in parts["provisions"].items():
        treasure = data.get("treasure") or {}
        special = data.get("special")
        provisions[kind] = ProvisionInfo(
            kind, data.get("name", kind), data["count"], data.get("quenches", 0),
            data.get("weapon", 0), data.get("rowing_draws", 0), data.get("navigation_draws", 0),
            data.get("chum", False), data.get("preserver", False), treasure.get("group"),
            treasure.get("points", 0), tuple(treasure.get("set", ())),
            tuple(sorted(special.items())) if special else (), _names(data))
    navigation = {nid: NavigationCard.from_data(nid, data) for nid, data in parts["navigation"].items()}
    character_ids, provision_kinds = ids("characters"), ids("provisions")

    # consistency (what a schema cannot say)
    if "hand" in (provision_kinds or ()) or "all" in (character_ids or ()):
        found.append(("provisions" if "hand" in (provision_kinds or ()) else "characters",
                      "'hand' and 'all' are reserved words, not ids"))
    groups: dict[str, list] = {}
    for kind, info in provisions.items():
        if info.treasure_group:
            groups.setdefault(info.treasure_group, []).append(info)
        if info.special and info.effect not in effect_names:
            found.append((f"provisions.{kind}.special.effect",
                          f"unknown effect {info.effect!r} (known: {sorted(effect_names)})"))
    broken_groups = _groups_left_out(raw, left_out)   # None: a broken card's group is unknown
    for group, infos in groups.items():
        if broken_groups is None or group in broken_groups:
            continue   # a card of the group is left out: its table and count are unknown
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
        if (info.double_treasure and broken_groups is not None
                and info.double_treasure not in set(groups) | broken_groups):
            found.append((f"characters.{cid}.ability.double_treasure",
                          f"no provision has treasure group {info.double_treasure!r}"))
        for kind in info.keeps_used:
            if provision_kinds is not None and kind not in provision_kinds:
                found.append((f"characters.{cid}.ability.keeps_used", f"unknown provision {kind!r}"))
    seated: dict = {}
    for cid, info in characters.items():   # R-SETUP-6: one character to a seat
        if info.seat in seated:
            found.append((f"characters.{cid}.seat", f"two characters on one seat: {seated[info.seat]!r} "
                                                    f"and {cid!r} both have seat {info.seat}"))
        else:
            seated[info.seat] = cid
    for nid, data in parts["navigation"].items():
        for place, who in named_characters(data):
            if character_ids is not None and who not in character_ids and not defined_elsewhere(who):
                found.append((f"navigation.{nid}.{place}", f"no loaded content defines a character "
                                                           f"{who!r}; {did_you_mean(who, character_ids)}"))
    for nid, card in navigation.items():
        for side in ("overboard", "thirst"):
            marked = getattr(card, side).marked
            if marked is not None and marked not in marker_names:
                found.append((f"navigation.{nid}.{side}.marked",
                              f"unknown marker {marked!r} (known: {sorted(marker_names)})"))
    players = setup.get("players")
    if players:
        if players["min"] > players["max"]:
            found.append(("setup.players", "min is more than max"))
        if character_ids is not None and players["max"] > len(character_ids):
            found.append(("setup.players.max", f"{players['max']} players need {players['max']} "
                                               f"characters; there are {len(character_ids)}"))
        if whole(("provisions",), ("setup", "starting_hand"), ("setup", "removed_provisions")):
            total = sum(info.count for info in provisions.values())
            for count in range(players["min"], players["max"] + 1):
                removed = next((e["count"] for e in setup["removed_provisions"]
                                if count in e["players"]), 0)
                needed = removed + count * setup["starting_hand"]
                if needed > total:
                    found.append(("setup", f"{count} players need {needed} provisions to set up; "
                                           f"there are {total}"))
    if ids("navigation") == set():
        found.append(("navigation", "the navigation deck is empty"))
    if found or left_out:
        return None, found
    return Content(characters, provisions, navigation, setup, raw), []


def _groups_left_out(raw: dict, left_out: set) -> set | None:
    """The treasure groups of the provisions ``left_out`` (None when one of them has a group
    that cannot be read, or the whole section is left out)."""
    if ("provisions",) in left_out:
        return None
    groups = set()
    for place in left_out:
        if place[0] != "provisions" or len(place) < 2:
            continue
        data = raw["provisions"][place[1]]
        treasure = data.get("treasure") if isinstance(data, dict) else None
        if treasure is None and isinstance(data, dict):
            continue   # no treasure: in no group
        group = treasure.get("group") if isinstance(treasure, dict) else None
        if not isinstance(group, str):
            return None
        groups.add(group)
    return groups
