"""The one path for every change of state: each function changes the state and emits the event
that says so, so that the log, the ``lifeboat_event`` hook and each player's view of the log
(``Game.events_for``) see every change. Rules and plugins change a game only through here.

An event may carry secrets: ``emit(..., secret=Secret(audience, hidden))`` records which
players may see the ``hidden`` fields (a card's kind moving between hands, navigation cards a
rower drew); ``events_for`` leaves those fields out for everyone else.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterable, NamedTuple

from .declare import copy_json
from .records import DISCARD, REMOVED, Deck, End, Pile, Status, Zone, front, hand, short

if TYPE_CHECKING:
    from .engine import Game

MAX_AMOUNT = 1000   # damage or thirsts a hook may answer at once

# enum members looked up once (an enum class's attribute lookup is slow in Python 3.11)
_HAND, _FRONT, _SUPPLY, _PASSING, _DISCARD = Pile.HAND, Pile.FRONT, Pile.SUPPLY, Pile.PASSING, Pile.DISCARD
_CURRENT = Deck.CURRENT


class Secret(NamedTuple):
    """The fields of an event (``action.pile`` for a field of the action inside it) that only
    ``audience`` (character ids) may see; ``more``: a further Secret for fields a narrower
    audience sees (the new id of a card going into a hand: its new owner only, while the
    kind may be seen by more, docs/api.md). A named tuple: one is made for most card moves,
    and a tuple is the cheapest immutable record to make."""
    audience: tuple[str, ...] = ()
    hidden: tuple[str, ...] = ()
    more: "Secret | None" = None

    def data(self) -> dict:
        out = {"audience": list(self.audience), "hidden": list(self.hidden)}
        if self.more is not None:
            out["more"] = self.more.data()
        return out

    def hidden_from(self, viewer) -> tuple:
        """The fields ``viewer`` (a character id, or None: a spectator) may not see."""
        hidden = () if viewer is not None and viewer in self.audience else self.hidden
        more = self.more
        while more is not None:
            if viewer is None or viewer not in more.audience:
                hidden += more.hidden
            more = more.more
        return hidden


class HookAnswerError(Exception):
    """A hook answered something that cannot enter the state (``apply`` rolls back and names
    the plugins implementing the hook)."""

    def __init__(self, hook: str, message: str):
        super().__init__(f"{hook} {message}")
        self.hook = hook
        self.at = ""        # where the answering implementations are (Rules.plugin_error)


MAX_ANSWER_SHOWN = 200   # characters of a refused answer shown (a huge one is cut there)


def hook_nonsense(hook: str, answer, what: str):
    # the whole answer (the part that is wrong may be its last), cut only when very long
    raise HookAnswerError(hook, f"answered {short(answer, MAX_ANSWER_SHOWN)} {what}")


# The fields that hold lists or mappings, for each event type the built-in rules emit (the
# others hold strings, numbers, booleans or null). Events are copied whenever they are handed
# out (``apply``, ``to_dict``, ``events_for``): a flat one is copied in one step. An event type
# not listed here (a plugin's) is looked through. tests/test_events.py keeps this true.
CONTAINERS = {
    "action": ("action",), "fight": ("attackers", "defenders", "strength"),
    "fight_start": ("attackers", "defenders"), "flare": ("cards",),
    "game_over": ("scores", "winners"), "navigation": ("data",), "objections": ("objectors",),
    "offer": ("give", "take"), "overboard": ("characters",), "seats": ("seats",),
    "setup": ("seats",),
    **{kind: () for kind in (
        "adrift", "cannibalism", "card_marker", "chum", "damage", "decline", "drink", "eaten",
        "heal", "join", "kept", "lost", "marker", "move", "navigate", "navigator", "object",
        "offer_void", "pass", "phase", "pick", "place", "play", "preserve", "quench",
        "respond", "rob", "robbed", "row", "seagulls", "shark", "status", "swap", "thirst",
        "trade", "turn", "use", "water")},
}


def copy_event(event: dict) -> dict:
    """A copy of an event deep enough that nothing is shared with the log."""
    return COPIERS.get(event["type"], _copy_looked_through)(event)


def _copy_looked_through(event: dict) -> dict:
    """A plugin's event: every field looked through."""
    copy = event.copy()
    _finish_any(copy)
    return copy


def _copier(keys: tuple):
    """The copy of an event type whose fields ``keys`` may hold containers."""
    if not keys:
        return dict.copy

    def copy_fields(event: dict) -> dict:
        copy = event.copy()
        for key in keys:
            value = copy.get(key)
            if type(value) is list or type(value) is dict:
                copy[key] = copy_json(value)
        return copy
    return copy_fields


def _copy_action(event: dict) -> dict:
    """An ``action`` event: the action dict holds strings, and lists of them (a pile, the
    cards of an offer)."""
    copy = event.copy()
    action = copy.get("action")
    if type(action) is dict:
        action = copy["action"] = action.copy()
        for key, value in action.items():
            if type(value) is list or type(value) is dict:
                action[key] = copy_json(value)
    elif type(action) is list:
        copy["action"] = copy_json(action)
    return copy


COPIERS = {kind: _copier(keys) for kind, keys in CONTAINERS.items()}
COPIERS["action"] = _copy_action


def copy_events(events) -> list:
    """Copies of events (``copy_event`` of each)."""
    get = COPIERS.get
    return [get(e["type"], _copy_looked_through)(e) for e in events]


# Copies of a whole log (``to_dict``, ``Game.events``): every event is copied shallow in one
# step, then the copies of those holding lists or mappings are finished in place, each by the
# finisher its shape calls for (worked out once per event: events are not changed once
# logged).

def _finish_plain_action(copy: dict) -> None:
    """An ``action`` event whose action holds no list (most: ``pass``, ``join``...)."""
    copy["action"] = copy["action"].copy()


def _finish_any(copy: dict) -> None:
    for key, value in copy.items():
        if type(value) is list or type(value) is dict:
            copy[key] = copy_json(value)


def _flat_lists(mapping: dict) -> tuple | None:
    """The keys of ``mapping`` holding lists, when those lists hold only strings and every
    other value is no container; else None."""
    keys = []
    for key, value in mapping.items():
        kind = type(value)
        if kind is list:
            if not all(type(item) is str for item in value):
                return None
            keys.append(key)
        elif kind is dict:
            return None
    return tuple(keys)


_FINISHERS: dict = {}


def _lists_finisher(keys: tuple, inner: str | None = None):
    """The finisher of an event whose lists (all of strings) are at ``keys`` (in its
    ``inner`` mapping, for an action): one per shape, kept."""
    found = _FINISHERS.get((keys, inner))
    if found is None:
        if inner is None:
            def found(copy: dict) -> None:
                for key in keys:
                    copy[key] = copy[key][:]
        else:
            def found(copy: dict) -> None:
                nested = copy[inner] = copy[inner].copy()
                for key in keys:
                    nested[key] = nested[key][:]
        if len(_FINISHERS) < 256:   # shapes are few; a forged save's odd ones are not kept
            _FINISHERS[(keys, inner)] = found
    return found


def finisher_of(event: dict):
    """How to finish a shallow copy of a logged event into a copy sharing nothing with it:
    None for a flat event, else a function changing the copy in place."""
    keys = _flat_lists(event)
    if keys is not None:
        return _lists_finisher(keys) if keys else None
    action = event.get("action")
    if type(action) is dict and event["type"] == "action" and not any(
            type(v) is list or type(v) is dict for k, v in event.items() if k != "action"):
        keys = _flat_lists(action)
        if keys is not None:
            return _lists_finisher(keys, "action") if keys else _finish_plain_action
    return _finish_any


def copy_log(log: list, deep: list) -> list:
    """Copies of every event of a log, sharing nothing with it: ``deep`` lists ``(index,
    finisher)`` of the events that hold lists or mappings (``finisher_of``)."""
    copies = list(map(dict.copy, log))
    for index, finish in deep:
        finish(copies[index])
    return copies


def emit(game: "Game", event: dict, secret: Secret | None = None) -> dict:
    log = game.log
    if secret is not None:
        game.secrets[len(log)] = secret
    log.append(event)
    hook = game.rules.event_hook
    if hook is not None:
        hook(game=game, event=event)
    return event


# --------------------------------------------------------------------------- damage and status

def _status_changed(game: "Game", who: str, old: Status) -> None:
    character = game.state.characters[who]
    new = character.status
    if new is not old:
        game.statuses_changed = True
        emit(game, {"type": "status", "character": who, "status": new.value})
        hook = game.rules.status_hook
        if hook is not None:
            hook(game=game, character=who, old=old.value, new=new.value)


def damage(game: "Game", who: str, amount: int, cause: str) -> int:
    """``who`` takes ``amount`` damage from ``cause`` (as the ``lifeboat_damage`` hook says).
    Returns the damage taken."""
    hook = game.rules.damage_hook
    if hook is not None:
        amount = hook(game=game, character=who, amount=amount, cause=cause)
        if type(amount) is not int or not 0 <= amount <= MAX_AMOUNT:
            hook_nonsense("lifeboat_damage", amount, f"as the damage {who} takes ({cause})")
    if amount <= 0:
        return 0
    character = game.state.characters[who]
    old = character.status
    character.damage += amount
    emit(game, {"type": "damage", "character": who, "amount": amount, "cause": cause})
    _status_changed(game, who, old)
    return amount


def heal(game: "Game", who: str, amount: int, cause: str) -> int:
    """``who`` heals up to ``amount`` damage (never below 0). Returns the damage healed."""
    character = game.state.characters[who]
    amount = min(amount, character.damage)
    if amount <= 0:
        return 0
    old = character.status
    character.damage -= amount
    emit(game, {"type": "heal", "character": who, "amount": amount, "cause": cause})
    _status_changed(game, who, old)
    return amount


def lose(game: "Game", who: str, cause: str) -> None:
    """``who`` leaves the game (lost at sea, R-OVER-5, or eaten, R-CANN-3) with its seat, hand
    and face-up cards; one lost by falling overboard leaves a ghost (R-SHARK-2)."""
    state = game.state
    character = state.characters[who]
    old = character.status
    for card in character.hand[:]:
        move(game, card, hand(who), REMOVED)
    for card in character.front[:]:
        move(game, card, front(who), REMOVED)
        state.removed_face_up.append(card)   # everyone saw it go (R-WIN-2)
    for marker in character.markers[:]:
        mark(game, who, marker, False)
    if who in state.seats:
        state.seats.remove(who)
        emit(game, {"type": "seats", "seats": state.seats[:]})
    character.lost = True
    character.ghost = cause == "overboard"
    emit(game, {"type": "lost", "character": who, "cause": cause})
    _status_changed(game, who, old)


# --------------------------------------------------------------------------- cards

def cards_in(game: "Game", zone: Zone) -> list:
    """The card list of a zone."""
    state = game.state
    pile = zone.pile
    if pile is _HAND:
        return state.characters[zone.owner].hand
    if pile is _FRONT:
        return state.characters[zone.owner].front
    if pile is _SUPPLY:
        return state.supply
    if pile is _PASSING:
        return state.passing
    if pile is _DISCARD:
        return state.discard
    return state.removed


def move(game: "Game", card: str, source: Zone, target: Zone, top: bool = False,
         seen_by: Iterable[str] = ()) -> str:
    """Move a provision between zones (to the end of the target, or its top); returns the
    card's id after the move. Its kind is public when it comes from or goes face up or to the
    discard pile; otherwise only the owners of the hands involved and ``seen_by`` see it, and
    its id likewise. A card that goes into a hand gets a new id, which only its new owner
    sees (docs/api.md: ids never let a player follow a card into a hand it may not see)."""
    state = game.state
    cards_in(game, source).remove(card)
    destination = cards_in(game, target)
    into_hand = target.pile is _HAND
    if into_hand:
        card = _new_id(state, card)
    if top:
        destination.insert(0, card)
    else:
        destination.append(card)
    if source.public or target.public:
        secret = Secret((target.owner,), ("card",)) if into_hand else None
    else:
        audience = [source.owner] if source.pile is _HAND else []
        if into_hand:
            audience.append(target.owner)
        if seen_by:
            audience.extend(c for c in seen_by if c not in audience)
        if not into_hand or audience == [target.owner]:
            secret = Secret(tuple(audience), ("card", "kind"))
        else:
            secret = Secret(tuple(audience), ("kind",), Secret((target.owner,), ("card",)))
    emit(game, {"type": "move", "card": card, "kind": state.table.kinds[card],
                "from": source.label, "to": target.label}, secret)
    if source.pile is _FRONT and game.rules.parasol_kinds:
        _parasol_check(game, source.owner)
    return card


def _new_id(state, card: str) -> str:
    """``card`` under a fresh id: in the table, and in the markers it carries (R-LC-1)."""
    new = state.new_card_id()
    kinds = state.table.kinds
    kinds[new] = kinds.pop(card)
    markers = state.card_markers
    if markers:
        for marker, cards in markers.items():
            if card in cards:
                markers[marker] = [new if c == card else c for c in cards]
    return new


def discard(game: "Game", who: str, card: str) -> None:
    """``who`` spends a card from its hand or from in front of it (R-PLAY-2)."""
    character = game.state.characters[who]
    source = hand(who) if card in character.hand else front(who)
    move(game, card, source, DISCARD)


def _parasol_check(game: "Game", who: str) -> None:
    """An open parasol closes when no parasol is face up in front of its holder (R-PARASOL)."""
    character = game.state.characters[who]
    if "parasol" in character.markers:
        kinds = game.state.table.kinds
        parasols = game.rules.parasol_kinds
        if not any(kinds[c] in parasols for c in character.front):
            mark(game, who, "parasol", False)


def move_navigation(game: "Game", card: str, source: Deck, target: Deck,
                    seen_by: Iterable[str] | None = ()) -> None:
    """Move a navigation card between the deck (drawn from the top, returned to the bottom),
    the cards drawn, the rowing pile and the card being resolved. Which card it is stays
    secret except to ``seen_by``; ``seen_by=None``: everyone sees it."""
    state = game.state
    source_name, target_name = str.__str__(source), str.__str__(target)
    if source is _CURRENT:
        state.current = None
    else:
        getattr(state, source_name).remove(card)
    if target is _CURRENT:
        state.current = card
    else:
        getattr(state, target_name).append(card)
    secret = None if seen_by is None or target is _CURRENT else Secret(tuple(seen_by), ("card",))
    emit(game, {"type": "move", "card": card, "from": source_name, "to": target_name}, secret)


# --------------------------------------------------------------------------- table

def swap_seats(game: "Game", a: str, b: str) -> None:
    seats = game.state.seats
    i, j = seats.index(a), seats.index(b)
    seats[i], seats[j] = seats[j], seats[i]
    emit(game, {"type": "seats", "seats": seats[:]})


def mark(game: "Game", who: str, marker: str, value: bool = True) -> None:
    """Give or take back a marker (``rowed``, ``fought``, ``parasol``...)."""
    markers = game.state.characters[who].markers
    if (marker in markers) != value:
        if value:
            markers.append(marker)
        else:
            markers.remove(marker)
        emit(game, {"type": "marker", "character": who, "marker": marker, "value": value})


def mark_card(game: "Game", card: str, marker: str, value: bool = True) -> None:
    """Put or take a marker on a provision card (it stays with the card wherever it goes)."""
    held = game.state.card_markers
    cards = held.get(marker, [])
    if (card in cards) != value:
        if value:
            held[marker] = cards + [card]
        else:
            rest = [c for c in cards if c != card]
            if rest:
                held[marker] = rest
            else:
                del held[marker]
        # a card in a hand: its id only for its owner (docs/api.md: ids are secrets like kinds)
        owner = next((who for who, c in game.state.characters.items() if card in c.hand), None)
        emit(game, {"type": "card_marker", "card": card, "marker": marker, "value": value},
             None if owner is None else Secret((owner,), ("card",)))


def seagull(game: "Game", delta: int) -> bool:
    """Add a seagull, or take one away for a crossed one (R-GULL-1). Returns True when it was
    the seagull that lands the boat: the game is then over (R-END-1)."""
    state = game.state
    if delta > 0:
        limit = game.rules.content.setup["seagulls_to_land"]
        if state.seagulls + delta >= limit:
            state.seagulls = limit
            emit(game, {"type": "seagulls", "count": state.seagulls})
            game.end(End.LANDED)
            return True
        state.seagulls += delta
    elif delta < 0:
        if state.seagulls == 0:
            return False
        state.seagulls = max(0, state.seagulls + delta)
    else:
        return False
    emit(game, {"type": "seagulls", "count": state.seagulls})
    return False
