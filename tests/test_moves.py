"""Canonical moves, integer actions and each player's log (docs/api.md), as a bot, a learning
agent or a web server uses them."""

from __future__ import annotations

import json
import random

import pytest

import lifeboat_rules as lr
from lifeboat_rules.bots import RandomPlayer
from lifeboat_rules.stages import Window

import invariants as inv

SEATS = ["lady_lauren", "sir_stephen", "the_kid", "frenchy"]


def position(**setup):
    return lr.new_game(setup.pop("ruleset", "classic"),
                       setup={"seats": SEATS, "phase": "action", **setup})


# --------------------------------------------------------------------------- canonical moves

def test_each_move_is_listed_once_by_card_id():
    game = position(hand={"lady_lauren": ["water", "water", "knife"]},
                    front={"sir_stephen": ["oar", "oar"]})
    listed = game.legal_actions("lady_lauren")
    plays = [a for a in listed if a["type"] == "play"]
    assert [a["card"] for a in plays] == game.state.characters["lady_lauren"].hand
    robs = [(a["target"], a["card"]) for a in listed if a["type"] == "rob"]
    # the hand (if any) and each face-up card by its id; nothing by kind
    assert ("sir_stephen", "p4") in robs and ("sir_stephen", "p5") in robs
    assert not any(card == "oar" for _, card in robs)
    assert len(robs) == len(set(robs))
    # offers: a gift of each kind to each other awake character (an offer shows kinds, so the
    # two waters are one move: R-TRADE-1, docs/api.md)
    offers = [a for a in listed if a["type"] == "offer"]
    assert len(offers) == 2 * 3 and all(a["take"] == [] and len(a["give"]) == 1 for a in offers)
    hand = game.state.characters["lady_lauren"].hand
    assert {a["give"][0] for a in offers} == {hand[0], hand[2]}


def test_optional_fields_are_always_given_in_the_listing():
    game = lr.new_game("classic", setup={
        "seats": ["lady_lauren", "the_kid"], "hand": {"lady_lauren": ["water"]},
        "navigation": [{"id": "sun", "thirst": ["the_kid"]}], "phase": "navigation"})
    waters = [a for a in game.legal_actions("lady_lauren") if a["type"] == "water"]
    water = game.state.characters["lady_lauren"].hand[0]
    assert waters == [{"by": "lady_lauren", "type": "water", "target": "the_kid", "card": water}]
    # and apply takes the short form as an alias of the first water
    assert game.action_id({"by": "lady_lauren", "type": "water", "target": "the_kid"}) == \
        game.action_id(waters[0])


def test_a_pile_is_listed_in_the_order_drawn_and_taken_in_any_order():
    game = lr.new_game("classic", setup={"seats": ["lady_lauren", "the_kid"],
                                         "navigation": ["nav-25", "nav-30", "nav-31"],
                                         "phase": "action"})
    game.apply({"by": "lady_lauren", "type": "row"})
    piles = [a["pile"] for a in game.legal_actions("lady_lauren") if a["type"] == "place"]
    assert piles == [[], ["nav-25"], ["nav-30"], ["nav-25", "nav-30"]]
    other = game.clone()
    game.apply({"by": "lady_lauren", "type": "place", "pile": ["nav-30", "nav-25"]})
    other.apply({"by": "lady_lauren", "type": "place", "pile": ["nav-25", "nav-30"]})
    assert game.to_dict() == other.to_dict()


# --------------------------------------------------------------------------- integer actions

@pytest.mark.parametrize("ruleset", ["classic", "cannibalism", "shark", "quick", "single_card_rowing"])
def test_the_action_space_is_fixed_for_a_ruleset(ruleset):
    sizes = set()
    for players in lr.load_ruleset(ruleset).players:
        for seed in range(3):
            game = lr.new_game(ruleset, players=players, seed=seed)
            sizes.add(game.num_actions)
            bot = RandomPlayer(seed)
            for _ in range(60):
                if game.over:
                    break
                for who in game.state.characters:
                    assert all(0 <= i < game.num_actions for i in game.legal_ids(who))
                game.apply(bot.act(game))
                sizes.add(game.num_actions)
    assert len(sizes) == 1 and 0 < sizes.pop() <= 65_536


def test_apply_id_is_apply_of_action_of():
    for seed in range(4):
        game = lr.new_game("classic", players=5, seed=seed)
        twin = game.clone()
        bot = RandomPlayer(seed)
        while not game.over:
            action = bot.act(game)
            number = game.action_id(action)
            assert game.action_of(action["by"], number) == action
            assert number in game.legal_ids(action["by"])
            events = game.apply(action)
            assert twin.apply_id(action["by"], number) == events
        assert twin.result == game.result


def test_integers_that_stand_for_no_legal_move_are_refused():
    game = lr.new_game("classic", players=4, seed=3)
    who = game.pending[0].by
    before = json.dumps(game.to_dict(), sort_keys=True)
    legal = set(game.legal_ids(who))
    for number in (-1, game.num_actions, 10 ** 9, "3", 2.0, None):
        with pytest.raises(lr.IllegalAction):
            game.apply_id(who, number)
    refused = 0
    for number in range(game.num_actions):
        if number not in legal:
            with pytest.raises(lr.IllegalAction):
                game.apply_id(who, number)
            refused += 1
    with pytest.raises(lr.IllegalAction):
        game.apply_id("nobody", next(iter(legal)))
    assert refused == game.num_actions - len(legal)
    assert json.dumps(game.to_dict(), sort_keys=True) == before


def test_a_richer_offer_has_no_integer_but_applies():
    game = position(hand={"lady_lauren": ["water", "cash"], "sir_stephen": ["knife"]})
    offer = {"by": "lady_lauren", "type": "offer", "to": "sir_stephen", "give": ["water", "cash"],
             "take": ["knife"]}
    with pytest.raises(lr.IllegalAction, match="no integer"):
        game.action_id(offer)
    game.apply(offer)
    assert game.state.offers[0].give == ["water", "cash"]


def test_pending_is_in_seat_order():
    game = lr.new_game("classic", setup={
        "seats": ["the_kid", "lady_lauren", "frenchy"],
        "hand": {"the_kid": ["water"], "lady_lauren": ["water"], "frenchy": ["water"]},
        "navigation": [{"id": "sun", "thirst": "all"}], "phase": "navigation"})
    assert [d.by for d in game.pending] == ["the_kid", "lady_lauren", "frenchy"]
    assert {d.kind for d in game.pending} == {"thirst"}


# --------------------------------------------------------------------------- each player's log

def test_a_random_hand_card_robbed_is_seen_by_the_two_players_only():
    game = position(hand={"sir_stephen": ["knife"]})
    game.apply({"by": "lady_lauren", "type": "rob", "target": "sir_stephen", "card": "hand"})
    game.apply({"by": "sir_stephen", "type": "allow"})

    def robbed(viewer):
        return [e for e in game.events_for(viewer) if e["type"] == "robbed"][0]

    assert robbed("lady_lauren")["kind"] == "knife"
    assert robbed("sir_stephen")["kind"] == "knife"
    assert "kind" not in robbed("the_kid") and "kind" not in robbed(None)
    moves = [e for e in game.events_for("frenchy") if e["type"] == "move"]
    assert moves and all("kind" not in e for e in moves)
    # the unredacted log (what apply returned) has it all
    assert [e for e in game.log if e["type"] == "robbed"][0]["kind"] == "knife"


def test_the_cards_a_rower_keeps_are_the_rowers_secret():
    game = lr.new_game("classic", setup={"seats": ["lady_lauren", "the_kid"],
                                         "navigation": ["nav-25", "nav-30", "nav-31"],
                                         "phase": "action"})
    game.apply({"by": "lady_lauren", "type": "row"})
    game.apply({"by": "lady_lauren", "type": "place", "pile": ["nav-30"]})
    mine = game.events_for("lady_lauren")
    theirs = game.events_for("the_kid")
    assert len(mine) == len(theirs) == len(game.log)
    place = [e["action"] for e in theirs if e["type"] == "action" and e["action"]["type"] == "place"]
    assert place == [{"by": "lady_lauren", "type": "place"}]
    kept = [e["action"] for e in mine if e["type"] == "action" and e["action"]["type"] == "place"]
    assert kept[0]["pile"] == ["nav-30"]
    seen = {e.get("card") for e in theirs if e["type"] == "move"}
    assert not seen & {"nav-25", "nav-30"}


def test_nobody_sees_the_seed_and_offers_stay_between_two():
    game = position(hand={"lady_lauren": ["cash"], "sir_stephen": ["water"]})
    assert all("seed" not in e for e in game.events_for(None) if e["type"] == "setup")
    game.apply({"by": "lady_lauren", "type": "offer", "to": "sir_stephen", "give": ["cash"],
                "take": ["water"]})
    for viewer, sees in (("lady_lauren", True), ("sir_stephen", True), ("the_kid", False), (None, False)):
        offer = [e for e in game.events_for(viewer) if e["type"] == "offer"][0]
        assert ("give" in offer) is sees and ("take" in offer) is sees


def test_events_for_polls_from_an_index_and_refuses_strangers():
    game = lr.new_game("classic", players=4, seed=2)
    seen = game.events_for("lady_lauren") if "lady_lauren" in game.state.characters else game.events_for(None)
    assert game.events_for(None, len(game.log)) == []
    assert len(game.events_for(None, 1)) == len(game.log) - 1
    assert len(seen) == len(game.log)
    for bad in ("nobody", 3):
        with pytest.raises(ValueError):
            game.events_for(bad)
    with pytest.raises(ValueError):
        game.events_for(None, -1)


# --------------------------------------------------------------------------- listings kept

def _window_pass(game, action) -> bool:
    return action["type"] == "pass" and isinstance(game.top, Window)


@pytest.mark.parametrize("spec", inv.ruleset_specs(), ids=inv.spec_name)
def test_listings_kept_across_a_window_pass_are_the_listings_made_afresh(spec):
    """A pass in a window that stays open changes nothing but who has passed (R-WIN-2), so the
    engine keeps the other characters' listings (``Game._transact``). After every such pass,
    over random games of every built-in ruleset and combination (random options, so the
    ``holders`` way of deciding who is pending too), each character's listing is the one a
    copy of the game makes from nothing (``clone`` keeps no listing)."""
    kept = 0
    for number in range(inv.budget(12, 60)):
        rnd = random.Random(number)
        ruleset = inv.load(spec, inv.random_options(rnd))
        players = list(ruleset.players)[number % len(ruleset.players)]
        game = lr.new_game(ruleset, players=players, seed=number)
        bot = RandomPlayer(number, free_rate=0.1)
        while not game.over:
            action = bot.act(game)
            passed = _window_pass(game, action)
            # every listing asked for, so that there are listings to keep
            listed = {who: game.moves(who) for who in game.state.characters}
            game.apply(action)
            if not passed:
                continue
            fresh = game.clone()
            for who in game.state.characters:
                kept += game.moves(who) is listed[who]      # the very list: kept, not made again
                assert game.moves(who) == fresh.moves(who), (who, action)
                assert game.legal_actions(who) == fresh.legal_actions(who)
                assert game.legal_ids(who) == fresh.legal_ids(who)
    assert kept > 0     # the listings were kept, not made again
