"""The web table as an ASGI application (Starlette): pages, one JSON endpoint to create a game,
and one WebSocket per open page for the game itself (the protocol is in docs/web.md).

Nothing one client does may hold up another: every page has its own sender with a bounded
queue (a page that stops reading is sent the newest state when it reads again, or is
disconnected), every game has its own lock, what may take long (a whole state, a game read
back from the file) runs on a pool of threads, and the bots think on a pool of their own.
Every limit is a field of ``Limits``.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import dataclasses
import functools
import gc
import ipaddress
import json
import logging
import time
from concurrent.futures import ThreadPoolExecutor
from importlib import resources
from urllib.parse import urlsplit

import uvicorn
from starlette.applications import Starlette
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect
from uvicorn.protocols.http.h11_impl import H11Protocol

from .. import bots
from . import compiled, labels
from .changes import changes
from .jsontext import dumps_bytes as to_bytes, loads
from .sockets import WRITER, TableSocket, compatible as sockets_compatible
from .store import Store
from .tables import TIMERS, Hall, Refusal

log = logging.getLogger("lifeboat_rules.web")


@dataclasses.dataclass(frozen=True)
class Limits:
    """Every limit of one server (docs/web.md lists each with its number)."""

    message_bytes: int = 4096       # one WebSocket message or request body from a client
    hello_timeout: float = 10.0     # seconds a new WebSocket has to present its link
    sockets: int = 1000             # open WebSockets per server, with or without a link yet
    sockets_per_client: int = 100   # open WebSockets from one address
    pages_per_game: int = 40        # open WebSockets of one game
    rate: float = 20.0              # messages a second one page may send, on average
    burst: int = 40                 # and at once
    queue: int = 32                 # messages waiting to be sent to one page (beyond: cut off)
    send_timeout: float = 15.0      # seconds one message may take to leave (beyond: cut off)
    head_timeout: float = 10.0      # seconds an HTTP connection has to send a request's head
    body_timeout: float = 10.0      # and its body
    keep_alive: float = 5.0         # seconds an idle HTTP connection stays open
    http_connections: int = 2000    # open HTTP connections and requests at once (beyond: 503)
    create_burst: int = 10          # games one address may create at once
    create_every: float = 60.0      # and then one every so many seconds
    unplayed_expiry: float = 3600.0     # seconds a game nobody has moved in is kept
    idle_expiry: float = 7 * 86400.0    # seconds a game in progress nothing moved in is kept
    games_per_client: int = 20      # games in progress one address created (since the start)
    bots_only_games: int = 2        # games of bots only in progress at once
    bots_done_expiry: float = 3600.0    # seconds a finished game of bots only is kept
    bots_done_kept: int = 20        # finished games of bots only kept at most
    bot_threads: int = 2            # threads the bots think on, for all games
    # threads that pages' whole states, new games and games read back are made on
    table_threads: int = 4
    sweep_every: float = 60.0       # seconds between two sweeps of expired games


STATIC = resources.files("lifeboat_rules.web").joinpath("static")
MAX_MESSAGE = Limits.message_bytes

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


SERVER_SEND = "lifeboat_rules.send"     # the scope's key of the server's own send


class _ServerSend:
    """Keeps the server's own ``send`` in a WebSocket's scope (``SERVER_SEND``): a page's
    messages go straight to it, not through Starlette's layers, which do nothing to them (a
    move's four states each crossed three wrappers and a state check)."""

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        if scope["type"] == "websocket":
            scope[SERVER_SEND] = send
        return await self.app(scope, receive, send)


class Bucket:
    """A token bucket: ``rate`` a second on average, ``burst`` at once."""

    __slots__ = ("rate", "burst", "allowance", "checked")

    def __init__(self, rate: float, burst: float):
        self.rate, self.burst = rate, float(burst)
        self.allowance = float(burst)
        self.checked = time.monotonic()

    def take(self) -> bool:
        now = time.monotonic()
        self.allowance = min(self.burst, self.allowance + (now - self.checked) * self.rate)
        self.checked = now
        if self.allowance < 1:
            return False
        self.allowance -= 1
        return True


class Connection:
    """One open page: its pass, the seat it shows, its language, how much feed it has, and
    what waits to be sent to it: at most ``Limits.queue`` messages and one state (a newer
    state is made only once that one has left, so a page that reads slowly gets fewer)."""

    __slots__ = ("socket", "pass_", "seat", "lang", "since", "chat_since", "bucket", "outbox", "text",
                 "wants", "full", "making", "ref", "wake", "sender", "closed", "changes", "version",
                 "last", "put", "writer", "sending")

    def __init__(self, socket: WebSocket, pass_, lang: str, rate: float, burst: int):
        self.socket = socket
        scope = socket.scope if socket is not None else {}
        # the connection that writes the page's messages straight to its socket (under
        # ``serve``: ``sockets.TableSocket``), else the server's own send (``_ServerSend``),
        # else (neither) Starlette's socket
        self.writer = scope.get(WRITER)
        self.put = scope.get(SERVER_SEND)
        self.sending: float | None = None   # when (the loop's clock) the message leaving began
        self.pass_ = pass_
        self.seat = pass_.seats[0] if pass_.seats else None
        self.lang = lang
        self.since = 0
        self.chat_since = 0               # the table talk it has (messages 1..chat_since)
        self.bucket = Bucket(rate, burst)
        self.outbox: collections.deque = collections.deque()
        self.text: bytes | None = None    # a state made for this page (its JSON), not sent yet
        self.wants = True                 # a state must be made for it (the first one too)
        self.full = True                  # ... with the whole feed and the page's words
        self.making = False               # its sender is making one
        self.ref = None                   # the ``ref`` of a move to answer with that state
        self.wake = asyncio.Event()
        self.sender: asyncio.Task | None = None
        self.closed = False
        self.changes = False              # it asked for states as changes (a diff of the last)
        self.version = 0                  # the ``v`` of the last state made for it
        self.last: dict | None = None     # that state, which a diff applies to

    def too_fast(self) -> bool:
        return not self.bucket.take()


class Room:
    """The open pages of one game, its lock (one change or state at a time), its bots, and
    the task that runs its timers (a turn timer, "pass for me")."""

    __slots__ = ("game_id", "lock", "pages", "bots", "rebot", "timers", "retime", "flushing")

    def __init__(self, game_id: str):
        self.game_id = game_id
        self.lock = asyncio.Lock()
        self.pages: set = set()
        self.bots: asyncio.Task | None = None
        self.rebot = False
        self.timers: asyncio.Task | None = None
        self.retime = asyncio.Event()      # the game changed: look again at what is due
        self.flushing = False              # its pages' states are to be made (Server._flush)


class Server:
    """The application, the open pages of each game and the threads the games run on."""

    def __init__(self, db: str, max_games: int = 100, rate: float | None = None,
                 burst: int | None = None, limits: Limits | None = None, origins=(),
                 allow_seeds: bool = False, hosts=None, **hall_options):
        limits = limits or Limits()
        if rate is not None or burst is not None:
            limits = dataclasses.replace(limits, rate=limits.rate if rate is None else rate,
                                         burst=limits.burst if burst is None else burst)
        self.limits = limits
        self.hall = Hall(Store(db), max_games=max_games, max_bot_games=limits.bots_only_games,
                         **hall_options)
        # Each game's calls come one at a time (its room's lock); what may take long (a whole
        # state, a game read back) runs on these threads, different games' side by side, and
        # bots think on their own ones, so that a bot that thinks long holds up its own game only.
        self.pool = ThreadPoolExecutor(max_workers=limits.table_threads, thread_name_prefix="lifeboat-table")
        self.bot_pool = ThreadPoolExecutor(max_workers=limits.bot_threads, thread_name_prefix="lifeboat-bots")
        self.origins = frozenset(o.rstrip("/").lower() for o in origins)
        # a seed sent with a new game makes its deal and every later draw known to whoever
        # sent it (the engine is deterministic): taken only where the server is told to
        # (tests, benchmarks); otherwise the engine draws one no client sees
        self.allow_seeds = allow_seeds
        # the names a browser may reach this server by (None: any); a server on the loopback
        # answers pages of its loopback names and of ``origins`` only, so that a site whose name
        # an attacker points at 127.0.0.1 (DNS rebinding) is not "the table's own page"
        self.hosts = None if hosts is None else frozenset(h.lower() for h in hosts) | {
            name for o in self.origins if (name := urlsplit(o).hostname)}
        self.rooms: dict = {}              # game id -> Room
        self.sockets = 0                   # open WebSockets, with or without a link
        self.per_client: collections.Counter = collections.Counter()
        self.creators: dict = {}           # address -> Bucket of game creation
        self.created_by: dict = {}         # game id -> the address that created it
        self.stopping = False
        # game id -> [(room, page, ref)] of people's moves applied and not yet written (``_write``)
        self._unwritten: dict = {}
        self.writing = False               # a write is asked for (``_write_soon``)
        self._sweeper: asyncio.Task | None = None
        self._watcher: asyncio.Task | None = None      # cuts off pages that stopped reading
        self.app = _ServerSend(_SecurityHeaders(Starlette(routes=[
            Route("/", self.index),
            Route("/table", self.table_page),
            Route("/favicon.ico", self.no_icon),
            Route("/api/setup", self.setup),
            Route("/api/games", self.create_game, methods=["POST"]),
            WebSocketRoute("/ws", self.websocket),
            Mount("/static", app=StaticFiles(directory=str(STATIC)), name="static"),
        ], lifespan=self._lifespan)))

    @property
    def connections(self) -> dict:
        """{game id: set of its open pages}."""
        return {game_id: room.pages for game_id, room in self.rooms.items()}

    @contextlib.asynccontextmanager
    async def _lifespan(self, app):
        self._sweeper = asyncio.create_task(self._sweep_now_and_then())
        self._watcher = asyncio.create_task(self._watch_sends())
        try:
            yield
        finally:
            await self.close()

    async def close(self) -> None:
        """Stops the bots and the sweeper, waits for the threads, closes the file."""
        self.stopping = True
        tasks = [t for t in [self._sweeper, self._watcher] + [r.bots for r in self.rooms.values()]
                 + [r.timers for r in self.rooms.values()] if t is not None]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        await asyncio.get_running_loop().run_in_executor(None, self._shutdown_threads)

    def _shutdown_threads(self) -> None:
        self.bot_pool.shutdown(wait=True, cancel_futures=True)
        self.pool.shutdown(wait=True, cancel_futures=True)
        self.hall.store.close()

    async def _run(self, pool, call, *args):
        """``call(*args)`` on one of ``pool``'s threads; its answer, or its exception, here."""
        return await asyncio.get_running_loop().run_in_executor(pool, functools.partial(call, *args))

    def _room(self, game_id: str) -> Room:
        room = self.rooms.get(game_id)
        if room is None:
            room = self.rooms[game_id] = Room(game_id)
        return room

    def _drop_room_if_idle(self, room: Room) -> None:
        if (not room.pages and (room.bots is None or room.bots.done())
                and (room.timers is None or room.timers.done()) and not room.lock.locked()):
            self.rooms.pop(room.game_id, None)

    # ------------------------------------------------------------------ who may ask

    def origin_ok(self, headers) -> bool:
        """A browser names the page that makes a request (``Origin``): only this server's own
        pages (or the ``origins`` it was given) may create games or open sockets. A client that
        is no browser sends none, and no other site's page can be behind it. With ``hosts``,
        the page's own name must be one of them too."""
        origin = headers.get("origin")
        if origin is None:
            return True
        origin = origin.rstrip("/").lower()
        if origin in self.origins:
            return True
        parts = urlsplit(origin)
        host = (headers.get("host") or "").lower()
        if self.hosts is not None and (parts.hostname or "") not in self.hosts:
            return False
        return parts.scheme in ("http", "https") and bool(host) and parts.netloc == host

    @staticmethod
    def _client(connection) -> str:
        """The address a connection's limits are counted by: every loopback address is one
        (a program on this machine can send from any of 127.0.0.0/8); a forwarded address
        only from a proxy the server was told to trust (``serve(proxies=...)``)."""
        host = connection.client.host if connection.client else "?"
        try:
            address = ipaddress.ip_address(host)
        except ValueError:
            return host
        mapped = getattr(address, "ipv4_mapped", None)
        return "loopback" if address.is_loopback or (mapped is not None and mapped.is_loopback) \
            else host

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
        limits = self.limits
        if not self.origin_ok(request.headers):
            return _refused(Refusal("bad_origin"), 403)
        try:
            body = await asyncio.wait_for(self._body(request), limits.body_timeout)
        except asyncio.TimeoutError:
            return _refused(Refusal("too_slow", f"send the request within {limits.body_timeout:g} seconds"), 408)
        if body is None:
            return _refused(Refusal("too_large", f"at most {limits.message_bytes} bytes"), 413)
        try:
            data = json.loads(body)
        except (ValueError, RecursionError):
            return _refused(Refusal("malformed", "the body must be a JSON object"), 400)
        if type(data) is not dict:
            return _refused(Refusal("malformed", "the body must be a JSON object"), 400)
        client = self._client(request)
        if not self._may_create(client):
            return _refused(Refusal("too_fast", f"at most {limits.create_burst} games at once from one "
                                    f"address, then one every {limits.create_every:g} seconds"), 429)
        mine = [g for g, c in self.created_by.items() if c == client]
        if len(mine) >= limits.games_per_client:
            live = await self._run(self.pool, self.hall.store.in_progress, mine)
            for game_id in set(mine) - live:        # over or dropped: no longer counted
                del self.created_by[game_id]
            if len(live) >= limits.games_per_client:
                return _refused(Refusal("limit", f"at most {limits.games_per_client} games in "
                                        "progress created from one address"), 429)
        if data.get("seed") is not None and not self.allow_seeds:
            return _refused(Refusal("bad_request", "seed: this server deals its games itself (whoever chose "
                                    "the seed would know every card to come); a server started with "
                                    "--allow-seeds takes one, for repeatable test games"), 400)
        try:
            created = await self._run(self.pool, self.hall.create, data.get("ruleset"), data.get("players"),
                                      data.get("lang", "en"), data.get("seats"), data.get("seed"),
                                      data.get("timer"))
        except Refusal as refusal:
            return _refused(refusal, 429 if refusal.code == "limit" else 400)
        self.created_by[created["game"]] = client
        self._wake_bots(self._room(created["game"]))
        self._schedule(self._room(created["game"]))
        created["url"] = f"/table#{created['host']}"
        return JSONResponse(created, status_code=201)

    async def _body(self, request) -> bytes | None:
        body = b""
        async for chunk in request.stream():
            body += chunk
            if len(body) > self.limits.message_bytes:
                return None
        return body

    def _may_create(self, client: str) -> bool:
        bucket = self.creators.get(client)
        if bucket is None:
            if len(self.creators) > 10_000:       # forget the addresses that are full again
                self.creators = {a: b for a, b in self.creators.items() if b.allowance < b.burst - 1}
            bucket = self.creators[client] = Bucket(1 / self.limits.create_every, self.limits.create_burst)
        return bucket.take()

    # ------------------------------------------------------------------ WebSocket

    async def websocket(self, socket: WebSocket):
        limits = self.limits
        if not self.origin_ok(socket.headers):
            await socket.close(code=1008)          # before accepting: the upgrade is refused (403)
            return
        client = self._client(socket)
        self.sockets += 1
        self.per_client[client] += 1
        conn = room = None
        try:
            await socket.accept()
            if self.sockets > limits.sockets or self.per_client[client] > limits.sockets_per_client:
                await self._refuse_and_close(socket, Refusal("limit", "too many open pages"))
                return
            try:
                message = await asyncio.wait_for(self._receive(socket), limits.hello_timeout)
            except asyncio.TimeoutError:
                await self._refuse_and_close(socket, Refusal("hello_first"))
                return
            if message is None:
                log.info("a page from %s closed its socket before presenting a link", client)
                return
            if isinstance(message, Refusal):
                await self._refuse_and_close(socket, message)
                return
            if message.get("type") != "hello":
                await self._refuse_and_close(socket, Refusal("hello_first"))
                return
            lang = labels.lang_of(message.get("lang"))
            try:
                pass_ = await self._run(self.pool, self.hall.enter, message.get("token"))
                table = await self._run(self.pool, self.hall.table, pass_.game_id)
            except Refusal as refusal:
                await self._refuse_and_close(socket, refusal, lang)
                return
            room = self._room(pass_.game_id)
            if len(room.pages) >= limits.pages_per_game:
                await self._refuse_and_close(socket, Refusal("limit", "too many open pages for this game"))
                return
            conn = Connection(socket, pass_, labels.lang_of(message.get("lang") or table.lang),
                              limits.rate, limits.burst)
            if message.get("seat") in pass_.seats:
                conn.seat = message["seat"]
            conn.changes = message.get("changes") is True
            room.pages.add(conn)
            self.hall.in_use[room.game_id] += 1
            conn.sender = asyncio.create_task(self._sender(room, conn))
            conn.wake.set()
            self._wake_bots(room)
            self._schedule(room)              # a game read back after a restart runs its timers
            while not conn.closed:
                # a page's answers leave before more of its messages are read: one that sends
                # faster than it reads is slowed to its reading (its messages wait in its
                # socket), never cut off for the refusals of its own burst; one that stops
                # reading is cut off by ``_watch_sends``
                while len(conn.outbox) >= limits.queue // 2 and not conn.closed:
                    await asyncio.sleep(0.005)
                message = await self._receive(socket)
                if message is None:
                    break
                if conn.too_fast():
                    # its ``ref`` back with it: the page knows which of its moves it was
                    self._refuse(room, conn, Refusal("too_fast", f"at most {limits.rate:g} messages a second"),
                                 _ref(message))
                    continue
                await self._handle(room, conn, message)
        except WebSocketDisconnect:
            pass
        finally:
            self.sockets -= 1
            self.per_client[client] -= 1
            if self.per_client[client] <= 0:
                del self.per_client[client]
            if conn is not None and room is not None:     # (a page has a room)
                conn.closed = True
                if conn.sender is not None:
                    conn.sender.cancel()
                room.pages.discard(conn)
                self.hall.in_use[room.game_id] -= 1
                if self.hall.in_use[room.game_id] <= 0:
                    del self.hall.in_use[room.game_id]
                self._drop_room_if_idle(room)

    async def _receive(self, socket: WebSocket):
        """The next message as a dict, a ``Refusal`` for one that is not, None when closed."""
        limit = self.limits.message_bytes
        try:
            message = await socket.receive()
        except (RuntimeError, WebSocketDisconnect):   # closed meanwhile
            return None
        if message["type"] == "websocket.disconnect":
            return None
        text = message.get("text")
        if text is None:
            raw = message.get("bytes") or b""
            if len(raw) > limit:
                return Refusal("too_large", f"at most {limit} bytes")
            return Refusal("malformed", "messages are JSON text")
        if len(text.encode("utf-8", "surrogatepass")) > limit:
            return Refusal("too_large", f"at most {limit} bytes")
        try:
            data = loads(text)
        except (ValueError, RecursionError):
            return Refusal("malformed", "not JSON")
        if type(data) is not dict or type(data.get("type")) is not str:
            return Refusal("malformed", "a message is a JSON object with a type")
        return data

    async def _handle(self, room: Room, conn: Connection, message) -> None:
        if isinstance(message, Refusal):
            self._refuse(room, conn, message, None)
            return
        kind = message["type"]
        ref = _ref(message)
        try:
            if kind == "move":
                await self._change(room, conn, ref, self.hall.move, conn.pass_, message.get("seat"),
                                   message.get("action"), message.get("offer"), later=True)
            elif kind == "look":
                pass_ = self.hall.enter(conn.pass_.token)
                seat = message.get("seat")
                if seat is not None and seat not in pass_.seats:
                    raise Refusal("not_your_seat", "this link does not play that seat")
                conn.pass_, conn.seat = pass_, seat
                self._want(conn, full=True)
            elif kind == "lang":
                conn.lang = labels.lang_of(message.get("lang"))
                self._want(conn, full=True)
            elif kind == "resync":          # a page that missed a version: the whole state
                self._want(conn, full=True)
            elif kind == "manage":
                await self._change(room, conn, ref, self._manage, conn, message.get("op"),
                                   message.get("seat"), message.get("bot"))
            elif kind == "say":
                await self._change(room, conn, ref, self.hall.say, conn.pass_, conn.seat, message.get("text"))
            elif kind == "autopass":
                # the seat's own secret: only its page is told (another page getting a state
                # now would learn that someone changed something)
                async with room.lock:
                    await self._run(self.pool, self.hall.set_autopass, conn.pass_, message.get("seat"),
                                    message.get("on"))
                self._want(conn)
                self._schedule(room)
            elif kind == "take_back":
                await self._change(room, conn, ref, self.hall.take_back, conn.pass_)
            elif kind == "hello":
                raise Refusal("malformed", "already connected")
            else:
                raise Refusal("malformed", f"unknown message type {kind[:40]!r}")
        except Refusal as refusal:
            self._refuse(room, conn, refusal, ref)
            if refusal.code == "stale":        # the newer state: what changed since the last
                self._want(conn)
            elif refusal.code in ("illegal", "over", "not_saved"):
                self._want(conn, full=True)
        except Exception:     # a fault of ours: say so, keep the connection and the game
            log.exception("while handling a %s message", kind)
            self._refuse(room, conn, Refusal("internal"), ref)
            self._want(conn, full=True)

    def _manage(self, conn: Connection, op, seat, bot) -> None:
        """The host's change; a page whose host link it replaced goes on
        with the new one."""
        token = self.hall.manage(conn.pass_, op, seat, bot)
        if token is not None:
            conn.pass_ = self.hall.enter(token)

    # ------------------------------------------------------------------ changes and states
    #
    # A change (a move, a seat handed over) is made under its game's lock; a person's move is
    # written to the file with the others the loop took in the same turn, in one transaction
    # (``_write``), before any state shows it. Then every page's new state, here on the event
    # loop's thread once the loop has taken the messages it had already read (so moves of one
    # game that arrive together cost each page one state), written to the page's socket at
    # once where nothing of the page
    # waits to leave: unless the page has a state waiting to be sent, or is making its own (a
    # look, a language, a refusal's fresh state): then it makes the newest one itself once the
    # one waiting has left. So a page that reads slowly costs one state, not one a move, and
    # never holds up another. No state is made while the game's lock is held. (Here rather
    # than on a table thread: a move and its diffs are a millisecond or two of Python, and
    # handing them to a thread under the one interpreter lock cost more than making them.
    # What may take longer runs on the table threads: a page's whole state, a game read back
    # from the file, a new game; the bots think on threads of their own.)

    async def _change(self, room: Room, conn: Connection, ref, call, *args, later: bool = False) -> None:
        """``call(*args)`` under the game's lock, then every page's state (``_changed``); the
        page ``conn`` gets ``ref`` back with its state. The bots play next if one must decide.
        ``later``: ``call`` is a move to be written with the others of this moment (``_write``,
        soon, and before any state shows it); if that fails it is refused then."""
        async with room.lock:
            if later:
                call(*args, later=True)
                self._unwritten.setdefault(room.game_id, []).append((room, conn, ref))
                self._write_soon()
            else:
                call(*args)
            if ref is not None:
                conn.ref = ref      # (here, so that no state made before the change carries it)
            try:
                bots = self.hall.bot_pending(conn.pass_.game_id)
            except Refusal:         # the game is gone (swept): no bot to wake
                bots = False
        self._changed(room)
        self._schedule(room)
        if bots:
            self._wake_bots(room)

    def _changed(self, room: Room) -> None:
        """Every page of the game gets its new state once the messages already read have
        been taken (``_flush``, soon on the event loop: several moves of one game that arrive
        together cost each page one state)."""
        if not room.flushing:
            room.flushing = True
            asyncio.get_running_loop().call_soon(self._flush, room)

    def _write_soon(self) -> None:
        """The moves applied since the last write are written once the loop has taken the
        messages it had already read (``_write``): the moves of every game that arrive
        together in one transaction."""
        if not self.writing:
            self.writing = True
            asyncio.get_running_loop().call_soon(self._write)

    def _write(self) -> None:
        """Writes the moves waiting (``Hall.write``); each move that could not be written is
        refused (``not_saved``, with its ``ref``) and its page sent the table as the file has
        it. Called before any state is made while moves wait: no page sees an unwritten move."""
        self.writing = False
        waiting, self._unwritten = self._unwritten, {}
        if not self.hall.unwritten():
            return
        try:
            failed = self.hall.write()
        except Exception:       # a fault of ours: the games are read back, their moves refused
            log.exception("while writing moves")
            failed = list(waiting)
        for game_id in failed:
            for room, conn, ref in waiting.get(game_id, ()):
                if conn.ref == ref:
                    conn.ref = None          # (its state will not hold the move)
                self._refuse(room, conn, Refusal("not_saved"), ref)
                self._want(conn, full=True)

    def _flush(self, room: Room) -> None:
        room.flushing = False
        if room.lock.locked():        # (a state or a bot's move under way: after it)
            asyncio.ensure_future(self._push(room))
            return
        self._write()
        pages = list(room.pages)
        try:
            made, later = self._states(pages)
        except Exception:      # a fault of ours: each page makes its own state
            log.exception("while making the states of game %s", room.game_id)
            made, later = [], pages
        self._deliver(room, made, later)

    async def _push(self, room: Room) -> None:
        """Every page of the game gets its new state (after the bots moved)."""
        pages = list(room.pages)
        if not pages:
            return
        async with room.lock:
            self._write()
            made, later = self._states(pages)
        self._deliver(room, made, later)

    def _states(self, pages: list) -> tuple:
        made, later = [], []
        for page in pages:
            if page.closed:
                continue
            if page.text is None and not (page.wants or page.making):
                made.append((page, self._state(page, False)))
            else:
                later.append(page)
        return made, later

    def _deliver(self, room: Room, made: list, later: list) -> None:
        for page, text in made:
            if isinstance(text, Refusal):
                asyncio.ensure_future(self._cut(room, page, text))
            elif page.writer is not None and page.sending is None and not page.outbox \
                    and page.writer.can_write():
                # nothing of its own waits to leave and its socket takes more: written now,
                # without waking its sender
                try:
                    page.writer.write_now(text)
                except Exception:      # closed meanwhile (it reconnects), or a fault of ours
                    asyncio.ensure_future(self._cut(room, page, Refusal("internal"), send=False))
            else:
                page.text = text
                page.wake.set()
        for page in later:
            page.wants = True
            page.wake.set()

    def _want(self, conn: Connection, full: bool = False) -> None:
        conn.wants = True
        conn.full = conn.full or full
        conn.wake.set()

    def _state(self, conn: Connection, full: bool):
        """The JSON text of ``conn``'s new state (under the game's lock);
        a ``Refusal`` if its link no longer works."""
        try:
            pass_ = self.hall.enter(conn.pass_.token)     # a replaced link is cut off here
        except Refusal as refusal:
            return refusal
        conn.pass_ = pass_
        seat = conn.seat
        if seat is not None and seat not in pass_.seats:
            seat = conn.seat = pass_.seats[0] if pass_.seats else None
            full = True
        since = 0 if full else conn.since
        chat_since = 0 if since == 0 else conn.chat_since
        state = self.hall.state(pass_, seat, conn.lang, since, chat_since)
        state["ui"] = labels.ui(conn.lang) if since == 0 else None
        if conn.ref is not None:
            state["ref"], conn.ref = conn.ref, None
        conn.since = state["log_size"]
        conn.chat_since = state["chat_size"]
        conn.version += 1
        state["v"] = conn.version
        last, conn.last = conn.last, (state if conn.changes else None)
        if last is not None and since != 0:
            # the page holds ``last``: it gets what changed (its ``v`` among them)
            state = {"type": "diff", "base": last["v"], **changes(last, state)}
        return to_bytes(state)

    async def _sender(self, room: Room, conn: Connection) -> None:
        """Sends ``conn``'s messages, then its state, one at a time; a message that does not
        leave within ``Limits.send_timeout`` cuts the page off (``_watch_sends``)."""
        clock = asyncio.get_running_loop().time
        try:
            while not conn.closed:
                await conn.wake.wait()
                conn.wake.clear()
                while not conn.closed:
                    if conn.outbox:
                        text = conn.outbox.popleft()
                    elif conn.text is not None:
                        text = conn.text
                    elif conn.wants:
                        conn.wants, full, conn.full = False, conn.full, False
                        conn.making = True
                        try:
                            async with room.lock:
                                self._write()       # (no state shows a move not yet written)
                                # a page's first state, or one after a look or a language,
                                # holds its whole feed: made on a table thread
                                made = (await self._run(self.pool, self._state, conn, full)
                                        if full or conn.version == 0 else self._state(conn, False))
                        finally:
                            conn.making = False
                        if isinstance(made, Refusal):
                            await self._cut(room, conn, made)
                            return
                        conn.text = text = made
                    else:
                        break
                    conn.sending = clock()
                    await _send(conn, text)
                    conn.sending = None
                    if text is conn.text:
                        conn.text = None
        except asyncio.CancelledError:
            raise
        except Exception as exc:    # the page went away, or a fault of ours: it reconnects
            if not isinstance(exc, (OSError, RuntimeError, WebSocketDisconnect)):
                log.exception("while sending to a page of game %s", room.game_id)
            await self._cut(room, conn, Refusal("internal"), send=False)

    async def _watch_sends(self) -> None:
        """Cuts off every page whose message has not left within ``Limits.send_timeout`` (its
        socket is full: the page stopped reading), looking a few times a second. (One task for
        every page: a timer around each message cost about a thirtieth of a move's CPU,
        benchmarks/web_sockets.py.)"""
        loop = asyncio.get_running_loop()
        limit = self.limits.send_timeout
        while not self.stopping:
            await asyncio.sleep(min(1.0, limit / 4))
            try:
                late = loop.time() - limit
                for room in list(self.rooms.values()):
                    for conn in list(room.pages):
                        if conn.sending is not None and conn.sending < late and not conn.closed:
                            log.info("a page of game %s stopped reading: cut off", room.game_id)
                            asyncio.ensure_future(self._cut(room, conn, Refusal("too_slow"), send=False))
            except Exception:         # a fault of ours: the watch goes on
                log.exception("while looking for pages that stopped reading")

    def _refuse(self, room: Room, conn: Connection, refusal: Refusal, ref) -> None:
        """``refusal`` for ``conn``, with the ``ref`` of the message it refuses (if any)."""
        answer = refusal.message(conn.lang)
        if ref is not None:
            answer["ref"] = ref
        self._queue(room, conn, answer)

    def _queue(self, room: Room, conn: Connection, message: dict) -> None:
        """A message for ``conn`` (a refusal); a page with ``Limits.queue`` of them unsent
        is cut off. (A page's messages are not read while half as many wait: a backstop.)"""
        if len(conn.outbox) >= self.limits.queue:
            asyncio.ensure_future(self._cut(room, conn, Refusal("too_slow"), send=False))
            return
        conn.outbox.append(to_bytes(message))
        conn.wake.set()

    async def _cut(self, room: Room, conn: Connection, refusal: Refusal, send: bool = True) -> None:
        """Closes ``conn``'s socket (with the refusal's code), without waiting on a page that
        does not read."""
        if conn.closed:
            return
        conn.closed = True
        conn.wake.set()
        room.pages.discard(conn)
        if conn.sender is not None and conn.sender is not asyncio.current_task():
            conn.sender.cancel()
        if send:
            await self._refuse_and_close(conn.socket, refusal, conn.lang)
        else:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(conn.socket.close(code=4000 + _CLOSE_CODES.get(refusal.code, 0)), 1.0)

    async def _refuse_and_close(self, socket: WebSocket, refusal: Refusal, lang: str = "en") -> None:
        try:
            await asyncio.wait_for(socket.send_text(json.dumps(refusal.message(lang), ensure_ascii=False)), 1.0)
            await asyncio.wait_for(socket.close(code=4000 + _CLOSE_CODES.get(refusal.code, 0)), 1.0)
        except Exception:
            pass

    # ------------------------------------------------------------------ bots and sweeping

    def _wake_bots(self, room: Room) -> None:
        """The game's bots play (if one must decide), on the bots' threads, one paced decision
        at a time under the game's lock (``Hall.bot_step``), every page getting the new state
        after each."""
        if self.stopping:
            return
        if room.bots is not None and not room.bots.done():
            room.rebot = True
            return
        room.bots = asyncio.ensure_future(self._play_bots(room))

    async def _play_bots(self, room: Room) -> None:
        try:
            while not self.stopping:
                room.rebot = False
                async with room.lock:
                    self._write()       # (the bots' moves are written after the people's)
                    moved, more, show_at = await self._run(self.bot_pool, self.hall.bot_step, room.game_id)
                    if show_at is not None:
                        # a bot's decision is shown when its pace says (bots.PacedBot), the
                        # lock held meanwhile: no page's state has it sooner; no thread waits.
                        # (Again until the clock says so: the loop's own time may lag it.)
                        while (wait := show_at - self.hall.clock()) > 0:
                            await asyncio.sleep(wait)
                        with contextlib.suppress(Refusal):      # (swept meanwhile)
                            self.hall.track(room.game_id)
                if moved:
                    await self._push(room)
                    self._schedule(room)
                if not (more or room.rebot):
                    break
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("the bots of game %s stopped", room.game_id)
        finally:
            if not room.pages and not room.lock.locked() and (room.timers is None or room.timers.done()):
                self.rooms.pop(room.game_id, None)

    # ------------------------------------------------------------------ timers

    def _schedule(self, room: Room) -> None:
        """Look again at the game's next timed thing (a turn timer, a "pass for me"): wake
        its timers' task, or start one. Games without a timer or a "pass for me" have none."""
        if self.stopping or not self.hall.timed(room.game_id):
            return
        room.retime.set()
        if room.timers is None or room.timers.done():
            room.timers = asyncio.ensure_future(self._run_timers(room))

    async def _run_timers(self, room: Room) -> None:
        """Sleeps until the game's next timed thing is due (or until the game changes), does
        it on a table thread under the game's lock, then the bots play and every page gets
        the new state; ends when nothing is due."""
        try:
            while not self.stopping:
                room.retime.clear()
                async with room.lock:
                    when = await self._run(self.pool, self.hall.due, room.game_id)
                if when is None:
                    if room.retime.is_set():
                        continue
                    break
                delay = when - self.hall.clock()
                if delay > 0:
                    with contextlib.suppress(asyncio.TimeoutError):
                        await asyncio.wait_for(room.retime.wait(), delay)
                    continue
                async with room.lock:
                    self._write()       # (a timer's move is written after the people's)
                    try:
                        changed = await self._run(self.pool, self.hall.run_due, room.game_id)
                    except Refusal:      # not saved: the game is read back from the file
                        changed = True
                if changed:
                    self._wake_bots(room)
                    await self._push(room)
        except asyncio.CancelledError:
            raise
        except Exception:      # a fault of ours: logged; the game goes on without its timers
            log.exception("the timers of game %s stopped", room.game_id)
        finally:
            if not room.pages and (room.bots is None or room.bots.done()) and not room.lock.locked():
                self.rooms.pop(room.game_id, None)

    async def sweep(self) -> list:
        """Drops expired games (``Limits.unplayed_expiry``, ``bots_done_expiry``,
        ``bots_done_kept``) and closes their pages; returns their ids."""
        limits = self.limits
        self._write()        # (a game swept is one whose moves are all written)
        gone = await self._run(self.pool, self.hall.sweep, limits.unplayed_expiry,
                               limits.bots_done_expiry, limits.bots_done_kept, limits.idle_expiry)
        for game_id in gone:
            self.created_by.pop(game_id, None)
            room = self.rooms.get(game_id)
            if room is not None:
                for page in list(room.pages):
                    await self._cut(room, page, Refusal("bad_token"))
        if gone:
            log.info("%d expired games dropped", len(gone))
        return gone

    async def _sweep_now_and_then(self) -> None:
        while not self.stopping:
            try:
                await self.sweep()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("while dropping expired games")
            await asyncio.sleep(self.limits.sweep_every)


def loopback_names(host: str):
    """The names pages may reach a server listening on ``host`` by: its loopback names when
    it listens on the loopback only (a browser can reach it from this machine alone), None
    (any) when it listens on a network, where people reach it by names it cannot know."""
    try:
        loopback = ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        loopback = host.lower() == "localhost"
    if not loopback:
        return None
    # as a page's Origin names them once parsed (``urlsplit(...).hostname``: no brackets)
    return {"localhost", "127.0.0.1", "::1", host.strip("[]").lower()}


async def _send(conn: Connection, text: bytes) -> None:
    """``text`` (a message's JSON, in UTF-8) sent to ``conn``'s page: as one frame by the
    table's own socket (``sockets.TableSocket``), else straight to the server's send, else
    through Starlette's socket where the server keeps none (``_ServerSend``)."""
    if conn.writer is not None:
        await conn.writer.write_text(text)
    elif conn.put is not None:
        await conn.put({"type": "websocket.send", "text": text.decode()})
    else:
        await conn.socket.send_text(text.decode())


_CLOSE_CODES = {"bad_token": 1, "revoked": 2, "limit": 3, "hello_first": 4, "malformed": 5,
                "too_large": 6, "too_slow": 7}


def _refused(refusal: Refusal, status: int) -> Response:
    return JSONResponse(refusal.message(), status_code=status)


def _ref(message):
    """A message's ``ref`` (a string or number of at most 64 characters), which comes back
    with its answer (docs/web.md); None if it has none or another."""
    ref = message.get("ref") if type(message) is dict else None
    return ref if ref is None or (type(ref) in (str, int) and len(str(ref)) <= 64) else None


def create_app(db: str = "lifeboat-tables.sqlite3", max_games: int = 100, limits: Limits | None = None,
               origins=(), allow_seeds: bool = False, hosts=None):
    """The ASGI application of a web table whose games live in the SQLite file ``db``;
    ``allow_seeds``: a new game may come with its seed (tests, benchmarks); ``hosts``: the
    names its pages may be reached by, None for any (docs/web.md, Origins)."""
    return Server(db, max_games=max_games, limits=limits, origins=origins, allow_seeds=allow_seeds,
                  hosts=hosts).app


def serve(db: str, host: str = "127.0.0.1", port: int = 8000, max_games: int = 100,
          limits: Limits | None = None, origins=(), allow_seeds: bool = False,
          proxies=()) -> None:
    """Runs the table with uvicorn until stopped; ``FileBusy`` if another server has ``db``.
    ``proxies``: the addresses of reverse proxies whose ``X-Forwarded-For`` names the client
    (from anyone else the header is ignored: it would let one client pass for many)."""
    limits = limits or Limits()
    app = create_app(db, max_games=max_games, limits=limits, origins=origins, allow_seeds=allow_seeds,
                     hosts=loopback_names(host))
    build = "compiled" if compiled() else "pure Python"
    print(f"Lifeboat table on http://{host}:{port}/ (games kept in {db}; {build})", flush=True)
    if not log.handlers:
        handler = logging.StreamHandler()
        handler.setFormatter(logging.Formatter("%(asctime)s %(message)s"))
        log.addHandler(handler)
        log.setLevel(logging.INFO)
    config = uvicorn_config(app, limits, host=host, port=port, proxies=proxies)
    _tune_collector()
    uvicorn.Server(config).run()


def uvicorn_config(app, limits: Limits, proxies=(), **options) -> uvicorn.Config:
    """How ``serve`` runs the table under uvicorn (``options``: more of uvicorn's settings,
    as ``host`` and ``port``): its HTTP with the head's timeout, its WebSockets
    (``sockets.TableSocket``, or uvicorn's own where it cannot be: ``sockets.compatible``)
    with their limits, no compression, pings."""
    return uvicorn.Config(
        app, log_level="warning", lifespan="on",
        http=_timed_http(limits.head_timeout),
        ws=TableSocket if sockets_compatible() else "websockets-sansio",
        ws_max_size=16 * limits.message_bytes, ws_max_queue=16,
        ws_per_message_deflate=False,      # compressing every state costs more CPU than it saves
        ws_ping_interval=20.0, ws_ping_timeout=20.0,
        # (uvicorn's hint says whole seconds; it waits with call_later, which takes any)
        timeout_keep_alive=limits.keep_alive,  # type: ignore[arg-type]
        limit_concurrency=limits.http_connections,
        h11_max_incomplete_event_size=16 * 1024,
        proxy_headers=bool(proxies), forwarded_allow_ips=list(proxies) or None, **options)


# Python's cycle collector, for a server: a move makes thousands of small objects, almost all
# gone by the next (states, diffs, words), and the collector's youngest generation, run every
# 700 allocations by default, spent about a twentieth of a move's CPU going over them. Every
# 20,000 it costs a tenth of that; what was loaded at start (rulesets, words, code) is set
# aside from its sweeps for good.
GC_THRESHOLDS = (20_000, 50, 100)


def _tune_collector() -> None:
    gc.collect()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)


def _timed_http(head_timeout: float):
    """uvicorn's HTTP/1.1 protocol (h11), closing a connection that has not sent a whole
    request head within ``head_timeout`` seconds of opening or of its last answer (uvicorn
    itself waits for ever for a client that sends its head a byte at a time)."""
    class TimedH11(H11Protocol):
        def connection_made(self, transport):
            super().connection_made(transport)
            self._arm()

        def _arm(self):
            cycle = self.cycle
            self._head_timer = self.loop.call_later(head_timeout, self._head_late, cycle)

        def _head_late(self, cycle):
            if self.cycle is cycle and (cycle is None or cycle.response_complete) \
                    and not self.transport.is_closing():
                self.transport.close()

        def handle_websocket_upgrade(self, event):
            self._head_timer.cancel()
            super().handle_websocket_upgrade(event)

        def on_response_complete(self):
            super().on_response_complete()
            self._head_timer.cancel()
            self._arm()

        def connection_lost(self, exc):
            self._head_timer.cancel()
            super().connection_lost(exc)

    return TimedH11
