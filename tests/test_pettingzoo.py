"""The PettingZoo environment (docs/agents.md) under PettingZoo's own tests, and what it promises:
agents by seat, one current player, masks of the legal integer actions, observations in
[0, 1] built from the player's view only, rewards at the end."""

from __future__ import annotations

import warnings

import pytest

pytest.importorskip("pettingzoo", reason="the PettingZoo adapter needs the rl extra: "
                                         "pip install -e '.[rl]' (CI installs it)")
import numpy as np  # noqa: E402
from pettingzoo.test import api_test, seed_test  # noqa: E402

import lifeboat_rules as lr  # noqa: E402
from lifeboat_rules.encoding import Encoder  # noqa: E402
from lifeboat_rules.pettingzoo import env  # noqa: E402

# api_test warns about dict observations and spaces: they are what the adapter promises
# ({"observation", "action_mask"}), as in PettingZoo's own classic games.
EXPECTED_WARNINGS = ("Observation is not a NumPy array",
                     "Observation space for each agent probably should be")


def test_api_test():
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        api_test(env(seed=1), num_cycles=400)
    unexpected = [str(w.message) for w in caught
                  if not str(w.message).startswith(EXPECTED_WARNINGS)]
    assert not unexpected, unexpected


def test_seed_test():
    seed_test(lambda: env(), num_cycles=200)


@pytest.mark.parametrize("ruleset,players", [("classic", 4), ("cannibalism", 7), ("shark", 5),
                                             ("all_in_one", 8)])
def test_other_rulesets_pass_the_api_test(ruleset, players):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        api_test(env(ruleset, players=players, seed=2), num_cycles=100)


def play_out(e, rnd):
    """Play the game with random legal actions; the agents in the order they acted."""
    order = []
    for agent in e.agent_iter():
        observation, reward, terminated, truncated, info = e.last()
        if terminated or truncated:
            e.step(None)
            continue
        order.append(agent)
        legal = np.flatnonzero(observation["action_mask"])
        e.step(int(rnd.choice(legal)))
    return order


def test_agents_are_the_seats_and_one_acts_at_a_time():
    e = env(seed=5)
    e.reset()
    game = e.game
    assert e.agents == [f"player_{i}" for i in range(6)]
    assert [e.infos[a]["character"] for a in e.agents] == game.state.seats
    rnd = np.random.default_rng(0)
    for _ in range(200):
        if game.over:
            break
        agent = e.agent_selection
        character = e.infos[agent]["character"]
        assert character == game.pending[0].by
        for other in e.agents:
            mask = e.observe(other)["action_mask"]
            if other == agent:
                assert list(np.flatnonzero(mask)) == game.legal_ids(character)
            else:
                assert not mask.any(), f"{other} is not to act but has legal actions"
        e.step(int(rnd.choice(np.flatnonzero(e.observe(agent)["action_mask"]))))


@pytest.mark.parametrize("reward", ["win", "score"])
def test_rewards_come_at_the_end(reward):
    e = env(seed=9, reward=reward)
    e.reset()
    characters = {a: e.infos[a]["character"] for a in e.agents}
    totals = {a: 0.0 for a in e.agents}
    rnd = np.random.default_rng(1)
    for agent in e.agent_iter():
        observation, cumulative, terminated, truncated, _ = e.last()
        totals[agent] += cumulative
        if not e.game.over:
            assert cumulative == 0
        e.step(None if terminated or truncated else
               int(rnd.choice(np.flatnonzero(observation["action_mask"]))))
    result = e.game.result
    assert e.agents == []
    if reward == "win":
        share = 1 / len(result["winners"])
        assert totals == {a: (share if characters[a] in result["winners"] else 0.0)
                          for a in totals}
        assert sum(totals.values()) == pytest.approx(1.0)
    else:
        assert totals == {a: float(result["scores"][characters[a]]) for a in totals}


def test_same_seed_same_game():
    logs = []
    for _ in range(2):
        e = env(seed=21)
        e.reset()
        play_out(e, np.random.default_rng(4))
        logs.append(e.game.log)
    assert logs[0] == logs[1]
    first = env(seed=21)
    first.reset()
    first.reset()          # a second reset deals the next seed
    assert first.game.log[0]["seed"] == 22


def test_observation_says_only_what_the_player_sees():
    """Two games that differ only in what a player cannot see (a determinized copy) give that
    player the same observation, and the vector changes with what it sees."""
    game = lr.new_game("classic", players=6, seed=14)
    encoder = Encoder(game.ruleset, 6)
    rnd = np.random.default_rng(2)
    seen = set()
    for _ in range(120):
        who = game.pending[0].by
        for viewer in game.state.characters:
            vector = encoder.observation(game, viewer)
            assert len(vector) == encoder.size and all(0.0 <= x <= 1.0 for x in vector)
            assert encoder.observation(game.determinize(viewer, 3), viewer) == vector
            seen.add(tuple(vector))
        game.apply_id(who, int(rnd.choice(game.legal_ids(who))))
    assert len(seen) > 200


def test_layout_adds_up():
    encoder = Encoder(lr.load_ruleset("classic"), 6)
    layout = encoder.layout()
    assert layout[0][1] == 0
    for (_, offset, length), (_, following, _) in zip(layout, layout[1:]):
        assert offset + length == following
    assert layout[-1][1] + layout[-1][2] == encoder.size
    assert [name for name, _, _ in layout] == ["me", "love", "hate", "characters", "hand", "board",
                                               "current", "decision", "stage"]
