"""Where the web table keeps its games: one SQLite file (stdlib ``sqlite3``).

Every game is a row holding ``Game.to_dict()`` as JSON, rewritten after each move in the same
transaction as the seat bookkeeping, so a restarted server continues every game where it was.
Tokens are looked up by their SHA-256 digest; the file itself must be kept as private as the
links it holds (it is created readable by its owner only).
"""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
import threading
import time

SCHEMA_VERSION = 1

SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS games (
    id TEXT PRIMARY KEY,
    ruleset TEXT NOT NULL,
    players INTEGER NOT NULL,
    lang TEXT NOT NULL,
    over INTEGER NOT NULL DEFAULT 0,
    created REAL NOT NULL,
    updated REAL NOT NULL,
    state TEXT NOT NULL              -- Game.to_dict() as JSON
);
CREATE TABLE IF NOT EXISTS seats (
    game_id TEXT NOT NULL REFERENCES games(id),
    seat TEXT NOT NULL,              -- the character id
    controller TEXT NOT NULL,        -- link | host | bot
    bot TEXT,                        -- the bot's name when controller = bot
    moves INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (game_id, seat)
);
CREATE TABLE IF NOT EXISTS tokens (
    digest TEXT PRIMARY KEY,         -- sha256 of the token
    token TEXT NOT NULL,             -- shown again only to the game's host
    game_id TEXT NOT NULL REFERENCES games(id),
    role TEXT NOT NULL,              -- host | seat | spectator
    seat TEXT,                       -- the character, for a seat token
    revoked INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX IF NOT EXISTS tokens_by_game ON tokens (game_id, role, seat);
CREATE TABLE IF NOT EXISTS chat (
    game_id TEXT NOT NULL REFERENCES games(id),
    n INTEGER NOT NULL,              -- 1, 2, ... within the game
    at REAL NOT NULL,                -- when it was said (seconds since 1970)
    author TEXT NOT NULL,            -- the seat (character id) that spoke, or "host"
    text TEXT NOT NULL,              -- as typed (pages show it as text, never as HTML)
    PRIMARY KEY (game_id, n)
);
CREATE TABLE IF NOT EXISTS options (
    game_id TEXT NOT NULL REFERENCES games(id),
    seat TEXT NOT NULL DEFAULT '',   -- '' for the game's own options
    key TEXT NOT NULL,               -- timer (seconds) | autopass (0, 1) | timed_out (TIMED_OUT)
    value INTEGER NOT NULL,
    PRIMARY KEY (game_id, seat, key)
);
"""


# options.value of a seat's timed_out: the controller it had before the bot took over
TIMED_OUT = {"link": 1, "host": 2}


def digest(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


class Store:
    """The SQLite file of one server. Safe to call from several threads (one lock)."""

    def __init__(self, path: str):
        self.path = path
        if path != ":memory:" and not os.path.exists(path):
            # created private: the file holds every link of every game
            os.close(os.open(path, os.O_CREAT | os.O_WRONLY, 0o600))
        self._lock = threading.Lock()
        self._db = sqlite3.connect(path, check_same_thread=False, isolation_level=None)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=NORMAL")
        self._db.execute("PRAGMA foreign_keys=ON")
        with self._lock:
            self._db.executescript(SCHEMA)
            row = self._db.execute("SELECT value FROM meta WHERE key='schema'").fetchone()
            if row is None:
                self._db.execute("INSERT INTO meta VALUES ('schema', ?)", (str(SCHEMA_VERSION),))
            elif int(row[0]) != SCHEMA_VERSION:
                raise RuntimeError(f"{path}: web table database of schema {row[0]}, "
                                   f"this version reads {SCHEMA_VERSION}")

    def close(self) -> None:
        with self._lock:
            self._db.close()

    # ------------------------------------------------------------------ games

    def add_game(self, game_id: str, ruleset: str, players: int, lang: str, state: dict,
                 seats: list, tokens: list) -> None:
        """A new game with its seats [(seat, controller, bot)] and tokens [(token, role, seat)]."""
        now = time.time()
        with self._lock, self._transaction():
            self._db.execute("INSERT INTO games VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                             (game_id, ruleset, players, lang, int(bool(state["state"].get("over"))),
                              now, now, json.dumps(state, separators=(",", ":"))))
            self._db.executemany("INSERT INTO seats (game_id, seat, controller, bot) VALUES (?, ?, ?, ?)",
                                 [(game_id, s, c, b) for s, c, b in seats])
            self._db.executemany("INSERT INTO tokens (digest, token, game_id, role, seat) VALUES (?, ?, ?, ?, ?)",
                                 [(digest(t), t, game_id, r, s) for t, r, s in tokens])

    def save_move(self, game_id: str, state: dict, over: bool, movers: dict) -> None:
        """The game after some moves; ``movers``: {seat: number of moves it just made}."""
        with self._lock, self._transaction():
            self._db.execute("UPDATE games SET state = ?, over = ?, updated = ? WHERE id = ?",
                             (json.dumps(state, separators=(",", ":")), int(over), time.time(), game_id))
            self._db.executemany("UPDATE seats SET moves = moves + ? WHERE game_id = ? AND seat = ?",
                                 [(n, game_id, s) for s, n in movers.items()])

    def game(self, game_id: str) -> dict | None:
        """{"id", "ruleset", "players", "lang", "over", "state": dict, "seats": {seat: {...}}}."""
        with self._lock:
            row = self._db.execute("SELECT id, ruleset, players, lang, over, state FROM games WHERE id = ?",
                                   (game_id,)).fetchone()
            if row is None:
                return None
            seats = self._db.execute("SELECT seat, controller, bot, moves FROM seats WHERE game_id = ?",
                                     (game_id,)).fetchall()
        return {"id": row[0], "ruleset": row[1], "players": row[2], "lang": row[3],
                "over": bool(row[4]), "state": json.loads(row[5]),
                "seats": {s: {"controller": c, "bot": b, "moves": m} for s, c, b, m in seats}}

    def count_open_games(self) -> int:
        with self._lock:
            return self._db.execute("SELECT count(*) FROM games WHERE over = 0").fetchone()[0]

    def game_ids(self) -> list:
        with self._lock:
            return [r[0] for r in self._db.execute("SELECT id FROM games ORDER BY created")]

    # ------------------------------------------------------------------ seats and tokens

    def token(self, token: str) -> dict | None:
        """What a token opens: {"game_id", "role", "seat", "revoked"}, or None."""
        with self._lock:
            row = self._db.execute("SELECT game_id, role, seat, revoked FROM tokens WHERE digest = ?",
                                   (digest(token),)).fetchone()
        if row is None:
            return None
        return {"game_id": row[0], "role": row[1], "seat": row[2], "revoked": bool(row[3])}

    def live_tokens(self, game_id: str) -> list:
        """[(token, role, seat)] of the game's tokens still valid (for its host)."""
        with self._lock:
            return self._db.execute("SELECT token, role, seat FROM tokens WHERE game_id = ? AND revoked = 0",
                                    (game_id,)).fetchall()

    def set_seat(self, game_id: str, seat: str, controller: str, bot: str | None,
                 new_token: str | None) -> None:
        """Hand a seat to a new controller: every link of the seat so far stops working, and
        ``new_token`` (if any) becomes its link."""
        with self._lock, self._transaction():
            self._db.execute("UPDATE tokens SET revoked = 1 WHERE game_id = ? AND role = 'seat' AND seat = ?",
                             (game_id, seat))
            self._db.execute("UPDATE seats SET controller = ?, bot = ? WHERE game_id = ? AND seat = ?",
                             (controller, bot, game_id, seat))
            self._db.execute("DELETE FROM options WHERE game_id = ? AND seat = ? AND key = 'timed_out'",
                             (game_id, seat))
            if new_token is not None:
                self._db.execute("INSERT INTO tokens (digest, token, game_id, role, seat) VALUES (?, ?, ?, 'seat', ?)",
                                 (digest(new_token), new_token, game_id, seat))

    # ------------------------------------------------------------------ table talk and options

    def add_chat(self, game_id: str, author: str, text: str) -> dict:
        """Keep one message said at the table; returns it as {"n", "at", "by", "text"}."""
        now = time.time()
        with self._lock, self._transaction():
            n = self._db.execute("SELECT coalesce(max(n), 0) + 1 FROM chat WHERE game_id = ?",
                                 (game_id,)).fetchone()[0]
            self._db.execute("INSERT INTO chat VALUES (?, ?, ?, ?, ?)", (game_id, n, now, author, text))
        return {"n": n, "at": now, "by": author, "text": text}

    def chat(self, game_id: str) -> list:
        with self._lock:
            rows = self._db.execute("SELECT n, at, author, text FROM chat WHERE game_id = ? ORDER BY n",
                                    (game_id,)).fetchall()
        return [{"n": n, "at": at, "by": by, "text": text} for n, at, by, text in rows]

    def set_option(self, game_id: str, seat: str, key: str, value: int) -> None:
        with self._lock, self._transaction():
            self._db.execute("INSERT OR REPLACE INTO options VALUES (?, ?, ?, ?)", (game_id, seat, key, value))

    def options(self, game_id: str) -> dict:
        """{(seat, key): value} of a game ('' as the seat of the game's own options)."""
        with self._lock:
            rows = self._db.execute("SELECT seat, key, value FROM options WHERE game_id = ?",
                                    (game_id,)).fetchall()
        return {(seat, key): value for seat, key, value in rows}

    def hand_to_bot(self, game_id: str, seat: str, bot: str, was: str) -> None:
        """A bot plays the seat for now (its turn timer ran out; ``was``: its controller,
        link or host) and the seat's link stays valid, so that its player can take it back."""
        with self._lock, self._transaction():
            self._db.execute("UPDATE seats SET controller = 'bot', bot = ? WHERE game_id = ? AND seat = ?",
                             (bot, game_id, seat))
            self._db.execute("INSERT OR REPLACE INTO options VALUES (?, ?, 'timed_out', ?)",
                             (game_id, seat, TIMED_OUT[was]))

    def take_back(self, game_id: str, seat: str, controller: str) -> None:
        """The player of a timed-out seat plays it again (``controller``: as before)."""
        with self._lock, self._transaction():
            self._db.execute("UPDATE seats SET controller = ?, bot = NULL WHERE game_id = ? AND seat = ?",
                             (controller, game_id, seat))
            self._db.execute("DELETE FROM options WHERE game_id = ? AND seat = ? AND key = 'timed_out'",
                             (game_id, seat))

    # ------------------------------------------------------------------ helpers

    def _transaction(self):
        db = self._db

        class _Tx:
            def __enter__(self):
                db.execute("BEGIN IMMEDIATE")

            def __exit__(self, kind, exc, tb):
                db.execute("COMMIT" if kind is None else "ROLLBACK")
                return False
        return _Tx()
