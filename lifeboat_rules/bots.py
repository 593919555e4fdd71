"""Bots: programs that play a character, for simulations, tests and benchmarks.

A bot is made with ``Bot(seed=...)`` and answers ``bot.choose(game, c)`` with one action dict
from ``game.legal_actions(c)``, for a character ``c`` the game is waiting for. Bots are found
by name (``lifeboat-rules simulate --bots heuristic,random``) in ``BOTS``; ``RandomBot`` is
here, the others in their own modules (docs/agents.md).
"""

from __future__ import annotations

import random

from .engine import new_game
from .heuristic import HeuristicBot
from .search import SearchBot


class RandomBot:
    """Chooses uniformly among a character's legal actions; free actions (playing a card face
    up, the life preserver, trade offers and answers) only with probability ``free_rate`` when
    something else is legal, so that a random game still moves on."""

    def __init__(self, seed: int | None = None, free_rate: float = 0.05):
        self.random = random.Random(seed)
        self.free_rate = free_rate

    def choose(self, game, character: str) -> dict:
        rnd = self.random
        actions = game.legal_actions(character)
        free = game.rules.free_names
        decided = [a for a in actions if a["type"] not in free]
        if decided and (rnd.random() >= self.free_rate or len(decided) == len(actions)):
            return decided[rnd.randrange(len(decided))]
        return actions[rnd.randrange(len(actions))]


# Bots by name (the command line's --bots, the terminal game's opponents).
BOTS: dict = {"random": RandomBot, "heuristic": HeuristicBot, "search": SearchBot}


def make_bot(name: str, seed: int | None = None):
    """The bot registered as ``name``, seeded; ValueError naming the known bots otherwise."""
    try:
        factory = BOTS[name]
    except KeyError:
        raise ValueError(f"unknown bot {name!r}; known bots: {', '.join(sorted(BOTS))}") from None
    return factory(seed=seed)


class RandomPlayer:
    """Chooses uniformly among the legal actions of a pending decision.

    Free actions (playing a card face up, trade offers and answers) are taken with probability
    ``free_rate`` when there are some, so that a random game still moves on.
    """

    def __init__(self, seed: int | None = None, free_rate: float = 0.05):
        self.random = random.Random(seed)
        self.free_rate = free_rate

    def act(self, game) -> dict | None:
        """An action to apply now (for any pending character), or None if the game is over."""
        pending = game.pending
        if not pending:
            return None
        rnd = self.random
        decision = pending[rnd.randrange(len(pending))] if len(pending) > 1 else pending[0]
        actions = game.legal_actions(decision.by)
        free_names = game.rules.free_names
        decided = [a for a in actions if a["type"] not in free_names]
        if decided and (rnd.random() >= self.free_rate or len(decided) == len(actions)):
            return decided[rnd.randrange(len(decided))]
        return actions[rnd.randrange(len(actions))]


def play_random_game(ruleset, players: int, seed: int, player_seed: int | None = None,
                     free_rate: float = 0.05, max_actions: int = 100_000):
    """Deal a game and play it to the end with random players; returns (game, actions)."""
    game = new_game(ruleset, players=players, seed=seed)
    bot = RandomPlayer(seed if player_seed is None else player_seed, free_rate)
    count = 0
    while not game.over:
        if count >= max_actions:
            raise RuntimeError(f"game {seed} did not end after {max_actions} actions")
        game.apply(bot.act(game))
        count += 1
    return game, count
