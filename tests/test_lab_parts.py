"""Score parts a plugin adds (a ``lifeboat_score`` wrapper, docs/house-rules.md) in the balance
lab: the lab learns the parts from the games, so a part of a house rule's appears in the terminal
table, ``summary.json``, ``score_parts.png`` and ``index.html`` wherever the base game's four do
(docs/balance.md, sections 2 and 5).

An audit's house rule added a part ``grit`` that only ``games.jsonl`` showed: the lab had a fixed
list of the four parts of R-SCORE.
"""

from __future__ import annotations

import json
import statistics
import sys
import textwrap

import pytest

pytest.importorskip("statsmodels", reason="the balance lab's statistics need the lab extra "
                                          "(pip install -e '.[lab]'); CI installs it")

import lab_rigs  # noqa: E402
from lifeboat_rules.cli import main  # noqa: E402
from lifeboat_rules.lab import Plan, run  # noqa: E402
from lifeboat_rules.lab.summary import text  # noqa: E402

BASE_PARTS = ["survival", "treasure", "love", "hate"]

# grit for every player (the Captain's 3, the others' 1), a medal for the Kid alone
GRIT = """\
    from lifeboat_rules import hookimpl


    @hookimpl(wrapper=True)
    def lifeboat_score(game, character):
        parts = dict((yield))
        parts["grit"] = 3 if character == "the_captain" else 1
        if character == "the_kid":
            parts["medal"] = 2
        return parts
    """


@pytest.fixture
def gritty(tmp_path, monkeypatch) -> dict:
    """calm sea (lab_rigs.calm_sea: everyone survives, every base part is 0) with the grit
    plugin."""
    name = "lb_lab_grit"
    monkeypatch.syspath_prepend(str(tmp_path))
    (tmp_path / f"{name}.py").write_text(textwrap.dedent(GRIT))
    sys.modules.pop(name, None)
    return {**lab_rigs.calm_sea("gritty"), "plugins": [name]}


def means_by_hand(rows, character) -> dict:
    """The mean of each part of ``character`` over the rows, 0 where a game lacks it."""
    names = dict.fromkeys(p for row in rows for c in row["parts"] for p in row["parts"][c])
    return {p: statistics.fmean(row["parts"][character].get(p, 0) for row in rows) for p in names}


def test_a_part_a_plugin_adds_is_in_the_summary_and_its_table(gritty):
    rows = []
    summary = run(Plan.make(gritty, games=6, players=6), each=lambda r: rows.append(r[0]))
    assert rows[0]["parts"]["the_captain"]["grit"] == 3          # the plugin's part is played
    for character, parts in summary["parts"].items():
        # every part for every character, the base game's first, in the order the games name them
        assert list(parts) == BASE_PARTS + ["grit", "medal"]
        assert parts == pytest.approx(means_by_hand(rows, character))
    assert summary["parts"]["the_captain"]["grit"] == 3 and summary["parts"]["frenchy"]["medal"] == 0
    assert summary["parts"]["the_kid"]["medal"] == 2
    table = text(summary).splitlines()
    header = next(line for line in table if line.startswith("character"))
    assert header.split()[-6:] == BASE_PARTS + ["grit", "medal"]
    captain = next(line for line in table if line.startswith("The Captain"))
    assert captain.split()[-2:] == ["3.00", "0.00"]


def test_each_ruleset_compared_shows_its_own_parts(gritty):
    summary = run(Plan.make("classic", compare=gritty, games=4, players=6))
    assert list(summary["parts"]["the_kid"]) == BASE_PARTS
    assert list(summary["compare"]["summary"]["parts"]["the_kid"]) == BASE_PARTS + ["grit", "medal"]
    assert "grit" not in text(summary)
    assert "grit  medal" in text(summary["compare"]["summary"])


@pytest.mark.slow      # matplotlib's plots
def test_a_part_a_plugin_adds_is_in_the_report_its_plot_and_its_page(gritty, tmp_path, monkeypatch):
    pytest.importorskip("matplotlib")
    from lifeboat_rules.lab import plots

    legends = []
    draw = plots._png

    def png(figure):                  # each plot's legend, as drawn
        legends.append([t.get_text() for ax in figure.axes if ax.get_legend()
                        for t in ax.get_legend().get_texts()])
        return draw(figure)

    monkeypatch.setattr(plots, "_png", png)
    rig = lab_rigs.write(tmp_path, gritty)
    out = tmp_path / "out"
    assert main(["simulate", "--games", "4", "--ruleset", rig, "--compare", "classic",
                 "--report", str(out)]) == 0
    summary = json.loads((out / "summary.json").read_text())
    assert summary["parts"]["the_captain"]["grit"] == 3
    assert "grit" not in summary["compare"]["summary"]["parts"]["the_captain"]
    assert BASE_PARTS + ["grit", "medal"] in legends        # score_parts.png, both rulesets
    page = (out / "index.html").read_text()
    assert "by part: survival, treasure, love, hate, grit, medal." in page      # the caption
    assert "grit  medal" in page                                                   # the table
