"""The balance lab's statistics against cases the rules decide (lifeboat_rules/lab, docs/balance.md).

The rigged rulesets are in tests/lab_rigs.py; every expected number here is worked out from
the rules and the textbook formulas, not taken from the lab's output.
"""

from __future__ import annotations

import math
import statistics
from fractions import Fraction

import pytest

pytest.importorskip("statsmodels", reason="the balance lab's statistics need the lab extra "
                                          "(pip install -e '.[lab]'); CI installs it")

import lab_rigs  # noqa: E402
from lifeboat_rules.lab import Plan, run  # noqa: E402
from lifeboat_rules.lab.runner import seat_bots  # noqa: E402

Z = 1.959963984540054          # the 97.5% point of the standard normal distribution


def wilson(wins, games):
    """The Wilson score interval, written out (E. B. Wilson, 1927)."""
    p = wins / games
    centre = (p + Z * Z / (2 * games)) / (1 + Z * Z / games)
    half = Z * math.sqrt(p * (1 - p) / games + Z * Z / (4 * games * games)) / (1 + Z * Z / games)
    return [centre - half, centre + half]


def collect(plan, **kwargs):
    rows = []
    summary = run(plan, each=rows.append, **kwargs)
    return summary, rows


# --- everyone ties ---------------------------------------------------------------------------

def test_a_six_way_tie_every_game_gives_each_character_a_sixth():
    plan = Plan.make(lab_rigs.calm_sea(), games=60, players=6, seed=5)
    summary = run(plan)
    assert summary["games"] == 60 and summary["players"] == 6 and summary["seed"] == 5
    assert summary["ruleset"] == "calm-sea"
    assert list(summary["wins"]) == lab_rigs.CHARACTERS          # seat order of a full table
    for character, entry in summary["wins"].items():
        assert entry["games"] == 60
        assert entry["wins"] == pytest.approx(10)                 # 60 games, 1/6 each
        assert entry["rate"] == pytest.approx(1 / 6)
        assert entry["ci95"] == pytest.approx(wilson(10, 60))     # about [0.093, 0.280]
        assert summary["scores"][character] == 0
    assert summary["wins"]["the_kid"]["ci95"][0] == pytest.approx(0.0931, abs=1e-4)
    assert summary["rounds"] == {"mean": 1, "histogram": {"1": 60}}
    assert summary["ends"] == {"landed": 60, "all_dead": 0, "adrift": 0}
    assert [e["seat"] for e in summary["by_seat"]] == list(range(6))
    for entry in summary["by_seat"]:
        assert entry["wins"] == pytest.approx(10) and entry["ci95"] == pytest.approx(wilson(10, 60))
    # one bot, the default heuristic one, in all six seats: 360 seat-games, 60 wins
    assert summary["bots"] == ["heuristic"] * 6 and "warning" not in summary
    assert summary["by_bot"]["heuristic"]["games"] == 360
    assert summary["by_bot"]["heuristic"]["wins"] == pytest.approx(60)
    assert summary["by_bot"]["heuristic"]["ci95"] == pytest.approx(wilson(60, 360))


def test_with_four_players_each_dealt_character_wins_a_quarter_and_wins_add_up_to_games():
    plan = Plan.make(lab_rigs.calm_sea(), games=50, players=4, seed=1)
    summary, rows = collect(plan)
    assert sum(e["games"] for e in summary["wins"].values()) == 200      # 4 seats x 50 games
    assert sum(e["wins"] for e in summary["wins"].values()) == pytest.approx(50)
    dealt = {c: sum(c in row[0]["seats"] for row in rows) for c in lab_rigs.CHARACTERS}
    for character, entry in summary["wins"].items():
        assert entry["games"] == dealt[character]
        assert entry["wins"] == pytest.approx(dealt[character] / 4)       # fractional shares
        assert entry["rate"] == pytest.approx(0.25)
        assert entry["ci95"] == pytest.approx(wilson(dealt[character] / 4, dealt[character]))


# --- one character's survival decides ---------------------------------------------------------

def score_by_hand(row, character, survival):
    """R-SCORE-2, -4, -5, -6 when everyone survives and treasure is worthless."""
    own = 0 if row["hate"][character] == character else survival.get(character, 0)
    return own + survival.get(row["love"][character], 0)


@pytest.mark.slow
def test_when_only_lady_laurens_survival_counts_the_shares_follow_love_and_hate():
    survival = {"lady_lauren": 1}
    plan = Plan.make(lab_rigs.calm_sea("lauren", survival), games=1200, players=6, seed=1)
    summary, rows = collect(plan)
    shares = dict.fromkeys(lab_rigs.CHARACTERS, Fraction(0))
    for (row,) in rows:
        scores = {c: score_by_hand(row, c, survival) for c in row["seats"]}
        best = max(scores.values())
        winners = [c for c in row["seats"] if scores[c] == best]
        assert sorted(row["winners"]) == sorted(winners)
        assert row["scores"] == scores
        for c in winners:
            shares[c] += Fraction(1, len(winners))
    for character, entry in summary["wins"].items():
        assert entry["wins"] == pytest.approx(float(shares[character]))
        assert entry["ci95"] == pytest.approx(wilson(float(shares[character]), 1200))
    # Over many deals (love and hate dealt at random, R-SETUP-4): Lady Lauren wins alone when
    # she loves herself (1/6); otherwise she ties with her lover unless she hates herself
    # (5/6 * 5/6 * 1/2): 37/72. Each other character loves her with chance 1/6 and then
    # wins alone (1/6) or shares (5/6 * 1/2): 7/72 each.
    expected = {c: 7 / 72 for c in lab_rigs.CHARACTERS} | {"lady_lauren": 37 / 72}
    for character, entry in summary["wins"].items():
        sd = 0.5 / math.sqrt(1200)            # a share lies in [0, 1]: its sd is at most 1/2
        assert abs(entry["rate"] - expected[character]) < 4.5 * sd, character


# --- how games end ----------------------------------------------------------------------------

def test_a_storm_kills_everyone_and_the_shares_still_add_up_to_the_games():
    summary = run(Plan.make(lab_rigs.storm(), games=40, players=6, seed=3))
    assert summary["ends"] == {"landed": 0, "all_dead": 40, "adrift": 0}
    assert set(summary["rounds"]["histogram"]) <= {"1", "2"}
    assert sum(e["wins"] for e in summary["wins"].values()) == pytest.approx(40)
    assert sum(e["wins"] for e in summary["by_seat"]) == pytest.approx(40)
    for character in summary["wins"]:
        assert summary["parts"][character]["survival"] == 0      # nobody survives
        assert summary["parts"][character]["love"] == 0


def test_in_the_doldrums_every_game_ends_adrift_without_a_decision():
    summary, rows = collect(Plan.make(lab_rigs.doldrums(), games=12, players=5, seed=9))
    assert summary["ends"] == {"landed": 0, "all_dead": 0, "adrift": 12}
    assert len(summary["rounds"]["histogram"]) == 1                # the same length every game
    assert summary["decisions"]["mean"] == 0
    for entry in summary["wins"].values():
        assert entry["rate"] == pytest.approx(1 / 5)


# --- paired comparison ------------------------------------------------------------------------

def test_comparing_a_ruleset_with_itself_gives_no_difference():
    plan = Plan.make("classic", games=30, seed=11, compare="classic")
    summary = run(plan)
    compared = summary["compare"]
    assert compared["ruleset"] == "classic"
    assert compared["summary"]["wins"] == summary["wins"]
    assert list(compared["difference"]) == lab_rigs.CHARACTERS
    for d in compared["difference"].values():
        assert d["pairs"] == 30
        assert d["difference"] == 0 and d["ci95"] == [0, 0]
        assert d["significant"] is False and d["p"] == 1


def test_a_paired_interval_never_reaches_past_what_a_difference_of_shares_can_be():
    """An audit read "-28.0 to +108.0" points from 5 games of --restrict: no difference of two
    win shares is above 1 (100 points). The t interval of few pairs is cut to [-1, 1]."""
    from scipy.stats import ttest_rel

    from lifeboat_rules.lab.stats import paired
    from lifeboat_rules.lab.summary import _difference

    free, restricted = [0, 0, 0, 0, 0], [1, 1, 0, 0, 0]
    t = ttest_rel(restricted, free).confidence_interval(confidence_level=0.95)
    assert t.high > 1                                    # what the test itself gives
    d = paired(free, restricted)
    assert d["difference"] == pytest.approx(0.4)
    assert d["ci95"] == pytest.approx([t.low, 1.0]) and d["alike"] is False
    assert _difference(d)[1] == f"{100 * t.low:+.1f} to +100.0"
    # every pair alike: one value, which says little from 5 games (docs/balance.md, section 7)
    same = paired([0, 1, 0, 0, 0], [0, 1, 0, 0, 0])
    assert same["ci95"] == [0.0, 0.0] and same["alike"] is True
    assert _difference(same)[:2] == ["+0.0", "all 5 alike"]


@pytest.mark.slow
def test_the_paired_difference_is_the_mean_of_per_game_differences_with_a_t_interval():
    """calm-sea (everyone ties: 1/6 each) against lauren (only Lady Lauren's survival counts):
    the same seeds deal the same characters, love and hate, so each game's difference is
    known from the rows."""
    from scipy.stats import t as student

    survival = {"lady_lauren": 1}
    plan = Plan.make(lab_rigs.calm_sea(), games=300, players=6, seed=40,
                     compare=lab_rigs.calm_sea("lauren", survival))
    summary, rows = collect(plan)
    for character in lab_rigs.CHARACTERS:
        diffs = []
        for a, b in rows:
            assert (a["seats"], a["love"], a["hate"]) == (b["seats"], b["love"], b["hate"])
            assert character in a["winners"] and len(a["winners"]) == 6
            share_b = 1 / len(b["winners"]) if character in b["winners"] else 0
            diffs.append(share_b - 1 / 6)
        mean = statistics.fmean(diffs)
        half = student.ppf(0.975, len(diffs) - 1) * statistics.stdev(diffs) / math.sqrt(len(diffs))
        d = summary["compare"]["difference"][character]
        assert d["pairs"] == 300
        assert d["difference"] == pytest.approx(mean)
        assert d["ci95"] == pytest.approx([mean - half, mean + half])
        assert d["significant"] == (not (mean - half <= 0 <= mean + half))
    # Lady Lauren gains about 37/72 - 1/6 = 25/72 of a win: unmistakable
    assert summary["compare"]["difference"]["lady_lauren"]["significant"] is True
    assert summary["compare"]["difference"]["lady_lauren"]["p_holm"] < 1e-6


# --- seats and determinism --------------------------------------------------------------------

def test_rotation_puts_every_bot_in_every_seat_equally_often():
    bots = ["a", "b", "c"]
    for players in (4, 5, 6):
        seen = {}
        for game in range(2 * players):
            for seat, bot in enumerate(seat_bots(bots, players, game, rotate=True)):
                seen[(seat, bot)] = seen.get((seat, bot), 0) + 1
        cycled = [bots[j % 3] for j in range(players)]
        for seat in range(players):
            for bot in bots:
                assert seen.get((seat, bot), 0) == 2 * cycled.count(bot)
    assert seat_bots(bots, 5) == ["a", "b", "c", "a", "b"]
    assert seat_bots(bots, 5, 7) == ["a", "b", "c", "a", "b"]     # no rotation asked
    assert seat_bots(bots, 5, 1, rotate=True) == ["b", "a", "b", "c", "a"]


def test_bots_in_seats_are_recorded_and_counted_by_name():
    summary, rows = collect(Plan.make(lab_rigs.calm_sea(), games=6, players=6, seed=1,
                                      bots=["random"]))
    assert [row[0]["bots"] for row in rows] == [["random"] * 6] * 6
    assert list(summary["by_bot"]) == ["random"]


def test_the_same_seed_gives_the_same_summary_in_this_process_and_in_two_workers():
    plan = Plan.make("classic", games=24, seed=101, rotate=True)
    one, rows_one = collect(plan, jobs=1)
    two, rows_two = collect(plan, jobs=2, chunk=5)
    assert one == two
    assert rows_one == rows_two
    assert [row[0]["seed"] for row in rows_two] == list(range(101, 125))


def test_a_plan_that_cannot_be_played_is_refused_before_any_game():
    with pytest.raises(ValueError, match="R-SETUP-1"):
        Plan.make("classic", players=7)
    with pytest.raises(ValueError, match="unknown bot 'wizard'"):
        Plan.make("classic", bots=["random", "wizard"])
    with pytest.raises(ValueError, match="7 bots named for 6 seats"):
        Plan.make("classic", bots=["random"] * 7)
    with pytest.raises(ValueError, match="R-SETUP-1"):
        Plan.make("cannibalism", players=7, compare="classic")
