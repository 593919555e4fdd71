"""Bots: programs that play a character, for simulations, tests and benchmarks.

A bot is made with ``Bot(seed=...)`` and answers ``bot.choose(game, c)`` with one action dict
from ``game.legal_actions(c)``, for a character ``c`` the game is waiting for. It may keep
state between calls (its random generator); the balance lab makes one bot per seat and game.

Bots are found by name (``lifeboat-rules simulate --bots random,random``) in ``BOTS``. Adding
a bot is one line there, e.g. ``"heuristic": HeuristicBot,``: any class taking ``seed=`` and
answering ``choose(game, c)`` will do.
"""

from __future__ import annotations

import random
import time
from typing import TYPE_CHECKING, Callable, Protocol

from .engine import new_game
from .heuristic import HeuristicBot
from .search import SearchBot

__all__ = ["Bot", "RandomBot", "HeuristicBot", "SearchBot", "BOTS", "bot_names", "make_bot",
           "PacedBot", "paced_bot", "shown_at", "PACED_SECONDS", "PACED_SEARCH_BUDGET",
           "PACED_SEARCH_SECONDS", "free_types", "RandomPlayer", "play_random_game"]

if TYPE_CHECKING:
    from .engine import Game
    from .rulesets import Ruleset
    from .types import Action


class Bot(Protocol):
    """What the lab, the web table and the command line need of a bot: ``choose(game, c)``
    answers one of ``game.legal_actions(c)`` for a character ``c`` the game waits for."""

    def choose(self, game: Game, character: str) -> Action:
        """One of ``game.legal_actions(character)``, to apply now."""


def free_types(game: Game) -> frozenset[str]:
    """The action types a character may take at any time (play, preserve, trading, ...),
    as the ruleset's plugins register them."""
    return game.rules.free_names


class RandomBot:
    """Chooses uniformly among a character's legal actions.

    Free actions (playing a card face up, the life preserver, trade offers and answers) are
    chosen only with probability ``free_rate`` when something else is legal, so that a random
    game still moves on instead of playing and offering cards for ever.
    """

    def __init__(self, seed: int | None = None, free_rate: float = 0.05) -> None:
        self.random = random.Random(seed)
        self.free_rate = free_rate

    def choose(self, game: Game, character: str) -> Action:
        rnd = self.random
        actions = game.legal_actions(character)
        free = free_types(game)
        decided = [a for a in actions if a["type"] not in free]
        if decided and (rnd.random() >= self.free_rate or len(decided) == len(actions)):
            return decided[rnd.randrange(len(decided))]
        return actions[rnd.randrange(len(actions))]


# Bots by name. Issue #10 adds "heuristic" and "search" here, one line each.
BOTS: dict[str, Callable[..., Bot]] = {
    "random": RandomBot,
    "heuristic": HeuristicBot,
    "search": SearchBot,
}


def bot_names() -> list[str]:
    """The names of the registered bots, sorted."""
    return sorted(BOTS)


def make_bot(name: str, seed: int | None = None, **options: object) -> Bot:
    """The bot registered as ``name``, seeded, made with ``options`` (e.g. a search bot's
    ``budget``); ValueError naming the known bots otherwise."""
    try:
        factory = BOTS[name]
    except KeyError:
        raise ValueError(f"unknown bot {name!r}; known bots: {', '.join(bot_names())}") from None
    return factory(seed=seed, **options)


# A search bot where people watch it play: a hard bound in wall-clock seconds, and every
# decision shown a little after it (its overrun is at most one engine move or one deal)
PACED_SEARCH_BUDGET = 0.25
PACED_SEARCH_SECONDS = 0.3
# Any other bot: random and heuristic decide in 0.01 to 0.12 ms (tests/test_bots.py), so at
# 50 ms what they hold does not show through (a decision 400 times slower is shown when made)
PACED_SECONDS = 0.05


class PacedBot:
    """A bot as people watch it play (the web table, ``lifeboat-rules play``): each of its
    decisions is to be shown ``seconds`` after it began, however long it took, so that the
    time a bot takes tells nobody what it holds. (A search bot answers at once when one move is
    worth a search and thinks when several are: in a fight, whether it holds a weapon.)

    ``choose`` answers as ``bot.choose`` does and sets ``show_at``: the moment (``clock``'s
    time) before which the front end must not show that decision, nor anything after it. A
    decision that took longer than ``seconds`` is shown when it is made."""

    def __init__(self, bot: Bot, seconds: float, clock: Callable[[], float] = time.monotonic) -> None:
        self.bot = bot
        self.seconds = seconds
        self.clock = clock
        self.show_at = -float("inf")

    def choose(self, game: Game, character: str) -> Action:
        began = self.clock()
        action = self.bot.choose(game, character)
        self.show_at = shown_at(began, self.seconds, self.clock())
        return action


def shown_at(began: float, seconds: float, now: float) -> float:
    """When a decision begun at ``began`` and made by ``now`` may be shown at a pace of
    ``seconds`` (``PacedBot``): that long after it began, or now if it took longer; with no
    pace, at any time."""
    return max(began + seconds, now) if seconds > 0 else -float("inf")


def paced_bot(name: str, seed: int | None = None, clock: Callable[[], float] = time.monotonic) -> PacedBot:
    """The bot registered as ``name`` as front ends that people watch play it: ``search``
    bounded by ``PACED_SEARCH_BUDGET`` seconds of the wall clock (the CPU seconds of its
    default budget do not bound how long a decision takes on a busy server) and each decision
    shown ``PACED_SEARCH_SECONDS`` after it began; a bot with a ``paced_seconds`` attribute
    (one from outside the library that may think longer) shown that long after; any other
    ``PACED_SECONDS`` after (``random`` and ``heuristic`` decide in a fraction of a
    millisecond, but how small a fraction depends on what they hold)."""
    if BOTS.get(name) is SearchBot:
        return PacedBot(SearchBot(seed=seed, budget=PACED_SEARCH_BUDGET, clock=time.monotonic),
                        PACED_SEARCH_SECONDS, clock)
    bot = make_bot(name, seed)
    return PacedBot(bot, float(getattr(bot, "paced_seconds", PACED_SECONDS)), clock)


class RandomPlayer:
    """Plays every pending decision with one ``RandomBot``: picks one of the pending characters
    at random, then that character's action (the driver used by the tests and benchmarks)."""

    def __init__(self, seed: int | None = None, free_rate: float = 0.05) -> None:
        self.bot = RandomBot(seed, free_rate)

    @property
    def random(self) -> random.Random:
        return self.bot.random

    def act(self, game: Game) -> Action | None:
        """An action to apply now (for any pending character), or None if the game is over."""
        pending = game.pending
        if not pending:
            return None
        # the same generator as the bot's, in the same order as before the bot protocol
        decision = pending[self.random.randrange(len(pending))] if len(pending) > 1 else pending[0]
        return self.bot.choose(game, decision.by)


def play_random_game(ruleset: Ruleset | str, players: int, seed: int,
                     player_seed: int | None = None, free_rate: float = 0.05,
                     max_actions: int = 100_000) -> tuple[Game, int]:
    """Deal a game and play it to the end with random players; returns (game, actions)."""
    game = new_game(ruleset, players=players, seed=seed)
    bot = RandomPlayer(seed if player_seed is None else player_seed, free_rate)
    count = 0
    while not game.over:
        if count >= max_actions:
            raise RuntimeError(f"game {seed} did not end after {max_actions} actions")
        action = bot.act(game)
        if action is None:
            break
        game.apply(action)
        count += 1
    return game, count
