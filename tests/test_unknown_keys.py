"""A key a schema does not allow, in a ruleset, a content file or a scenario file, is reported
at its own line with the allowed key it is nearest to ("did you mean 'extends'?"); every
problem of a ContentError is also a record a program can read (docs/api.md, Errors); and
`validate` names the file on every problem line (docs/house-rules.md, "When something is
wrong")."""

from __future__ import annotations

import textwrap

import pytest

import lifeboat_rules as lr
from authoring_support import write
from lifeboat_rules.cli import main as cli_main
from lifeboat_rules.content import base_content, merge_file
from lifeboat_rules.errors import Problem
from lifeboat_rules.scenario import game_for, load_file


def refused(call, *args) -> lr.ContentError:
    with pytest.raises(lr.ContentError) as info:
        call(*args)
    return info.value


def validated(path: str, capsys) -> list[str]:
    """The problem lines `lifeboat-rules validate` prints for one invalid file."""
    capsys.readouterr()
    assert cli_main(["validate", path]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith(f"INVALID {path}")
    return [line.strip() for line in out[1:-1]]


# --------------------------------------------------------------------------- rulesets

def test_a_misspelt_top_key_of_a_ruleset_has_its_line_and_the_key_meant(tmp_path, capsys):
    path = write(tmp_path, "bad.yaml", """\
        name: bad
        extendz: classic
        players: 4
        """)
    exc = refused(lr.load_ruleset, path)
    # one problem per key, each at the line the key is written on (the schema's keys:
    # docs/house-rules.md, "The ruleset format")
    by_path = {problem.path: problem for problem in exc.details}
    assert set(by_path) == {"extendz", "players"}
    assert by_path["extendz"].line == 2 and by_path["extendz"].file == path
    assert "did you mean 'extends'?" in by_path["extendz"].message
    # `players` is no ruleset key whatever `extends` says: the player counts are content
    # (setup.players), which a ruleset changes under overrides
    assert by_path["players"].line == 3
    assert "overrides.setup.players" in by_path["players"].message
    lines = validated(path, capsys)
    assert any(line.startswith(f"{path}: line 2: extendz: ") and "did you mean 'extends'?" in line
               for line in lines), lines
    assert all(line.startswith(f"{path}: line ") for line in lines), lines


def test_a_near_miss_of_a_top_key_is_the_key_meant_not_a_place_to_nest_it(tmp_path):
    # an audit read "unknown key 'extend': it goes under extends" as "nest it inside extends"
    path = write(tmp_path, "near.yaml", """\
        name: near
        extend: classic
        """)
    (problem,) = refused(lr.load_ruleset, path).details
    assert problem.path == "extend" and problem.line == 2
    assert "did you mean 'extends'?" in problem.message and "goes under" not in problem.message


def test_the_players_key_is_still_unknown_when_extends_is_right(tmp_path):
    path = write(tmp_path, "bad.yaml", """\
        extends: classic
        plugns: [shark]
        players: 4
        """)
    exc = refused(lr.load_ruleset, path)
    assert [(p.path, p.line) for p in exc.details] == [("players", 3), ("plugns", 2)]
    assert "did you mean 'plugins'?" in exc.details[1].message


def test_a_misspelt_key_inside_the_overrides_is_placed_at_its_line(tmp_path):
    path = write(tmp_path, "thirsty.yaml", """\
        name: thirsty
        overrides:
          provisions:
            water: {cont: 12}
        """)
    exc = refused(lr.load_ruleset, path)
    assert exc.path == "overrides.provisions.water.cont"
    assert exc.line == "line 4"
    assert "did you mean 'count'?" in str(exc)


def test_a_misspelt_key_of_an_overrides_section(tmp_path):
    path = write(tmp_path, "house.yaml", """\
        overrides:
          setup: {}
          provision:
            water: {count: 10}
        """)
    exc = refused(lr.load_ruleset, path)
    assert (exc.path, exc.line) == ("overrides.provision", "line 3")
    assert "did you mean 'provisions'?" in str(exc)


def test_an_unknown_top_key_does_not_hide_what_is_wrong_elsewhere(tmp_path, capsys):
    # an author fixing a typo should not find the next problem only on the next run: the
    # unknown key is set aside and the rest of the ruleset is still checked (docs/house-rules.md,
    # "When something is wrong": everything at once)
    path = write(tmp_path, "both.yaml", """\
        name: both
        colour: red
        plugins: [sharks]
        overrides:
          provisions:
            water: {cont: 12}
        """)
    exc = refused(lr.load_ruleset, path)
    by_path = {problem.path: problem for problem in exc.details}
    assert by_path["colour"].line == 2
    assert "overrides.provisions.water.cont" in by_path, by_path
    assert by_path["overrides.provisions.water.cont"].line == 6
    assert any("sharks" in problem.message and "shark" in problem.message.replace("sharks", "")
               for problem in exc.details), [p.message for p in exc.details]
    # the unknown key comes first; what was found after setting it aside says so
    assert exc.details[0].path == "colour"
    assert all("without the unknown keys above" in problem.message
               for problem in exc.details[1:])
    lines = validated(path, capsys)
    assert any("line 2: colour" in line for line in lines), lines
    assert any("line 6: overrides.provisions.water.cont" in line for line in lines), lines


def test_an_unknown_key_beside_a_wrong_value_is_reported_with_it(tmp_path):
    # a wrong value is a schema problem too: both come in one error, as before
    path = write(tmp_path, "two.yaml", """\
        name: two
        colour: red
        plugins: shark
        """)
    exc = refused(lr.load_ruleset, path)
    assert {problem.path for problem in exc.details} == {"colour", "plugins"}


# --------------------------------------------------------------------------- content files

def test_a_misspelt_key_of_a_content_file_has_its_line(tmp_path, capsys):
    path = write(tmp_path, "house_content.yaml", """\
        provisions:
          water:
            count: 10
            quench: 1
        """)
    exc = refused(merge_file, base_content(), path)
    assert (exc.where, exc.path, exc.line) == (path, "provisions.water.quench", "line 4")
    assert "did you mean 'quenches'?" in str(exc)
    assert validated(path, capsys) == [f"{path}: line 4: provisions.water.quench: unknown key "
                                       f"'quench'; did you mean 'quenches'?"]


# --------------------------------------------------------------------------- scenario files

def test_a_misspelt_key_of_a_single_scenario_is_that_key(tmp_path):
    # not "is not of type 'array'": a mapping with a setup is one scenario (docs/scenarios.md)
    path = write(tmp_path, "one.yaml", """\
        name: one
        setup:
          seats: [the_kid, frenchy]
        expct: {round: 1}
        """)
    exc = refused(load_file, path)
    assert (exc.path, exc.line) == ("expct", "line 4")
    assert "did you mean 'expect'?" in str(exc)
    assert "array" not in str(exc)


def test_every_misspelt_key_of_a_list_of_scenarios_is_reported(tmp_path, capsys):
    path = write(tmp_path, "two.yaml", """\
        - name: one
          setup:
            seats: [the_kid, frenchy]
            damge: {the_kid: 1}
        - name: two
          setup:
            seats: [the_kid, frenchy]
          stesp: []
        """)
    exc = refused(load_file, path)
    assert [(p.path, p.line) for p in exc.details] == [("[0].setup.damge", 4), ("[1].stesp", 8)]
    assert "did you mean 'damage'?" in exc.details[0].message
    assert "did you mean 'steps'?" in exc.details[1].message
    lines = validated(path, capsys)
    assert len(lines) == 2 and all(line.startswith(f"{path}: line ") for line in lines), lines


def test_a_misspelt_key_in_a_scenarios_mapping(tmp_path):
    path = write(tmp_path, "many.yaml", """\
        scenarios:
          - name: one
            setup:
              seats: [the_kid, frenchy]
              hands: {the_kid: [water]}
        """)
    exc = refused(load_file, path)
    assert (exc.path, exc.line) == ("scenarios[0].setup.hands", "line 5")
    assert "did you mean 'hand'?" in str(exc)


def test_validate_names_the_scenario_file_on_every_problem_line(tmp_path, capsys):
    # problems of the setup (found when the position is set up), and of the ruleset it names:
    # those are placed in the ruleset's file, not at a line of the scenario file
    ruleset = write(tmp_path, "bad.yaml", "extendz: classic\n")
    path = write(tmp_path, "scenarios.yaml", """\
        - name: seats
          setup:
            seats: [the_kid, frenchy, nobody]
            hand: {the_kid: [watr]}
        - name: ruled
          ruleset: bad.yaml
          setup:
            seats: [the_kid, frenchy]
        """)
    lines = validated(path, capsys)
    assert len(lines) == 3, lines
    assert all(line.startswith(path) for line in lines), lines
    seats = [line for line in lines if line.startswith(f"{path}[0]: ")]
    assert [line.split(": ")[1] for line in seats] == ["line 3", "line 4"], seats
    ruled = [line for line in lines if line.startswith(f"{path}[1]: ")]
    assert len(ruled) == 1 and ruleset in ruled[0] and "did you mean 'extends'?" in ruled[0]
    assert f"{ruleset}: line 1: extendz: " in ruled[0]
    # a file that breaks the schema: the same, through load_file's problems
    bad = write(tmp_path, "broken.yaml", """\
        - name: one
          setpu: {seats: [the_kid, frenchy]}
        - name: two
          setup: {seats: [the_kid, frenchy], damge: {}}
        """)
    lines = validated(bad, capsys)
    assert len(lines) == 3 and all(line.startswith(f"{bad}: line ") for line in lines), lines


# --------------------------------------------------------------------------- records

def test_each_problem_of_a_content_error_is_a_record(tmp_path):
    path = write(tmp_path, "house.yaml", """\
        name: house
        overrides:
          provisions:
            wter: {count: 12}
          characters:
            the_kdi: {size: 4}
        """)
    exc = refused(lr.load_ruleset, path)
    assert len(exc.problems) == 2 and len(exc.details) == 2
    assert all(isinstance(problem, Problem) for problem in exc.details)
    places = [(p.path, p.line, p.file) for p in exc.details]
    assert places == [("overrides.characters.the_kdi", 6, path),
                      ("overrides.provisions.wter", 4, path)]
    assert "did you mean 'the_kid'?" in exc.details[0].message
    # the message alone: the line and the place are the record's other fields
    assert not exc.details[1].message.startswith(("line", "overrides"))
    # the error's own place is the first problem's (the problems are listed in that order)
    assert (exc.path, exc.line) == ("overrides.characters.the_kdi", "line 6")
    assert exc.where == path
    assert exc.problems[0].startswith("line 6: overrides.characters.the_kdi: ")


def test_a_problem_in_a_file_extended_is_a_record_of_that_file(tmp_path):
    parent = write(tmp_path, "parent.yaml", """\
        name: parent
        overrides:
          characters:
            frenchie: {size: 3}
        """)
    child = write(tmp_path, "child.yaml", """\
        extends: parent.yaml
        overrides:
          provisions:
            wter: {count: 12}
        """)
    exc = refused(lr.load_ruleset, child)
    assert [(p.path, p.line, p.file) for p in exc.details] == [
        ("overrides.characters.frenchie", 4, parent), ("overrides.provisions.wter", 4, child)]
    assert exc.line == f"{parent}, line 4"


def test_a_yaml_syntax_error_is_a_record_with_its_line_and_column(tmp_path):
    path = write(tmp_path, "broken.yaml", "name: house\nplugins: [a, b\n")
    exc = refused(lr.load_ruleset, path)
    [problem] = exc.details
    assert problem.file == path and problem.path is None
    assert isinstance(problem.line, int) and isinstance(problem.column, int)
    assert problem.line >= 2 and problem.message.startswith("invalid YAML")


def test_a_mapping_problem_is_a_record_without_a_line():
    exc = refused(lr.load_ruleset, {"extendz": "classic"})
    assert exc.details == [Problem("extendz", None, exc.details[0].message)]
    assert "did you mean 'extends'?" in exc.details[0].message
    assert exc.path == "extendz" and exc.line is None


def test_the_problems_of_a_scenarios_setup_are_records_of_its_file(tmp_path):
    path = write(tmp_path, "seats.yaml", """\
        - name: fine
          setup: {seats: [the_kid, frenchy]}
        - name: seats
          setup:
            seats: [the_kid, frenchy, nobody]
            hand: {the_kid: [watr]}
        """)
    scenario = load_file(path)[1]
    exc = refused(game_for, scenario)
    assert exc.where == f"{path}[1]"
    assert [(p.path, p.line, p.file) for p in exc.details] == [
        ("setup.seats[2]", 5, path), ("setup.hand.the_kid[0]", 6, path)]
    assert (exc.path, exc.line) == ("setup.seats[2]", "line 5")


def test_check_handed_a_ruleset_or_content_file_says_which_file_it_is(tmp_path, capsys):
    # an audit ran `check` on its ruleset and got the whole file back as "not of type 'array'"
    ruleset = write(tmp_path, "salty.yaml", """\
        name: salty
        extends: classic
        overrides:
          characters:
            the_captain: {survival: 6}
        """)
    content = write(tmp_path, "kid.yaml", """\
        characters:
          the_kid: {size: 3}
        """)
    scenario = write(tmp_path, "half.yaml", """\
        name: half a scenario
        ruleset: classic
        """)
    for path, kind in ((ruleset, "ruleset"), (content, "content")):
        capsys.readouterr()
        assert cli_main(["check", path]) == 1
        out = capsys.readouterr().out
        assert f"this is a {kind} file, not a scenario file" in out
        assert f"lifeboat-rules validate {path}" in out and "not of type" not in out
    capsys.readouterr()
    assert cli_main(["check", scenario]) == 1       # a scenario still gets its schema's words
    assert "'setup' is a required property" in capsys.readouterr().out


def test_validate_names_a_file_whose_yaml_is_broken_for_what_it_is(tmp_path, capsys):
    path = write(tmp_path, "dup.yaml", """\
        name: a
        extends: classic
        name: b
        """)
    capsys.readouterr()
    assert cli_main(["validate", path]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[0] == f"INVALID {path} (not read)"        # an audit read "(?)" as a fault of ours
    assert "line 3, column 1" in out[1] and "given twice" in out[1]


def test_content_a_plugin_broke_names_the_plugins_that_change_content(tmp_path, monkeypatch):
    # an audit's lifeboat_content hook set the water's count to "lots": the problem said
    # "(merged content)" and no file of the ruleset holds it; the hook is where to look
    (tmp_path / "lb_lots_of_water.py").write_text(textwrap.dedent("""\
        from lifeboat_rules import hookimpl


        @hookimpl
        def lifeboat_content(content):
            content["provisions"]["water"]["count"] = "lots"
        """), encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    path = write(tmp_path, "lots.yaml", """\
        name: lots
        extends: classic
        plugins: [lb_lots_of_water]
        """)
    (problem,) = refused(lr.load_ruleset, path).details
    assert problem.path is not None and problem.path.startswith("provisions.water.count")
    assert "lifeboat_content hook of plugin:lb_lots_of_water" in problem.path
    assert "'lots' is not of type 'integer'" in problem.message


def test_a_scenarios_misspelt_character_and_action_type_get_the_names_meant(tmp_path, capsys):
    path = write(tmp_path, "typos.yaml", """\
        name: typos
        setup:
          seats: [the_captian, lady_lauren, frenchy, the_kid]
        """)
    capsys.readouterr()
    assert cli_main(["check", path]) == 1
    out = capsys.readouterr().out
    assert "line 3: setup.seats[0]: unknown character 'the_captian'; did you mean 'the_captain'?" in out
    with pytest.raises(lr.IllegalAction) as refused_action:
        lr.new_game("classic", players=4, seed=1).apply({"by": "lady_lauren", "type": "robb"})
    assert "unknown action type 'robb' (did you mean 'rob'?" in str(refused_action.value)


def test_a_failing_step_or_expectation_is_given_with_its_line(tmp_path, capsys):
    path = write(tmp_path, "lines.yaml", """\
        - name: a
          setup:
            seats: [the_captain, lady_lauren, frenchy, the_kid]
          steps:
            - expect: {damage: {the_kid: 0}}
            - expect: {damage: {the_kid: 3}}
        - name: b
          setup:
            seats: [the_captain, lady_lauren, frenchy, the_kid]
          expect: {damage: {the_kid: 2}}
        """)
    capsys.readouterr()
    assert cli_main(["check", path]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[0].endswith(f"expected 3, got 0 ({path}[0], line 6)")
    assert out[1].endswith(f"expected 2, got 0 ({path}[1], line 10)")
