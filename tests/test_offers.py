"""A trade offer shows the kinds of the cards it gives, never their ids (R-TRADE-1,
R-SUPPLY-1; docs/api.md, "An offer shows kinds, not ids").

At a table, an offerer shows a water; if a water later leaves its hand unseen, the one it was
offered to cannot tell which. The tests play the two worlds that differ only in which of two
waters the offerer gave away unseen, and check that the recipient is shown exactly the same
things in both, to the end.
"""

from __future__ import annotations

import copy

import lifeboat_rules as lr
from lifeboat_rules import saving

SEATS = ["lady_lauren", "sir_stephen", "the_kid", "frenchy"]


def position(ruleset="classic", **setup):
    return lr.new_game(ruleset, seed=7, setup={"seats": SEATS, "phase": "action", **setup})


def refusal(game, action) -> str | None:
    """Why ``apply`` refuses ``action`` (on a copy), or None."""
    try:
        game.clone().apply(action)
    except lr.IllegalAction as error:
        return str(error)
    return None


def channels(game, viewer):
    """Everything ``viewer`` is shown now."""
    return (game.view(viewer), game.events_for(viewer), game.legal_actions(viewer),
            game.legal_ids(viewer), [d.by for d in game.pending])


def test_the_recipient_sees_the_kind_and_no_id():
    game = position(hand={"lady_lauren": ["water", "water", "cash"]})
    first = game.state.characters["lady_lauren"].hand[0]
    game.apply({"by": "lady_lauren", "type": "offer", "to": "sir_stephen", "give": [first],
                "take": []})
    view = game.view("sir_stephen")
    assert [(o["give"], o["take"]) for o in view["offers"]] == [(["water"], [])]
    told = [e for e in game.events_for("sir_stephen") if e["type"] in ("offer", "action")]
    hand = set(game.state.characters["lady_lauren"].hand)
    assert told and not any(card in str(e) for e in told for card in hand)
    # the offerer's own record of its move keeps the id it chose
    mine = [e for e in game.events_for("lady_lauren") if e["type"] == "action"]
    assert mine[-1]["action"]["give"] == [first]
    # the others learn that an offer was made, not what
    for other in ("the_kid", "frenchy", None):
        offer = [e for e in game.events_for(other) if e["type"] == "offer"][0]
        assert "give" not in offer and "take" not in offer


def _two_worlds(given_away: int):
    """Lady Lauren offers her first water to Sir Stephen, then gives water number
    ``given_away`` (0 or 1) of her hand to the Kid, who accepts."""
    game = position(hand={"lady_lauren": ["water", "water", "cash"], "the_kid": ["knife"]})
    hand = game.state.characters["lady_lauren"].hand
    game.apply({"by": "lady_lauren", "type": "offer", "to": "sir_stephen", "give": [hand[0]],
                "take": []})
    game.apply({"by": "lady_lauren", "type": "offer", "to": "the_kid",
                "give": [hand[given_away]], "take": []})
    game.apply({"by": "the_kid", "type": "accept_offer", "offer": "o2"})
    return game


def test_the_recipient_cannot_follow_the_card_it_was_shown():
    same, other = _two_worlds(0), _two_worlds(1)
    assert channels(same, "sir_stephen") == channels(other, "sir_stephen")
    # the offer can still be carried out: Lady Lauren holds a water
    for game in (same, other):
        assert {"by": "sir_stephen", "type": "accept_offer", "offer": "o1"} in \
            game.legal_actions("sir_stephen")
        game.apply({"by": "sir_stephen", "type": "accept_offer", "offer": "o1"})
    assert channels(same, "sir_stephen") == channels(other, "sir_stephen")
    kinds = same.state.table.kinds
    assert [kinds[c] for c in same.state.characters["sir_stephen"].hand] == ["water"]
    assert sorted(kinds[c] for c in same.state.characters["lady_lauren"].hand) == ["cash"]


def water_offered():
    """Lady Lauren's open offer of her water to Sir Stephen: (the game, the water's id)."""
    game = position(hand={"lady_lauren": ["water", "cash"]})
    water = game.state.characters["lady_lauren"].hand[0]
    game.apply({"by": "lady_lauren", "type": "offer", "to": "sir_stephen", "give": [water],
                "take": []})
    return game, water


def test_an_offer_of_the_last_such_card_cannot_be_carried_out_once_it_is_gone():
    game, water = water_offered()
    game.apply({"by": "lady_lauren", "type": "offer", "to": "the_kid", "give": ["water"],
                "take": []})
    game.apply({"by": "the_kid", "type": "accept_offer", "offer": "o2"})
    assert not any(a["type"] == "accept_offer" for a in game.legal_actions("sir_stephen"))
    refused = refusal(game, {"by": "sir_stephen", "type": "accept_offer", "offer": "o1"})
    assert refused is not None and "not all there" in str(refused)


def test_two_cards_of_a_kind_are_one_offer_and_the_same_offer_twice_is_refused():
    game = position(hand={"lady_lauren": ["water", "water", "cash"]})
    hand = game.state.characters["lady_lauren"].hand
    offers = [a for a in game.legal_actions("lady_lauren") if a["type"] == "offer"]
    assert sorted((a["to"], a["give"][0]) for a in offers) == sorted(
        (to, card) for to in SEATS[1:] for card in (hand[0], hand[2]))
    game.apply({"by": "lady_lauren", "type": "offer", "to": "sir_stephen", "give": [hand[1]],
                "take": []})
    # the same water again, or the other water, is the same offer
    for card in (hand[0], hand[1], "water"):
        refused = refusal(game, {"by": "lady_lauren", "type": "offer", "to": "sir_stephen",
                                 "give": [card], "take": []})
        assert refused is not None and "already open" in str(refused)
    listed = {(a["to"], game.state.table.kinds[a["give"][0]])
              for a in game.legal_actions("lady_lauren") if a["type"] == "offer"}
    assert ("sir_stephen", "water") not in listed and ("the_kid", "water") in listed
    # two waters at once are an offer of their own
    game.apply({"by": "lady_lauren", "type": "offer", "to": "sir_stephen",
                "give": [hand[0], hand[1]], "take": []})
    assert game.view("sir_stephen")["offers"][-1]["give"] == ["water", "water"]


def _marked_position():
    """Lady Lauren holds two Liquid Courages, the second drunk this round (R-LC-1: the marker
    stays with the card, here one robbed back into a hand)."""
    game = position("liquid_courage", hand={"lady_lauren": ["liquid_courage", "liquid_courage"]})
    drunk = game.state.characters["lady_lauren"].hand[1]
    game.state.card_markers = {"drunk": [drunk]}
    game.refresh()
    return game, drunk


def test_an_offer_keeps_the_markers_of_what_it_gives():
    game, drunk = _marked_position()
    fresh = game.state.characters["lady_lauren"].hand[0]
    offers = [a["give"][0] for a in game.legal_actions("lady_lauren")
              if a["type"] == "offer" and a["to"] == "sir_stephen"]
    assert sorted(offers) == sorted([fresh, drunk])       # two different cards to give
    game.apply({"by": "lady_lauren", "type": "offer", "to": "sir_stephen", "give": [drunk],
                "take": []})
    shown = game.view("sir_stephen")["offers"][0]
    assert shown["give"] == ["liquid_courage"] and shown["give_markers"] == [["drunk"]]
    event = [e for e in game.events_for("sir_stephen") if e["type"] == "offer"][0]
    assert event["give_markers"] == [["drunk"]]
    game.apply({"by": "sir_stephen", "type": "accept_offer", "offer": "o1"})
    (got,) = game.state.characters["sir_stephen"].hand
    assert game.state.card_markers["drunk"] == [got]       # the drunk one, not the fresh one
    assert game.state.characters["lady_lauren"].hand == [fresh]


def test_an_unmarked_offer_gives_an_unmarked_card():
    game, drunk = _marked_position()
    game.apply({"by": "lady_lauren", "type": "offer", "to": "sir_stephen",
                "give": ["liquid_courage"], "take": []})
    # the kind names the first such card of the hand: the fresh one
    assert "give_markers" not in game.view("sir_stephen")["offers"][0]
    game.apply({"by": "sir_stephen", "type": "accept_offer", "offer": "o1"})
    assert game.state.characters["lady_lauren"].hand == [drunk]


def test_a_version_3_save_with_an_open_offer_is_read_with_kinds():
    game, water = water_offered()
    old = copy.deepcopy(game.to_dict())
    assert old["version"] == saving.VERSION == 4
    old["version"] = 3
    old["state"]["offers"][0]["give"] = [water]         # version 3 kept the id
    old["state"]["offers"][0].pop("give_markers", None)
    restored = lr.Game.from_dict(old)
    assert restored.state.offers == game.state.offers
    restored.apply({"by": "sir_stephen", "type": "accept_offer", "offer": "o1"})
    assert [restored.state.table.kinds[c] for c in
            restored.state.characters["sir_stephen"].hand] == ["water"]


def test_a_saved_offer_must_name_kinds():
    game, water = water_offered()
    data = copy.deepcopy(game.to_dict())
    data["state"]["offers"][0]["give"] = [water]
    try:
        lr.Game.from_dict(data)
    except lr.ContentError as error:
        assert "offers[0].give" in str(error)
    else:
        raise AssertionError("an offer naming an id in a version-4 save was read")
