"""Bots that sit in the web table's empty seats: the library's bots by name
(``lifeboat_rules.bots.BOTS``), each deciding for its own seat only (``choose(game, c)``), so
that a bot never takes the move of a human at the same table."""

from __future__ import annotations

from ..bots import BOTS, make_bot

__all__ = ["bot_names", "make_bot"]


def bot_names() -> list:
    return sorted(BOTS)
