"""The PettingZoo environment (docs/agents.md) under PettingZoo's own tests, and what it promises:
agents by seat, one current player, masks of the legal integer actions, observations in
[0, 1] built from the player's view only, rewards at the end."""

from __future__ import annotations

import re
import warnings

import pytest

pytest.importorskip("pettingzoo", reason="the PettingZoo adapter needs the rl extra: "
                                         "pip install -e '.[rl]' (CI installs it)")
import gymnasium  # noqa: E402
import numpy as np  # noqa: E402
from gymnasium.utils.env_checker import check_env  # noqa: E402
from pettingzoo.test import api_test, seed_test  # noqa: E402
from pettingzoo.utils import wrappers  # noqa: E402

import lifeboat_rules as lr  # noqa: E402
from lifeboat_rules.encoding import Encoder  # noqa: E402
from lifeboat_rules.pettingzoo import LifeboatEnv, SingleSeat, env, raw_env  # noqa: E402

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


def test_env_comes_in_pettingzoos_wrappers():
    """``env()`` is wrapped as PettingZoo's classic games are: a step before ``reset`` gets
    the order-enforcing wrapper's message, an illegal move ends the game with -1 to its
    player, and ``raw_env`` is the environment itself."""
    e = env(seed=3)
    assert isinstance(e, wrappers.OrderEnforcingWrapper)
    assert isinstance(e.unwrapped, LifeboatEnv) and isinstance(raw_env(), LifeboatEnv)
    with pytest.raises(AssertionError, match="reset"):
        e.step(0)
    e.reset()
    agent = e.agent_selection
    illegal = int(np.flatnonzero(e.observe(agent)["action_mask"] == 0)[0])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        e.step(illegal)
    assert all(e.terminations.values()) and e.rewards[agent] == -1


def test_max_cycles_truncates():
    """After ``max_cycles`` times the number of agents moves, a game not over is truncated
    for every agent, with no reward; each agent then steps out."""
    e = env(seed=4, max_cycles=3)
    e.reset()
    rnd = np.random.default_rng(0)
    moves = 0
    for agent in e.agent_iter():
        observation, reward, terminated, truncated, _ = e.last()
        if terminated or truncated:
            assert truncated and not terminated and reward == 0 and moves == 3 * 6
            e.step(None)
            continue
        e.step(int(rnd.choice(np.flatnonzero(observation["action_mask"]))))
        moves += 1
    assert e.agents == [] and not e.unwrapped.game.over
    with pytest.raises(ValueError, match="max_cycles"):
        raw_env(max_cycles=0)


def test_state_is_the_whole_game():
    """``state()`` (for a centralised critic): every seat's observation in seat order, then
    what nobody sees; a copy with the hidden cards dealt again has another state but the
    same observations for the player it was dealt for."""
    e = env(seed=6)
    e.reset()
    rnd = np.random.default_rng(1)
    for _ in range(40):
        agent = e.agent_selection
        e.step(int(rnd.choice(np.flatnonzero(e.observe(agent)["action_mask"]))))
    inner = e.unwrapped
    state = e.state()
    assert state.shape == inner.state_space.shape and inner.state_space.contains(state)
    size = inner.encoder.size
    for i, agent in enumerate(inner.possible_agents):
        assert np.array_equal(state[i * size:(i + 1) * size], e.observe(agent)["observation"])
    game = inner.game
    viewer = inner.characters["player_0"]
    inner.game = game.determinize(viewer, 5)
    assert not np.array_equal(e.state(), state)
    assert np.array_equal(e.state()[:size], state[:size])
    inner.game = game


def test_flat_observations_and_masks_in_infos():
    """``flatten=True``: the observation is the vector (a ``Box``), the mask is in
    ``infos[agent]["action_mask"]``; PettingZoo's API test passes with no warning."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        api_test(env(seed=1, flatten=True), num_cycles=300)
    assert not [str(w.message) for w in caught]
    e = env(seed=8, flatten=True)
    e.reset()
    space = e.observation_space("player_0")
    assert isinstance(space, gymnasium.spaces.Box) and space.shape == (e.unwrapped.encoder.size,)
    rnd = np.random.default_rng(3)
    for _ in range(100):
        agent = e.agent_selection
        character = e.infos[agent]["character"]
        for other in e.agents:
            mask = e.infos[other]["action_mask"]
            expected = e.unwrapped.game.legal_ids(character) if other == agent else []
            assert list(np.flatnonzero(mask)) == expected
        assert isinstance(e.observe(agent), np.ndarray)
        e.step(int(rnd.choice(np.flatnonzero(e.infos[agent]["action_mask"]))))


def test_single_seat_passes_gymnasiums_env_checker():
    """One seat as a Gymnasium environment (the others played by a bot) passes
    ``gymnasium.utils.env_checker.check_env``, and plays a whole game with its masks."""
    check_env(SingleSeat(players=4), skip_render_check=True)
    one = SingleSeat(players=5, seat=2, opponents="random")
    observation, info = one.reset(seed=11)
    assert one.observation_space.contains(observation)
    rnd = np.random.default_rng(4)
    over = False
    steps = 0
    while not over:
        assert np.array_equal(info["action_mask"], one.action_masks())
        action = int(rnd.choice(np.flatnonzero(info["action_mask"])))
        observation, reward, over, truncated, info = one.step(action)
        assert not truncated
        steps += 1
    assert one.inner.game.over and steps > 5
    result = one.inner.game.result
    me = info["character"]
    assert reward == (1 / len(result["winners"]) if me in result["winners"] else 0.0)
    one.reset(seed=11)
    illegal = int(np.flatnonzero(one.action_masks() == 0)[0])
    assert one.step(illegal)[1:3] == (-1.0, True)


def test_the_holders_option_passes_the_api_test():
    """A ruleset with ``window_pending: holders`` (R-WIN-3) is followed as given."""
    holders = {"name": "classic-holders", "extends": "classic",
               "options": {"window_pending": "holders"}}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        api_test(env(holders, players=5, seed=3), num_cycles=200)
    e = env(holders, players=5, seed=3)
    e.reset()
    assert e.unwrapped.game.rules.window_holders


def test_render_names_no_card_a_spectator_may_not_see():
    """An audit found render() words the last move as its actor sees it: the supply card a
    picker kept (R-SUPPLY-1) and the navigation cards a rower drew (R-ROW-1) were there for
    whoever watched the screen, and so was the card an offer gives (told to its taker only).
    It tells the move as a spectator is told it."""
    e = raw_env(ruleset="classic", players=5, render_mode="ansi")
    e.reset(seed=3)
    names = [p["name"] for p in e.unwrapped.game.ruleset.content.raw["provisions"].values()]
    picks = offers = rows = 0
    for _ in range(400):
        if not e.agents or all(e.terminations.values()):
            break
        agent = e.agent_selection
        legal = np.flatnonzero(e.observe(agent)["action_mask"])
        game = e.unwrapped.game
        e.step(int(legal[-1]))
        text = e.render()
        last = max(i for i, ev in enumerate(game.log) if ev["type"] == "action")
        move = game.log[last]["action"]["type"]
        if move in ("pick", "offer"):
            picks += move == "pick"
            offers += move == "offer"
            assert not any(name in text for name in names), text
        if move in ("row", "place"):
            rows += 1
            assert not re.search(r"(?i)navigation cards? \d|nav-", text), text
    assert picks and offers and rows
