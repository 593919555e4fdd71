"""Tables a ruleset or a game works out once and the hot path reads (``Rules.kinds_with``,
``Rules.fields``, ``Rules.flat_actions``, ``Table.navcards_data``): each equals what it
stands for, worked out again from the content or the action types."""

from __future__ import annotations

import pytest

import lifeboat_rules as lr
from lifeboat_rules.actions import Domain

import invariants as inv

ATTRIBUTES = ["quenches", "weapon", "chum", "preserver", "rowing_draws", "navigation_draws"]


@pytest.mark.parametrize("spec", inv.ruleset_specs(), ids=inv.spec_name)
def test_the_tables_of_a_ruleset_say_what_the_content_and_types_say(spec):
    rules = inv.load(spec).rules
    provisions = rules.content.provisions
    for attribute in ATTRIBUTES:
        expected = {kind for kind, info in provisions.items() if getattr(info, attribute)}
        assert rules.kinds_with(attribute) == expected, attribute
        assert rules.kinds_with(attribute) == expected, attribute   # asked again: the same
    assert rules.kinds_with("weapon") == {k for k, i in provisions.items() if i.weapon > 0}
    for name, atype in rules.types.items():
        assert rules.fields[name] == {"by", "type"} | {p.name for p in atype.params}
        lists = [p for p in atype.params if p.domain in (Domain.PILE, Domain.CARDS)]
        assert (name in rules.flat_actions) == (not lists), name


def test_the_saved_navigation_cards_are_the_cards_data():
    game = lr.new_game("classic", players=4, seed=2)
    table = game.state.table
    saved = game.to_dict()["table"]["navcards"]
    assert list(saved) == sorted(table.navcards)
    for nid, card in table.navcards.items():
        expected = card.data()
        del expected["id"]
        assert saved[nid] == expected
    saved[next(iter(saved))]["overboard"] = "changed"   # a copy: the game keeps its own
    assert game.to_dict()["table"]["navcards"] != saved


@pytest.mark.parametrize("spec", inv.ruleset_specs(), ids=inv.spec_name)
def test_the_next_phase_is_the_one_after_it_in_the_round(spec):
    """``Rules.phase_after``: each phase of the round to the one registered after it, the last
    to None (a new round begins, R-NAV-4)."""
    rules = inv.load(spec).rules
    order = [phase for phase, _ in rules.phases]
    for index, phase in enumerate(order):
        assert rules.phase_after[phase] == (order[index + 1] if index + 1 < len(order) else None)
