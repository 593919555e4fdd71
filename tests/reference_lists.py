"""The *Checked by:* lists of the rules reference (docs/rules.md), made from what cites each
ruling: the scenarios under tests/scenarios/ (their ``rules:`` lists) and the Python tests
marked ``@pytest.mark.rule(...)``.

``tests/test_rule_coverage.py`` fails when a list in docs/rules.md is not the one made here;
``python tests/reference_lists.py`` rewrites them in place.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

from lifeboat_rules.scenario import load_file, scenario_files

TESTS = Path(__file__).parent
SCENARIOS = TESTS / "scenarios"
RULES_MD = TESTS.parent / "docs" / "rules.md"

HEADING = re.compile(r"^#{2,4} (R-[A-Z0-9-]+)\b")
MARKED = re.compile(r"""@pytest\.mark\.rule\(\s*["'](R-[A-Z0-9-]+)["']\s*\)""")
DEF = re.compile(r"^\s*def (test_\w+)", re.M)
CHECKED = "*Checked by:*"


def citations() -> dict[str, list[tuple[str, list[str]]]]:
    """Rule id -> [(place, [names])]: marked Python tests by file, then scenarios by file."""
    found: dict[str, dict[str, list[str]]] = {}
    for path in sorted(TESTS.glob("test_*.py")):
        text = path.read_text(encoding="utf-8")
        for match in MARKED.finditer(text):
            test = DEF.search(text, match.end())
            if test is not None:
                names = found.setdefault(match.group(1), {}).setdefault(f"tests/{path.name}", [])
                names.append(f"`{test.group(1)}`")
    for path in sorted(scenario_files([str(SCENARIOS)])):
        place = Path(path).relative_to(SCENARIOS).as_posix()
        for scenario in load_file(path):
            for rule in scenario.data.get("rules", []):
                names = found.setdefault(rule, {}).setdefault(place, [])
                names.append(f"*{scenario.name}*")
    return {rule: list(places.items()) for rule, places in found.items()}


def lines_for(rule: str, cited: dict) -> list[str]:
    # test names are joined by commas, scenario names (which may hold commas) by semicolons
    return [f"- `{place}`: {(', ' if place.startswith('tests/') else '; ').join(names)}"
            for place, names in cited.get(rule, [])]


def rewritten(text: str, cited: dict) -> str:
    """docs/rules.md with every ruling's *Checked by:* list made anew."""
    out: list[str] = []
    rule = None
    lines = text.split("\n")
    i = 0
    while i < len(lines):
        line = lines[i]
        heading = HEADING.match(line)
        if heading:
            rule = heading.group(1)
        elif line.startswith("#"):
            rule = None
        out.append(line)
        i += 1
        if line == CHECKED and rule is not None:
            # skip the old list (a blank line, then "- " items), write the new one
            while i < len(lines) and (lines[i] == "" or lines[i].startswith("- ")):
                if lines[i] == "" and i + 1 < len(lines) and not lines[i + 1].startswith("- "):
                    break
                i += 1
            out.append("")
            out.extend(lines_for(rule, cited))
    return "\n".join(out)


def main() -> int:
    text = RULES_MD.read_text(encoding="utf-8")
    new = rewritten(text, citations())
    if new != text:
        RULES_MD.write_text(new, encoding="utf-8")
        print(f"rewrote the Checked by lists of {RULES_MD.name}")
    else:
        print(f"the Checked by lists of {RULES_MD.name} are current")
    return 0


if __name__ == "__main__":
    sys.exit(main())
