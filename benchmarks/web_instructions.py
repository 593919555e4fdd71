"""The web table's work for a move in instructions, under callgrind (issue #16): prints, never
asserts.

    python benchmarks/web_instructions.py [--moves N] [--parts]

CPU time drifts with the machine by a third from minute to minute (docs/web.md, Speed), so a
change of a few hundredths in the server's work cannot be told from the noise in
``web_load.py`` or ``web_parts.py``. Instructions do not drift: this script runs, each under
``valgrind --tool=callgrind`` (Debian's ``valgrind``) with ``PYTHONHASHSEED=0``,

- the server's work as ``web_parts.py`` does it (8 games of 4 link seats in one process, a
  random pending seat making a random move of its decision, then every page's new state as a
  diff, without sockets and without the pages' own side), with 0 and with N moves;
- the engine's own ``apply`` over random play of the same ruleset (as ``web_load.py``'s
  reference: the moves chosen beforehand and applied again on fresh games, so only ``apply``
  is counted), with 0 and with N moves;

and prints each one's instructions a move (the run with N less the run with 0, over N) and
their ratio. With ``--parts``, the server's work again without each of its parts in turn (the
buttons, the diff and its JSON text, the feed, the offer fingerprints, the stage in words: the
part made to give nothing), and what each part costs: the difference. The moves are chosen
from the engine's listing, not from the buttons, so that every run plays the same moves.

The counts of the same code repeat within about 1% from run to run (what varies: the order of
sets and dicts of objects, which follows their addresses). The ratio of instructions is not
the ratio of CPU time: the server touches far more memory between two moves than the engine
alone, so each of its instructions takes longer (about twice, on the development machine). It
is the figure for comparing two versions of the code; ``web_load.py`` remains the one for the
time a move takes. Two runs at a time: on a 2-core machine about 2 minutes, 7 with ``--parts``.
"""

from __future__ import annotations

import argparse
import asyncio
import concurrent.futures
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile


PARTS = ("buttons", "diff", "feed", "offers", "stage")


def server_work(moves: int, without: str = "") -> int:
    """Sets up 8 games with their pages' first states, then plays ``moves`` moves; ``without``:
    one of PARTS made to give nothing."""
    from lifeboat_rules.web import app as web_app, tables

    if without == "buttons":
        tables.Table.choices = lambda self, seat, lang, view=None: []
    elif without == "diff":
        web_app.changes = lambda old, new: {"set": [], "del": []}
    elif without == "feed":
        tables.Table.feed = lambda self, viewer, lang, since: []
    elif without == "offers":
        tables.Table.offer = lambda self, seat: "-"
    elif without == "stage":
        tables.Table.stage_text = lambda self, view, viewer, lang: None
    folder = tempfile.mkdtemp(prefix="lifeboat-instructions-")
    asyncio.set_event_loop(asyncio.new_event_loop())     # (the server's locks want one)
    server = web_app.Server(os.path.join(folder, "instructions.sqlite3"), max_games=8)
    hall = server.hall
    rng = random.Random(0)
    games = []
    for number in range(8):
        created = hall.create("classic", 4, "en", ["link"] * 4, seed=number)
        pages = {}
        for token, role, seat in hall.store.live_tokens(created["game"]):
            if role == "seat":
                page = pages[seat] = web_app.Connection(None, hall.enter(token), "en", 20.0, 40)
                page.changes = True          # a diff of the state the page holds, as the page asks
                server._state(page, True)
        games.append((hall.table(created["game"]), pages))
    done = 0
    while games and done < moves:
        table, pages = entry = games[rng.randrange(len(games))]
        game = table.game
        if game.over:
            games.remove(entry)
            continue
        seat = rng.choice(sorted({d.by for d in game.pending}))
        action = rng.choice([a for a in game.legal_actions(seat) if a["type"] not in tables.ANY_TIME])
        hall.move(pages[seat].pass_, seat, action, table.offer(seat))
        pages[seat].ref = done
        for page in pages.values():
            server._state(page, False)
        done += 1
    return done


def engine_work(moves: int) -> int:
    """Plays random games to choose enough moves (in both runs alike), then applies ``moves``
    of them again on fresh games."""
    import lifeboat_rules as lr

    rng = random.Random(3)
    games, chosen, seed = [], 0, 100
    while chosen < 4000:
        game = lr.new_game("classic", players=4, seed=seed)
        start, actions = game.clone(), []
        while not game.over and chosen < 4000:
            action = rng.choice(game.legal_actions(game.pending[0].by))
            game.apply(action)
            actions.append(action)
            chosen += 1
        games.append((start, actions))
        seed += 1
    done = 0
    for start, actions in games:
        for action in actions:
            if done == moves:
                return done
            start.apply(action)
            done += 1
    return done


def count(which: str, moves: int, without: str = "") -> int:
    """The instructions of one run of ``which`` with ``moves`` moves, under callgrind."""
    command = ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null",
               sys.executable, os.path.abspath(__file__), "--inner", which, "--moves", str(moves)]
    if without:
        command += ["--without", without]
    run = subprocess.run(command, capture_output=True, text=True,
                         env={**os.environ, "PYTHONHASHSEED": "0"}, check=True)
    found = re.search(r"Collected : (\d+)", run.stderr)
    if found is None:
        raise SystemExit(f"no count from callgrind:\n{run.stderr[-2000:]}")
    done = re.search(r"moves (\d+)", run.stdout)
    if moves and (done is None or int(done.group(1)) != moves):
        raise SystemExit(f"{which} made {done.group(1) if done else 'no'} moves, not {moves}")
    return int(found.group(1))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=1000)
    parser.add_argument("--parts", action="store_true", help="also each part of the server's work")
    parser.add_argument("--inner", choices=["server", "engine"], help=argparse.SUPPRESS)
    parser.add_argument("--without", choices=PARTS, default="", help=argparse.SUPPRESS)
    args = parser.parse_args()
    from lifeboat_rules import web
    if args.parts and web.compiled():
        sys.exit("web_instructions.py: --parts leaves each part out by replacing a web table's "
                 "method, which the compiled build does not allow (docs/web.md, The compiled "
                 "build): run it on a pure-Python install")
    if args.inner:
        done = server_work(args.moves, args.without) if args.inner == "server" else engine_work(args.moves)
        print(f"moves {done}")
        return
    if not 100 <= args.moves <= 1000:
        parser.error("100..1000 moves (the 8 games last about 1,200)")
    if shutil.which("valgrind") is None:
        raise SystemExit("valgrind is not installed (Debian: apt-get install valgrind)")
    kinds = [("server", ""), ("engine", "")] + ([("server", part) for part in PARTS] if args.parts else [])
    runs = [(which, moves, without) for which, without in kinds for moves in (0, args.moves)]
    with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
        found = dict(zip(runs, pool.map(lambda run: count(*run), runs)))
    per_move = {(which, without): (found[(which, args.moves, without)] - found[(which, 0, without)]) / args.moves
                for which, without in kinds}
    server, engine = per_move[("server", "")], per_move[("engine", "")]
    build = "compiled (mypyc)" if web.compiled() else "pure Python"
    print(f"{args.moves} moves, under callgrind (PYTHONHASHSEED=0), the web table's build: {build}:")
    print(f"  the server's work (8 games of 4 link seats, every page's state): {server:,.0f} instructions a move")
    print(f"  the engine's own apply (random play of the same ruleset): {engine:,.0f} instructions a move")
    print(f"  server / engine apply = {server / engine:.2f} "
          "(in instructions; in CPU time the server's are slower, see the docstring)")
    if args.parts:
        print("  each part of the server's work (the work without it, less the whole):")
        for part in PARTS:
            cost = server - per_move[("server", part)]
            print(f"    {part:8s} {cost:12,.0f} instructions a move ({100 * cost / server:4.1f}%)")


if __name__ == "__main__":
    main()
