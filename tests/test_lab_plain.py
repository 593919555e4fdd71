"""``simulate`` without the lab extra: it plays and counts with the core alone, and says what
needs the extra (README: `pip install .` then `lifeboat-rules simulate --games 1 --verbose`)."""

from __future__ import annotations

import subprocess

import pytest
import sys

# Runs the command line with the lab extra's packages made unimportable.
BLOCKED = """
import sys
BLOCKED = {"statsmodels", "scipy", "numpy", "matplotlib", "rich", "dask", "distributed", "pandas"}
class Block:
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in BLOCKED:
            raise ImportError(f"{name} is blocked for this test")
        return None
sys.meta_path.insert(0, Block())
import importlib.util
_find_spec = importlib.util.find_spec
def find_spec(name, package=None):
    return None if name.split(".")[0] in BLOCKED else _find_spec(name, package)
importlib.util.find_spec = find_spec
from lifeboat_rules.cli import main
code = main(sys.argv[1:])
loaded = sorted(m for m in sys.modules if m.split(".")[0] in BLOCKED)
print("loaded:", loaded)
sys.exit(code)
"""


def run(*args):
    return subprocess.run([sys.executable, "-c", BLOCKED, "simulate", *args],
                          capture_output=True, text=True, timeout=300)


def test_one_game_with_its_events_needs_nothing_more():
    done = run("--games", "1", "--verbose")
    assert done.returncode == 0, done.stderr
    assert "Game over" in done.stdout and "winner(s):" in done.stdout
    assert "loaded: []" in done.stdout


@pytest.mark.slow
def test_many_games_are_counted_without_intervals_and_say_what_brings_them():
    done = run("--games", "6", "--jobs", "2")
    assert done.returncode == 0, done.stderr
    assert "classic: 6 game(s), 6 players, seeds 1-6, bots random" in done.stdout
    assert "95% intervals need the lab extra: pip install '.[lab]' in the lifeboat_rules source folder" in done.stdout
    assert "loaded: []" in done.stdout


def test_what_needs_the_extra_says_so():
    for args in (["--report", "out"], ["--compare", "shark"], ["--dask", "tcp://127.0.0.1:1"]):
        done = run("--games", "2", *args)
        assert done.returncode == 2
        assert f"{args[0]} needs the lab extra" in done.stderr


def test_without_intervals_the_table_has_no_interval_column():
    done = run("--games", "3")
    assert done.returncode == 0, done.stderr
    header = next(line for line in done.stdout.splitlines() if line.startswith("character"))
    assert header.split() == ["character", "games", "wins", "rate", "score", "survival",
                              "treasure", "love", "hate"]
