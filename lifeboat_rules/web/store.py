"""Where the web table keeps its games: one SQLite file (stdlib ``sqlite3``).

A game is a short row (what it is, its version, its counters), a snapshot (``Game.to_dict()``
as JSON, in a row of its own) and, after it, the actions applied since, one row each, keyed by
the length of the game's log before that action: writing a move is a short insert and a short
update, however long the game, and two writers that start from the same state cannot both
succeed (the second insert finds its key taken), so no acknowledged move is ever overwritten.
The snapshot is rewritten every ``SNAPSHOT_EVERY`` actions and at the end. (The snapshot has a
table of its own because SQLite writes a whole row again when one of its columns changes: each
move would write the snapshot's pages again. Nor is a seat's move count kept: the game's log
holds every action with the seat that made it.)

One server owns a file: it holds an exclusive lock on it for as long as it runs (the system
drops the lock when the process ends, even by ``kill -9``), and a second server on the same
file refuses to start (``FileBusy``). Tokens are looked up by their SHA-256 digest; the file
itself must be kept as private as the links it holds (it is created readable by its owner
only).
"""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
import threading
import time
from typing import Any, Callable, Mapping, NamedTuple

from .jsontext import dumps

try:                      # the lock on the file (POSIX); elsewhere only the writes' keys guard
    import fcntl
except ImportError:       # pragma: no cover
    fcntl = None  # type: ignore[assignment]

SCHEMA_VERSION = 3
SNAPSHOT_EVERY = 256      # actions between two snapshots of a game (most games: only at the end)

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
    base INTEGER NOT NULL DEFAULT 0, -- the length of the snapshot's log
    version INTEGER NOT NULL DEFAULT 0,  -- the length of the log after the last action saved
    played INTEGER NOT NULL DEFAULT 0,   -- moves made by people (not bots)
    bots_only INTEGER NOT NULL DEFAULT 0 -- every seat a bot
);
CREATE TABLE IF NOT EXISTS snapshots (
    game_id TEXT PRIMARY KEY REFERENCES games(id),
    state TEXT NOT NULL              -- Game.to_dict() as JSON, its log games.base long
);
CREATE TABLE IF NOT EXISTS moves (
    game_id TEXT NOT NULL REFERENCES games(id),
    at INTEGER NOT NULL,             -- the length of the game's log before the action
    action TEXT NOT NULL,            -- the action as JSON
    PRIMARY KEY (game_id, at)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS seats (
    game_id TEXT NOT NULL REFERENCES games(id),
    seat TEXT NOT NULL,              -- the character id
    controller TEXT NOT NULL,        -- link | host | bot
    bot TEXT,                        -- the bot's name when controller = bot
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

# schema 1 kept the whole game in ``state`` after every move (and had no ``moves``)
MIGRATE_FROM_1 = """
ALTER TABLE games ADD COLUMN base INTEGER NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN version INTEGER NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN played INTEGER NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN bots_only INTEGER NOT NULL DEFAULT 0;
CREATE TABLE moves (
    game_id TEXT NOT NULL REFERENCES games(id),
    at INTEGER NOT NULL,
    action TEXT NOT NULL,
    PRIMARY KEY (game_id, at)
);
"""

# schema 2 kept the snapshot in the games row (so each move wrote it again with the row) and
# each seat's move count; its tables are rebuilt as schema 3's in SQLite's way of changing a
# table (make the new one, copy, drop the old, rename), the foreign keys off meanwhile
MIGRATE_FROM_2 = """
CREATE TABLE snapshots (
    game_id TEXT PRIMARY KEY REFERENCES games(id),
    state TEXT NOT NULL
);
INSERT INTO snapshots (game_id, state) SELECT id, state FROM games;
CREATE TABLE games_3 (
    id TEXT PRIMARY KEY,
    ruleset TEXT NOT NULL,
    players INTEGER NOT NULL,
    lang TEXT NOT NULL,
    over INTEGER NOT NULL DEFAULT 0,
    created REAL NOT NULL,
    updated REAL NOT NULL,
    base INTEGER NOT NULL DEFAULT 0,
    version INTEGER NOT NULL DEFAULT 0,
    played INTEGER NOT NULL DEFAULT 0,
    bots_only INTEGER NOT NULL DEFAULT 0
);
INSERT INTO games_3 SELECT id, ruleset, players, lang, over, created, updated, base, version,
    played, bots_only FROM games;
CREATE TABLE moves_3 (
    game_id TEXT NOT NULL REFERENCES games(id),
    at INTEGER NOT NULL,
    action TEXT NOT NULL,
    PRIMARY KEY (game_id, at)
) WITHOUT ROWID;
INSERT INTO moves_3 SELECT game_id, at, action FROM moves;
CREATE TABLE seats_3 (
    game_id TEXT NOT NULL REFERENCES games(id),
    seat TEXT NOT NULL,
    controller TEXT NOT NULL,
    bot TEXT,
    PRIMARY KEY (game_id, seat)
);
INSERT INTO seats_3 SELECT game_id, seat, controller, bot FROM seats;
DROP TABLE moves;
DROP TABLE seats;
DROP TABLE games;
ALTER TABLE games_3 RENAME TO games;
ALTER TABLE moves_3 RENAME TO moves;
ALTER TABLE seats_3 RENAME TO seats;
"""


class FileBusy(RuntimeError):
    """Another server has the file open: two servers on one file would overwrite each other."""


class MovesWrite(NamedTuple):
    """The actions just applied to one game, as ``Store.save_games`` writes them."""
    game_id: str
    moves: list                 # [(log length before, action)]
    after: int                  # the log's length after them
    over: bool
    people: int                 # how many of them people made
    snapshot: "Callable[[], Any] | None"    # ``Game.to_dict``, when the snapshot is rewritten


class Conflict(RuntimeError):
    """A write found the game moved on in the file (by another writer): nothing was written."""


# options.value of a seat's timed_out: the controller it had before the bot took over
TIMED_OUT = {"link": 1, "host": 2}


def digest(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def _statements(script: str) -> list:
    """The statements of one of the scripts above (none holds a ``;`` but at its end)."""
    return [statement for statement in script.split(";") if statement.strip()]


def _dumps(data) -> str:
    return dumps(data, ascii=True)


class Store:
    """The SQLite file of one server. Safe to call from several threads (one lock)."""

    def __init__(self, path: str):
        self.path = path
        self._owner = None
        if path != ":memory:":
            if not os.path.exists(path):
                # created private: the file holds every link of every game
                os.close(os.open(path, os.O_CREAT | os.O_WRONLY, 0o600))
            self._owner = _own(path)
        self._lock = threading.Lock()
        self._db = sqlite3.connect(path, check_same_thread=False, isolation_level=None)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=NORMAL")
        self._db.execute("PRAGMA foreign_keys=ON")
        with self._lock:
            before = {r[0] for r in self._db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
            if "games" in before:
                row = self._db.execute("SELECT value FROM meta WHERE key='schema'").fetchone()
                version = int(row[0]) if row else 1
                if version in (1, 2):
                    self._migrate(version)
                elif version != SCHEMA_VERSION:
                    raise RuntimeError(f"{path}: web table database of schema {version}, "
                                       f"this version reads {SCHEMA_VERSION}")
            self._db.executescript(SCHEMA)
            if self._db.execute("SELECT value FROM meta WHERE key='schema'").fetchone() is None:
                self._db.execute("INSERT INTO meta VALUES ('schema', ?)", (str(SCHEMA_VERSION),))

    def _migrate(self, version: int) -> None:
        """A file of schema 1 or 2 brought to this one, in one transaction: all or nothing."""
        db = self._db
        db.execute("PRAGMA foreign_keys=OFF")     # tables are rebuilt (not switched within a transaction)
        db.execute("BEGIN IMMEDIATE")
        try:
            if version == 1:
                for statement in _statements(MIGRATE_FROM_1):
                    db.execute(statement)
                for game_id, state in db.execute("SELECT id, state FROM games").fetchall():
                    size = len(json.loads(state)["log"])
                    db.execute("UPDATE games SET base = ?, version = ? WHERE id = ?", (size, size, game_id))
                version = 2
            if version == 2:
                for statement in _statements(MIGRATE_FROM_2):
                    db.execute(statement)
            if db.execute("PRAGMA foreign_key_check").fetchone() is not None:
                raise RuntimeError(f"{self.path}: a row refers to a game the file does not hold")
            db.execute("INSERT OR REPLACE INTO meta (key, value) VALUES ('schema', ?)", (str(SCHEMA_VERSION),))
            db.execute("COMMIT")
        except BaseException:
            db.execute("ROLLBACK")
            raise
        finally:
            db.execute("PRAGMA foreign_keys=ON")

    def close(self) -> None:
        with self._lock:
            self._db.close()
            if self._owner is not None:
                os.close(self._owner)      # and the lock with it
                self._owner = None

    # ------------------------------------------------------------------ games

    def add_game(self, game_id: str, ruleset: str, players: int, lang: str, state: Mapping[str, Any],
                 seats: list, tokens: list) -> None:
        """A new game with its seats [(seat, controller, bot)] and tokens [(token, role, seat)]."""
        now = time.time()
        bots_only = int(all(c == "bot" for _, c, _ in seats))
        with self._lock, self._transaction():
            self._db.execute("INSERT INTO games (id, ruleset, players, lang, over, created, updated, "
                             "base, version, bots_only) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                             (game_id, ruleset, players, lang, int(bool(state["state"].get("over"))),
                              now, now, len(state["log"]), len(state["log"]), bots_only))
            self._db.execute("INSERT INTO snapshots (game_id, state) VALUES (?, ?)", (game_id, _dumps(state)))
            self._db.executemany("INSERT INTO seats (game_id, seat, controller, bot) VALUES (?, ?, ?, ?)",
                                 [(game_id, s, c, b) for s, c, b in seats])
            self._db.executemany("INSERT INTO tokens (digest, token, game_id, role, seat) VALUES (?, ?, ?, ?, ?)",
                                 [(digest(t), t, game_id, r, s) for t, r, s in tokens])

    def save_moves(self, game_id: str, moves: list, after: int, over: bool, people: int,
                   snapshot=None) -> None:
        """Actions applied to a game: ``moves`` [(log length before, action)], ``after`` the
        log's length after them, ``people`` how many of them people made; with ``snapshot`` (a
        callable giving ``Game.to_dict()`` after them) the snapshot is rewritten and the
        actions it holds dropped. ``Conflict``, and nothing written, if the file's game is not
        where the first action started from."""
        self.save_games([MovesWrite(game_id, moves, after, over, people, snapshot)])

    def save_games(self, writes: "list[MovesWrite]") -> None:
        """``save_moves`` for several games in one transaction (a group commit). All are
        written or none: a ``Conflict`` for any game writes nothing of the others either."""
        with self._lock, self._transaction():
            for write in writes:
                self._write_moves(write)

    def _write_moves(self, write: MovesWrite) -> None:
        # (in a transaction)
        game_id, moves, snapshot = write.game_id, write.moves, write.snapshot
        changed = self._db.execute(
            "UPDATE games SET version = ?, over = ?, updated = ?, played = played + ? "
            "WHERE id = ? AND version = ?",
            (write.after, int(write.over), time.time(), write.people, game_id, moves[0][0])).rowcount
        if changed != 1:
            raise Conflict(f"game {game_id} moved on in the file")
        try:
            self._db.executemany("INSERT INTO moves (game_id, at, action) VALUES (?, ?, ?)",
                                 [(game_id, at, _dumps(action)) for at, action in moves])
        except sqlite3.IntegrityError:
            raise Conflict(f"game {game_id} moved on in the file") from None
        if snapshot is not None:
            state = snapshot()
            self._db.execute("UPDATE snapshots SET state = ? WHERE game_id = ?", (_dumps(state), game_id))
            self._db.execute("UPDATE games SET base = ? WHERE id = ?", (len(state["log"]), game_id))
            self._db.execute("DELETE FROM moves WHERE game_id = ?", (game_id,))

    def game(self, game_id: str) -> dict | None:
        """{"id", "ruleset", "players", "lang", "over", "state": dict (the snapshot), "moves":
        [(log length before, action)] since it, "seats": {seat: {"controller", "bot"}}}."""
        with self._lock:
            row = self._db.execute("SELECT id, ruleset, players, lang, over, state FROM games "
                                   "JOIN snapshots ON game_id = id WHERE id = ?", (game_id,)).fetchone()
            if row is None:
                return None
            seats = self._db.execute("SELECT seat, controller, bot FROM seats WHERE game_id = ?",
                                     (game_id,)).fetchall()
            moves = self._db.execute("SELECT at, action FROM moves WHERE game_id = ? ORDER BY at",
                                     (game_id,)).fetchall()
        return {"id": row[0], "ruleset": row[1], "players": row[2], "lang": row[3],
                "over": bool(row[4]), "state": json.loads(row[5]),
                "moves": [(at, json.loads(action)) for at, action in moves],
                "seats": {s: {"controller": c, "bot": b} for s, c, b in seats}}

    def count_open_games(self, bots_only: bool = False) -> int:
        with self._lock:
            return self._db.execute("SELECT count(*) FROM games WHERE over = 0 AND bots_only >= ?",
                                    (int(bots_only),)).fetchone()[0]

    def game_ids(self) -> list:
        with self._lock:
            return [r[0] for r in self._db.execute("SELECT id FROM games ORDER BY created")]

    def sweep(self, unplayed_before: float, bots_done_before: float, keep_bots_done: int,
              idle_before: float | None = None) -> list:
        """Drops games no person ever moved in, created before ``unplayed_before``; games in
        progress nothing moved in since ``idle_before`` (abandoned); and finished bots-only
        games no person moved in, last changed before ``bots_done_before`` or past the newest
        ``keep_bots_done`` of them (a game people played in is kept, even if bots played its
        end). Returns the ids dropped."""
        with self._lock, self._transaction():
            gone = [r[0] for r in self._db.execute(
                "SELECT id FROM games WHERE over = 0 AND played = 0 AND bots_only = 0 AND created < ?",
                (unplayed_before,))]
            if idle_before is not None:   # (the games the query above takes are not taken twice)
                gone += [r[0] for r in self._db.execute(
                    "SELECT id FROM games WHERE over = 0 AND NOT (played = 0 AND bots_only = 0) "
                    "AND updated < ?", (idle_before,))]
            done = [r[0] for r in self._db.execute(
                "SELECT id, updated FROM games WHERE over = 1 AND bots_only = 1 AND played = 0 ORDER BY updated DESC")]
            old = {r[0] for r in self._db.execute(
                "SELECT id FROM games WHERE over = 1 AND bots_only = 1 AND played = 0 AND updated < ?",
                (bots_done_before,))}
            gone += [g for i, g in enumerate(done) if i >= keep_bots_done or g in old]
            for table in ("snapshots", "moves", "seats", "tokens", "chat", "options"):
                self._db.executemany(f"DELETE FROM {table} WHERE game_id = ?", [(g,) for g in gone])
            self._db.executemany("DELETE FROM games WHERE id = ?", [(g,) for g in gone])
        return gone

    def in_progress(self, game_ids) -> set:
        """Those of ``game_ids`` still kept and not over."""
        ids = list(game_ids)
        if not ids:
            return set()
        with self._lock:
            return {r[0] for r in self._db.execute(
                f"SELECT id FROM games WHERE over = 0 AND id IN ({','.join('?' * len(ids))})", ids)}

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
        ``new_token`` (if any) becomes its link; the game is one of bots only if every seat is
        now a bot's."""
        with self._lock, self._transaction():
            self._db.execute("UPDATE tokens SET revoked = 1 WHERE game_id = ? AND role = 'seat' AND seat = ?",
                             (game_id, seat))
            self._db.execute("UPDATE seats SET controller = ?, bot = ? WHERE game_id = ? AND seat = ?",
                             (controller, bot, game_id, seat))
            self._recount_bots_only(game_id)
            self._db.execute("DELETE FROM options WHERE game_id = ? AND seat = ? AND key = 'timed_out'",
                             (game_id, seat))
            if new_token is not None:
                self._db.execute("INSERT INTO tokens (digest, token, game_id, role, seat) VALUES (?, ?, ?, 'seat', ?)",
                                 (digest(new_token), new_token, game_id, seat))

    def replace_token(self, game_id: str, role: str, new_token: str) -> None:
        """The game's host or spectator link replaced: the old one stops working."""
        with self._lock, self._transaction():
            self._db.execute("UPDATE tokens SET revoked = 1 WHERE game_id = ? AND role = ?", (game_id, role))
            self._db.execute("INSERT INTO tokens (digest, token, game_id, role, seat) VALUES (?, ?, ?, ?, NULL)",
                             (digest(new_token), new_token, game_id, role))
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
            self._recount_bots_only(game_id)

    def take_back(self, game_id: str, seat: str, controller: str) -> None:
        """The player of a timed-out seat plays it again (``controller``: as before)."""
        with self._lock, self._transaction():
            self._db.execute("UPDATE seats SET controller = ?, bot = NULL WHERE game_id = ? AND seat = ?",
                             (controller, game_id, seat))
            self._db.execute("DELETE FROM options WHERE game_id = ? AND seat = ? AND key = 'timed_out'",
                             (game_id, seat))
            self._recount_bots_only(game_id)

    # ------------------------------------------------------------------ helpers

    def _recount_bots_only(self, game_id: str) -> None:
        # (in a transaction) a game whose every seat a bot plays now is one of bots only (the
        # limit on them, their sweep), whether the host handed the seats over or their people's
        # turn timers ran out; it stops being one when a seat has a person again
        self._db.execute("UPDATE games SET bots_only = (SELECT count(*) = 0 FROM seats WHERE game_id = ? "
                         "AND controller != 'bot') WHERE id = ?", (game_id, game_id))

    def _transaction(self) -> "_Transaction":
        return _Transaction(self._db)


class _Transaction:
    """``with``: one write transaction (committed, or rolled back on an exception)."""

    __slots__ = ("db",)

    def __init__(self, db):
        self.db = db

    def __enter__(self):
        self.db.execute("BEGIN IMMEDIATE")

    def __exit__(self, kind, exc, tb):
        self.db.execute("COMMIT" if kind is None else "ROLLBACK")
        return False


def _own(path: str):
    """An open descriptor of ``path`` holding an exclusive lock on it, or ``FileBusy``."""
    if fcntl is None:      # pragma: no cover
        return None
    fd = os.open(path, os.O_RDONLY)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        os.close(fd)
        raise FileBusy(f"{path} is in use by another web table server: one server per file "
                       "(stop the other one, or give this one its own --db)") from None
    return fd
