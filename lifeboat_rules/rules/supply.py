"""The supply phase (R-SUPPLY-1..3)."""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from .. import effects
from ..actions import ActionType, Domain, Param
from ..declare import CHARACTER, names, state
from ..hookspecs import hookimpl
from ..records import PASSING, SUPPLY, Kind, Refusal, hand
from ..stages import Stage

if TYPE_CHECKING:
    from ..engine import Game


@state
class SupplyDraft(Stage):
    """R-SUPPLY-1: the awake character nearest the bow draws one card per awake character;
    each awake character in seat order keeps one and passes the rest sternward."""
    NAME: ClassVar[str] = "supply"
    KIND: ClassVar[str] = Kind.PICK
    PHASE: ClassVar[bool] = True
    pickers: list = names(CHARACTER, doc="who still picks, the one picking first")

    def begin(self, game: "Game") -> None:
        state = game.state
        chars = state.characters
        awake = [c for c in state.seats if chars[c].awake]
        self.pickers = awake
        for card in state.supply[:min(len(awake), len(state.supply))]:
            # the first picker looks at what was drawn (R-SUPPLY-1)
            effects.move(game, card, SUPPLY, PASSING, seen_by=awake[:1])

    def pending(self, game: "Game") -> list:
        pickers = self.pickers
        state = game.state
        # a pick from a single card is made automatically (R-SUPPLY-1, ruling)
        if pickers and len(state.passing) > 1 and state.characters[pickers[0]].awake:
            return [pickers[0]]
        return []

    def advance(self, game: "Game") -> None:
        state = game.state
        passing = state.passing
        if self.pickers and passing:
            picker = self.pickers[0]
            if state.characters[picker].awake:
                take(game, self, picker, passing[0], automatic=True)
            else:
                self.pickers.pop(0)
            return
        # the cards ran out or everyone has picked; cards left over (only when a plugin
        # changes who picks) go back under the supply deck (ruling)
        for card in passing[:]:
            effects.move(game, card, PASSING, SUPPLY)
        game.pop(self)

    def refusal(self, game: "Game", by: str) -> Refusal:
        return Refusal("R-SUPPLY-1", f"{by} is not picking a supply card now", "by", by)

    def private(self, game: "Game", viewer: str):
        state = game.state
        if self.pickers and self.pickers[0] == viewer and state.passing:
            kinds = state.table.kinds
            return {"kind": Kind.PICK.value, "cards": [{"id": c, "kind": kinds[c]} for c in state.passing]}
        return None

    def public(self, game: "Game"):
        return {"kind": "supply", "picker": self.pickers[0] if self.pickers else None,
                "cards_passing": len(game.state.passing)}


def take(game: "Game", stage: SupplyDraft, picker: str, card: str, automatic: bool = False) -> None:
    effects.move(game, card, PASSING, hand(picker))
    effects.emit(game, {"type": "pick", "character": picker, "automatic": automatic})
    stage.pickers.pop(0)


def begin_supply(game: "Game"):
    """R-SUPPLY-2: with the supply deck empty there is no supply phase."""
    return SupplyDraft() if game.state.supply else None


def _passing(game, by, values):
    return (game.state.passing,)


def _pick_check(game: "Game", stage: SupplyDraft, by: str, card: str):
    if card not in game.state.passing:
        return Refusal("R-SUPPLY-1", f"{card!r} is not among the cards passed to {by}", "card", card)
    return None


def _pick_moves(game: "Game", stage: SupplyDraft, by: str):
    return [(card,) for card in game.state.passing]


def _pick_resolve(game: "Game", stage: SupplyDraft, by: str, card: str) -> None:
    take(game, stage, by, card)


PICK = ActionType("pick", "R-SUPPLY-1", _pick_check, _pick_moves, _pick_resolve,
                  params=(Param("card", Domain.CARD, source=_passing, actor_source=True),),
                  kinds=(Kind.PICK,),
                  # the card kept is secret (R-SUPPLY-1): the one who saw it passed on must
                  # not learn it from the id
                  private=("card",))


@hookimpl
def lifeboat_action_types():
    return [PICK]


@hookimpl
def lifeboat_stages():
    return [SupplyDraft]
