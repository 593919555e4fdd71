"""What the tests of an author's mistakes share: writing a YAML file or a plugin module into
a test's folder, and the ``ContentError`` a ruleset is refused with."""

from __future__ import annotations

import itertools
import os
import textwrap

import pytest

import lifeboat_rules as lr

_counter = itertools.count()


def write(folder, name: str, text: str) -> str:
    """Write ``text`` (dedented) to ``folder/name``; its path."""
    path = folder / name
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return str(path)


def refused(source) -> lr.ContentError:
    """The error ``load_ruleset(source)`` is refused with (it must be refused)."""
    with pytest.raises(lr.ContentError) as info:
        lr.load_ruleset(source)
    return info.value


def plugin_maker(tmp_path, monkeypatch, prefix: str):
    """``make(source) -> (importable name, file)``: a plugin module (the source dedented) in
    ``tmp_path``, which is put on ``sys.path`` for the test."""
    monkeypatch.syspath_prepend(str(tmp_path))

    def make(source: str) -> tuple[str, str]:
        name = f"{prefix}_{os.getpid()}_{next(_counter)}"
        path = tmp_path / f"{name}.py"
        path.write_text(textwrap.dedent(source), encoding="utf-8")
        return name, str(path)
    return make
