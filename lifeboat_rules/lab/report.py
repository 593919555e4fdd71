"""The report folder of a study (``--report DIR``):

- ``summary.json``: the summary (docs/balance.md lists its keys);
- ``games.jsonl``: one JSON object per game and ruleset, in seed order;
- ``win_rates.png``, ``seats.png``, ``score_parts.png``, ``rounds.png``, ``ends.png`` (and
  ``differences.png`` for a comparison, ``restricted.png``, ``vary.png``, ``robust.png`` for
  the questions asked);
- ``index.html``: one self-contained page with the tables and the plots embedded.
"""

from __future__ import annotations

import base64
import html
import json
import pathlib

from .summary import all_part_names, compare_text, text

CAPTIONS = {
    "win_rates.png": "Win rate by character, with its 95% interval; the dashed line is an even "
                     "share of the wins.",
    "differences.png": "The paired difference of each character's win rate (B minus A) with its "
                       "95% interval; red where it is significant.",
    "seats.png": "Win rate by seat at the deal (0 is the bow), whoever sits there.",
    "rounds.png": "How many rounds the games lasted.",
    "ends.png": "How the games ended: landed (the fourth seagull), all dead, or adrift.",
    "restricted.png": "Restricted play: how much the restricted seat's win rate changes when it "
                      "never takes the restricted actions (unless nothing else is legal), "
                      "against the same seats free on the same seeds; red where significant.",
    "vary.png": "Win rate of each character for each value of the varied field, with 95% "
                "intervals; the dashed line is an even share.",
    "robust.png": "Win rate of each character with random, heuristic and search bots in every "
                  "seat; a star marks a character whose verdict (above, within or below an "
                  "even share) depends on the bots.",
}


class Rows:
    """Writes ``games.jsonl`` as the games come in."""

    def __init__(self, folder):
        self.folder = pathlib.Path(folder)
        self.folder.mkdir(parents=True, exist_ok=True)
        self.file = open(self.folder / "games.jsonl", "w", encoding="utf-8")

    def write(self, rows) -> None:
        for row in rows:
            self.file.write(json.dumps(row, separators=(",", ":")) + "\n")

    def close(self) -> None:
        self.file.close()


def write(folder, summary: dict) -> list:
    """Write the summary, the plots and the page; the paths written."""
    from .plots import all_plots       # matplotlib: the `lab` extra

    folder = pathlib.Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    written = [folder / "summary.json"]
    written[0].write_text(json.dumps(summary, indent=2) + "\n", encoding="utf-8")
    plots = all_plots(summary)
    for name, png in plots.items():
        (folder / name).write_bytes(png)
        written.append(folder / name)
    page = folder / "index.html"
    page.write_text(page_html(summary, plots), encoding="utf-8")
    written.append(page)
    return written


def page_html(summary: dict, plots: dict) -> str:
    """One HTML page, images embedded as data: URLs, that opens anywhere without the folder."""
    title = summary["ruleset"] + (f" against {summary['compare']['ruleset']}"
                                  if summary.get("compare") else "")
    tables = text(summary)
    if summary.get("compare"):
        tables = compare_text(summary) + "\n\n" + tables + "\n\n" + text(summary["compare"]["summary"])
    warning = "\n".join(f'<p class="warning"><b>Warning:</b> {html.escape(said)}.</p>'
                        for said in (summary.get("warning"),
                                     (summary.get("robust") or {}).get("warning")) if said)
    # the parts the games named: a plugin may add some to the base game's
    captions = {**CAPTIONS, "score_parts.png": "Mean score of each character, by part: "
                                               + ", ".join(all_part_names(summary)) + "."}
    figures = "\n".join(
        f'<figure><img alt="{html.escape(name)}" '
        f'src="data:image/png;base64,{base64.b64encode(png).decode("ascii")}">'
        f"<figcaption>{html.escape(captions.get(name, name))}</figcaption></figure>"
        for name, png in plots.items())
    methods = "\n".join(f"<li><b>{html.escape(k)}</b>: {html.escape(v)}</li>"
                        for k, v in summary["methods"].items())
    return f"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Lifeboat balance: {html.escape(title)}</title>
<style>
body {{ font-family: sans-serif; max-width: 70em; margin: 2em auto; padding: 0 1em; }}
pre {{ background: #f6f6f6; padding: 1em; overflow-x: auto; }}
figure {{ margin: 2em 0; }} img {{ max-width: 100%; }}
figcaption {{ color: #444; }}
.warning {{ background: #fff3cd; border: 1px solid #e0b400; padding: 0.6em 1em; }}
</style>
</head>
<body>
<h1>Lifeboat balance: {html.escape(title)}</h1>
{warning}
<p>Bots by seat (0 is the bow): {html.escape(", ".join(summary["bots"]))}{
    " (rotating a seat a game)" if summary["rotate"] else ""}.</p>
<pre>{html.escape(tables)}</pre>
{figures}
<h2>How the numbers are computed</h2>
<ul>
{methods}
</ul>
</body>
</html>
"""
