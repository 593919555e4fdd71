"""The docs say what runs: the package is installed from a checkout (`pip install '.[lab]'`),
never `pip install lifeboat-rules[...]` as if it were on PyPI, in the docs, the README and every
command-line hint; the ruleset tables of docs/house-rules.md list every built-in ruleset."""

from __future__ import annotations

import pathlib
import re

from lifeboat_rules.rulesets import builtin_rulesets

ROOT = pathlib.Path(__file__).resolve().parent.parent
PYPI_STYLE = re.compile(r"pip install ['\"]?lifeboat-rules\b|lifeboat-rules\[")


def shipped_text_files():
    yield ROOT / "README.md"
    yield from sorted((ROOT / "docs").rglob("*.md"))
    for folder in ("lifeboat_rules", "expansions", "benchmarks"):
        for path in sorted((ROOT / folder).rglob("*")):
            if path.suffix in {".py", ".md", ".yaml", ".html", ".js", ".txt"}:
                yield path


def test_nothing_tells_to_install_the_package_from_pypi():
    found = [f"{path.relative_to(ROOT)}:{number}: {line.strip()}"
             for path in shipped_text_files()
             for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
             if PYPI_STYLE.search(line)]
    assert not found, "\n".join(found)


def test_the_readme_says_the_package_is_installed_from_a_checkout():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "it is not on PyPI" in readme and "pip install '.[lab]'" in readme


def test_the_ruleset_table_lists_every_builtin_ruleset():
    page = (ROOT / "docs" / "house-rules.md").read_text(encoding="utf-8")
    table = page[page.index("| built-in ruleset |"):]
    table = table[:table.index("\n\n")]
    listed = re.findall(r"^\| `([a-z_]+)` \|", table, flags=re.M)
    assert listed and sorted(listed) == builtin_rulesets()
