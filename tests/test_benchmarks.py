"""The benchmark scripts run and print their figures (a tiny run: no figure is checked, no
timing is asserted; the scripts are where the figures come from)."""

from __future__ import annotations

import json
import os
import pathlib
import subprocess
import sys
import tempfile

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent


def launch(script: str, *args: str) -> subprocess.CompletedProcess:
    # run from outside the repository, as from anywhere: from its root, ``python -m`` in a
    # script would import the source folder rather than the package installed (and built)
    return subprocess.run([sys.executable, os.path.join(ROOT, script), *args], cwd=tempfile.gettempdir(),
                          capture_output=True, text=True, timeout=600)


def run(script: str, *args: str) -> str:
    done = launch(script, *args)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_bench_prints_the_ratios():
    figures = json.loads(run("benchmarks/bench.py", "--seconds", "0.2", "--rounds", "1",
                             "--json"))
    for name in ("dict API / liars poker", "integer API / liars poker",
                 "from_dict / json round trip", "to_dict / json round trip", "clone us"):
        assert figures[name] > 0, name


def test_bytecodes_counts_the_work_of_a_step():
    out = run("benchmarks/bytecodes.py", "--games", "2", "--reference-games", "20", "--top", "3")
    lines = out.splitlines()
    rows = {line.split("  ")[0]: line.split() for line in lines[1:4]}
    for name in ("dict API", "integer API", "python_liars_poker"):
        instructions = float(rows[name][-3])
        assert instructions > 100, (name, instructions)
    assert "integer API / liars poker, by instructions" in out
    assert "functions executing the most instructions" in out


def test_agents_prints_the_search_bots_speed_beside_its_win_rate():
    out = run("benchmarks/agents.py", "search-vs-heuristic", "--games", "2", "--seed", "3")
    line = next(line for line in out.splitlines() if "decisions per CPU second, win rate" in line)
    assert line.strip().startswith("search {'rollouts': 4")           # the default budget


def test_lab_scaling_measures_each_kind_of_bot(tmp_path):
    out = run("benchmarks/lab_scaling.py", "--kinds", "random,heuristic", "--games", "2",
              "--no-dask", "--no-progress", "--report", str(tmp_path / "r"))
    assert out.count("jobs 1 (this process)") >= 4 and out.count("jobs 2 (two processes)") >= 4
    assert "6 players, bots random" in out and "6 players, bots heuristic" in out
    assert out.count("same summary in every run: yes") == 2
    assert (tmp_path / "r" / "summary.json").exists()


@pytest.mark.slow   # quicker neighbour in the fast subset: test_bench_prints_the_ratios
def test_adapters_prints_the_ratios():
    """benchmarks/adapters.py: rl_environment beside the integer API, and the information
    state's cost early and late (OpenSpiel, from the rl extra)."""
    pytest.importorskip("pyspiel", reason="needs the rl extra: pip install -e '.[rl]'")
    out = run("benchmarks/adapters.py", "--games", "2")
    assert "ratio rl_environment / raw:" in out
    assert "ratio move 200 / move 10" in out


@pytest.mark.slow
def test_feed_lines_compares_the_feed_with_every_event_worded():
    out = run("benchmarks/feed_lines.py", "1")
    assert "feed / events:" in out and "repeat the line before" in out


def test_web_parts_prints_the_work_of_a_move_by_part():
    """benchmarks/web_parts.py: the web table's work for a move in one process (web extra)."""
    pytest.importorskip("starlette", reason="needs the web extra: pip install -e '.[web]'")
    from lifeboat_rules import web
    if web.compiled():      # it wraps the table's methods: the compiled build refuses, and says so
        done = launch("benchmarks/web_parts.py", "--games", "1")
        assert done.returncode != 0 and "run it on a pure-Python install" in done.stderr, done.stderr
        return
    out = run("benchmarks/web_parts.py", "--games", "1")
    assert "ms of CPU a move" in out
    parts = {line.strip().rsplit(" ", 2)[0].strip() for line in out.splitlines() if line.startswith("  ")}
    for part in ("buttons", "feed", "write to the file", "views", "diff", "engine apply"):
        assert part in parts, (part, out)
    assert "CPU a move / engine apply = " in out


def test_web_sockets_prints_the_socket_layer_by_way_of_sending():
    """benchmarks/web_sockets.py: the socket layer's CPU per message and its four answers, each
    way of sending on each event loop installed, as ratios to the first (web extra)."""
    pytest.importorskip("starlette", reason="needs the web extra: pip install -e '.[web]'")
    out = run("benchmarks/web_sockets.py", "--messages", "100", "--runs", "1")
    rows = [line.split() for line in out.splitlines() if line.startswith("  ") and " on " in line]
    ways = {(row[0], row[2]) for row in rows}
    assert {("starlette+timeout", "asyncio"), ("direct+timeout", "asyncio"), ("direct", "asyncio"),
            ("sender-tasks", "asyncio"), ("table-sockets", "asyncio")} <= ways, out
    assert rows[0][5] == "1.00", out


def test_web_load_prints_the_servers_cpu_a_move_against_the_engine():
    """benchmarks/web_load.py: a round of a real server under its clients, the server's CPU a
    move and its ratios to the engine's apply, measured around the round and (on two cores or
    more) beside it under the same load (web extra)."""
    pytest.importorskip("starlette", reason="needs the web extra: pip install -e '.[web]'")
    out = run("benchmarks/web_load.py", "--games", "1", "--rounds", "1", "--max-moves", "60")
    assert "server CPU per move / engine apply = " in out, out
    assert "each against the engine's apply measured right before and after it: median" in out, out
    if len(os.sched_getaffinity(0)) >= 2:
        assert "measured at the same time beside the clients" in out, out


def test_web_store_prints_what_a_group_commit_would_save():
    """benchmarks/web_store.py: a move's write to the table's file, alone and grouped (web extra)."""
    pytest.importorskip("starlette", reason="needs the web extra: pip install -e '.[web]'")
    out = run("benchmarks/web_store.py", "--games", "2", "--moves", "20", "--runs", "1")
    for way in ("Store.save_moves", "a transaction a move", "2 moves a transaction"):
        assert way in out, (way, out)
    assert "a group commit of 2 moves would save" in out


def test_web_load_gives_the_interval_of_the_rounds_median():
    """The interval web_load.py prints beside a median of the rounds' ratios: the same for the
    same rounds, around the median, narrower with more rounds alike, none under 5 rounds."""
    pytest.importorskip("starlette", reason="needs the web extra: pip install -e '.[web]'")
    sys.path.insert(0, str(ROOT / "benchmarks"))
    try:
        import web_load
    finally:
        sys.path.remove(str(ROOT / "benchmarks"))
    assert web_load.median_interval([18.0] * 7) == (18.0, 18.0)
    few = [15.0, 22.0, 17.0, 25.0, 19.0, 16.0, 21.0]
    low, high = web_load.median_interval(few)
    assert low < 19.0 < high and 15.0 <= low and high <= 25.0
    assert web_load.median_interval(few) == (low, high)
    many_low, many_high = web_load.median_interval(few * 8)
    assert many_high - many_low < high - low
    assert web_load.spread(few[:4]) == ""
    assert web_load.spread(few) == f" (90% interval of the median, the rounds resampled: {low:.1f} to {high:.1f})"
