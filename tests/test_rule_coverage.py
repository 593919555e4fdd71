"""Every ruling of the rules reference (docs/rules.md) is pinned by at least one scenario.

The ids are read from docs/rules.md itself (one heading per ruling), so a ruling added there
without a scenario fails here. A scenario cites a ruling in its ``rules:`` list. The setup
rulings that only a dealt game shows (scenarios start from explicit positions) are checked by
tests marked ``@pytest.mark.rule(...)`` in tests/test_setup.py instead.
"""

from __future__ import annotations

import functools
import re
from pathlib import Path

from lifeboat_rules.scenario import load_file, scenario_files

from reference_lists import citations, rewritten

TESTS = Path(__file__).parent
SCENARIOS = TESTS / "scenarios"

RULES_MD = TESTS.parent / "docs" / "rules.md"


def documented_rules() -> list[str]:
    """The ids of the rules reference, in its order: one heading per ruling
    (``### R-ROB-3 The robbery meets what is there``)."""
    text = RULES_MD.read_text(encoding="utf-8")
    return re.findall(r"^#{2,4} (R-[A-Z0-9-]+)\b", text, re.M)


ALL_RULES = documented_rules()

# Setup rulings about dealing, which an explicit position cannot show: checked by marked tests.
DEALT_ONLY = {"R-SETUP-1", "R-SETUP-3", "R-SETUP-5", "R-SETUP-6"}

MARKER = re.compile(r"""pytest\.mark\.rule\(\s*["'](R-[A-Z0-9-]+)["']\s*\)""")


@functools.lru_cache(maxsize=1)
def scenario_citations() -> dict[str, list[str]]:
    """Rule id -> names of the scenarios that cite it."""
    cited: dict[str, list[str]] = {}
    for path in scenario_files([str(SCENARIOS)]):
        for scenario in load_file(path):
            for rule in scenario.data.get("rules", []):
                cited.setdefault(rule, []).append(f"{Path(path).name}: {scenario.name}")
    return cited


def marked_tests() -> set[str]:
    """Rule ids named by ``@pytest.mark.rule(...)`` in the Python tests."""
    found = set()
    for path in TESTS.glob("test_*.py"):
        if path.name == Path(__file__).name:
            continue
        found.update(MARKER.findall(path.read_text(encoding="utf-8")))
    return found


def test_the_reference_has_every_ruling_once():
    assert len(set(ALL_RULES)) == len(ALL_RULES), "a ruling has two headings in docs/rules.md"
    # the sections every edition has: setup, status, each phase, windows, cards, the end
    for family in ("R-SETUP-", "R-STATUS", "R-SUPPLY-", "R-ACT-", "R-ROW-", "R-SWAP-", "R-ROB-",
                   "R-FIGHT-", "R-NAV-", "R-OVER-", "R-THIRST-", "R-WIN-", "R-PLAY-", "R-END-",
                   "R-SCORE-", "R-CANN-", "R-SHARK-"):
        assert any(rule.startswith(family) for rule in ALL_RULES), family
    assert DEALT_ONLY <= set(ALL_RULES)
    # the Liquid Courage expansion and Madame Wong (section X)
    assert {"R-LC-1", "R-LC-2", "R-LC-3", "R-WONG-1", "R-WONG-2", "R-LC-SCORE"} <= set(ALL_RULES)


def test_every_ruling_is_cited_by_a_scenario():
    cited = scenario_citations()
    missing = [rule for rule in ALL_RULES if rule not in DEALT_ONLY and rule not in cited]
    assert not missing, f"rulings of docs/rules.md cited by no scenario: {missing}"


def test_dealt_setup_rulings_are_checked_by_marked_tests():
    marked = marked_tests()
    missing = sorted(rule for rule in DEALT_ONLY if rule not in marked)
    assert not missing, f"setup rulings with no @pytest.mark.rule test: {missing}"


def test_scenarios_cite_only_rulings_that_exist():
    unknown = {rule: names for rule, names in scenario_citations().items()
               if rule not in ALL_RULES}
    assert not unknown, f"scenarios cite rulings docs/rules.md does not have: {unknown}"




def test_the_reference_lists_what_checks_each_ruling():
    # docs/rules.md's "Checked by" lists are exactly the scenarios and marked tests citing
    # each ruling (python tests/reference_lists.py rewrites them)
    text = RULES_MD.read_text(encoding="utf-8")
    assert rewritten(text, citations()) == text, \
        "docs/rules.md's Checked by lists are out of date: run python tests/reference_lists.py"
