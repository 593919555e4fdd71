"""Bots that sit in the web table's empty seats, by name.

Each bot decides for one seat (``choose(game, character)``), so that it never takes the move
of a human at the same table.
"""

from __future__ import annotations

from ..bots import RandomPlayer


class _OneSeat:
    """A game as one seat's bot sees it: only that seat's decisions are pending."""

    def __init__(self, game, character: str):
        self._game = game
        self._character = character

    @property
    def pending(self) -> list:
        return [d for d in self._game.pending if d.by == self._character]

    def __getattr__(self, name):
        return getattr(self._game, name)


class RandomSeat:
    """``lifeboat_rules.bots.RandomPlayer`` deciding for one seat."""

    def __init__(self, seed: int | None = None):
        self.player = RandomPlayer(seed)

    def choose(self, game, character: str) -> dict | None:
        return self.player.act(_OneSeat(game, character))


BOTS = {"random": RandomSeat}


def bot_names() -> list:
    return sorted(BOTS)


def make_bot(name: str, seed: int | None = None):
    """A bot by name (a ``KeyError`` for a name not in ``bot_names()``)."""
    return BOTS[name](seed=seed)
