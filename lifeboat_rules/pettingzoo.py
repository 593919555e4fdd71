"""A PettingZoo AEC environment of Lifeboat (docs/agents.md): ``env(ruleset, players, seed)``.

Needs the optional extra ``rl`` (``pip install '.[rl]'`` in the source folder: pettingzoo,
gymnasium, numpy); the core does not import this module.

* ``env(...)`` is ``raw_env(...)`` in PettingZoo's usual wrappers, as its own classic games
  are: ``TerminateIllegalWrapper`` (an illegal move ends the game, -1 to its player),
  ``AssertOutOfBoundsWrapper`` and ``OrderEnforcingWrapper`` (a ``step`` or ``observe``
  before ``reset`` is refused with its message).
* Agents ``player_0`` .. ``player_{n-1}`` are the seats at the deal, bow to stern; each keeps
  its character for the whole game (``infos[agent]["character"]``), also once it is lost.
* One agent acts at a time: the one of the first pending decision (``game.pending[0]``; the
  game lists pending decisions in seat order, ghosts last). Its legal moves are its integer
  actions (``game.legal_ids``): free moves (playing a card face up, trading) are offered to it
  too, and after one it is asked again. A character that is not pending takes no free move.
* Observation: ``{"observation": float32 vector, "action_mask": int8 vector}``; the vector is
  ``encoding.Encoder.observation`` (layout in docs/agents.md), the mask has ``game.num_actions``
  entries, 1 for each legal action of the agent (all 0 for an agent that is not to act).
  With ``flatten=True`` the observation is the vector alone (a ``Box``) and the mask is in
  ``infos[agent]["action_mask"]``, for libraries that want one array (Stable-Baselines3,
  RLlib, SuperSuit).
* ``state()``: the whole game as one vector (``state_space``), for centralised critics: every
  seat's observation in seat order (so every hand, love and hate), then what nobody sees:
  the supply deck, the cards being passed and the removed cards by kind, and the navigation
  deck, the cards drawn and the rowing pile (``Encoder.whole``).
* Rewards come once, when the game ends: ``reward="win"`` (the default) gives each winner its
  share of the win (1, or 1/k for a k-way tie) and the others 0; ``reward="score"`` gives every
  player its final score (R-SCORE). Every agent is then terminated. After ``max_cycles``
  times the number of agents moves (default 1,000 cycles) a game not over is truncated:
  every agent, no reward.
* ``reset(seed=s)`` deals the game of seed ``s`` (``lifeboat_rules.new_game``): the same seed
  and the same actions give the same game. Without a seed, ``env(seed=...)`` seeds the first
  reset and each later reset deals the next seed; without either, a random one.
* ``SingleSeat(...)``: one seat as a Gymnasium environment, the other seats played by a bot
  of ``lifeboat_rules.bots`` (default ``heuristic``): the flat observation, the mask in
  ``info["action_mask"]`` and ``action_masks()``; an illegal action ends the episode with
  -1.
* Who is pending follows the ruleset: the default (R-WIN-2, public facts only), or
  ``window_pending: holders`` as given (R-WIN-3: then ``agent_selection`` tells who holds
  what).
"""

from __future__ import annotations

import random

import gymnasium
import numpy as np
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

import lifeboat_rules as lr
from .bots import make_bot
from .encoding import Encoder

REWARDS = ("win", "score")
MAX_CYCLES = 1_000
ILLEGAL_REWARD = -1.0


def env(ruleset="classic", players: int = 6, seed: int | None = None, reward: str = "win",
        render_mode: str | None = None, max_cycles: int = MAX_CYCLES,
        flatten: bool = False):
    """A Lifeboat AEC environment in PettingZoo's usual wrappers (see the module's
    docstring)."""
    wrapped = raw_env(ruleset=ruleset, players=players, seed=seed, reward=reward,
                      render_mode=render_mode, max_cycles=max_cycles, flatten=flatten)
    wrapped = wrappers.TerminateIllegalWrapper(wrapped, illegal_reward=ILLEGAL_REWARD)
    wrapped = wrappers.AssertOutOfBoundsWrapper(wrapped)
    return wrappers.OrderEnforcingWrapper(wrapped)


def raw_env(ruleset="classic", players: int = 6, seed: int | None = None, reward: str = "win",
            render_mode: str | None = None, max_cycles: int = MAX_CYCLES,
            flatten: bool = False) -> "LifeboatEnv":
    """The environment without wrappers."""
    return LifeboatEnv(ruleset=ruleset, players=players, seed=seed, reward=reward,
                       render_mode=render_mode, max_cycles=max_cycles, flatten=flatten)


class LifeboatEnv(AECEnv):
    metadata = {"name": "lifeboat_v0", "render_modes": ["human", "ansi"],
                "is_parallelizable": False}

    def __init__(self, ruleset="classic", players: int = 6, seed: int | None = None,
                 reward: str = "win", render_mode: str | None = None,
                 max_cycles: int = MAX_CYCLES, flatten: bool = False):
        super().__init__()
        if type(max_cycles) is not int or max_cycles < 1:
            raise ValueError(f"max_cycles is a whole number of cycles, 1 or more, not "
                             f"{max_cycles!r}")
        self.max_cycles = max_cycles
        self.flatten = flatten
        if reward not in REWARDS:
            raise ValueError(f"reward is one of {REWARDS}, not {reward!r}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode is one of {self.metadata['render_modes']}")
        self.ruleset = lr.load_ruleset(ruleset)
        self.players = players
        self.reward_kind = reward
        self.render_mode = render_mode
        self._next_seed = seed
        self.encoder = Encoder(self.ruleset, players)
        self.game = lr.new_game(self.ruleset, players=players, seed=0)   # for the sizes
        self.num_actions = self.game.num_actions
        self.possible_agents = [f"player_{i}" for i in range(players)]
        self.characters = dict(zip(self.possible_agents, self.game.state.seats))
        vector = gymnasium.spaces.Box(0.0, 1.0, (self.encoder.size,), np.float32)
        observation = vector if flatten else gymnasium.spaces.Dict({
            "observation": vector,
            "action_mask": gymnasium.spaces.Box(0, 1, (self.num_actions,), np.int8)})
        self.observation_spaces = {a: observation for a in self.possible_agents}
        self.state_space = gymnasium.spaces.Box(0.0, 1.0, (self.encoder.whole_size,), np.float32)
        self.action_spaces = {a: gymnasium.spaces.Discrete(self.num_actions)
                              for a in self.possible_agents}
        self.agents = []

    def observation_space(self, agent):
        return self.observation_spaces[agent]

    def action_space(self, agent):
        return self.action_spaces[agent]

    # ------------------------------------------------------------------ the game

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        if seed is None:
            seed = self._next_seed
        if seed is None:
            seed = random.SystemRandom().getrandbits(62)
        self._next_seed = seed + 1
        self.game = lr.new_game(self.ruleset, players=self.players, seed=seed)
        self.characters = dict(zip(self.possible_agents, self.game.state.seats))
        self.agent_of = {c: a for a, c in self.characters.items()}
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0 for a in self.agents}
        self._cumulative_rewards = {a: 0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {"character": self.characters[a]} for a in self.agents}
        self.moves = 0
        self._update()

    def _update(self) -> None:
        """After a move: whose turn it is, and at the end the rewards and terminations (or,
        after ``max_cycles`` cycles, the truncations)."""
        game = self.game
        if game.over:
            result = game.result
            winners = result["winners"]
            for agent in self.agents:
                character = self.characters[agent]
                if self.reward_kind == "win":
                    self.rewards[agent] = 1.0 / len(winners) if character in winners else 0.0
                else:
                    self.rewards[agent] = float(result["scores"][character])
                self.terminations[agent] = True
            self._accumulate_rewards()
            self.agent_selection = self.agents[0]
        elif self.moves >= self.max_cycles * len(self.possible_agents):
            for agent in self.agents:
                self.truncations[agent] = True
            self.agent_selection = self.agents[0]
        else:
            self.agent_selection = self.agent_of[game.pending[0].by]
        if self.flatten:
            for agent in self.agents:
                self.infos[agent]["action_mask"] = self.mask(agent)

    def mask(self, agent) -> np.ndarray:
        """1 for each legal action of ``agent`` (all 0 unless it is to act)."""
        mask = np.zeros(self.num_actions, dtype=np.int8)
        game = self.game
        if not game.over and agent == self.agent_selection and not self.truncations[agent]:
            mask[game.legal_ids(self.characters[agent])] = 1
        return mask

    def observe(self, agent):
        character = self.characters[agent]
        vector = np.asarray(self.encoder.observation(self.game, character), dtype=np.float32)
        if self.flatten:
            return vector
        return {"observation": vector, "action_mask": self.mask(agent)}

    def state(self) -> np.ndarray:
        """The whole game as one vector (see the module's docstring)."""
        return np.asarray(self.encoder.whole(self.game, list(self.characters.values())),
                          dtype=np.float32)

    def step(self, action) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0
        for other in self.agents:
            self.rewards[other] = 0
        self.game.apply_id(self.characters[agent], int(action))
        self.moves += 1
        self._update()
        if self.render_mode == "human":
            self.render()

    def render(self):
        """The last move in words as a spectator is told it (``game.feed(None)``: no hidden
        card named, whoever watches the screen); ``ansi`` returns it, ``human`` prints it."""
        if self.render_mode is None:
            gymnasium.logger.warn("render() was called without a render_mode")
            return None
        game = self.game
        last = max((i for i, e in enumerate(game.log) if e["type"] == "action"), default=0)
        text = "\n".join(entry["text"] for entry in game.feed(None, since=last))
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        pass


class SingleSeat(gymnasium.Env):
    """One seat of Lifeboat as a Gymnasium environment (see the module's docstring):
    ``SingleSeat(ruleset, players, seat=0, opponents="heuristic", reward="win")``."""

    metadata = {"render_modes": []}

    def __init__(self, ruleset="classic", players: int = 6, seat: int = 0,
                 opponents: str = "heuristic", reward: str = "win"):
        super().__init__()
        self.inner = raw_env(ruleset=ruleset, players=players, reward=reward, flatten=True)
        self.agent = self.inner.possible_agents[seat]
        self.opponents = opponents
        self.observation_space = self.inner.observation_space(self.agent)
        self.action_space = self.inner.action_space(self.agent)
        self.bots: dict = {}

    def reset(self, *, seed: int | None = None, options: dict | None = None):
        super().reset(seed=seed)
        if seed is None:
            seed = int(self.np_random.integers(2 ** 62))
        self.inner.reset(seed=seed)
        self.bots = {agent: make_bot(self.opponents, seed=seed * 10 + i)
                     for i, agent in enumerate(self.inner.possible_agents) if agent != self.agent}
        self._play_others()
        return self.inner.observe(self.agent), self._info()

    def step(self, action):
        inner = self.inner
        if not inner.mask(self.agent)[int(action)]:
            return inner.observe(self.agent), ILLEGAL_REWARD, True, False, self._info()
        inner.step(int(action))
        self._play_others()
        over = inner.game.over
        truncated = not over and inner.truncations[self.agent]
        reward = float(inner.rewards[self.agent]) if over else 0.0
        return inner.observe(self.agent), reward, over, truncated, self._info()

    def action_masks(self) -> np.ndarray:
        """The legal actions now (what sb3-contrib's ``MaskablePPO`` asks for)."""
        return self.inner.mask(self.agent)

    def _info(self) -> dict:
        return {"action_mask": self.inner.mask(self.agent),
                "character": self.inner.characters[self.agent]}

    def _play_others(self) -> None:
        inner = self.inner
        while not inner.game.over and not inner.truncations[self.agent] \
                and inner.agent_selection != self.agent:
            agent = inner.agent_selection
            character = inner.characters[agent]
            action = self.bots[agent].choose(inner.game, character)
            inner.step(inner.game.action_id(action))
