"""Load on one web table process (issue #9): prints, never asserts.

    python benchmarks/web_load.py [--games N] [--seconds S] [--max-moves M] [--rounds R] [--no-beside]

R rounds (5 unless told), each with a fresh server: starts ``lifeboat-rules serve`` on
127.0.0.1 (a free port, a temporary SQLite file), creates N games of 4 seats each played
through links, and connects one WebSocket client per seat (4N in all) that, as the table page
does, takes its states as changes (docs/web.md: a whole state, then diffs it applies). Once
every client has its first state (pages open once, not once a move: their opening is not
counted), each answers every decision of its seat at once with a random choice (a move refused
as ``too_fast`` is sent again a moment later). A round is bounded in time (S seconds) and moves
(M); games that end are not replaced. Over all rounds it prints the moves per second the server
applied, the time from a move to its answer (median, 95th percentile), the refusals by reason,
the messages the pages got a move, the server's CPU time per move (user + system, from /proc; and each round's; and the kernel's
share) and, measured in
the same run as references, the CPU time of the engine's own ``apply`` per move (random play of
the same ruleset) with the ratio of the two, over the run and round by round (each round's
against the engine measured right before and after it: the machine's speed drifts from minute
to minute; each median with its 90% interval, the rounds resampled, from 5 rounds on), and
the moves per second of the library alone doing a move, a view, ``to_dict``,
JSON and a SQLite commit, and the machine's load average (the clients and any other work share
it with the server). Only loopback traffic; each server is stopped at the end of its round.
It also prints which build of the web table the server runs, compiled or pure Python (to
measure the compiled build, run it with that install's Python from outside the repository:
there ``python -m`` would import the source instead).

Where the machine has two cores or more, it also measures the engine's ``apply`` at the same
time as the server, under the same load (``--beside``, the default): the server runs on one
core, the clients on the other(s), and a process of its own beside the clients plays the
engine's random games all through the round (niced, so that it takes little from the clients)
and reports the CPU time of its ``apply`` calls; each round's ratio against that reference is
printed too. A reference measured before and after a round, on a machine the round no longer
loads, leaves out what the round's load does to the speed of each instruction (the other
core busy), and so moves with it: the same code read 15 to 33 round by round against it, 18 to
24 against the reference beside it (docs/web.md, Speed).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import socket
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request

import orjson
import websockets

import lifeboat_rules as lr
from lifeboat_rules.web.changes import apply_changes


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def post(url: str, body: dict) -> dict:
    request = urllib.request.Request(url, data=json.dumps(body).encode(),
                                     headers={"content-type": "application/json"}, method="POST")
    with urllib.request.urlopen(request, timeout=10) as response:
        return json.loads(response.read())


async def seat_links(ws_url: str, host: str) -> dict:
    async with websockets.connect(ws_url) as ws:
        await ws.send(json.dumps({"type": "hello", "token": host}))
        state = json.loads(await ws.recv())
    return {s: e["link"] for s, e in state["table"]["seats"].items() if e["link"]}


class Start:
    """The clients' start: each has its first state (a page opening, counted apart from the
    moves), then they all play from ``go`` to ``deadline``."""

    def __init__(self, everyone: int):
        self.everyone = everyone
        self.ready = 0
        self.all_in = asyncio.Event()
        self.go = asyncio.Event()
        self.deadline = 0.0


async def player(ws_url, seat, token, rng, stats, start: Start, max_moves):
    """One seat's client: answer each decision at once, until the bounds or the game's end."""
    async with websockets.connect(ws_url, max_size=2 ** 24) as ws:
        # as the page does: states as changes to the one held (docs/web.md)
        await ws.send(json.dumps({"type": "hello", "token": token, "changes": True}))
        first = orjson.loads(await ws.recv())      # its whole first state
        start.ready += 1
        if start.ready == start.everyone:
            start.all_in.set()
        await start.go.wait()
        sent_at = None          # a move is on its way: wait for its answer (its ``ref``)
        number = 0
        held = None
        while time.monotonic() < start.deadline and stats["moves"] < max_moves:
            if first is not None:
                message, first = first, None
            else:
                try:
                    message = orjson.loads(await asyncio.wait_for(ws.recv(), start.deadline - time.monotonic()))
                    stats["messages"] += 1
                except asyncio.TimeoutError:
                    break
            if message["type"] == "diff":
                if held is None or held["v"] != message["base"]:
                    if held is not None:      # once: the whole state comes next
                        await ws.send(json.dumps({"type": "resync"}))
                    held = None
                    continue
                # (in place: the client keeps no older state, and stays light beside the server)
                message = held = apply_changes(held, message, copy=False)
            elif message["type"] == "state":
                held = message
            if sent_at is not None and message.get("ref") == number:
                stats["latency"].append(time.monotonic() - sent_at)
                sent_at = None
                if message["type"] == "refused":
                    code = message["code"]
                    stats["refused"][code] = stats["refused"].get(code, 0) + 1
                    if code == "too_fast" and held is not None:
                        # faster than a page may send (Limits.rate): a moment, then again
                        await asyncio.sleep(0.1)
                        message = held
                else:
                    stats["moves"] += 1
            if message["type"] != "state" or sent_at is not None:
                continue
            if message["view"]["over"]:
                break
            choices = [c for c in message["choices"] if not c["any_time"]]
            if seat in message["waiting"] and choices:
                number += 1
                sent_at = time.monotonic()
                await ws.send(json.dumps({"type": "move", "seat": seat, "offer": message["offer"],
                                          "ref": number, "action": rng.choice(choices)["action"]}))


def cpu_seconds(pid: int) -> float | None:
    """CPU time (user + system) a process has used so far, where /proc tells it."""
    split = cpu_split(pid)
    return None if split is None else split[0] + split[1]


def cpu_split(pid: int) -> tuple[float, float] | None:
    """CPU time a process has used so far (user, system), where /proc tells it."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
        tick = os.sysconf("SC_CLK_TCK")
        return int(fields[11]) / tick, int(fields[12]) / tick
    except (OSError, ValueError, IndexError):
        return None


def timed_applies(more) -> tuple:
    """``(moves, CPU seconds)`` of the engine's ``apply`` alone over random play in this
    process, while ``more(moves so far)`` (the listing of the legal moves is not counted)."""
    rng = random.Random(3)
    done, spent, seed = 0, 0.0, 100
    while more(done):
        game = lr.new_game("classic", players=4, seed=seed)
        seed += 1
        while not game.over and more(done):
            action = rng.choice(game.legal_actions(game.pending[0].by))
            began = time.process_time()
            game.apply(action)
            spent += time.process_time() - began
            done += 1
    return done, spent


def apply_reference(moves: int) -> float:
    """CPU seconds of the engine's ``apply`` alone per move (``timed_applies``)."""
    done, spent = timed_applies(lambda done: done < moves)
    return spent / done


def beside_reference() -> None:
    """The reference beside a round (``--reference``, run by ``one_round``): random play of
    the engine until a line comes on stdin, then "moves cpu_seconds" of its ``apply`` calls."""
    import threading

    os.nice(10)          # (the clients keep most of their core)
    apply_reference(4000)       # warm, as the other references
    print("ready", flush=True)
    stop = threading.Event()
    threading.Thread(target=lambda: (sys.stdin.readline(), stop.set()), daemon=True).start()
    done, spent = timed_applies(lambda done: not stop.is_set())
    print(done, spent, flush=True)


def pin(pid: int, cores: set) -> bool:
    """``pid`` runs on ``cores`` only, where the system can say so."""
    try:
        os.sched_setaffinity(pid, cores)
        return True
    except (AttributeError, OSError):
        return False


def library_reference(moves: int, db_path: str) -> float:
    """Moves per second of the library doing the server's per-move work, in this process."""
    db = sqlite3.connect(db_path, isolation_level=None)
    db.execute("PRAGMA journal_mode=WAL")
    db.execute("PRAGMA synchronous=NORMAL")
    db.execute("CREATE TABLE g (id INTEGER PRIMARY KEY, state TEXT)")
    db.execute("INSERT INTO g VALUES (1, '')")
    rng = random.Random(1)
    done = 0
    began = time.perf_counter()
    seed = 0
    while done < moves:
        game = lr.new_game("classic", players=4, seed=seed)
        seed += 1
        while not game.over and done < moves:
            decision = game.pending[0]
            game.apply(rng.choice(game.legal_actions(decision.by)))
            game.view(decision.by)
            db.execute("BEGIN IMMEDIATE")
            db.execute("UPDATE g SET state = ? WHERE id = 1", (json.dumps(game.to_dict()),))
            db.execute("COMMIT")
            done += 1
    elapsed = time.perf_counter() - began
    db.close()
    return done / elapsed


async def one_round(args, folder: str, number: int) -> dict:
    """One server, its games played to the bounds; what it did."""
    before = apply_reference(4000)
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    ws_url = f"ws://127.0.0.1:{port}/ws"
    server = subprocess.Popen([sys.executable, "-m", "lifeboat_rules.cli", "serve", "--allow-seeds", "--port", str(port),
                               "--db", os.path.join(folder, f"load-{number}.sqlite3"),
                               "--max-games", str(args.games)],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        for _ in range(300):
            try:
                urllib.request.urlopen(base + "/api/setup", timeout=1).close()
                break
            except OSError:
                time.sleep(0.1)
        links = []
        for game in range(args.games):
            created = post(base + "/api/games", {"ruleset": "classic", "players": 4,
                                                 "seed": number * args.games + game, "seats": ["link"] * 4})
            links.append(await seat_links(ws_url, created["host"]))
        stats = {"moves": 0, "latency": [], "refused": {}, "messages": 0}
        rng = random.Random(7 + number)
        start = Start(sum(len(game) for game in links))
        playing = asyncio.gather(*(player(ws_url, seat, token, random.Random(rng.random()), stats, start,
                                          args.max_moves)
                                   for game in links for seat, token in game.items()))
        await asyncio.wait_for(start.all_in.wait(), 60)     # every page open, with its first state
        beside = None
        cores = sorted(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else []
        if args.beside and len(cores) >= 2 and pin(server.pid, {cores[0]}):
            # the server on a core of its own; the clients and the reference on the others
            pin(0, set(cores[1:]))
            beside = subprocess.Popen([sys.executable, __file__, "--reference"], stdin=subprocess.PIPE,
                                      stdout=subprocess.PIPE, text=True)
            pin(beside.pid, set(cores[1:]))
            beside.stdout.readline()         # warmed up
        cpu_before = cpu_split(server.pid)
        began = time.monotonic()
        start.deadline = began + args.seconds
        start.go.set()
        await playing
        stats["elapsed"] = time.monotonic() - began
        cpu_after = cpu_split(server.pid)
        stats["beside"] = None
        if beside is not None:
            out, _ = beside.communicate("stop\n", timeout=60)
            done, spent = out.split()
            stats["beside"] = float(spent) / int(done)
            pin(0, set(cores))
        if cpu_before is None or cpu_after is None:
            stats["cpu"] = stats["system"] = None
        else:
            stats["system"] = cpu_after[1] - cpu_before[1]
            stats["cpu"] = cpu_after[0] - cpu_before[0] + stats["system"]
    finally:
        server.terminate()
        server.wait(timeout=20)
    # the engine's own apply, measured right before and right after the round: this
    # machine's speed drifts by a fifth from one minute to the next, so each round has its own
    # reference
    stats["apply"] = (before + apply_reference(4000)) / 2
    return stats


def server_build() -> str:
    """Which build of the web table the server runs: compiled (``LIFEBOAT_COMPILE=1``,
    docs/web.md "The compiled build") or pure Python, asked of the interpreter and folder the
    server is started with (run from the repository's root, ``-m`` finds the source first)."""
    asked = subprocess.run([sys.executable, "-c", "from lifeboat_rules import web; print(web.compiled())"],
                           capture_output=True, text=True, check=True)
    return "compiled (mypyc)" if asked.stdout.strip() == "True" else "pure Python"


async def run(args) -> None:
    folder = tempfile.mkdtemp(prefix="lifeboat-load-")
    load_before = os.getloadavg()[0]
    # the engine's first few thousand moves in a process are slower (a third, on the
    # development machine) than the ones after: the references below are of a warm engine
    apply_reference(4000)
    rounds = [await one_round(args, folder, number) for number in range(args.rounds)]
    moves = sum(r["moves"] for r in rounds)
    elapsed = sum(r["elapsed"] for r in rounds)
    latency = sorted(x for r in rounds for x in r["latency"]) or [0.0]
    refused: dict = {}
    for r in rounds:
        for code, n in r["refused"].items():
            refused[code] = refused.get(code, 0) + n
    reference = library_reference(min(max(moves, 200), 3000), os.path.join(folder, "ref.sqlite3"))
    apply_cpu = apply_reference(min(max(moves, 2000), 20_000))
    rate = moves / elapsed
    print(f"load average (1 minute) {load_before:.1f} before, {os.getloadavg()[0]:.1f} after")
    print(f"the server's build: {server_build()}")
    print(f"{args.rounds} round{'s' if args.rounds != 1 else ''} of {args.games} simultaneous games, "
          f"{4 * args.games} WebSocket clients, "
          f"{elapsed:.1f} s: {moves} moves, {rate:.0f} moves/s through the server")
    print(f"move to answer: median {1000 * statistics.median(latency):.1f} ms, "
          f"95th percentile {1000 * latency[int(0.95 * (len(latency) - 1))]:.1f} ms")
    print(f"refusals: {refused or 'none'}")
    messages = sum(r["messages"] for r in rounds)
    if moves:
        print(f"messages to the pages: {messages / moves:.2f} a move (4 pages a game: one state "
              f"each after every move would be 4; moves of a game taken together are one state)")
    if all(r["cpu"] is not None for r in rounds) and moves:
        busy = sum(r["cpu"] for r in rounds)
        per_move = busy / moves
        each = ", ".join(f"{1000 * r['cpu'] / r['moves']:.2f}" for r in rounds if r["moves"])
        system = sum(r["system"] for r in rounds)
        print(f"server CPU: {busy:.1f} s, {1000 * per_move:.2f} ms a move (rounds: {each}; "
              f"the clients share the machine: {moves / busy:.0f} moves per server CPU second); "
              f"of it in the kernel (system time: the sockets' reads and writes) "
              f"{100 * system / busy:.0f}%")
        ratios = [r["cpu"] / r["moves"] / r["apply"] for r in rounds if r["moves"]]
        print(f"engine apply alone: {1000 * apply_cpu:.3f} ms a move; "
              f"server CPU per move / engine apply = {per_move / apply_cpu:.1f}")
        print(f"the same ratio round by round, each against the engine's apply measured right "
              f"before and after it: median {statistics.median(ratios):.1f}{spread(ratios)} "
              f"(rounds: {', '.join(f'{x:.1f}' for x in ratios)})")
        beside = [(r["cpu"] / r["moves"], r["beside"]) for r in rounds if r["moves"] and r.get("beside")]
        if beside:
            each = [cpu / reference for cpu, reference in beside]
            print(f"the same ratio round by round, each against the engine's apply measured at the "
                  f"same time beside the clients (the server on a core of its own): median "
                  f"{statistics.median(each):.1f}{spread(each)} (rounds: {', '.join(f'{x:.1f}' for x in each)}; "
                  f"the engine's apply {', '.join(f'{1000 * r:.3f}' for _, r in beside)} ms)")
        elif args.beside:
            print("(no reference beside the rounds: it needs two cores or more, and a system "
                  "that pins processes to cores)")
    print(f"reference, the library alone (apply, view, to_dict, JSON, SQLite commit): "
          f"{reference:.0f} moves/s; server / reference = {rate / reference:.2f}")


def median_interval(values: list, share: float = 0.9, resamples: int = 2000) -> tuple:
    """How far the median of ``values`` (the rounds' ratios) may be from the median of many
    more such rounds: the central ``share`` of the medians of ``resamples`` resamplings of
    ``values`` with replacement (a percentile bootstrap; the same figures for the same
    values)."""
    rng = random.Random(0)
    medians = sorted(statistics.median(rng.choices(values, k=len(values))) for _ in range(resamples))
    cut = int((1 - share) / 2 * resamples)
    return medians[cut], medians[resamples - 1 - cut]


def spread(values: list) -> str:
    """What follows a median of the rounds' ratios: its 90% interval (``median_interval``) for
    5 rounds or more, else nothing."""
    if len(values) < 5:
        return ""
    low, high = median_interval(values)
    return f" (90% interval of the median, the rounds resampled: {low:.1f} to {high:.1f})"


def main() -> None:
    if sys.argv[1:] == ["--reference"]:
        beside_reference()
        return
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=8)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--max-moves", type=int, default=20_000)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--beside", action=argparse.BooleanOptionalAction, default=True,
                        help="also measure the engine beside each round, under its load (default)")
    args = parser.parse_args()
    if not (1 <= args.games <= 200 and 0 < args.seconds <= 600 and args.max_moves > 0
            and 1 <= args.rounds <= 50):
        parser.error("bounds: 1..200 games, at most 600 seconds, 1..50 rounds")
    asyncio.run(run(args))


if __name__ == "__main__":
    main()
