"""Saving and restoring games (API.md: ``to_dict`` / ``Game.from_dict``).

A saved game carries a format version, the flattened ruleset, the whole state and the log.
``from_dict`` checks the structure against ``schemas/saved_game.schema.json`` and then that
the state is one a game can be in (every card in exactly one place, seats and statuses that
agree, stages that fit); it builds a new game only when everything holds, so data is either
accepted whole or refused with a ``ContentError``.
"""

from __future__ import annotations

import attrs

from . import validation as schemas
from .errors import ContentError
from .model import Character, NavigationCard, Offer, State

FORMAT = "lifeboat_rules/game"
VERSION = 1
WHERE = "<saved game>"


def _copy(value):
    kind = type(value)
    if kind is dict:
        return {k: _copy(v) for k, v in value.items()}
    if kind is list or kind is tuple:
        return [_copy(v) for v in value]
    return value


def to_dict(game) -> dict:
    state = game.state
    return {
        "format": FORMAT,
        "version": VERSION,
        "ruleset": _copy(game.ruleset.spec),
        "state": {
            "characters": {
                cid: {"size": c.size, "survival": c.survival, "damage": c.damage, "lost": c.lost,
                      "ghost": c.ghost, "hand": c.hand[:], "front": c.front[:], "love": c.love,
                      "hate": c.hate, "rowed": c.rowed, "fought": c.fought,
                      "parasol_active": c.parasol_active}
                for cid, c in state.characters.items()},
            "kinds": dict(state.kinds),
            "navcards": {nid: {k: v for k, v in card.data().items() if k != "id"}
                         for nid, card in state.navcards.items()},
            "seats": state.seats[:],
            "supply": state.supply[:],
            "passing": state.passing[:],
            "discard": state.discard[:],
            "removed": state.removed[:],
            "navigation": state.navigation[:],
            "drawn": state.drawn[:],
            "rowing_pile": state.rowing_pile[:],
            "current": state.current,
            "round": state.round,
            "phase": state.phase,
            "seagulls": state.seagulls,
            "over": state.over,
            "stack": [_copy(stage.data()) for stage in state.stack],
            "offers": [o.data() for o in state.offers],
            "offer_counter": state.offer_counter,
            "drift": state.drift,
            "rng": f"{state.rng:016x}",
            "options": dict(state.options),
            "result": _copy(state.result),
        },
        "log": _copy(game.log),
    }


def from_dict(data):
    from .content import ruleset_from_spec
    from .engine import Game
    from .yamlio import check_json_like

    if not isinstance(data, dict):
        raise ContentError(f"a saved game is a mapping, not {type(data).__name__}", WHERE)
    check_json_like(data, WHERE)
    if data.get("format") != FORMAT:
        raise ContentError(f"not a saved game (format must be {FORMAT!r})", WHERE, "format")
    if data.get("version") != VERSION:
        raise ContentError(f"saved-game version {data.get('version')!r} is not supported "
                           f"(this library reads version {VERSION})", WHERE, "version")
    schemas.check("saved_game", data, WHERE)
    for index, event in enumerate(data["log"]):   # the schema leaves the items to this loop
        if type(event) is not dict or type(event.get("type")) is not str:
            raise ContentError("an event is a mapping with a string 'type'", WHERE, f"log[{index}]")
    _check_plugins_known(data["ruleset"])
    try:
        ruleset = ruleset_from_spec(data["ruleset"])
    except ContentError as exc:
        raise ContentError(f"its ruleset cannot be loaded: {exc}", WHERE, "ruleset") from None
    state = _state(ruleset, data["state"])
    game = Game(ruleset, state, _copy(data["log"]))
    _check_stack_and_result(game)
    try:
        game._refresh()
        for who in state.characters:
            game.legal_actions(who)
        game.view(None)
    except ContentError:
        raise
    except Exception as exc:
        raise ContentError(f"the state is not one a game can be in ({type(exc).__name__}: {exc})",
                           WHERE, "state.stack") from None
    if not state.over and not game._pending:
        # to_dict is only ever called while the game waits for someone (or once it is over)
        raise ContentError("the game is not over and waits for nobody", WHERE, "state.stack")
    for decision in game._pending:
        who = state.characters[decision.by]
        if not (who.awake or (who.ghost and state.stack[-1].KIND in ruleset.rules.ghost_kinds)):
            raise ContentError(f"{decision.by} is {who.status} and cannot decide (R-STATUS)", WHERE,
                               "state.stack")
    game._legal = {}
    return game


def _check_plugins_known(spec: dict) -> None:
    """Reading a saved game imports no module it names: its expansions, variants and plugins
    must be shipped, registered as entry points, or already imported (by loading the ruleset
    that uses them). Saved data is data; a module name in it is not a reason to run code."""
    import sys

    from .content import plugin_target
    for section in ("expansions", "variants", "plugins"):
        for index, name in enumerate(spec[section]):
            module = plugin_target(name, WHERE, f"ruleset.{section}[{index}]").partition(":")[0]
            if module not in sys.modules and not _installed_plugin(name):
                raise ContentError(
                    f"{name!r} is not a shipped or installed plugin and is not loaded: load the "
                    "ruleset that uses it (or import it) before reading the game", WHERE,
                    f"ruleset.{section}[{index}]")


def _installed_plugin(name: str) -> bool:
    from .content import SHIPPED_PLUGINS, entry_point_plugins
    return name in SHIPPED_PLUGINS or name in entry_point_plugins()


def _check_stack_and_result(game) -> None:
    """What the stages hold (their ``problems``: characters in play, stakes that can be
    settled), the stack's shape (a phase's stage at the bottom, no other), and a result whose
    scores add up and name the winners (R-SCORE-8)."""
    state = game.state
    problems = []
    stack = state.stack
    if state.over:
        if stack:
            problems.append(("state.stack", "a game that is over waits on no stage"))
    elif not stack[0].PHASE or any(stage.PHASE for stage in stack[1:]):
        problems.append(("state.stack", "a phase's stage is at the bottom of the stack, and only there"))
    for index, stage in enumerate(stack):
        for field, message in stage.problems(game):
            problems.append((f"state.stack[{index}].{field}", message))
    result = state.result
    if result is not None:
        scores, breakdown = result["scores"], result["breakdown"]
        if set(scores) != set(state.characters) or set(breakdown) != set(state.characters):
            problems.append(("state.result", "a score and its parts for every character in play"))
        else:
            for who, score in scores.items():
                if sum(breakdown[who].values()) != score:
                    problems.append((f"state.result.scores.{who}", "the score is not the sum of its parts"))
            best = max(scores.values())
            if sorted(result["winners"]) != sorted(c for c, v in scores.items() if v == best):
                problems.append(("state.result.winners", "the winners are the highest scores"))
            elif _rescored(game) != breakdown:
                problems.append(("state.result", "not the result the state scores (R-SCORE)"))
    if problems:
        schemas.raise_problems(problems, WHERE)


def _rescored(game) -> dict | None:
    """The score parts the ruleset gives the state (None if its scoring fails on it)."""
    from .rules.scoring import score_game
    try:
        return score_game(game)["breakdown"]
    except Exception:
        return None


def _each_once(known: dict, zones: list, what: str, table: str, problem) -> None:
    """Every card of ``known`` in exactly one of ``zones`` ((name, cards) pairs)."""
    places: dict = {}
    for name, cards in zones:
        for card in cards:
            if card not in known:
                problem(name, f"unknown {what} {card!r}")
            elif card in places:
                problem(name, f"{what} {card} is also in {places[card]}")
            else:
                places[card] = name
    for card in known:
        if card not in places:
            problem(table, f"{what} {card} is nowhere")


def _state(ruleset, data: dict) -> State:
    problems: list = []

    def problem(path, message):
        problems.append((f"state.{path}", message))

    content = ruleset.content
    chars = data["characters"]
    # characters: those of the ruleset, with its sizes (variants included)
    for cid, c in chars.items():
        info = content.characters.get(cid)
        if info is None:
            problem(f"characters.{cid}", "not a character of the ruleset")
            continue
        if c["size"] != info.size or c["survival"] != info.survival:
            problem(f"characters.{cid}", "size and survival must be the ruleset's")
        for key in ("love", "hate"):
            if c[key] is not None and c[key] not in chars:
                problem(f"characters.{cid}.{key}", f"{c[key]!r} is not in play")
        if c["lost"] and (c["hand"] or c["front"] or c["rowed"] or c["fought"] or c["parasol_active"]):
            problem(f"characters.{cid}", "a lost character holds nothing")
        if c["ghost"] and not c["lost"]:
            problem(f"characters.{cid}.ghost", "only a lost character is a ghost")
    if len(chars) < 2:
        problem("characters", "a game has at least 2 characters in play")
    seats = data["seats"]
    if len(set(seats)) != len(seats):
        problem("seats", "a character is seated twice")
    for cid, c in chars.items():
        if c["lost"] == (cid in seats):
            problem("seats", f"{cid} must be {'off' if c['lost'] else 'on'} board")
    for cid in seats:
        if cid not in chars:
            problem("seats", f"{cid!r} is not in play")
    # provisions: every card of the game in exactly one place
    kinds = data["kinds"]
    for card, kind in kinds.items():
        if kind not in content.provisions:
            problem(f"kinds.{card}", f"unknown provision {kind!r}")
    zones = [("supply", data["supply"]), ("passing", data["passing"]), ("discard", data["discard"]),
             ("removed", data["removed"])]
    zones += [(f"characters.{cid}.{z}", c[z]) for cid, c in chars.items() for z in ("hand", "front")]
    _each_once(kinds, zones, "card", "kinds", problem)
    # navigation cards: every one in exactly one place
    navcards = data["navcards"]
    nav_zones = [("navigation", data["navigation"]), ("drawn", data["drawn"]),
                 ("rowing_pile", data["rowing_pile"]),
                 ("current", [data["current"]] if data["current"] is not None else [])]
    _each_once(navcards, nav_zones, "navigation card", "navcards", problem)
    # table
    limit = content.setup["seagulls_to_land"]
    if data["seagulls"] > limit or (data["seagulls"] == limit and not data["over"]):
        problem("seagulls", f"{data['seagulls']} seagulls")
    if data["over"] != (data["phase"] == "over") or data["over"] != (data["result"] is not None):
        problem("over", "over, phase 'over' and a result go together")
    if data["options"] != ruleset.options:
        problem("options", "the options must be the ruleset's")
    for index, offer in enumerate(data["offers"]):
        if offer["from"] not in chars or offer["to"] not in chars:
            problem(f"offers[{index}]", "an offer between characters not in play")
    for cid, c in chars.items():
        if c["parasol_active"]:
            if not any(ruleset.rules.effect_of.get(kinds.get(card)) == "parasol" for card in c["front"]):
                problem(f"characters.{cid}.parasol_active", "no parasol face up")
    stack = []
    for index, entry in enumerate(data["stack"]):
        cls = ruleset.rules.stages.get(entry.get("stage"))
        if cls is None:
            problem(f"stack[{index}].stage", f"unknown stage {entry.get('stage')!r}")
            continue
        fields = {f.name: f for f in attrs.fields(cls)}
        extra = set(entry) - set(fields) - {"stage"}
        missing = set(fields) - set(entry)
        if extra or missing:
            problem(f"stack[{index}]", f"fields {sorted(extra)} unknown, {sorted(missing)} missing")
            continue
        for name, field in fields.items():
            default = field.default.factory() if isinstance(field.default, attrs.Factory) else field.default
            if default is not None and type(entry[name]) is not type(default):
                problem(f"stack[{index}].{name}", f"must be a {type(default).__name__}")
        stack.append(cls.from_data(entry))
    if not data["over"] and not stack and data["phase"] != "over":
        problem("stack", "a game that is not over waits on a stage")
    if problems:
        schemas.raise_problems(problems, WHERE)
    # in the ruleset's order, whatever the order of the keys (JSON objects have none): the
    # order characters are gone through in (end of round, scores) must not depend on storage
    rank = {cid: index for index, cid in enumerate(content.characters)}
    characters = {cid: Character(cid, c["size"], c["survival"], c["damage"], c["lost"], c["ghost"],
                                 c["hand"][:], c["front"][:], c["love"], c["hate"], c["rowed"],
                                 c["fought"], c["parasol_active"])
                  for cid, c in sorted(chars.items(), key=lambda item: rank[item[0]])}
    return State(
        characters=characters, kinds=dict(kinds),
        navcards={nid: NavigationCard.from_data(nid, card) for nid, card in navcards.items()},
        seats=seats[:], supply=data["supply"][:], passing=data["passing"][:],
        discard=data["discard"][:], removed=data["removed"][:],
        navigation=data["navigation"][:], drawn=data["drawn"][:],
        rowing_pile=data["rowing_pile"][:], current=data["current"], round=data["round"],
        phase=data["phase"], seagulls=data["seagulls"], over=data["over"], stack=stack,
        offers=[Offer(o["id"], o["from"], o["to"], tuple(o["give"]), tuple(o["take"]))
                for o in data["offers"]],
        offer_counter=data["offer_counter"], rng=int(data["rng"], 16),
        options=dict(data["options"]), result=_copy(data["result"]), drift=data["drift"])
