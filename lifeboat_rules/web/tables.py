"""The tables of one web server: games, seats, links, moves and what each seat sees.

No web framework here: ``app.py`` turns requests and WebSocket messages into calls of ``Hall``
and sends back what it returns. Everything a client sends is checked here; a refusal is a
``Refusal`` with a code (the page words it) and a detail, and changes nothing.
"""

from __future__ import annotations

import bisect
import collections
import hashlib
import json
import secrets
import sqlite3
import threading
import time

import lifeboat_rules as lr
from lifeboat_rules.rulesets import builtin_rulesets

from .. import bots
from . import labels
from .store import SNAPSHOT_EVERY, Conflict, Store

# Actions a player may take whatever they are deciding (R-PLAY-1, trading): the page lists
# them apart from the decision. A layout choice only: legality is the game's.
ANY_TIME = frozenset({"play", "offer", "accept_offer", "decline_offer", "drink", "preserve"})

CONTROLLERS = ("link", "host", "bot")


class Refusal(Exception):
    """A request the table refuses; nothing changed. ``code`` names the reason."""

    def __init__(self, code: str, detail: str = ""):
        super().__init__(f"{code}: {detail}" if detail else code)
        self.code = code
        self.detail = detail

    def message(self, lang: str = "en") -> dict:
        text = labels.ui(lang).get("err_" + self.code, self.code)
        return {"type": "refused", "code": self.code,
                "message": f"{text}: {self.detail}" if self.detail else text}


class Pass:
    """What a token opens: a game, a role (host, seat, spectator) and the seats it acts for."""

    __slots__ = ("token", "game_id", "role", "seats")

    def __init__(self, token: str, game_id: str, role: str, seats: tuple):
        self.token = token
        self.game_id = game_id
        self.role = role
        self.seats = seats


class Table:
    """One game in memory, with its seats' controllers and bots. Only one thread at a time
    works on a table (the server keeps one lock per game)."""

    def __init__(self, game_id: str, game, lang: str, seats: dict):
        self.game_id = game_id
        self.game = game
        self.lang = lang
        self.seats = seats                 # character -> {"controller", "bot", "moves"}
        self.bots: dict = {}
        self.links: list | None = None     # the host's list of live links, until one changes
        self._names: dict = {}
        self._feeds: dict = {}             # (viewer, lang) -> the feed in words so far
        self._told: dict = {}              # (log index, lang) -> words of an event seen whole
        self._choices: dict = {}           # (seat, lang) -> (its legal moves, their buttons)
        self._labels: dict = {}            # (seat, lang) -> {action: its button's words}
        self._offers: dict = {}            # seat -> (log length, moves, fingerprint)
        self.unsnapped = 0                 # actions saved since the file's snapshot

    def choices(self, seat: str, lang: str) -> list:
        """``seat``'s legal moves as buttons: [{"label", "action", "any_time"}], one per
        wording (two listings of one move that read the same are one button to a person).
        Worded again only when the moves change, and then only the moves not worded before:
        an action's words depend on the action and on the cards its actor sees (whose kinds
        never change), except a pass, which says what is passed (the decision)."""
        game = self.game
        legal = game.legal_actions(seat)
        cached = self._choices.get((seat, lang))
        if cached is not None and cached[0] == legal:
            return cached[1]
        deciding = next((d.kind for d in game.pending if d.by == seat), None)
        known = self._labels.setdefault((seat, lang), {})
        if len(known) > 4096:
            known.clear()
        buttons, seen = [], set()
        for action in legal:
            key = json.dumps(action, sort_keys=True, separators=(",", ":"))
            if action["type"] == "pass":
                key += f"|{deciding}"
            label = known.get(key)
            if label is None:
                label = known[key] = labels.describe(action, game, lang)
            if label in seen:
                continue
            seen.add(label)
            any_time = action["type"] in ANY_TIME and not (
                action["type"] == "preserve" and deciding == "overboard")
            buttons.append({"label": label, "action": action, "any_time": any_time})
        self._choices[(seat, lang)] = (legal, buttons)
        return buttons

    def feed(self, viewer, lang: str, since: int) -> list:
        """``viewer``'s events from log index ``since`` on, in words: [{"i", "text"}].

        Each event is worded once per viewer and language (a page that reconnects late in a
        game gets hundreds at once), and an event a viewer sees whole once for every such
        viewer (the words come from the event alone); the game's end may show a viewer more
        of the past, so the words are made again then."""
        game = self.game
        entry = self._feeds.get((viewer, lang))
        if entry is None or entry["over"] != game.over:
            entry = self._feeds[(viewer, lang)] = {"over": game.over, "upto": 0, "lines": []}
        upto = entry["upto"]
        if upto < len(game.log):
            lines = entry["lines"]
            hidden = game.secrets
            for number, event in enumerate(game.events_for(viewer, upto), start=upto):
                secret = hidden.get(number)
                whole = secret is None or (viewer is not None and viewer in secret.audience)
                key = (number, lang, game.over)
                text = self._told.get(key) if whole else None
                if text is None:
                    text = labels.describe(event, game, lang)
                    if whole:
                        self._told[key] = text
                if text:
                    lines.append((number, text))
            entry["upto"] = len(game.log)
            if len(self._told) > 20_000:
                self._told.clear()
        lines = entry["lines"]
        start = bisect.bisect_left(lines, (since, ""))
        return [{"i": i, "text": text} for i, text in lines[start:]]

    def bot(self, seat: str):
        entry = self.seats[seat]
        bot = self.bots.get(seat)
        if bot is None or bot[0] != entry["bot"]:
            seed = int.from_bytes(hashlib.sha256(f"{self.game_id}/{seat}/{entry['moves']}".encode()).digest()[:4], "big")
            bot = self.bots[seat] = (entry["bot"], bots.make_bot(entry["bot"], seed))
        return bot[1]

    def bot_pending(self) -> str | None:
        """The first seat played by a bot that must decide now, or None."""
        if self.game.over:
            return None
        return next((d.by for d in self.game.pending if self.seats[d.by]["controller"] == "bot"), None)

    def names(self, lang: str) -> dict:
        if lang not in self._names:
            self._names[lang] = labels.names(self.game, lang)
        return self._names[lang]

    def offer(self, seat: str) -> str:
        """A fingerprint of what ``seat`` may do now and of how many moves it has made: a move
        sent against another fingerprint (an old page, a replayed message) is refused."""
        moves = self.seats[seat]["moves"]
        cached = self._offers.get(seat)
        if cached is not None and cached[0] == len(self.game.log) and cached[1] == moves:
            return cached[2]
        legal = self.game.legal_actions(seat)
        text = json.dumps(legal, sort_keys=True, separators=(",", ":")) + f"|{moves}"
        fingerprint = hashlib.sha256(text.encode()).hexdigest()[:20]
        self._offers[seat] = (len(self.game.log), moves, fingerprint)
        return fingerprint


class Hall:
    """Every table of one server, kept in SQLite, the most recently used ones in memory.

    Thread safe for calls on different games; calls on one game must come one at a time
    (the server holds a lock per game around them)."""

    def __init__(self, store: Store, max_games: int = 100, cache_size: int = 64,
                 bot_steps: int = 20_000, max_bot_games: int = 2):
        self.store = store
        self.max_games = max_games
        self.max_bot_games = max_bot_games
        self.cache_size = cache_size
        self.bot_steps = bot_steps
        self._lock = threading.RLock()     # the tables in memory and the known tokens
        self._tables: collections.OrderedDict = collections.OrderedDict()
        self._tokens: dict = {}            # token -> what store.token said (a cache)
        self.in_use: collections.Counter = collections.Counter()   # game id -> open pages
        self.rulesets = self._builtin_rulesets()

    @staticmethod
    def _builtin_rulesets() -> dict:
        """{name: [min players, max players]} of the rulesets shipped with the library (the
        YAML files of its data folder, each loaded by name): the only ones a client may choose
        (clients never name files)."""
        out = {}
        for name in builtin_rulesets():
            players = lr.load_ruleset(name).players
            out[name] = [min(players), max(players)]
        return out

    # ------------------------------------------------------------------ creating and entering

    def create(self, ruleset, players, lang, controllers, seed=None) -> dict:
        """A new game; returns {"game", "host"} (the host's token). Its bots have not moved
        yet: the server has them play (``bot_step``) apart from other games."""
        if type(ruleset) is not str or ruleset not in self.rulesets:
            raise Refusal("bad_request", f"ruleset must be one of {', '.join(self.rulesets)}")
        low, high = self.rulesets[ruleset]
        if type(players) is not int or not low <= players <= high:
            raise Refusal("bad_request", f"players must be a number from {low} to {high}")
        if lang not in labels.LANGS:
            raise Refusal("bad_request", f"lang must be one of {', '.join(labels.LANGS)}")
        if seed is not None and (type(seed) is not int or not 0 <= seed < 2 ** 31):
            raise Refusal("bad_request", "seed must be a number from 0 to 2147483647")
        if (type(controllers) is not list or len(controllers) != players
                or any(not self._controller_ok(c) for c in controllers)):
            raise Refusal("bad_request", f"seats must list {players} of: link, host, "
                          + ", ".join(f"bot:{n}" for n in bots.bot_names()))
        if self.store.count_open_games() >= self.max_games:
            raise Refusal("limit", f"{self.max_games} games are already being played on this server")
        if (all(c.startswith("bot:") for c in controllers)
                and self.store.count_open_games(bots_only=True) >= self.max_bot_games):
            raise Refusal("limit", f"{self.max_bot_games} games of bots only are already being "
                          "played on this server")

        game = lr.new_game(ruleset, players=players, seed=seed)
        game_id = secrets.token_hex(8)
        host = secrets.token_urlsafe(32)
        tokens = [(host, "host", None), (secrets.token_urlsafe(32), "spectator", None)]
        seats = []
        for character, controller in zip(game.view(None)["seats"], controllers):
            kind, _, bot = controller.partition(":")
            seats.append((character, kind, bot or None))
            if kind == "link":
                tokens.append((secrets.token_urlsafe(32), "seat", character))
        self.store.add_game(game_id, ruleset, players, lang, game.to_dict(), seats, tokens)
        table = Table(game_id, game, lang, {s: {"controller": c, "bot": b, "moves": 0} for s, c, b in seats})
        with self._lock:
            self._remember(table)
        return {"game": game_id, "host": host}

    @staticmethod
    def _controller_ok(value) -> bool:
        if type(value) is not str:
            return False
        kind, _, bot = value.partition(":")
        return (kind in ("link", "host") and not bot) or (kind == "bot" and bot in bots.bot_names())

    def enter(self, token) -> Pass:
        """The pass a token opens now; a ``Refusal`` for a forged or replaced token."""
        if type(token) is not str or not 0 < len(token) <= 128:
            raise Refusal("bad_token")
        with self._lock:
            found = self._tokens.get(token)
        if found is None:
            found = self.store.token(token)
            if found is None:
                raise Refusal("bad_token")
            with self._lock:
                if len(self._tokens) > 50_000:
                    self._tokens.clear()
                self._tokens[token] = found
        if found["revoked"]:
            raise Refusal("revoked")
        role = found["role"]
        if role == "seat":
            seats = (found["seat"],)
        elif role == "host":
            table = self.table(found["game_id"])
            seats = tuple(s for s, e in table.seats.items() if e["controller"] == "host")
        else:
            seats = ()
        return Pass(token, found["game_id"], role, seats)

    def _tokens_changed(self, game_id: str) -> None:
        with self._lock:
            for token in [t for t, found in self._tokens.items() if found["game_id"] == game_id]:
                del self._tokens[token]

    # ------------------------------------------------------------------ tables in memory

    def table(self, game_id: str) -> Table:
        with self._lock:
            table = self._tables.get(game_id)
            if table is not None:
                self._tables.move_to_end(game_id)
                return table
            row = self.store.game(game_id)
            if row is None:
                raise Refusal("bad_token")
            game = lr.Game.from_dict(row["state"])
            for at, action in row["moves"]:       # the actions saved since the snapshot
                if at >= len(game.log):
                    game.apply(action)
            table = Table(game_id, game, row["lang"], row["seats"])
            table.unsnapped = len(row["moves"])
            self._remember(table)
            return table

    def _remember(self, table: Table) -> None:
        self._tables[table.game_id] = table
        self._tables.move_to_end(table.game_id)
        for game_id in list(self._tables):       # the least recently used first
            if len(self._tables) <= self.cache_size:
                break
            if not self.in_use[game_id] and game_id != table.game_id:
                del self._tables[game_id]

    def _forget(self, game_id: str) -> None:
        with self._lock:
            self._tables.pop(game_id, None)

    def sweep(self, unplayed_for: float, bots_done_for: float, keep_bots_done: int) -> list:
        """Drops games nobody played ``unplayed_for`` seconds after their creation and
        finished bots-only games (see ``Store.sweep``); returns their ids."""
        now = time.time()
        gone = self.store.sweep(now - unplayed_for, now - bots_done_for, keep_bots_done)
        for game_id in gone:
            self._forget(game_id)
            self._tokens_changed(game_id)
        return gone

    # ------------------------------------------------------------------ moves

    def move(self, pass_: Pass, seat, action, offer) -> None:
        """Apply ``action`` for ``seat``, saved before this returns. The link is checked
        again first: a move that reaches the table after its link was replaced is refused."""
        pass_ = self.enter(pass_.token)       # revoked since? the seats it holds now?
        if type(seat) is not str or seat not in pass_.seats:
            raise Refusal("not_your_seat", "this link does not play that seat")
        if type(action) is not dict or action.get("by") != seat:
            raise Refusal("not_your_seat", "a move must be made by the seat that sends it")
        table = self.table(pass_.game_id)
        game = table.game
        if game.over:
            raise Refusal("over")
        if type(offer) is not str or offer != table.offer(seat):
            raise Refusal("stale")
        at = len(game.log)
        try:
            game.apply(action)
        except lr.IllegalAction as exc:
            raise Refusal("illegal", str(exc)) from None
        table.seats[seat]["moves"] += 1
        self._save(table, [(at, action)], {seat: 1}, people=1)

    def bot_step(self, game_id: str, budget: float = 0.05) -> tuple:
        """Bots decide for their seats, for about ``budget`` seconds of their thinking at most
        (at least one decision), until a person must decide or the game ends; saved before
        this returns. (How many moves they made, whether a bot must still decide.)"""
        table = self.table(game_id)
        game = table.game
        moves, movers = [], {}
        began = time.perf_counter()
        try:
            while len(moves) < self.bot_steps:
                seat = table.bot_pending()
                if seat is None or (moves and time.perf_counter() - began > budget):
                    break
                action = table.bot(seat).choose(game, seat)
                moves.append((len(game.log), action))
                game.apply(action)
                table.seats[seat]["moves"] += 1
                movers[seat] = movers.get(seat, 0) + 1
        except BaseException:
            self._forget(game_id)       # memory must not run ahead of the file
            raise
        if moves:
            self._save(table, moves, movers, people=0)
        return len(moves), table.bot_pending() is not None

    def bot_pending(self, game_id: str) -> bool:
        return self.table(game_id).bot_pending() is not None

    def _save(self, table: Table, moves: list, movers: dict, people: int) -> None:
        """The actions just applied, into the file; if that fails, the game in memory is
        dropped (it is read back from the file: memory never runs ahead of it) and the
        move refused as ``not_saved``."""
        game = table.game
        snap = game.over or table.unsnapped + len(moves) >= SNAPSHOT_EVERY
        try:
            self.store.save_moves(table.game_id, moves, len(game.log), game.over, movers, people,
                                  game.to_dict if snap else None)
        except (Conflict, OSError, sqlite3.Error) as exc:
            self._forget(table.game_id)
            raise Refusal("not_saved", "the move could not be saved; here is the table as it is") from exc
        except BaseException:
            self._forget(table.game_id)
            raise
        table.unsnapped = 0 if snap else table.unsnapped + len(moves)

    # ------------------------------------------------------------------ the host's controls

    def manage(self, pass_: Pass, op, seat, bot=None) -> str | None:
        """The host hands a seat to a bot (``op="bot"``), to a new link (``"link"``: any
        earlier link of the seat stops working) or to this browser (``"here"``), or replaces
        the spectator link (``"spectator_link"``) or its own (``"host_link"``: returns the
        new host token; this page goes on with it, every other page of the old one is cut
        off). A seat handed to a bot is played by the server's bots afterwards."""
        pass_ = self.enter(pass_.token)
        if pass_.role != "host":
            raise Refusal("not_host")
        table = self.table(pass_.game_id)
        if op in ("spectator_link", "host_link"):
            token = secrets.token_urlsafe(32)
            self.store.replace_token(table.game_id, op.split("_")[0], token)
            self._links_changed(table)
            return token if op == "host_link" else None
        if type(seat) is not str or seat not in table.seats:
            raise Refusal("bad_request", "no such seat")
        if op == "bot":
            bot = bot if bot is not None else "random"
            if bot not in bots.bot_names():
                raise Refusal("bad_request", f"bots: {', '.join(bots.bot_names())}")
            self.store.set_seat(table.game_id, seat, "bot", bot, None)
            table.seats[seat].update(controller="bot", bot=bot)
        elif op == "link":
            self.store.set_seat(table.game_id, seat, "link", None, secrets.token_urlsafe(32))
            table.seats[seat].update(controller="link", bot=None)
        elif op == "here":
            self.store.set_seat(table.game_id, seat, "host", None, None)
            table.seats[seat].update(controller="host", bot=None)
        else:
            raise Refusal("bad_request", "op must be bot, link, here, spectator_link or host_link")
        self._links_changed(table)
        return None

    def _links_changed(self, table: Table) -> None:
        table.links = None
        self._tokens_changed(table.game_id)

    # ------------------------------------------------------------------ what a seat sees

    def state(self, pass_: Pass, seat, lang: str, since: int = 0) -> dict:
        """The message a connection gets: the view of ``seat`` (one of the pass's seats, or
        None for the public view), its choices in words, and its event feed from ``since``."""
        table = self.table(pass_.game_id)
        game = table.game
        viewer = seat if seat in pass_.seats else None
        view = game.view(viewer)
        names = table.names(lang)
        feed = table.feed(viewer, lang, since)
        out = {
            "type": "state", "game": table.game_id, "role": pass_.role, "lang": lang,
            "seat": viewer, "held": list(pass_.seats), "view": view, "names": names,
            "stage_text": labels.stage_words(view.get("stage"), names, lang),
            "waiting": [d.by for d in game.pending],
            "feed_from": since, "feed": feed, "log_size": len(game.log),
            "choices": [], "decision_text": None, "offer": None,
        }
        if viewer is not None and not game.over:
            out["offer"] = table.offer(viewer)
            mine = [d for d in game.pending if d.by == viewer]
            if mine:
                out["decision_text"] = labels.describe(mine[0], game, lang)
            out["choices"] = table.choices(viewer, lang)
        if pass_.role == "host":
            out["table"] = self._host_table(table)
        return out

    def _host_table(self, table: Table) -> dict:
        links = {"spectator": None, "host": None}
        seat_links = {}
        if table.links is None:
            table.links = self.store.live_tokens(table.game_id)
        for token, role, seat in table.links:
            if role == "seat":
                seat_links[seat] = token
            else:
                links[role] = token
        return {
            "seats": {s: {"controller": e["controller"], "bot": e["bot"], "link": seat_links.get(s)}
                      for s, e in table.seats.items()},
            "spectator": links["spectator"], "host": links["host"], "bots": bots.bot_names(),
        }
