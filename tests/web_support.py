"""What the web table's tests share: the skip (or, in CI, the failure) when the optional web
stack or the browser is missing, and small helpers for the WebSocket protocol."""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
import subprocess

import pytest

# .ci/run sets this: there a missing web stack or browser is a failure, never a skip.
REQUIRED = os.environ.get("LIFEBOAT_REQUIRE_BROWSER") == "1"
CHROMIUM = os.environ.get("LIFEBOAT_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update",
                  "--disable-sync", "--disable-quic"]


def missing_web() -> str | None:
    """Why the web table cannot be tested here, or None."""
    absent = [m for m in ("starlette", "uvicorn", "httpx2") if importlib.util.find_spec(m) is None]
    if absent:
        return (f"the web table's packages are not installed ({', '.join(absent)}): "
                "pip install -e '.[dev,web]'")
    return None


def missing_browser() -> str | None:
    """Why the browser tests cannot run here, or None."""
    why = missing_web()
    if why:
        return why
    if importlib.util.find_spec("playwright") is None:
        return "Playwright's Python package is not installed: pip install playwright"
    if not (os.path.isfile(CHROMIUM) and os.access(CHROMIUM, os.X_OK)) and not shutil.which(CHROMIUM):
        return f"no Chromium at {CHROMIUM}: apt-get install chromium (or set LIFEBOAT_CHROMIUM)"
    return None


def missing_cjk_font() -> str | None:
    """Why Chinese pages would show empty boxes here (no font with Chinese glyphs), or None."""
    if shutil.which("fc-list") is None:
        return "fontconfig's fc-list is not installed, so no CJK font can be found"
    found = subprocess.run(["fc-list", ":lang=zh", "family"], capture_output=True, text=True).stdout
    if not found.strip():
        return "no CJK font: apt-get install fonts-wqy-microhei"
    return None


def require(why: str | None) -> None:
    """Skip with the reason; in CI (LIFEBOAT_REQUIRE_BROWSER=1) fail instead."""
    if why is None:
        return
    if REQUIRED:
        pytest.fail(f"LIFEBOAT_REQUIRE_BROWSER=1 but {why}", pytrace=False)
    pytest.skip(why, allow_module_level=True)


def send(ws, message) -> None:
    ws.send_text(message if isinstance(message, str) else json.dumps(message))


def receive(ws) -> dict:
    return json.loads(ws.receive_text())


def hello(ws, token, **extra) -> dict:
    """Present a link; the first answer (a state, or a refusal)."""
    send(ws, {"type": "hello", "token": token, **extra})
    return receive(ws)
