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

import lifeboat_rules as lr
from lifeboat_rules.rulesets import builtin_rulesets

from .. import bots
from . import labels
from .store import Store

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
    """One game in memory, with its seats' controllers and bots."""

    def __init__(self, game_id: str, game, lang: str, seats: dict):
        self.game_id = game_id
        self.game = game
        self.lang = lang
        self.seats = seats                 # character -> {"controller", "bot", "moves"}
        self.bots: dict = {}
        self._names: dict = {}
        self._feeds: dict = {}             # (viewer, lang) -> the feed in words so far
        self._choices: dict = {}           # (seat, lang) -> (its legal moves, their buttons)

    def choices(self, seat: str, lang: str) -> list:
        """``seat``'s legal moves as buttons: [{"label", "action", "any_time"}], one per
        wording (two listings of one move that read the same are one button to a person).
        Worded again only when the moves change: most pushes leave a seat's moves as they were."""
        game = self.game
        legal = game.legal_actions(seat)
        cached = self._choices.get((seat, lang))
        if cached is not None and cached[0] == legal:
            return cached[1]
        deciding = next((d.kind for d in game.pending if d.by == seat), None)
        buttons, seen = [], set()
        for action in legal:
            label = labels.describe(action, game, lang)
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
        game gets hundreds at once); the game's end may show a viewer more of the past, so the
        words are made again then."""
        game = self.game
        entry = self._feeds.get((viewer, lang))
        if entry is None or entry["over"] != game.over:
            entry = self._feeds[(viewer, lang)] = {"over": game.over, "upto": 0, "lines": []}
        upto = entry["upto"]
        if upto < len(game.log):
            lines = entry["lines"]
            for number, event in enumerate(game.events_for(viewer, upto), start=upto):
                text = labels.describe(event, game, lang)
                if text:
                    lines.append((number, text))
            entry["upto"] = len(game.log)
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

    def names(self, lang: str) -> dict:
        if lang not in self._names:
            self._names[lang] = labels.names(self.game, lang)
        return self._names[lang]

    def offer(self, seat: str) -> str:
        """A fingerprint of what ``seat`` may do now and of how many moves it has made: a move
        sent against another fingerprint (an old page, a replayed message) is refused."""
        legal = self.game.legal_actions(seat)
        text = json.dumps(legal, sort_keys=True, separators=(",", ":")) + f"|{self.seats[seat]['moves']}"
        return hashlib.sha256(text.encode()).hexdigest()[:20]


class Hall:
    """Every table of one server, kept in SQLite, the most recently used ones in memory."""

    def __init__(self, store: Store, max_games: int = 100, cache_size: int = 64,
                 bot_steps: int = 20_000):
        self.store = store
        self.max_games = max_games
        self.cache_size = cache_size
        self.bot_steps = bot_steps
        self._tables: collections.OrderedDict = collections.OrderedDict()
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
        """A new game; returns {"game", "host"} (the host's token)."""
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
        self._remember(table)
        self._play_bots(table)
        return {"game": game_id, "host": host}

    @staticmethod
    def _controller_ok(value) -> bool:
        if type(value) is not str:
            return False
        kind, _, bot = value.partition(":")
        return (kind in ("link", "host") and not bot) or (kind == "bot" and bot in bots.bot_names())

    def enter(self, token) -> Pass:
        """The pass a token opens; a ``Refusal`` for a forged or replaced token."""
        if type(token) is not str or not 0 < len(token) <= 128:
            raise Refusal("bad_token")
        found = self.store.token(token)
        if found is None:
            raise Refusal("bad_token")
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

    # ------------------------------------------------------------------ tables in memory

    def table(self, game_id: str) -> Table:
        table = self._tables.get(game_id)
        if table is not None:
            self._tables.move_to_end(game_id)
            return table
        row = self.store.game(game_id)
        if row is None:
            raise Refusal("bad_token")
        game = lr.Game.from_dict(row["state"])
        table = Table(game_id, game, row["lang"], row["seats"])
        self._remember(table)
        self._play_bots(table)     # a server stopped between two bot moves goes on here
        return table

    def _remember(self, table: Table) -> None:
        self._tables[table.game_id] = table
        self._tables.move_to_end(table.game_id)
        while len(self._tables) > self.cache_size:
            self._tables.popitem(last=False)

    def _forget(self, game_id: str) -> None:
        self._tables.pop(game_id, None)

    # ------------------------------------------------------------------ moves

    def move(self, pass_: Pass, seat, action, offer) -> list:
        """Apply ``action`` for ``seat``; then the bots play until a person must decide.
        Returns the events of the move (unredacted: for the server only)."""
        if pass_.role == "host":
            pass_ = self.enter(pass_.token)          # the seats it holds may have changed
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
        try:
            events = game.apply(action)
        except lr.IllegalAction as exc:
            raise Refusal("illegal", str(exc)) from None
        try:
            table.seats[seat]["moves"] += 1
            movers = {seat: 1}
            self._play_bots(table, movers, save=False)
            self._save(table, movers)
        except BaseException:
            self._forget(table.game_id)   # memory must not run ahead of the file
            raise
        return events

    def _play_bots(self, table: Table, movers: dict | None = None, save: bool = True) -> None:
        """Bots decide for their seats until no bot is pending (or the game is over)."""
        game = table.game
        movers = {} if movers is None else movers
        try:
            for _ in range(self.bot_steps):
                if game.over:
                    break
                waiting = [d.by for d in game.pending if table.seats[d.by]["controller"] == "bot"]
                if not waiting:
                    break
                seat = waiting[0]
                game.apply(table.bot(seat).choose(game, seat))
                table.seats[seat]["moves"] += 1
                movers[seat] = movers.get(seat, 0) + 1
            if save and movers:
                self._save(table, movers)
        except BaseException:
            self._forget(table.game_id)
            raise

    def _save(self, table: Table, movers: dict) -> None:
        self.store.save_move(table.game_id, table.game.to_dict(), table.game.over, movers)

    # ------------------------------------------------------------------ the host's controls

    def manage(self, pass_: Pass, op, seat, bot=None) -> None:
        """The host hands a seat to a bot (``op="bot"``), to a new link (``"link"``: any
        earlier link of the seat stops working) or to this browser (``"here"``)."""
        if pass_.role != "host":
            raise Refusal("not_host")
        table = self.table(pass_.game_id)
        if type(seat) is not str or seat not in table.seats:
            raise Refusal("bad_request", "no such seat")
        if op == "bot":
            bot = bot if bot is not None else "random"
            if bot not in bots.bot_names():
                raise Refusal("bad_request", f"bots: {', '.join(bots.bot_names())}")
            self.store.set_seat(table.game_id, seat, "bot", bot, None)
            table.seats[seat].update(controller="bot", bot=bot)
            self._play_bots(table)
        elif op == "link":
            self.store.set_seat(table.game_id, seat, "link", None, secrets.token_urlsafe(32))
            table.seats[seat].update(controller="link", bot=None)
        elif op == "here":
            self.store.set_seat(table.game_id, seat, "host", None, None)
            table.seats[seat].update(controller="host", bot=None)
        else:
            raise Refusal("bad_request", "op must be bot, link or here")

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
        for token, role, seat in self.store.live_tokens(table.game_id):
            if role == "seat":
                seat_links[seat] = token
            else:
                links[role] = token
        return {
            "seats": {s: {"controller": e["controller"], "bot": e["bot"], "link": seat_links.get(s)}
                      for s, e in table.seats.items()},
            "spectator": links["spectator"], "bots": bots.bot_names(),
        }
