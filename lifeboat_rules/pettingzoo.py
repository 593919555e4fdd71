"""A PettingZoo AEC environment of Lifeboat (docs/agents.md): ``env(ruleset, players, seed)``.

Needs the optional extra ``rl`` (``pip install '.[rl]'`` in the source folder: pettingzoo,
gymnasium, numpy); the core does not import this module.

* Agents ``player_0`` .. ``player_{n-1}`` are the seats at the deal, bow to stern; each keeps
  its character for the whole game (``infos[agent]["character"]``), also once it is lost.
* One agent acts at a time: the one of the first pending decision (``game.pending[0]``; the
  game lists pending decisions in seat order, ghosts last). Its legal moves are its integer
  actions (``game.legal_ids``): free moves (playing a card face up, trading) are offered to it
  too, and after one it is asked again. A character that is not pending takes no free move.
* Observation: ``{"observation": float32 vector, "action_mask": int8 vector}``; the vector is
  ``encoding.Encoder.observation`` (layout in docs/agents.md), the mask has ``game.num_actions``
  entries, 1 for each legal action of the agent (all 0 for an agent that is not to act).
* Rewards come once, when the game ends: ``reward="win"`` (the default) gives each winner its
  share of the win (1, or 1/k for a k-way tie) and the others 0; ``reward="score"`` gives every
  player its final score (R-SCORE). Every agent is then terminated; nothing is truncated.
* ``reset(seed=s)`` deals the game of seed ``s`` (``lifeboat_rules.new_game``): the same seed
  and the same actions give the same game. Without a seed, ``env(seed=...)`` seeds the first
  reset and each later reset deals the next seed; without either, a random one.
"""

from __future__ import annotations

import random

import gymnasium
import numpy as np
from pettingzoo import AECEnv

import lifeboat_rules as lr
from .encoding import Encoder

REWARDS = ("win", "score")


def env(ruleset="classic", players: int = 6, seed: int | None = None, reward: str = "win",
        render_mode: str | None = None) -> "LifeboatEnv":
    """A Lifeboat AEC environment (see the module's docstring)."""
    return LifeboatEnv(ruleset=ruleset, players=players, seed=seed, reward=reward,
                       render_mode=render_mode)


class LifeboatEnv(AECEnv):
    metadata = {"name": "lifeboat_v0", "render_modes": ["human", "ansi"],
                "is_parallelizable": False}

    def __init__(self, ruleset="classic", players: int = 6, seed: int | None = None,
                 reward: str = "win", render_mode: str | None = None):
        super().__init__()
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
        observation = gymnasium.spaces.Dict({
            "observation": gymnasium.spaces.Box(0.0, 1.0, (self.encoder.size,), np.float32),
            "action_mask": gymnasium.spaces.Box(0, 1, (self.num_actions,), np.int8)})
        self.observation_spaces = {a: observation for a in self.possible_agents}
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
        self._update()

    def _update(self) -> None:
        """After a move: whose turn it is, and at the end the rewards and terminations."""
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
        else:
            self.agent_selection = self.agent_of[game.pending[0].by]

    def observe(self, agent):
        character = self.characters[agent]
        vector = np.asarray(self.encoder.observation(self.game, character), dtype=np.float32)
        mask = np.zeros(self.num_actions, dtype=np.int8)
        if not self.game.over and agent == self.agent_selection:
            mask[self.game.legal_ids(character)] = 1
        return {"observation": vector, "action_mask": mask}

    def step(self, action) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0
        for other in self.agents:
            self.rewards[other] = 0
        self.game.apply_id(self.characters[agent], int(action))
        self._update()
        if self.render_mode == "human":
            self.render()

    def render(self):
        """The events of the last move in words (``lifeboat_rules.describe``); ``ansi``
        returns them, ``human`` prints them."""
        if self.render_mode is None:
            gymnasium.logger.warn("render() was called without a render_mode")
            return None
        game = self.game
        last = max((i for i, e in enumerate(game.log) if e["type"] == "action"), default=0)
        text = "\n".join(lr.describe(e, game) for e in game.log[last:]
                         if e["type"] not in ("action", "move", "marker"))
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        pass
