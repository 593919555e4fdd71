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
the path of the key, or the file as a whole for its size: docs/reliability.md), within
``MEMORY_LIMIT`` bytes (tracemalloc) and under a watchdog of ``TIME_LIMIT`` seconds (bounded,
not a speed figure), and nothing is executed (the Python tags would create a marker file).
Plain values (a number, null, a list, text, a boolean) are refused at their place or accepted,
as the schemas say of that place. The limits themselves (``lifeboat_rules/yamlio.py``) are in
docs/reliability.md.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import tracemalloc

import pytest

import lifeboat_rules as lr
from lifeboat_rules import ContentError
from lifeboat_rules import yamlio
from lifeboat_rules.cli import main as cli_main
from lifeboat_rules.content import merge_file
from lifeboat_rules.scenario import game_for, load_file

import invariants as inv

TIME_LIMIT = 30                   # seconds: a watchdog for any one file through any one entry point
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
# where _embed puts the value: its line(s) in the file, and the path(s) of its key
VALUE_AT = {
    "ruleset_overrides": ({2}, {"overrides.characters.the_kid.size"}),
    "ruleset_field": ({2, 3}, {"variants", "options.rowing"}),
    "content": ({1}, {"provisions.water.count"}),
    "scenario_setup": ({2}, {"setup.damage.the_kid"}),
    "scenario_step": ({4}, {"steps[0].card"}),
}
# hostile values the YAML reader refuses (tags, aliases, nesting, unreadable values): the
# place is a line and column; the others are read, but are not JSON's (dates, binary, sets,
# NaN...): the place is the key's path (docs/reliability.md, Limits)
READER_REFUSED = {"billion_laughs", "long_string_laughs", "deep_flow", "deep_flow_mappings",
                  "recursive_alias", "recursive_mapping", "python_apply", "python_new",
                  "python_name", "python_module", "custom_tag", "bad_date", "huge_int",
                  "non_string_key", "undefined_alias"}
NOT_JSON = {"binary", "date", "timestamp", "set", "omap", "nan", "infinity"}
PLAIN_VALUES = {"number", "null", "list", "text", "bool"}
# refused for their size before they are read: no place inside them
WHOLE_FILE = {"huge"}


# --------------------------------------------------------------------------- entry points
# Each reads ``path`` and returns what it says about it: the ContentError (library) or the
# output (command line, whose exit status must say failure).

def _expect(accept: bool, read):
    """``read()``: it must succeed (``accept``) or raise a ContentError, which is returned."""
    if accept:
        return read()
    with pytest.raises(ContentError) as info:
        read()
    return info.value


def _ruleset(path, capsys, accept=False):
    return _expect(accept, lambda: lr.load_ruleset(str(path)))


def _ruleset_extending(path, capsys, accept=False):
    main = path.parent / f"extends_{path.name}"
    main.write_text(f"name: main\nextends: {path.name}\n")
    return _expect(accept, lambda: lr.load_ruleset(str(main)))


def _content(path, capsys, accept=False):
    return _expect(accept, lambda: merge_file({}, str(path)))


def _scenario(path, capsys, accept=False):
    """As ``lifeboat-rules check`` reads a scenario: the file, then each scenario's setup."""
    def read():
        for scenario in load_file(str(path)):
            game_for(scenario)
    return _expect(accept, read)


def _cli(command):
    def call(path, capsys):
        capsys.readouterr()
        code = cli_main([command, str(path)])
        captured = capsys.readouterr()
        out = captured.out + captured.err
        assert code == 1, f"lifeboat-rules {command} of {path.name} exited {code}: {out[:300]}"
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
    """``path`` through ``entry``: refused, naming the file and a place, in bounded time (and
    memory, for the files whose threat is memory), creating no marker. Returns the
    ContentError (library entry points) or the output."""
    call = ENTRY_POINTS[entry]
    with inv.time_limit(TIME_LIMIT, f"{entry} of {path.name}"):
        said = call(path, capsys)
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
        if path.stem in WHOLE_FILE:
            assert said.path is None and "larger than" in str(said), said
        elif len(said.problems) > 1:    # several problems: each line starts with its place
            # (and the error's own path is the first one's, for a program: docs/api.md)
            assert said.path == said.details[0].path and all(_place(line) for line in said.problems), said
        else:
            assert said.path, f"{entry} of {path.name}: no place in {text[:300]}"
    inv.count("hostile files", "refusals checked (file x entry point)")
    return said


def _place(problem: str) -> str:
    """The place a problem line of a ContentError starts with (``place: message``, after the
    line it is on where the file has one: ``line 2: place: message``)."""
    problem = re.sub(r"^(?:[^:]*, )?line \d+: ", "", problem)
    return problem.split(": ", 1)[0] if ": " in problem else ""


def _inside(place: str, where: str) -> bool:
    return place == where or place.startswith(where + ".") or place.startswith(where + "[")


@pytest.fixture
def workdir(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    return tmp_path


# an empty document is a ruleset with no keys: the classic game, not an error
NOT_HOSTILE = {("value_null", "load_ruleset"), ("value_null", "ruleset_extends"),
               ("value_null", "cli_validate")}


@pytest.mark.parametrize("entry", [pytest.param(e, marks=pytest.mark.slow) if e in MEMORY_ENTRY_POINTS
                                   else e for e in ENTRY_POINTS])     # tracemalloc: slow
def test_hostile_documents_are_refused_by_every_entry_point(entry, workdir, capsys):
    for name, data in documents(str(workdir / MARKER)).items():
        path = workdir / f"{name}.yaml"
        path.write_bytes(data)
        if (name, entry) in NOT_HOSTILE:
            if entry == "cli_validate":
                assert cli_main(["validate", str(path)]) == 0
            else:
                loaded = ENTRY_POINTS[entry](path, capsys, accept=True)
                assert loaded.content.raw == lr.load_ruleset("classic").content.raw
            continue
        _refused(entry, path, capsys)


READERS = {"ruleset_overrides": ["load_ruleset", "ruleset_extends", "cli_validate"],
           "ruleset_field": ["load_ruleset", "cli_validate"],
           "content": ["merge_file", "cli_validate"],
           "scenario_setup": ["scenario", "cli_check", "cli_validate"],
           "scenario_step": ["scenario", "cli_check"]}


@pytest.mark.parametrize("kind", EMBEDDED)
def test_hostile_values_are_refused_where_they_are_put(kind, workdir, capsys):
    """The hostile values at a place of a ruleset, content or scenario file: refused by the
    entry points that read that kind of file, naming the file and the place: the value's line
    where the YAML reader refuses it, the path of its key where it is read but is not JSON's."""
    lines, keys = VALUE_AT[kind]
    for name, value in values(str(workdir / MARKER)).items():
        if name in PLAIN_VALUES:
            continue
        path = workdir / f"{kind}_{name}.yaml"
        path.write_bytes(_embed(kind, value))
        for entry in READERS[kind]:
            said = _refused(entry, path, capsys)
            if not isinstance(said, ContentError):
                continue
            if name in READER_REFUSED:
                assert said.path.startswith("line ") and int(said.path.split(",")[0][5:]) in lines, \
                    f"{entry} of {path.name}: {said}"
            else:
                assert name in NOT_JSON
                assert any(said.path.startswith(key) for key in keys), f"{entry} of {path.name}: {said}"


# what the schemas say of each plain value at each place: None, the file is right there;
# else the place of the problem reported (docs/house-rules.md: a size is a whole number of
# 1 or more, null in overrides deletes the key; a provision count is a whole number; a
# ruleset's variants are a list of names; a scenario's damage is a whole number per character)
PLAIN_EXPECTED = {
    ("ruleset_overrides", "number"): None,
    ("ruleset_overrides", "null"): "overrides.characters.the_kid",   # its size is deleted
    ("ruleset_overrides", "list"): "overrides.characters.the_kid.size",
    ("ruleset_overrides", "text"): "overrides.characters.the_kid.size",
    ("ruleset_overrides", "bool"): "overrides.characters.the_kid.size",
    **{("ruleset_field", name): "variants" for name in PLAIN_VALUES},
    ("content", "number"): None,
    **{("content", name): "provisions.water.count" for name in ("null", "list", "text", "bool")},
    ("scenario_setup", "number"): None,
    **{("scenario_setup", name): "setup.damage.the_kid" for name in ("null", "list", "text", "bool")},
    # a step is an action: the file is right, running it is refused (pass has no field card)
    **{("scenario_step", name): None for name in PLAIN_VALUES},
}


@pytest.mark.parametrize("kind,name", sorted(PLAIN_EXPECTED), ids=[f"{k}-{n}" for k, n in sorted(PLAIN_EXPECTED)])
def test_plain_values_are_refused_at_their_place_or_right_there(kind, name, workdir, capsys):
    place = PLAIN_EXPECTED[kind, name]
    path = workdir / f"{kind}_{name}.yaml"
    path.write_bytes(_embed(kind, values(str(workdir / MARKER))[name]))
    for entry in READERS[kind]:
        if entry.startswith("cli_"):
            command = entry[4:]
            capsys.readouterr()
            code = cli_main([command, str(path)])
            out = capsys.readouterr().out
            if command == "check" and kind == "scenario_step":
                assert code == 1 and "pass has no field 'card'" in out, out
            else:
                assert code == (0 if place is None else 1), out
            continue
        if place is None:
            with inv.time_limit(TIME_LIMIT, f"{entry} of {path.name}"):
                ENTRY_POINTS[entry](path, capsys, accept=True)
            continue
        said = _refused(entry, path, capsys)
        assert any(_inside(_place(line), place) for line in said.problems), \
            f"{entry} of {path.name}: {said.problems}"
    inv.count("hostile files", "plain values checked")


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
    # the place of each problem: the value itself, or the key inside it; the bomb (2**60
    # values once walked) is refused for its size as a whole
    cases = [(cycle, "overrides.characters.the_kid.self"), (deep, "overrides.characters.the_kid[0]"),
             (bomb, None), ({1, 2}, "overrides.characters.the_kid"),
             (float("nan"), "overrides.characters.the_kid"),
             (10 ** 5000, "overrides.characters.the_kid"), (object(), "overrides.characters.the_kid"),
             (b"x", "overrides.characters.the_kid"), ({"size": "big"}, "overrides.characters.the_kid.size"),
             (-3, "overrides.characters.the_kid"), ("\ud800", "overrides.characters.the_kid")]
    for value, place in cases:
        with inv.time_limit(TIME_LIMIT, f"load_ruleset of a {type(value).__name__}"):
            with pytest.raises(ContentError) as info:
                lr.load_ruleset({"name": "hostile", "overrides": {"characters": {"the_kid": value}}})
        assert info.value.where == "<ruleset mapping>"
        if place is None:
            assert info.value.path is None and "more than" in str(info.value), info.value
        else:
            assert info.value.path.startswith(place), info.value


def test_a_huge_sparse_file_is_refused_before_it_is_read(workdir):
    path = workdir / "sparse.yaml"
    with open(path, "wb") as handle:
        handle.truncate(10 * 1024 ** 3)      # 10 GiB of nothing, without using the disk
    tracemalloc.start()       # not read: reading it would allocate gigabytes
    try:
        with inv.time_limit(TIME_LIMIT, "load_ruleset of a sparse 10 GiB file"):
            with pytest.raises(ContentError, match="larger than") as info:
                lr.load_ruleset(str(path))
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 1_000_000, f"{peak} bytes allocated"
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
    with inv.time_limit(TIME_LIMIT, "from_dict of a deeply nested save"):
        with pytest.raises(ContentError, match="nested deeper") as info:
            lr.Game.from_dict(data)
    assert info.value.where == "<saved game>" and info.value.path.startswith(f"log[{len(data['log']) - 1}].nested")
