"""``lifeboat-rules simulate``: reports, rows, comparison, jobs, progress bar (docs/balance.md)."""

from __future__ import annotations

import json
import os
import select
import subprocess
import sys
from html.parser import HTMLParser

import pytest

pytest.importorskip("matplotlib", reason="the balance lab's report needs the lab extra "
                                         "(pip install -e '.[lab]'); CI installs it")

import lab_rigs  # noqa: E402
from lifeboat_rules.cli import main  # noqa: E402

PLOTS = ["win_rates.png", "seats.png", "score_parts.png", "rounds.png", "ends.png"]
ROW_KEYS = {"seed", "ruleset", "players", "seats", "bots", "love", "hate", "scores", "parts",
            "winners", "rounds", "end", "decisions"}


def cli(*args) -> list:
    return [sys.executable, "-m", "lifeboat_rules.cli", *args]


class Images(HTMLParser):
    def __init__(self):
        super().__init__()
        self.sources = []
        self.links = []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "img":
            self.sources.append(attrs["src"])
        for key in ("href", "src"):
            if key in attrs and tag != "img":
                self.links.append(attrs[key])


def read_png(path):
    from matplotlib.image import imread
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    return imread(str(path))


def test_the_report_has_the_summary_the_rows_the_plots_and_one_page(tmp_path, capsys):
    rig = lab_rigs.write(tmp_path, lab_rigs.calm_sea())
    out = tmp_path / "out"
    assert main(["simulate", "--games", "12", "--ruleset", rig, "--seed", "3",
                 "--report", str(out)]) == 0
    screen = capsys.readouterr().out
    assert "calm-sea: 12 game(s), 6 players, seeds 3-14" in screen
    assert "Lady Lauren" in screen and "95% interval" in screen     # characters by name

    summary = json.loads((out / "summary.json").read_text())
    for key in ("games", "ruleset", "players", "seed", "wins", "scores", "rounds", "ends"):
        assert key in summary
    assert (summary["games"], summary["ruleset"], summary["players"], summary["seed"]) == \
        (12, "calm-sea", 6, 3)
    for entry in summary["wins"].values():
        assert set(entry) == {"games", "wins", "rate", "ci95"}
        assert entry["wins"] == pytest.approx(2)                  # 12 six-way ties
    assert set(summary["rounds"]) == {"mean", "histogram"}
    assert set(summary["ends"]) == {"landed", "all_dead", "adrift"}

    rows = [json.loads(line) for line in (out / "games.jsonl").read_text().splitlines()]
    assert [r["seed"] for r in rows] == list(range(3, 15))
    for row in rows:
        assert set(row) == ROW_KEYS
        assert row["ruleset"] == "calm-sea" and row["players"] == 6 and row["end"] == "landed"
        assert sorted(row["seats"]) == sorted(lab_rigs.CHARACTERS)
        assert set(row["love"]) == set(row["hate"]) == set(row["parts"]) == set(row["seats"])

    for name in PLOTS:
        height, width = read_png(out / name).shape[:2]
        assert height > 100 and width > 100
    assert not (out / "differences.png").exists()

    page = (out / "index.html").read_text()
    images = Images()
    images.feed(page)
    assert len(images.sources) == len(PLOTS)
    assert all(src.startswith("data:image/png;base64,") for src in images.sources)
    assert images.links == []                                     # nothing to fetch
    assert "calm-sea" in page and "Wilson" in page


def test_a_comparison_report_pairs_the_rows_and_plots_the_differences(tmp_path, capsys):
    out = tmp_path / "out"
    assert main(["simulate", "--games", "8", "--players", "5", "--compare", "shark",
                 "--report", str(out)]) == 0
    screen = capsys.readouterr().out
    assert "classic (A) against shark (B)" in screen
    # both rulesets' own summaries come before the comparison
    assert screen.index("classic: 8 game(s)") < screen.index("shark: 8 game(s)") < \
        screen.index("classic (A) against shark (B)")
    summary = json.loads((out / "summary.json").read_text())
    assert summary["compare"]["ruleset"] == "shark"
    assert summary["compare"]["summary"]["games"] == 8
    rows = [json.loads(line) for line in (out / "games.jsonl").read_text().splitlines()]
    assert [(r["seed"], r["ruleset"]) for r in rows] == \
        [(seed, name) for seed in range(1, 9) for name in ("classic", "shark")]
    for a, b in zip(rows[::2], rows[1::2]):
        assert a["seats"] == b["seats"] and a["bots"] == b["bots"]
    read_png(out / "differences.png")


@pytest.mark.slow
def test_jobs_do_not_change_the_report(tmp_path):
    outs = []
    for jobs in ("1", "2"):
        out = tmp_path / f"jobs{jobs}"
        assert main(["simulate", "--games", "30", "--seed", "7", "--bots", "random",
                     "--rotate", "--jobs", jobs, "--report", str(out)]) == 0
        outs.append(out)
    assert (outs[0] / "summary.json").read_text() == (outs[1] / "summary.json").read_text()
    assert (outs[0] / "games.jsonl").read_text() == (outs[1] / "games.jsonl").read_text()


def test_json_prints_one_row_per_game_and_the_summary_apart(capsys):
    assert main(["simulate", "--games", "5", "--players", "4", "--seed", "20", "--json"]) == 0
    captured = capsys.readouterr()
    rows = [json.loads(line) for line in captured.out.splitlines()]
    assert [r["seed"] for r in rows] == [20, 21, 22, 23, 24]
    assert all(set(r) == ROW_KEYS and r["players"] == 4 and len(r["seats"]) == 4 for r in rows)
    assert "classic: 5 game(s), 4 players" in captured.err


@pytest.mark.slow
def test_piped_output_has_no_progress_bar():
    done = subprocess.run(cli("simulate", "--games", "20", "--jobs", "2"),
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    assert "\x1b" not in done.stdout and "━" not in done.stdout
    assert "classic: 20 game(s)" in done.stdout


@pytest.mark.slow
@pytest.mark.skipif(not hasattr(os, "openpty"), reason="needs a pseudo-terminal (POSIX)")
def test_a_terminal_shows_a_progress_bar():
    main_fd, terminal = os.openpty()
    process = subprocess.Popen(cli("simulate", "--games", "20"), stdout=subprocess.PIPE,
                               stderr=terminal, env={**os.environ, "TERM": "xterm"})
    os.close(terminal)
    shown = b""
    while True:
        ready, _, _ = select.select([main_fd], [], [], 120)
        if not ready:
            break
        try:
            chunk = os.read(main_fd, 65536)
        except OSError:              # the terminal closed with the process
            break
        if not chunk:
            break
        shown += chunk
    os.close(main_fd)
    stdout = process.stdout.read().decode()
    assert process.wait(timeout=120) == 0
    assert b"20/20" in shown and b"games" in shown
    assert "classic: 20 game(s)" in stdout


def test_verbose_prints_the_events_of_a_game_and_its_scores(capsys):
    # random seats, as this test was written for (the default is heuristic now)
    assert main(["simulate", "--games", "1", "--verbose", "--seed", "2", "--bots", "random"]) == 0
    out = capsys.readouterr().out
    assert "Game over" in out
    assert "final scores" in out and "winner(s):" in out
    # told through the feed, as a spectator: one sentence per move, no bookkeeping
    assert out.startswith("(each game as a spectator is told it: game.feed(None))")
    told = out.split("\n")[1:out.split("\n").index(next(line for line in out.split("\n")
                                                          if line.startswith("Game over"))) + 1]
    assert len(told) > 50
    assert not any("goes from" in line or "marker" in line for line in told)
    assert all(a != b for a, b in zip(told, told[1:]))


@pytest.mark.parametrize("args, message", [
    (["--bots", "random,wizard"], "unknown bot 'wizard'"),
    (["--verbose", "--jobs", "2"], "--verbose prints the events"),
    (["--players", "9"], "R-SETUP-1"),
    (["--jobs", "0"], "--jobs must be at least 1"),
])
def test_bad_arguments_are_refused_with_a_reason(args, message, capsys):
    assert main(["simulate", "--games", "2", *args]) == 2
    assert message in capsys.readouterr().err


def test_help_says_how_seats_and_bots_rotate(capsys):
    with pytest.raises(SystemExit):
        main(["simulate", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "seat j of game k gets bot (j - k) mod players" in text
    assert "game.pending[0]" in text
    for flag in ("--games", "--ruleset", "--players", "--seed", "--bots", "--rotate", "--jobs",
                 "--dask", "--compare", "--report", "--json"):
        assert flag in text


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_verbose_tells_each_move_once_with_the_default_seats(seed, capsys):
    # the feed read as the game goes on (one reader a game): a move made twice in a row reads
    # "again" (seed 2: the Captain gives himself water twice), and no run of passes is lost
    assert main(["simulate", "--games", "1", "--verbose", "--seed", str(seed)]) == 0
    lines = capsys.readouterr().out.split("\n")
    told = lines[1:lines.index(next(line for line in lines if line.startswith("Game over")))]
    assert len(told) > 50
    assert all(a != b for a, b in zip(told, told[1:])), \
        [a for a, b in zip(told, told[1:]) if a == b]
    assert any("pass" in line or "no water" in line or "nothing" in line for line in told)
