"""What a house-rule author reads when something is wrong, found by an audit of an author
working from the docs alone: a failing scenario check words its values as a scenario file
does and shows the logged events nearest to a missing one; a misspelt id in a check is named
with the near ids; a hook's refused answer is shown whole, at the line of its ``def``; a plugin
that imports a missing module is named with the file and line of that import
(docs/scenarios.md, Running; docs/house-rules.md, When something is wrong)."""

from __future__ import annotations

import itertools
import textwrap

import pytest

import lifeboat_rules as lr
from authoring_support import plugin_maker
from lifeboat_rules import PluginError
from lifeboat_rules.effects import HookAnswerError
from lifeboat_rules.plugins import origin
from lifeboat_rules.scenario import check_paths

_counter = itertools.count()

FOUR = "[the_captain, first_mate, frenchy, the_kid]"


def failure(tmp_path, text: str) -> str:
    """The message of the one scenario of a file, which must fail."""
    path = tmp_path / f"check_{next(_counter)}.yaml"
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    [outcome] = check_paths([str(path)])
    assert not outcome.passed
    return outcome.message


@pytest.fixture
def plugin(tmp_path, monkeypatch):
    """Write a plugin module (the source is dedented); its importable name and its file."""
    return plugin_maker(tmp_path, monkeypatch, "lb_author")


# --------------------------------------------------------------------------- scenario checks

def test_a_decision_and_a_status_are_worded_as_the_file_writes_them(tmp_path):
    """Not ``got <Kind.TURN: 'turn'>``: the word the author would write under ``decisions``."""
    message = failure(tmp_path, f"""\
        setup: {{seats: {FOUR}, phase: action}}
        expect:
          decisions: {{the_captain: fight, the_kid: turn}}
          status: {{the_kid: dead}}
          pending: [the_kid]
          navigation: [nav-19]
        """)
    assert "decision of the_captain: expected fight, got turn" in message
    assert "decision of the_kid: expected turn, got no decision pending" in message
    assert "status of the_kid: expected dead, got awake" in message
    assert "pending: expected [the_kid], got [the_captain]" in message
    assert "navigation: expected [nav-19], got []" in message
    assert "Kind" not in message and "'" not in message


def events(expected: str) -> str:
    """A scenario in which the Captain is thirsty, expecting those events."""
    return f"""\
        setup:
          seats: {FOUR}
          navigation: [{{id: sun, thirst: [the_captain]}}]
          phase: navigation
        expect:
          events: {expected}
        """


def test_a_missing_event_is_shown_with_the_nearest_logged_one(tmp_path):
    message = failure(tmp_path, events(
        "[{type: damage, character: the_captain, amount: 2}]"))
    assert message.startswith("events: no {type: damage, character: the_captain, amount: 2} in order")
    # the Captain's thirst: 1 damage, not 2 (the field that differs, and where it is in the log)
    assert ("nearest: event 7 {type: damage, character: the_captain, amount: 1, cause: thirst} "
            "(amount 1, not 2)") in message


def test_the_nearest_events_are_those_with_the_most_fields_equal(tmp_path):
    message = failure(tmp_path, events(
        "[{type: move, card: sun, from: navigation, to: current}]"))
    nearest = message.split("nearest: ")[1]
    # two moves of the card share three fields with it: both shown, the third move not
    assert "event 3 {type: move, card: sun, from: navigation, to: rowing_pile} (to rowing_pile, not current)" in nearest
    assert "event 8" not in nearest
    assert "event 4 {type: move, card: sun, from: rowing_pile, to: current} (from rowing_pile, not navigation)" in nearest


def test_an_event_logged_only_before_the_one_matched_ahead_of_it_is_said_so(tmp_path):
    message = failure(tmp_path, events(
        "[{type: turn, character: the_captain}, {type: damage, character: the_captain}]"))
    assert "the log's damage events all come before event 10" in message
    assert "event 7 {type: damage, character: the_captain, amount: 1, cause: thirst}" in message


def test_an_event_type_the_log_lacks_lists_the_types_it_has(tmp_path):
    message = failure(tmp_path, events("[{type: damages, character: the_captain}]"))
    assert "the log has no damages event (its types: setup, phase, move, navigation, thirst, damage, turn)" in message


def test_a_misspelt_id_in_a_check_is_named_with_the_near_ids(tmp_path):
    """A check naming a provision kind, a navigation card or a character the game does not
    know says so, with the near ids (as the ruleset's messages do), rather than comparing."""
    message = failure(tmp_path, f"""\
        setup:
          seats: {FOUR}
          hand: {{the_kid: [water]}}
          navigation: [{{id: sun}}]
          phase: action
        expect:
          hand: {{the_kid: [watr]}}
          discard: [knif]
          navigation: [sunn]
          damage: {{the_kidd: 0}}
        """)
    assert "hand of the_kid: unknown provision 'watr'; did you mean 'water'?" in message
    assert "discard: unknown provision 'knif'; did you mean 'knife'?" in message
    assert "navigation: unknown navigation card 'sunn'; did you mean 'sun'?" in message
    assert "'the_kidd' is not a character in play; did you mean 'the_kid'?" in message
    assert "expected" not in message          # a misspelt id is not compared


def test_a_navigation_card_of_the_content_is_no_misspelling(tmp_path):
    message = failure(tmp_path, f"""\
        setup: {{seats: {FOUR}, phase: action}}
        expect: {{navigation: [nav-19]}}
        """)
    assert message.startswith("navigation: expected [nav-19], got []")


def test_a_misspelt_card_in_the_setup_or_a_step_is_named_with_the_near_ids(tmp_path):
    """The audit's own cases: ``harpon`` in a hand or a step, ``nav-43`` in the deck."""
    message = failure(tmp_path, f"""\
        setup:
          seats: {FOUR}
          hand: {{the_kid: [watr]}}
          supply: [knif]
          navigation: [nav-43]
          phase: action
        """)
    assert "unknown provision 'watr'; did you mean 'water'?" in message
    assert "unknown provision 'knif'; did you mean 'knife'?" in message
    assert "unknown navigation card 'nav-43'; did you mean " in message
    message = failure(tmp_path, f"""\
        setup: {{seats: {FOUR}, hand: {{the_kid: [water]}}, phase: action}}
        steps:
          - {{by: the_kid, type: use, card: watr}}
        """)
    assert "unknown card 'watr' (a card id or a provision kind); did you mean 'water'?" in message


# --------------------------------------------------------------------------- plugins

SCORE_PARTS = """\
    from lifeboat_rules import hookimpl


    @hookimpl(wrapper=True)
    def lifeboat_score(game, character):
        parts = yield
        parts["bonus"] = {bonus}
        return parts
    """

OVER = {"seats": ["lady_lauren", "the_kid", "frenchy"],
        "damage": {"lady_lauren": 4, "the_kid": 3, "frenchy": 6},
        "navigation": [{"id": "calm"}, {"id": "breeze"}], "phase": "navigation"}


def _refused_answer(name: str) -> HookAnswerError:
    with pytest.raises(PluginError) as info:
        lr.new_game({"plugins": [name]}, setup=OVER)    # the game ends at once: scored
    cause = info.value.__cause__
    assert isinstance(cause, HookAnswerError)
    return cause


def test_a_refused_answer_is_shown_whole_at_the_line_of_the_def(plugin):
    """The audit read ``answered {'survival': 8, ..., 'bon...`` (the wrong part cut off) and
    the line of ``@hookimpl``."""
    name, path = plugin(SCORE_PARTS.format(bonus="1.5"))
    cause = _refused_answer(name)
    assert "answered {'survival': 8, 'treasure': 0, 'love': 0, 'hate': 0, 'bonus': 1.5} as" in str(cause)
    assert origin(cause) == f" ({path}, line 5)"          # the def, past @hookimpl on line 4


def test_a_very_long_refused_answer_is_cut_at_200_characters(plugin):
    name, _ = plugin(SCORE_PARTS.format(bonus="'x' * 1000"))
    said = str(_refused_answer(name)).split("answered ", 1)[1]
    answer = said[:said.index("...") + 3]
    assert len(answer) == 200 and answer.startswith("{'survival': 8")


def test_a_plugin_that_imports_a_missing_module_names_the_line_of_that_import(plugin):
    name, path = plugin("""\
        from lifeboat_rules import hookimpl
        import lb_author_module_that_is_not_installed
        """)
    with pytest.raises(lr.ContentError) as info:
        lr.load_ruleset({"plugins": [name]})
    assert info.value.path == "plugins[0]"
    assert (f"plugin {name!r} cannot be imported ({name}): ModuleNotFoundError in {path}, line 2: "
            "No module named 'lb_author_module_that_is_not_installed'") in str(info.value)


def test_a_plugin_that_is_not_there_is_still_an_unknown_name(plugin):
    """The missing module is the plugin itself: no file to point at, the known names instead."""
    with pytest.raises(lr.ContentError, match="unknown plugin 'lb_author_no_such_plugin'"):
        lr.load_ruleset({"plugins": ["lb_author_no_such_plugin"]})
