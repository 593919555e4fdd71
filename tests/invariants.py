"""Invariants of a game of Lifeboat (issue #4), one function per invariant.

Each ``check_*`` function raises ``AssertionError`` saying what broke, or returns quietly.
``check_all`` runs every invariant that holds at any moment of any game; the stateful tests
(``test_invariants.py``), the fuzzers (``test_fuzz.py``) and the plugin tests reuse them.

The checks read the engine's state (``game.state``) and recompute what the rules say
(docs/rules.md) from it independently where that is cheap (who is pending in a window, the
navigator, the scores, what a player may have seen), instead of asking the code under test the
same question twice.
"""

from __future__ import annotations

import contextlib
import json
import os
import random
import signal
from collections import Counter

import lifeboat_rules as lr
from lifeboat_rules import ContentError, Game, IllegalAction
from lifeboat_rules.declare import dump
from lifeboat_rules.expansions.cannibalism import ObjectWindow
from lifeboat_rules.records import Status
from lifeboat_rules.rules.fights import FightWindow
from lifeboat_rules.rules.overboard import OverboardWindow
from lifeboat_rules.rules.thirst import ThirstWindow
from lifeboat_rules.rulesets import builtin_rulesets
from lifeboat_rules.stages import Window

AWAKE, DEAD, LOST, UNCONSCIOUS = Status.AWAKE, Status.DEAD, Status.LOST, Status.UNCONSCIOUS

BASE_SCORE_PARTS = {"survival", "treasure", "love", "hate"}
MAX_ACTIONS_PER_GAME = 5_000       # a random game of the base game takes about 100-150 actions
DECISION_KINDS_WITH_ONE_DECIDER = {"pick", "turn", "place", "respond", "navigate"}


# --------------------------------------------------------------------------- helpers

def fingerprint(game: Game) -> str:
    """The whole game, byte for byte (``to_dict`` as sorted JSON)."""
    return json.dumps(game.to_dict(), sort_keys=True, allow_nan=False)


def state_text(game: Game) -> str:
    """The game's state as ``to_dict`` writes it, and the length of its log: what an action
    changes (a cheaper ``fingerprint`` for checks after every step; the log only grows)."""
    data = {"state": dump(game.state), "log": len(game.log), "secrets": len(game.secrets)}
    return json.dumps(data, sort_keys=True, allow_nan=False)


def was_dealt(game: Game) -> bool:
    """True for a game dealt by ``new_game(players=..., seed=...)`` (not an explicit setup)."""
    return bool(game.log) and game.log[0].get("type") == "setup" and game.log[0].get("dealt") is True


def strings_in(value, skip_keys=()) -> set:
    """Every string (keys included) anywhere in a JSON-like value."""
    found = set()
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            found.add(item)
        elif isinstance(item, dict):
            for key, sub in item.items():
                if key in skip_keys:
                    continue
                found.add(key)
                stack.append(sub)
        elif isinstance(item, list):
            stack.extend(item)
    return found


def nodes(value, path=()):
    """Every (key path, value) in a JSON-like value, the value itself first (path ``()``)."""
    yield path, value
    if type(value) is dict:
        for key, sub in value.items():
            yield from nodes(sub, path + (key,))
    elif type(value) is list:
        for index, sub in enumerate(value):
            yield from nodes(sub, path + (index,))


def dicts_in(value):
    """Every mapping anywhere in a JSON-like value, with its key path."""
    stack = [(value, "")]
    while stack:
        item, path = stack.pop()
        if isinstance(item, dict):
            yield path, item
            for key, sub in item.items():
                stack.append((sub, f"{path}.{key}"))
        elif isinstance(item, list):
            for index, sub in enumerate(item):
                stack.append((sub, f"{path}[{index}]"))


def _walk_view(view: dict) -> tuple[set, list, list]:
    """One pass over a view (its own ``offers`` and ``result`` left out): every string in it,
    the mappings below the top that have a ``love`` or ``hate`` key, and the (id, kind) of
    every card shown with its kind."""
    strings: set = set()
    with_love: list = []
    cards: list = []
    # the ruleset's name is free text (a house rule may be called p11): not a card
    skip = ("offers", "result", "love", "hate", "ruleset")
    stack = [v for k, v in view.items() if k not in skip]
    strings.update(k for k in view if k not in ("offers", "result"))
    add = strings.add
    while stack:
        item = stack.pop()
        kind = type(item)
        if kind is str:
            add(item)
        elif kind is dict:
            if "love" in item or "hate" in item:
                with_love.append(item)
            if "id" in item and "kind" in item:
                cards.append((item["id"], item["kind"]))
            card_data = "seagull" in item   # a navigation card: its names are content data
            for key, sub in item.items():
                add(key)
                if not (card_data and key in ("overboard", "thirst")):
                    stack.append(sub)
        elif kind is list:
            stack.extend(item)
    return strings, with_love, cards


def status_of(character) -> str:
    """R-STATUS, recomputed: awake below size, unconscious at size, dead above; or lost."""
    if character.lost:
        return LOST
    if character.damage < character.size:
        return AWAKE
    return UNCONSCIOUS if character.damage == character.size else DEAD


# --------------------------------------------------------------------------- the invariants

def check_cards(game: Game, from_log: bool = True) -> None:
    """Every provision and every navigation card is in exactly one place (``from_log``: and a
    game whose log says it was dealt has exactly the ruleset's cards)."""
    state = game.state
    kinds, navcards = state.table.kinds, state.table.navcards
    places: dict = {}

    def put(card, where):
        assert card not in places, f"provision {card} is both in {places[card]} and in {where}"
        places[card] = where

    for zone in ("supply", "passing", "discard", "removed"):
        for card in getattr(state, zone):
            put(card, zone)
    for who, character in state.characters.items():
        for card in character.hand:
            put(card, f"hand of {who}")
        for card in character.front:
            put(card, f"front of {who}")
    assert set(places) == set(kinds), (
        f"provisions nowhere: {sorted(set(kinds) - set(places))}; "
        f"unknown provisions somewhere: {sorted(set(places) - set(kinds))}")
    navs: dict = {}
    zones = [("navigation", state.navigation), ("drawn", state.drawn),
             ("rowing_pile", state.rowing_pile),
             ("current", [state.current] if state.current is not None else [])]
    for zone, cards in zones:
        for card in cards:
            assert card not in navs, f"navigation card {card} is both in {navs[card]} and in {zone}"
            navs[card] = zone
    assert set(navs) == set(navcards), (
        f"navigation cards nowhere: {sorted(set(navcards) - set(navs))}; "
        f"unknown: {sorted(set(navs) - set(navcards))}")
    if from_log and was_dealt(game):
        content = game.ruleset.content
        wanted = {kind: info.count for kind, info in content.provisions.items() if info.count}
        assert Counter(kinds.values()) == Counter(wanted), "the provisions are not the ruleset's"
        assert set(navcards) == set(content.navigation), "the navigation cards are not the ruleset's"


def check_damage(game: Game) -> None:
    """Damage is a whole number, never negative."""
    for who, character in game.state.characters.items():
        assert type(character.damage) is int and character.damage >= 0, \
            f"{who} has damage {character.damage!r}"


def check_status(game: Game) -> None:
    """The status follows damage and size (R-STATUS); sizes and survival are the ruleset's
    (R-SHARK-1 included); views say the same."""
    info = game.ruleset.content.characters
    public = game.view(None)["characters"]
    for who, character in game.state.characters.items():
        assert character.size == info[who].size and character.survival == info[who].survival, \
            f"{who}: size {character.size} / survival {character.survival} are not the ruleset's"
        expected = status_of(character)
        assert character.status == expected, f"{who}: status {character.status}, expected {expected}"
        assert public[who]["status"] == expected, f"{who}: the view says {public[who]['status']}"
        assert public[who]["damage"] == character.damage and public[who]["size"] == character.size
        if character.ghost:
            assert character.lost, f"{who} is a ghost but not lost"


def check_seats(game: Game) -> None:
    """The seats hold exactly the characters on board (not lost), each once; a character
    that left the game holds nothing and has no markers."""
    state = game.state
    seats = state.seats
    assert len(set(seats)) == len(seats), f"a character is seated twice: {seats}"
    on_board = {who for who, c in state.characters.items() if not c.lost}
    assert set(seats) == on_board, f"seats {seats} but on board {sorted(on_board)}"
    for who, character in state.characters.items():
        if character.lost:
            assert not character.hand and not character.front, f"lost {who} still holds cards"
            assert not character.markers, f"lost {who} still has markers {character.markers}"
        assert len(set(character.markers)) == len(character.markers), f"{who}: {character.markers}"
        if "parasol" in character.markers:
            effect_of = game.rules.effect_of
            assert any(effect_of.get(state.table.kinds[c]) == "parasol" for c in character.front), \
                f"{who}'s parasol is open but none is face up (R-PARASOL)"


def check_seagulls(game: Game) -> None:
    """Seagulls stay between 0 and 3 (the limit less one) until the game is over (R-GULL-1)."""
    state = game.state
    limit = game.ruleset.content.setup["seagulls_to_land"]
    if state.over:
        assert 0 <= state.seagulls <= limit, f"{state.seagulls} seagulls"
    else:
        assert 0 <= state.seagulls < limit, f"{state.seagulls} seagulls and the game goes on"


def window_candidates(game, top) -> list:
    """Who may act in an open window, recomputed from the rules (R-WIN-1): the base game's
    windows, the Cannibalism objection window, and a fighter's drink of Liquid Courage. By
    default (R-WIN-2) from public facts alone: a hand that is not empty may hold any card not
    in plain sight elsewhere; with ``window_pending: holders`` (R-WIN-3) from the cards held.
    Any other window fails: a new window needs its rule written here."""
    state = game.state
    chars = state.characters
    provisions = game.rules.content.provisions
    kinds = state.table.kinds
    awake = [c for c in state.seats if chars[c].awake]
    holders = game.ruleset.options.get("window_pending") == "holders"
    in_sight = set(state.discard) | set(state.removed_face_up)
    for character in chars.values():
        in_sight.update(character.front)

    def in_hand(who, test, unusable=()):
        if holders:
            return any(test(provisions[kinds[c]]) and c not in unusable for c in chars[who].hand)
        # R-WIN-2: any card of that kind not in plain sight may be in a hand that is not empty
        return bool(chars[who].hand) and any(
            test(provisions[k]) and c not in in_sight and c not in unusable
            for c, k in kinds.items())

    def in_front(who, test, unusable=()):
        return any(test(provisions[kinds[c]]) and c not in unusable for c in chars[who].front)

    def drink(who):                                                        # R-LC-1, R-WONG-2
        character = chars[who]
        if "drink" not in game.rules.types or "drank" in character.markers:
            return False
        drunk = state.card_markers.get("drunk", [])
        if who == "madame_wong" and drunk:
            return True
        lc = (lambda p: p is provisions.get("liquid_courage"))
        return in_front(who, lc, drunk) or in_hand(who, lc, drunk)

    if isinstance(top, FightWindow):
        fighters = set(top.attackers) | set(top.defenders)
        return [c for c in awake if c not in fighters
                or in_hand(c, lambda p: p.weapon > 0)                      # R-FIGHT-2
                or drink(c)]
    if isinstance(top, OverboardWindow):
        fallen_awake = [c for c in top.fallen if c in state.seats and chars[c].awake]
        found = [c for c in awake
                 if (fallen_awake and in_hand(c, lambda p: p.preserver))
                 or in_front(c, lambda p: p.chum) or in_hand(c, lambda p: p.chum)]   # R-OVER-2
        if "shark" in game.rules.types:                                    # R-SHARK-2
            found += [c for c, ch in chars.items() if ch.ghost and c not in top.called]
        return found
    if isinstance(top, ThirstWindow):
        thirsty = [c for c, n in top.thirst.items() if n > 0 and c in state.seats and chars[c].alive]
        if not thirsty:
            return []
        return [c for c in awake if in_front(c, lambda p: p.quenches > 0)
                or in_hand(c, lambda p: p.quenches > 0)]                   # R-THIRST-2
    if isinstance(top, ObjectWindow):
        return [c for c in awake if c != top.user and c not in top.objectors]   # R-CANN-2
    raise AssertionError(f"no rule here for who may act in a {type(top).__name__} window")


def check_pending(game: Game, strict: bool = True) -> None:
    """Exactly the right characters are pending: nobody once the game is over, somebody while
    it goes on; one decider for a pick, turn, place, answer or navigation; a character has a
    decision's actions listed exactly when it is pending. ``strict`` (a game that comes from
    play, not from data of unknown origin): the decider is the one the rules name, and in a
    window every character with a window action that has not passed (R-WIN-2)."""
    state = game.state
    pending = game.pending
    if state.over:
        assert pending == [], f"the game is over but {pending} are pending"
        for who in state.characters:
            assert game.legal_actions(who) == [], f"the game is over but {who} has legal actions"
            assert game.legal_ids(who) == [], f"the game is over but {who} has legal ids"
        return
    assert pending, "the game goes on but nobody is pending"
    top = game.top
    assert top is not None
    who_pending = [d.by for d in pending]
    assert len(set(who_pending)) == len(who_pending), f"pending twice: {who_pending}"
    # a fixed order: seat order bow to stern, ghosts last
    order = state.seats + [c for c in state.characters if c not in state.seats]
    assert who_pending == sorted(who_pending, key=order.index), f"pending out of order: {who_pending}"
    for decision in pending:
        assert decision.kind == top.KIND, f"{decision} pending in a {top.KIND} stage"
        character = state.characters[decision.by]
        ghost_ok = character.ghost and top.KIND in game.rules.ghost_kinds
        assert character.awake or ghost_ok, f"{decision.by} is pending but {character.status}"
    kind = top.KIND
    chars = state.characters
    if kind in DECISION_KINDS_WITH_ONE_DECIDER:
        assert len(pending) == 1, f"{len(pending)} pending for a {kind}"
    if strict:
        if kind in DECISION_KINDS_WITH_ONE_DECIDER:
            decider = pending[0].by
            if kind == "pick":
                assert len(state.passing) > 1, "a pick from fewer than 2 cards is automatic (R-SUPPLY-1)"
            elif kind == "turn":
                assert decider == top.actor, f"turn of {top.actor} but {decider} pending (R-ACT-1)"
            elif kind == "place":
                assert decider == top.actor and state.drawn, "place without drawn cards (R-ROW-1)"
            elif kind == "respond":
                assert decider == top.stake.target, "the answer is the target's (R-ROB-2)"
            elif kind == "navigate":
                awake = [c for c in state.seats if chars[c].awake]
                assert decider == awake[-1], f"navigator {decider}, nearest the stern is {awake[-1]} (R-NAV-1)"
                assert len(state.rowing_pile) > 1, "a rowing pile of one card needs no choice (R-NAV-2)"
        else:
            expected = [c for c in window_candidates(game, top) if c not in top.passed]
            assert set(who_pending) == set(expected), \
                f"{kind} window: pending {sorted(who_pending)}, expected {sorted(expected)} (R-WIN-2)"
    stage_types = {t.name for t in game.rules.kind_types.get(kind, ())}
    if top.PASSABLE:
        stage_types.add("pass")
    free = game.rules.free_names
    for who in state.characters:
        moves = game.moves(who)
        types = {atype.name for atype, _ in moves}
        if who in who_pending:
            if isinstance(top, Window):
                assert "pass" in types, f"{who} is pending in the {kind} window but may not pass"
                if game.rules.window_holders:
                    # R-WIN-3: a pending character has a window action listed (a weapon or a
                    # life preserver may be the window's action: claimed free moves)
                    assert (types & (stage_types - {"pass"})) or any(
                        atype.free and top.claims(game, atype, who, values)
                        for atype, values in moves), \
                        f"{who} is pending with no action of the {kind} window listed"
            else:
                decided = types - free
                assert decided and decided <= stage_types, \
                    f"{who} is pending for a {kind} with actions {sorted(types)}"
        else:
            assert types <= free, f"{who} is not pending yet has {sorted(types - free)} listed"
            if isinstance(top, Window) and who not in top.passed and who in top.candidates(game):
                # R-WIN-2: whoever has a window action is pending (the public test may ask
                # more characters, never fewer)
                assert not top.has_action(game, who), f"{who} has a {kind} window action but is not pending"
            if not chars[who].awake:
                assert not moves, f"{who} is {chars[who].status} yet has actions listed (R-STATUS)"


def check_trading_moment(game: Game) -> None:
    """Trades only in the action phase while no fight is under way (R-TRADE-1, R-SUPPLY-3,
    R-FIGHT-2); only awake characters play cards (R-PLAY-1)."""
    state = game.state
    trading = state.phase == "action" and not any(isinstance(s, FightWindow) for s in state.stack)
    for who, character in state.characters.items():
        types = {a["type"] for a in game.legal_actions(who)}
        if not trading:
            assert not types & {"offer", "accept_offer"}, f"{who} may trade now: {sorted(types)}"
        if not character.awake:
            assert not types & {"play", "preserve", "offer", "accept_offer", "decline_offer"}, \
                f"{who} is {character.status} yet may {sorted(types)}"


def check_canonical(game: Game) -> None:
    """One listed entry per distinct move, and the integer actions agree with the dicts:
    ``legal_ids`` are exactly the encodings of ``legal_actions``, each maps back with
    ``action_of``, and all lie in ``range(num_actions)``."""
    size = game.num_actions
    assert 0 < size <= 65_536
    for who in game.state.characters:
        listed = game.legal_actions(who)
        keys = [json.dumps(a, sort_keys=True) for a in listed]
        assert len(set(keys)) == len(keys), f"{who}: an action is listed twice"
        ids = game.legal_ids(who)
        assert ids == sorted(set(ids)), f"{who}: legal ids not sorted and distinct: {ids}"
        assert len(ids) == len(listed), f"{who}: {len(ids)} ids for {len(listed)} actions"
        by_id = {game.action_id(action): action for action in listed}
        assert sorted(by_id) == ids, f"{who}: action_id of the listed actions is not legal_ids"
        for number, action in by_id.items():
            assert 0 <= number < size
            assert game.action_of(who, number) == action, f"{who}: action_of({number}) != {action}"


def _mutations(game, action: dict, rnd: random.Random) -> list:
    """Actions that differ from a listed one: another character, another card id, another
    target, a field of the wrong type, an unknown field, a missing field, another type."""
    state = game.state
    characters = list(state.characters)
    cards = list(state.table.kinds)
    kinds = sorted(set(game.rules.content.provisions))
    junk = [None, 0, -1, 1.5, True, [], {}, "", "x" * 300, ["p1"], {"id": "p1"},
            "ALL", "hand", "nobody", float("inf"), 10 ** 30]
    out = []
    other = dict(action)
    other["by"] = rnd.choice(characters + ["nobody", "", "The_Kid"])
    out.append(other)
    for key, value in action.items():
        changed = dict(action)
        if key in ("card", "target", "to", "offer"):
            choices = {"card": cards + kinds + ["hand"], "target": characters, "to": characters,
                       "offer": [f"o{n}" for n in range(5)]}[key]
            changed[key] = rnd.choice(choices)
            out.append(changed)
        if key == "pile" and state.table.navcards:
            changed = dict(action)
            pile = list(value)
            choice = rnd.randrange(3)
            if choice == 0 and pile:
                pile.append(pile[0])
            elif choice == 1:
                pile.append(rnd.choice(list(state.table.navcards)))
            else:
                pile.append("nav-x")
            changed[key] = pile
            out.append(changed)
        wrong = dict(action)
        wrong[key] = rnd.choice(junk)
        out.append(wrong)
        if key not in ("by", "type"):
            missing = dict(action)
            del missing[key]
            out.append(missing)
    extra = dict(action)
    extra[rnd.choice(["extra", "cards", "side", "card", "target", "pile"])] = rnd.choice(junk + cards[:3])
    out.append(extra)
    retyped = dict(action)
    retyped["type"] = rnd.choice(sorted(game.rules.types) + ["PASS", "steal", ""])
    out.append(retyped)
    return out


def _alias_of_listed(game: Game, action, listed_ids: dict) -> bool:
    """Whether ``apply`` takes ``action`` as another name of a listed move (a kind for a card
    id, a left-out card or offer, a pile in another order: docs/api.md)."""
    by = action.get("by") if type(action) is dict else None
    if type(by) is not str or by not in listed_ids:
        return False
    try:
        return game.action_id(action) in listed_ids[by]
    except IllegalAction:
        return False


def unlisted_actions(game: Game, rnd: random.Random, history: list = (), count: int = 8) -> list:
    """A sample of actions that ``legal_actions`` does not list now (mutations of listed ones,
    and listed ones of earlier moments), aliases of listed moves left out; open-ended types
    (offers) are left out."""
    open_types = {t.name for t in game.rules.types.values() if t.open}
    listed_ids = {who: set(game.legal_ids(who)) for who in game.state.characters}
    listed = {}
    pool = []
    for who in game.state.characters:
        listed[who] = game.legal_actions(who)
        pool.extend(listed[who])
    candidates = []
    if pool:
        for action in rnd.sample(pool, min(4, len(pool))):
            candidates.extend(_mutations(game, action, rnd))
    if history:
        candidates.extend(rnd.sample(list(history), min(4, len(history))))
    rnd.shuffle(candidates)
    out = []
    for action in candidates:
        kind = action.get("type")
        if type(kind) is str and kind in open_types:
            continue
        by = action.get("by")
        if type(by) is str and action in listed.get(by, game.legal_actions(by)):
            continue
        if _alias_of_listed(game, action, listed_ids):
            continue
        out.append(action)
        if len(out) >= count:
            break
    return out


def check_listed_actions_apply(game: Game) -> int:
    """Every listed action of every character applies (on a copy), ``apply_id`` of its
    integer does exactly the same, and no two listed moves have the same effect (the events
    after the action itself and the state they leave differ). Returns how many."""
    applied = 0
    for who in game.state.characters:
        effects: dict = {}
        for action in game.legal_actions(who):
            other = game.clone()
            try:
                events = other.apply(action)
            except IllegalAction as exc:
                raise AssertionError(f"listed action {action} was refused: {exc}") from exc
            by_id = game.clone()
            assert by_id.apply_id(who, game.action_id(action)) == events, \
                f"apply_id of {action} gave other events"
            after = state_text(other)
            assert state_text(by_id) == after, f"apply_id of {action} left another state"
            effect = json.dumps([e for e in events if e["type"] != "action"], sort_keys=True) + after
            if effect in effects:
                # cards of one kind are interchangeable, and a card's id changes as it goes
                # into a hand: picking either of the last two waters gives the same game
                assert _same_kind_cards(game, effects[effect], action), \
                    f"{action} has the same effect as {effects.get(effect)}"
            effects[effect] = action
            applied += 1
    return applied


def _same_kind_cards(game: Game, one: dict, other: dict) -> bool:
    """Two actions that differ only in a card, the two cards of one kind."""
    if set(one) != set(other) or any(one[k] != other[k] for k in one if k != "card"):
        return False
    kinds = game.state.table.kinds
    return one.get("card") in kinds and kinds.get(one["card"]) == kinds.get(other.get("card"))


def check_unlisted_refused(game: Game, rnd: random.Random, history: list = (),
                           before: str | None = None, count: int = 8) -> int:
    """A sample of unlisted actions is refused with IllegalAction, leaving the game as it was
    (``before``: its ``state_text``). Returns how many were tried."""
    if before is None:
        before = state_text(game)
    tried = 0
    for action in unlisted_actions(game, rnd, history, count):
        try:
            game.apply(action)
        except IllegalAction:
            tried += 1
            continue
        raise AssertionError(f"the unlisted action {action!r} was accepted")
    assert state_text(game) == before, "a refused action changed the game"
    return tried


def check_views(game: Game) -> None:
    """Views are JSON-safe and say no secret: another player's hand, love or hate, the order
    or ids of the navigation deck, drawn cards or rowing pile (except the public card being
    resolved and what the viewer's own decision shows it), the supply; every card a view shows
    with its kind is one the viewer may see, with its true kind."""
    state = game.state
    kinds = state.table.kinds
    top = game.top
    pending = {d.by: d.kind for d in game.pending}
    viewers = [None] + list(state.characters)
    public_fronts = {c for ch in state.characters.values() for c in ch.front}
    secret = set(state.supply) | set(state.passing) | set(state.removed)
    secret |= set(state.navigation) | set(state.drawn) | set(state.rowing_pile)
    for character in state.characters.values():
        secret |= set(character.hand)
    for viewer in viewers:
        view = game.view(viewer)
        text = json.dumps(view, allow_nan=False)
        assert json.loads(text) == view, "the view is not plain JSON"
        assert view["you"] == viewer
        assert view["pending"] == [{"by": d.by, "kind": d.kind} for d in game.pending]
        entries = view["characters"]
        for who, entry in entries.items():
            assert "love" not in entry and "hate" not in entry, f"love/hate of {who} in a view"
            if who != viewer:
                assert "hand" not in entry, f"{viewer}'s view shows {who}'s hand"
            assert entry["hand_size"] == len(state.characters[who].hand)
        if viewer is None:
            assert "love" not in view and "hate" not in view and "decision" not in view
        else:
            me = state.characters[viewer]
            assert view["love"] == me.love and view["hate"] == me.hate
            assert [c["id"] for c in entries[viewer]["hand"]] == me.hand
        shown, with_love, cards = _walk_view(view)
        assert not with_love, f"love/hate in {with_love[0]} of {viewer}'s view"
        # what the viewer may see of the secret zones
        decides = pending.get(viewer)
        allowed = set()
        if decides == "pick":
            allowed |= set(state.passing)
        elif decides == "place":
            allowed |= set(state.drawn)
        elif decides == "navigate":
            allowed |= set(state.rowing_pile)
        leaked = (shown & secret) - allowed
        if viewer is not None:
            leaked -= set(state.characters[viewer].hand)
        assert not leaked, f"{viewer}'s view shows secret cards {sorted(leaked)}"
        visible = public_fronts | allowed
        if viewer is not None:
            visible |= set(state.characters[viewer].hand)
        if top is not None and top.KIND == "respond" and top.stake.card is not None:
            visible.add(top.stake.card)
        for card, kind in cards:
            if card in kinds:
                assert card in visible, f"{viewer}'s view shows {card}"
                assert kind == kinds[card], f"{card} ({kinds[card]}) shown as {kind}"
        if viewer is not None:
            for offer in view.get("offers", []):
                assert viewer in (offer["from"], offer["to"]), f"{viewer} sees another's offer"
        else:
            assert "offers" not in view
        if state.current is not None:
            assert view["navigation_card"]["id"] == state.current
        assert view["supply_size"] == len(state.supply)
        assert view["navigation_size"] == len(state.navigation)
        assert view["rowing_pile_size"] == len(state.rowing_pile)
        assert view["discard"] == [kinds[c] for c in state.discard]


NAV_ZONES = {"navigation", "drawn", "rowing_pile", "current"}


class Knowledge:
    """What each player (and a spectator, None) has seen so far, from its views after every
    step: cards with their kinds, navigation card ids. ``events_for`` must never show a player
    a card's kind, or a navigation card, it has not seen (docs/api.md, Per-player events)."""

    def __init__(self, game: Game):
        self.viewers = [None] + list(game.state.characters)
        self.cards = {v: set() for v in self.viewers}
        self.navs = {v: set() for v in self.viewers}
        self.since = {v: 0 for v in self.viewers}

    def observe(self, game: Game) -> None:
        # face up or discarded: every view shows these (the discard pile by kind)
        state = game.state
        kinds = state.table.kinds
        public = {(c, kinds[c]) for c in state.discard}
        public.update((c, kinds[c]) for ch in state.characters.values() for c in ch.front)
        for viewer in self.viewers:
            self.cards[viewer].update(public)
            _, _, cards = _walk_view(game.view(viewer))
            self.cards[viewer].update(cards)
            view = game.view(viewer)
            for _, item in dicts_in({k: v for k, v in view.items() if k != "result"}):
                if "seagull" in item and "id" in item:
                    self.navs[viewer].add(item["id"])
            for event in game.events_for(viewer, self.since[viewer]):
                if event["type"] == "flare":            # the flare shows its cards to all
                    self.navs[viewer].update(event["cards"])

    def check(self, game: Game) -> int:
        """Check the new entries of every player's log; returns how many were checked."""
        checked = 0
        for viewer in self.viewers:
            events = game.events_for(viewer, self.since[viewer])
            assert len(events) == len(game.log) - self.since[viewer]
            for event in events:
                self._check(viewer, event)
            self.since[viewer] = len(game.log)
            checked += len(events)
        return checked

    def _check(self, viewer, event: dict) -> None:
        kind = event["type"]
        if kind == "setup":
            assert "seed" not in event, f"{viewer} sees the seed"
        if kind == "move" and (event.get("from") in NAV_ZONES or event.get("to") in NAV_ZONES):
            if "card" in event and event.get("to") != "current" and event.get("from") != "current":
                assert event["card"] in self.navs[viewer], \
                    f"{viewer} sees navigation card {event['card']} moving {event}"
        card_id = event.get("card")   # a card's id is a secret too: it may be left out
        if kind == "move" and "kind" in event and card_id is not None and any(
                str(event.get(end, "")).startswith(("front:", "discard")) for end in ("from", "to")):
            # face up or discarded at that moment: any view could show it
            self.cards[viewer].add((card_id, event["kind"]))
        if kind == "move" and "kind" in event and card_id is not None and viewer is not None and \
                f"hand:{viewer}" in (event.get("from"), event.get("to")):
            # a card passing through one's own hand is seen, even if it leaves in the same step
            self.cards[viewer].add((card_id, event["kind"]))
        if kind == "move" and "kind" in event and card_id is not None and viewer is not None and \
                (event.get("from"), event.get("to")) == ("supply", "passing"):
            # the supply cards drawn for the draft are shown to the picker drawing them
            # (R-SUPPLY-1), also when its pick is then made for it (a single card)
            self.cards[viewer].add((card_id, event["kind"]))
        for _, item in dicts_in(event):
            card_kind = item.get("kind")
            card = item.get("card", item.get("id"))
            if type(card_kind) is str and type(card) is str and card.startswith("p"):
                assert (card, card_kind) in self.cards[viewer], \
                    f"{viewer} sees {card} is {card_kind} in {event} without having seen it"
        if kind == "offer" and viewer not in (event["from"], event["to"]):
            assert "give" not in event and "take" not in event, f"{viewer} sees another's offer"
        if kind == "action":
            action = event["action"]
            if action["type"] == "place" and viewer != action["by"]:
                assert "pile" not in action, f"{viewer} sees the pile {action['by']} kept"
            if action["type"] == "offer" and viewer not in (action["by"], action["to"]):
                assert "give" not in action and "take" not in action, f"{viewer} sees an offer"


def expected_base_scores(game: Game, who: str) -> dict:
    """R-SCORE-1..7, recomputed from the state."""
    state = game.state
    chars = state.characters
    provisions = game.rules.content.provisions
    info = game.rules.content.characters
    me = chars[who]

    def survives(c):
        return not c.lost and c.damage <= c.size                          # R-SCORE-1

    parts = {"survival": 0, "treasure": 0, "love": 0, "hate": 0}
    misanthrope = me.hate == who
    if survives(me) and not misanthrope:                                  # R-SCORE-2, -6
        parts["survival"] = me.survival
    if not me.lost:                                                       # R-SCORE-3
        groups: dict = {}
        sets: dict = {}
        for card in me.hand + me.front:
            p = provisions[state.table.kinds[card]]
            if p.treasure_group is None:
                continue
            if p.treasure_set:
                sets.setdefault(p.treasure_group, [p.treasure_set, 0])[1] += 1
            else:
                groups[p.treasure_group] = groups.get(p.treasure_group, 0) + p.treasure_points
        for group, (table, count) in sets.items():
            groups[group] = groups.get(group, 0) + table[count]
        double = info[who].double_treasure
        parts["treasure"] = sum(v * (2 if g == double else 1) for g, v in groups.items())
    if me.love is not None and survives(chars[me.love]):                  # R-SCORE-4, -5, -7
        parts["love"] = chars[me.love].survival
    if misanthrope:                                                       # R-SCORE-6
        parts["hate"] = sum(c.size for cid, c in chars.items() if cid != who and not survives(c))
    elif me.hate is not None and not survives(chars[me.hate]):            # R-SCORE-4, -7
        parts["hate"] = chars[me.hate].size
    return parts


def check_scores(game: Game, strict: bool = True, from_log: bool = True) -> None:
    """Once over: every player has a score that adds up from its breakdown; the winners are
    exactly the highest scores (R-SCORE-8); the public view shows the same result.
    ``strict``: with the base scoring each part is what R-SCORE says; ``from_log``: the log
    has one game_over event with these scores."""
    state = game.state
    if not state.over:
        assert game.result is None and state.result is None, "a result before the end"
        return
    result = game.result
    assert result is not None, "the game is over without a result"
    assert set(result["scores"]) == set(state.characters) == set(result["breakdown"])
    for who, parts in result["breakdown"].items():
        assert all(type(v) is int for v in parts.values()), f"{who}: parts {parts}"
        assert result["scores"][who] == sum(parts.values()), \
            f"{who}: score {result['scores'][who]} but parts {parts}"
        if strict and set(parts) == BASE_SCORE_PARTS:
            assert parts == expected_base_scores(game, who), \
                f"{who}: parts {parts}, R-SCORE says {expected_base_scores(game, who)}"
    best = max(result["scores"].values())
    assert sorted(result["winners"]) == sorted(w for w, s in result["scores"].items() if s == best)
    shown = dict(game.view(None)["result"])
    # once over, the view reveals every player's love and hate beside the result
    assert shown.pop("reveal") == {c: {"love": ch.love, "hate": ch.hate}
                                   for c, ch in game.state.characters.items()}
    assert shown == result
    if from_log:
        over = [e for e in game.log if e.get("type") == "game_over"]
        assert len(over) == 1 and over[0]["scores"] == result["scores"]


def check_json_safe(game: Game) -> str:
    """``to_dict`` is plain JSON (no NaN, no object of another type); returns it as text."""
    text = fingerprint(game)
    assert json.loads(text) == game.to_dict(), "to_dict is not plain JSON"
    return text


def check_roundtrip(game: Game, text: str | None = None) -> Game:
    """``from_dict(to_dict())`` through JSON text, and ``clone()``, give the same game.
    Returns the restored game (to continue it alongside the original)."""
    if text is None:
        text = fingerprint(game)
    restored = Game.from_dict(json.loads(text))
    assert fingerprint(restored) == text, "from_dict(to_dict()) is not the same game"
    assert [d.data() for d in restored.pending] == [d.data() for d in game.pending]
    copy = game.clone()
    assert fingerprint(copy) == text, "clone() is not the same game"
    return restored


def check_same_continuation(game: Game, other: Game, action: dict, events: list,
                            text: str) -> None:
    """``other`` (a copy of ``game`` before ``action``) continues identically: the same
    events and, after, the same state (``text``: ``state_text(game)``) and log."""
    got = other.apply(action)
    if got != events:
        first = next((i for i, (a, b) in enumerate(zip(got, events)) if a != b), min(len(got), len(events)))
        raise AssertionError(f"a copy applied {action} with other events: from event {first}, "
                             f"{got[first:first + 3]} instead of {events[first:first + 3]}")
    assert state_text(other) == text, f"a copy differs after {action}"
    assert other.log == game.log, f"a copy has another log after {action}"
    assert [d.data() for d in other.pending] == [d.data() for d in game.pending]


def check_all(game: Game, rnd: random.Random | None = None, history: list = (),
              deep: bool = True, strict: bool = True, from_log: bool = True) -> None:
    """Every invariant that holds at any moment of any game; ``deep`` also applies every
    listed action to a copy and tries a sample of unlisted ones. ``strict``: the decider is
    the one the rules name and the scores are R-SCORE's; ``from_log`` (not for a game read
    from data of unknown origin, whose log is only a record): a game the log says was dealt
    has the ruleset's cards, and the log has the game_over event."""
    check_json_safe(game)
    text = state_text(game)
    check_cards(game, from_log)
    check_damage(game)
    check_status(game)
    check_seats(game)
    check_seagulls(game)
    check_pending(game, strict)
    check_trading_moment(game)
    check_canonical(game)
    check_views(game)
    check_scores(game, strict, from_log)
    if deep:
        check_listed_actions_apply(game)
        check_unlisted_refused(game, rnd or random.Random(0), history, before=text)


# --------------------------------------------------------------------------- rulesets

OPTION_VALUES = {
    "swap_turn_order": ["fixed", "swapped_acts_next"],
    "rowing": ["each", "keep_one"],
    "rowing_marker": ["if_kept", "always"],
}

# expansions and variants played together (besides every built-in ruleset on its own)
COMBINATIONS = [
    {"expansions": ["cannibalism"], "variants": ["shark", "quick"]},
    {"variants": ["shark", "quick", "single_card_rowing"]},
    {"expansions": ["cannibalism"], "variants": ["shark", "quick", "single_card_rowing"]},
    {"expansions": ["cannibalism"], "variants": ["single_card_rowing"]},
    {"expansions": ["liquid_courage"], "variants": ["shark", "quick", "single_card_rowing"]},
    {"expansions": ["liquid_courage", "cannibalism"], "variants": ["shark", "quick"]},
    {"extends": "all_in_one", "variants": ["shark", "quick", "single_card_rowing"]},
    {"extends": "all_in_one", "variants": ["single_card_rowing"]},
]


def spec_name(spec: dict) -> str:
    base = spec.get("extends", "")
    parts = spec.get("expansions", []) + spec.get("variants", [])
    if not parts:
        return base
    return "+".join(([base] if base not in ("", "classic") else []) + parts)


def ruleset_specs() -> list:
    """Every built-in ruleset and the combinations above, as ruleset mappings for
    ``load_ruleset``. Each must load: a spec that does not is an error here, not a skip."""
    specs = [{"extends": name} for name in builtin_rulesets()]
    specs += [{"extends": "classic", **combo} for combo in COMBINATIONS]
    for spec in specs:
        try:
            lr.load_ruleset(dict(spec))
        except ContentError as exc:
            raise AssertionError(f"the ruleset {spec} does not load: {exc}") from exc
    return specs


def load(spec: dict, options: dict | None = None):
    return lr.load_ruleset({**spec, "options": dict(options or {})})


def random_options(rnd) -> dict:
    return {name: rnd.choice(values) for name, values in OPTION_VALUES.items()}


# --------------------------------------------------------------------------- budgets and counts

PROFILE = os.environ.get("HYPOTHESIS_PROFILE", "default")


def budget(default: int, long: int) -> int:
    """A count for the default (CI) profile or for ``HYPOTHESIS_PROFILE=long``."""
    return long if PROFILE == "long" else default


# what the property tests ran, printed at the end of the pytest run (conftest.py)
STATS: dict = {}


def count(section: str, key: str, n: int = 1) -> None:
    entry = STATS.setdefault(section, {})
    entry[key] = entry.get(key, 0) + n


@contextlib.contextmanager
def time_limit(seconds: float, what: str):
    """Fail (instead of hanging CI) when the body runs for more than ``seconds`` of this
    process's CPU time: a guard against a loop without end, not a speed test, so it counts
    CPU seconds (``ITIMER_VIRTUAL``), which other programs on the machine do not stretch."""
    if not hasattr(signal, "setitimer"):
        yield
        return

    def expired(signum, frame):
        raise AssertionError(f"{what} ran for more than {seconds} CPU seconds")

    previous = signal.signal(signal.SIGVTALRM, expired)
    signal.setitimer(signal.ITIMER_VIRTUAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_VIRTUAL, 0)
        signal.signal(signal.SIGVTALRM, previous)
