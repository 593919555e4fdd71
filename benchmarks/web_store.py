"""What writing a move to the web table's SQLite file costs, and what writing the moves of
several games in one transaction would save (issue #16): prints, never asserts.

    python benchmarks/web_store.py [--games N] [--moves M] [--runs R]

The table writes each move in a transaction of its own (``Store.save_moves``: the game's row
moved on where it still is where the move started from, the move inserted, committed) before
it answers the move, so that an answered move is never lost. A group commit would gather the
moves of several games that arrive together, write them in one transaction and answer them all
after it. This script times (CPU of this process, ``time.process_time``), on files of the
table's own schema (``store.SCHEMA``, WAL, ``synchronous=NORMAL`` as the server opens them):

- ``Store.save_moves``, one move a call, the games taking turns (what the table pays);
- the same two statements in a transaction of their own for each move (the reference);
- the same statements for one move of each of N games in one transaction (a group commit of
  N moves, the most a group of N games' moves arriving together can share).

Each figure is printed in microseconds a move and as a ratio to the reference measured in the
same run; the R runs alternate the three ways, so that the machine's drift falls on all alike.
"""

from __future__ import annotations

import argparse
import os
import sqlite3
import statistics
import tempfile
import time

import orjson

import lifeboat_rules as lr
from lifeboat_rules.web import store as web_store

ACTION = {"by": "lady_lauren", "type": "row", "card": "navigation_12"}     # a typical move's size


def _new_file(folder: str, name: str) -> str:
    return os.path.join(folder, name)


def _games(games: int) -> list:
    state = lr.new_game("classic", players=4, seed=0).to_dict()
    return [(f"g{number}", state) for number in range(games)]


def store_way(folder: str, games: int, moves: int, run: int) -> float:
    """``Store.save_moves``, one move a call: CPU seconds a move."""
    store = web_store.Store(_new_file(folder, f"store-{run}.sqlite3"))
    try:
        at = {}
        for game_id, state in _games(games):
            store.add_game(game_id, "classic", 4, "en", state, [], [])
            at[game_id] = len(state["log"])
        ids = list(at)
        began = time.process_time()
        for number in range(moves):
            game_id = ids[number % games]
            store.save_moves(game_id, [(at[game_id], ACTION)], at[game_id] + 1, False, 1)
            at[game_id] += 1
        return (time.process_time() - began) / moves
    finally:
        store.close()


def raw_way(folder: str, games: int, moves: int, run: int, grouped: bool) -> float:
    """The statements of ``Store.save_moves`` on a file of its schema, a transaction for each
    move or one for a move of each game: CPU seconds a move."""
    db = sqlite3.connect(_new_file(folder, f"raw-{run}-{int(grouped)}.sqlite3"), isolation_level=None)
    try:
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("PRAGMA synchronous=NORMAL")
        db.executescript(web_store.SCHEMA)
        now = time.time()
        at = {}
        for game_id, state in _games(games):
            size = len(state["log"])
            db.execute("INSERT INTO games (id, ruleset, players, lang, created, updated, base, version) "
                       "VALUES (?, 'classic', 4, 'en', ?, ?, ?, ?)", (game_id, now, now, size, size))
            at[game_id] = size
        ids = list(at)

        def one(game_id: str) -> None:
            changed = db.execute("UPDATE games SET version = ?, over = ?, updated = ?, played = played + ? "
                                 "WHERE id = ? AND version = ?",
                                 (at[game_id] + 1, 0, time.time(), 1, game_id, at[game_id])).rowcount
            assert changed == 1
            db.executemany("INSERT INTO moves (game_id, at, action) VALUES (?, ?, ?)",
                           [(game_id, at[game_id], orjson.dumps(ACTION).decode())])
            at[game_id] += 1

        began = time.process_time()
        if grouped:
            for _ in range(moves // games):
                db.execute("BEGIN IMMEDIATE")
                for game_id in ids:
                    one(game_id)
                db.execute("COMMIT")
            done = (moves // games) * games
        else:
            for number in range(moves):
                db.execute("BEGIN IMMEDIATE")
                one(ids[number % games])
                db.execute("COMMIT")
            done = moves
        return (time.process_time() - began) / done
    finally:
        db.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=8, help="games whose moves a group commit gathers")
    parser.add_argument("--moves", type=int, default=4000, help="moves written a way and run")
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    if not 1 <= args.games <= 100 or args.moves < args.games or args.runs < 1:
        parser.error("1..100 games, at least as many moves, at least one run")
    spent: dict = {"Store.save_moves": [], "a transaction a move": [], f"{args.games} moves a transaction": []}
    with tempfile.TemporaryDirectory(prefix="lifeboat-store-") as folder:
        raw_way(folder, args.games, args.moves, -1, False)         # (SQLite and the engine warmed)
        for run in range(args.runs):
            spent["a transaction a move"].append(raw_way(folder, args.games, args.moves, run, False))
            spent[f"{args.games} moves a transaction"].append(raw_way(folder, args.games, args.moves, run, True))
            spent["Store.save_moves"].append(store_way(folder, args.games, args.moves, run))
    reference = statistics.median(spent["a transaction a move"])
    print(f"{args.games} games, {args.moves} moves a way and run, {args.runs} runs (medians; "
          "CPU of this process)")
    for way, seconds in spent.items():
        median = statistics.median(seconds)
        print(f"  {way:24s} {1e6 * median:6.1f} us a move   {median / reference:.2f} of a transaction a move")
    saved = reference - statistics.median(spent[f"{args.games} moves a transaction"])
    print(f"a group commit of {args.games} moves would save {1e6 * saved:.1f} us a move")


if __name__ == "__main__":
    main()
