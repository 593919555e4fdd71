"""Fights (R-FIGHT-1..5), a window (R-WIN-1, R-WIN-2)."""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from .. import effects
from ..actions import ActionType, Domain, Param
from ..declare import CHARACTER, names, record, state
from ..hookspecs import hookimpl
from ..records import Kind, Marker, Refusal, Side
from ..stages import Window
from ..state import Stake
from .cards import has_in_hand, may_hold_with, weapons

if TYPE_CHECKING:
    from ..actions import ActionType as Type
    from ..engine import Game


def strength(game: "Game", who: str) -> int:
    """R-FIGHT-3: a member's size plus the weapons face up in front of it (the
    ``lifeboat_strength`` hook may add to it)."""
    hook = game.rules.strength_hook
    if hook is not None:
        value = hook(game=game, character=who)
        if type(value) is not int or not 0 <= value <= 100_000:
            effects.hook_nonsense("lifeboat_strength", value, f"as {who}'s strength (R-FIGHT-3)")
        return value
    return base_strength(game, who)


def base_strength(game: "Game", who: str) -> int:
    character = game.state.characters[who]
    return character.size + weapons(game, character.front)


def stake_problems(game: "Game", stake: Stake) -> list:
    """What is wrong with a restored game's stake beyond its fields' types, as ``[(field,
    message)]`` (``Stage.problems``): a robbery is of the hand or of one face-up card, not of
    both (R-ROB-1), and the card was face up when robbed, so everyone knows its kind: it is
    still face up in front of someone, or on the discard pile, or left the game face up. (A
    card's id changes as it goes into a hand: the robbed id is never in a hand or a deck.)"""
    problems = []
    card = stake.card
    if stake.hand and card is not None:
        problems.append(("stake.card", "a robbery is of the hand or of a face-up card, not both (R-ROB-1)"))
    if card is not None:
        state = game.state
        if not (card in state.discard or card in state.removed_face_up
                or any(card in ch.front for ch in state.characters.values())):
            problems.append(("stake.card", f"{card!r} was robbed face up, but is not face up (R-ROB-1)"))
    return problems


@state
class FightWindow(Window):
    """An open fight: every awake character not in it may join a side; every participant may
    play weapons from its hand (R-FIGHT-2). ``stake``: what happens if the attackers win."""
    NAME: ClassVar[str] = "fight"
    KIND: ClassVar[str] = Kind.FIGHT
    CLAIMS: ClassVar[tuple] = ("play",)
    attackers: list = names(CHARACTER)
    defenders: list = names(CHARACTER)
    stake: Stake = record(Stake)

    def problems(self, game: "Game") -> list:
        return stake_problems(game, self.stake)

    def in_fight(self, who: str) -> bool:
        return who in self.attackers or who in self.defenders

    def claims(self, game: "Game", atype: "Type", by: str, values: tuple) -> bool:
        # a weapon played by a participant is the fight's window action (R-WIN-1)
        if atype.name != "play":
            return Window.claims(self, game, atype, by, values)   # a plugin's type
        if by not in self.attackers and by not in self.defenders:
            return False
        rules = game.rules
        # inline, as in rules/cards.py: asked for every candidate of every fight listing
        weapons = rules.kind_sets.get("weapon") or rules.kinds_with("weapon")
        return game.state.table.kinds[values[0]] in weapons

    def claims_any(self, game: "Game", atype: "Type", who: str) -> bool:
        if atype.name != "play":
            return Window.claims_any(self, game, atype, who)
        # every card in hand may be played (R-PLAY-1): a fighter's weapon among them is the claim
        return (who in self.attackers or who in self.defenders) and has_in_hand(game, who, "weapon")

    def claims_may(self, game: "Game", atype: "Type", who: str) -> bool:
        if atype.name != "play":
            return Window.claims_may(self, game, atype, who)
        # R-WIN-2: every awake participant may hold a weapon, unless its hand is empty or
        # every weapon is publicly elsewhere
        return (who in self.attackers or who in self.defenders) and may_hold_with(game, who, "weapon")

    def side_strength(self, game: "Game", side: list) -> int:
        if game.rules.strength_hook is not None:
            return sum(strength(game, who) for who in side)
        # base_strength for the whole side at once (asked at every step of a fight: its
        # public view shows the strengths): the sizes plus the weapons in front of them all
        characters = game.state.characters
        provisions, kinds = game.rules.content.provisions, game.state.table.kinds
        total = 0
        for who in side:
            character = characters[who]
            total += character.size
            for card in character.front:
                total += provisions[kinds[card]].weapon
        return total

    def close(self, game: "Game") -> None:
        attack = self.side_strength(game, self.attackers)
        defence = self.side_strength(game, self.defenders)
        winner = Side.ATTACKER if attack > defence else Side.DEFENDER   # a tie: the defender
        effects.emit(game, {"type": "fight", "attackers": self.attackers[:],
                            "defenders": self.defenders[:], "winner": winner.value,
                            "strength": {"attacker": attack, "defender": defence}})
        for who in (self.defenders if winner is Side.ATTACKER else self.attackers):
            effects.damage(game, who, 1, "fight")                    # R-FIGHT-4
        for who in self.attackers + self.defenders:
            effects.mark(game, who, "fought")                        # R-FIGHT-5
        if winner is Side.ATTACKER and not game.state.over:
            game.rules.types[self.stake.act].settle(game, self.stake)

    def public(self, game: "Game"):
        stake = self.stake
        return {"kind": "fight", "attackers": self.attackers[:], "defenders": self.defenders[:],
                "stake": {"act": stake.act, "actor": stake.actor, "target": stake.target},
                "strength": {"attacker": self.side_strength(game, self.attackers),
                             "defender": self.side_strength(game, self.defenders)}}


def start_fight(game: "Game", attackers: list, defenders: list, stake: Stake) -> FightWindow:
    """R-FIGHT-1: open a fight window."""
    window = FightWindow(attackers=list(attackers), defenders=list(defenders), stake=stake)
    game.push(window)
    effects.emit(game, {"type": "fight_start", "attackers": list(attackers),
                        "defenders": list(defenders), "act": stake.act})
    return window


def fight_under_way(game: "Game") -> bool:
    for stage in game.state.stack:
        # the exact type is the common case and cheaper than isinstance (trading asks often)
        if type(stage) is FightWindow or isinstance(stage, FightWindow):
            return True
    return False


def _join_check(game: "Game", stage: FightWindow, by: str, side: str):
    if stage.in_fight(by):
        return Refusal("R-FIGHT-2", f"{by} is already in the fight; joining cannot be undone", "by", by)
    return None


_SIDES = ((Side.ATTACKER.value,), (Side.DEFENDER.value,))


def _join_moves(game: "Game", stage: FightWindow, by: str):
    if by in stage.attackers or by in stage.defenders:
        return []
    return list(_SIDES)


def _join_resolve(game: "Game", stage: FightWindow, by: str, side: str) -> None:
    (stage.attackers if side == Side.ATTACKER else stage.defenders).append(by)
    effects.emit(game, {"type": "join", "character": by, "side": side})


def _join_available(game: "Game", stage: FightWindow, by: str) -> bool:
    return by not in stage.attackers and by not in stage.defenders


JOIN = ActionType("join", "R-FIGHT-2", _join_check, _join_moves, _join_resolve,
                  params=(Param("side", Domain.SIDE),), kinds=(Kind.FIGHT,),
                  available=_join_available)


@hookimpl(trylast=True)
def lifeboat_strength(game, character):
    return base_strength(game, character)


@hookimpl
def lifeboat_action_types():
    return [JOIN]


@hookimpl
def lifeboat_stages():
    return [FightWindow]


@hookimpl
def lifeboat_markers():
    return [Marker("fought", rule="R-FIGHT-5")]
