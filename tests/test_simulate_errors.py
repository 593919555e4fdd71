"""`lifeboat-rules simulate` with a plugin that raises (docs/balance.md, "When a plugin fails"):
no traceback, but the game's seed, round and action and the one command that replays that
game, which really plays it again to the same failure; `--keep-going` counts such games in the
summary and the report instead of stopping."""

from __future__ import annotations

import json
import re
import shlex
import textwrap

import pytest

from lifeboat_rules.cli import main as cli_main

PLUGIN = """\
    from lifeboat_rules import hookimpl


    @hookimpl
    def lifeboat_damage(game, character, amount, cause):
        if cause == "thirst" and game.state.round >= 2 and character == "the_kid":
            raise ZeroDivisionError("a thirsty bug")
        return None
    """


@pytest.fixture
def buggy(tmp_path, monkeypatch):
    """A ruleset whose plugin raises in some games (the Kid's thirst from round 2 on)."""
    monkeypatch.syspath_prepend(str(tmp_path))
    (tmp_path / "lb_thirsty_bug.py").write_text(textwrap.dedent(PLUGIN))
    path = tmp_path / "buggy.yaml"
    path.write_text("plugins: [lb_thirsty_bug]\n")
    monkeypatch.chdir(tmp_path)
    return "buggy.yaml"


FAILURE = re.compile(r"the game with seed (\d+) of buggy, round (\d+), while applying (\{.*?\}): "
                     r"plugin plugin:lb_thirsty_bug failed")


def test_a_raising_plugin_stops_the_study_with_the_game_and_its_replay(buggy, capsys):
    bots = "heuristic,random,random,random"
    status = cli_main(["simulate", "--ruleset", buggy, "--games", "12", "--players", "4",
                       "--seed", "3", "--bots", bots, "--rotate"])
    err = capsys.readouterr().err
    assert status == 1
    assert "Traceback" not in err
    seed, round_, action = FAILURE.search(err).groups()
    assert json.loads(action)["by"]
    assert "ZeroDivisionError: a thirsty bug" in err and "lb_thirsty_bug.py, line 7" in err
    replay = re.search(r"replay that game with: (.*)", err).group(1)
    words = shlex.split(replay)
    # the plugin lies in the current folder, where the lifeboat-rules script does not look
    assert words[:3] == ["PYTHONPATH=.", "lifeboat-rules", "simulate"]
    words = words[1:]
    # the command plays that game again, to the same failure at the same round and action
    assert cli_main(words[1:]) == 1
    again = capsys.readouterr().err
    assert FAILURE.search(again).groups() == (seed, round_, action)
    assert f"--seed {seed} " in replay
    assert int(seed) > 3      # a later game of the rotating study: the seats it had are named


def test_keep_going_counts_the_failed_games_in_the_summary(buggy, capsys):
    status = cli_main(["simulate", "--ruleset", buggy, "--games", "8", "--players", "4",
                       "--seed", "1", "--bots", "random", "--keep-going", "--json"])
    captured = capsys.readouterr()
    assert status == 0
    rows = [json.loads(line) for line in captured.out.splitlines()]
    failed = [row["failed"] for row in rows if "failed" in row]
    assert len(rows) == 8 and 0 < len(failed) < 8
    assert all(f["round"] >= 2 and f["action"]["by"] and f["replay"] for f in failed)
    assert f"failed: {len(failed)} game(s) stopped by a plugin error" in captured.err
    assert f"seed {failed[0]['seed']} of buggy" in captured.err
    assert "Traceback" not in captured.err


@pytest.mark.slow      # matplotlib's plots; the counting itself is checked above
def test_keep_going_shows_the_failed_games_in_the_report(buggy, capsys, tmp_path):
    pytest.importorskip("matplotlib")
    report = tmp_path / "report"
    status = cli_main(["simulate", "--ruleset", buggy, "--games", "12", "--players", "4",
                       "--seed", "1", "--bots", "random", "--keep-going", "--report", str(report)])
    assert status == 0
    summary = json.loads((report / "summary.json").read_text())
    assert 0 < summary["failed"]["games"] < 12
    assert summary["games"] + summary["failed"]["games"] == 12
    assert sum(summary["ends"].values()) == summary["games"]
    assert "failed:" in (report / "index.html").read_text()
    rows = [json.loads(line) for line in (report / "games.jsonl").read_text().splitlines()]
    assert sum("failed" in row for row in rows) == summary["failed"]["games"]


def test_a_game_that_does_not_end_stops_the_study_without_a_traceback(monkeypatch, capsys):
    # An audit's house rule took every seagull off the navigation cards: a lone survivor rowed
    # for ever and `simulate` ended in a traceback. A game still going after the lab's limit
    # of moves (made small here: no game of the classic ruleset ends in 40) is a failure
    # like a plugin's, with its seed, round and replay command.
    from lifeboat_rules.lab import runner

    monkeypatch.setattr(runner, "MAX_DECISIONS", 40)
    status = cli_main(["simulate", "--ruleset", "classic", "--games", "3", "--players", "4",
                       "--seed", "5", "--bots", "random"])
    err = capsys.readouterr().err
    assert status == 1 and "Traceback" not in err
    assert re.search(r"the game with seed 5 of classic did not end: still going in round \d+ "
                     r"after 40 moves", err)
    replay = shlex.split(re.search(r"replay that game with: (.*)", err).group(1))
    assert replay[:2] == ["lifeboat-rules", "simulate"] and "--seed" in replay
    status = cli_main(["simulate", "--ruleset", "classic", "--games", "3", "--players", "4",
                       "--seed", "5", "--bots", "random", "--keep-going", "--json"])
    captured = capsys.readouterr()
    assert status == 0
    failed = [json.loads(line)["failed"] for line in captured.out.splitlines()]
    assert len(failed) == 3
    assert all(f["endless"] is True and f["moves"] == 40 and f["plugin"] is None and f["replay"]
               for f in failed)
    assert "failed: 3 game(s) stopped by a plugin error or never ending" in captured.err
