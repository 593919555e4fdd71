"""The Liquid Courage expansion and the all-in-one edition (docs/rules.md section X) where a
scenario cannot show it: dealt games (R-SETUP-1, R-SETUP-6), every combination with the
variants, the integer action space, and what the log must not hold (R-WONG-1).

Expected values come from the rules: 6 base characters, one more with each expansion.
"""

from __future__ import annotations

import itertools
import json

import pytest

import lifeboat_rules as lr
from lifeboat_rules.bots import RandomPlayer

import invariants as inv

ALL_EIGHT = ["lady_lauren", "sir_stephen", "the_captain", "first_mate", "madame_wong",
             "frenchy", "dr_harter", "the_kid"]
VARIANTS = ["shark", "quick", "single_card_rowing"]


# --------------------------------------------------------------------------- R-SETUP-1

@pytest.mark.rule("R-SETUP-1")
@pytest.mark.parametrize("ruleset, low, high", [
    ("liquid_courage", 4, 7),                                   # Liquid Courage alone: 4-7
    ("all_in_one", 4, 8),                                       # with Cannibalism: 4-8
    ({"expansions": ["cannibalism", "liquid_courage"]}, 4, 8),  # in either order
    ({"expansions": ["liquid_courage", "cannibalism"]}, 4, 8),
    ("cannibalism", 4, 7),
])
def test_player_counts_with_liquid_courage(ruleset, low, high):
    loaded = lr.load_ruleset(ruleset)
    assert list(loaded.players) == list(range(low, high + 1))
    for players in range(low, high + 1):
        assert len(lr.new_game(loaded, players=players, seed=players).state.seats) == players
    for players in (low - 1, high + 1):
        with pytest.raises(ValueError, match="R-SETUP-1"):
            lr.new_game(loaded, players=players, seed=1)


@pytest.mark.rule("R-SETUP-6")
def test_eight_players_sit_in_the_all_in_one_order():
    game = lr.new_game("all_in_one", players=8, seed=5)
    assert game.view(None)["seats"] == ALL_EIGHT               # Madame Wong after the First Mate
    seven = lr.new_game("liquid_courage", players=7, seed=5)
    assert seven.view(None)["seats"] == [c for c in ALL_EIGHT if c != "dr_harter"]


def test_the_content_of_the_expansion():
    content = lr.load_ruleset("all_in_one").content
    wong = content.characters["madame_wong"]
    assert (wong.size, wong.survival, wong.display("zh")) == (3, 9, "黄夫人")
    assert content.provisions["liquid_courage"].count == 3
    assert content.provisions["liquid_courage"].treasure_group is None      # R-LC-SCORE
    # 42 base provisions + the Cannibalism card and medical kit + 3 Liquid Courage
    assert content.card_count == 42 + 2 + 3
    assert len(content.navigation) == 24 + 4 + 3
    assert content.navigation["nav-11"].overboard.data() == {"marked": "drank"}
    assert content.navigation["nav-13"].thirst.data() == {
        "all_except": ["sir_stephen", "madame_wong", "lady_lauren", "the_kid"]}
    options = lr.load_ruleset("all_in_one").options
    assert options == {"swap_turn_order": "swapped_acts_next", "rowing": "keep_one",
                       "rowing_marker": "always", "window_pending": "public"}
    classic = lr.load_ruleset("classic").content
    assert "madame_wong" not in classic.characters and "liquid_courage" not in classic.provisions


def test_the_expansion_is_shipped_as_an_entry_point():
    from lifeboat_rules import plugins
    assert plugins.SHIPPED_PLUGINS["liquid_courage"] == "lifeboat_rules.expansions.liquid_courage"
    assert plugins.entry_point_plugins()["liquid_courage"] == [plugins.SHIPPED_PLUGINS["liquid_courage"]]
    module = plugins.import_plugin("liquid_courage", "<test>", "expansions[0]", "expansions")
    assert module.LIFEBOAT_KIND == "expansion"
    assert "liquid_courage" in plugins.every_shipped_plugin()["expansions"]
    with pytest.raises(lr.ContentError, match="expansion"):
        lr.load_ruleset({"variants": ["liquid_courage"]})


# --------------------------------------------------------------------------- combinations

COMBINATIONS = [(base, list(variants)) for base in ("liquid_courage", "all_in_one")
                for size in range(len(VARIANTS) + 1)
                for variants in itertools.combinations(VARIANTS, size)]


@pytest.mark.parametrize("base, variants", COMBINATIONS,
                         ids=["+".join([b] + v) for b, v in COMBINATIONS])
def test_every_combination_loads_and_plays(base, variants):
    ruleset = lr.load_ruleset({"extends": base, "variants": variants})
    players = max(ruleset.players)
    game = lr.new_game(ruleset, players=players, seed=11)
    assert game.num_actions <= 65_536
    bot = RandomPlayer(11, free_rate=0.3)
    steps = 0
    while not game.over:
        assert steps < inv.MAX_ACTIONS_PER_GAME
        if steps % 25 == 0:   # a save in the middle of the game continues identically
            inv.check_roundtrip(game)
            inv.check_canonical(game)
        game.apply(bot.act(game))
        steps += 1
    inv.check_all(game, deep=False)
    assert game.result["end"] in ("landed", "all_dead", "adrift")


def test_the_integer_action_space_has_room_for_eight():
    for spec in ("all_in_one", {"extends": "all_in_one", "variants": VARIANTS}):
        game = lr.new_game(spec, players=8, seed=1)
        assert game.num_actions <= 65_536
        block = game.space.blocks["drink"]
        # one value per card of the game, and one for Madame Wong's drink without a card
        assert block.size == game.ruleset.content.card_count + 1


@pytest.mark.rule("R-LC-1")
def test_drinks_are_listed_by_card_and_the_shared_drink_without_one():
    game = lr.new_game("liquid_courage", setup={
        "seats": ["lady_lauren", "madame_wong", "the_kid"], "phase": "action",
        "hand": {"lady_lauren": ["liquid_courage", "liquid_courage"], "madame_wong": ["water"]}})
    drinks = [a for a in game.legal_actions("lady_lauren") if a["type"] == "drink"]
    first, second = game.state.characters["lady_lauren"].hand
    assert drinks == [{"by": "lady_lauren", "type": "drink", "card": first},
                      {"by": "lady_lauren", "type": "drink", "card": second}]
    assert not [a for a in game.legal_actions("madame_wong") if a["type"] == "drink"]
    game.apply({"by": "lady_lauren", "type": "drink", "card": "liquid_courage"})
    assert [a for a in game.legal_actions("lady_lauren") if a["type"] == "drink"] == []
    shared = {"by": "madame_wong", "type": "drink"}
    assert shared in game.legal_actions("madame_wong")
    assert game.action_of("madame_wong", game.action_id(shared)) == shared
    view = game.view("madame_wong")
    assert view["characters"]["lady_lauren"]["markers"] == ["drank"]
    assert view["card_markers"] == {"drunk": [first]}         # face up: everyone sees it


# --------------------------------------------------------------------------- R-WONG-1

def _thirst_game(wong_damage: int):
    return lr.new_game("liquid_courage", setup={
        "seats": ["lady_lauren", "sir_stephen", "madame_wong", "the_kid"],
        "damage": {"madame_wong": wong_damage}, "hand": {"lady_lauren": ["water", "water"]},
        "navigation": [{"id": "drought", "thirst": "all"}], "phase": "navigation"})


def _shared(events) -> list:
    return [e for e in events if e["type"] == "quench" and e["target"] == "madame_wong"]


@pytest.mark.rule("R-WONG-1")
def test_shared_water_cancels_no_more_than_her_thirst():
    game = _thirst_game(0)                 # everyone thirsty once
    first = game.apply({"by": "lady_lauren", "type": "water", "target": "sir_stephen"})
    assert _shared(first) == [{"type": "quench", "character": "lady_lauren",
                               "target": "madame_wong", "source": "shared_water", "amount": 1}]
    second = game.apply({"by": "lady_lauren", "type": "water", "target": "the_kid"})
    assert _shared(second) == []           # she has none left: nothing, not a quench of 0
    assert game.state.characters["madame_wong"].damage == 0


@pytest.mark.rule("R-WONG-1")
def test_a_dead_madame_wong_shares_nothing():
    game = _thirst_game(4)                 # dead: size 3
    assert not [e for e in game.log if e["type"] == "thirst" and e["character"] == "madame_wong"]
    events = game.apply({"by": "lady_lauren", "type": "water", "target": "sir_stephen"})
    assert _shared(events) == []


@pytest.mark.rule("R-LC-1")
def test_a_saved_game_keeps_the_round_s_drinks():
    game = lr.new_game("liquid_courage", setup={
        "seats": ["lady_lauren", "madame_wong", "the_kid"], "phase": "action",
        "hand": {"lady_lauren": ["liquid_courage"]}})
    card = game.state.characters["lady_lauren"].hand[0]
    game.apply({"by": "lady_lauren", "type": "drink", "card": card})
    restored = lr.Game.from_dict(json.loads(json.dumps(game.to_dict())))
    assert restored.legal_actions("madame_wong") == game.legal_actions("madame_wong")
    assert {"by": "madame_wong", "type": "drink"} in restored.legal_actions("madame_wong")
    with pytest.raises(lr.IllegalAction, match="R-LC-1"):
        restored.apply({"by": "lady_lauren", "type": "drink", "card": card})
