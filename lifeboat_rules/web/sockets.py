"""The table's WebSocket connections under uvicorn: uvicorn's own ``websockets-sansio``
protocol (the handshake, frames, pings and closing are the ``websockets`` library's), with the
two things a table does after every move made cheaper (docs/web.md, Speed):

- a page's message is written to its socket as one frame (``write_text``), without an ASGI
  message and the checks of ``send`` around each;
- a page's messages are read ahead, up to ``READ_AHEAD`` of them or ``READ_AHEAD_BYTES``,
  before its socket stops being read (uvicorn stops reading after each message and starts
  again once it is taken: two more calls into the event loop and the kernel for every
  move). A page that sends faster than the table takes its messages holds at most that much
  of the server's memory, as with uvicorn (one message of up to ``ws_max_size``).

An application finds the connection in its scope (``WRITER``); under any other ASGI server
(or Starlette's test client) it is not there, and messages go through ``send`` as usual.

``TableSocket`` is a subclass of uvicorn's own protocol and reads a few of its fields; where
the installed uvicorn has not got them (``compatible``), ``serve`` runs uvicorn's protocol
as it is (tests/test_web_limits.py checks the uvicorn the tests run with).
"""

from __future__ import annotations

import asyncio
import collections
import functools
import struct
from typing import Any

from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.protocol import State

WRITER = "lifeboat_rules.writer"    # the scope's key of the connection (``TableSocket``)
READ_AHEAD = 8                      # messages read from a page before its socket is paused
READ_AHEAD_BYTES = 16 * 1024        # or bytes of them

_OPEN = State.OPEN


class _Inbox:
    """The messages read from one page, for its one reader (``receive``), and how many bytes
    they hold. (uvicorn puts its own messages here too: the connection's end.)"""

    __slots__ = ("items", "size", "waiter", "loop")

    def __init__(self, loop: asyncio.AbstractEventLoop):
        self.items: collections.deque = collections.deque()
        self.size = 0
        self.waiter: asyncio.Future | None = None
        self.loop = loop

    def put_nowait(self, item, size: int = 0) -> None:
        self.items.append((item, size))
        self.size += size
        waiter = self.waiter
        if waiter is not None and not waiter.done():
            waiter.set_result(None)

    def full(self) -> bool:
        return len(self.items) >= READ_AHEAD or self.size >= READ_AHEAD_BYTES

    def empty(self) -> bool:
        return not self.items

    async def get(self):
        while not self.items:
            self.waiter = self.loop.create_future()
            try:
                await self.waiter
            finally:
                self.waiter = None
        item, size = self.items.popleft()
        self.size -= size
        return item


class TableSocket(WebSocketsSansIOProtocol):
    """uvicorn's ``websockets-sansio`` protocol, writing a page's messages straight to its
    socket and reading a few of its messages ahead (see the module's docstring)."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        # (uvicorn's is an asyncio.Queue; this one counts the bytes it holds)
        self.queue: _Inbox = _Inbox(self.loop)  # type: ignore[assignment]

    def handle_connect(self, event) -> None:
        super().handle_connect(event)
        scope = getattr(self, "scope", None)
        if scope is not None:
            scope[WRITER] = self

    def send_receive_event_to_app(self) -> None:
        data = self.frames[0] if len(self.frames) == 1 else b"".join(self.frames)
        self.frames = []
        if self.close_sent:
            return      # past the app's close: dropped (as uvicorn does)
        message: dict[str, Any]
        if self.curr_msg_data_type == "text":
            try:
                message = {"type": "websocket.receive", "text": data.decode()}
            except UnicodeDecodeError:
                self.conn.send_close(1007)      # not UTF-8 (RFC 6455, 8.1)
                self.handle_parser_exception()
                return
        else:
            message = {"type": "websocket.receive", "bytes": data}
        self.queue.put_nowait(message, len(data))
        if not self.read_paused and self.queue.full():
            self.read_paused = True
            self.transport.pause_reading()

    async def receive(self):
        message = await self.queue.get()
        if self.read_paused and not self.queue.full():
            self.read_paused = False
            self.transport.resume_reading()
        return message

    def can_write(self) -> bool:
        """Whether a message written now leaves at once: the socket is open and takes more
        (uvicorn's ``writable``: below the transport's high-water mark)."""
        return self.writable.is_set() and self.conn.state is _OPEN and not self.close_sent \
            and not self.disconnected

    async def write_text(self, text: "bytes | str") -> None:
        """One text message to the page (UTF-8 bytes, or a string), as one frame written to
        its socket, once the socket takes more; ``ConnectionError`` once it is closed."""
        if not self.writable.is_set():
            await self.writable.wait()
        self.write_now(text)

    def write_now(self, text: "bytes | str") -> None:
        """``write_text`` without waiting (the caller saw ``can_write``)."""
        if self.conn.state is not _OPEN or self.close_sent or self.disconnected:
            raise ConnectionError("the page's socket is closed")
        data = text.encode() if isinstance(text, str) else text
        size = len(data)
        # a server's frame: FIN and the text opcode, no mask, the length (RFC 6455, 5.2)
        if size < 126:
            head = struct.pack("!BB", 0x81, size)
        elif size < 65536:
            head = struct.pack("!BBH", 0x81, 126, size)
        else:
            head = struct.pack("!BBQ", 0x81, 127, size)
        self.transport.write(head + data)


# what TableSocket reads of uvicorn's protocol (besides the methods it overrides)
_FIELDS = ("conn", "transport", "queue", "frames", "curr_msg_data_type", "read_paused",
           "close_sent", "disconnected", "writable", "loop")
_METHODS = ("handle_connect", "send_receive_event_to_app", "receive", "handle_parser_exception")


@functools.lru_cache(maxsize=None)
def compatible() -> bool:
    """Whether the installed uvicorn's ``websockets-sansio`` protocol has what
    ``TableSocket`` reads of it."""
    try:
        import uvicorn
        from uvicorn.server import ServerState

        async def app(scope, receive, send):     # (never called)
            return None

        config = uvicorn.Config(app, log_level="critical")
        config.load()
        loop = asyncio.new_event_loop()     # (whatever loop the caller may be running)
        try:
            protocol = TableSocket(config=config, server_state=ServerState(), app_state={}, _loop=loop)
        finally:
            loop.close()
    except Exception:
        return False
    return all(hasattr(protocol, name) for name in _FIELDS) and \
        all(callable(getattr(WebSocketsSansIOProtocol, name, None)) for name in _METHODS) and \
        isinstance(protocol.writable, asyncio.Event)
