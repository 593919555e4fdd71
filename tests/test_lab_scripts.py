"""The balance lab driven from a Python script (docs/balance.md, From Python): with jobs above
1 the workers are spawned and import the script again, so a study at the script's top level
must sit under ``if __name__ == "__main__":``. An audit pasted the docs' example without it
and got a traceback from every worker ending in ``BrokenProcessPool``: the example has the
guard now, and without it the run stops with an error that says what to do."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

import pytest

pytest.importorskip("scipy", reason="the balance lab needs the lab extra: pip install '.[lab]'")

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

STUDY = """\
    from lifeboat_rules.lab import Plan, run
    plan = Plan.make("classic", games=4, players=4, seed=1, bots=["random"])
    summary = run(plan, jobs=2)
    print("games", summary["games"])
    """


def run_script(folder, name: str, text: str) -> subprocess.CompletedProcess:
    path = folder / name
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    # (the package as installed, editable or built: not the source folder on PYTHONPATH, where
    # a built install's compiled modules and shipped expansions are not)
    return subprocess.run([sys.executable, str(path)], capture_output=True, text=True, cwd=folder,
                          timeout=120)


def test_a_study_at_a_scripts_top_level_stops_with_what_to_do(tmp_path):
    done = run_script(tmp_path, "unguarded.py", STUDY)
    assert done.returncode != 0
    last = done.stderr.strip().splitlines()[-1]
    assert last.startswith("RuntimeError: a worker process of the lab stopped")
    assert "unguarded.py" in last and 'if __name__ == "__main__":' in last
    # the worker stops with the lab's own words before it makes a pool of its own: not the
    # standard library's long bootstrapping error, and no semaphores left for the resource
    # tracker to warn about after the error (seen in CI under load: its warning came last)
    assert "runs " in done.stderr and "again as it starts" in done.stderr
    assert "bootstrapping phase" not in done.stderr
    assert "leaked semaphore" not in done.stderr


def test_the_docs_example_shape_runs_with_workers(tmp_path):
    guarded = 'if __name__ == "__main__":\n' + textwrap.indent(textwrap.dedent(STUDY), "    ")
    done = run_script(tmp_path, "guarded.py", guarded)
    assert done.returncode == 0, done.stderr[-2000:]
    assert "games 4" in done.stdout


def test_the_docs_example_has_the_guard():
    with open(os.path.join(ROOT, "docs", "balance.md"), encoding="utf-8") as f:
        text = f.read()
    block = text.split("## 12. From Python", 1)[1].split("```python", 1)[1].split("```", 1)[0]
    lines = [line for line in block.splitlines() if line.strip()]
    first_call = next(i for i, line in enumerate(lines) if "Plan.make(" in line or "run(" in line)
    assert any(line.startswith('if __name__ == "__main__":') for line in lines[:first_call])
