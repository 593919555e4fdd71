"""The web table's SQLite file (docs/web.md, Storage): files of the older schemas are brought to
this one whole, a move writes short rows only (never the snapshot again), and what a restart
reads back is the game and the seats' fingerprints as they were."""

from __future__ import annotations

import json
import os
import random
import sqlite3

import pytest

from web_support import missing_web, require

require(missing_web())

import lifeboat_rules as lr  # noqa: E402
from lifeboat_rules.web.store import SCHEMA_VERSION, Store, digest  # noqa: E402
from lifeboat_rules.web.tables import Hall  # noqa: E402

# the tables as the servers of schema 1 and 2 wrote them (the files they left behind)
SCHEMA_1 = """
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE games (id TEXT PRIMARY KEY, ruleset TEXT NOT NULL, players INTEGER NOT NULL,
    lang TEXT NOT NULL, over INTEGER NOT NULL DEFAULT 0, created REAL NOT NULL,
    updated REAL NOT NULL, state TEXT NOT NULL);
CREATE TABLE seats (game_id TEXT NOT NULL REFERENCES games(id), seat TEXT NOT NULL,
    controller TEXT NOT NULL, bot TEXT, moves INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (game_id, seat));
CREATE TABLE tokens (digest TEXT PRIMARY KEY, token TEXT NOT NULL,
    game_id TEXT NOT NULL REFERENCES games(id), role TEXT NOT NULL, seat TEXT,
    revoked INTEGER NOT NULL DEFAULT 0);
CREATE INDEX tokens_by_game ON tokens (game_id, role, seat);
"""
SCHEMA_2 = """
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE games (id TEXT PRIMARY KEY, ruleset TEXT NOT NULL, players INTEGER NOT NULL,
    lang TEXT NOT NULL, over INTEGER NOT NULL DEFAULT 0, created REAL NOT NULL,
    updated REAL NOT NULL, state TEXT NOT NULL, base INTEGER NOT NULL DEFAULT 0,
    version INTEGER NOT NULL DEFAULT 0, played INTEGER NOT NULL DEFAULT 0,
    bots_only INTEGER NOT NULL DEFAULT 0);
CREATE TABLE moves (game_id TEXT NOT NULL REFERENCES games(id), at INTEGER NOT NULL,
    action TEXT NOT NULL, PRIMARY KEY (game_id, at));
CREATE TABLE seats (game_id TEXT NOT NULL REFERENCES games(id), seat TEXT NOT NULL,
    controller TEXT NOT NULL, bot TEXT, moves INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (game_id, seat));
CREATE TABLE tokens (digest TEXT PRIMARY KEY, token TEXT NOT NULL,
    game_id TEXT NOT NULL REFERENCES games(id), role TEXT NOT NULL, seat TEXT,
    revoked INTEGER NOT NULL DEFAULT 0);
CREATE INDEX tokens_by_game ON tokens (game_id, role, seat);
CREATE TABLE chat (game_id TEXT NOT NULL REFERENCES games(id), n INTEGER NOT NULL,
    at REAL NOT NULL, author TEXT NOT NULL, text TEXT NOT NULL, PRIMARY KEY (game_id, n));
CREATE TABLE options (game_id TEXT NOT NULL REFERENCES games(id), seat TEXT NOT NULL DEFAULT '',
    key TEXT NOT NULL, value INTEGER NOT NULL, PRIMARY KEY (game_id, seat, key));
INSERT INTO meta VALUES ('schema', '2');
"""


@pytest.fixture
def db(tmp_path):
    return str(tmp_path / "tables.sqlite3")


def played(seed: int, actions: int) -> tuple:
    """A classic game of 4 and the actions of its first ``actions`` moves (random play)."""
    game = lr.new_game("classic", players=4, seed=seed)
    start = game.to_dict()
    rng = random.Random(seed)
    moves = []
    for _ in range(actions):
        seat = game.pending[0].by
        action = rng.choice(game.legal_actions(seat))
        moves.append((len(game.log), action))
        game.apply(action)
    return start, moves, game


def write_old_file(path: str, schema: int, games: dict) -> None:
    """A file as a server of ``schema`` left it: ``games`` {id: (snapshot, moves after it)},
    each seat played by a link, its move count kept as that schema kept it."""
    con = sqlite3.connect(path)
    con.executescript(SCHEMA_1 if schema == 1 else SCHEMA_2)
    for game_id, (snapshot, moves) in games.items():
        game = lr.Game.from_dict(snapshot)
        for _, action in moves:
            game.apply(action)
        version = len(game.log)       # the log's length after the last action saved
        if schema == 1:     # the whole game in the row: the snapshot holds every move
            snapshot, moves = game.to_dict(), []
        made = {}
        for _, action in moves:
            made[action["by"]] = made.get(action["by"], 0) + 1
        size = len(snapshot["log"])
        if schema == 1:
            con.execute("INSERT INTO games VALUES (?, 'classic', 4, 'en', 0, 1.0, 2.0, ?)",
                        (game_id, json.dumps(snapshot)))
        else:
            con.execute("INSERT INTO games VALUES (?, 'classic', 4, 'en', 0, 1.0, 2.0, ?, ?, ?, ?, 0)",
                        (game_id, json.dumps(snapshot), size, version, len(moves)))
            con.executemany("INSERT INTO moves VALUES (?, ?, ?)",
                            [(game_id, at, json.dumps(action)) for at, action in moves])
        for seat in snapshot["state"]["seats"]:
            con.execute("INSERT INTO seats VALUES (?, ?, 'link', NULL, ?)", (game_id, seat, made.get(seat, 0)))
            token = f"{game_id}-{seat}-token"
            con.execute("INSERT INTO tokens VALUES (?, ?, ?, 'seat', ?, 0)", (digest(token), token, game_id, seat))
    con.commit()
    con.close()


def tables_of(path: str) -> dict:
    con = sqlite3.connect(path)
    try:
        return {name: [row[1] for row in con.execute(f"PRAGMA table_info({name})")]
                for (name,) in con.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    finally:
        con.close()


@pytest.mark.parametrize("schema", [1, 2])
def test_a_file_of_an_older_schema_reads_as_it_was_and_plays_on(db, schema):
    games = {}
    expected = {}
    for number, actions in enumerate((0, 7, 40)):
        start, moves, game = played(number, actions)
        games[f"g{number}"] = (start, moves)
        expected[f"g{number}"] = game
    write_old_file(db, schema, games)

    hall = Hall(Store(db))
    for game_id, game in expected.items():
        table = hall.table(game_id)
        assert table.game.log == game.log and table.game.to_dict() == game.to_dict()
        for seat in game.state.seats:          # each link opens its seat, as before
            assert hall.enter(f"{game_id}-{seat}-token").seats == (seat,)
            made = sum(1 for e in game.log if e["type"] == "action" and e["action"]["by"] == seat)
            assert table.seats[seat] == {"controller": "link", "bot": None, "moves": made}
    # and the games go on: a move is written, and a restart reads it back
    table = hall.table("g1")
    seat = table.game.pending[0].by
    action = table.game.legal_actions(seat)[0]
    pass_ = hall.enter(f"g1-{seat}-token")
    hall.move(pass_, seat, action, table.offer(seat))
    log = list(table.game.log)
    hall.store.close()

    tables = tables_of(db)
    assert "state" not in tables["games"] and tables["snapshots"] == ["game_id", "state"]
    assert "moves" not in tables["seats"] and not any(name.endswith("_3") for name in tables)
    con = sqlite3.connect(db)
    assert con.execute("SELECT value FROM meta WHERE key = 'schema'").fetchone() == (str(SCHEMA_VERSION),)
    assert con.execute("PRAGMA foreign_key_check").fetchall() == []
    con.close()
    again = Hall(Store(db))
    assert again.table("g1").game.log == log
    again.store.close()


def test_a_file_that_cannot_be_brought_up_to_date_is_left_as_it_was(db):
    start, moves, _ = played(3, 5)
    write_old_file(db, 2, {"g": (start, moves)})
    con = sqlite3.connect(db)
    with con:     # a move of a game the file does not hold: the file is not whole
        con.execute("INSERT INTO moves VALUES ('nowhere', 0, '{}')")
    con.close()
    before = tables_of(db)
    with pytest.raises(RuntimeError, match="refers to a game"):
        Store(db)
    assert tables_of(db) == before
    con = sqlite3.connect(db)
    assert con.execute("SELECT value FROM meta WHERE key = 'schema'").fetchone() == ("2",)
    con.close()


def wal_pages(path: str) -> int:
    """The pages written to the file's write-ahead log so far (a frame is a page and a header)."""
    size = os.path.getsize(path + "-wal")
    return max(0, size - 32) // (4096 + 24)


def test_a_move_writes_short_rows_and_not_the_snapshot_again(db):
    """SQLite writes a row whole when one of its columns changes: the snapshot (several pages
    of JSON) lives in a row no move changes, and a move writes its action and the game's short
    row. Schema 2 wrote five pages a move, the snapshot's among them."""
    store = Store(db)
    hall = Hall(store)
    store._db.execute("PRAGMA wal_autocheckpoint=0")     # the log only grows while counted
    created = hall.create("classic", 4, "en", ["link"] * 4, seed=5)
    table = hall.table(created["game"])
    links = {seat: token for token, role, seat in store.live_tokens(created["game"]) if role == "seat"}
    rng = random.Random(5)
    moves, before = 0, wal_pages(db)
    while moves < 60 and not table.game.over:
        seat = table.game.pending[0].by
        action = rng.choice([a for a in table.game.legal_actions(seat)])
        hall.move(hall.enter(links[seat]), seat, action, table.offer(seat))
        moves += 1
    written = wal_pages(db) - before
    assert moves == 60
    assert written <= 3 * moves, f"{written} pages for {moves} moves"
    store.close()


def test_a_restart_gives_each_seat_the_fingerprint_it_had(db):
    """A seat's fingerprint counts the moves it made: a restarted server counts them in the
    game's log, so a page that reconnects after a restart may move at once."""
    hall = Hall(Store(db))
    created = hall.create("classic", 4, "en", ["link"] * 4, seed=8)
    table = hall.table(created["game"])
    links = {seat: token for token, role, seat in hall.store.live_tokens(created["game"]) if role == "seat"}
    rng = random.Random(8)
    for _ in range(25):
        seat = table.game.pending[0].by
        hall.move(hall.enter(links[seat]), seat, rng.choice(table.game.legal_actions(seat)), table.offer(seat))
    offers = {seat: table.offer(seat) for seat in links}
    counts = {seat: table.seats[seat]["moves"] for seat in links}
    assert sum(counts.values()) == 25 and all(counts.values())
    hall.store.close()
    again = Hall(Store(db))
    table = again.table(created["game"])
    assert {seat: table.offer(seat) for seat in links} == offers
    assert {seat: table.seats[seat]["moves"] for seat in links} == counts
    again.store.close()
