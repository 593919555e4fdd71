"""The web table over HTTP and WebSocket, without a browser (Starlette's TestClient).

Every refusal case: a forged, replaced or missing link, a move for another seat, a replayed or
stale move, an illegal move, malformed and oversized messages, files named by a client, the
limit on games; each answered with a clear refusal that changes nothing. And what must hold:
a seat sees its own view and its own feed, bots play only their seats, a restarted server
continues every game from SQLite, a reconnecting page gets its seat back.
"""

from __future__ import annotations

import json
import sqlite3

import pytest

import lifeboat_rules as lr
from web_support import hello, missing_web, receive, require, send

require(missing_web())

from starlette.testclient import TestClient  # noqa: E402
from starlette.websockets import WebSocketDisconnect  # noqa: E402

from lifeboat_rules.web import labels  # noqa: E402
from lifeboat_rules.web.app import MAX_MESSAGE, Server  # noqa: E402


@pytest.fixture
def db(tmp_path):
    return str(tmp_path / "tables.sqlite3")


@pytest.fixture
def client(db):
    with TestClient(Server(db, allow_seeds=True).app) as test_client:
        yield test_client


@pytest.fixture
def fast_client(db):
    """A server that lets a test send its moves as fast as it can."""
    with TestClient(Server(db, allow_seeds=True, rate=10_000, burst=10_000).app) as test_client:
        yield test_client


def create(client, seats, ruleset="classic", lang="en", seed=11) -> dict:
    response = client.post("/api/games", json={"ruleset": ruleset, "players": len(seats),
                                               "lang": lang, "seats": seats, "seed": seed})
    assert response.status_code == 201, response.text
    return response.json()


def receive_until(ws, done, limit: int = 2000) -> dict:
    """The first message ``done`` accepts (bots move after the answer to the move that woke
    them, in turns of their own: their states follow)."""
    for _ in range(limit):
        message = receive(ws)
        if done(message):
            return message
    raise AssertionError(f"no such message among {limit}")


def over(message) -> bool:
    return message.get("type") == "state" and message["view"]["over"]


def host_state(client, host) -> dict:
    with client.websocket_connect("/ws") as ws:
        return hello(ws, host)


def saved(db) -> dict:
    """Every game's saved snapshot, version and actions, and every seat's controller, as the
    file holds them."""
    con = sqlite3.connect(db)
    try:
        games = {i: (s, v) for i, s, v in con.execute(
            "SELECT id, state, version FROM games JOIN snapshots ON game_id = id")}
        moves = con.execute("SELECT game_id, at, action FROM moves ORDER BY game_id, at").fetchall()
        seats = {(g, s): (c, b) for g, s, c, b in con.execute("SELECT game_id, seat, controller, bot FROM seats")}
        tokens = con.execute("SELECT digest, revoked FROM tokens ORDER BY digest").fetchall()
    finally:
        con.close()
    return {"games": games, "moves": moves, "seats": seats, "tokens": tokens}


def saved_game(db, game_id) -> lr.Game:
    """The game as the file holds it: its snapshot and the actions saved after it."""
    con = sqlite3.connect(db)
    try:
        state = con.execute("SELECT state FROM snapshots WHERE game_id = ?", (game_id,)).fetchone()[0]
        moves = con.execute("SELECT action FROM moves WHERE game_id = ? ORDER BY at", (game_id,)).fetchall()
    finally:
        con.close()
    game = lr.Game.from_dict(json.loads(state))
    for (action,) in moves:
        game.apply(json.loads(action))
    return game


def settled(bot_seats):
    """A state after which no bot must decide: the bots' turns are over (until a person moves)."""
    return lambda m: m.get("type") == "state" and (
        m["view"]["over"] or not set(m["waiting"]) & set(bot_seats))


def settle(client, created) -> dict:
    """The host's state once the bots have made every move they owe."""
    with client.websocket_connect("/ws") as ws:
        state = hello(ws, created["host"])
        bot_seats = [s for s, e in state["table"]["seats"].items() if e["controller"] == "bot"]
        return state if settled(bot_seats)(state) else receive_until(ws, settled(bot_seats))


def link_seats(client, created) -> dict:
    """{character: token} of the seats played through links."""
    table = host_state(client, created["host"])["table"]
    return {s: e["link"] for s, e in table["seats"].items() if e["controller"] == "link"}


def deciding_link(client, links) -> tuple:
    """A (character, token, state) of a link seat that has a decision now."""
    for seat, token in links.items():
        with client.websocket_connect("/ws") as ws:
            state = hello(ws, token)
        if seat in state["waiting"]:
            return seat, token, state
    raise AssertionError("no link seat is deciding")


# ---------------------------------------------------------------------- pages and creating


def test_pages_are_served_with_strict_headers(client):
    for path in ("/", "/table", "/static/table.js", "/static/create.js", "/static/table.css"):
        response = client.get(path)
        assert response.status_code == 200, path
        assert "default-src 'self'" in response.headers["content-security-policy"]
        assert response.headers["referrer-policy"] == "no-referrer"
    assert "create.js" in client.get("/").text


def test_setup_offers_only_the_built_in_rulesets(client):
    setup = client.get("/api/setup").json()
    assert set(setup["rulesets"]) >= {"classic", "cannibalism", "shark", "quick", "single_card_rowing"}
    assert setup["rulesets"]["classic"] == [4, 6]          # R-SETUP-1
    assert setup["rulesets"]["cannibalism"] == [4, 7]      # Dr. Harter joins
    assert "random" in setup["bots"]
    assert set(setup["ui"]) == {"en", "zh"}


@pytest.mark.parametrize("body, detail", [
    ({"ruleset": "../lifeboat_rules/data/rulesets/classic.yaml"}, "ruleset"),
    ({"ruleset": "/etc/passwd"}, "ruleset"),
    ({"ruleset": "classic.yaml"}, "ruleset"),
    ({"ruleset": {"extends": "classic"}}, "ruleset"),
    ({"players": 3}, "players"),
    ({"players": 7}, "players"),
    ({"players": "5"}, "players"),
    ({"players": True}, "players"),
    ({"lang": "fr"}, "lang"),
    ({"seats": ["link"] * 4 + ["bot:nobody"]}, "seats"),
    ({"seats": ["link"] * 4}, "seats"),
    ({"seats": "link"}, "seats"),
    ({"seed": -1}, "seed"),
])
def test_a_bad_game_is_refused_and_nothing_is_created(client, db, body, detail):
    request = {"ruleset": "classic", "players": 5, "lang": "en", "seats": ["link"] * 5, **body}
    response = client.post("/api/games", json=request)
    assert response.status_code == 400
    answer = response.json()
    assert answer["code"] == "bad_request" and detail in answer["message"]
    # the reason, then the detail: one mark between them, not the reason's full stop and a colon
    assert answer["message"].startswith("The request was not valid: ")
    assert saved(db)["games"] == {}


@pytest.mark.parametrize("raw, code, status", [
    (b"{not json", "malformed", 400),
    (b"[1, 2]", "malformed", 400),
    (b"[" * 3000 + b"]" * 3000, "too_large", 413),
    (b'{"ruleset": "' + b"x" * (MAX_MESSAGE + 10) + b'"}', "too_large", 413),
])
def test_a_malformed_or_oversized_request_is_refused(client, db, raw, code, status):
    response = client.post("/api/games", content=raw, headers={"content-type": "application/json"})
    assert response.status_code == status
    assert response.json()["code"] == code
    assert saved(db)["games"] == {}


def test_the_server_holds_at_most_max_games_in_progress(db):
    with TestClient(Server(db, allow_seeds=True, max_games=2).app) as client:
        create(client, ["link"] * 4)
        create(client, ["link"] * 4)
        response = client.post("/api/games", json={"ruleset": "classic", "players": 4,
                                                   "seats": ["link"] * 4})
        assert response.status_code == 429 and response.json()["code"] == "limit"
        assert len(saved(db)["games"]) == 2


def test_a_game_of_bots_only_is_played_to_the_end_and_frees_its_place(db):
    with TestClient(Server(db, allow_seeds=True, max_games=1).app) as client:
        created = create(client, ["bot:random"] * 4)
        state = settle(client, created)
        assert state["view"]["over"] is True
        result = state["view"]["result"]
        assert set(result["scores"]) == set(state["view"]["characters"])
        for who, parts in result["breakdown"].items():
            assert sum(parts.values()) == result["scores"][who]
        create(client, ["link"] * 4)       # the finished game left its place free


# ---------------------------------------------------------------------- links


def test_each_link_opens_its_own_seat_and_the_host_sees_every_link(client):
    created = create(client, ["link", "link", "host", "bot:random", "link"])
    table = host_state(client, created["host"])["table"]
    assert [e["controller"] for e in table["seats"].values()] == ["link", "link", "host", "bot", "link"]
    tokens = [e["link"] for e in table["seats"].values() if e["link"]] + [table["spectator"], created["host"]]
    assert len(set(tokens)) == 5 and all(len(t) >= 40 for t in tokens)
    for seat, entry in table["seats"].items():
        if entry["link"]:
            with client.websocket_connect("/ws") as ws:
                state = hello(ws, entry["link"])
            assert state["role"] == "seat" and state["seat"] == seat and state["held"] == [seat]
            assert "hand" in state["view"]["characters"][seat]
            assert state["view"]["love"] in state["view"]["characters"]
            assert all("hand" not in c for s, c in state["view"]["characters"].items() if s != seat)
            assert "table" not in state          # the links are the host's only
    with client.websocket_connect("/ws") as ws:
        spectator = hello(ws, table["spectator"])
    assert spectator["seat"] is None and spectator["choices"] == [] and "love" not in spectator["view"]
    assert all("hand" not in c for c in spectator["view"]["characters"].values())


@pytest.mark.parametrize("token", ["forged-" + "A" * 40, "", "x" * 5000, 12345, None, ["a"]])
def test_a_forged_link_is_refused_and_the_connection_closed(client, token):
    with client.websocket_connect("/ws") as ws:
        send(ws, {"type": "hello", "token": token})
        answer = receive(ws)
        assert answer["type"] == "refused"
        assert answer["code"] in ("bad_token", "too_large")
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_text()
        assert closed.value.code in (4001, 4006)


def test_the_first_message_must_present_a_link(client, db):
    create(client, ["link"] * 4)
    before = saved(db)
    with client.websocket_connect("/ws") as ws:
        send(ws, {"type": "move", "seat": "the_kid", "action": {"by": "the_kid", "type": "pass"}})
        assert receive(ws)["code"] == "hello_first"
        with pytest.raises(WebSocketDisconnect):
            ws.receive_text()
    assert saved(db) == before


def test_a_replaced_link_stops_working_and_its_page_is_cut_off(client, db):
    created = create(client, ["link", "link", "link", "link"])
    links = link_seats(client, created)
    seat, old = next(iter(links.items()))
    with client.websocket_connect("/ws") as host_ws, client.websocket_connect("/ws") as seat_ws:
        hello(host_ws, created["host"])
        assert hello(seat_ws, old)["seat"] == seat
        send(host_ws, {"type": "manage", "op": "link", "seat": seat})
        new = receive(host_ws)["table"]["seats"][seat]["link"]
        assert new and new != old
        cut = receive(seat_ws)
        assert cut["type"] == "refused" and cut["code"] == "revoked"
        with pytest.raises(WebSocketDisconnect) as closed:
            seat_ws.receive_text()
        assert closed.value.code == 4002
    with client.websocket_connect("/ws") as ws:
        assert hello(ws, old)["code"] == "revoked"
    with client.websocket_connect("/ws") as ws:
        assert hello(ws, new)["seat"] == seat


def test_only_the_host_manages_seats(client, db):
    created = create(client, ["link"] * 4)
    links = link_seats(client, created)
    before = saved(db)
    seat, token = next(iter(links.items()))
    with client.websocket_connect("/ws") as ws:
        hello(ws, token)
        for op in ("bot", "link", "here"):
            send(ws, {"type": "manage", "op": op, "seat": seat})
            assert receive(ws)["code"] == "not_host"
    assert saved(db) == before


def test_the_host_hands_a_seat_to_a_bot_which_plays_it(client):
    created = create(client, ["link"] * 4)
    links = link_seats(client, created)
    with client.websocket_connect("/ws") as ws:
        state = hello(ws, created["host"])
        for seat in links:            # every seat to a bot: the game plays to its end
            send(ws, {"type": "manage", "op": "bot", "seat": seat, "bot": "random"})
        state = receive_until(ws, lambda m: over(m) and all(
            e["controller"] == "bot" for e in m["table"]["seats"].values()))
        assert all(e["controller"] == "bot" and e["link"] is None for e in state["table"]["seats"].values())
    with client.websocket_connect("/ws") as ws:
        assert hello(ws, next(iter(links.values())))["code"] == "revoked"


def test_seat_bots_think_off_the_event_loop(db, monkeypatch):
    """A search bot may think for a while: it does so on the bots' own threads, so that the
    server keeps answering the pages of other games meanwhile."""
    import threading

    from lifeboat_rules import bots

    threads = set()

    class Watched(bots.RandomBot):
        def choose(self, game, character):
            threads.add(threading.current_thread().name)
            return super().choose(game, character)

    monkeypatch.setitem(bots.BOTS, "watched", Watched)
    with TestClient(Server(db, allow_seeds=True).app) as client:
        created = create(client, ["link"] * 4)
        links = link_seats(client, created)
        with client.websocket_connect("/ws") as ws:
            state = hello(ws, created["host"])
            for seat in links:
                send(ws, {"type": "manage", "op": "bot", "seat": seat, "bot": "watched"})
            receive_until(ws, over)
    assert threads and all(name.startswith("lifeboat-bots") for name in threads), threads


def test_the_host_takes_a_seat_to_play_it_here(client):
    created = create(client, ["link"] * 4)
    links = link_seats(client, created)
    seat, token = next(iter(links.items()))
    with client.websocket_connect("/ws") as ws:
        assert hello(ws, created["host"])["held"] == []
        send(ws, {"type": "manage", "op": "here", "seat": seat})
        state = receive(ws)
        assert state["held"] == [seat] and state["table"]["seats"][seat] == {
            "controller": "host", "bot": None, "link": None}
    with client.websocket_connect("/ws") as ws:
        assert hello(ws, token)["code"] == "revoked"
    with client.websocket_connect("/ws") as ws:        # the host page now shows that seat
        state = hello(ws, created["host"])
        assert state["seat"] == seat and "hand" in state["view"]["characters"][seat]


# ---------------------------------------------------------------------- moves


def test_a_move_changes_the_game_once_and_a_replay_is_refused(client, db):
    created = create(client, ["link"] * 4)
    seat, token, state = deciding_link(client, link_seats(client, created))
    choice = next(c for c in state["choices"] if not c["any_time"])
    move = {"type": "move", "seat": seat, "offer": state["offer"], "action": choice["action"], "ref": 17}
    with client.websocket_connect("/ws") as ws:
        hello(ws, token)
        send(ws, move)
        after = receive(ws)
        assert after["type"] == "state" and after["log_size"] > state["log_size"]
        assert after["ref"] == 17                    # the answer to that move
        assert [(g, json.loads(action)) for g, _, action in saved(db)["moves"]] == [
            (created["game"], choice["action"])]     # the one move, written before the answer
        snapshot = saved(db)
        send(ws, move)                               # the same message again
        answer = receive(ws)
        assert answer == {"type": "refused", "code": "stale", "message": labels.UI["en"]["err_stale"],
                          "ref": 17}
        assert receive(ws)["type"] == "state"        # and the page gets the table as it is now
    assert saved(db) == snapshot


def test_a_move_for_another_seat_is_refused(client, db):
    created = create(client, ["link"] * 4)
    links = link_seats(client, created)
    seat, token, state = deciding_link(client, links)
    other = next(s for s in links if s != seat)
    before = saved(db)
    with client.websocket_connect("/ws") as ws:
        hello(ws, token)
        for message in (
            # naming the other seat
            {"type": "move", "seat": other, "offer": state["offer"], "action": {"by": other, "type": "pass"}},
            # own seat, the other's action
            {"type": "move", "seat": seat, "offer": state["offer"], "action": {"by": other, "type": "pass"}},
            # own seat, an action naming nobody
            {"type": "move", "seat": seat, "offer": state["offer"], "action": {"type": "pass"}},
            {"type": "move", "seat": [seat], "offer": state["offer"], "action": state["choices"][0]["action"]},
            {"type": "look", "seat": other},
        ):
            send(ws, message)
            assert receive(ws)["code"] == "not_your_seat"
    with client.websocket_connect("/ws") as ws:                 # a spectator moves nobody
        hello(ws, host_state(client, created["host"])["table"]["spectator"])
        send(ws, {"type": "move", "seat": seat, "offer": state["offer"], "action": state["choices"][0]["action"]})
        assert receive(ws)["code"] == "not_your_seat"
    assert saved(db) == before


def test_an_illegal_move_gets_the_rules_words_and_changes_nothing(client, db):
    created = create(client, ["link"] * 4)
    seat, token, state = deciding_link(client, link_seats(client, created))
    assert state["view"]["phase"] == "supply"     # the deal opens with a supply pick (R-SUPPLY)
    before = saved(db)
    with client.websocket_connect("/ws") as ws:
        hello(ws, token)
        send(ws, {"type": "move", "seat": seat, "offer": state["offer"],
                  "action": {"by": seat, "type": "row"}})
        answer = receive(ws)
        assert answer["code"] == "illegal"
        game = lr.Game.from_dict(json.loads(before["games"][created["game"]][0]))
        with pytest.raises(lr.IllegalAction) as refused:
            game.apply({"by": seat, "type": "row"})
        assert str(refused.value) in answer["message"]
    assert saved(db) == before


@pytest.mark.parametrize("raw, code", [
    ("not json", "malformed"),
    ("[1, 2, 3]", "malformed"),
    ('{"no": "type"}', "malformed"),
    ('{"type": 7}', "malformed"),
    ('{"type": "dance"}', "malformed"),
    ('{"type": "hello", "token": "again"}', "malformed"),
    ("[" * 2000 + "]" * 2000, "malformed"),
    ('{"type": "move", "pad": "' + "x" * MAX_MESSAGE + '"}', "too_large"),
    (b"\x00\x01binary", "malformed"),
    (b"\x00" * (MAX_MESSAGE + 1), "too_large"),
])
def test_a_malformed_or_oversized_message_is_refused_and_the_page_stays(client, db, raw, code):
    created = create(client, ["link"] * 4)
    seat, token, state = deciding_link(client, link_seats(client, created))
    before = saved(db)
    with client.websocket_connect("/ws") as ws:
        hello(ws, token)
        if isinstance(raw, bytes):
            ws.send_bytes(raw)
        else:
            ws.send_text(raw)
        answer = receive(ws)
        assert answer["type"] == "refused" and answer["code"] == code
        assert answer["message"].startswith(labels.UI["en"]["err_" + code].rstrip("."))
        send(ws, {"type": "lang", "lang": "en"})     # the connection still works
        assert receive(ws)["type"] == "state"
    assert saved(db) == before


def test_a_page_sending_too_fast_is_refused_and_nothing_changes(db):
    with TestClient(Server(db, allow_seeds=True, rate=0.001, burst=3).app) as client:
        created = create(client, ["link"] * 4)
        seat, token, state = deciding_link(client, link_seats(client, created))
        before = saved(db)
        with client.websocket_connect("/ws") as ws:
            hello(ws, token)
            for _ in range(3):                       # the burst: answered
                send(ws, {"type": "lang", "lang": "zh"})
                assert receive(ws)["type"] == "state"
            send(ws, {"type": "move", "seat": seat, "offer": state["offer"], "ref": "m1",
                      "action": state["choices"][0]["action"]})
            answer = receive(ws)
            assert answer["code"] == "too_fast" and labels.UI["zh"]["err_too_fast"].rstrip("。") in answer["message"]
            assert answer["ref"] == "m1"       # the page knows which move did not happen
        assert saved(db) == before


def test_a_move_against_an_old_page_is_refused_as_stale(client, db):
    created = create(client, ["link"] * 4)
    seat, token, state = deciding_link(client, link_seats(client, created))
    before = saved(db)
    with client.websocket_connect("/ws") as ws:
        hello(ws, token)
        for offer in ("0" * 20, None, 7, state["offer"][:-1]):
            send(ws, {"type": "move", "seat": seat, "offer": offer, "action": state["choices"][0]["action"]})
            assert receive(ws)["code"] == "stale"
            assert receive(ws)["offer"] == state["offer"]     # the page is shown the table again
    assert saved(db) == before


# ---------------------------------------------------------------------- what a seat sees


def test_the_state_is_the_seats_view_choices_and_feed_in_words(client, db):
    created = create(client, ["link", "link", "bot:random", "link"], lang="zh")
    settle(client, created)
    links = link_seats(client, created)
    for seat, token in links.items():
        with client.websocket_connect("/ws") as ws:
            state = hello(ws, token)
        game = saved_game(db, created["game"])
        assert state["lang"] == "zh" and state["ui"]["title"] == labels.UI["zh"]["title"]
        assert state["view"] == json.loads(json.dumps(game.view(seat)))
        expected_feed = [(e["index"], e["text"]) for e in game.feed(seat, 0, "zh")]
        assert [(e["i"], e["text"]) for e in state["feed"]] == expected_feed
        legal = game.legal_actions(seat)
        assert all(c["action"] in legal for c in state["choices"])
        worded = [c["label"] for c in state["choices"]]
        assert worded == sorted(set(worded), key=worded.index)        # one button per wording
        assert set(worded) == {lr.describe(a, game, "zh", viewer=seat) for a in legal}
        if seat in state["waiting"]:
            decision = next(d for d in game.pending if d.by == seat)
            assert state["decision_text"] == lr.describe(decision, game, "zh", viewer=seat)
    # the names are the content's Chinese ones (as in the Chinese edition)
    assert {state["names"][c] for c in ("lady_lauren", "the_captain", "the_kid")} == {"罗伦小姐", "船长", "小孩"}
    assert state["names"]["water"] != "water"


def test_a_page_switches_language(client):
    created = create(client, ["link"] * 4)
    token = next(iter(link_seats(client, created).values()))
    with client.websocket_connect("/ws") as ws:
        assert hello(ws, token)["lang"] == "en"
        send(ws, {"type": "lang", "lang": "zh"})
        state = receive(ws)
        assert state["lang"] == "zh" and state["ui"] == labels.UI["zh"] and state["feed_from"] == 0
        send(ws, {"type": "lang", "lang": "klingon"})
        assert receive(ws)["lang"] == "en"


def test_every_open_page_gets_its_own_state_after_a_move(client):
    created = create(client, ["link"] * 4)
    links = link_seats(client, created)
    seat, token, state = deciding_link(client, links)
    other_seat, other_token = next((s, t) for s, t in links.items() if s != seat)
    with client.websocket_connect("/ws") as mine, client.websocket_connect("/ws") as theirs, \
            client.websocket_connect("/ws") as again:
        hello(mine, token)
        seen = hello(theirs, other_token)
        hello(again, token)                                  # the same seat on a second page
        choice = next(c for c in state["choices"] if not c["any_time"])
        send(mine, {"type": "move", "seat": seat, "offer": state["offer"], "action": choice["action"]})
        for ws, who in ((mine, seat), (theirs, other_seat), (again, seat)):
            pushed = receive(ws)
            assert pushed["seat"] == who and pushed["feed_from"] == seen["log_size"]
            assert pushed["ui"] is None                      # words only with a full state


def test_a_reconnecting_page_gets_its_seat_and_whole_feed_back(client):
    created = create(client, ["link"] * 4)
    seat, token, state = deciding_link(client, link_seats(client, created))
    with client.websocket_connect("/ws") as ws:
        hello(ws, token)
        choice = next(c for c in state["choices"] if not c["any_time"])
        send(ws, {"type": "move", "seat": seat, "offer": state["offer"], "action": choice["action"]})
        moved = receive(ws)
    with client.websocket_connect("/ws") as ws:       # the page reloads
        back = hello(ws, token)
    assert back["seat"] == seat and back["feed_from"] == 0 and back["log_size"] == moved["log_size"]
    assert [e["i"] for e in back["feed"]][-len(moved["feed"]):] == [e["i"] for e in moved["feed"]]


def test_hot_seat_the_host_plays_the_seats_it_holds(fast_client):
    client = fast_client
    created = create(client, ["host", "host", "link", "link"])
    with client.websocket_connect("/ws") as ws:
        state = hello(ws, created["host"])
        held = state["held"]
        assert len(held) == 2 and state["seat"] == held[0]
        links = [s for s, e in state["table"]["seats"].items() if e["controller"] == "link"]
        send(ws, {"type": "look", "seat": held[1]})
        state = receive(ws)
        assert state["seat"] == held[1] and "hand" in state["view"]["characters"][held[1]]
        assert state["view"]["love"] is not None
        send(ws, {"type": "look", "seat": None})             # the table without any hand
        public = receive(ws)
        assert public["seat"] is None and "love" not in public["view"]
        send(ws, {"type": "look", "seat": links[0]})
        assert receive(ws)["code"] == "not_your_seat"
        send(ws, {"type": "move", "seat": links[0], "offer": "", "action": {"by": links[0], "type": "pass"}})
        assert receive(ws)["code"] == "not_your_seat"
        # play the held seats until a link seat must decide
        for _ in range(200):
            mine = [s for s in state["waiting"] if s in held]
            if not mine:
                break
            send(ws, {"type": "look", "seat": mine[0]})
            state = receive(ws)
            choice = next(c for c in state["choices"] if not c["any_time"])
            send(ws, {"type": "move", "seat": mine[0], "offer": state["offer"], "action": choice["action"]})
            state = receive(ws)
            assert state["type"] == "state"
        assert any(s in links for s in state["waiting"])


# ---------------------------------------------------------------------- nothing lost


def test_a_restarted_server_continues_every_game(db):
    with TestClient(Server(db, allow_seeds=True).app) as client:
        first = create(client, ["link", "bot:random", "link", "bot:random"], seed=3)
        second = create(client, ["link"] * 5, seed=4)
        settle(client, first)
        links = link_seats(client, first)
        seat, token, state = deciding_link(client, links)
        with client.websocket_connect("/ws") as ws:
            hello(ws, token)
            choice = next(c for c in state["choices"] if not c["any_time"])
            send(ws, {"type": "move", "seat": seat, "offer": state["offer"], "action": choice["action"]})
            bots = [s for s in state["view"]["seats"] if s not in links]
            before = receive_until(ws, settled(bots))
        before_second = host_state(client, second["host"])
    with TestClient(Server(db, allow_seeds=True).app) as client:       # a new process on the same file
        with client.websocket_connect("/ws") as ws:
            after = hello(ws, token)
        assert after["view"] == before["view"] and after["log_size"] == before["log_size"]
        assert after["offer"] == before["offer"]      # the same choices, the same move count
        after_second = host_state(client, second["host"])
        assert after_second["view"] == before_second["view"]
        # and the game goes on
        waiting = deciding_link(client, links)
        with client.websocket_connect("/ws") as ws:
            hello(ws, waiting[1])
            choice = next(c for c in waiting[2]["choices"] if not c["any_time"])
            send(ws, {"type": "move", "seat": waiting[0], "offer": waiting[2]["offer"], "action": choice["action"]})
            assert receive(ws)["log_size"] > after["log_size"]


def test_a_whole_game_through_the_socket_ends_with_scores(fast_client, db):
    client = fast_client
    created = create(client, ["link", "bot:random", "bot:random", "link"], seed=21)
    settle(client, created)
    links = link_seats(client, created)
    bots = [s for s in host_state(client, created["host"])["view"]["seats"] if s not in links]
    sockets = {}
    try:
        states = {}
        for seat, token in links.items():
            sockets[seat] = client.websocket_connect("/ws").__enter__()
            states[seat] = hello(sockets[seat], token)
        for _ in range(2000):
            if all(s["view"]["over"] for s in states.values()):
                break
            seat = next((s for s in links if s in states[s]["waiting"] and states[s]["choices"]), None)
            assert seat is not None, "nobody can move in a game that is not over"
            choice = next(c for c in states[seat]["choices"] if not c["any_time"])
            send(sockets[seat], {"type": "move", "seat": seat, "offer": states[seat]["offer"],
                                 "action": choice["action"]})
            for who in links:       # each page gets its states, each with the feed it had not seen
                while True:
                    pushed = receive(sockets[who])
                    assert pushed["type"] == "state", pushed
                    assert pushed["feed_from"] == states[who]["log_size"]
                    states[who] = pushed
                    if settled(bots)(pushed):
                        break
        final = next(iter(states.values()))["view"]
        assert final["over"] and final["result"]["end"] in ("landed", "all_dead", "adrift")
        assert set(final["result"]["scores"]) == set(final["characters"])
        # a page opened now gets the whole feed, worded as the seat may see it
        game = saved_game(db, created["game"])
        for seat, token in links.items():
            with client.websocket_connect("/ws") as ws:
                back = hello(ws, token)
            expected = [(e["index"], e["text"]) for e in game.feed(seat, 0, "en")]
            assert [(e["i"], e["text"]) for e in back["feed"]] == expected
    finally:
        for ws in sockets.values():
            ws.__exit__(None, None, None)


def test_a_seat_cannot_move_after_the_game_is_over(fast_client):
    client = fast_client
    created = create(client, ["link", "bot:random", "bot:random", "bot:random"])
    settle(client, created)
    links = link_seats(client, created)
    seat, token = next(iter(links.items()))
    bots = [s for s in host_state(client, created["host"])["view"]["seats"] if s != seat]
    with client.websocket_connect("/ws") as ws:
        state = hello(ws, token)
        for _ in range(2000):
            if state["view"]["over"]:
                break
            choice = next(c for c in state["choices"] if not c["any_time"])
            send(ws, {"type": "move", "seat": seat, "offer": state["offer"], "action": choice["action"]})
            state = receive_until(ws, settled(bots))
        assert state["view"]["over"] and state["choices"] == [] and state["offer"] is None
        send(ws, {"type": "move", "seat": seat, "offer": "x", "action": {"by": seat, "type": "pass"}})
        assert receive(ws)["code"] == "over"


# ---------------------------------------------------------------------- words


def test_both_languages_have_every_page_word():
    assert set(labels.UI["en"]) == set(labels.UI["zh"])
    for lang in labels.LANGS:
        for code in ("bad_token", "revoked", "not_your_seat", "stale", "illegal", "malformed",
                     "too_large", "limit", "over", "not_host", "bad_request", "hello_first", "internal",
                     "too_fast", "not_saved", "too_slow", "bad_origin"):
            assert labels.UI[lang]["err_" + code]
        for key in ("phase_supply", "phase_action", "phase_navigation", "phase_over",
                    "status_awake", "status_unconscious", "status_dead", "status_lost",
                    "end_landed", "end_all_dead", "end_adrift"):
            assert labels.UI[lang][key]


@pytest.mark.parametrize("lang", labels.LANGS)
def test_a_refusal_reads_as_one_sentence_with_its_detail(lang):
    """A refusal's words, then its detail after one colon: the words' own full stop is dropped
    (a page once read "The request was not valid.: seats must list 4 of ...")."""
    from lifeboat_rules.web.tables import Refusal

    colon = "：" if lang == "zh" else ": "
    codes = [key[len("err_"):] for key in labels.UI[lang] if key.startswith("err_")]
    assert len(codes) >= 17
    for code in codes:
        words = labels.UI[lang]["err_" + code]
        assert Refusal(code).message(lang)["message"] == words
        told = Refusal(code, "players must be a number from 4 to 6").message(lang)["message"]
        assert told == words.rstrip(".。") + colon + "players must be a number from 4 to 6"
        for stop in (".", "。", ";", "；"):
            assert stop + colon.strip() not in told


def test_the_page_names_the_decks_as_the_library_does():
    """One name for one thing: the table page's Chinese words for the rowing pile, the
    navigation deck and the supply are the library's (the words of ``describe`` and of the
    terminal game), where the page once said 划桨牌堆 and the terminal 划船牌堆."""
    from lifeboat_rules import words

    zh = labels.UI["zh"]
    assert words.text("places.rowing_pile", "zh") in zh["rowing_pile"]
    assert words.text("places.navigation", "zh") in zh["navigation_left"]
    assert words.text("places.supply", "zh").removesuffix("牌堆") in zh["supply_left"]
    rowing = words.text("places.rowing_pile", "zh").removesuffix("牌堆")      # 划船: to row
    for key in ("rowed", "stage_place", "ruleset_single_card_rowing", "about_single_card_rowing"):
        assert rowing in zh[key], key
    assert not any("划桨" in text for text in zh.values())


def test_stage_words_name_the_characters():
    names = {"the_kid": "小孩", "frenchy": "法国佬"}
    fight = {"kind": "fight", "attackers": ["the_kid"], "defenders": ["frenchy"],
             "strength": {"attacker": 3, "defender": 6}}
    assert labels.stage_words(fight, names, "zh") == "打斗！小孩（力量 3）对 法国佬（力量 6）"
    assert labels.stage_words({"kind": "turn", "actor": "frenchy"}, {"frenchy": "Frenchy"}, "en") == "Frenchy's turn"
    assert labels.stage_words(None, names, "en") is None


def test_a_request_waiting_for_its_answer_says_what_is_asked():
    """The "Now" box while a swap or a robbery waits for its target (R-SWAP-1, R-ROB-1,
    R-ROB-2): who asks whom for what, and what the target may do; a request of a plugin's own
    act keeps the words that fit any request."""
    en = {"frenchy": "Frenchy", "lady_lauren": "Lady Lauren", "compass": "Compass"}
    zh = {"frenchy": "法国佬", "lady_lauren": "罗伦小姐", "compass": "指南针"}
    swap = {"kind": "respond", "act": "swap", "by": "frenchy", "target": "lady_lauren"}
    hand = {"kind": "respond", "act": "rob", "by": "frenchy", "target": "lady_lauren", "card": "hand"}
    card = {"kind": "respond", "act": "rob", "by": "frenchy", "target": "lady_lauren",
            "card": {"id": "p88f65147", "kind": "compass"}}
    other = {"kind": "respond", "act": "bribe", "by": "frenchy", "target": "lady_lauren"}
    assert labels.stage_words(swap, en, "en") == (
        "Frenchy asks Lady Lauren to swap seats; Lady Lauren allows it or refuses and fights")
    assert labels.stage_words(hand, en, "en") == (
        "Frenchy wants to rob Lady Lauren of a random card from their hand; "
        "Lady Lauren allows it or resists and fights")
    assert labels.stage_words(card, en, "en") == (
        "Frenchy wants to rob Lady Lauren of the Compass in front of them; "
        "Lady Lauren allows it or resists and fights")
    assert labels.stage_words(other, en, "en") == "Lady Lauren answers Frenchy's request"
    assert labels.stage_words(swap, zh, "zh") == "法国佬 要求和 罗伦小姐 换座位；罗伦小姐 同意，或拒绝并打斗"
    assert labels.stage_words(hand, zh, "zh") == "法国佬 想随机抢 罗伦小姐 的一张手牌；罗伦小姐 同意，或反抗并打斗"
    assert labels.stage_words(card, zh, "zh") == "法国佬 想抢 罗伦小姐 面前的指南针；罗伦小姐 同意，或反抗并打斗"


def test_serve_shows_its_defaults_and_refuses_a_bad_limit(capsys):
    from lifeboat_rules.cli import main
    with pytest.raises(SystemExit) as done:
        main(["serve", "--help"])
    assert done.value.code == 0
    shown = capsys.readouterr().out
    for default in ("127.0.0.1", "8000", "lifeboat-tables.sqlite3", "100"):
        assert default in shown
    assert main(["serve", "--max-games", "0"]) == 2
    assert "--max-games" in capsys.readouterr().err


def test_a_server_deals_its_games_itself_unless_told_to_take_seeds(tmp_path):
    """The engine is deterministic: whoever chose a game's seed could play it through at home
    and know every hand and every card still to be drawn (an audit did). A server takes a seed
    only when started with ``allow_seeds`` (``serve --allow-seeds``: tests, benchmarks); by
    default a game with one is refused and nothing is created, and games without one are
    dealt from seeds no client sees."""
    seats = ["link"] * 4
    with TestClient(Server(str(tmp_path / "plain.sqlite3")).app) as plain:
        response = plain.post("/api/games", json={"ruleset": "classic", "players": 4, "seats": seats, "seed": 4242})
        assert response.status_code == 400, response.text
        assert response.json()["code"] == "bad_request" and "--allow-seeds" in response.json()["message"]
        assert saved(str(tmp_path / "plain.sqlite3"))["games"] == {}
        hands = set()
        for _ in range(3):
            created = plain.post("/api/games", json={"ruleset": "classic", "players": 4, "seats": seats})
            assert created.status_code == 201, created.text
            hands.add(str(saved(str(tmp_path / "plain.sqlite3"))["games"][created.json()["game"]]))
        assert len(hands) == 3
    with TestClient(Server(str(tmp_path / "seeded.sqlite3"), allow_seeds=True).app) as seeded:
        response = seeded.post("/api/games", json={"ruleset": "classic", "players": 4, "seats": seats, "seed": 4242})
        assert response.status_code == 201, response.text
