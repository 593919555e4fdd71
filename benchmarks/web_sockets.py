"""What the web table's socket layer costs, apart from its games (issue #16): prints, never
asserts.

    python benchmarks/web_sockets.py [--messages N] [--runs R]

A WebSocket server on the table's own stack (Starlette on uvicorn, the ``websockets-sansio``
implementation, no compression) that answers every message with four of 700 bytes, as the
table answers a move with four pages' states, and one client on 127.0.0.1 sending N messages
one at a time. It prints the server's CPU time (user + system, from /proc) per message and its
four answers, for each way of sending and each event loop: through Starlette's
``WebSocket.send_text`` with ``asyncio.timeout`` around each answer (how the table sent before),
straight to uvicorn's own ``send`` with the timeout, without it, each answer handed to a
sender task of its own page, woken for it (a page's messages leave one at a time, in order, and
a page whose socket is full holds up no other), and the same senders on the table's own
WebSocket protocol (``sockets.TableSocket``: each answer written as one frame, a page's
messages read a few ahead; how the table sends now); on asyncio's own loop and on uvloop (when
installed). Each figure is given as a ratio to the
first one measured in the same run, and the R runs alternate the ways, so that the machine's
drift from minute to minute falls on all of them alike.
"""

from __future__ import annotations

import argparse
import asyncio
import importlib.util
import os
import statistics
import subprocess
import sys

from web_load import cpu_seconds, free_port      # (this folder)

ANSWER = "x" * 700
WAYS = ["starlette+timeout", "direct+timeout", "direct", "sender-tasks", "table-sockets"]


def serve(port: int, way: str, loop: str) -> None:
    import uvicorn
    from starlette.applications import Starlette
    from starlette.routing import WebSocketRoute

    async def sender(put, page):       # a page's own sender, woken for each of its messages
        while True:
            await page[0].wait()
            page[0].clear()
            while page[1]:
                await put({"type": "websocket.send", "text": page[1].pop()})

    async def endpoint(ws):
        await ws.accept()
        put = ws.scope["benchmark.send"]
        if way == "table-sockets":      # the writer's own frame, as the table's senders write
            writer = ws.scope[WRITER]

            async def put(message):
                await writer.write_text(message["text"])
        pages = [(asyncio.Event(), []) for _ in range(4)]
        senders = [asyncio.ensure_future(sender(put, page)) for page in pages] \
            if way in ("sender-tasks", "table-sockets") else []
        while True:
            message = await ws.receive()
            if message["type"] == "websocket.disconnect":
                return
            if senders:
                for wake, box in pages:
                    box.append(ANSWER)
                    wake.set()
                continue
            for _ in range(4):
                if way == "starlette+timeout":
                    async with asyncio.timeout(15):
                        await ws.send_text(ANSWER)
                elif way == "direct+timeout":
                    async with asyncio.timeout(15):
                        await put({"type": "websocket.send", "text": ANSWER})
                else:
                    await put({"type": "websocket.send", "text": ANSWER})

    inner = Starlette(routes=[WebSocketRoute("/ws", endpoint)])

    async def app(scope, receive, send):        # keeps the server's own send, as the table does
        if scope["type"] == "websocket":
            scope["benchmark.send"] = send
        await inner(scope, receive, send)

    from lifeboat_rules.web.sockets import WRITER, TableSocket

    uvicorn.run(app, host="127.0.0.1", port=port, log_level="warning",
                ws=TableSocket if way == "table-sockets" else "websockets-sansio",
                ws_per_message_deflate=False, loop=loop, lifespan="off")


async def measure(way: str, loop: str, messages: int) -> float:
    """Server CPU seconds per message and its four answers (at least ``messages`` of them, and
    enough for the CPU time to show)."""
    import websockets

    port = free_port()
    server = subprocess.Popen([sys.executable, __file__, "--serve", str(port), way, loop])
    try:
        for _ in range(100):
            try:
                async with websockets.connect(f"ws://127.0.0.1:{port}/ws"):
                    break
            except OSError:
                await asyncio.sleep(0.1)
        async with websockets.connect(f"ws://127.0.0.1:{port}/ws", compression=None) as ws:
            for _ in range(200):                 # warm up, not counted
                await ws.send('{"type":"move"}')
                for _ in range(4):
                    await ws.recv()
            before = cpu_seconds(server.pid)
            sent = 0
            # at least ``messages``, and on until the server has spent 5 of the clock's ticks
            # (10 ms each): a short run could read no CPU at all
            while sent < messages or cpu_seconds(server.pid) - before < 0.05:
                await ws.send('{"type":"move"}')
                for _ in range(4):
                    await ws.recv()
                sent += 1
            spent = cpu_seconds(server.pid) - before
    finally:
        server.terminate()
        server.wait(timeout=20)
    return spent / sent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--messages", type=int, default=3000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--serve", nargs=3, metavar=("PORT", "WAY", "LOOP"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve:
        serve(int(args.serve[0]), args.serve[1], args.serve[2])
        return
    if not (100 <= args.messages <= 100_000 and 1 <= args.runs <= 20):
        parser.error("bounds: 100..100000 messages, 1..20 runs")
    loops = ["asyncio"] + (["uvloop"] if importlib.util.find_spec("uvloop") else [])
    cases = [(way, loop) for loop in loops for way in WAYS]
    spent: dict = {case: [] for case in cases}
    for _ in range(args.runs):
        for case in cases:
            spent[case].append(asyncio.run(measure(*case, args.messages)))
    reference = statistics.median(spent[cases[0]])
    print(f"server CPU per message and its four answers of 700 bytes ({args.messages} messages, "
          f"{args.runs} runs, medians; load average {os.getloadavg()[0]:.1f}):")
    for case in cases:
        figure = statistics.median(spent[case])
        print(f"  {case[0]:18s} on {case[1]:8s} {1e6 * figure:6.0f} us   {figure / reference:.2f} "
              f"of {cases[0][0]} on {cases[0][1]}")
    if len(loops) == 1:
        print("  (uvloop is not installed: pip install uvloop, or the web extra, to compare)")


if __name__ == "__main__":
    main()
