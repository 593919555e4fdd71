"""The supply phase (RULES.md: R-SUPPLY-1..3)."""

from __future__ import annotations

import attrs

from .. import effects
from ..actions import ActionType, Field, card_forms
from ..hookspecs import hookimpl
from ..stages import CHARACTERS, Stage


@attrs.define(slots=True, eq=False)
class SupplyDraft(Stage):
    """R-SUPPLY-1: the awake character nearest the bow draws one card per awake character;
    each awake character in seat order keeps one and passes the rest sternward."""
    NAME = "supply"
    KIND = "pick"
    PHASE = True
    REFS = {"pickers": CHARACTERS}
    pickers: list = attrs.Factory(list)

    def start(self, game) -> None:
        state = game.state
        chars = state.characters
        awake = [c for c in state.seats if chars[c].awake]
        count = min(len(awake), len(state.supply))
        for card in state.supply[:count]:
            effects.move(game, card, "supply", "passing")
        self.pickers = awake

    def pending(self, game) -> list:
        pickers = self.pickers
        state = game.state
        # a pick from a single card is made automatically (R-SUPPLY-1, ruling)
        if pickers and len(state.passing) > 1 and state.characters[pickers[0]].awake:
            return [pickers[0]]
        return []

    def advance(self, game) -> None:
        state = game.state
        passing = state.passing
        if self.pickers and passing:
            picker = self.pickers[0]
            if not state.characters[picker].awake:
                self.pickers.pop(0)
            else:
                take(game, picker, passing[0], automatic=True)
            return
        # the cards ran out or everyone has picked; cards left over (only possible when a
        # plugin changes who picks) go back under the supply deck (ruling)
        for card in passing[:]:
            effects.move(game, card, "passing", "supply")
        game.pop(self)

    def private(self, game, viewer):
        if self.pickers and self.pickers[0] == viewer and game.state.passing:
            kinds = game.state.kinds
            return {"kind": "pick", "cards": [{"id": c, "kind": kinds[c]} for c in game.state.passing]}
        return None

    def public(self, game):
        return {"kind": "supply", "picker": self.pickers[0] if self.pickers else None,
                "cards_passing": len(game.state.passing)}


def take(game, picker: str, card: str, automatic: bool = False) -> None:
    stage = game.top
    effects.move(game, card, "passing", f"hand:{picker}")
    effects.emit(game, {"type": "pick", "character": picker, "automatic": automatic})
    stage.pickers.pop(0)


def begin_supply(game):
    """R-SUPPLY-2: with the supply deck empty there is no supply phase."""
    if not game.state.supply:
        return None
    return SupplyDraft()


def _pick_options(game, character, stage) -> list:
    return [{"by": character, "type": "pick", "card": form}
            for form in card_forms(game, game.state.passing)]


def _pick_resolve(game, action) -> None:
    state = game.state
    card = action["card"]
    if card not in state.kinds:
        card = next(c for c in state.passing if state.kinds[c] == card)
    take(game, action["by"], card)


def _pick_explain(game, action):
    stage = game.top
    if not isinstance(stage, SupplyDraft) or not stage.pickers or stage.pickers[0] != action["by"]:
        return "R-SUPPLY-1", f"{action['by']} is not picking a supply card now"
    return "R-SUPPLY-1", f"{action.get('card')!r} is not among the cards passed to {action['by']}"


PICK = ActionType("pick", "R-SUPPLY-1", _pick_options, _pick_resolve,
                  fields=(Field("card"),), stages=("pick",), explain=_pick_explain,
                  card_fields=("card",))


@hookimpl
def lifeboat_action_types():
    return [PICK]


@hookimpl
def lifeboat_stages():
    return [SupplyDraft]
