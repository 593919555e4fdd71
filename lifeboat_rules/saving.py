"""Saving and restoring games (``Game.to_dict`` / ``Game.from_dict``, docs/api.md).

A saved game carries a format version, the flattened ruleset, the card table, the state (as
``declare`` dumps it), the log and which fields of which events are secret. Reading one checks
the whole structure (the rules of ``saved_game_schema``, checked in plain Python), then that
the state is one a game can be in (every card in exactly one place, ids that name what they
must, seats and statuses that agree, stages that fit, a result that adds up), and builds a
game only when everything holds: data is accepted whole or refused with a ``ContentError``.
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Any

from . import declare
from .effects import Secret, copy_log
from .errors import ContentError
from .records import Status, short
from .rng import card_id_ok
from .rules.scoring import score_game
from .rulesets import Ruleset, ruleset_from_spec
from .plugins import is_installed, plugin_target
from .state import State, Table
from .validation import raise_problems
from .yamlio import MAX_INT_BITS, MAX_JSON_DEPTH, check_json_like

if TYPE_CHECKING:
    from .engine import Game
    from .types import SavedGame

FORMAT = "lifeboat_rules/game"
VERSION = 4
READABLE = (3, 4)    # version 3: offers named the cards they give by id (upgraded on reading)
WHERE = "<saved game>"
MAX_LOG = 1_000_000


# --------------------------------------------------------------------------- writing

def to_dict(game: "Game") -> "SavedGame":
    kinds, navcards = game.state.table.data()
    return {
        "format": FORMAT,
        "version": VERSION,
        "ruleset": declare.copy_json(game.ruleset.spec),
        "table": {"kinds": kinds, "navcards": navcards},
        "state": declare.dump(game.state),
        "log": copy_log(game.log, game.deep_events()),
        "secrets": [[index, [*part.audience], [*part.hidden]]
                    for index, secret in game.secrets.items() for part in _parts(secret)],
    }


def _parts(secret: Secret) -> list:
    """A secret and the narrower ones it holds (``Secret.more``), each saved as one entry."""
    parts = []
    while secret is not None:
        parts.append(secret)
        secret = secret.more
    return parts


# --------------------------------------------------------------------------- the schema

ENVELOPE_KEYS = ("format", "version", "ruleset", "table", "state", "log", "secrets")


def saved_game_schema(ruleset: Ruleset) -> dict:
    """The JSON Schema of a game saved under ``ruleset``, derived from the declaration of the
    state and of the stages the ruleset registers (schemas/saved_game.schema.json is this for a
    ruleset with every shipped expansion and variant)."""
    text = {"type": "string", "minLength": 1, "maxLength": declare.MAX_TEXT}
    names = {"type": "array", "maxItems": 1000, "items": text}
    selection = {"oneOf": [names, {"const": "all"},
                           {"type": "object", "additionalProperties": False, "required": ["all_except"],
                            "properties": {"all_except": names}},
                           {"type": "object", "additionalProperties": False, "required": ["marked"],
                            "properties": {"marked": text}}]}
    navcard = {"type": "object", "additionalProperties": False,
               "required": ["overboard", "thirst", "oar", "fight", "seagull"],
               "properties": {"overboard": selection, "thirst": selection, "oar": {"type": "boolean"},
                              "fight": {"type": "boolean"}, "seagull": {"enum": [-1, 0, 1]}}}
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "https://lifeboat-rules.invalid/schemas/saved_game.schema.json",
        "title": "A saved Lifeboat game (Game.to_dict)",
        "description": "Derived from the declaration of the state (lifeboat_rules/state.py) and "
                       "of the stages a ruleset registers; write it again with "
                       "`lifeboat-rules schema > schemas/saved_game.schema.json`.",
        "type": "object",
        "additionalProperties": False,
        "required": list(ENVELOPE_KEYS),
        "properties": {
            "format": {"const": FORMAT},
            "version": {"const": VERSION},
            "ruleset": {
                "type": "object", "additionalProperties": False,
                "required": ["name", "expansions", "variants", "options", "plugins", "overrides"],
                "properties": {
                    "name": {"type": "string", "maxLength": declare.MAX_TEXT},
                    "expansions": {"type": "array", "maxItems": 50, "items": text},
                    "variants": {"type": "array", "maxItems": 50, "items": text},
                    "options": {"type": "object", "additionalProperties": {
                        "type": ["string", "integer", "boolean"]}},
                    "plugins": {"type": "array", "maxItems": 50, "items": text},
                    "overrides": {"type": "object"}}},
            "table": {
                "type": "object", "additionalProperties": False, "required": ["kinds", "navcards"],
                "properties": {
                    "kinds": {"type": "object", "maxProperties": declare.MAX_ITEMS,
                              "propertyNames": {"pattern": CARD_ID},
                              "additionalProperties": text},
                    "navcards": {"type": "object", "maxProperties": declare.MAX_ITEMS,
                                 "additionalProperties": navcard}}},
            "state": declare.schema(State, ruleset.rules.stages),
            "log": {"type": "array", "maxItems": MAX_LOG,
                    "items": {"type": "object", "required": ["type"],
                              "properties": {"type": text}}},
            "secrets": {"type": "array", "maxItems": MAX_LOG,
                        "description": "[index of an event in the log, the characters who may see "
                                       "the fields, the fields]; an event may have several "
                                       "entries, one per audience",
                        "items": {"type": "array", "prefixItems": [
                            {"type": "integer", "minimum": 0, "maximum": MAX_LOG - 1}, names, names],
                            "minItems": 3, "maxItems": 3}},
        },
    }


# --------------------------------------------------------------------------- reading

def _json_copy(value, depth: int = 0):
    """A copy of JSON-like data, or raise ``ValueError`` at the first thing JSON cannot carry
    (then ``check_json_like`` finds the place for the message). Containers are copied whole
    (in C) and only their containers and their odd values looked at again."""
    if depth >= MAX_JSON_DEPTH:
        raise ValueError("too deep")
    kind = type(value)
    if kind is dict:
        copy = value.copy()
        for key, item in copy.items():
            if type(key) is not str:
                raise ValueError("key")
            if not key.isascii():
                key.encode("utf-8")     # a lone surrogate raises
            kind = type(item)
            if kind is str:
                if not item.isascii():
                    item.encode("utf-8")
            elif kind is dict or kind is list:
                copy[key] = _json_copy(item, depth + 1)
            elif kind is not bool and item is not None:
                _json_scalar(item)
        return copy
    if kind is list:
        copy = value[:]
        for index, item in enumerate(copy):
            kind = type(item)
            if kind is str:
                if not item.isascii():
                    item.encode("utf-8")
            elif kind is dict or kind is list:
                copy[index] = _json_copy(item, depth + 1)
            elif kind is not bool and item is not None:
                _json_scalar(item)
        return copy
    if kind is str:
        if not value.isascii():
            value.encode("utf-8")
        return value
    if kind is not bool and value is not None:
        _json_scalar(value)
    return value


def _json_scalar(value) -> None:
    """A number JSON can carry; anything else raises ``ValueError``."""
    kind = type(value)
    if kind is int:
        if value.bit_length() > MAX_INT_BITS:
            raise ValueError("int")
    elif kind is not float or value != value or value in (float("inf"), float("-inf")):
        raise ValueError("type")


def _plain_copy(data: Any) -> dict:
    try:
        return _json_copy(data)
    except (ValueError, UnicodeEncodeError, RecursionError):
        check_json_like(data, WHERE)   # raises, naming the place
        raise ContentError("not JSON-like data", WHERE) from None


def read(data: Any) -> tuple:
    """``(ruleset, state, log, secrets)`` of a saved game; ``ContentError`` for anything else."""
    if not isinstance(data, dict):
        raise ContentError(f"a saved game is a mapping, not {type(data).__name__}", WHERE)
    # types first: a value of another type may compare in ways of its own (or raise)
    fmt, version = data.get("format"), data.get("version")
    if type(fmt) is not str or fmt != FORMAT:
        raise ContentError(f"not a saved game (format must be {FORMAT!r})", WHERE, "format")
    if type(version) is not int or version not in READABLE:
        raise ContentError(f"saved-game version {short_value(data.get('version'))} is not "
                           f"supported (this library reads versions "
                           f"{', '.join(map(str, READABLE))})", WHERE, "version")
    data = _plain_copy(data)
    if version == 3:
        _upgrade_offers(data)
    problems = [(key, "unknown key") for key in data if key not in ENVELOPE_KEYS]
    problems += [(key, "missing") for key in ENVELOPE_KEYS if key not in data]
    if problems:
        raise_problems(problems, WHERE)
    ruleset = _ruleset(data["ruleset"])
    problems = structure_problems(ruleset, data)
    if problems:
        raise_problems(problems, WHERE)
    table = Table.from_data(data["table"]["kinds"], data["table"]["navcards"])
    state = declare.load(State, data["state"], ruleset.rules.stages, table=table)
    _check_state(ruleset, state)
    # in the ruleset's order, whatever the order of the keys: the order characters are gone
    # through in (end of round, scores) must not depend on how the game was stored
    state.characters = {cid: state.characters[cid] for cid in ruleset.content.characters
                        if cid in state.characters}
    secrets: dict = {}
    for index, audience, hidden in reversed(data["secrets"]):
        # entries of one event in the order saved: the first the widest (``Secret.more``)
        secrets[index] = Secret(tuple(audience), tuple(hidden), secrets.get(index))
    return ruleset, state, data["log"], dict(sorted(secrets.items()))


def _upgrade_offers(data: dict) -> None:
    """Version 3 to 4: an open offer keeps the kinds (and markers) of the cards it gives, not
    their ids (docs/api.md: an offer shows what the card game shows)."""
    state, table = data.get("state"), data.get("table")
    if type(state) is not dict or type(table) is not dict or type(table.get("kinds")) is not dict:
        return      # malformed: the checks that follow say where
    kinds = table["kinds"]
    held = state.get("card_markers") if type(state.get("card_markers")) is dict else {}
    for offer in state.get("offers") or ():
        give = offer.get("give") if type(offer) is dict else None
        if type(give) is not list or not all(type(c) is str for c in give):
            continue
        marks = [sorted(m for m, cards in held.items() if type(cards) is list and c in cards)
                 for c in give]
        offer["give"] = [kinds.get(c, c) for c in give]
        offer["give_markers"] = marks if any(marks) else None
    data["version"] = VERSION


def structure_problems(ruleset: Ruleset, data: dict) -> list:
    """What ``saved_game_schema(ruleset)`` finds wrong with ``data`` (a mapping with the
    envelope's keys), as ``[(path, message)]``, checked in plain Python (fast); and what a
    schema cannot say about the table (known provisions and markers, ids of the log)."""
    problems: list = []
    _check_table(ruleset, data["table"], problems)
    declare.check(State, data["state"], "state", ruleset.rules.stages, problems)
    log, secrets = data["log"], data["secrets"]
    if type(log) is not list or len(log) > MAX_LOG:
        problems.append(("log", f"must be a list of at most {MAX_LOG} events"))
    else:
        for index, event in enumerate(log):
            if type(event) is not dict or type(event.get("type")) is not str:
                problems.append((f"log[{index}]", "an event is a mapping with a string 'type'"))
                break
    if type(secrets) is not list or len(secrets) > MAX_LOG:
        problems.append(("secrets", "must be a list of [event index, [characters], [fields]]"))
    else:
        events = len(log) if type(log) is list else 0
        for place, secret in enumerate(secrets):
            if not _secret_ok(secret, events):
                problems.append((f"secrets[{place}]", "must be [index of an event of the log, "
                                                      "[characters], [fields]]"))
    return problems


def _secret_ok(secret, events: int) -> bool:
    if type(secret) is not list or len(secret) != 3:
        return False
    index, audience, hidden = secret
    if type(index) is not int or not 0 <= index < min(events, MAX_LOG):
        return False
    for items in (audience, hidden):
        if type(items) is not list:
            return False
        for item in items:
            if type(item) is not str or not 0 < len(item) <= declare.MAX_TEXT:
                return False
    return True


def short_value(value) -> str:
    # records.short: even an int past the int-to-str limit has words
    text = short(value) if type(value) in (int, str, type(None)) else f"a {type(value).__name__}"
    return text[:40]


def _ruleset(spec) -> Ruleset:
    """The ruleset a save names. Reading a saved game imports no module it names: its
    expansions, variants and plugins must be shipped, installed as entry points, or already
    imported (by loading the ruleset that uses them)."""
    if type(spec) is not dict:
        raise ContentError("must be an object", WHERE, "ruleset")
    for section in ("expansions", "variants", "plugins"):
        names = spec.get(section)
        if type(names) is not list:
            continue
        for index, name in enumerate(names):
            if type(name) is not str:
                continue
            module = plugin_target(name, WHERE, f"ruleset.{section}[{index}]").partition(":")[0]
            if module not in sys.modules and not is_installed(name):
                raise ContentError(
                    f"{name!r} is not a shipped or installed plugin and is not loaded: load the "
                    "ruleset that uses it (or import it) before reading the game", WHERE,
                    f"ruleset.{section}[{index}]")
    try:
        return ruleset_from_spec(spec)
    except ContentError as exc:
        raise ContentError(f"its ruleset cannot be loaded: {exc}", WHERE, "ruleset") from None


CARD_ID = "^p([0-9]{1,6}|[0-9a-f]{8})$"    # rng.card_id_ok


NAVCARD_KEYS = {"overboard", "thirst", "oar", "fight", "seagull"}


def _check_table(ruleset: Ruleset, table, problems: list) -> None:
    if type(table) is not dict or set(table) != {"kinds", "navcards"}:
        problems.append(("table", "must be {kinds: {...}, navcards: {...}}"))
        return
    kinds, navcards = table["kinds"], table["navcards"]
    provisions = ruleset.content.provisions
    if type(kinds) is not dict or len(kinds) > declare.MAX_ITEMS:
        problems.append(("table.kinds", "must be an object"))
    else:
        for card, kind in kinds.items():
            if not card_id_ok(card):
                problems.append((f"table.kinds.{card}", "a card id is p followed by up to 6 "
                                                        "digits, or by 8 hex digits"))
            elif type(kind) is not str or kind not in provisions:
                problems.append((f"table.kinds.{card}", f"unknown provision {short_value(kind)}"))
    if type(navcards) is not dict or len(navcards) > declare.MAX_ITEMS:
        problems.append(("table.navcards", "must be an object"))
        return
    for nid, card in navcards.items():
        where = f"table.navcards.{nid}"
        if not (0 < len(nid) <= declare.MAX_TEXT):
            problems.append((where, "a navigation card id is a short string"))
        if type(card) is not dict or set(card) != NAVCARD_KEYS:
            problems.append((where, f"must have exactly {sorted(NAVCARD_KEYS)}"))
            continue
        if type(card["oar"]) is not bool or type(card["fight"]) is not bool:
            problems.append((where, "oar and fight are true or false"))
        if card["seagull"] not in (-1, 0, 1) or type(card["seagull"]) is not int:
            problems.append((f"{where}.seagull", "must be -1, 0 or 1"))
        for side in ("overboard", "thirst"):
            if not _selection_ok(card[side], ruleset):
                problems.append((f"{where}.{side}", "must be a list of characters, 'all', "
                                                    "{all_except: [...]} or {marked: marker}"))


def _selection_ok(value, ruleset: Ruleset) -> bool:
    def ids(items):
        return type(items) is list and len(items) <= 1000 and all(type(i) is str for i in items)
    if value == "all":
        return True
    if type(value) is dict:
        if set(value) == {"all_except"}:
            return ids(value["all_except"])
        if set(value) == {"marked"}:
            return type(value["marked"]) is str and value["marked"] in ruleset.rules.markers
        return False
    return ids(value)


def _check_state(ruleset: Ruleset, state: State) -> None:
    """What a schema cannot say: ids naming what they must, every card in one place, seats
    that agree with who is lost, the ruleset's sizes."""
    problems: list = []

    def problem(path, message):
        problems.append((f"state.{path}", message))

    content = ruleset.content
    chars = state.characters
    table = state.table
    known = {declare.CHARACTER: chars, declare.CARD: table.kinds, declare.NAVCARD: table.navcards,
             declare.ACTION: ruleset.rules.types, declare.MARKER: ruleset.rules.markers,
             # a request or fight is carried out by its action type's ``settle``
             declare.SETTLING: {n for n, t in ruleset.rules.types.items() if t.settle is not None}}
    for path, ref, value in declare.refs(state):
        if value not in known[ref]:
            problem(path, f"{short_value(value)} is not a {ref} of this game")
    for cid, character in chars.items():
        info = content.characters.get(cid)
        if character.id != cid:
            problem(f"characters.{cid}.id", "must be the key it is stored under")
        if info is None:
            problem(f"characters.{cid}", "not a character of the ruleset")
            continue
        if character.size != info.size or character.survival != info.survival:
            problem(f"characters.{cid}", "size and survival must be the ruleset's")
        if character.lost and (character.hand or character.front or character.markers):
            problem(f"characters.{cid}", "a lost character holds nothing")
        if character.ghost and not character.lost:
            problem(f"characters.{cid}.ghost", "only a lost character is a ghost")
        if character.lost == (cid in state.seats):
            problem("seats", f"{cid} must be {'off' if character.lost else 'on'} board")
        if len(set(character.markers)) != len(character.markers):
            problem(f"characters.{cid}.markers", "a marker is there twice")
        if "parasol" in character.markers and not any(
                table.kinds.get(c) in ruleset.rules.parasol_kinds for c in character.front):
            problem(f"characters.{cid}.markers", "an open parasol needs a parasol face up")
    if len(chars) < 2:
        problem("characters", "a game has at least 2 characters in play")
    if len(set(state.seats)) != len(state.seats):
        problem("seats", "a character is seated twice")
    zones = [("supply", state.supply), ("passing", state.passing), ("discard", state.discard),
             ("removed", state.removed)]
    zones += [(f"characters.{cid}.{z}", getattr(c, z)) for cid, c in chars.items()
              for z in ("hand", "front")]
    _each_once(table.kinds, zones, "card", problem)
    if any(c not in state.removed for c in state.removed_face_up):
        problem("removed_face_up", "a card removed face up is among the removed cards")
    nav_zones = [("navigation", state.navigation), ("drawn", state.drawn),
                 ("rowing_pile", state.rowing_pile),
                 ("current", [state.current] if state.current is not None else [])]
    _each_once(table.navcards, nav_zones, "navigation card", problem)
    limit = content.setup["seagulls_to_land"]
    if state.seagulls > limit or (state.seagulls == limit and not state.over):
        problem("seagulls", f"{state.seagulls} seagulls")
    if state.over != (state.phase == "over") or state.over != (state.result is not None):
        problem("over", "over, phase 'over' and a result go together")
    for marker, cards in state.card_markers.items():
        if marker in ruleset.rules.markers and not ruleset.rules.markers[marker].on_cards:
            problem(f"card_markers.{marker}", "not a marker for cards")
        if len(set(cards)) != len(cards):
            problem(f"card_markers.{marker}", "a card is there twice")
    for index, offer in enumerate(state.offers):
        if offer.by == offer.to:
            problem(f"offers[{index}]", "an offer goes to another character")
        unknown = [k for k in offer.give if k not in content.provisions]
        if unknown:
            problem(f"offers[{index}].give", f"not provision kinds: {short_value(unknown)}")
        marks = offer.give_markers
        if marks is not None and (type(marks) is not list or len(marks) != len(offer.give) or not all(
                type(m) is list and all(type(x) is str and x in ruleset.rules.markers for x in m)
                for m in marks)):
            problem(f"offers[{index}].give_markers",
                    "a list of the markers of each card given (known markers)")
    if problems:
        raise_problems(problems, WHERE)


def _each_once(known: dict, zones: list, what: str, problem) -> None:
    """Every id of ``known`` in exactly one of ``zones``."""
    places: dict = {}
    for name, cards in zones:
        for card in cards:
            if card in places:
                problem(name, f"{what} {card} is also in {places[card]}")
            else:
                places[card] = name
    for card in known:
        if card not in places:
            problem("table", f"{what} {card} is nowhere")


def check_game(game: "Game") -> None:
    """A restored game: the stack's shape and stages, the pending decisions, the result."""
    state = game.state
    stack = state.stack
    problems: list = []
    if state.over:
        if stack:
            problems.append(("state.stack", "a game that is over waits on no stage"))
    elif not stack or not stack[0].PHASE or any(stage.PHASE for stage in stack[1:]):
        problems.append(("state.stack", "a phase's stage is at the bottom of the stack, and only there"))
    for index, stage in enumerate(stack):
        for field, message in stage.problems(game):
            problems.append((f"state.stack[{index}].{field}", message))
    result = state.result
    if result is not None:
        try:
            rescored = score_game(game)
        except Exception:
            rescored = None
        wanted = None if rescored is None else {**rescored, "end": result.get("end")
                                               if type(result) is dict else None}
        if type(result) is not dict or result.get("end") not in ("landed", "all_dead", "adrift") \
                or result != wanted:
            problems.append(("state.result", "not the result the state scores (R-SCORE)"))
    if problems:
        raise_problems(problems, WHERE)
    try:
        game.refresh()
        for who in state.characters:
            game.moves(who)
        game.view(None)
    except ContentError:
        raise
    except Exception as exc:
        raise ContentError(f"the state is not one a game can be in ({type(exc).__name__}: "
                           f"{exc})", WHERE, "state.stack") from None
    if not state.over and not game.pending:
        raise ContentError("the game is not over and waits for nobody", WHERE, "state.stack")
    for decision in game.pending:
        who = state.characters[decision.by]
        if not (who.awake or (who.ghost and decision.kind in game.rules.ghost_kinds)):
            raise ContentError(f"{decision.by} is {who.status} and cannot decide (R-STATUS)",
                               WHERE, "state.stack")
    if any(c.status is Status.LOST and c.id in state.seats for c in state.characters.values()):
        raise ContentError("a lost character is on board", WHERE, "state.seats")
