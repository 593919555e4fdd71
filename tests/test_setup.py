"""Dealt games (docs/rules.md section S, R-SETUP-1..6).

Scenario files start from explicit positions, so what dealing does is checked here, through
the public API (``new_game`` and views) wherever it can be seen there; the deck orders, which
no view shows, are read from the game state.
"""

from __future__ import annotations

from collections import Counter

import pytest

import lifeboat_rules as lr

BASE_SEAT_ORDER = ["lady_lauren", "sir_stephen", "the_captain", "first_mate", "frenchy", "the_kid"]
PROVISIONS = 42
NAVIGATION = 24
SEEDS = range(40)


def deal(players: int, seed: int):
    return lr.new_game("classic", players=players, seed=seed)


def in_play(game) -> list:
    return list(game.view(None)["characters"])


@pytest.mark.rule("R-SETUP-1")
@pytest.mark.parametrize("players", [4, 5, 6])
def test_four_to_six_players(players):
    game = deal(players, 1)
    assert len(in_play(game)) == players
    assert len(game.view(None)["seats"]) == players


@pytest.mark.rule("R-SETUP-1")
@pytest.mark.parametrize("players", [3, 7, 0, 2, -4, 100])
def test_other_player_counts_are_an_error(players):
    with pytest.raises(ValueError, match="R-SETUP-1"):
        deal(players, 1)


@pytest.mark.rule("R-SETUP-1")
@pytest.mark.parametrize("players", ["5", 5.0, None, True])
def test_a_player_count_is_an_int(players):
    with pytest.raises(ValueError):
        lr.new_game("classic", players=players, seed=1)


@pytest.mark.rule("R-SETUP-2")
@pytest.mark.parametrize("players", [4, 5, 6])
def test_one_character_per_player_dealt_at_random(players):
    dealt = set()
    for seed in SEEDS:
        chars = in_play(deal(players, seed))
        assert len(set(chars)) == players
        assert set(chars) <= set(BASE_SEAT_ORDER)
        dealt.add(frozenset(chars))
    if players < len(BASE_SEAT_ORDER):
        # at random: several different casts, and every character is dealt some time
        assert len(dealt) > 1
        assert set().union(*dealt) == set(BASE_SEAT_ORDER)


@pytest.mark.rule("R-SETUP-2")
def test_characters_not_dealt_are_out_of_the_game():
    for seed in SEEDS:
        game = deal(4, seed)
        chars = set(in_play(game))
        for who in chars:
            mine = game.view(who)
            assert mine["love"] in chars and mine["hate"] in chars
        assert set(game.view(None)["seats"]) == chars
        for absent in set(BASE_SEAT_ORDER) - chars:
            assert game.legal_actions(absent) == []
            with pytest.raises(ValueError):
                game.view(absent)


@pytest.mark.rule("R-SETUP-3")
@pytest.mark.parametrize("players, removed", [(4, 10), (5, 10), (6, 0)])
def test_ten_provisions_removed_with_four_or_five_players(players, removed):
    kinds_removed = set()
    for seed in SEEDS:
        game = deal(players, seed)
        public = game.view(None)
        assert public["removed_size"] == removed
        picker = game.pending[0].by
        passing = len(game.view(picker)["decision"]["cards"])
        hands = sum(c["hand_size"] for c in public["characters"].values())
        assert passing == players            # the supply phase has begun: one card per player
        assert public["supply_size"] + passing + hands + removed == PROVISIONS
        state = game.state                   # which cards were removed is secret: read the state
        assert len(state.removed) == removed
        kinds_removed.add(tuple(sorted(state.table.kinds[c] for c in state.removed)))
    if removed:
        assert len(kinds_removed) > 1        # chosen at random


@pytest.mark.rule("R-SETUP-4")
@pytest.mark.parametrize("players", [4, 5, 6])
def test_one_love_and_one_hate_card_per_character_in_play(players):
    loves_differ_from_hates = False
    someone_drew_themself = False
    for seed in SEEDS:
        game = deal(players, seed)
        chars = in_play(game)
        loves = {c: game.view(c)["love"] for c in chars}
        hates = {c: game.view(c)["hate"] for c in chars}
        # each deck holds exactly one card per character in play, and everyone gets one of each
        assert Counter(loves.values()) == Counter(chars)
        assert Counter(hates.values()) == Counter(chars)
        # secret: absent from the public view (docs/api.md, Views), and nobody sees another
        # player's cards
        public = game.view(None)
        assert "love" not in public and "hate" not in public
        for viewer in chars:
            for other, seen in game.view(viewer)["characters"].items():
                assert "love" not in seen and "hate" not in seen, (viewer, other)
        loves_differ_from_hates |= loves != hates
        someone_drew_themself |= any(c == loves[c] or c == hates[c] for c in chars)
    assert loves_differ_from_hates           # the two decks are shuffled apart
    assert someone_drew_themself             # a player may draw its own character


@pytest.mark.rule("R-SETUP-5")
@pytest.mark.parametrize("players", [4, 5, 6])
def test_one_provision_in_hand_each(players):
    for seed in SEEDS:
        game = deal(players, seed)
        for who in in_play(game):
            mine = game.view(who)
            assert mine["characters"][who]["hand_size"] == 1
            assert len(mine["characters"][who]["hand"]) == 1
        assert game.view(None)["discard"] == []


@pytest.mark.rule("R-SETUP-6")
@pytest.mark.parametrize("players", [4, 5, 6])
def test_seats_in_the_canonical_order(players):
    for seed in SEEDS:
        game = deal(players, seed)
        chars = set(in_play(game))
        assert game.view(None)["seats"] == [c for c in BASE_SEAT_ORDER if c in chars]


@pytest.mark.rule("R-SETUP-6")
def test_navigation_deck_shuffled_and_no_seagulls():
    content_order = list(lr.load_ruleset("classic").content.navigation)
    assert len(content_order) == NAVIGATION
    orders = set()
    for seed in SEEDS:
        game = deal(5, seed)
        public = game.view(None)
        assert public["seagulls"] == 0
        assert public["navigation_size"] == NAVIGATION
        assert public["rowing_pile_size"] == 0
        assert public["round"] == 1 and public["phase"] == "supply"
        deck = game.state.navigation            # the order is secret: read the state
        assert sorted(deck) == sorted(content_order)
        orders.add(tuple(deck))
    assert len(orders) == len(SEEDS)
    assert tuple(content_order) not in orders


@pytest.mark.rule("R-SETUP-1")
def test_the_ruleset_says_how_many_players():
    assert list(lr.load_ruleset("classic").players) == [4, 5, 6]
