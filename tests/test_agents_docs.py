"""Every Python example of docs/agents.md runs as written (the adapters' examples need the rl
extra, which CI installs)."""

from __future__ import annotations

import importlib.util
import pathlib
import re

import pytest

DOC = pathlib.Path(__file__).resolve().parent.parent / "docs" / "agents.md"
EXAMPLES = re.findall(r"```python\n(.*?)\n```", DOC.read_text(encoding="utf-8"), re.S)


def needs(example: str) -> list:
    return [m for m in ("pettingzoo", "pyspiel") if re.search(rf"\b{m}\b", example)]


def test_there_is_an_example_for_each_framework_and_for_determinize():
    joined = "\n".join(EXAMPLES)
    assert "lifeboat_rules.pettingzoo" in joined and "evaluate_bots" in joined
    assert "determinize" in joined


@pytest.mark.slow
@pytest.mark.parametrize("number", range(len(EXAMPLES)))
def test_example_runs(number, capsys):
    example = EXAMPLES[number]
    missing = [m for m in needs(example) if importlib.util.find_spec(m) is None]
    if missing:
        pytest.skip(f"docs/agents.md example {number + 1} needs {', '.join(missing)}: "
                    "pip install -e '.[rl]' (CI installs it)")
    namespace: dict = {"__name__": "__agents_doc__"}
    exec(compile(example, f"docs/agents.md example {number + 1}", "exec"), namespace)  # noqa: S102
