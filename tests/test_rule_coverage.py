"""Every ruling of docs/rules.md sections S, P and E is pinned by at least one scenario.

The ids are those of docs/rules.md: when it gains or loses a ruling, update the lists
here. A scenario cites a ruling in its ``rules:`` list.
The setup rulings that only a dealt game shows (scenarios start from explicit positions) are
checked by tests marked ``@pytest.mark.rule(...)`` in tests/test_setup.py instead.
"""

from __future__ import annotations

import functools
import re
from pathlib import Path

from lifeboat_rules.scenario import load_file, scenario_files

TESTS = Path(__file__).parent
SCENARIOS = TESTS / "scenarios"

SETUP_RULES = ["R-SETUP-1", "R-SETUP-2", "R-SETUP-3", "R-SETUP-4", "R-SETUP-5", "R-SETUP-6"]

ROUND_RULES = [
    "R-STATUS",
    "R-SUPPLY-1", "R-SUPPLY-2", "R-SUPPLY-3",
    "R-ACT-1", "R-ACT-2", "R-TRADE-1",
    "R-ROW-1", "R-ROW-2",
    "R-SWAP-1",
    "R-ROB-1", "R-ROB-2", "R-ROB-3", "R-ROB-4",
    "R-SPEC-1", "R-MED-1", "R-FLARE", "R-PARASOL",
    "R-FIGHT-1", "R-FIGHT-2", "R-FIGHT-3", "R-FIGHT-4", "R-FIGHT-5",
    "R-NAV-1", "R-NAV-2", "R-NAV-3", "R-GULL-1", "R-NAV-4",
    "R-OVER-1", "R-OVER-2", "R-OVER-3", "R-OVER-4", "R-OVER-5",
    "R-THIRST-1", "R-THIRST-2", "R-THIRST-3",
    "R-WIN-1", "R-WIN-2",
    "R-PLAY-1", "R-PLAY-2", "R-PRESERVER",
]

END_RULES = ["R-END-1", "R-END-2", "R-SCORE-1", "R-SCORE-2", "R-SCORE-3", "R-SCORE-4",
             "R-SCORE-5", "R-SCORE-6", "R-SCORE-7", "R-SCORE-8"]

BASE_RULES = SETUP_RULES + ROUND_RULES + END_RULES

# Section X (expansion and variants). Section O (ruleset options) has no ids of its own: its
# options are pinned by the scenarios of the rulings they change (R-ACT-1, R-SWAP-1, R-ROW-1,
# R-ROW-2). X is covered by the expansion scenarios (tests/scenarios/expansions).
EXPANSION_RULES = ["R-CANN-1", "R-CANN-2", "R-CANN-3", "R-SHARK-1", "R-SHARK-2", "R-QUICK-1",
                   "R-ROW-SC"]

ALL_RULES = BASE_RULES + EXPANSION_RULES

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


def test_the_lists_are_sound():
    assert len(set(ALL_RULES)) == len(ALL_RULES)
    assert DEALT_ONLY <= set(SETUP_RULES)
    assert len(BASE_RULES) == 57


def test_every_base_ruling_is_cited_by_a_scenario():
    cited = scenario_citations()
    missing = [rule for rule in BASE_RULES if rule not in DEALT_ONLY and rule not in cited]
    assert not missing, f"rulings of docs/rules.md S, P, E cited by no scenario: {missing}"


def test_dealt_setup_rulings_are_checked_by_marked_tests():
    marked = marked_tests()
    missing = sorted(rule for rule in DEALT_ONLY if rule not in marked)
    assert not missing, f"setup rulings with no @pytest.mark.rule test: {missing}"


def test_scenarios_cite_only_rulings_that_exist():
    unknown = {rule: names for rule, names in scenario_citations().items()
               if rule not in ALL_RULES}
    assert not unknown, f"scenarios cite rulings docs/rules.md does not have: {unknown}"


def test_every_expansion_ruling_is_cited_by_a_scenario():
    cited = scenario_citations()
    missing = [rule for rule in EXPANSION_RULES if rule not in cited]
    assert not missing, f"rulings of docs/rules.md X cited by no scenario: {missing}"
