"""States sent as changes: what a page's next state changes in the one it holds.

A page that asks for changes (``"changes": true`` in its hello) gets its first state whole and
then, for each new state, a ``diff`` message: the values set and the keys dropped, each at a
path of keys into the state (docs/web.md, The WebSocket protocol). Applying a diff to the state
the page holds gives exactly the whole state it replaces: a diff carries only values of that
new state and keys of the old one, so it tells a page nothing the whole state would not.
"""

from __future__ import annotations


def changes(old: dict, new: dict) -> dict:
    """{"set": [[path, value], ...], "del": [path, ...]} taking ``old`` to ``new`` (two JSON
    objects): objects are compared key by key, anything else (a list, a number) is set whole
    where it differs."""
    put: list = []
    drop: list = []
    _walk(old, new, [], put, drop)
    return {"set": put, "del": drop}


def _walk(old: dict, new: dict, path: list, put: list, drop: list) -> None:
    for key in old:
        if key not in new:
            drop.append(path + [key])
    for key, value in new.items():
        if key not in old:
            put.append([path + [key], value])
            continue
        before = old[key]
        if before is value or (before == value and type(before) is type(value)):
            continue
        if type(before) is dict and type(value) is dict:
            _walk(before, value, path + [key], put, drop)
        else:
            put.append([path + [key], value])


def apply_changes(state: dict, diff: dict, copy: bool = True) -> dict:
    """``state`` with ``diff`` applied: what the page's script does. With ``copy`` (the
    default) ``state`` is left as it was and the result shares nothing with it or the diff;
    without, ``state`` itself is changed and returned (a client that keeps no older state)."""
    out = _copy(state) if copy else state
    for path in diff["del"]:
        parent = out
        for key in path[:-1]:
            parent = parent[key]
        del parent[path[-1]]
    for path, value in diff["set"]:
        parent = out
        for key in path[:-1]:
            parent = parent[key]
        parent[path[-1]] = _copy(value) if copy else value
    return out


def _copy(value):
    if type(value) is dict:
        return {k: _copy(v) for k, v in value.items()}
    if type(value) is list:
        return [_copy(v) for v in value]
    return value

