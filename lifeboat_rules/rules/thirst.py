"""The thirst step (RULES.md: R-THIRST-1..3, R-PARASOL), a window (R-WIN)."""

from __future__ import annotations

import attrs

from .. import effects
from ..actions import ActionType, Field, card_forms
from ..hookspecs import hookimpl
from ..model import resolve_names
from ..stages import COUNTS, Window


def _waters(game, who: str) -> list:
    """Cards that quench thirst, from hand first, then face up."""
    provisions = game.rules.content.provisions
    state = game.state
    character = state.characters[who]
    return [c for c in character.hand + character.front if provisions[state.kinds[c]].quenches]


@attrs.define(slots=True, eq=False)
class ThirstWindow(Window):
    """R-THIRST-2: any awake character may give water to any thirsty character that is not
    dead; what is left is damage when the window closes (R-THIRST-3)."""
    NAME = "thirst"
    KIND = "thirst"
    REFS = {**Window.REFS, "thirst": COUNTS}
    thirst: dict = attrs.Factory(dict)   # character -> thirsts not yet cancelled

    def thirsty(self, game) -> list:
        chars = game.state.characters
        thirst = self.thirst
        # in seat order, not the order of the mapping's keys (lost when a saved game is stored)
        return [c for c in game.state.seats if thirst.get(c, 0) > 0 and chars[c].alive]

    def close(self, game) -> None:
        chars = game.state.characters
        for who in game.state.seats[:]:
            left = self.thirst.get(who, 0)
            if left > 0 and chars[who].alive:
                effects.damage(game, who, left, "thirst")

    def public(self, game):
        return {"kind": "thirst", "thirst": {c: n for c, n in self.thirst.items() if n > 0}}


def start_thirst(game, card) -> None:
    state = game.state
    chars = state.characters
    hook = game.rules.hook.lifeboat_thirst
    provisions = game.rules.content.provisions
    counts = {}
    for who in state.seats:
        if not chars[who].alive:
            continue
        count = hook(game=game, character=who, card=card)
        if type(count) is not int or not 0 <= count <= effects.MAX_AMOUNT:
            effects.hook_nonsense("lifeboat_thirst", count, f"as how thirsty {who} is (R-THIRST-1)")
        if count > 0:
            counts[who] = count
            effects.emit(game, {"type": "thirst", "character": who, "count": count})
    for who in list(counts):
        character = chars[who]
        if character.parasol_active:   # R-THIRST-2: the parasol first
            cancels = max((provisions[state.kinds[c]].special or {}).get("cancels", 1)
                          for c in character.front
                          if game.rules.effect_of.get(state.kinds[c]) == "parasol")
            cancelled = min(cancels, counts[who])
            counts[who] -= cancelled
            effects.emit(game, {"type": "quench", "character": who, "target": who,
                                "source": "parasol", "amount": cancelled})
    if any(counts.values()):
        game.push(ThirstWindow(thirst=counts))


@hookimpl(trylast=True)
def lifeboat_thirst(game, character, card):
    """R-THIRST-1: the oar with a rowing marker, the fight icon with a fight marker, the
    thirst list; at most three."""
    who = game.state.characters[character]
    count = 0
    if card.oar and who.rowed:
        count += 1
    if card.fight and who.fought:
        count += 1
    if character in resolve_names(card.thirst, game.state.characters):
        count += 1
    return min(count, 3)


def _water_options(game, character, stage) -> list:
    cards = _waters(game, character)
    if not cards:
        return []
    forms = [None] + card_forms(game, cards)
    out = []
    for target in stage.thirsty(game):
        for form in forms:
            action = {"by": character, "type": "water", "target": target}
            if form is not None:
                action["card"] = form
            out.append(action)
    return out


def _water_resolve(game, action) -> None:
    from ..actions import find_card
    who, target = action["by"], action["target"]
    state = game.state
    character = state.characters[who]
    ref = action.get("card")
    card = _waters(game, who)[0] if ref is None else find_card(game, ref, character.hand, character.front)
    where = f"hand:{who}" if card in character.hand else f"front:{who}"
    window = game.top
    quench = game.rules.content.provisions[state.kinds[card]].quenches
    effects.move(game, card, where, "discard")
    cancelled = min(quench, window.thirst.get(target, 0))
    window.thirst[target] -= cancelled
    effects.emit(game, {"type": "water", "character": who, "target": target, "card": card})
    effects.emit(game, {"type": "quench", "character": who, "target": target,
                        "source": "water", "amount": cancelled})


def _water_explain(game, action):
    top = game.top
    if not isinstance(top, ThirstWindow):
        return "R-THIRST-2", "water is given in the thirst window only"
    if not _waters(game, action["by"]):
        return "R-THIRST-2", f"{action['by']} holds no water"
    if action.get("target") not in top.thirsty(game):
        return "R-THIRST-2", f"{action.get('target')!r} is not a thirsty character that is not dead"
    return "R-WIN-2", f"{action['by']} is not pending in the thirst window"


WATER = ActionType("water", "R-THIRST-2", _water_options, _water_resolve,
                   fields=(Field("target"), Field("card", required=False)), stages=("thirst",),
                   explain=_water_explain, card_fields=("card",))


@hookimpl
def lifeboat_action_types():
    return [WATER]


@hookimpl
def lifeboat_stages():
    return [ThirstWindow]
