"""The web table as an ASGI application (Starlette): pages, one JSON endpoint to create a game,
and one WebSocket per open page for the game itself (the protocol is in docs/web.md).
"""

from __future__ import annotations

import asyncio
import functools
import json
import logging
import time
from concurrent.futures import ThreadPoolExecutor
from importlib import resources

from starlette.applications import Starlette
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from .. import bots
from . import labels
from .store import Store
from .tables import TIMERS, Hall, Refusal

log = logging.getLogger("lifeboat_rules.web")

MAX_MESSAGE = 4096          # bytes of one WebSocket message or request body from a client
HELLO_TIMEOUT = 30.0        # seconds a new WebSocket has to present its link
MAX_CONNECTIONS = 1000      # open WebSockets per server
MAX_PER_GAME = 40           # open WebSockets per game
RATE = 20.0                 # messages per second a page may send, on average
BURST = 40                  # and at once

STATIC = resources.files("lifeboat_rules.web").joinpath("static")

SECURITY_HEADERS = [
    (b"content-security-policy",
     b"default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
     b"connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"),
    (b"referrer-policy", b"no-referrer"),
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
    (b"cache-control", b"no-store"),
]


class _SecurityHeaders:
    """Adds the headers above to every HTTP response (links live in the page's address)."""

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)

        async def send_with_headers(message):
            if message["type"] == "http.response.start":
                message = dict(message)
                message["headers"] = list(message.get("headers", [])) + SECURITY_HEADERS
            await send(message)
        return await self.app(scope, receive, send_with_headers)


class Connection:
    """One open page: its pass, the seat it shows, its language, how much feed it has."""

    __slots__ = ("socket", "pass_", "seat", "lang", "since", "chat_since", "rate", "allowance", "checked")

    def __init__(self, socket: WebSocket, pass_, lang: str, rate: float = RATE, burst: int = BURST):
        self.socket = socket
        self.pass_ = pass_
        self.seat = pass_.seats[0] if pass_.seats else None
        self.lang = lang
        self.since = 0
        self.chat_since = 0
        self.rate = (rate, float(burst))
        self.allowance = float(burst)
        self.checked = time.monotonic()

    def too_fast(self) -> bool:
        """A token bucket: ``rate`` messages a second on average, ``burst`` at once."""
        now = time.monotonic()
        rate, burst = self.rate
        self.allowance = min(burst, self.allowance + (now - self.checked) * rate)
        self.checked = now
        if self.allowance < 1:
            return True
        self.allowance -= 1
        return False


class Server:
    """The application and the open connections of each game."""

    def __init__(self, db: str, max_games: int = 100, rate: float = RATE, burst: int = BURST,
                 **hall_options):
        self.hall = Hall(Store(db), max_games=max_games, **hall_options)
        self._watchers: dict = {}        # game id -> the task running its timers
        self._wake: dict = {}            # game id -> (asyncio.Event, dirty flag)
        # Every call into the hall (games, bots, the SQLite file) runs on this one thread, in
        # turn: a bot that thinks (the search bot) never stalls the pages of other games, and
        # no two calls ever touch a game at once.
        self.worker = ThreadPoolExecutor(max_workers=1, thread_name_prefix="lifeboat-hall")
        self.rate = (rate, burst)
        self.connections: dict = {}      # game id -> set of Connection
        self.app = _SecurityHeaders(Starlette(routes=[
            Route("/", self.index),
            Route("/table", self.table_page),
            Route("/favicon.ico", self.no_icon),
            Route("/api/setup", self.setup),
            Route("/api/games", self.create_game, methods=["POST"]),
            WebSocketRoute("/ws", self.websocket),
            Mount("/static", app=StaticFiles(directory=str(STATIC)), name="static"),
        ]))

    async def _hall(self, call, *args):
        """``call(*args)`` on the hall's thread; its answer, or its exception, here."""
        return await asyncio.get_running_loop().run_in_executor(
            self.worker, functools.partial(call, *args))

    # ------------------------------------------------------------------ HTTP

    async def index(self, request):
        return FileResponse(str(STATIC.joinpath("index.html")), media_type="text/html")

    async def table_page(self, request):
        return FileResponse(str(STATIC.joinpath("table.html")), media_type="text/html")

    async def no_icon(self, request):
        return Response(status_code=204)

    async def setup(self, request):
        """What the creation page offers: rulesets with their player counts, bots, labels."""
        return JSONResponse({"rulesets": self.hall.rulesets, "bots": bots.bot_names(),
                             "langs": list(labels.LANGS), "ui": labels.UI, "timers": list(TIMERS)})

    async def create_game(self, request):
        body = b""
        async for chunk in request.stream():
            body += chunk
            if len(body) > MAX_MESSAGE:
                return _refused(Refusal("too_large", f"at most {MAX_MESSAGE} bytes"), 413)
        try:
            data = json.loads(body)
        except (ValueError, RecursionError):
            return _refused(Refusal("malformed", "the body must be a JSON object"), 400)
        if type(data) is not dict:
            return _refused(Refusal("malformed", "the body must be a JSON object"), 400)
        try:
            created = await self._hall(self.hall.create, data.get("ruleset"), data.get("players"),
                                       data.get("lang", "en"),
                                       data.get("seats"), data.get("seed"), data.get("timer"))
        except Refusal as refusal:
            return _refused(refusal, 429 if refusal.code == "limit" else 400)
        created["url"] = f"/table#{created['host']}"
        return JSONResponse(created, status_code=201)

    # ------------------------------------------------------------------ WebSocket

    async def websocket(self, socket: WebSocket):
        await socket.accept()
        conn = None
        try:
            if sum(map(len, self.connections.values())) >= MAX_CONNECTIONS:
                await self._refuse_and_close(socket, Refusal("limit", "too many open pages"))
                return
            try:
                message = await asyncio.wait_for(self._receive(socket), HELLO_TIMEOUT)
            except asyncio.TimeoutError:
                await self._refuse_and_close(socket, Refusal("hello_first"))
                return
            if isinstance(message, Refusal):
                await self._refuse_and_close(socket, message)
                return
            if message.get("type") != "hello":
                await self._refuse_and_close(socket, Refusal("hello_first"))
                return
            try:
                pass_ = await self._hall(self.hall.enter, message.get("token"))
            except Refusal as refusal:
                await self._refuse_and_close(socket, refusal, labels.lang_of(message.get("lang")))
                return
            table = await self._hall(self.hall.table, pass_.game_id)
            peers = self.connections.setdefault(pass_.game_id, set())
            if len(peers) >= MAX_PER_GAME:
                await self._refuse_and_close(socket, Refusal("limit", "too many open pages for this game"))
                return
            conn = Connection(socket, pass_, labels.lang_of(message.get("lang") or table.lang), *self.rate)
            if message.get("seat") in pass_.seats:
                conn.seat = message["seat"]
            peers.add(conn)
            await self._push(conn)
            self._schedule(pass_.game_id)    # a game read back after a restart runs its timers
            while True:
                message = await self._receive(socket)
                if message is None:
                    break
                if conn.too_fast():
                    message = Refusal("too_fast", f"at most {conn.rate[0]:g} messages a second")
                await self._handle(conn, message)
        except WebSocketDisconnect:
            pass
        finally:
            if conn is not None:
                self.connections.get(conn.pass_.game_id, set()).discard(conn)

    async def _receive(self, socket: WebSocket):
        """The next message as a dict, a ``Refusal`` for one that is not, None when closed."""
        message = await socket.receive()
        if message["type"] == "websocket.disconnect":
            return None
        text = message.get("text")
        if text is None:
            raw = message.get("bytes") or b""
            if len(raw) > MAX_MESSAGE:
                return Refusal("too_large", f"at most {MAX_MESSAGE} bytes")
            return Refusal("malformed", "messages are JSON text")
        if len(text.encode("utf-8", "surrogatepass")) > MAX_MESSAGE:
            return Refusal("too_large", f"at most {MAX_MESSAGE} bytes")
        try:
            data = json.loads(text)
        except (ValueError, RecursionError):
            return Refusal("malformed", "not JSON")
        if type(data) is not dict or type(data.get("type")) is not str:
            return Refusal("malformed", "a message is a JSON object with a type")
        return data

    async def _handle(self, conn: Connection, message) -> None:
        if isinstance(message, Refusal):
            await self._send(conn, message.message(conn.lang))
            return
        kind = message["type"]
        ref = message.get("ref")
        if not (ref is None or (type(ref) in (str, int) and len(str(ref)) <= 64)):
            ref = None          # a move's ``ref`` comes back with its answer (docs/web.md)
        try:
            if kind == "move":
                await self._hall(self.hall.move, conn.pass_, message.get("seat"),
                                 message.get("action"), message.get("offer"))
                await self._push_game(conn.pass_.game_id, answer=(conn, ref))
            elif kind == "look":
                pass_ = await self._hall(self.hall.enter, conn.pass_.token)
                seat = message.get("seat")
                if seat is not None and seat not in pass_.seats:
                    raise Refusal("not_your_seat", "this link does not play that seat")
                conn.pass_, conn.seat, conn.since = pass_, seat, 0
                await self._push(conn)
            elif kind == "lang":
                conn.lang, conn.since = labels.lang_of(message.get("lang")), 0
                await self._push(conn)
            elif kind == "manage":
                await self._hall(self.hall.manage, conn.pass_, message.get("op"),
                                 message.get("seat"), message.get("bot"))
                await self._push_game(conn.pass_.game_id)
            elif kind == "say":
                await self._hall(self.hall.say, conn.pass_, conn.seat, message.get("text"))
                await self._push_game(conn.pass_.game_id)
            elif kind == "autopass":
                await self._hall(self.hall.set_autopass, conn.pass_, message.get("seat"), message.get("on"))
                await self._push(conn)
                self._schedule(conn.pass_.game_id)
            elif kind == "take_back":
                await self._hall(self.hall.take_back, conn.pass_)
                await self._push_game(conn.pass_.game_id)
            elif kind == "hello":
                raise Refusal("malformed", "already connected")
            else:
                raise Refusal("malformed", f"unknown message type {kind[:40]!r}")
        except Refusal as refusal:
            answer = refusal.message(conn.lang)
            if ref is not None:
                answer["ref"] = ref
            await self._send(conn, answer)
            if refusal.code in ("stale", "illegal", "over"):
                await self._push(conn, full=True)
        except Exception:     # a fault of ours: say so, keep the connection and the game
            log.exception("while handling a %s message", kind)
            await self._send(conn, Refusal("internal").message(conn.lang))

    # ------------------------------------------------------------------ pushing states

    async def _push_game(self, game_id: str, answer: tuple = (None, None)) -> None:
        """Every open page of a game gets its own new state (its own view and feed); the one
        that moved gets the ``ref`` of its move back."""
        for conn in list(self.connections.get(game_id, ())):
            await self._push(conn, ref=answer[1] if conn is answer[0] else None)
        self._schedule(game_id)

    async def _push(self, conn: Connection, full: bool = False, ref=None) -> None:
        try:
            # a replaced link is cut off here
            conn.pass_ = await self._hall(self.hall.enter, conn.pass_.token)
        except Refusal as refusal:
            await self._refuse_and_close(conn.socket, refusal)
            self.connections.get(conn.pass_.game_id, set()).discard(conn)
            return
        if conn.seat is not None and conn.seat not in conn.pass_.seats:
            conn.seat, conn.since = (conn.pass_.seats[0] if conn.pass_.seats else None), 0
        since = 0 if full else conn.since
        chat_since = 0 if since == 0 else conn.chat_since
        state = await self._hall(self.hall.state, conn.pass_, conn.seat, conn.lang, since, chat_since)
        state["ui"] = labels.ui(conn.lang) if since == 0 else None
        if ref is not None:
            state["ref"] = ref
        if await self._send(conn, state):
            conn.since = state["log_size"]
            conn.chat_since = state["chat_size"]

    # ------------------------------------------------------------------ timers

    def _schedule(self, game_id: str) -> None:
        """Look again at the game's next timed thing (a turn timer, a "pass for me"): wake its
        watcher, or start one."""
        if not self.hall.timed(game_id):
            return
        wake = self._wake.get(game_id)
        if wake is not None:
            wake[1][0] = True
            wake[0].set()
            return
        event, dirty = asyncio.Event(), [True]
        self._wake[game_id] = (event, dirty)
        self._watchers[game_id] = asyncio.get_running_loop().create_task(self._watch(game_id, event, dirty))

    async def _watch(self, game_id: str, event: asyncio.Event, dirty: list) -> None:
        """One task per game with something timed: sleeps until it is due (or until the game
        changes), does it on the hall's thread, pushes the new state; ends when nothing is due."""
        try:
            while True:
                dirty[0] = False
                event.clear()
                when = await self._hall(self.hall.due, game_id)
                if when is None:
                    if dirty[0]:
                        continue
                    break
                delay = when - self.hall.clock()
                if delay > 0:
                    try:
                        await asyncio.wait_for(event.wait(), delay)
                    except asyncio.TimeoutError:
                        pass
                    continue
                try:
                    changed = await self._hall(self.hall.run_due, game_id)
                except Refusal:
                    changed = False
                if changed:
                    for conn in list(self.connections.get(game_id, ())):
                        await self._push(conn)
        except asyncio.CancelledError:
            raise
        except Exception:        # a fault of ours: logged; the game goes on without its timers
            log.exception("while running the timers of game %s", game_id)
        finally:
            self._wake.pop(game_id, None)
            self._watchers.pop(game_id, None)

    async def _send(self, conn: Connection, data: dict) -> bool:
        try:
            await conn.socket.send_text(json.dumps(data, ensure_ascii=False, separators=(",", ":")))
            return True
        except Exception:       # the page went away: it reconnects and gets everything again
            self.connections.get(conn.pass_.game_id, set()).discard(conn)
            return False

    async def _refuse_and_close(self, socket: WebSocket, refusal: Refusal, lang: str = "en") -> None:
        try:
            await socket.send_text(json.dumps(refusal.message(lang), ensure_ascii=False))
            await socket.close(code=4000 + _CLOSE_CODES.get(refusal.code, 0))
        except Exception:
            pass


_CLOSE_CODES = {"bad_token": 1, "revoked": 2, "limit": 3, "hello_first": 4, "malformed": 5,
                "too_large": 6}


def _refused(refusal: Refusal, status: int) -> Response:
    return JSONResponse(refusal.message(), status_code=status)


def create_app(db: str = "lifeboat-tables.sqlite3", max_games: int = 100):
    """The ASGI application of a web table whose games live in the SQLite file ``db``."""
    return Server(db, max_games=max_games).app
