"""The action phase: the turn order and the actions of a turn (R-ACT-1, R-ACT-2, R-ROW-1,
R-ROW-2, R-SWAP-1, R-ROB-1..4, R-SPEC-1), and the answer to a swap or robbery."""

from __future__ import annotations

from itertools import combinations
from typing import TYPE_CHECKING, ClassVar

from .. import effects
from ..actions import ActionType, Domain, Param
from ..declare import CHARACTER, flag, integer, name, names, record, state
from ..hookspecs import hookimpl
from ..records import Deck, Kind, Marker, Refusal, front, hand
from ..stages import Stage, Window
from ..state import Stake
from . import fights, trading
from .cards import hand_then_front

if TYPE_CHECKING:
    from ..engine import Game


# --------------------------------------------------------------------------- stages

@state
class ActionPhase(Stage):
    """R-ACT-1: characters act one at a time in the seat order as it stood when the phase
    began; one that is not awake when its place comes is skipped (being skipped is not acting,
    R-SWAP-1)."""
    NAME: ClassVar[str] = "action"
    PHASE: ClassVar[bool] = True
    order: list = names(CHARACTER, doc="the turn order")
    position: int = integer(high=10_000, doc="the next place in the order")
    acted: list = names(CHARACTER, doc="who had a turn this phase")

    def begin(self, game: "Game") -> None:
        self.order = game.state.seats[:]

    def advance(self, game: "Game") -> None:
        chars = game.state.characters
        while self.position < len(self.order):
            who = self.order[self.position]
            self.position += 1
            if who in self.acted or not chars[who].awake:
                continue
            self.acted.append(who)
            game.push(Turn(actor=who))
            effects.emit(game, {"type": "turn", "character": who})
            return
        trading.void_offers(game, "the action phase ended")
        game.pop(self)

    def acts_next(self, who: str) -> None:
        """``swap_turn_order: swapped_acts_next``: ``who`` acts right after the current turn if
        it has not acted yet this phase (R-SWAP-1); its old place is then skipped."""
        if who not in self.acted:
            self.order.insert(self.position, who)

    def public(self, game: "Game"):
        return {"kind": "action", "order": self.order[:], "acted": self.acted[:]}


@state
class Turn(Stage):
    """A character's turn: exactly one action (R-ACT-2)."""
    NAME: ClassVar[str] = "turn"
    KIND: ClassVar[str] = Kind.TURN
    PASSABLE: ClassVar[bool] = True
    actor: str = name(CHARACTER)
    acted: bool = flag()

    def pending(self, game: "Game") -> list:
        if not self.acted and game.state.characters[self.actor].awake:
            return [self.actor]
        return []

    def refusal(self, game: "Game", by: str) -> Refusal:
        return Refusal("R-ACT-1", f"it is {self.actor}'s turn, not {by}'s", "by", by)

    def public(self, game: "Game"):
        return {"kind": "turn", "actor": self.actor}


@state
class Place(Stage):
    """After rowing: each drawn card to the rowing pile or the bottom of the deck (R-ROW-1)."""
    NAME: ClassVar[str] = "place"
    KIND: ClassVar[str] = Kind.PLACE
    actor: str = name(CHARACTER)

    def pending(self, game: "Game") -> list:
        state = game.state
        return [self.actor] if state.drawn and state.characters[self.actor].awake else []

    def advance(self, game: "Game") -> None:
        for card in game.state.drawn[:]:   # (a rower who cannot place keeps nothing)
            effects.move_navigation(game, card, Deck.DRAWN, Deck.NAVIGATION, seen_by=(self.actor,))
        game.pop(self)

    def refusal(self, game: "Game", by: str) -> Refusal:
        return Refusal("R-ROW-1", f"{by} has no rowed cards to place", "by", by)

    def private(self, game: "Game", viewer: str):
        state = game.state
        if viewer == self.actor and state.drawn:
            return {"kind": Kind.PLACE.value,
                    "cards": [state.table.navcards[c].data() for c in state.drawn]}
        return None

    def public(self, game: "Game"):
        return {"kind": "place", "actor": self.actor, "cards_drawn": len(game.state.drawn)}


@state
class Respond(Stage):
    """The awake target of a swap or robbery allows it or refuses, which starts a fight
    (R-SWAP-1, R-ROB-2)."""
    NAME: ClassVar[str] = "respond"
    KIND: ClassVar[str] = Kind.RESPOND
    stake: Stake = record(Stake)
    answered: bool = flag()
    refused: bool = flag()

    def problems(self, game: "Game") -> list:
        return fights.stake_problems(game, self.stake)

    def pending(self, game: "Game") -> list:
        target = self.stake.target
        if not self.answered and game.state.characters[target].awake:
            return [target]
        return []

    def advance(self, game: "Game") -> None:
        game.pop(self)
        stake = self.stake
        if self.refused:
            fights.start_fight(game, [stake.actor], [stake.target], stake)   # R-FIGHT-1
        else:
            settle(game, stake)   # allowed, or the target can no longer refuse

    def refusal(self, game: "Game", by: str) -> Refusal:
        return Refusal("R-ROB-2", f"{by} is not the target of a swap or robbery waiting for an answer", "by", by)

    def _asked(self, game: "Game") -> dict:
        stake = self.stake
        asked = {"kind": Kind.RESPOND.value, "act": stake.act, "by": stake.actor,
                 "target": stake.target}
        if stake.hand:
            asked["card"] = "hand"
        elif stake.card is not None:
            asked["card"] = {"id": stake.card, "kind": game.state.table.kinds[stake.card]}
        return asked

    def private(self, game: "Game", viewer: str):
        return self._asked(game) if viewer == self.stake.target else None

    def public(self, game: "Game"):
        return self._asked(game)


def settle(game: "Game", stake: Stake) -> None:
    """Carry out what was allowed or won: the action type that made the stake settles it."""
    game.rules.types[stake.act].settle(game, stake)


def _others_on_board(game: "Game", by: str) -> list:
    return [c for c in game.state.seats if c != by]


def _target_problem(game: "Game", by: str, target: str, rule: str) -> Refusal | None:
    if target == by:
        return Refusal(rule, "choose another character", "target", target)
    if target not in game.state.seats:
        return Refusal(rule, f"{target} is not on board", "target", target)
    return None


def _nothing(*args) -> None:
    return None


def _once(*args):
    return [()]


# --------------------------------------------------------------------------- pass (R-ACT-2, R-WIN-2)

def _pass_resolve(game: "Game", stage: Stage, by: str) -> None:
    if isinstance(stage, Window):
        if by not in stage.passed:
            stage.passed.append(by)
    else:
        stage.acted = True
    effects.emit(game, {"type": "pass", "character": by, "stage": str(stage.KIND)})


# pass is offered by every stage that is PASSABLE (a turn, every window): the engine knows
PASS = ActionType("pass", "R-ACT-2", _nothing, _once, _pass_resolve)


# --------------------------------------------------------------------------- row (R-ROW-1, R-ROW-2)

def rowing_draws(game: "Game", who: str) -> int:
    """R-ROW-1: 2 cards (the content's ``rowing_draws``) + 1 per oar face up."""
    provisions = game.rules.content.provisions
    kinds = game.state.table.kinds
    extra = sum(provisions[kinds[c]].rowing_draws for c in game.state.characters[who].front)
    return game.rules.content.setup["rowing_draws"] + extra


def _row_check(game: "Game", stage: Turn, by: str):
    if not game.state.navigation:
        return Refusal("R-ROW-1", "rowing needs at least one card in the navigation deck", "type", "row")
    return None


def _row_moves(game: "Game", stage: Turn, by: str):
    return [()] if game.state.navigation else []


def _row_resolve(game: "Game", stage: Turn, by: str) -> None:
    stage.acted = True
    state = game.state
    count = min(rowing_draws(game, by), len(state.navigation))
    for card in state.navigation[:count]:
        effects.move_navigation(game, card, Deck.NAVIGATION, Deck.DRAWN, seen_by=(by,))
    effects.emit(game, {"type": "row", "character": by, "drawn": count})
    game.push(Place(actor=by))


def _place_check(game: "Game", stage: Place, by: str, pile: list):
    drawn = game.state.drawn
    unknown = [c for c in pile if c not in drawn]
    if unknown:
        return Refusal("R-ROW-1", f"{unknown[0]!r} is not among the cards {by} drew", "pile", unknown[0])
    if len(set(pile)) != len(pile):
        return Refusal("R-ROW-1", "a card is named twice in the pile", "pile", pile)
    if game.option("rowing") == "keep_one" and len(pile) != 1:
        return Refusal("R-ROW-1", "with the option rowing: keep_one exactly one card goes to the "
                                  "rowing pile", "pile", pile)
    return None


def _place_moves(game: "Game", stage: Place, by: str):
    drawn = game.state.drawn
    if game.option("rowing") == "keep_one":
        return [([card],) for card in drawn]
    return [(list(pile),) for size in range(len(drawn) + 1) for pile in combinations(drawn, size)]


def _place_resolve(game: "Game", stage: Place, by: str, pile: list) -> None:
    state = game.state
    for card in state.drawn[:]:   # in the order drawn
        effects.move_navigation(game, card, Deck.DRAWN,
                                Deck.ROWING_PILE if card in pile else Deck.NAVIGATION, seen_by=(by,))
    effects.emit(game, {"type": "place", "character": by, "kept": len(pile)})
    if pile or game.option("rowing_marker") == "always":   # R-ROW-2
        effects.mark(game, by, "rowed")


# --------------------------------------------------------------------------- swap (R-SWAP-1)

def _swap_check(game: "Game", stage: Turn, by: str, target: str):
    return _target_problem(game, by, target, "R-SWAP-1")


def _swap_moves(game: "Game", stage: Turn, by: str):
    return [(target,) for target in _others_on_board(game, by)]


def _swap_resolve(game: "Game", stage: Turn, by: str, target: str) -> None:
    stage.acted = True
    effects.emit(game, {"type": "swap", "character": by, "target": target})
    stake = Stake(act="swap", actor=by, target=target)
    if game.state.characters[target].awake:
        game.push(Respond(stake=stake))
    else:
        settle(game, stake)   # an unconscious or dead target cannot refuse


def _swap_settle(game: "Game", stake: Stake) -> None:
    state = game.state
    who, target = stake.actor, stake.target
    if who not in state.seats or target not in state.seats:
        return
    effects.swap_seats(game, who, target)
    if game.option("swap_turn_order") == "swapped_acts_next" and state.characters[target].awake:
        for stage in state.stack:
            if isinstance(stage, ActionPhase):
                stage.acts_next(target)


# --------------------------------------------------------------------------- rob (R-ROB-1..4)

def _victim_front(game, by, values):
    target = values[0] if values else None
    if target in game.state.characters:
        return (game.state.characters[target].front,)
    return ()


def _rob_check(game: "Game", stage: Turn, by: str, target: str, card: str):
    problem = _target_problem(game, by, target, "R-ROB-1")
    if problem:
        return problem
    victim = game.state.characters[target]
    if card == "hand":
        if not victim.hand:
            return Refusal("R-ROB-1", f"{target}'s hand is empty", "card", card)
    elif card not in victim.front:
        return Refusal("R-ROB-1", f"{card!r} is not face up in front of {target}", "card", card)
    return None


def _rob_moves(game: "Game", stage: Turn, by: str):
    chars = game.state.characters
    out = []
    for target in _others_on_board(game, by):
        victim = chars[target]
        if victim.hand:
            out.append((target, "hand"))
        out.extend((target, card) for card in victim.front)
    return out


def _rob_resolve(game: "Game", stage: Turn, by: str, target: str, card: str) -> None:
    stage.acted = True
    state = game.state
    from_hand = card == "hand"
    event = {"type": "rob", "character": by, "target": target, "card": card}
    if not from_hand:
        event["kind"] = state.table.kinds[card]   # face up: everyone sees what is robbed
    effects.emit(game, event)
    stake = Stake(act="rob", actor=by, target=target, card=None if from_hand else card, hand=from_hand)
    if from_hand and game.rules.content.characters[by].pickpocket:
        settle(game, stake)   # R-ROB-4: the Kid's pickpocket cannot be refused, no window opens
    elif state.characters[target].awake:
        game.push(Respond(stake=stake))
    else:
        settle(game, stake)   # R-ROB-2: an unconscious or dead victim cannot refuse


def _rob_settle(game: "Game", stake: Stake) -> None:
    """R-ROB-3: the robbery happens with what is there then."""
    state = game.state
    who, target = stake.actor, stake.target
    victim = state.characters[target]
    if stake.hand:
        if not victim.hand:
            effects.emit(game, {"type": "robbed", "character": who, "target": target, "card": None})
            return
        card = victim.hand[game.below(len(victim.hand))]
        source = hand(target)
    elif stake.card in victim.front:
        card = stake.card
        source = front(target)
    else:
        effects.emit(game, {"type": "robbed", "character": who, "target": target, "card": None})
        return
    card = effects.move(game, card, source, hand(who))
    # the card's new id only for the robber; a card from the hand: its kind for both
    mine = effects.Secret((who,), ("card",))
    secret = effects.Secret((who, target), ("kind",), mine) if stake.hand else mine
    effects.emit(game, {"type": "robbed", "character": who, "target": target, "card": card,
                        "kind": state.table.kinds[card]}, secret)


# --------------------------------------------------------------------------- use (R-SPEC-1)

def _effect(game: "Game", card: str):
    name_ = game.rules.effect_of.get(game.state.table.kinds[card])
    return game.rules.effects[name_] if name_ else None


def _use_check(game: "Game", stage: Turn, by: str, card: str, target: str | None):
    character = game.state.characters[by]
    if card not in character.hand and card not in character.front:
        return Refusal("R-SPEC-1", f"{by} holds no {card!r} in hand or face up", "card", card)
    kind = game.state.table.kinds[card]
    effect = _effect(game, card)
    if effect is None:
        return Refusal("R-SPEC-1", f"{kind} has no special action", "card", card)
    targets = effect.targets(game, by, card)
    if not targets:
        return Refusal(effect.rule, f"{kind} cannot be used now", "card", card)
    if target not in targets:
        if target is None:
            return Refusal(effect.rule, f"{kind} needs a target: one of {targets}", "target", None)
        if None in targets:
            return Refusal("API", f"{kind} takes no target", "target", target)
        return Refusal(effect.rule, f"{target!r} is not a legal target for {kind} (legal: {targets})", "target", target)
    return None


def _use_moves(game: "Game", stage: Turn, by: str):
    character = game.state.characters[by]
    out = []
    for card in character.hand + character.front:
        effect = _effect(game, card)
        if effect is not None:
            out.extend((card, target) for target in effect.targets(game, by, card))
    return out


def _use_resolve(game: "Game", stage: Turn, by: str, card: str, target: str | None) -> None:
    stage.acted = True
    effects.emit(game, {"type": "use", "character": by, "card": card,
                        "kind": game.state.table.kinds[card], "target": target})
    _effect(game, card).resolve(game, by, card, target)


# --------------------------------------------------------------------------- allow / refuse

def _answer(refused: bool):
    def resolve(game: "Game", stage: Respond, by: str) -> None:
        stage.answered = True
        stage.refused = refused
        effects.emit(game, {"type": "respond", "character": by,
                            "answer": "refuse" if refused else "allow"})
    return resolve


TYPES = [
    PASS,
    ActionType("row", "R-ROW-1", _row_check, _row_moves, _row_resolve, kinds=(Kind.TURN,)),
    ActionType("place", "R-ROW-1", _place_check, _place_moves, _place_resolve,
               params=(Param("pile", Domain.PILE),), kinds=(Kind.PLACE,), private=("pile",)),
    ActionType("swap", "R-SWAP-1", _swap_check, _swap_moves, _swap_resolve,
               params=(Param("target", Domain.CHARACTER),), kinds=(Kind.TURN,), settle=_swap_settle),
    ActionType("rob", "R-ROB-1", _rob_check, _rob_moves, _rob_resolve,
               params=(Param("target", Domain.CHARACTER),
                       Param("card", Domain.CARD_OR_HAND, source=_victim_front)),
               kinds=(Kind.TURN,), settle=_rob_settle),
    ActionType("use", "R-SPEC-1", _use_check, _use_moves, _use_resolve,
               params=(Param("card", Domain.CARD, source=hand_then_front, actor_source=True),
                       Param("target", Domain.CHARACTER, optional=True)), kinds=(Kind.TURN,)),
    ActionType("allow", "R-ROB-2", _nothing, _once, _answer(False), kinds=(Kind.RESPOND,)),
    ActionType("refuse", "R-ROB-2", _nothing, _once, _answer(True), kinds=(Kind.RESPOND,)),
]


def begin_action(game: "Game"):
    return ActionPhase()


@hookimpl
def lifeboat_action_types():
    return TYPES


@hookimpl
def lifeboat_stages():
    return [ActionPhase, Turn, Place, Respond]


@hookimpl
def lifeboat_markers():
    return [Marker("rowed", rule="R-ROW-2")]


@hookimpl
def lifeboat_options():
    return {
        "swap_turn_order": {"default": "fixed", "values": ["fixed", "swapped_acts_next"]},
        "rowing": {"default": "each", "values": ["each", "keep_one"]},
        "rowing_marker": {"default": "if_kept", "values": ["if_kept", "always"]},
        # who is pending in a window: public facts (R-WIN-2) or the cards held (R-WIN-3)
        "window_pending": {"default": "public", "values": ["public", "holders"]},
    }
