"""The one path for every change of state (issue #2): each function changes the state and
emits the event that says so, so that the log and the ``lifeboat_event`` hook see every change.
Rule code and plugins change a game only through these functions.
"""

from __future__ import annotations

from .model import LOST

# zone names of provision cards: "supply", "passing", "discard", "removed", "hand:<c>", "front:<c>"


def emit(game, event: dict) -> dict:
    game.log.append(event)
    hook = game.rules.event_hook
    if hook is not None:
        hook(game=game, event=event)
    return event


def zone(game, name: str) -> list:
    """The card list a zone name denotes."""
    state = game.state
    if ":" in name:
        where, owner = name.split(":", 1)
        character = state.characters[owner]
        return character.hand if where == "hand" else character.front
    return getattr(state, name)


# --------------------------------------------------------------------------- hook answers

MAX_AMOUNT = 1000   # damage, or thirsts, a hook may answer at once (a whole number 0..1000)


def hook_nonsense(hook: str, answer, what: str):
    """Refuse a hook's answer that cannot enter the state: ``apply`` rolls back and raises a
    ``PluginError`` naming the plugins that implement ``hook`` (``Rules.blame``)."""
    from .plugins import HookResultError
    from .refusals import _short
    raise HookResultError(hook, f"answered {_short(answer)} {what}")


# --------------------------------------------------------------------------- damage and status

def _status_event(game, character, old: str) -> None:
    new = character.status
    if new != old:
        emit(game, {"type": "status", "character": character.id, "status": new})
        hook = game.rules.status_hook
        if hook is not None:
            hook(game=game, character=character.id, old=old, new=new)


def damage(game, who: str, amount: int, cause: str) -> int:
    """``who`` takes ``amount`` damage from ``cause`` (after the ``lifeboat_damage`` hook).
    Returns the damage taken. Damage is never negative."""
    amount = game.rules.hook.lifeboat_damage(game=game, character=who, amount=amount, cause=cause)
    if type(amount) is not int or not 0 <= amount <= MAX_AMOUNT:
        hook_nonsense("lifeboat_damage", amount, f"as the damage {who} takes ({cause})")
    if amount == 0:
        return 0
    character = game.state.characters[who]
    old = character.status
    character.damage += amount
    emit(game, {"type": "damage", "character": who, "amount": amount, "cause": cause})
    _status_event(game, character, old)
    return amount


def heal(game, who: str, amount: int, cause: str) -> int:
    """``who`` heals up to ``amount`` damage (never below 0). Returns the damage healed."""
    character = game.state.characters[who]
    amount = min(amount, character.damage)
    if amount <= 0:
        return 0
    old = character.status
    character.damage -= amount
    emit(game, {"type": "heal", "character": who, "amount": amount, "cause": cause})
    _status_event(game, character, old)
    return amount


def lose(game, who: str, cause: str) -> None:
    """``who`` leaves the game (lost at sea, R-OVER-5, or eaten, R-CANN-3) with its seat, hand
    and face-up cards; a character lost by falling overboard leaves a ghost (R-SHARK-2)."""
    state = game.state
    character = state.characters[who]
    old = character.status
    for card in character.hand[:]:
        move(game, card, f"hand:{who}", "removed")
    for card in character.front[:]:
        move(game, card, f"front:{who}", "removed")
    if who in state.seats:
        state.seats.remove(who)
        emit(game, {"type": "seats", "seats": state.seats[:]})
    character.lost = True
    character.ghost = cause == "overboard"
    character.rowed = character.fought = character.parasol_active = False
    emit(game, {"type": "lost", "character": who, "cause": cause})
    if old != LOST:
        _status_event(game, character, old)


# --------------------------------------------------------------------------- cards

def move(game, card: str, source: str, target: str, top: bool = False) -> None:
    """Move a provision between zones (to the end of the target list, or its top)."""
    state = game.state
    zone(game, source).remove(card)
    destination = zone(game, target)
    if top:
        destination.insert(0, card)
    else:
        destination.append(card)
    emit(game, {"type": "move", "card": card, "kind": state.kinds[card],
                "from": source, "to": target})
    if source.startswith("front:"):
        _parasol_check(game, source[6:])


def _parasol_check(game, who: str) -> None:
    """An active parasol ends when no parasol is face up in front of its holder (R-PARASOL)."""
    character = game.state.characters[who]
    if character.parasol_active:
        effects = game.rules.effect_of
        kinds = game.state.kinds
        if not any(effects.get(kinds[c]) == "parasol" for c in character.front):
            set_parasol(game, who, False)


def set_parasol(game, who: str, active: bool) -> None:
    character = game.state.characters[who]
    if character.parasol_active != active:
        character.parasol_active = active
        emit(game, {"type": "parasol", "character": who, "active": active})


def move_navigation(game, card: str, source: str, target: str) -> None:
    """Move a navigation card between "navigation" (the deck: drawn from the top, returned to
    the bottom), "drawn", "rowing_pile" and "current"."""
    state = game.state
    if source == "current":
        state.current = None
    else:
        getattr(state, source).remove(card)
    if target == "current":
        state.current = card
    else:
        getattr(state, target).append(card)
    emit(game, {"type": "move", "card": card, "from": source, "to": target})


# --------------------------------------------------------------------------- table

def swap_seats(game, a: str, b: str) -> None:
    seats = game.state.seats
    i, j = seats.index(a), seats.index(b)
    seats[i], seats[j] = seats[j], seats[i]
    emit(game, {"type": "seats", "seats": seats[:]})


def set_marker(game, who: str, marker: str, value: bool = True) -> None:
    """Give or clear a rowing (``rowed``) or fight (``fought``) marker."""
    character = game.state.characters[who]
    if getattr(character, marker) != value:
        setattr(character, marker, value)
        emit(game, {"type": "marker", "character": who, "marker": marker, "value": value})


def seagull(game, delta: int) -> bool:
    """Add (or, crossed, remove) a seagull (R-GULL-1). Returns True when it was the seagull
    that lands the boat: the game is then over."""
    state = game.state
    if delta > 0:
        limit = game.rules.content.setup["seagulls_to_land"]
        if state.seagulls + delta >= limit:
            state.seagulls = limit
            emit(game, {"type": "seagulls", "count": state.seagulls})
            game.end("landed")
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
