"""The designers' questions of the balance lab (docs/balance.md): which bots sit where, --count,
--restrict (restricted play), --vary and --robust.

The rigged rulesets are in tests/lab_rigs.py; expected numbers come from the rules (what a rig
makes every game do) and textbook formulas, worked out from the rows of the games, never from
the lab's own summary code.
"""

from __future__ import annotations

import json
import math
import statistics
import sys
import textwrap
from fractions import Fraction

import pytest
import yaml

pytest.importorskip("statsmodels", reason="the balance lab's statistics need the lab extra "
                                          "(pip install -e '.[lab]'); CI installs it")

import lab_rigs  # noqa: E402
from lifeboat_rules import new_game  # noqa: E402
from lifeboat_rules.bots import RandomBot  # noqa: E402
from lifeboat_rules.cli import main  # noqa: E402
from lifeboat_rules.lab import Plan, run  # noqa: E402
from lifeboat_rules.lab.restrict import Restricted  # noqa: E402
from lifeboat_rules.lab.summary import robust_text, robustness, verdict  # noqa: E402


def collect(plan, **kwargs):
    rows = []
    summary = run(plan, each=rows.append, **kwargs)
    return summary, rows


def share(row, character) -> Fraction:
    """R-SCORE-8: tied winners share the win."""
    return Fraction(1, len(row["winners"])) if character in row["winners"] else Fraction(0)


def t_interval(values) -> list:
    from scipy.stats import t as student
    mean = statistics.fmean(values)
    half = student.ppf(0.975, len(values) - 1) * statistics.stdev(values) / math.sqrt(len(values))
    return [mean - half, mean + half]


# --- who sits where ---------------------------------------------------------------------------

def test_without_bots_every_seat_is_heuristic_and_random_seats_are_warned_of(tmp_path, capsys):
    assert Plan.make("classic").bots == ("heuristic",)
    out = tmp_path / "plain"
    assert main(["simulate", "--games", "2", "--ruleset", lab_rigs.write(tmp_path, lab_rigs.calm_sea()),
                 "--report", str(out)]) == 0
    summary = json.loads((out / "summary.json").read_text())
    assert summary["bots"] == ["heuristic"] * 6 and "warning" not in summary
    screen = capsys.readouterr().out
    assert "bots heuristic in every seat" in screen and "WARNING" not in screen
    assert "Warning" not in (out / "index.html").read_text()

    out = tmp_path / "random"
    assert main(["simulate", "--games", "2", "--players", "4", "--bots", "random,heuristic",
                 "--report", str(out)]) == 0
    summary = json.loads((out / "summary.json").read_text())
    assert summary["bots"] == ["random", "heuristic", "random", "heuristic"]   # per seat
    assert "random bots were chosen" in summary["warning"]
    screen = capsys.readouterr().out
    assert "WARNING: random bots were chosen" in screen
    assert "bots by seat 0 random, 1 heuristic, 2 random, 3 heuristic" in screen
    page = (out / "index.html").read_text()
    assert "Warning:" in page and "random bots were chosen" in page
    assert "Bots by seat (0 is the bow): random, heuristic, random, heuristic" in page


def test_characters_are_named_in_words_for_the_tables_and_plots():
    summary = run(Plan.make(lab_rigs.calm_sea(), games=1))
    assert summary["names"]["the_kid"] == "The Kid"
    assert summary["names"]["lady_lauren"] == "Lady Lauren"


# --- --count ----------------------------------------------------------------------------------

def test_counts_follow_the_rules_of_the_rig():
    """calm-sea: one round, everyone awake, so the supply phase has six picks (R-SUPPLY-1),
    one seagull lands the boat (R-GULL-1), one game_over; no shark in classic; no flare gun is
    ever used in one round of calm sea by heuristic bots unless the counts say so."""
    plan = Plan.make(lab_rigs.calm_sea(), games=20, seed=3,
                     count=["pick", "seagulls", "game_over", "shark", "play:water"])
    summary, rows = collect(plan)
    counts = summary["counts"]
    assert counts["pick"] == {"total": 120, "mean": 6.0, "share": 1.0}
    assert counts["seagulls"] == {"total": 20, "mean": 1.0, "share": 1.0}
    assert counts["game_over"] == {"total": 20, "mean": 1.0, "share": 1.0}
    assert counts["shark"] == {"total": 0, "mean": 0.0, "share": 0.0}
    played = [row["counts"]["play:water"] for (row,) in rows]
    assert counts["play:water"]["total"] == sum(played)
    assert counts["play:water"]["share"] == sum(n > 0 for n in played) / 20


def test_a_kind_is_counted_from_the_events_that_name_it():
    """--count use:KIND counts the ``use`` events of that provision kind only; the games are
    played again here as docs/balance.md says the lab plays them (random seats under
    window_pending: holders, where every pending character has something to play; the bot of
    seat j of seed s seeded s * 100 + j, asked for game.pending[0] unless it has one legal
    move, which is made without asking) and their logs counted."""
    plan = Plan.make("classic", games=8, seed=2, bots=["random"],
                     count=["use", "use:flare_gun", "water:water"])
    summary, rows = collect(plan)
    totals = dict.fromkeys(["use", "use:flare_gun", "water:water"], 0)
    for (row,) in rows:
        game = new_game({"options": {"window_pending": "holders"}}, players=6, seed=row["seed"])
        bots = {c: RandomBot(seed=row["seed"] * 100 + j) for j, c in enumerate(game.state.seats)}
        asked = 0
        while not game.over:
            who = game.pending[0].by
            legal = game.legal_actions(who)
            if len(legal) == 1:
                game.apply(legal[0])
            else:
                game.apply(bots[who].choose(game, who))
                asked += 1
        assert row["decisions"] == asked
        uses = [e for e in game.log if e["type"] == "use"]
        expected = {"use": len(uses),
                    "use:flare_gun": sum(e["kind"] == "flare_gun" for e in uses),
                    "water:water": sum(e["type"] == "water" and e["kind"] == "water"
                                       for e in game.log)}
        assert row["counts"] == expected
        for name in totals:
            totals[name] += expected[name]
    for name, total in totals.items():
        assert summary["counts"][name]["total"] == total
        assert summary["counts"][name]["mean"] == pytest.approx(total / 8)


def test_a_count_of_an_unknown_kind_is_refused():
    with pytest.raises(ValueError, match="no provision kind 'flare_gn'.*did you mean 'flare_gun'"):
        Plan.make("classic", count=["use:flare_gn"])
    with pytest.raises(ValueError, match="not an event type or TYPE:KIND"):
        Plan.make("classic", count=["use:"])


def test_a_kind_of_the_compared_ruleset_alone_is_counted(tmp_path, capsys):
    """The kinds are those of every ruleset played (docs/balance.md, section 4): an audit's
    house rule added a harpoon, and ``--count play:harpoon --compare`` it was refused because
    the kinds were checked against the study's ruleset alone."""
    harpoon = {"name": "harpoon-night", "extends": "classic",
               "overrides": {"provisions": {"harpoon": {"name": "Harpoon", "count": 1, "weapon": 5}}}}
    plan = Plan.make("classic", compare=harpoon, count=["play:harpoon"], games=2)
    summary = run(plan)
    assert summary["counts"]["play:harpoon"]["total"] == 0        # not dealt in classic
    assert "play:harpoon" in summary["compare"]["summary"]["counts"]
    with pytest.raises(ValueError, match="no provision kind 'harpon' in classic or harpoon-night "
                                         r"\(did you mean 'harpoon'\?\); provision kinds: .*harpoon"):
        Plan.make("classic", compare=harpoon, count=["play:harpon"])
    with pytest.raises(ValueError, match="no provision kind 'harpoon' in classic;"):
        Plan.make("classic", count=["play:harpoon"])
    rig = lab_rigs.write(tmp_path, harpoon)
    assert main(["simulate", "--games", "2", "--count", "play:harpoon", "--compare", rig]) == 0
    assert "play:harpoon" in capsys.readouterr().out


# The event types docs/api.md and the API spec name (its "Events" section, "at least").
SPEC_EVENTS = ("damage", "status", "fight", "seagulls", "navigation", "phase", "game_over")

BELL = """\
    from lifeboat_rules import effects, hookimpl

    LIFEBOAT_EVENTS = {declared}


    @hookimpl
    def lifeboat_phase_start(game, phase):
        if phase == "navigation":
            effects.emit(game, {{"type": "bell", "round": game.state.round}})
    """


def bell(tmp_path, monkeypatch, declared: str = '("bell",)', name: str = "lb_lab_bell") -> dict:
    """calm sea with a plugin of its own that rings a ``bell`` event as each navigation phase
    starts (``declared``: its LIFEBOAT_EVENTS line, or None to leave it out)."""
    monkeypatch.syspath_prepend(str(tmp_path))
    source = textwrap.dedent(BELL.format(declared=declared))
    if declared is None:
        source = source.replace("LIFEBOAT_EVENTS = None\n", "")
    (tmp_path / f"{name}.py").write_text(source)
    sys.modules.pop(name, None)
    return {**lab_rigs.calm_sea(f"calm-{name}"), "plugins": [name]}


def test_a_count_of_an_unknown_event_type_is_refused_before_any_game(monkeypatch, capsys):
    """A misspelt type would count nothing for the whole run: it is refused at once, with the
    nearest types and the list of the known ones (the spec's events among them)."""
    with pytest.raises(ValueError) as refused:
        Plan.make("classic", count=["figth"])
    said = str(refused.value)
    assert "no event type 'figth' in classic" in said and "did you mean 'fight'" in said
    known = said.split("event types: ")[1].split(", ")
    assert set(SPEC_EVENTS) <= set(known)
    assert "figth" not in known
    with pytest.raises(ValueError, match="no event type 'no_such_event'"):
        Plan.make("classic", count=["rob", "no_such_event"])
    with pytest.raises(ValueError, match="no event type 'fihgt'.*did you mean 'fight'"):
        Plan.make("classic", count=["fihgt:water"])       # the TYPE of TYPE:KIND too

    def no_games(*args, **kwargs):
        raise AssertionError("a game was played")
    monkeypatch.setattr("lifeboat_rules.lab.execute.games", no_games)
    assert main(["simulate", "--games", "100000", "--count", "figth"]) == 2
    out, err = capsys.readouterr()
    assert "did you mean 'fight'" in err and "never happened" not in out + err


def test_every_spec_event_and_a_shipped_expansions_event_can_be_counted():
    for name in (*SPEC_EVENTS, "rob", "use:flare_gun", "shark", "eaten", "drink"):
        assert Plan.make("classic", count=[name]).count == (name,)


def test_a_type_a_plugin_declares_is_counted_and_a_misspelling_of_it_refused(tmp_path, monkeypatch):
    """calm sea ends at the first navigation (lab_rigs.calm_sea): one navigation phase, so
    one bell, a game."""
    ruleset = bell(tmp_path, monkeypatch)
    summary = run(Plan.make(ruleset, games=5, count=["bell"]))
    assert summary["counts"]["bell"] == {"total": 5, "mean": 1.0, "share": 1.0}
    with pytest.raises(ValueError, match="no event type 'bel' in calm-lb_lab_bell.*did you mean 'bell'"):
        Plan.make(ruleset, count=["bel"])
    # a type of the compared ruleset's plugin may be counted too
    assert Plan.make("classic", compare=ruleset, count=["bell"]).doubts == ()
    with pytest.raises(ValueError, match="no event type 'bell' in classic;"):
        Plan.make("classic", count=["bell"])


def test_a_plugin_that_declares_no_event_types_turns_the_refusal_into_a_warning(
        tmp_path, monkeypatch, capsys):
    """Its events cannot be known before it plays: an unknown type is counted with a warning
    printed before the games, not refused."""
    ruleset = bell(tmp_path, monkeypatch, declared=None, name="lb_lab_silent_bell")
    plan = Plan.make(ruleset, games=3, count=["bell"])
    assert len(plan.doubts) == 1 and "no event type 'bell'" in plan.doubts[0]
    assert "lb_lab_silent_bell declares no LIFEBOAT_EVENTS" in plan.doubts[0]
    assert run(plan)["counts"]["bell"]["total"] == 3
    # words for its event (a house rule's own, docs/house-rules.md) make the type known
    worded = {**ruleset, "words": {"en": {"events": {"bell": "The bell rings."}}}}
    assert Plan.make(worded, count=["bell"]).doubts == ()
    assert Plan.make(ruleset, count=["fight"]).doubts == ()      # built-in: nothing to doubt
    rig = tmp_path / "silent.yaml"
    rig.write_text(yaml.safe_dump(worded))
    assert main(["simulate", "--games", "2", "--ruleset", str(rig), "--count", "bel"]) == 0
    out, err = capsys.readouterr()
    assert "warning: --count: no event type 'bel'" in err and "did you mean 'bell'" in err
    assert "never happened in these games: bel" in out


def test_event_types_a_plugin_declares_must_be_a_list_of_names(tmp_path, monkeypatch):
    from lifeboat_rules import ContentError, load_ruleset
    ruleset = bell(tmp_path, monkeypatch, declared='"bell"', name="lb_lab_string_bell")
    with pytest.raises(ContentError, match="LIFEBOAT_EVENTS is a list of the event types"):
        load_ruleset(ruleset)


# --- --restrict -------------------------------------------------------------------------------

def test_a_restricted_bot_never_takes_a_forbidden_type_unless_nothing_else_is_legal():
    banned = {"rob", "pass"}
    for seed in range(3):
        game = new_game("classic", players=6, seed=seed)
        bot = Restricted(RandomBot(seed=seed), banned)
        free = RandomBot(seed=seed + 50)
        avoided = 0
        while not game.over:
            who = game.pending[0].by
            if who != game.state.seats[0]:
                game.apply(free.choose(game, who))
                continue
            types = {a["type"] for a in game.legal_actions(who)}
            action = bot.choose(game, who)
            assert action in game.legal_actions(who)
            if types - banned:
                assert action["type"] not in banned
                avoided += bool(types & banned)
            game.apply(action)
        assert bot.avoided == avoided


def test_restricted_play_is_paired_with_the_free_game_of_the_same_seed():
    """The restricted seat of game k is k mod 6; its change is the mean, over games, of its
    share restricted minus its share in the study's own game, with a t interval."""
    plan = Plan.make("classic", games=36, seed=70, restrict=["rob"])
    summary, rows = collect(plan)
    r = summary["restricted"]
    assert r["actions"] == ["rob"] and r["games"] == 36
    diffs, by_character = [], {}
    for k, (free, bound) in enumerate(rows):
        assert bound["restricted"]["seat"] == k % 6 and bound["restricted"]["actions"] == ["rob"]
        assert (free["seats"], free["love"], free["hate"]) == \
            (bound["seats"], bound["love"], bound["hate"])          # the same deal
        character = bound["seats"][k % 6]
        d = float(share(bound, character) - share(free, character))
        diffs.append(d)
        by_character.setdefault(character, []).append(d)
    assert r["difference"] == pytest.approx(statistics.fmean(diffs))
    assert r["ci95"] == pytest.approx(t_interval(diffs))
    assert r["avoided"]["mean"] == pytest.approx(
        statistics.fmean(b["restricted"]["avoided"] for _, b in rows))
    assert r["avoided"]["share"] > 0.5            # heuristic seats rob in most games
    assert set(r["by_character"]) == set(lab_rigs.CHARACTERS)
    for character, values in by_character.items():
        assert r["by_character"][character]["pairs"] == 6
        assert r["by_character"][character]["difference"] == pytest.approx(statistics.fmean(values))
    # the study itself is the free games alone
    assert summary["games"] == 36 and summary["wins"] == run(Plan.make("classic", games=36, seed=70))["wins"]


def test_a_restriction_that_changes_nothing_costs_nothing():
    """In calm sea everyone ties whatever they do: the restricted seat's share stays 1/6, though
    the restriction took moves away (a pick beside the free trades and plays: the seat had to
    trade or play instead, R-SUPPLY-1)."""
    summary = run(Plan.make(lab_rigs.calm_sea(), games=12, restrict=["pick"]))
    r = summary["restricted"]
    assert r["difference"] == 0 and r["ci95"] == [0, 0] and r["significant"] is False
    assert r["avoided"]["mean"] > 0


def test_an_unknown_action_type_cannot_be_restricted():
    with pytest.raises(ValueError, match="no action type 'rwo'.*did you mean 'row'"):
        Plan.make("classic", restrict=["rwo"])


# --- --vary -----------------------------------------------------------------------------------

def test_varying_a_survival_value_moves_the_wins_as_the_scores_say():
    """calm-sea: everyone survives and treasure is worthless, so a player scores its own
    survival value (unless it hates itself) plus that of the character it loves (R-SCORE-4..6).
    With the Kid's survival 0 everyone ties; with 5 the winners follow love and hate."""
    plan = Plan.make(lab_rigs.calm_sea(), games=60, seed=8,
                     vary="characters.the_kid.survival=0,5")
    summary, rows = collect(plan)
    v = summary["vary"]
    assert v["path"] == "characters.the_kid.survival"
    assert [e["value"] for e in v["values"]] == [0, 5]
    assert [e["ruleset"] for e in v["values"]] == ["calm-sea characters.the_kid.survival=0",
                                                   "calm-sea characters.the_kid.survival=5"]
    for c in lab_rigs.CHARACTERS:
        assert v["values"][0]["wins"][c]["rate"] == pytest.approx(1 / 6)
    shares = dict.fromkeys(lab_rigs.CHARACTERS, Fraction(0))
    for base, zero, five in rows:
        assert five["scores"] == {
            c: (0 if five["hate"][c] == c else 5 * (c == "the_kid")) + 5 * (five["love"][c] == "the_kid")
            for c in five["seats"]}
        for c in lab_rigs.CHARACTERS:
            shares[c] += share(five, c)
    for c in lab_rigs.CHARACTERS:
        entry = v["values"][1]["wins"][c]
        assert entry["wins"] == pytest.approx(float(shares[c]))
        assert entry["games"] == 60
    assert v["values"][1]["wins"]["the_kid"]["rate"] > 0.3


def test_a_field_the_content_lacks_cannot_be_varied():
    with pytest.raises(ValueError, match="characters.the_kid has no field 'sise'.*did you mean 'size'"):
        Plan.make("classic", vary="characters.the_kid.sise=2,3")
    with pytest.raises(ValueError, match="characters has no field 'the_kidd'"):
        Plan.make("classic", vary="characters.the_kidd.size=2")
    with pytest.raises(ValueError, match="not a single value"):
        Plan.make("classic", vary="characters.the_kid=2")
    with pytest.raises(ValueError, match="PATH=V1,V2"):
        Plan.make("classic", vary="characters.the_kid.size")


def test_a_value_the_content_cannot_take_is_blamed_on_the_flag():
    # an audit got "<ruleset mapping>: overrides.characters...": the lab's own mapping, not
    # what was typed (the schema: a survival is a whole number, 0 or more)
    with pytest.raises(ValueError) as refused:
        Plan.make("classic", vary="characters.the_captain.survival=5,five")
    text = str(refused.value)
    assert text.startswith("--vary: characters.the_captain.survival='five' cannot be played")
    assert "integer" in text and "<ruleset mapping>" not in text
    with pytest.raises(ValueError, match=r"--vary: characters.the_captain.survival=-3 cannot be played"):
        Plan.make("classic", vary="characters.the_captain.survival=-3")


def test_a_misspelt_bot_gets_the_bot_meant():
    with pytest.raises(ValueError, match="unknown bot 'heuristc' \\(did you mean 'heuristic'\\?\\)"):
        Plan.make("classic", bots=["heuristc"])


# --- --robust ---------------------------------------------------------------------------------

def test_a_verdict_is_read_from_the_interval_against_an_even_share():
    even = 1 / 6
    assert verdict({"ci95": [0.17, 0.30]}, even) == "above"
    assert verdict({"ci95": [0.05, 0.16]}, even) == "below"
    assert verdict({"ci95": [0.10, 0.20]}, even) == "within"


def test_robustness_plays_every_kind_of_seat_and_compares_verdicts():
    """calm-sea: everyone ties under any bots, so every verdict is "within" for all three."""
    plan = Plan.make(lab_rigs.calm_sea(), games=12, robust=True, robust_games=3)
    summary = run(plan)
    r = summary["robust"]
    assert r["bots"] == ["random", "heuristic", "search"]
    assert r["games"] == {"random": 12, "heuristic": 12, "search": 3}
    assert r["wins"]["heuristic"] == summary["wins"]          # the study itself
    for c in lab_rigs.CHARACTERS:
        assert r["verdicts"][c] == {"random": "within", "heuristic": "within",
                                    "search": "within", "same": True}
    assert r["depends"] == []
    assert Plan.make("classic", games=2000).robust_games == 200          # a tenth, at least 200
    assert Plan.make("classic", games=150).robust_games == 150           # never more than --games
    assert Plan.make("classic", games=5000).robust_games == 500


def test_a_character_whose_verdict_depends_on_the_bots_is_named(tmp_path, capsys):
    from lifeboat_rules.lab.summary import robust_text, robustness
    plan = Plan.make("classic", games=10)
    entry = lambda lo, hi: {"games": 10, "rate": (lo + hi) / 2, "ci95": [lo, hi]}   # noqa: E731
    studies = {kind: {"games": 10, "ends": {}, "rounds": {"mean": 9},
                      "wins": {c: entry(0.1, 0.2) for c in plan.order}}
               for kind in ("random", "heuristic", "search")}
    studies["heuristic"]["wins"]["the_captain"] = entry(0.02, 0.1)
    r = robustness(plan, studies)
    assert r["depends"] == ["the_captain"]
    assert r["verdicts"]["the_captain"] == {"random": "within", "heuristic": "below",
                                            "search": "within", "same": False}
    said = " ".join(robust_text({"robust": r, "names": dict(plan.characters)}).split())
    assert "These conclusions depend on how well the bots play: The Captain is within with " \
           "random, below with heuristic, within with search." in said


def textbook_fewest(players: int) -> int:
    """The Wilson score interval of 0 successes in n trials is [0, z^2 / (n + z^2)]: below an
    even share 1/players once n > z^2 (players - 1); with all n won it is [n / (n + z^2), 1],
    above the even share once n > z^2 / (players - 1), which comes sooner."""
    from scipy.stats import norm
    return math.floor(norm.ppf(0.975) ** 2 * (players - 1)) + 1


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6, 7, 8])
def test_a_verdict_needs_the_games_in_which_a_character_that_never_wins_is_below(players):
    from lifeboat_rules.lab.stats import fewest_games
    assert fewest_games(1 / players) == textbook_fewest(players)


def test_a_robust_study_of_a_handful_of_games_says_its_verdicts_mean_nothing(tmp_path, capsys):
    """4 games, 2 of them with search seats: far fewer than a verdict needs, in every study."""
    needs = textbook_fewest(6)                  # 20 with 6 players
    summary = run(Plan.make(lab_rigs.calm_sea(), games=4, robust=True, robust_games=2))
    r = summary["robust"]
    assert r["needs"] == needs
    assert r["small"] == {"random": 4, "heuristic": 4, "search": 2}
    said = " ".join(robust_text(summary).split())
    assert "WARNING: too few games for these verdicts to mean anything" in said
    assert "random 4, heuristic 4, search 2" in said and f"at least {needs} games" in said
    assert "which says nothing with so few games" in said

    out = tmp_path / "out"
    rig = lab_rigs.write(tmp_path, lab_rigs.calm_sea())
    assert main(["simulate", "--games", "4", "--ruleset", rig, "--robust", "--robust-games", "2",
                 "--report", str(out)]) == 0
    screen = " ".join(capsys.readouterr().out.split())
    assert "WARNING: too few games for these verdicts to mean anything" in screen
    written = json.loads((out / "summary.json").read_text())["robust"]
    assert written["small"] == {"random": 4, "heuristic": 4, "search": 2}
    assert "too few games" in written["warning"]
    assert "too few games for these verdicts" in (out / "index.html").read_text()


def test_a_robust_study_is_small_by_the_games_of_its_least_dealt_character():
    """With 4 of 6 characters dealt, a character has fewer games than the study: the fewest
    count, and a study with at least as many as a verdict needs for everyone has no warning."""
    plan = Plan.make("classic", games=40, players=4)
    needs = textbook_fewest(4)                  # 12 with 4 players
    entry = lambda games: {"games": games, "rate": 0.25, "ci95": [0.1, 0.4]}   # noqa: E731
    studies = {kind: {"games": 40, "ends": {}, "rounds": {"mean": 9},
                      "wins": {c: entry(needs) for c in plan.order}}
               for kind in ("random", "heuristic", "search")}
    r = robustness(plan, studies)
    assert r["small"] == {} and "warning" not in r
    assert "WARNING" not in robust_text({"robust": r, "names": dict(plan.characters)})
    studies["search"]["wins"]["the_kid"] = entry(needs - 1)
    r = robustness(plan, studies)
    assert r["small"] == {"search": needs - 1} and "search 11" in r["warning"]


# --- the report -------------------------------------------------------------------------------

@pytest.mark.slow
def test_every_question_is_in_the_summary_the_page_and_the_terminal(tmp_path, capsys):
    out = tmp_path / "out"
    rig = lab_rigs.write(tmp_path, lab_rigs.calm_sea())
    assert main(["simulate", "--games", "6", "--ruleset", rig, "--count", "pick,shark",
                 "--restrict", "pick", "--vary", "characters.the_kid.survival=0,5",
                 "--robust", "--robust-games", "2", "--report", str(out)]) == 0
    screen = capsys.readouterr().out
    summary = json.loads((out / "summary.json").read_text())
    page = (out / "index.html").read_text()
    for key, heading in (("counts", "How often it happened (--count)"),
                         ("restricted", "Restricted play (--restrict pick)"),
                         ("vary", "Win rate by value of characters.the_kid.survival (--vary)"),
                         ("robust", "Robustness (--robust)")):
        assert key in summary
        assert heading in screen and heading in page
    for name in ("restricted.png", "vary.png", "robust.png"):
        assert (out / name).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
        assert name in page
