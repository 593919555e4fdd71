"""The overboard step (RULES.md: R-OVER-1..5, R-PRESERVER), a window (R-WIN)."""

from __future__ import annotations

import attrs

from .. import effects
from ..actions import ActionType, Field, card_forms, find_card
from ..hookspecs import hookimpl
from ..model import DEAD, UNCONSCIOUS, resolve_names
from ..stages import CHARACTERS, STATUSES, Window


def _has_preserver(game, who: str) -> bool:
    provisions = game.rules.content.provisions
    kinds = game.state.kinds
    return any(provisions[kinds[c]].preserver for c in game.state.characters[who].front)


def _chum_cards(game, who: str) -> list:
    provisions = game.rules.content.provisions
    state = game.state
    character = state.characters[who]
    return [c for c in character.hand + character.front if provisions[state.kinds[c]].chum]


@attrs.define(slots=True, eq=False)
class OverboardWindow(Window):
    """R-OVER-2: before damage, the life preserver may be thrown to a fallen awake character
    and chum played; ghosts may call the shark (R-SHARK-2)."""
    NAME = "overboard"
    KIND = "overboard"
    REFS = {**Window.REFS, "fallen": CHARACTERS, "fell_as": STATUSES, "called": CHARACTERS}
    fallen: list = attrs.Factory(list)
    fell_as: dict = attrs.Factory(dict)   # status of each fallen character when it fell
    chum: bool = False                    # chum was played in this window
    called: list = attrs.Factory(list)    # ghosts who called the shark

    def problems(self, game) -> list:
        return Window.problems(self, game) + [
            ("fell_as", f"no status for {who}") for who in self.fallen
            if type(who) is str and who not in self.fell_as]

    def claimed_available(self, game, character: str) -> bool:
        from .playing import _preservers
        if not _preservers(game, character):
            return False
        chars = game.state.characters
        return any(chars[c].awake for c in self.fallen if c in game.state.seats)

    def claims(self, game, action: dict) -> bool:
        if action["type"] == "preserve":
            return action["target"] in self.fallen
        return action["type"] in game.rules.window_types.get(self.KIND, ())

    def shark_comes(self, game) -> bool:
        """R-OVER-3: chum played here, chum face up before a fallen character, or a ghost."""
        if self.chum or self.called:
            return True
        provisions = game.rules.content.provisions
        state = game.state
        return any(provisions[state.kinds[c]].chum
                   for who in self.fallen for c in state.characters[who].front)

    def close(self, game) -> None:
        state = game.state
        chars = state.characters
        fallen = [c for c in self.fallen if c in state.seats]
        shark = self.shark_comes(game)
        info = game.rules.content.characters
        for who in fallen:                                         # R-OVER-3
            if not _has_preserver(game, who):
                fall = info[who].fall_damage if who in info else 1
                if fall:
                    effects.damage(game, who, fall, "overboard")
            if shark:
                effects.damage(game, who, 1, "shark")   # at most 1 per navigation
        lost = [who for who in fallen                               # R-OVER-5
                if self.fell_as[who] == DEAD
                or (self.fell_as[who] == UNCONSCIOUS and not _has_preserver(game, who))]
        provisions = game.rules.content.provisions
        for who in fallen:                                         # R-OVER-4
            if who in lost:
                continue
            for card in chars[who].front[:]:
                if not provisions[state.kinds[card]].preserver:
                    effects.move(game, card, f"front:{who}", "discard")
        for who in lost:
            effects.lose(game, who, "overboard")

    def public(self, game):
        return {"kind": "overboard", "fallen": self.fallen[:], "chum": self.chum,
                "shark": self.shark_comes(game)}


def start_overboard(game, card) -> None:
    """R-OVER-1: everyone on board named in the overboard list falls."""
    fallen = game.rules.hook.lifeboat_overboard(game=game, card=card)
    state = game.state
    if type(fallen) not in (list, tuple) or any(type(c) is not str or c not in state.characters
                                                 for c in fallen):
        effects.hook_nonsense("lifeboat_overboard", fallen,
                              "as who falls overboard: a list of characters in play (R-OVER-1)")
    fallen = [c for c in state.seats if c in fallen]
    if not fallen:
        return
    chars = state.characters
    effects.emit(game, {"type": "overboard", "characters": fallen[:]})
    game.push(OverboardWindow(fallen=fallen, fell_as={c: chars[c].status for c in fallen}))


@hookimpl(trylast=True)
def lifeboat_overboard(game, card):
    return resolve_names(card.overboard, game.state.seats)


def _chum_options(game, character, stage) -> list:
    cards = _chum_cards(game, character)
    if not cards:
        return []
    # a kind names the first chum in hand, then in front; no card: the same
    return [{"by": character, "type": "chum"}] + [
        {"by": character, "type": "chum", "card": form} for form in card_forms(game, cards)]


def _chum_resolve(game, action) -> None:
    who = action["by"]
    character = game.state.characters[who]
    ref = action.get("card")
    if ref is None:
        card = _chum_cards(game, who)[0]
    else:
        card = find_card(game, ref, character.hand, character.front)
    where = f"hand:{who}" if card in character.hand else f"front:{who}"
    effects.move(game, card, where, "discard")
    game.top.chum = True
    effects.emit(game, {"type": "chum", "character": who, "card": card})


def _chum_explain(game, action):
    if not isinstance(game.top, OverboardWindow):
        return "R-OVER-2", "chum is played in the overboard window only"
    if not _chum_cards(game, action["by"]):
        return "R-OVER-2", f"{action['by']} holds no chum"
    return "R-WIN-2", f"{action['by']} is not pending in the overboard window"


CHUM = ActionType("chum", "R-OVER-2", _chum_options, _chum_resolve,
                  fields=(Field("card", required=False),), stages=("overboard",),
                  explain=_chum_explain, card_fields=("card",))


@hookimpl
def lifeboat_action_types():
    return [CHUM]


@hookimpl
def lifeboat_stages():
    return [OverboardWindow]
