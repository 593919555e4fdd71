"""The game's random generator: ``shuffle`` is Fisher-Yates over ``below`` (it is written out
for speed, and every dealt game depends on its exact draws)."""

from __future__ import annotations

from hypothesis import given, strategies as st

from lifeboat_rules.rng import MASK, Rng


def fisher_yates(rng: Rng, items: list) -> None:
    for i in range(len(items) - 1, 0, -1):
        j = rng.below(i + 1)
        items[i], items[j] = items[j], items[i]


@given(st.integers(min_value=0, max_value=MASK), st.integers(min_value=0, max_value=120))
def test_shuffle_is_fisher_yates_over_below(state, size):
    mine, theirs = Rng(state), Rng(state)
    shuffled, expected = list(range(size)), list(range(size))
    mine.shuffle(shuffled)
    fisher_yates(theirs, expected)
    assert shuffled == expected
    assert mine.state == theirs.state   # the same draws: what follows stays the same too
