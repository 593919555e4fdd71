"""Trading hand cards by offer and acceptance (RULES.md: R-TRADE-1, R-SUPPLY-3, R-FIGHT-2).

An offer names cards by instance id or by kind. Making an offer checks only what the offerer
may know (its own hand), so a refusal never reveals the other hand; whether the recipient holds
what is asked is checked when it accepts. Open offers end with the action phase.
"""

from __future__ import annotations

from .. import effects
from ..actions import LIST, ActionType, Field
from ..hookspecs import hookimpl
from ..model import Offer

MAX_OPEN_OFFERS = 16   # per offerer: keeps a runaway client from growing the state without end
MAX_CARDS = 60


def trading_allowed(game) -> bool:
    """R-TRADE-1: during the action phase while no fight is under way (R-FIGHT-2)."""
    state = game.state
    if state.over or state.phase != "action":
        return False
    from .fights import FightWindow
    return not any(isinstance(stage, FightWindow) for stage in state.stack)


def _cards_for(game, refs, hand) -> list | None:
    """Distinct cards of ``hand`` answering ``refs`` (ids or kinds), or None."""
    kinds = game.state.kinds
    chosen: list = []
    for ref in refs:
        if ref in kinds:
            if ref not in hand or ref in chosen:
                return None
            chosen.append(ref)
        else:
            card = next((c for c in hand if kinds[c] == ref and c not in chosen), None)
            if card is None:
                return None
            chosen.append(card)
    return chosen


def _same_offer(offer: Offer, by, to, give, take) -> bool:
    return (offer.by == by and offer.to == to and sorted(offer.give) == sorted(give)
            and sorted(offer.take) == sorted(take))


# --------------------------------------------------------------------------- offer

def _offer_options(game, character, stage) -> list:
    """Canonical forms only (API.md): a gift of one card of each kind in hand to each other
    awake character."""
    if not trading_allowed(game):
        return []
    state = game.state
    chars = state.characters
    hand = chars[character].hand
    if not hand:
        return []
    mine = [o for o in state.offers if o.by == character]
    if len(mine) >= MAX_OPEN_OFFERS:
        return []
    kinds = sorted({state.kinds[c] for c in hand})
    return [{"by": character, "type": "offer", "to": to, "give": [kind], "take": []}
            for to in state.seats if to != character and chars[to].awake
            for kind in kinds
            if not mine or not any(_same_offer(o, character, to, [kind], []) for o in mine)]


def _offer_check(game, action):
    """Everything that makes an offer illegal, as (rule, message); None when it is legal."""
    from ..refusals import common_problem
    problem = common_problem(game, action)
    if problem is not None:
        return problem
    state = game.state
    by, to = action["by"], action["to"]
    give, take = action["give"], action["take"]
    if not state.characters[by].awake:
        return "R-STATUS", f"{by} is {state.characters[by].status} and cannot trade"
    if state.phase == "supply":
        return "R-SUPPLY-3", "no trading during the supply phase"
    if not trading_allowed(game):
        if state.phase == "action":
            return "R-FIGHT-2", "no trading while a fight is under way"
        return "R-TRADE-1", "trading happens only during the action phase"
    if to == by:
        return "R-TRADE-1", "an offer goes to another character"
    if to not in state.seats or not state.characters[to].awake:
        return "R-TRADE-1", f"{to} is not an awake character on board"
    if not give and not take:
        return "R-TRADE-1", "an offer names at least one card"
    if len(give) + len(take) > MAX_CARDS:
        return "API", "too many cards in one offer"
    if _cards_for(game, give, state.characters[by].hand) is None:
        return "R-TRADE-1", f"{by} does not hold all of {give} in hand"
    if len(set(c for c in take if c in state.kinds)) != len([c for c in take if c in state.kinds]):
        return "R-TRADE-1", "a card is asked for twice"
    mine = [o for o in state.offers if o.by == by]
    if any(_same_offer(o, by, to, give, take) for o in mine):
        return "R-TRADE-1", "the same offer is already open"
    if len(mine) >= MAX_OPEN_OFFERS:
        return "R-TRADE-1", f"{by} already has {MAX_OPEN_OFFERS} open offers"
    return None


def _offer_resolve(game, action) -> None:
    state = game.state
    state.offer_counter += 1
    offer = Offer(f"o{state.offer_counter}", action["by"], action["to"],
                  tuple(action["give"]), tuple(action["take"]))
    state.offers.append(offer)
    effects.emit(game, {"type": "offer", "offer": offer.id, "from": offer.by, "to": offer.to,
                        "give": list(offer.give), "take": list(offer.take)})


# --------------------------------------------------------------------------- answer

def _feasible(game, offer: Offer):
    """The cards an offer moves now, as (given, taken), or None if it cannot be carried out."""
    chars = game.state.characters
    if not (chars[offer.by].awake and chars[offer.to].awake) or not trading_allowed(game):
        return None
    given = _cards_for(game, offer.give, chars[offer.by].hand)
    taken = _cards_for(game, offer.take, chars[offer.to].hand)
    if given is None or taken is None:
        return None
    return given, taken


def _answer_options(kind: str, need_feasible: bool):
    def options(game, character, stage) -> list:
        offers = [o for o in game.state.offers if o.to == character]
        out = []
        for offer in offers:
            if need_feasible and _feasible(game, offer) is None:
                continue
            out.append({"by": character, "type": kind, "offer": offer.id})
            if len(offers) == 1:
                out.append({"by": character, "type": kind})
        return out
    return options


def _find_offer(game, action) -> Offer:
    ref = action.get("offer")
    mine = [o for o in game.state.offers if o.to == action["by"]]
    if ref is None:
        return mine[0]
    return next(o for o in mine if o.id == ref)


def _accept_resolve(game, action) -> None:
    offer = _find_offer(game, action)
    given, taken = _feasible(game, offer)
    for card in given:
        effects.move(game, card, f"hand:{offer.by}", f"hand:{offer.to}")
    for card in taken:
        effects.move(game, card, f"hand:{offer.to}", f"hand:{offer.by}")
    game.state.offers.remove(offer)
    effects.emit(game, {"type": "trade", "offer": offer.id, "from": offer.by, "to": offer.to})


def _decline_resolve(game, action) -> None:
    offer = _find_offer(game, action)
    game.state.offers.remove(offer)
    effects.emit(game, {"type": "decline", "offer": offer.id, "from": offer.by, "to": offer.to})


def _answer_explain(game, action):
    state = game.state
    mine = [o for o in state.offers if o.to == action["by"]]
    ref = action.get("offer")
    if not mine:
        return "R-TRADE-1", f"no offer to {action['by']} is open"
    if ref is None and len(mine) > 1:
        return "R-TRADE-1", f"several offers to {action['by']} are open: name one of {[o.id for o in mine]}"
    offer = mine[0] if ref is None else next((o for o in mine if o.id == ref), None)
    if offer is None:
        return "R-TRADE-1", f"no open offer {ref!r} to {action['by']}"
    if action["type"] == "accept_offer" and _feasible(game, offer) is None:
        if not trading_allowed(game):
            return "R-FIGHT-2", "no trading while a fight is under way"
        return "R-TRADE-1", f"offer {offer.id} cannot be carried out: the cards are not all there"
    return None


def void_offers(game, reason: str) -> None:
    state = game.state
    for offer in state.offers:
        effects.emit(game, {"type": "offer_void", "offer": offer.id, "reason": reason})
    state.offers.clear()


TYPES = [
    ActionType("offer", "R-TRADE-1", _offer_options, _offer_resolve,
               fields=(Field("to"), Field("give", LIST), Field("take", LIST)),
               stages=("free",), explain=_offer_check, open=True,
               card_fields=("give", "take")),
    ActionType("accept_offer", "R-TRADE-1", _answer_options("accept_offer", True),
               _accept_resolve, fields=(Field("offer", required=False),), stages=("free",),
               explain=_answer_explain),
    ActionType("decline_offer", "R-TRADE-1", _answer_options("decline_offer", False),
               _decline_resolve, fields=(Field("offer", required=False),), stages=("free",),
               explain=_answer_explain),
]


@hookimpl
def lifeboat_action_types():
    return TYPES
