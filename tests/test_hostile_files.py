"""Hostile files (issue #4): alias bombs, huge and deeply nested documents, bytes that are not
UTF-8, characters YAML refuses, Python object tags, recursive aliases, YAML types JSON does not
have, wrong types everywhere; through every loader entry point:

* ``load_ruleset(path)`` of the file itself, of a ruleset whose ``overrides`` (content) hold
  the hostile value, and of a ruleset that ``extends`` the hostile file;
* a ruleset given as a mapping holding the hostile value (content via overrides);
* a content file merged by a plugin (``content.merge_file``);
* scenario files: ``scenario.load_file`` and running them as ``lifeboat-rules check`` does;
* ``lifeboat-rules check`` and ``lifeboat-rules validate`` on the file.

Each is refused with a ``ContentError`` that names the file and the place (line and column, or
the path of the key), within ``TIME_LIMIT`` seconds and ``MEMORY_LIMIT`` bytes (tracemalloc),
and nothing is executed (the Python tags would create a marker file). The limits themselves
(``lifeboat_rules/yamlio.py``) are in docs/reliability.md.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
import tracemalloc

import pytest

import lifeboat_rules as lr
from lifeboat_rules import ContentError
from lifeboat_rules import yamlio
from lifeboat_rules.cli import main as cli_main
from lifeboat_rules.content import merge_file
from lifeboat_rules.scenario import game_for, load_file

import invariants as inv

TIME_LIMIT = 2.0                  # seconds, for any one file through any one entry point
MEMORY_LIMIT = 64 * 1024 * 1024   # bytes allocated at the peak (tracemalloc)
MARKER = "lifeboat-hostile-marker"


def _laughs(levels=10, width=10) -> str:
    """The billion laughs, in flow style: width ** levels 'lol's once expanded."""
    parts = ["&a0 [" + ", ".join(["lol"] * width) + "]"]
    for level in range(1, levels):
        parts.append(f"&a{level} [" + ", ".join([f"*a{level - 1}"] * width) + "]")
    return "[" + ", ".join(parts) + "]"


def _long_laughs() -> str:
    """Few nodes, but one long string repeated by aliases: gigabytes once expanded."""
    return ("[&s '" + "x" * 200_000 + "', &b [" + ", ".join(["*s"] * 100) + "], ["
            + ", ".join(["*b"] * 100) + "]]")


def _merge_bomb() -> bytes:
    """Merge keys (<<) doubling a mapping thirty times."""
    lines = [b"a: &a {" + b", ".join(b"k%d: v" % i for i in range(100)) + b"}"]
    previous = b"a"
    for level in range(30):
        lines.append(b"b%d: &b%d {<<: [*%s, *%s]}" % (level, level, previous, previous))
        previous = b"b%d" % level
    return b"\n".join(lines) + b"\n"


def values(marker: str) -> dict:
    """Hostile YAML values, in flow style (one line), to put anywhere in a document."""
    return {
        "billion_laughs": _laughs(),
        "long_string_laughs": _long_laughs(),
        "deep_flow": "[" * 10_000 + "]" * 10_000,
        "deep_flow_mappings": "{a: " * 5_000 + "1" + "}" * 5_000,
        "recursive_alias": "&r [*r]",
        "recursive_mapping": "&m {k: *m}",
        "python_apply": f"!!python/object/apply:os.system ['touch {marker}']",
        "python_new": f"!!python/object/new:subprocess.Popen [['touch', '{marker}']]",
        "python_name": "!!python/name:os.system",
        "python_module": "!!python/module:os",
        "custom_tag": "!lifeboat {x: 1}",
        "binary": "!!binary aGVsbG8=",
        "date": "2001-12-14",
        "bad_date": "2001-02-30",
        "timestamp": "2001-12-14t21:59:43.10-05:00",
        "set": "!!set {a, b}",
        "omap": "!!omap [a: 1, b: 2]",
        "huge_int": "9" * 5_000,
        "nan": ".nan",
        "infinity": "-.inf",
        "non_string_key": "{1: a, [b]: c}",
        "undefined_alias": "*nowhere",
        "number": "12",
        "null": "null",
        "list": "[1, [2], {}]",
        "text": "'nobody'",
        "bool": "yes",
    }


def documents(marker: str) -> dict:
    """Whole hostile files, as bytes."""
    docs = {f"value_{name}": text.encode() for name, text in values(marker).items()}
    docs.update({
        "huge": b"a: '" + b"x" * (yamlio.MAX_BYTES + 10) + b"'\n",
        "many_nodes": b"".join(b"- %d\n" % i for i in range(yamlio.MAX_NODES + 100)),
        "many_keys": b"".join(b"k%d: v\n" % i for i in range(yamlio.MAX_NODES)),
        "deep_block": b"".join(b"  " * i + b"a:\n" for i in range(200)) + b"  " * 200 + b"b: 1\n",
        "deep_dashes": b"- " * 10_000 + b"x\n",
        "latin1": b"name: caf\xe9\n",
        "invalid_utf8": b"name: \xc3\x28\n",
        "utf16": "name: x\n".encode("utf-16"),
        "nul": b"name: a\x00b\n",
        "control": b"name: \x07bell\n",
        "binary_junk": bytes(range(256)) * 64,
        "two_documents": b"name: a\n---\nname: b\n",
        "tab_indent": b"a:\n\t- b\n",
        "unclosed": b"name: [a, b\n",
        "merge_bomb": _merge_bomb(),
        "top_level_list": b"- name: x\n",
        "top_level_text": b"just some text\n",
    })
    return docs


def _embed(kind: str, value: str) -> bytes:
    """A file of ``kind`` with the hostile value at a place its schema knows."""
    if kind == "ruleset_overrides":
        return f"name: hostile\noverrides: {{characters: {{the_kid: {{size: {value}}}}}}}\n".encode()
    if kind == "ruleset_field":
        return f"name: hostile\nvariants: {value}\noptions: {{rowing: {value}}}\n".encode()
    if kind == "content":
        return f"provisions: {{water: {{count: {value}}}}}\n".encode()
    if kind == "scenario_setup":
        return f"name: hostile\nsetup: {{seats: [the_kid, frenchy], damage: {{the_kid: {value}}}}}\n".encode()
    if kind == "scenario_step":
        return (f"name: hostile\nsetup: {{seats: [the_kid, frenchy], phase: action}}\n"
                f"steps:\n  - {{by: the_kid, type: pass, card: {value}}}\n").encode()
    raise AssertionError(kind)


EMBEDDED = ["ruleset_overrides", "ruleset_field", "content", "scenario_setup", "scenario_step"]
# plain values: at some places they are right, at others wrong types (refused with a
# ContentError naming the place); never anything else
PLAIN_VALUES = {"number", "null", "list", "text", "bool"}


# --------------------------------------------------------------------------- entry points
# Each reads ``path`` and returns what it says about it: the ContentError (library) or the
# output (command line, whose exit status must say failure).

def _ruleset(path, capsys):
    with pytest.raises(ContentError) as info:
        lr.load_ruleset(str(path))
    return info.value


def _ruleset_extending(path, capsys):
    main = path.parent / f"extends_{path.name}"
    main.write_text(f"name: main\nextends: {path.name}\n")
    with pytest.raises(ContentError) as info:
        lr.load_ruleset(str(main))
    return info.value


def _content(path, capsys):
    with pytest.raises(ContentError) as info:
        merge_file({}, str(path))
    return info.value


def _scenario(path, capsys):
    """As ``lifeboat-rules check`` reads a scenario: the file, then each scenario's setup."""
    with pytest.raises(ContentError) as info:
        for scenario in load_file(str(path)):
            game_for(scenario)
    return info.value


def _cli(command):
    def call(path, capsys):
        capsys.readouterr()
        code = cli_main([command, str(path)])
        captured = capsys.readouterr()
        out = captured.out + captured.err
        assert code != 0, f"lifeboat-rules {command} accepted {path.name}: {out[:300]}"
        return out
    return call


ENTRY_POINTS = {
    "load_ruleset": _ruleset,
    "ruleset_extends": _ruleset_extending,
    "merge_file": _content,
    "scenario": _scenario,
    "cli_check": _cli("check"),
    "cli_validate": _cli("validate"),
}


# the files whose threat is memory (bombs, huge or long documents): their peak is measured
# (tracemalloc slows Python down several times, so not for every file and entry point)
MEMORY_CHECKED = {"billion_laughs", "long_string_laughs", "deep_flow", "recursive_alias",
                  "huge_int", "huge", "many_nodes", "many_keys", "merge_bomb", "deep_dashes",
                  "binary_junk", "deep_flow_mappings"}
MEMORY_ENTRY_POINTS = {"load_ruleset", "scenario"}


def _memory_checked(entry: str, path) -> bool:
    return entry in MEMORY_ENTRY_POINTS and any(path.stem.endswith(n) for n in MEMORY_CHECKED)


def _refused(entry: str, path, capsys):
    """``path`` through ``entry``: refused, naming the file, in bounded time (and memory, for
    the files whose threat is memory), creating no marker. Returns the ContentError (library
    entry points) or the output."""
    call = ENTRY_POINTS[entry]
    began = time.perf_counter()
    with inv.time_limit(30, f"{entry} of {path.name}"):
        said = call(path, capsys)
    took = time.perf_counter() - began
    assert took < TIME_LIMIT, f"{entry} of {path.name} took {took:.2f} s"
    if _memory_checked(entry, path):
        tracemalloc.start()
        try:
            call(path, capsys)
            peak = tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()
        assert peak < MEMORY_LIMIT, f"{entry} of {path.name} took {peak / 1e6:.1f} MB"
        inv.count("hostile files", "peak memory measured")
    assert not os.path.exists(path.parent / MARKER), "a Python tag was executed"
    text = str(said) + ("\n".join(said.problems) if isinstance(said, ContentError) else "")
    assert path.name in text, f"{entry} does not name the file: {text[:300]}"
    if isinstance(said, ContentError):
        assert _names_a_place(said), f"{entry} of {path.name}: no place in {text[:300]}"
    inv.count("hostile files", "refusals checked (file x entry point)")
    return said


def _names_a_place(error: ContentError) -> bool:
    """The error says where in the file: a line (and column or byte), the path of a key, or
    that the file as a whole is refused (its size, or not a file)."""
    if error.path:
        return True
    text = str(error) + "\n".join(error.problems)
    if "larger than" in text or "not a regular file" in text:
        return True
    # several problems: each line starts with its place
    return len(error.problems) > 1 and all(": " in p for p in error.problems)


@pytest.fixture
def workdir(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    return tmp_path


# an empty document is a ruleset with no keys: the classic game, not an error
NOT_HOSTILE = {("value_null", "load_ruleset"), ("value_null", "ruleset_extends"),
               ("value_null", "cli_validate")}


@pytest.mark.parametrize("entry", list(ENTRY_POINTS))
def test_hostile_documents_are_refused_by_every_entry_point(entry, workdir, capsys):
    for name, data in documents(str(workdir / MARKER)).items():
        path = workdir / f"{name}.yaml"
        path.write_bytes(data)
        if (name, entry) in NOT_HOSTILE:
            assert lr.load_ruleset(str(path)).content.raw == lr.load_ruleset("classic").content.raw
            continue
        _refused(entry, path, capsys)


@pytest.mark.parametrize("kind", EMBEDDED)
def test_hostile_values_are_refused_where_they_are_put(kind, workdir, capsys):
    """The hostile values at a place of a ruleset, content or scenario file: refused by the
    entry points that read that kind of file, naming the file and the place; plain values of
    the wrong type are refused the same way, or are right there."""
    readers = {"ruleset_overrides": ["load_ruleset", "ruleset_extends", "cli_validate"],
               "ruleset_field": ["load_ruleset", "cli_validate"],
               "content": ["merge_file", "cli_validate"],
               "scenario_setup": ["scenario", "cli_check", "cli_validate"],
               "scenario_step": ["scenario", "cli_check"]}[kind]
    for name, value in values(str(workdir / MARKER)).items():
        path = workdir / f"{kind}_{name}.yaml"
        path.write_bytes(_embed(kind, value))
        for entry in readers:
            if name in PLAIN_VALUES:
                _refused_or_fine(entry, path, capsys)
            else:
                _refused(entry, path, capsys)


def _refused_or_fine(entry, path, capsys):
    """A plain value: the file is refused like a hostile one, or accepted (the value is right
    there, or the scenario runs and fails as a scenario does), never anything else."""
    if entry.startswith("cli_"):
        began = time.perf_counter()
        assert cli_main([entry[4:], str(path)]) in (0, 1)
        assert time.perf_counter() - began < TIME_LIMIT
        return
    try:
        _refused(entry, path, capsys)
    except pytest.fail.Exception:     # "DID NOT RAISE": the value is right there
        inv.count("hostile files", "plain values accepted where they are right")


def test_a_ruleset_mapping_with_hostile_values():
    """A ruleset given as a mapping (content via overrides) holding values JSON cannot carry
    or that contain themselves is refused, in bounded time."""
    cycle: dict = {}
    cycle["self"] = cycle
    deep: list = []
    for _ in range(100_000):
        deep = [deep]
    bomb: list = []
    for _ in range(60):
        bomb = [bomb, bomb]
    for value in (cycle, deep, bomb, {1, 2}, float("nan"), 10 ** 5000, object(), b"x",
                  {"size": "big"}, -3, "\ud800"):
        began = time.perf_counter()
        with pytest.raises(ContentError) as info:
            lr.load_ruleset({"name": "hostile", "overrides": {"characters": {"the_kid": value}}})
        assert time.perf_counter() - began < TIME_LIMIT
        assert "<ruleset mapping>" in str(info.value) or "overrides" in str(info.value)


def test_a_huge_sparse_file_is_refused_before_it_is_read(workdir):
    path = workdir / "sparse.yaml"
    with open(path, "wb") as handle:
        handle.truncate(10 * 1024 ** 3)      # 10 GiB of nothing, without using the disk
    began = time.perf_counter()
    with pytest.raises(ContentError, match="larger than") as info:
        lr.load_ruleset(str(path))
    assert time.perf_counter() - began < 0.5
    assert str(path) in str(info.value)


def test_a_fifo_or_a_device_is_not_waited_on(workdir):
    """A named pipe named like a YAML file (reading it would wait for a writer for ever), a
    device, a folder: refused at once."""
    fifo = workdir / "pipe.yaml"
    os.mkfifo(fifo)
    for path in (str(fifo), "/dev/zero", str(workdir)):
        with inv.time_limit(5, f"reading {path}"):
            with pytest.raises(ContentError, match="not a regular file"):
                yamlio.read_yaml(path)
    with inv.time_limit(5, "lifeboat-rules check on a folder with a pipe"):
        assert cli_main(["check", str(workdir)]) == 1


def test_the_command_line_refuses_a_python_tag_and_runs_nothing(workdir):
    """The real command (a new process): a scenario and a ruleset with a Python tag are
    refused, the marker is not created, the exit status says so."""
    marker = workdir / MARKER
    scenario = workdir / "tagged.yaml"
    scenario.write_text(f"name: x\nsetup: !!python/object/apply:os.system ['touch {marker}']\n")
    ruleset = workdir / "tagged_ruleset.yaml"
    ruleset.write_text(f"!!python/object/apply:os.system ['touch {marker}']\n")
    for command in (["check", str(scenario)], ["validate", str(scenario), str(ruleset)]):
        done = subprocess.run([sys.executable, "-m", "lifeboat_rules.cli", *command],
                              capture_output=True, text=True, timeout=60)
        assert done.returncode == 1, done.stdout + done.stderr
        assert "tagged" in done.stdout and "python/object" in done.stdout
    simulate = subprocess.run([sys.executable, "-m", "lifeboat_rules.cli", "simulate",
                               "--ruleset", str(ruleset)], capture_output=True, text=True,
                              timeout=60)
    assert simulate.returncode == 2 and "tagged_ruleset.yaml" in simulate.stderr
    assert not marker.exists()


def test_the_limits_leave_room_for_real_files():
    """The shipped content, rulesets and every scenario file are far inside the limits."""
    import glob
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    files = glob.glob(os.path.join(root, "lifeboat_rules", "data", "**", "*.yaml"), recursive=True)
    files += glob.glob(os.path.join(root, "expansions", "**", "*.yaml"), recursive=True)
    files += glob.glob(os.path.join(root, "tests", "scenarios", "**", "*.yaml"), recursive=True)
    assert files
    for path in files:
        with open(path, "rb") as handle:
            data = handle.read()
        assert len(data) < yamlio.MAX_BYTES / 10, path
        loader = yamlio._BoundedLoader(data.decode("utf-8-sig"))
        try:
            node = loader.get_single_node()
            nodes, chars = yamlio._expanded_size(node)
        finally:
            loader.dispose()
        assert nodes < yamlio.MAX_NODES / 4 and chars < yamlio.MAX_CHARS / 10, path


def test_saved_games_in_json_are_bounded_too():
    """Saved games come as JSON text: ``json.loads`` then ``from_dict``; a deeply nested or
    huge one is refused by ``from_dict`` in bounded time (the JSON parser's own recursion limit
    is the caller's: ``json.loads`` raises RecursionError beyond about a thousand levels)."""
    game = lr.new_game("classic", players=4, seed=2)
    data = game.to_dict()
    data["log"].append({"type": "x", "nested": json.loads("[" * 500 + "]" * 500)})
    began = time.perf_counter()
    with pytest.raises(ContentError, match="nested deeper"):
        lr.Game.from_dict(data)
    assert time.perf_counter() - began < TIME_LIMIT
