"""States sent as changes (docs/web.md, The WebSocket protocol): a page that asks for them gets
its first state whole and then diffs of the state it holds.

What must hold, over whole games with bots, for every seat's page and a spectator's: applying
the diffs a page received gives exactly the state a page opened at that moment is sent whole
(its feed being every entry the diffs brought, in order); every diff applies to the version the
page holds; no diff to a seat carries a card another seat holds, nor any hand but its own;
and a page that asks again (``resync``) gets the whole state. A server killed (SIGKILL) right
after answering a move has that move, and every one before it, when started again.
"""

from __future__ import annotations

import contextlib
import json
import os
import random
import signal
import socket
import subprocess
import sys
import time
import urllib.request

import pytest

from web_support import hello, missing_web, receive, require, send

require(missing_web())

from starlette.testclient import TestClient  # noqa: E402
from websockets.sync.client import connect as ws_connect  # noqa: E402

from lifeboat_rules.web.app import Server  # noqa: E402
from lifeboat_rules.web.changes import apply_changes, changes  # noqa: E402

# what a page accumulates or is sent once, rather than holds as it is
_ONCE = ("names", "ui", "feed", "feed_from", "chat", "chat_from", "v", "ref")


def _random_json(rng: random.Random, depth: int = 0):
    roll = rng.random()
    if depth < 3 and roll < 0.45:
        return {rng.choice("abcdef"): _random_json(rng, depth + 1) for _ in range(rng.randint(0, 4))}
    if depth < 3 and roll < 0.6:
        return [_random_json(rng, depth + 1) for _ in range(rng.randint(0, 3))]
    return rng.choice([None, True, False, 0, 1, 2, "x", "y", 1.5])


def _keys(value, path: list):
    """The path of every key inside ``value``, which is at ``path``."""
    if type(value) is dict:
        for key, inner in value.items():
            yield path + [key]
            yield from _keys(inner, path + [key])
    elif type(value) is list:
        for index, inner in enumerate(value):
            yield from _keys(inner, path + [index])


def _strings(value, path: list):
    """(path, string) of every string inside ``value``, which is at ``path``."""
    if type(value) is str:
        yield path, value
    elif type(value) is dict:
        for key, inner in value.items():
            yield from _strings(inner, path + [key])
    elif type(value) is list:
        for index, inner in enumerate(value):
            yield from _strings(inner, path + [index])


def _at(state: dict, path: list):
    for key in path:
        state = state[key]
    return state


def _random_pairs(seed: int, tries: int):
    """(old, new, their diff) for random pairs of JSON objects."""
    rng = random.Random(seed)
    for _ in range(tries):
        old, new = _random_json(rng), _random_json(rng)
        if type(old) is dict and type(new) is dict:
            yield old, new, changes(old, new)


def test_a_diff_takes_a_state_to_the_next_and_carries_only_the_next_ones_values():
    for old, new, diff in _random_pairs(5, 3000):
        assert apply_changes(old, diff) == new
        # as JSON too, where 1 and true, 0 and false differ (Python finds them equal)
        assert json.dumps(apply_changes(old, diff), sort_keys=True) == json.dumps(new, sort_keys=True)
        assert json.loads(json.dumps(diff)) == diff          # JSON as it is
        for path, value in diff["set"]:
            assert _at(new, path) == value                   # a value of the new state, where it is
        for path in diff["del"]:
            assert path[-1] in _at(old, path[:-1]) and path[-1] not in _at(new, path[:-1])
    assert changes({"a": {"b": 1}}, {"a": {"b": 1}}) == {"set": [], "del": []}


class Page:
    """One open page that asks for changes, as the page's script keeps it."""

    def __init__(self, client, token):
        self.cm = client.websocket_connect("/ws")
        self.ws = self.cm.__enter__()
        send(self.ws, {"type": "hello", "token": token, "changes": True})
        first = receive(self.ws)
        assert first["type"] == "state" and first["feed_from"] == 0
        self.held = first
        self.feed = list(first["feed"])
        self.diffs: list = []           # the diffs received since the test last looked
        self.before: dict = {}          # the cards each seat held when it last looked

    def next(self) -> dict:
        message = receive(self.ws)
        if message["type"] == "refused":
            raise AssertionError(message)
        if message["type"] == "state":          # a whole state: the page starts again from it
            self.held = message
            self.feed = list(message["feed"]) if message["feed_from"] == 0 else self.feed + message["feed"]
            return message
        assert message["type"] == "diff" and message["base"] == self.held["v"]
        self.diffs.append(message)
        self.held = apply_changes(self.held, message)
        assert self.held["v"] == message["base"] + 1
        self.feed += self.held["feed"]
        return self.held

    def until(self, log_size: int) -> dict:
        while self.held["log_size"] != log_size:
            self.next()
        return self.held

    def close(self):
        self.cm.__exit__(None, None, None)


def _whole(client, token) -> dict:
    """The state a page opened now is sent whole (it does not ask for changes)."""
    with client.websocket_connect("/ws") as ws:
        state = hello(ws, token)
    assert state["type"] == "state"
    return state


def _held_hands(game, seats) -> dict:
    return {seat: {card["id"] for card in game.view(seat)["characters"][seat].get("hand", [])}
            for seat in seats}


@pytest.mark.parametrize("ruleset, seed", [("classic", 3), ("all_in_one", 8)])
def test_diffs_over_whole_games_give_each_page_exactly_its_whole_state(tmp_path, ruleset, seed):
    server = Server(str(tmp_path / "t.sqlite3"), allow_seeds=True, rate=10_000, burst=10_000)
    rng = random.Random(seed)
    with TestClient(server.app) as client:
        response = client.post("/api/games", json={"ruleset": ruleset, "players": 4, "seed": seed,
                                                   "seats": ["link", "bot:random", "link", "link"]})
        assert response.status_code == 201, response.text
        created = response.json()
        table = _whole(client, created["host"])["table"]
        links = {s: e["link"] for s, e in table["seats"].items() if e["controller"] == "link"}
        bots = {s for s, e in table["seats"].items() if e["controller"] == "bot"}
        tokens = {**links, None: table["spectator"]}
        pages = {seat: Page(client, token) for seat, token in tokens.items()}
        game = server.hall.table(created["game"]).game
        checked = 0
        try:
            # the bots' first moves, if they are first to decide
            lead = pages[None]
            while not lead.held["view"]["over"] and set(lead.held["waiting"]) & bots:
                lead.next()
            while True:
                size = lead.held["log_size"]
                for seat, page in pages.items():
                    held = page.until(size)
                    whole = _whole(client, tokens[seat])
                    assert {k: v for k, v in held.items() if k not in _ONCE} == \
                        {k: v for k, v in whole.items() if k not in _ONCE}, (seat, size)
                    assert page.feed == whole["feed"], (seat, size)
                    # no diff carries a card another seat holds (but for a trade offer naming
                    # this seat, R-TRADE-1, and the moves that answer or make one), nor any hand
                    # but the seat's own
                    hands = _held_hands(game, links.keys() | bots)
                    held = {card for other, cards in hands.items() if other != seat
                            for card in cards & page.before.get(other, set())}
                    for diff in page.diffs:
                        for path, value in diff["set"]:
                            for where, text in _strings(value, path):
                                if text in held:
                                    assert where[:2] == ["view", "offers"] or where[:1] == ["choices"], \
                                        (seat, where)
                            for where in _keys(value, path):
                                if where[:2] == ["view", "characters"] and where[3:4] == ["hand"]:
                                    assert where[2] == seat, (seat, where)
                    page.diffs = []
                    page.before = hands
                    checked += 1
                if lead.held["view"]["over"]:
                    break
                # a person decides: the first link seat the game waits for, with a move that
                # answers its decision
                seat = next(s for s in lead.held["waiting"] if s in links)
                mover = pages[seat]
                mover.until(size)
                moves = [c for c in mover.held["choices"] if not c["any_time"]] or mover.held["choices"]
                send(mover.ws, {"type": "move", "seat": seat, "offer": mover.held["offer"],
                                "action": rng.choice(moves)["action"], "ref": size})
                answer = mover.next()
                assert answer.get("ref") == size
                # then the bots, until a person must decide again (or the end)
                while not answer["view"]["over"] and set(answer["waiting"]) & bots:
                    answer = mover.next()
                while lead.held["log_size"] != answer["log_size"]:
                    lead.next()
        finally:
            for page in pages.values():
                page.close()
        assert checked > 100


def test_a_page_that_asks_again_gets_the_whole_state(tmp_path):
    server = Server(str(tmp_path / "t.sqlite3"), allow_seeds=True)
    with TestClient(server.app) as client:
        response = client.post("/api/games", json={"ruleset": "classic", "players": 4, "seed": 2,
                                                   "seats": ["link"] * 4})
        table = _whole(client, response.json()["host"])["table"]
        token = next(e["link"] for e in table["seats"].values() if e["link"])
        page = Page(client, token)
        try:
            send(page.ws, {"type": "resync"})
            again = receive(page.ws)
            assert again["type"] == "state" and again["feed_from"] == 0 and again["names"]
            assert again["v"] == page.held["v"] + 1
        finally:
            page.close()


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _serve(db: str, port: int) -> subprocess.Popen:
    process = subprocess.Popen([sys.executable, "-m", "lifeboat_rules.cli", "serve", "--allow-seeds", "--port", str(port),
                                "--db", db], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 30
    while True:
        assert process.poll() is None, "the server stopped"
        assert time.monotonic() < deadline, "the server did not start"
        with contextlib.suppress(OSError):
            urllib.request.urlopen(f"http://127.0.0.1:{port}/api/setup", timeout=2).close()
            return process
        time.sleep(0.1)


def _post(port: int, body: dict) -> dict:
    request = urllib.request.Request(f"http://127.0.0.1:{port}/api/games", data=json.dumps(body).encode(),
                                     headers={"content-type": "application/json"}, method="POST")
    with urllib.request.urlopen(request, timeout=10) as response:
        return json.loads(response.read())


def test_every_acknowledged_move_survives_kill_9(tmp_path):
    """Pages that take changes play through a real server process, which is killed (SIGKILL)
    right after an answer: a server started again on the file has every move answered."""
    db, port = str(tmp_path / "t.sqlite3"), _free_port()
    server = _serve(db, port)
    rng = random.Random(4)
    try:
        created = _post(port, {"ruleset": "classic", "players": 4, "seed": 4, "seats": ["link"] * 4})
        with ws_connect(f"ws://127.0.0.1:{port}/ws") as ws:
            ws.send(json.dumps({"type": "hello", "token": created["host"]}))
            table = json.loads(ws.recv(timeout=30))["table"]
        pages = {}
        opened = contextlib.ExitStack()
        for seat, entry in table["seats"].items():
            ws = pages[seat] = opened.enter_context(ws_connect(f"ws://127.0.0.1:{port}/ws"))
            ws.send(json.dumps({"type": "hello", "token": entry["link"], "changes": True}))
            ws.held = json.loads(ws.recv(timeout=30))
        acknowledged = 0
        for number in range(60):
            seat = next(s for s in pages if s in pages[s].held["waiting"])
            ws = pages[seat]
            moves = [c for c in ws.held["choices"] if not c["any_time"]]
            ws.send(json.dumps({"type": "move", "seat": seat, "offer": ws.held["offer"], "ref": number,
                                "action": rng.choice(moves)["action"]}))
            while True:
                message = json.loads(ws.recv(timeout=30))
                if message["type"] == "diff":
                    assert message["base"] == ws.held["v"]
                    ws.held = apply_changes(ws.held, message)
                    if ws.held.get("ref") == number:
                        acknowledged = ws.held["log_size"]
                        break
                else:
                    assert message["type"] == "state", message
                    ws.held = message
            for other, page in pages.items():      # every page up to the move
                while other != seat and page.held["log_size"] < acknowledged:
                    message = json.loads(page.recv(timeout=30))
                    page.held = apply_changes(page.held, message) if message["type"] == "diff" else message
        os.kill(server.pid, signal.SIGKILL)         # right after the last answer
        server.wait(30)
        with contextlib.suppress(Exception):
            opened.close()
        server = _serve(db, port)
        with ws_connect(f"ws://127.0.0.1:{port}/ws") as ws:
            ws.send(json.dumps({"type": "hello", "token": created["host"], "changes": True}))
            again = json.loads(ws.recv(timeout=30))
        assert again["log_size"] == acknowledged > 0
    finally:
        server.kill()
        server.wait(30)


def test_a_diff_applied_in_place_gives_the_same_state():
    """``apply_changes(..., copy=False)`` (a client that keeps no older state) changes the state
    it is given into exactly what the copying form returns."""
    for old, new, diff in _random_pairs(9, 2000):
        copied = apply_changes(old, diff)
        held = json.loads(json.dumps(old))
        assert apply_changes(held, diff, copy=False) is held
        assert json.dumps(held, sort_keys=True) == json.dumps(copied, sort_keys=True) == json.dumps(new, sort_keys=True)
