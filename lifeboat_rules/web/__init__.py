"""``lifeboat-rules serve``: the web table (optional extra ``web``: Starlette, uvicorn).

A host creates a game on ``GET /``; every seat gets its own secret link, a spectator link
exists, seats may be played hot-seat from the host's browser or by bots. Games live in SQLite.
See docs/web.md for running it, the security model, the storage and the WebSocket protocol.
"""

from __future__ import annotations


def create_app(db: str = "lifeboat-tables.sqlite3", max_games: int = 100, limits=None, origins=()):
    """The ASGI application of a web table whose games live in the SQLite file ``db``
    (``limits``: a ``lifeboat_rules.web.app.Limits``; ``origins``: other addresses its pages
    are served from, e.g. behind a proxy)."""
    from .app import create_app as _create
    return _create(db, max_games=max_games, limits=limits, origins=origins)


def compiled() -> bool:
    """Whether the web table's busiest modules run compiled (installed with
    ``LIFEBOAT_COMPILE=1``: docs/web.md, "The compiled build") rather than as Python."""
    from . import tables
    return not tables.__file__.endswith(".py")
