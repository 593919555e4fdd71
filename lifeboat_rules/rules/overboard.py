"""The overboard step (R-OVER-1..5, R-PRESERVER), a window (R-WIN)."""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from .. import effects
from ..actions import ActionType, Domain, Param
from ..declare import CHARACTER, flag, names, state
from ..hookspecs import hookimpl
from ..records import DISCARD, Kind, Refusal, front
from ..stages import Window
from .cards import (has_in_front, has_in_hand, has_preserver, hand_then_front, holding,
                    may_hold_with, zone_of)

if TYPE_CHECKING:
    from ..actions import ActionType as Type
    from ..content import NavigationCard
    from ..engine import Game


def chums(game: "Game", who: str) -> list:
    return holding(game, who, "chum")


@state
class OverboardWindow(Window):
    """R-OVER-2: before damage, the life preserver may be played on a fallen awake character
    and chum played; ghosts may call the shark (R-SHARK-2)."""
    NAME: ClassVar[str] = "overboard"
    KIND: ClassVar[str] = Kind.OVERBOARD
    CLAIMS: ClassVar[tuple] = ("preserve",)
    fallen: list = names(CHARACTER)
    fell_unconscious: list = names(CHARACTER, doc="fallen while unconscious (R-OVER-5)")
    fell_dead: list = names(CHARACTER, doc="fallen while dead (R-OVER-5)")
    chum: bool = flag(doc="chum was played in this window")
    called: list = names(CHARACTER, doc="ghosts who called the shark (R-SHARK-2)")

    def claims(self, game: "Game", atype: "Type", by: str, values: tuple) -> bool:
        if atype.name != "preserve":
            return Window.claims(self, game, atype, by, values)   # a plugin's type
        return values[0] in self.fallen

    def claims_any(self, game: "Game", atype: "Type", who: str) -> bool:
        if atype.name != "preserve" or not self.fallen:
            return Window.claims_any(self, game, atype, who)
        # a preserve listed for a fallen target: ``who`` holds one, and a fallen character is
        # still on board and awake (the targets ``preserve`` lists)
        chars = game.state.characters
        return has_in_hand(game, who, "preserver") and any(
            t in game.state.seats and chars[t].awake for t in self.fallen)

    def claims_may(self, game: "Game", atype: "Type", who: str) -> bool:
        if atype.name != "preserve" or not self.fallen:
            return Window.claims_may(self, game, atype, who)
        # R-WIN-2: a preserver may be in a hand, and a fallen character is awake on board
        chars = game.state.characters
        return may_hold_with(game, who, "preserver") and any(
            t in game.state.seats and chars[t].awake for t in self.fallen)

    def shark_comes(self, game: "Game") -> bool:
        """R-OVER-3: chum played here, chum face up before a fallen character, or a ghost."""
        if self.chum or self.called:
            return True
        provisions = game.rules.content.provisions
        state = game.state
        return any(provisions[state.table.kinds[c]].chum
                   for who in self.fallen for c in state.characters[who].front)

    def close(self, game: "Game") -> None:
        state = game.state
        chars = state.characters
        fallen = [c for c in self.fallen if c in state.seats]
        shark = self.shark_comes(game)
        info = game.rules.content.characters
        for who in fallen:                                         # R-OVER-3
            if not has_preserver(game, who):
                fall = info[who].fall_damage if who in info else 1
                if fall:
                    effects.damage(game, who, fall, "overboard")
            if shark:
                effects.damage(game, who, 1, "shark")   # at most 1 per navigation
        lost = [who for who in fallen                               # R-OVER-5
                if who in self.fell_dead
                or (who in self.fell_unconscious and not has_preserver(game, who))]
        provisions = game.rules.content.provisions
        for who in fallen:                                         # R-OVER-4
            if who in lost:
                continue
            for card in chars[who].front[:]:
                if not provisions[state.table.kinds[card]].preserver:
                    effects.move(game, card, front(who), DISCARD)
        for who in lost:
            effects.lose(game, who, "overboard")

    def public(self, game: "Game"):
        return {"kind": "overboard", "fallen": self.fallen[:], "chum": self.chum,
                "shark": self.shark_comes(game)}


def start_overboard(game: "Game", card: "NavigationCard") -> None:
    """R-OVER-1: everyone on board named in the overboard list falls."""
    state = game.state
    hook = game.rules.overboard_hook
    if hook is not None:
        fallen = hook(game=game, card=card)
        if type(fallen) not in (list, tuple) or any(
                type(c) is not str or c not in state.characters for c in fallen):
            effects.hook_nonsense("lifeboat_overboard", fallen,
                                  "as who falls overboard: a list of characters in play (R-OVER-1)")
    else:
        fallen = base_overboard(game, card)
    fallen = [c for c in state.seats if c in fallen]
    if not fallen:
        return
    chars = state.characters
    effects.emit(game, {"type": "overboard", "characters": fallen[:]})
    game.push(OverboardWindow(
        fallen=fallen, fell_unconscious=[c for c in fallen if chars[c].status == "unconscious"],
        fell_dead=[c for c in fallen if chars[c].dead]))


def base_overboard(game: "Game", card: "NavigationCard") -> list:
    chars = game.state.characters
    return card.overboard.select(game.state.seats, lambda who, m: m in chars[who].markers)


@hookimpl(trylast=True)
def lifeboat_overboard(game, card):
    return base_overboard(game, card)


def _chum_default(game: "Game", by: str, values):
    found = chums(game, by)
    return found[0] if found else None


def _chum_check(game: "Game", stage: OverboardWindow, by: str, card):
    if card not in chums(game, by):
        return Refusal("R-OVER-2", f"{by} holds no chum {'' if card is None else repr(card)}".rstrip(), "card", card)
    return None


def _chum_moves(game: "Game", stage: OverboardWindow, by: str):
    return [(card,) for card in chums(game, by)]


def _chum_resolve(game: "Game", stage: OverboardWindow, by: str, card: str) -> None:
    effects.move(game, card, zone_of(game, by, card), DISCARD)
    stage.chum = True
    effects.emit(game, {"type": "chum", "character": by, "card": card,
                        "kind": game.state.table.kinds[card]})


def _chum_may(game: "Game", stage: OverboardWindow, by: str) -> bool:
    # R-WIN-2: chum face up in front of it, or chum that may be in its hand
    return has_in_front(game, by, "chum") or may_hold_with(game, by, "chum")


CHUM = ActionType("chum", "R-OVER-2", _chum_check, _chum_moves, _chum_resolve,
                  params=(Param("card", Domain.CARD, optional=True, alias=True,
                                default=_chum_default, source=hand_then_front, actor_source=True),),
                  kinds=(Kind.OVERBOARD,), may=_chum_may)


@hookimpl
def lifeboat_action_types():
    return [CHUM]


@hookimpl
def lifeboat_stages():
    return [OverboardWindow]

