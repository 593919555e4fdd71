"""The web table's work for one move, in one process and by part (issue #16): prints, never
asserts.

    python benchmarks/web_parts.py [--games N] [--seed S]

What ``benchmarks/web_load.py`` measures through sockets, without them: N games of 4 link
seats (a temporary SQLite file), each seat's page taking its states as changes as the page
does, a random pending seat moving with one of its buttons, and after each move every page's
new state made as the server makes it (``Server._state``). It prints the CPU time (this
process: ``time.process_time``) of the move and the states per move, and how it divides among
the parts: the buttons, the feed, the write to the file, the views, the legal moves, the diff,
the engine's ``apply``, the decision and the stage in words, the JSON text; and beside it, the
engine's own ``apply`` measured right after, with the ratio of the two (as web_load.py prints
it, without the sockets). A part called from inside another is counted in the outer one (the
legal moves listed for the buttons are the buttons'). Whatever else the machine runs shares
it.
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import os
import random
import sys
import tempfile
import time

import orjson

import lifeboat_rules as lr
from lifeboat_rules.web import app as web_app, labels, tables
from lifeboat_rules.web.changes import apply_changes
from web_load import apply_reference      # (this folder: the same reference as web_load.py's)

PARTS = [  # (owner, name, part)
    (lr.Game, "legal_actions", "legal moves"),
    (lr.Game, "moves", "legal moves"),
    (lr.Game, "views", "views"),
    (lr.Game, "view", "views"),
    (lr.Game, "apply", "engine apply"),
    (tables.Table, "feed", "feed"),
    (tables.Table, "choices", "buttons"),
    (tables.Table, "decision_text", "decision in words"),
    (labels, "stage_words", "stage in words"),
    (labels, "fight_words", "stage in words"),
    (tables.Hall, "_save", "write to the file"),
    (web_app, "changes", "diff"),
    (web_app, "to_bytes", "JSON text"),
]


class Parts:
    """CPU time by part while ``timing``: each of PARTS wrapped, the outermost call counted."""

    def __init__(self):
        self.spent: collections.Counter = collections.Counter()
        self.depth = 0
        self.saved = []

    def __enter__(self):
        for owner, name, part in PARTS:
            if not hasattr(owner, name):
                continue
            inner = getattr(owner, name)
            self.saved.append((owner, name, inner))
            setattr(owner, name, self._timed(inner, part))
        return self

    def __exit__(self, *exc):
        for owner, name, inner in reversed(self.saved):
            setattr(owner, name, inner)

    def _timed(self, inner, part):
        def timed(*args, **kwargs):
            if self.depth:
                return inner(*args, **kwargs)
            self.depth += 1
            began = time.process_time()
            try:
                return inner(*args, **kwargs)
            finally:
                self.spent[part] += time.process_time() - began
                self.depth -= 1
        return timed


def run(games: int, seed: int) -> None:
    folder = tempfile.mkdtemp(prefix="lifeboat-parts-")
    asyncio.set_event_loop(asyncio.new_event_loop())     # (the server's locks want one)
    server = web_app.Server(os.path.join(folder, "parts.sqlite3"), max_games=games)
    hall = server.hall
    rng = random.Random(seed)
    tables_, held = [], {}
    for number in range(games):
        created = hall.create("classic", 4, "en", ["link"] * 4, seed=number)
        links = [t for t, role, _ in hall.store.live_tokens(created["game"]) if role == "seat"]
        pages = []
        for token in links:
            page = web_app.Connection(None, hall.enter(token), "en", 20.0, 40)
            page.changes = True
            held[page] = orjson.loads(server._state(page, True))     # its first state, whole
            pages.append(page)
        tables_.append((hall.table(created["game"]), pages))
    moves, spent = 0, 0.0
    with Parts() as parts:
        while tables_:
            table, pages = entry = tables_[rng.randrange(len(tables_))]
            if table.game.over:
                tables_.remove(entry)
                continue
            pending = {d.by for d in table.game.pending}
            page = rng.choice([p for p in pages if p.seat in pending])
            state = held[page]
            action = rng.choice([c for c in state["choices"] if not c["any_time"]])["action"]
            began = time.process_time()
            hall.move(page.pass_, page.seat, action, state["offer"])
            page.ref = moves
            made = [(p, server._state(p, False)) for p in pages]
            spent += time.process_time() - began
            for p, text in made:
                message = orjson.loads(text)
                held[p] = apply_changes(held[p], message) if message["type"] == "diff" else message
            moves += 1
    print(f"{games} games of 4 link seats, {moves} moves: {1000 * spent / moves:.3f} ms of CPU a move "
          "(the move, its write to the file and its 4 pages' states)")
    for part, seconds in parts.spent.most_common():
        print(f"  {part:18s} {1000 * seconds / moves:.3f} ms")
    rest = spent - sum(parts.spent.values())
    print(f"  {'the rest':18s} {1000 * rest / moves:.3f} ms (the states put together, the links checked...)")
    apply_reference(4000)     # (the engine's first moves in a process are slower: warmed first)
    engine = apply_reference(4000)
    print(f"engine apply alone, in this process right after: {1000 * engine:.3f} ms a move; "
          f"CPU a move / engine apply = {spent / moves / engine:.1f}")
    print(f"load average (1 minute) {os.getloadavg()[0]:.1f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=8)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    from lifeboat_rules import web
    if web.compiled():
        sys.exit("web_parts.py: times the parts by wrapping the web table's methods, which the "
                 "compiled build does not allow (docs/web.md, The compiled build): run it on a "
                 "pure-Python install")
    if not 1 <= args.games <= 100:
        parser.error("1..100 games")
    run(args.games, args.seed)


if __name__ == "__main__":
    main()
