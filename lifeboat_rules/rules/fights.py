"""Fights (RULES.md: R-FIGHT-1..5), a window (R-WIN-1, R-WIN-2)."""

from __future__ import annotations

import attrs

from .. import effects
from ..actions import ActionType, Field
from ..hookspecs import hookimpl
from ..stages import CHARACTERS, STAKE, Window


def weapon_bonus(game, cards) -> int:
    provisions = game.rules.content.provisions
    kinds = game.state.kinds
    return sum(provisions[kinds[c]].weapon for c in cards)


@attrs.define(slots=True, eq=False)
class FightWindow(Window):
    """An open fight: every awake character not in it may join a side; every participant may
    play weapons from its hand (R-FIGHT-2). ``stake`` says what happens if the attacker's side
    wins (``stake["act"]`` names the action type that settles it)."""
    NAME = "fight"
    KIND = "fight"
    REFS = {**Window.REFS, "attackers": CHARACTERS, "defenders": CHARACTERS, "stake": STAKE}
    attackers: list = attrs.Factory(list)
    defenders: list = attrs.Factory(list)
    stake: dict = attrs.Factory(dict)

    def in_fight(self, character: str) -> bool:
        return character in self.attackers or character in self.defenders

    def claimed_available(self, game, character: str) -> bool:
        if not self.in_fight(character):
            return False
        provisions = game.rules.content.provisions
        kinds = game.state.kinds
        return any(provisions[kinds[c]].weapon for c in game.state.characters[character].hand)

    def claims(self, game, action: dict) -> bool:
        kind = action["type"]
        if kind == "play":
            # a weapon played from hand by a participant is the fight's window action (R-WIN-1)
            if not self.in_fight(action["by"]):
                return False
            state = game.state
            card = action["card"]
            kind_of = state.kinds.get(card, card)
            info = game.rules.content.provisions.get(kind_of)
            return bool(info and info.weapon)
        return kind in game.rules.window_types.get(self.KIND, ())

    def strength(self, game, side: list) -> int:
        """R-FIGHT-3: sizes plus the weapons face up in front of the side's members."""
        chars = game.state.characters
        return sum(chars[c].size + weapon_bonus(game, chars[c].front) for c in side)

    def close(self, game) -> None:
        attack = self.strength(game, self.attackers)
        defence = self.strength(game, self.defenders)
        winner = "attacker" if attack > defence else "defender"  # a tie goes to the defender
        effects.emit(game, {"type": "fight", "attackers": self.attackers[:],
                            "defenders": self.defenders[:], "winner": winner,
                            "strength": {"attacker": attack, "defender": defence}})
        losers = self.defenders if winner == "attacker" else self.attackers
        for who in losers:                                        # R-FIGHT-4
            effects.damage(game, who, 1, "fight")
        for who in self.attackers + self.defenders:               # R-FIGHT-5
            effects.set_marker(game, who, "fought")
        if winner == "attacker" and not game.state.over:
            from .turn import settle
            settle(game, self.stake)

    def public(self, game):
        return {"kind": "fight", "attackers": self.attackers[:], "defenders": self.defenders[:],
                "stake": {k: v for k, v in self.stake.items() if k in ("act", "actor", "target")},
                "strength": {"attacker": self.strength(game, self.attackers),
                             "defender": self.strength(game, self.defenders)}}


def start_fight(game, attackers: list, defenders: list, stake: dict) -> FightWindow:
    """R-FIGHT-1: open a fight window."""
    window = FightWindow(attackers=list(attackers), defenders=list(defenders), stake=stake)
    game.push(window)
    effects.emit(game, {"type": "fight_start", "attackers": list(attackers),
                        "defenders": list(defenders), "act": stake.get("act")})
    return window


def _join_options(game, character, stage) -> list:
    if stage.in_fight(character) or not game.state.characters[character].awake:
        return []
    return [{"by": character, "type": "join", "side": "attacker"},
            {"by": character, "type": "join", "side": "defender"}]


def _join_resolve(game, action) -> None:
    stage = game.top
    side = stage.attackers if action["side"] == "attacker" else stage.defenders
    side.append(action["by"])
    effects.emit(game, {"type": "join", "character": action["by"], "side": action["side"]})


def _join_explain(game, action):
    top = game.top
    if not isinstance(top, FightWindow):
        return "R-FIGHT-2", "there is no fight to join"
    if top.in_fight(action["by"]):
        return "R-FIGHT-2", f"{action['by']} is already in the fight; joining cannot be undone"
    if action.get("side") not in ("attacker", "defender"):
        return "API", "side must be 'attacker' or 'defender'"
    return "R-WIN-2", f"{action['by']} is not pending in the fight window"


JOIN = ActionType("join", "R-FIGHT-2", _join_options, _join_resolve, fields=(Field("side"),),
                  stages=("fight",), explain=_join_explain)


@hookimpl
def lifeboat_action_types():
    return [JOIN]


@hookimpl
def lifeboat_stages():
    return [FightWindow]
