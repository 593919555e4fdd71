"""The README's set-up commands are the ones CI runs, and its Python example runs."""

from __future__ import annotations

import os
import pathlib
import re
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")


def shell_blocks() -> list[str]:
    return re.findall(r"```sh\n(.*?)\n```", README, re.S)


def test_readme_has_the_two_setup_commands():
    blocks = shell_blocks()
    assert any("pip install ." in b and "lifeboat-rules simulate" in b for b in blocks)
    assert any("pip install -e '.[dev" in b and "python -m pytest" in b for b in blocks)


def _commands(block: str) -> list[str]:
    """The commands of a README block after the virtual environment is made and activated
    (CI makes its own, in a temporary folder)."""
    parts = [part.strip() for part in block.replace("\\\n", " ").split("&&")]
    return [p for p in parts if not p.startswith(("python3 -m venv", ". "))]


def test_ci_runs_the_readme_test_command():
    """Every command of the README's test block is a line of .ci/run (not a comment, not a
    part of a line), in the same order: CI runs what the README tells a person to run."""
    ci_lines = [line.strip() for line in (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
                if line.strip() and not line.strip().startswith("#")]
    test_block = next(b for b in shell_blocks() if "python -m pytest" in b)
    commands = _commands(test_block)
    assert commands and commands[-1].startswith("python -m pytest"), commands
    positions = []
    for command in commands:
        assert command in ci_lines, f"{command!r} is not a line of .ci/run"
        positions.append(ci_lines.index(command))
    assert positions == sorted(positions), "the commands run in another order in .ci/run"
    # the browser tests run in CI, never skipped there
    assert any("apt-get install" in line and "chromium" in line for line in ci_lines)
    assert "export LIFEBOAT_REQUIRE_BROWSER=1" in ci_lines
    assert "export LIFEBOAT_NO_SKIPS=1" in ci_lines       # nor any other test (tests/conftest.py)


def test_a_skip_fails_where_no_test_may_skip(tmp_path):
    """tests/conftest.py's guard: with LIFEBOAT_NO_SKIPS=1 a skipped test fails, naming why it
    skipped; without it, it skips; an expected failure stays one."""
    (tmp_path / "conftest.py").write_text(
        "import importlib.util\n"
        f"spec = importlib.util.spec_from_file_location('suite_conftest', {str(ROOT / 'tests' / 'conftest.py')!r})\n"
        "suite = importlib.util.module_from_spec(spec)\n"
        "spec.loader.exec_module(suite)\n"
        "pytest_runtest_makereport = suite.pytest_runtest_makereport\n", encoding="utf-8")
    (tmp_path / "test_one.py").write_text(
        "import pytest\n"
        "def test_skips():\n    pytest.skip('no frobnicator here')\n"
        "@pytest.mark.xfail(reason='known')\ndef test_expected_to_fail():\n    assert False\n"
        "def test_passes():\n    pass\n", encoding="utf-8")

    def pytest_in(env_value):
        env = {k: v for k, v in os.environ.items() if k != "LIFEBOAT_NO_SKIPS"}
        if env_value is not None:
            env["LIFEBOAT_NO_SKIPS"] = env_value
        return subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                               "-p", "no:xdist", "-p", "no:randomly", str(tmp_path)],
                              cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120)

    guarded = pytest_in("1")
    assert guarded.returncode == 1, guarded.stdout
    assert "1 failed, 1 passed, 1 xfailed" in guarded.stdout, guarded.stdout
    assert "LIFEBOAT_NO_SKIPS=1" in guarded.stdout and "no frobnicator here" in guarded.stdout
    free = pytest_in(None)
    assert free.returncode == 0 and "1 passed, 1 skipped, 1 xfailed" in free.stdout, free.stdout


def test_readme_starts_the_web_table_in_one_command():
    assert any("pip install '.[web]'" in b and "lifeboat-rules serve" in b for b in shell_blocks())


def test_readme_python_example_runs():
    example = re.search(r"```python\n(.*?)\n```", README, re.S).group(1)
    namespace: dict = {}
    exec(compile(example, "README.md", "exec"), namespace)   # noqa: S102 - our own README
    assert namespace["game"].over
