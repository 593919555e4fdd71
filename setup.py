"""The optional compiled build (the rest of the build is pyproject.toml).

With ``LIFEBOAT_COMPILE=1`` in the environment of ``pip install .`` (not ``-e``: see
buildtools/backend.py, which reads the variable for both), the modules in ``COMPILED`` (the web
table's work after every move) are compiled with mypyc, which turns typed Python into C
extension modules; the Python source ships beside them. Where they cannot be built (no C
compiler, no Python headers) the install goes on as pure Python, with a warning;
``LIFEBOAT_COMPILE=require`` makes that an error instead (CI). Without the variable nothing is
compiled. docs/web.md ("The compiled build") says what it gains and what it asks of the code.
"""

from __future__ import annotations

import os
import sys

from setuptools import setup
from setuptools.command.build_ext import build_ext

from backend import compiling, required     # buildtools/ (pyproject.toml's backend-path)

# The web table's work after every move beside the engine (docs/web.md, "Where a move's CPU
# goes"). Each must type-check as it runs (pyproject.toml's override that checks their
# functions' bodies; tests/test_build.py): compiled code trusts the types mypy infers, and
# checks each argument's declared type at the call. Left as Python: app.py and store.py (mypyc
# does not take their async generator, nested class and exceptions of built-in types) and
# sockets.py (a subclass of uvicorn's protocol that holds its own objects in some of uvicorn's
# fields, which compiled code would check against uvicorn's types).
COMPILED = [
    "lifeboat_rules/words.py",          # the feed and the buttons' words
    "lifeboat_rules/web/changes.py",
    "lifeboat_rules/web/jsontext.py",
    "lifeboat_rules/web/labels.py",
    "lifeboat_rules/web/tables.py",
]

def _warn(message: str) -> None:
    print(f"lifeboat-rules: {message}", file=sys.stderr)


class OptionalBuildExt(build_ext):
    """Builds the compiled modules, or none of them: a module whose shared part failed to
    build could not be imported, so on any failure every one built is removed."""

    def run(self) -> None:
        try:
            super().run()
        except Exception as error:  # (the compiler's own errors differ from setuptools to setuptools)
            if required():
                raise
            for built in self.get_outputs():
                if os.path.exists(built):
                    os.remove(built)
            _warn(f"the modules could not be compiled ({error}); installed as pure Python")


def _extensions() -> list:
    if not compiling():
        return []
    try:
        from mypyc.build import mypycify
        return mypycify(COMPILED, group_name="lifeboat_rules")
    except (Exception, SystemExit) as error:   # mypyc missing, or its type check failed (an exit)
        if required():
            raise RuntimeError(f"the modules could not be compiled: {error!r}") from error
        _warn(f"the modules could not be compiled ({error!r}); installed as pure Python")
        return []


setup(ext_modules=_extensions(), cmdclass={"build_ext": OptionalBuildExt})
