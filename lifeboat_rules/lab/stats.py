"""Confidence intervals and paired tests (the ``lab`` extra: statsmodels and scipy).

- A win rate's 95% interval is the Wilson score interval (statsmodels ``proportion_confint``,
  ``method="wilson"``) of the win shares over the games played. Without ties it is the
  binomial Wilson interval. A tie gives fractional shares; the interval then takes the sum of
  shares as the count of successes. A share lies in [0, 1], so its variance is at most
  ``p (1 - p)`` for a mean ``p``: the interval is as wide as for whole wins or wider, never
  narrower than the data warrant.
- Two rulesets are compared by character on the same seeds, game by game: the difference of
  the character's win share (B minus A) in each game in which it is dealt under both, its
  mean, and the paired t-test (scipy ``ttest_rel``) with its 95% interval. Significant means
  p < 0.05 (the interval leaves out 0); ``p_holm`` adjusts the p-values of all characters for
  multiple testing (Holm, statsmodels ``multipletests``).
- A verdict (``--robust``) against an even share needs ``fewest_games``: the first number of
  games whose interval of no wins at all ends below the even share (and of all wins begins
  above it). With 6 players that is 20; the Wilson interval of 0 wins in n games ends at
  z^2 / (n + z^2), so it is the first n above z^2 (players - 1), z = 1.96.
"""

from __future__ import annotations

import numpy as np
from scipy.stats import ttest_rel
from statsmodels.stats.multitest import multipletests
from statsmodels.stats.proportion import proportion_confint

LEVEL = 0.95


def wilson(wins: float, games: int) -> list:
    """The 95% Wilson score interval [lo, hi] of ``wins`` (shares) out of ``games``."""
    if games == 0:
        return [0.0, 1.0]
    lo, hi = proportion_confint(wins, games, alpha=1 - LEVEL, method="wilson")
    return [float(max(0.0, lo)), float(min(1.0, hi))]


def fewest_games(even: float) -> int:
    """The fewest games after which a rate's 95% interval (``wilson``) can leave out ``even``
    on either side: a character that never wins is then below it, one that always wins
    above it. In fewer, a character that never won is still "within": no verdict can tell a
    weak character from an even one (docs/balance.md, section 7)."""
    games = 1
    while not (wilson(0, games)[1] < even < wilson(games, games)[0]):
        games += 1
    return games


def paired(first, second) -> dict:
    """Mean difference ``second - first`` of paired shares, its 95% interval (within -1 to 1)
    and p-value; ``alike``: every pair differed by the same amount (no spread to test)."""
    a = np.asarray(first, dtype=float)
    b = np.asarray(second, dtype=float)
    n = len(a)
    out = {"pairs": n, "rate_a": float(a.mean()) if n else None,
           "rate_b": float(b.mean()) if n else None}
    if n < 2:
        return {**out, "difference": None, "ci95": None, "p": None, "significant": False,
                "alike": False}
    difference = b - a
    mean = float(difference.mean())
    if np.ptp(difference) == 0:
        # every game moved the share by the same amount (none for identical rulesets): the
        # difference is exact, there is no spread to test it against
        return {**out, "difference": mean, "ci95": [mean, mean], "p": 1.0 if mean == 0 else 0.0,
                "significant": mean != 0, "alike": True}
    test = ttest_rel(b, a)
    interval = test.confidence_interval(confidence_level=LEVEL)
    p = float(test.pvalue)
    # a difference of two shares lies between -1 and 1; with few pairs the t interval reaches
    # past that, which no difference can be (cut to it: the interval still holds the true one)
    low, high = max(-1.0, float(interval.low)), min(1.0, float(interval.high))
    return {**out, "difference": mean, "ci95": [low, high], "p": p, "significant": p < 1 - LEVEL,
            "alike": False}


def holm(pvalues: list) -> list:
    """Holm-adjusted p-values (None stays None)."""
    present = [p for p in pvalues if p is not None]
    if not present:
        return list(pvalues)
    adjusted = iter(multipletests(present, alpha=1 - LEVEL, method="holm")[1])
    return [None if p is None else float(next(adjusted)) for p in pvalues]
