"""The build of lifeboat-rules: setuptools' own (``setuptools.build_meta``), with one option.

``LIFEBOAT_COMPILE=1`` (or ``require``) in the environment of ``pip install .`` compiles the
web table's busiest modules with mypyc (setup.py, docs/web.md "The compiled build"): this
backend then asks for mypy, which mypyc comes with, among the build's requirements. An
editable install (``pip install -e .``) is never compiled: a compiled module would be
imported in place of the source one is editing.
"""

from __future__ import annotations

import os
import sys

from setuptools import build_meta as _setuptools
from setuptools.build_meta import (  # noqa: F401  (the hooks taken as they are)
    build_sdist,
    build_wheel,
    get_requires_for_build_editable,
    get_requires_for_build_sdist,
    prepare_metadata_for_build_editable,
)

COMPILE = "LIFEBOAT_COMPILE"
# mypyc comes with mypy; the package's requirements and its web table's (pyproject.toml's
# ``dependencies`` and ``web`` extra: tests/test_build.py checks they are the same) let its type
# check see the types the compiled modules use
COMPILING_NEEDS = [
    "mypy>=1.8",
    "attrs>=22.2", "pluggy>=1.2", "pyyaml>=6.0", "jsonschema>=4.18",
    "starlette>=1.10", "uvicorn>=0.35", "websockets>=13", "orjson>=3.9",
]


def compiling() -> bool:
    """Whether the build was asked to compile (``1`` or ``require``)."""
    return _asked() in ("1", "require")


def required() -> bool:
    """Whether a build that cannot compile must fail rather than install Python (``require``)."""
    return _asked() == "require"


def _asked() -> str:
    return os.environ.get(COMPILE, "").strip().lower()


class _NotCompiling:
    """setup.py run to read what it needs or to write the metadata, not to compile (mypy may
    not be there yet, and its type check would be made for nothing)."""

    def __enter__(self) -> None:
        self.asked = os.environ.get(COMPILE)
        os.environ[COMPILE] = "0"

    def __exit__(self, *exc: object) -> None:
        if self.asked is None:
            del os.environ[COMPILE]
        else:
            os.environ[COMPILE] = self.asked


def get_requires_for_build_wheel(config_settings=None):
    extra = COMPILING_NEEDS if compiling() else []
    with _NotCompiling():
        return _setuptools.get_requires_for_build_wheel(config_settings) + extra


def prepare_metadata_for_build_wheel(metadata_directory, config_settings=None):
    with _NotCompiling():
        return _setuptools.prepare_metadata_for_build_wheel(metadata_directory, config_settings)


def build_editable(wheel_directory, config_settings=None, metadata_directory=None):
    if compiling():
        print(f"lifeboat-rules: {COMPILE} is ignored in an editable install (the compiled "
              "modules would hide the source being edited); built as pure Python",
              file=sys.stderr)
    os.environ[COMPILE] = "0"
    return _setuptools.build_editable(wheel_directory, config_settings, metadata_directory)
