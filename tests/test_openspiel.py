"""``python_lifeboat`` under OpenSpiel (docs/agents.md): its random-simulation test, its MCTS bot
playing against uniform random bots, explicit chance for the deal, tensors and strings."""

from __future__ import annotations

import json

import pytest

pyspiel = pytest.importorskip("pyspiel", reason="the OpenSpiel adapter needs the rl extra: "
                                                "pip install -e '.[rl]' (CI installs it)")
import numpy as np  # noqa: E402
from open_spiel.python.algorithms import evaluate_bots, mcts  # noqa: E402
from open_spiel.python.bots import uniform_random  # noqa: E402

import lifeboat_rules as lr  # noqa: E402
import lifeboat_rules.openspiel  # noqa: E402,F401  (registers python_lifeboat)
from lifeboat_rules.encoding import Encoder  # noqa: E402


def dealt(game, seed_bytes=(7, 1, 0, 0)):
    state = game.new_initial_state()
    for byte in seed_bytes:
        assert state.is_chance_node()
        assert state.chance_outcomes() == [(b, 1 / 256) for b in range(256)]
        state.apply_action(byte)
    return state


@pytest.mark.slow
def test_random_sim_test():
    pyspiel.random_sim_test(pyspiel.load_game("python_lifeboat"), num_sims=2, serialize=True,
                            verbose=False)


@pytest.mark.slow
def test_random_sim_test_other_parameters():
    game = pyspiel.load_game("python_lifeboat",
                             {"ruleset": "cannibalism", "players": 4, "reward": "score"})
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


def test_game_sizes_and_parameters():
    game = pyspiel.load_game("python_lifeboat", {"players": 5})
    sample = lr.new_game("classic", players=5, seed=0)
    assert game.num_players() == 5
    assert game.num_distinct_actions() == sample.num_actions
    assert game.max_chance_outcomes() == 256
    encoder = Encoder(sample.ruleset, 5)
    assert game.observation_tensor_size() == encoder.size
    assert game.information_state_tensor_size() == encoder.size + encoder.knowledge_size
    assert game.get_type().chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    with pytest.raises(Exception):
        pyspiel.load_game("python_lifeboat", {"players": 9})


def test_the_chance_nodes_draw_the_deal_seed():
    """Four chance bytes, least significant first, make the seed of ``new_game``; then the
    players are the seats at the deal and play the game's integer actions."""
    game = pyspiel.load_game("python_lifeboat")
    state = dealt(game, (7, 1, 0, 0))
    reference = lr.new_game("classic", players=6, seed=7 + 256)
    assert state.game.log == reference.log
    seats = reference.state.seats[:]          # at the deal
    for _ in range(60):
        player = state.current_player()
        assert seats[player] == reference.pending[0].by
        assert state.legal_actions() == reference.legal_ids(reference.pending[0].by)
        action = state.legal_actions()[len(reference.log) % len(state.legal_actions())]
        reference.apply_id(reference.pending[0].by, action)
        state.apply_action(action)
    assert state.game.log == reference.log


def test_clone_is_independent_and_serialize_restores():
    game = pyspiel.load_game("python_lifeboat")
    state = dealt(game)
    copy = state.clone()
    copy.apply_action(copy.legal_actions()[0])
    assert len(copy.game.log) > len(state.game.log)
    restored = game.deserialize_state(copy.serialize())
    assert restored.game.to_dict() == copy.game.to_dict()
    assert restored.history() == copy.history()


def test_observations_are_the_players_own():
    """A player's observation tensor and string come from its view: the same in a copy where
    what it cannot see is dealt again; the information state keeps the whole log it saw."""
    game = pyspiel.load_game("python_lifeboat")
    state = dealt(game, (3, 0, 0, 0))
    rnd = np.random.default_rng(5)
    for _ in range(50):
        state.apply_action(int(rnd.choice(state.legal_actions())))
    lgame = state.game
    encoder = Encoder(lgame.ruleset, 6)
    for player, character in enumerate(state.seats):
        tensor = state.observation_tensor(player)
        assert tensor == pytest.approx(encoder.observation(lgame, character))
        assert json.loads(state.observation_string(player)) == lgame.view(character)
        info = json.loads(state.information_state_string(player))
        assert info["log"] == lgame.events_for(character)
        assert info["love"] == lgame.state.characters[character].love
        assert len(state.information_state_tensor(player)) == game.information_state_tensor_size()
        other = state.clone()
        other.dealt.game = lgame.determinize(character, 11)
        assert other.observation_tensor(player) == tensor
        assert other.information_state_string(player) == state.information_state_string(player)
    strings = {state.information_state_string(p) for p in range(6)}
    assert len(strings) == 6


@pytest.mark.slow
def test_mcts_bot_plays_against_uniform_random_bots():
    """OpenSpiel's own MCTS bot (random rollouts) plays whole games against its uniform
    random bots; the returns are win shares."""
    game = pyspiel.load_game("python_lifeboat", {"players": 4})
    rng = np.random.RandomState(3)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    for _ in range(2):
        bots = [mcts.MCTSBot(game, 2.0, 6, evaluator, random_state=rng, solve=False)]
        bots += [uniform_random.UniformRandomBot(p, rng) for p in range(1, 4)]
        returns = evaluate_bots.evaluate_bots(game.new_initial_state(), bots, rng)
        assert len(returns) == 4 and sum(returns) == pytest.approx(1.0)
        assert all(r in (0.0, 1.0, 0.5, 1 / 3, 0.25) for r in returns)
