"""JSON text as the web table writes and reads it: compact, UTF-8 as it is (not escaped).

The web extra brings orjson, which writes the states, diffs and saved games some thirty times
faster than the standard library; the standard library writes what orjson does not take (a
lone surrogate) or where orjson is not installed. Reading, orjson takes what it reads exactly
as the standard library would, and the standard library reads the rest (``loads``).
"""

from __future__ import annotations

import json
import re
from typing import Any

try:
    import orjson
except ImportError:  # pragma: no cover
    orjson = None  # type: ignore[assignment]


def dumps(value, ascii: bool = False, sort: bool = False) -> str:
    """``value`` (JSON-safe data) as compact JSON text, with ``sort`` its keys in order; where
    the standard library writes it, with ``ascii`` every other character escaped (a lone
    surrogate too: text SQLite takes)."""
    if orjson is not None:
        option = orjson.OPT_SORT_KEYS if sort else 0
        try:
            return orjson.dumps(value, option=option).decode()
        except (TypeError, ValueError):
            pass
        try:    # a key that is not text (orjson's option for it makes every call slower)
            return orjson.dumps(value, option=option | orjson.OPT_NON_STR_KEYS).decode()
        except (TypeError, ValueError):
            pass
    return json.dumps(value, ensure_ascii=ascii, separators=(",", ":"), sort_keys=sort)


def dumps_bytes(value) -> bytes:
    """``value`` as compact JSON in UTF-8 bytes, as a page is sent it (written to its socket as
    it is: no text made of it on the way); every character that is not ASCII escaped where
    the standard library writes it (a lone surrogate: JSON's escape, never invalid UTF-8)."""
    if orjson is not None:
        try:
            return orjson.dumps(value)
        except (TypeError, ValueError):
            pass
    return dumps(value, ascii=True).encode("ascii")


# a run of 19 digits or more may be an integer orjson would read as a float (beyond 64 bits)
_LONG_DIGITS = re.compile(r"[0-9]{19}")


def loads(text: str) -> Any:
    """``json.loads(text)``, read by orjson where it gives exactly that: orjson refuses NaN,
    Infinity, a number out of a float's range and a lone surrogate's escape, which the
    standard library reads, and reads an integer beyond 64 bits as a float, where the standard
    library keeps it whole (text with a run of 19 digits or more goes to the standard library).
    Raises ``ValueError`` (or ``RecursionError``) for text that is not JSON."""
    if orjson is not None and _LONG_DIGITS.search(text) is None:
        try:
            return orjson.loads(text)
        except orjson.JSONDecodeError:
            pass
    return json.loads(text)
