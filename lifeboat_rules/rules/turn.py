"""The action phase: turn order and the five actions (RULES.md: R-ACT-1, R-ACT-2, R-ROW-1,
R-ROW-2, R-SWAP-1, R-ROB-1..4, R-SPEC-1)."""

from __future__ import annotations

from itertools import combinations, permutations

import attrs

from .. import effects
from ..actions import ActionType, Field, LIST, card_forms, find_card
from ..hookspecs import hookimpl
from ..stages import CHARACTER, CHARACTERS, COUNT, STAKE, Stage, Window


# --------------------------------------------------------------------------- stages

@attrs.define(slots=True, eq=False)
class ActionPhase(Stage):
    """R-ACT-1: characters act one at a time in the seat order as it stood when the phase
    began; one that is not awake when its turn comes is skipped."""
    NAME = "action"
    PHASE = True
    REFS = {"order": CHARACTERS, "position": COUNT, "done": CHARACTERS}
    order: list = attrs.Factory(list)
    position: int = 0
    done: list = attrs.Factory(list)   # had their turn, or were skipped

    def start(self, game) -> None:
        self.order = game.state.seats[:]

    def advance(self, game) -> None:
        chars = game.state.characters
        while self.position < len(self.order):
            who = self.order[self.position]
            self.position += 1
            if who in self.done:
                continue
            self.done.append(who)
            if chars[who].awake:
                game.push(Turn(who))
                effects.emit(game, {"type": "turn", "character": who})
                return
        from .trading import void_offers
        void_offers(game, "the action phase ended")
        game.pop(self)

    def acts_next(self, game, who: str) -> None:
        """``swap_turn_order: swapped_acts_next``: ``who`` acts right after the current turn
        (R-SWAP-1); its old place is skipped since it has acted by then."""
        if who not in self.done:
            self.order.insert(self.position, who)

    def public(self, game):
        return {"kind": "action", "order": self.order[:], "done": self.done[:]}


@attrs.define(slots=True, eq=False)
class Turn(Stage):
    """A character's turn: exactly one action (R-ACT-2)."""
    NAME = "turn"
    KIND = "turn"
    REFS = {"actor": CHARACTER}
    actor: str = ""
    acted: bool = False

    def pending(self, game) -> list:
        if not self.acted and game.state.characters[self.actor].awake:
            return [self.actor]
        return []

    def public(self, game):
        return {"kind": "turn", "actor": self.actor}


@attrs.define(slots=True, eq=False)
class Place(Stage):
    """After rowing: each drawn card to the rowing pile or the bottom of the deck (R-ROW-1)."""
    NAME = "place"
    KIND = "place"
    REFS = {"actor": CHARACTER}
    actor: str = ""

    def pending(self, game) -> list:
        return [self.actor] if game.state.drawn else []

    def private(self, game, viewer):
        if viewer == self.actor and game.state.drawn:
            navcards = game.state.navcards
            return {"kind": "place", "cards": [navcards[c].data() for c in game.state.drawn]}
        return None

    def public(self, game):
        return {"kind": "place", "actor": self.actor, "cards_drawn": len(game.state.drawn)}


@attrs.define(slots=True, eq=False)
class Respond(Stage):
    """The awake target of a swap or robbery allows it or refuses, which starts a fight
    (R-SWAP-1, R-ROB-2)."""
    NAME = "respond"
    KIND = "respond"
    REFS = {"stake": STAKE}
    stake: dict = attrs.Factory(dict)

    def pending(self, game) -> list:
        target = self.stake["target"]
        return [target] if game.state.characters[target].awake else []

    def advance(self, game) -> None:
        # the target is no longer awake: it cannot refuse
        game.pop(self)
        settle(game, self.stake)

    def _asked(self, game) -> dict:
        stake = self.stake
        asked = {"kind": "respond", "act": stake["act"], "by": stake["actor"],
                 "target": stake["target"]}
        card = stake.get("card")
        if card == "hand":
            asked["card"] = "hand"
        elif card is not None:
            asked["card"] = {"id": card, "kind": game.state.kinds[card]}
        return asked

    def private(self, game, viewer):
        return self._asked(game) if viewer == self.stake["target"] else None

    def public(self, game):
        return self._asked(game)


def settle(game, stake: dict) -> None:
    """Carry out what a fight was about, or what was allowed (a swap, a robbery, ...)."""
    game.rules.types[stake["act"]].settle(game, stake)


def _turn_of(game, character) -> Turn | None:
    top = game.top
    if isinstance(top, Turn) and top.actor == character and not top.acted:
        return top
    return None


def _end_turn_action(game, action) -> Turn:
    turn = game.top
    turn.acted = True
    return turn


# --------------------------------------------------------------------------- pass

def _pass_options(game, character, stage) -> list:
    return [{"by": character, "type": "pass"}]


def _pass_resolve(game, action) -> None:
    top = game.top
    who = action["by"]
    if isinstance(top, Window):
        top.on_pass(game, who)
    else:
        top.acted = True
    effects.emit(game, {"type": "pass", "character": who, "stage": top.KIND})


def _pass_explain(game, action):
    return "R-WIN-2", (f"{action['by']} has no turn and no window action to pass now "
                       "(R-ACT-2, R-WIN-2)")


# --------------------------------------------------------------------------- row

def rowing_draws(game, character) -> int:
    """R-ROW-1: 2 cards (the content's ``rowing_draws``) + 1 per oar face up."""
    state = game.state
    provisions = game.rules.content.provisions
    kinds = state.kinds
    extra = sum(provisions[kinds[c]].rowing_draws for c in state.characters[character].front)
    return game.rules.content.setup["rowing_draws"] + extra


def _row_options(game, character, stage) -> list:
    return [{"by": character, "type": "row"}] if game.state.navigation else []


def _row_resolve(game, action) -> None:
    who = action["by"]
    _end_turn_action(game, action)
    state = game.state
    count = min(rowing_draws(game, who), len(state.navigation))
    for card in state.navigation[:count]:
        effects.move_navigation(game, card, "navigation", "drawn")
    effects.emit(game, {"type": "row", "character": who, "drawn": count})
    game.push(Place(who))


def _row_explain(game, action):
    if not game.state.navigation:
        return "R-ROW-1", "rowing needs at least one card in the navigation deck"
    return None


def _place_options(game, character, stage) -> list:
    drawn = game.state.drawn
    out = []
    if game.option("rowing") == "keep_one":
        piles = [(card,) for card in drawn]
    else:
        piles = [combo for size in range(len(drawn) + 1) for combo in combinations(drawn, size)]
    for pile in piles:
        # the pile may be named in any order: the cards go in the order drawn (R-ROW-1)
        for order in permutations(pile):
            out.append({"by": character, "type": "place", "pile": list(order)})
    return out


def _place_resolve(game, action) -> None:
    who = action["by"]
    state = game.state
    kept = set(action["pile"])
    for card in state.drawn[:]:
        effects.move_navigation(game, card, "drawn", "rowing_pile" if card in kept else "navigation")
    effects.emit(game, {"type": "place", "character": who, "kept": len(kept)})
    # R-ROW-2: the rowing marker (option rowing_marker)
    if kept or game.option("rowing_marker") == "always":
        effects.set_marker(game, who, "rowed")
    game.pop(game.top)


def _place_explain(game, action):
    drawn = game.state.drawn
    pile = action.get("pile")
    if not isinstance(game.top, Place) or game.top.actor != action["by"]:
        return "R-ROW-1", f"{action['by']} has no rowed cards to place"
    if isinstance(pile, list):
        unknown = [c for c in pile if c not in drawn]
        if unknown:
            return "R-ROW-1", f"{unknown[0]!r} is not among the cards {action['by']} drew"
        if len(set(pile)) != len(pile):
            return "R-ROW-1", "a card is named twice in the pile"
        if game.option("rowing") == "keep_one" and len(pile) != 1:
            return "R-ROW-1", "with the option rowing: keep_one exactly one card goes to the rowing pile"
    return None


# --------------------------------------------------------------------------- swap

def _others_on_board(game, character) -> list:
    return [c for c in game.state.seats if c != character]


def _swap_options(game, character, stage) -> list:
    return [{"by": character, "type": "swap", "target": t} for t in _others_on_board(game, character)]


def _swap_resolve(game, action) -> None:
    who, target = action["by"], action["target"]
    _end_turn_action(game, action)
    state = game.state
    effects.emit(game, {"type": "swap", "character": who, "target": target})
    stake = {"act": "swap", "actor": who, "target": target}
    if state.characters[target].awake:
        game.push(Respond(stake))
    else:
        settle(game, stake)  # R-SWAP-1: an unconscious or dead target cannot refuse


def _swap_settle(game, stake) -> None:
    who, target = stake["actor"], stake["target"]
    state = game.state
    if who not in state.seats or target not in state.seats:
        return
    effects.swap_seats(game, who, target)
    if game.option("swap_turn_order") == "swapped_acts_next":
        # R-SWAP-1 (option): a target that is awake and has not acted yet acts right after the
        # swapper; one that is not awake keeps its place in the order (R-ACT-1)
        phase = next((s for s in state.stack if isinstance(s, ActionPhase)), None)
        if phase is not None and state.characters[target].awake:
            phase.acts_next(game, target)


def _target_explain(game, action, rule):
    target = action.get("target")
    state = game.state
    if target == action["by"]:
        return rule, "choose another character"
    if target not in state.characters:
        return "API", f"unknown character {target!r}"
    if target not in state.seats:
        return rule, f"{target} is not on board"
    return None


# --------------------------------------------------------------------------- rob

def _rob_options(game, character, stage) -> list:
    chars = game.state.characters
    out = []
    for target in _others_on_board(game, character):
        victim = chars[target]
        if victim.hand:
            out.append({"by": character, "type": "rob", "target": target, "card": "hand"})
        for form in card_forms(game, victim.front):
            out.append({"by": character, "type": "rob", "target": target, "card": form})
    return out


def _rob_resolve(game, action) -> None:
    who, target, ref = action["by"], action["target"], action["card"]
    _end_turn_action(game, action)
    state = game.state
    victim = state.characters[target]
    card = "hand" if ref == "hand" else find_card(game, ref, victim.front)
    effects.emit(game, {"type": "rob", "character": who, "target": target,
                        "card": card if card == "hand" else {"id": card, "kind": state.kinds[card]}})
    stake = {"act": "rob", "actor": who, "target": target, "card": card}
    if card == "hand" and game.rules.content.characters[who].pickpocket:
        settle(game, stake)  # R-ROB-4: the Kid's pickpocket cannot be refused, no window opens
    elif victim.awake:
        game.push(Respond(stake))
    else:
        settle(game, stake)  # R-ROB-2: an unconscious or dead victim cannot refuse


def _rob_settle(game, stake) -> None:
    """R-ROB-3: the robbery happens with what is there then."""
    state = game.state
    who, target, card = stake["actor"], stake["target"], stake["card"]
    victim = state.characters[target]
    if card == "hand":
        if not victim.hand:
            effects.emit(game, {"type": "robbed", "character": who, "target": target, "card": None})
            return
        rng = game.rng()
        card = victim.hand[rng.below(len(victim.hand))]
        game.rng_done(rng)
        source = f"hand:{target}"
    elif card in victim.front:
        source = f"front:{target}"
    else:
        effects.emit(game, {"type": "robbed", "character": who, "target": target, "card": None})
        return
    effects.move(game, card, source, f"hand:{who}")
    effects.emit(game, {"type": "robbed", "character": who, "target": target, "card": card,
                        "kind": state.kinds[card]})


def _rob_explain(game, action):
    problem = _target_explain(game, action, "R-ROB-1")
    if problem:
        return problem
    victim = game.state.characters[action["target"]]
    card = action.get("card")
    if card == "hand" and not victim.hand:
        return "R-ROB-1", f"{action['target']}'s hand is empty"
    if card != "hand" and find_card(game, card, victim.front) is None:
        return "R-ROB-1", f"{card!r} is not face up in front of {action['target']}"
    return None


# --------------------------------------------------------------------------- use (special action)

def usable_cards(game, character) -> list:
    """Cards with a special action, from hand first, then face up in front (R-SPEC-1)."""
    state = game.state
    effect_of = game.rules.effect_of
    kinds = state.kinds
    ch = state.characters[character]
    return [c for c in ch.hand + ch.front if effect_of.get(kinds[c])]


def _use_options(game, character, stage) -> list:
    state = game.state
    kinds = state.kinds
    rules = game.rules
    ch = state.characters[character]
    out = []
    seen_kinds = set()
    for card in usable_cards(game, character):
        effect = rules.effects[rules.effect_of[kinds[card]]]
        targets = effect.targets(game, character, card)
        if not targets:
            continue
        names = [card]
        kind = kinds[card]
        if kind not in seen_kinds:
            seen_kinds.add(kind)
            # a kind names the first such card in hand, then in front (R-SPEC-1)
            if find_card(game, kind, ch.hand, ch.front) == card:
                names.append(kind)
        for name in names:
            for target in targets:
                action = {"by": character, "type": "use", "card": name}
                if target is not None:
                    action["target"] = target
                out.append(action)
    return out


def _use_resolve(game, action) -> None:
    who = action["by"]
    _end_turn_action(game, action)
    state = game.state
    ch = state.characters[who]
    card = find_card(game, action["card"], ch.hand, ch.front)
    kind = state.kinds[card]
    effect = game.rules.effects[game.rules.effect_of[kind]]
    target = action.get("target")
    effects.emit(game, {"type": "use", "character": who, "card": card, "kind": kind,
                        "target": target})
    effect.resolve(game, who, card, target)


def _use_explain(game, action):
    state = game.state
    ch = state.characters[action["by"]]
    ref = action.get("card")
    card = find_card(game, ref, ch.hand, ch.front)
    if card is None:
        return "R-SPEC-1", f"{action['by']} holds no {ref!r} in hand or face up"
    kind = state.kinds[card]
    effect_name = game.rules.effect_of.get(kind)
    if not effect_name:
        return "R-SPEC-1", f"{kind} has no special action"
    effect = game.rules.effects[effect_name]
    targets = effect.targets(game, action["by"], card)
    target = action.get("target")
    if not targets:
        return effect.rule, f"{kind} cannot be used now"
    if None in targets and target is not None:
        return "API", f"{kind} takes no target"
    if target is None and None not in targets:
        return effect.rule, f"{kind} needs a target: one of {targets}"
    return effect.rule, f"{target!r} is not a legal target for {kind} (legal: {targets})"


# --------------------------------------------------------------------------- respond

def _allow_options(game, character, stage) -> list:
    return [{"by": character, "type": "allow"}]


def _refuse_options(game, character, stage) -> list:
    return [{"by": character, "type": "refuse"}]


def _allow_resolve(game, action) -> None:
    stage = game.top
    game.pop(stage)
    effects.emit(game, {"type": "respond", "character": action["by"], "answer": "allow"})
    settle(game, stage.stake)


def _refuse_resolve(game, action) -> None:
    from .fights import start_fight
    stage = game.top
    game.pop(stage)
    effects.emit(game, {"type": "respond", "character": action["by"], "answer": "refuse"})
    stake = stage.stake
    start_fight(game, [stake["actor"]], [stake["target"]], stake)  # R-SWAP-1, R-ROB-2


def _respond_explain(game, action):
    return "R-ROB-2", f"{action['by']} is not the target of a swap or robbery waiting for an answer"


def _turn_explain(explain):
    """Refusals of turn actions: first whose turn it is (R-ACT-1), then the action's own."""
    def wrapped(game, action):
        if _turn_of(game, action["by"]) is None:
            top = game.top
            if isinstance(top, Turn) and not top.acted:
                return "R-ACT-1", f"it is {top.actor}'s turn, not {action['by']}'s"
            return "R-ACT-1", f"{action['by']} has no turn now"
        if explain is not None:
            problem = explain(game, action)
            if problem is not None:
                return problem
        return None
    return wrapped


def _swap_explain(game, action):
    return _target_explain(game, action, "R-SWAP-1")


TYPES = [
    ActionType("pass", "R-ACT-2", _pass_options, _pass_resolve,
               stages=("turn", "fight", "overboard", "thirst", "object"), explain=_pass_explain),
    ActionType("row", "R-ROW-1", _row_options, _row_resolve, stages=("turn",),
               explain=_turn_explain(_row_explain)),
    ActionType("place", "R-ROW-1", _place_options, _place_resolve,
               fields=(Field("pile", LIST),), stages=("place",), explain=_place_explain),
    ActionType("swap", "R-SWAP-1", _swap_options, _swap_resolve, fields=(Field("target"),),
               stages=("turn",), explain=_turn_explain(_swap_explain), settle=_swap_settle),
    ActionType("rob", "R-ROB-1", _rob_options, _rob_resolve,
               fields=(Field("target"), Field("card")), stages=("turn",),
               explain=_turn_explain(_rob_explain), card_fields=("card",), settle=_rob_settle),
    ActionType("use", "R-SPEC-1", _use_options, _use_resolve,
               fields=(Field("card"), Field("target", required=False)), stages=("turn",),
               explain=_turn_explain(_use_explain), card_fields=("card",)),
    ActionType("allow", "R-ROB-2", _allow_options, _allow_resolve, stages=("respond",),
               explain=_respond_explain),
    ActionType("refuse", "R-ROB-2", _refuse_options, _refuse_resolve, stages=("respond",),
               explain=_respond_explain),
]


def begin_action(game):
    return ActionPhase()


@hookimpl
def lifeboat_action_types():
    return TYPES


@hookimpl
def lifeboat_stages():
    return [ActionPhase, Turn, Place, Respond]


@hookimpl
def lifeboat_options():
    return {
        "swap_turn_order": {"default": "fixed", "values": ["fixed", "swapped_acts_next"]},
        "rowing": {"default": "each", "values": ["each", "keep_one"]},
        "rowing_marker": {"default": "if_kept", "values": ["if_kept", "always"]},
    }
