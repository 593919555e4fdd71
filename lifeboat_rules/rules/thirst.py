"""The thirst step (R-THIRST-1..3, R-PARASOL), a window (R-WIN)."""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from .. import effects
from ..actions import ActionType, Domain, Param
from ..declare import counts, state
from ..hookspecs import hookimpl
from ..records import DISCARD, Kind, Refusal
from ..stages import Window
from .cards import hand_then_front, has_in_front, holding, info, may_hold_with, zone_of

if TYPE_CHECKING:
    from ..content import NavigationCard
    from ..engine import Game


def waters(game: "Game", who: str) -> list:
    """Cards that quench thirst, from hand first, then face up."""
    return holding(game, who, "quenches")


@state
class ThirstWindow(Window):
    """R-THIRST-2: any awake character may give water to any thirsty character that is not
    dead; what is left is damage when the window closes (R-THIRST-3)."""
    NAME: ClassVar[str] = "thirst"
    KIND: ClassVar[str] = Kind.THIRST
    thirst: dict = counts(high=effects.MAX_AMOUNT, doc="thirsts not yet cancelled")

    def thirsty(self, game: "Game") -> list:
        chars = game.state.characters
        thirst = self.thirst
        return [c for c in game.state.seats if thirst.get(c, 0) > 0 and chars[c].alive]

    def quench(self, game: "Game", by: str, target: str, amount: int, source: str) -> int:
        """Cancel up to ``amount`` of ``target``'s thirsts left (``by`` did it, with
        ``source``); returns how many were cancelled."""
        cancelled = min(amount, self.thirst.get(target, 0))
        if cancelled > 0:
            self.thirst[target] -= cancelled
        effects.emit(game, {"type": "quench", "character": by, "target": target,
                            "source": source, "amount": cancelled})
        return cancelled

    def close(self, game: "Game") -> None:
        chars = game.state.characters
        for who in game.state.seats[:]:
            left = self.thirst.get(who, 0)
            if left > 0 and chars[who].alive:
                effects.damage(game, who, left, "thirst")

    def public(self, game: "Game"):
        return {"kind": "thirst", "thirst": {c: n for c, n in self.thirst.items() if n > 0}}


def base_thirst(game: "Game", who: str, card: "NavigationCard") -> int:
    """R-THIRST-1: the oar with a rowing marker, the fight icon with a fight marker, the
    thirst list; at most three."""
    character = game.state.characters[who]
    count = 0
    if card.oar and "rowed" in character.markers:
        count += 1
    if card.fight and "fought" in character.markers:
        count += 1
    chars = game.state.characters
    if who in card.thirst.select(game.state.seats, lambda c, m: m in chars[c].markers):
        count += 1
    return min(count, 3)


def start_thirst(game: "Game", card: "NavigationCard") -> None:
    state = game.state
    chars = state.characters
    hook = game.rules.thirst_hook
    counted = {}
    for who in state.seats:
        if not chars[who].alive:
            continue
        if hook is not None:
            count = hook(game=game, character=who, card=card)
            if type(count) is not int or not 0 <= count <= effects.MAX_AMOUNT:
                effects.hook_nonsense("lifeboat_thirst", count, f"as how thirsty {who} is (R-THIRST-1)")
        else:
            count = base_thirst(game, who, card)
        if count > 0:
            counted[who] = count
            effects.emit(game, {"type": "thirst", "character": who, "count": count})
    parasols = game.rules.parasol_kinds
    for who in list(counted):
        character = chars[who]
        if "parasol" in character.markers:   # R-THIRST-2: the open parasol first
            cancels = max(info(game, c).param("cancels", 1) for c in character.front
                          if state.table.kinds[c] in parasols)
            cancelled = min(cancels, counted[who])
            counted[who] -= cancelled
            effects.emit(game, {"type": "quench", "character": who, "target": who,
                                "source": "parasol", "amount": cancelled})
    if any(counted.values()):
        game.push(ThirstWindow(thirst=counted))


@hookimpl(trylast=True)
def lifeboat_thirst(game, character, card):
    return base_thirst(game, character, card)


def _water_default(game: "Game", by: str, values):
    found = waters(game, by)
    return found[0] if found else None


def _water_check(game: "Game", stage: ThirstWindow, by: str, target: str, card):
    if card not in waters(game, by):
        return Refusal("R-THIRST-2", f"{by} holds no water {'' if card is None else repr(card)}".rstrip(), "card", card)
    if target not in stage.thirsty(game):
        return Refusal("R-THIRST-2", f"{target} is not a thirsty character that is not dead", "target", target)
    return None


def _water_moves(game: "Game", stage: ThirstWindow, by: str):
    cards = waters(game, by)
    if not cards:
        return []
    return [(target, card) for target in stage.thirsty(game) for card in cards]


def _water_resolve(game: "Game", stage: ThirstWindow, by: str, target: str, card: str) -> None:
    quench = info(game, card).quenches
    effects.move(game, card, zone_of(game, by, card), DISCARD)
    effects.emit(game, {"type": "water", "character": by, "target": target, "card": card,
                        "kind": game.state.table.kinds[card]})
    cancelled = stage.quench(game, by, target, quench, "water")
    hook = game.rules.water_hook
    if hook is not None:   # e.g. Madame Wong's shared water (R-WONG-1)
        hook(game=game, giver=by, target=target, card=card, cancelled=cancelled, window=stage)


def _water_available(game: "Game", stage: ThirstWindow, by: str) -> bool:
    return bool(waters(game, by)) and bool(stage.thirsty(game))


def _water_may(game: "Game", stage: ThirstWindow, by: str) -> bool:
    # R-WIN-2: someone is thirsty, and water lies face up before it or may be in its hand
    return bool(stage.thirsty(game)) and (has_in_front(game, by, "quenches")
                                          or may_hold_with(game, by, "quenches"))


WATER = ActionType("water", "R-THIRST-2", _water_check, _water_moves, _water_resolve,
                   params=(Param("target", Domain.CHARACTER),
                           Param("card", Domain.CARD, optional=True, alias=True,
                                 default=_water_default, source=hand_then_front,
                                 actor_source=True)),
                   kinds=(Kind.THIRST,), available=_water_available,
                   may=_water_may)


@hookimpl
def lifeboat_action_types():
    return [WATER]


@hookimpl
def lifeboat_stages():
    return [ThirstWindow]
