"""Damage and status (RULES.md: R-STATUS). The status itself is derived from damage and size
(``model.Character.status``); damage is taken through ``effects.damage``, which asks this hook
how much is taken, so that plugins can modify or prevent damage before it is taken."""

from __future__ import annotations

from ..hookspecs import hookimpl


@hookimpl(trylast=True)
def lifeboat_damage(game, character, amount, cause):
    """The base game takes damage as dealt; never negative."""
    return max(0, amount)
