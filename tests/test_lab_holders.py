"""The balance lab plays random and heuristic seats under ``window_pending: holders``
(R-WIN-3) for speed, only because it gives the same games: this proves it, over many seeds of
every built-in ruleset and every player count, row by row and summary by summary.

Under the default (R-WIN-2) a character with nothing to play in a window is pending and can
only pass; the lab makes that pass without asking its bot (lifeboat_rules/lab/runner.py), so
no bot spends a random number or a thought on it, and the games follow the same choices.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

pytest.importorskip("statsmodels", reason="the balance lab's statistics need the lab extra "
                                          "(pip install -e '.[lab]'); CI installs it")

from lifeboat_rules import load_ruleset  # noqa: E402
from lifeboat_rules.lab import Plan, run  # noqa: E402
from lifeboat_rules.lab.plan import fast_for  # noqa: E402
from lifeboat_rules.rulesets import builtin_rulesets  # noqa: E402


def both(ruleset, **options):
    """The rows and summary of the same plan under the default and under holders."""
    out = []
    for fast in (False, True):
        plan = Plan.make(ruleset, fast=fast, **options)
        assert plan.holders is fast
        rows = []
        summary = run(plan, each=rows.append)
        out.append((rows, summary))
    return out


@pytest.mark.parametrize("name", builtin_rulesets())
@pytest.mark.parametrize("bots", [["heuristic"], ["random"], ["random", "heuristic"]])
def test_holders_gives_the_same_games_as_the_default(name, bots):
    players = list(load_ruleset(name).players)
    for count in (players[0], players[-1]):
        (slow_rows, slow), (fast_rows, fast) = both(name, games=12, players=count,
                                                    seed=7000 + 100 * count, bots=bots,
                                                    rotate=len(bots) > 1)
        assert fast_rows == slow_rows
        assert fast == slow


def test_the_default_asks_more_and_holders_leaves_out_only_passes():
    """The proof is not empty: under the default the games hold passes that holders leaves
    out (counted here, where the lab keeps the default because passes are counted)."""
    slow = run(Plan.make("classic", games=12, seed=5, count=["pass", "play", "rob"]))
    assert Plan.make("classic", count=["pass"]).holders is False
    faster = run(Plan.make("classic", games=12, seed=5, count=["play", "rob"]))
    held = run(replace(Plan.make("classic", games=12, seed=5, count=["pass", "play", "rob"]),
                       holders=True))
    assert held["counts"]["pass"]["total"] < slow["counts"]["pass"]["total"]
    for name in ("play", "rob"):
        assert held["counts"][name] == slow["counts"][name] == faster["counts"][name]
    assert held["wins"] == slow["wins"] == faster["wins"]


def test_holders_is_used_only_where_it_was_shown_to_change_nothing():
    classic = [load_ruleset("classic").spec]
    assert fast_for(classic, ["heuristic"], [])
    assert fast_for(classic, ["random", "heuristic"], ["rob", "use:flare_gun"])
    assert not fast_for(classic, ["search"], [])                  # its worlds differ
    assert not fast_for(classic, ["heuristic"], ["pass"])         # passes are what it leaves out
    assert not fast_for(classic, ["heuristic"], ["action"])
    chosen = [{**classic[0], "options": {"window_pending": "public"}}]
    assert not fast_for(chosen, ["heuristic"], [])                # the ruleset chose
    assert Plan.make("classic").holders and not Plan.make("classic", bots=["search"]).holders
