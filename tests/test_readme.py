"""The README's set-up commands are the ones CI runs, and its Python example runs."""

from __future__ import annotations

import pathlib
import re

ROOT = pathlib.Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")


def shell_blocks() -> list[str]:
    return re.findall(r"```sh\n(.*?)\n```", README, re.S)


def test_readme_has_the_two_setup_commands():
    blocks = shell_blocks()
    assert any("pip install ." in b and "lifeboat-rules simulate" in b for b in blocks)
    assert any("pip install -e '.[dev,web]' playwright" in b and "python -m pytest" in b for b in blocks)


def test_ci_runs_the_readme_test_command():
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    test_block = next(b for b in shell_blocks() if "python -m pytest" in b)
    for command in ("pip install -e '.[dev,web]' playwright", "python -m pytest"):
        assert command in test_block and command in ci
    # the browser tests run in CI, never skipped there
    assert "apt-get install" in ci and "chromium" in ci
    assert "export LIFEBOAT_REQUIRE_BROWSER=1" in ci


def test_readme_starts_the_web_table_in_one_command():
    assert any("pip install '.[web]'" in b and "lifeboat-rules serve" in b for b in shell_blocks())


def test_readme_python_example_runs():
    example = re.search(r"```python\n(.*?)\n```", README, re.S).group(1)
    namespace: dict = {}
    exec(compile(example, "README.md", "exec"), namespace)   # noqa: S102 - our own README
    assert namespace["game"].over
