"""Damage and status (R-STATUS). The status follows from damage and size
(``state.Character.status``); damage is taken through ``effects.damage``, which asks the
``lifeboat_damage`` hook how much is taken when a plugin implements it."""

from __future__ import annotations

from ..hookspecs import hookimpl


@hookimpl(trylast=True)
def lifeboat_damage(game, character, amount, cause):
    """The base game takes damage as dealt, never negative (the answer a wrapper adjusts)."""
    return max(0, amount)
