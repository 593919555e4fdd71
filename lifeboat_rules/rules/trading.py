"""Trading hand cards by offer and acceptance (R-TRADE-1, R-SUPPLY-3, R-FIGHT-2).

An offer names cards by instance id or by kind. Making one checks only what the offerer may
know (its own hand), so a refusal never reveals the other hand; whether the recipient holds
what is asked is checked when it accepts. The offer keeps what the offerer shows of the cards
it gives, their kinds and markers, not their ids: whoever sees an offer learns what the card
game shows and cannot follow a shown card when it later leaves the hand unseen (docs/api.md,
card ids are secrets). Open offers end with the action phase. Offers are listed (and have
integers) in one canonical form: a gift of one card to another character, one for each kind
(and markers) in the hand.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .. import effects
from ..actions import FREE, MAX_OPEN_OFFERS, ActionType, Domain, Param
from ..hookspecs import hookimpl
from ..records import Phase, Refusal, hand
from ..state import Offer
from .fights import fight_under_way

if TYPE_CHECKING:
    from ..engine import Game
    from ..stages import Stage

MAX_CARDS = 60
_SUPPLY, _ACTION = Phase.SUPPLY, Phase.ACTION   # looked up once (enum lookups are slow)


# about the game as a whole (the phase, a fight), not a field of the action: no field
_IN_SUPPLY = Refusal("R-SUPPLY-3", "no trading during the supply phase", None)
_NOT_ACTION = Refusal("R-TRADE-1", "trading happens only during the action phase", None)
_IN_FIGHT = Refusal("R-FIGHT-2", "no trading while a fight is under way", None)


def trading_refusal(game: "Game") -> Refusal | None:
    """R-TRADE-1: trading happens during the action phase while no fight is under way."""
    phase = game.state.phase
    if phase is _SUPPLY:
        return _IN_SUPPLY
    if phase is not _ACTION:
        return _NOT_ACTION
    if fight_under_way(game):
        return _IN_FIGHT
    return None


def _cards_for(game: "Game", refs, held: list) -> list | None:
    """Distinct cards of ``held`` answering ``refs`` (ids or kinds), or None."""
    kinds = game.state.table.kinds
    chosen: list = []
    for ref in refs:
        if ref in kinds:
            if ref not in held or ref in chosen:
                return None
            chosen.append(ref)
        else:
            card = next((c for c in held if kinds[c] == ref and c not in chosen), None)
            if card is None:
                return None
            chosen.append(card)
    return chosen


def _markers(game: "Game", card: str) -> tuple:
    """The markers a provision card carries (R-LC-1), sorted: a card's class with its kind."""
    held = game.state.card_markers
    if not held:
        return ()
    return tuple(sorted(m for m, cards in held.items() if card in cards))


def _shown(game: "Game", cards: list) -> tuple:
    """What an offer keeps of the cards it gives: ``(kinds, markers or None)``."""
    kinds = game.state.table.kinds
    marks = [list(_markers(game, c)) for c in cards]
    return [kinds[c] for c in cards], (marks if any(marks) else None)


def _classes(kinds: list, marks: list | None) -> list:
    return sorted(zip(kinds, [tuple(m) for m in marks] if marks else [()] * len(kinds)))


def _same(game: "Game", offer: Offer, to: str, give: list, take: list) -> bool:
    kinds, marks = _shown(game, give)
    return (offer.to == to and sorted(offer.take) == sorted(take)
            and _classes(offer.give, offer.give_markers) == _classes(kinds, marks))


def _given_cards(game: "Game", offer: Offer) -> list | None:
    """Distinct cards of the offerer's hand of the kinds and markers the offer shows, or None."""
    kinds = game.state.table.kinds
    held = game.state.characters[offer.by].hand
    marks = offer.give_markers or [()] * len(offer.give)
    chosen: list = []
    for kind, wanted in zip(offer.give, marks):
        wanted = tuple(wanted)
        card = next((c for c in held if kinds[c] == kind and c not in chosen
                     and _markers(game, c) == wanted), None)
        if card is None:
            return None
        chosen.append(card)
    return chosen


def _open_offers(game: "Game", by: str) -> list:
    return [o for o in game.state.offers if o.by == by]


# --------------------------------------------------------------------------- offer

def _offer_check(game: "Game", stage: "Stage", by: str, to: str, give: list, take: list):
    problem = trading_refusal(game)
    if problem:
        return problem
    state = game.state
    if to == by:
        return Refusal("R-TRADE-1", "an offer goes to another character", "to", to)
    if to not in state.seats or not state.characters[to].awake:
        return Refusal("R-TRADE-1", f"{to} is not an awake character on board", "to", to)
    if not give and not take:
        return Refusal("R-TRADE-1", "an offer names at least one card", "give", give)
    if len(give) + len(take) > MAX_CARDS:
        return Refusal("API", "too many cards in one offer", "give", give)
    given = _cards_for(game, give, state.characters[by].hand)
    if given is None:
        return Refusal("R-TRADE-1", f"{by} does not hold all of {give} in hand", "give", give)
    # cards asked for by id (an id is not checked: the offerer does not see that hand)
    named = [c for c in take if c not in game.rules.content.provisions]
    if len(set(named)) != len(named):
        return Refusal("R-TRADE-1", "a card is asked for twice", "take", take)
    mine = _open_offers(game, by)
    if any(_same(game, o, to, given, take) for o in mine):
        return Refusal("R-TRADE-1", "the same offer is already open", "to", to)
    if len(mine) >= MAX_OPEN_OFFERS:
        return Refusal("R-TRADE-1", f"{by} already has {MAX_OPEN_OFFERS} open offers", "by", by)
    return None


def _offer_moves(game: "Game", stage: "Stage", by: str):
    """The canonical offers: a gift of one card to each other awake character, the first card
    of the hand of each kind and markers (an offer shows only those, so two such cards are one
    move)."""
    state = game.state
    hand_cards = state.characters[by].hand
    if not hand_cards or trading_refusal(game) is not None:
        return []
    chars = state.characters
    kinds = state.table.kinds
    firsts: dict = {}
    for card in hand_cards:
        firsts.setdefault((kinds[card], _markers(game, card)), card)
    mine = _open_offers(game, by) if state.offers else ()
    if not mine:    # the usual case, listed without building the set below (hot path)
        return [(to, [card], []) for to in state.seats if to != by and chars[to].awake
                for card in firsts.values()]
    if len(mine) >= MAX_OPEN_OFFERS:
        return []
    given = {(o.to, _classes(o.give, o.give_markers)[0]) for o in mine
             if len(o.give) == 1 and not o.take}
    return [(to, [card], []) for to in state.seats if to != by and chars[to].awake
            for shown, card in firsts.items() if (to, shown) not in given]


def _offer_resolve(game: "Game", stage: "Stage", by: str, to: str, give: list, take: list) -> None:
    state = game.state
    state.offer_counter += 1
    kinds, marks = _shown(game, _cards_for(game, give, state.characters[by].hand))
    offer = Offer(id=f"o{state.offer_counter}", by=by, to=to, give=kinds, take=list(take),
                  give_markers=marks)
    state.offers.append(offer)
    shown = offer.data()     # the event shows the offer as the two players' views do
    event = {"type": "offer", "offer": shown.pop("id"), **shown}
    effects.emit(game, event, effects.Secret((by, to), ("give", "take", "give_markers")))


# --------------------------------------------------------------------------- answers

def _feasible(game: "Game", offer: Offer):
    """The cards an offer moves now, as (given, taken), or None if it cannot be carried out."""
    chars = game.state.characters
    if not (chars[offer.by].awake and chars[offer.to].awake) or trading_refusal(game) is not None:
        return None
    given = _given_cards(game, offer)
    taken = _cards_for(game, offer.take, chars[offer.to].hand)
    if given is None or taken is None:
        return None
    return given, taken


def _only_offer(game: "Game", by: str, values) -> str | None:
    """A left-out ``offer`` means the one offer open to you, when there is exactly one."""
    mine = [o for o in game.state.offers if o.to == by]
    return mine[0].id if len(mine) == 1 else None


def _find(game: "Game", by: str, offer_id) -> Offer | None:
    return next((o for o in game.state.offers if o.to == by and o.id == offer_id), None)


def _answer_check(accepting: bool):
    def check(game: "Game", stage: "Stage", by: str, offer_id):
        mine = [o for o in game.state.offers if o.to == by]
        if not mine:
            return Refusal("R-TRADE-1", f"no offer to {by} is open", "offer", offer_id)
        if offer_id is None:
            return Refusal("R-TRADE-1", f"several offers to {by} are open: name one of "
                                        f"{[o.id for o in mine]}", "offer", None)
        offer = _find(game, by, offer_id)
        if offer is None:
            return Refusal("R-TRADE-1", f"no open offer {offer_id!r} to {by}", "offer", offer_id)
        if accepting and _feasible(game, offer) is None:
            problem = trading_refusal(game)
            if problem is not None:
                return problem
            return Refusal("R-TRADE-1", f"offer {offer.id} cannot be carried out: the cards are "
                                        "not all there", "offer", offer.id)
        return None
    return check


def _answer_moves(accepting: bool):
    def moves(game: "Game", stage: "Stage", by: str):
        offers = game.state.offers
        if not offers:   # the usual case, in every listing (hot path)
            return []
        return [(o.id,) for o in offers
                if o.to == by and (not accepting or _feasible(game, o) is not None)]
    return moves


def _accept_resolve(game: "Game", stage: "Stage", by: str, offer_id: str) -> None:
    offer = _find(game, by, offer_id)
    given, taken = _feasible(game, offer)
    for card in given:
        effects.move(game, card, hand(offer.by), hand(offer.to))
    for card in taken:
        effects.move(game, card, hand(offer.to), hand(offer.by))
    game.state.offers.remove(offer)
    effects.emit(game, {"type": "trade", "offer": offer.id, "from": offer.by, "to": offer.to})


def _decline_resolve(game: "Game", stage: "Stage", by: str, offer_id: str) -> None:
    offer = _find(game, by, offer_id)
    game.state.offers.remove(offer)
    effects.emit(game, {"type": "decline", "offer": offer.id, "from": offer.by, "to": offer.to})


def void_offers(game: "Game", reason: str) -> None:
    state = game.state
    for offer in state.offers:
        effects.emit(game, {"type": "offer_void", "offer": offer.id, "from": offer.by,
                            "to": offer.to, "reason": reason})
    state.offers.clear()


OFFER = Param("offer", Domain.OFFER, optional=True, alias=True, default=_only_offer)

TYPES = [
    ActionType("offer", "R-TRADE-1", _offer_check, _offer_moves, _offer_resolve,
               params=(Param("to", Domain.CHARACTER), Param("give", Domain.CARDS),
                       Param("take", Domain.CARDS)),
               kinds=(FREE,), open=True, private=("give", "take")),
    ActionType("accept_offer", "R-TRADE-1", _answer_check(True), _answer_moves(True),
               _accept_resolve, params=(OFFER,), kinds=(FREE,)),
    ActionType("decline_offer", "R-TRADE-1", _answer_check(False), _answer_moves(False),
               _decline_resolve, params=(OFFER,), kinds=(FREE,)),
]


@hookimpl
def lifeboat_action_types():
    return TYPES
