"""Where a plugin module must be for a ruleset to find it (docs/house-rules.md, part 2): the
`lifeboat-rules` command does not look in the current folder; an unknown plugin whose file is
there (or beside the ruleset) is refused with the command that finds it; and the command
`simulate` prints to replay a game carries the PYTHONPATH the plugin was found through
(docs/balance.md, "When a plugin fails")."""

from __future__ import annotations

import itertools
import os
import re
import shlex
import shutil
import subprocess
import sys
import textwrap

import pytest

import lifeboat_rules as lr

_counter = itertools.count()

SCRIPT = shutil.which("lifeboat-rules", path=os.path.dirname(sys.executable)) or "lifeboat-rules"


def unique(stem: str) -> str:
    return f"{stem}_{os.getpid()}_{next(_counter)}"


def run(command, folder, pythonpath: str | None = None) -> subprocess.CompletedProcess:
    """``command`` (a list, or a line for the shell) in ``folder``, with ``PYTHONPATH`` as the
    tests run (the package's own) or ``pythonpath``."""
    env = dict(os.environ)
    if pythonpath is not None:
        env["PYTHONPATH"] = pythonpath
    return subprocess.run(command, cwd=folder, env=env, capture_output=True, text=True,
                          shell=isinstance(command, str), timeout=300)


def test_the_script_does_not_find_a_module_in_the_folder_it_runs_from(tmp_path):
    """What the guide says: a module beside you is not enough for `lifeboat-rules`."""
    name = unique("lb_here")
    (tmp_path / f"{name}.py").write_text("X = 1\n")
    (tmp_path / "house.yaml").write_text(f"plugins: [{name}]\n")
    done = run([SCRIPT, "validate", "house.yaml"], tmp_path)
    assert done.returncode == 1, done.stdout + done.stderr
    assert f"unknown plugin {name!r}" in done.stdout


@pytest.mark.parametrize("beside", [False, True], ids=["in the current folder", "beside the ruleset"])
def test_an_unknown_plugin_whose_file_is_there_says_the_command_that_finds_it(tmp_path, beside):
    name = unique("lb_house")
    folder = tmp_path / "rules" if beside else tmp_path
    folder.mkdir(exist_ok=True)
    (folder / f"{name}.py").write_text("X = 1\n")
    ruleset = folder / "house.yaml"
    ruleset.write_text(f"plugins: [{name}]\n")
    shown = os.path.relpath(ruleset, tmp_path)
    done = run([SCRIPT, "validate", shown], tmp_path)
    assert done.returncode == 1
    assert f"{name}.py is in {folder}" in done.stdout, done.stdout
    # the exact command to use, which works as given
    command = re.search(r"name its folder in PYTHONPATH: (PYTHONPATH=\S+ lifeboat-rules .*)$",
                        done.stdout, re.M).group(1)
    words = shlex.split(command)
    assert words[1:] == ["lifeboat-rules", "validate", shown]
    value = words[0].split("=", 1)[1]
    assert value.split(os.pathsep)[0] == ("rules" if beside else ".")
    again = run(command.replace("lifeboat-rules", shlex.quote(SCRIPT), 1), tmp_path)
    assert again.returncode == 0, again.stdout + again.stderr
    assert f"OK {shown}" in again.stdout


def test_a_package_folder_there_is_found_too(tmp_path, monkeypatch):
    name = unique("lb_pack")
    (tmp_path / name).mkdir()
    (tmp_path / name / "__init__.py").write_text("")
    monkeypatch.chdir(tmp_path)
    with pytest.raises(lr.ContentError) as info:
        lr.load_ruleset({"plugins": [f"{name}.rules"]})
    assert f"{name} is in {tmp_path}" in str(info.value)
    assert "PYTHONPATH=." in str(info.value)
    # and the current folder is not put on sys.path behind the author's back
    assert str(tmp_path) not in sys.path and "" not in sys.path[1:]


def test_an_unknown_plugin_with_no_file_around_says_how_a_module_is_found(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(lr.ContentError) as info:
        lr.load_ruleset({"plugins": [unique("lb_nowhere")]})
    text = str(info.value)
    assert "PYTHONPATH" in text and "entry point" in text and " is in " not in text


BUGGY = """\
    from lifeboat_rules import hookimpl


    @hookimpl
    def lifeboat_damage(game, character, amount, cause):
        if cause == "thirst" and game.state.round >= 2:
            raise ZeroDivisionError("a thirsty bug")
        return None
    """


def test_the_replay_command_carries_the_pythonpath_of_the_plugin(tmp_path):
    name = unique("lb_bug")
    (tmp_path / "plugins").mkdir()
    (tmp_path / "plugins" / f"{name}.py").write_text(textwrap.dedent(BUGGY))
    (tmp_path / "buggy.yaml").write_text(f"plugins: [{name}]\n")
    ours = os.environ.get("PYTHONPATH")
    with_plugins = os.pathsep.join(part for part in ("plugins", ours) if part)
    study = [SCRIPT, "simulate", "--ruleset", "buggy.yaml", "--games", "6", "--players", "4",
             "--seed", "2", "--bots", "random"]
    done = run(study, tmp_path, with_plugins)
    assert done.returncode == 1, done.stderr
    failure = re.search(r"the game with seed (\d+) of buggy, round (\d+)", done.stderr)
    assert failure, done.stderr
    replay = re.search(r"replay that game with: (.*)", done.stderr).group(1)
    assert shlex.split(replay)[0] == f"PYTHONPATH={with_plugins}"
    # pasted in the same folder, without the PYTHONPATH the study had: the same failure
    again = run(replay.replace("lifeboat-rules", shlex.quote(SCRIPT), 1), tmp_path,
                ours if ours is not None else "")
    assert again.returncode == 1, again.stderr
    assert re.search(r"the game with seed (\d+) of buggy, round (\d+)", again.stderr).groups() \
        == failure.groups()


def test_a_replay_of_installed_plugins_has_no_pythonpath(tmp_path):
    from lifeboat_rules.lab.failures import replay_command
    ruleset = lr.load_ruleset("cannibalism")
    command = replay_command("cannibalism", 4, 7, ["random"] * 4, ruleset)
    assert command.startswith("lifeboat-rules simulate ")
