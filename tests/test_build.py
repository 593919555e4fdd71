"""The package's build (pyproject.toml, buildtools/backend.py, setup.py): the optional compiled
build of the web table (``LIFEBOAT_COMPILE``, docs/web.md "The compiled build")."""

from __future__ import annotations

import ast
import importlib
import os
import re
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "buildtools"))
import backend  # noqa: E402  (the build backend, as pip loads it: backend-path)

sys.path.remove(str(ROOT / "buildtools"))


def _setup_compiled() -> list[str]:
    """setup.py's ``COMPILED``, read without running it."""
    tree = ast.parse((ROOT / "setup.py").read_text(encoding="utf-8"))
    for node in tree.body:
        if isinstance(node, ast.Assign) and getattr(node.targets[0], "id", None) == "COMPILED":
            return ast.literal_eval(node.value)
    raise AssertionError("setup.py has no COMPILED")


def _requirements(text: str) -> list[str]:
    return re.findall(r'"([^"]+)"', text)


def test_the_compiled_build_asks_for_what_its_type_check_reads():
    """mypyc type-checks the compiled modules with the package's and the web table's
    requirements installed beside mypy: the backend's list is pyproject.toml's
    ``dependencies`` and ``web`` extra (uvloop aside: the compiled modules do not import it)."""
    pyproject = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    core = _requirements(re.search(r"^dependencies = \[(.*?)\]", pyproject, re.S | re.M).group(1))
    web = _requirements(re.search(r"^web = \[(.*?)\]", pyproject, re.S | re.M).group(1))
    web = [r for r in web if not r.startswith("uvloop")]
    assert len(core) == 4 and len(web) == 4
    assert sorted(backend.COMPILING_NEEDS) == sorted(["mypy>=1.8", *core, *web])


def test_the_compiled_modules_are_the_web_tables_type_checked_ones():
    """Compiled code trusts the types mypy infers: every compiled module is one the type
    check of tests/test_typing.py reads with function bodies checked (the ``web`` override)."""
    compiled = _setup_compiled()
    assert compiled, "nothing compiled"
    pyproject = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    checked = re.search(r'module = \[(.*?)\]\nignore_errors = false\ncheck_untyped_defs = true', pyproject)
    assert checked, "no override checking function bodies"
    modules = _requirements(checked.group(1))
    for path in compiled:
        assert (ROOT / path).is_file(), path
        name = path.removesuffix(".py").replace("/", ".")
        assert name in modules or name.rsplit(".", 1)[0] + ".*" in modules, name
    typing_test = (ROOT / "tests" / "test_typing.py").read_text(encoding="utf-8")
    for name in modules:       # and tests/test_typing.py runs that check on each
        assert (f'"-p", "{name.removesuffix(".*")}"' if name.endswith(".*") else f'"-m", "{name}"') \
            in typing_test, name


def test_the_build_the_tests_run_on_is_the_one_asked_for():
    """CI runs the web table's tests twice: on the editable install (pure Python) and on the
    compiled build (``LIFEBOAT_EXPECT_COMPILED=1``, .ci/run). Each run checks it has the build
    it says: a compiled build that fell back to Python would otherwise pass unseen."""
    from lifeboat_rules import web

    expected = os.environ.get("LIFEBOAT_EXPECT_COMPILED") == "1"
    assert web.compiled() is expected
    for path in _setup_compiled():
        module = importlib.import_module(path.removesuffix(".py").replace("/", "."))
        assert module.__file__.endswith(".py") is not expected, module.__file__


def test_only_the_compiled_build_asks_for_mypy(monkeypatch):
    monkeypatch.delenv("LIFEBOAT_COMPILE", raising=False)
    assert not backend.compiling()
    for asked in ("1", "require", " Require "):
        monkeypatch.setenv("LIFEBOAT_COMPILE", asked)
        assert backend.compiling()
    for other in ("0", "", "yes"):
        monkeypatch.setenv("LIFEBOAT_COMPILE", other)
        assert not backend.compiling()


def _source_copy(tmp_path: Path) -> Path:
    """What a build reads, copied (a build writes build/ and *.egg-info beside its sources)."""
    copy = tmp_path / "src"
    copy.mkdir()
    for name in ("pyproject.toml", "setup.py", "MANIFEST.in", "README.md", "LICENSE"):
        if (ROOT / name).exists():
            shutil.copy(ROOT / name, copy / name)
    for folder in ("buildtools", "lifeboat_rules", "schemas", "expansions"):
        shutil.copytree(ROOT / folder, copy / folder,
                        ignore=shutil.ignore_patterns("__pycache__", "*.so", "*.egg-info"))
    return copy


def _wheel(source: Path, out: Path, mode: str) -> subprocess.CompletedProcess:
    """``pip wheel`` of ``source`` without build isolation (no network: this venv's setuptools
    and mypy), with ``LIFEBOAT_COMPILE=mode`` and no working C compiler (``CC=false``)."""
    env = {**os.environ, "LIFEBOAT_COMPILE": mode, "CC": "false"}
    return subprocess.run([sys.executable, "-m", "pip", "wheel", "-v", "--no-cache-dir", "--no-deps", "--no-build-isolation",
                           "--wheel-dir", str(out), str(source)],
                          capture_output=True, text=True, env=env, timeout=600)


@pytest.mark.slow   # mypyc type-checks the web table before it would compile: some 30 s
def test_without_a_c_compiler_the_compiled_build_falls_back_to_python_or_fails_if_required(tmp_path):
    """``LIFEBOAT_COMPILE=1`` where the modules cannot be compiled installs pure Python with a
    warning (a wheel with no compiled module in it, still tagged for this platform: the build
    had asked for extension modules); ``require`` fails."""
    source = _source_copy(tmp_path)
    done = _wheel(source, tmp_path / "wheels", "1")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "could not be compiled" in done.stdout + done.stderr
    [wheel] = (tmp_path / "wheels").glob("*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    assert "lifeboat_rules/web/tables.py" in names
    assert not [n for n in names if n.endswith((".so", ".pyd"))], names
    shutil.rmtree(source / "build", ignore_errors=True)
    failed = _wheel(source, tmp_path / "required", "require")
    assert failed.returncode != 0
    assert not list((tmp_path / "required").glob("*.whl"))


def test_an_editable_install_is_never_compiled(tmp_path):
    """``pip install -e .`` with ``LIFEBOAT_COMPILE`` set builds the editable wheel as Python
    (compiled modules would be imported instead of the source being edited), and says so: the
    backend's hook called as pip calls it, with ``require`` (which would compile or fail)."""
    source = _source_copy(tmp_path)
    out = tmp_path / "out"
    out.mkdir()
    hook = ("import sys; sys.path.insert(0, 'buildtools'); import backend; "
            "print('wheel:', backend.build_editable(sys.argv[1]))")
    done = subprocess.run([sys.executable, "-c", hook, str(out)], cwd=source, capture_output=True,
                          text=True, timeout=600, env={**os.environ, "LIFEBOAT_COMPILE": "require"})
    assert done.returncode == 0, done.stdout + done.stderr
    assert "ignored in an editable install" in done.stderr
    name = done.stdout.strip().splitlines()[-1].removeprefix("wheel: ")
    names = zipfile.ZipFile(out / name).namelist()
    assert not [n for n in names if n.endswith((".so", ".pyd"))], names
    assert not list(source.rglob("*.so")), list(source.rglob("*.so"))     # (nor built in place)
