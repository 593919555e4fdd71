"""Bots by name (lifeboat_rules/bots.py): the protocol the lab and the command line use."""

from __future__ import annotations

import pytest

import lifeboat_rules as lr
from lifeboat_rules.bots import BOTS, RandomBot, RandomPlayer, make_bot


def test_random_is_registered_and_unknown_names_are_refused():
    assert BOTS["random"] is RandomBot
    assert isinstance(make_bot("random", seed=3), RandomBot)
    with pytest.raises(ValueError, match="unknown bot 'wizard'; known bots: random"):
        make_bot("wizard")


def test_a_random_bot_chooses_a_legal_action_for_the_character_asked():
    game = lr.new_game("classic", players=5, seed=4)
    bots = {}
    for _ in range(400):
        if game.over:
            break
        character = game.pending[-1].by
        bot = bots.setdefault(character, make_bot("random", seed=len(bots)))
        action = bot.choose(game, character)
        assert action in game.legal_actions(character)
        assert action["by"] == character
        game.apply(action)


def test_the_same_seed_chooses_the_same_actions():
    def actions(seed):
        game = lr.new_game("classic", players=6, seed=8)
        bot = RandomBot(seed=seed)
        chosen = []
        while not game.over and len(chosen) < 200:
            chosen.append(bot.choose(game, game.pending[0].by))
            game.apply(chosen[-1])
        return chosen
    assert actions(1) == actions(1)
    assert actions(1) != actions(2)


def test_free_actions_are_taken_only_when_allowed_by_the_rate():
    """With free_rate 0 a bot plays, offers or answers offers only when nothing else is legal;
    with free_rate 1 it picks among all its actions alike."""
    free = {"play", "preserve", "offer", "accept_offer", "decline_offer"}
    game = lr.new_game("classic", players=6, seed=2)
    never = RandomBot(seed=1, free_rate=0.0)
    always = RandomBot(seed=1, free_rate=1.0)
    took_free = 0
    for _ in range(300):
        if game.over:
            break
        character = game.pending[0].by
        legal = game.legal_actions(character)
        if any(a["type"] not in free for a in legal):
            assert never.choose(game, character)["type"] not in free
        took_free += always.choose(game, character)["type"] in free
        game.apply(never.choose(game, character))
    assert took_free > 0


def test_the_random_player_still_drives_any_pending_character():
    game = lr.new_game("classic", players=4, seed=5)
    player = RandomPlayer(5)
    while not game.over:
        action = player.act(game)
        assert action["by"] in {d.by for d in game.pending}
        game.apply(action)
    assert player.act(game) is None
