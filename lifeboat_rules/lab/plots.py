"""The study's plots as PNG bytes (matplotlib, from the ``lab`` extra), drawn from a summary
alone: win rates with their intervals, score parts, game length, end causes, and for a
comparison the paired differences; for the questions asked, the restricted seat's change, the
win rates by value of a varied field, and the win rates under each kind of seat.

Characters are labelled by name (``summary["names"]``), and legends sit beside the axes, where
they cover no bar."""

from __future__ import annotations

import io
import itertools

from matplotlib.figure import Figure    # no pyplot: no global state, no display needed

from .summary import all_part_names

COLOURS = ("#1f77b4", "#ff7f0e", "#2ca02c", "#9467bd", "#8c564b", "#e377c2", "#17becf")
BOT_COLOURS = {"random": "#7f7f7f", "heuristic": "#1f77b4", "search": "#d62728"}
PART_COLOURS = {"survival": "#2ca02c", "treasure": "#bcbd22", "love": "#e377c2", "hate": "#7f7f7f"}
# the parts a plugin adds, in turn: none of the base game's colours
PLUGIN_PART_COLOURS = ("#17becf", "#ff7f0e", "#9467bd", "#8c564b", "#d62728", "#1f77b4")


def _png(figure: Figure) -> bytes:
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", dpi=100, bbox_inches="tight")
    return buffer.getvalue()


def _named(summary: dict, characters) -> list:
    names = summary.get("names", {})
    return [names.get(c, c) for c in characters]


def _legend(ax) -> None:
    """The legend beside the axes, on the right: it covers no bar."""
    ax.legend(fontsize="small", loc="upper left", bbox_to_anchor=(1.01, 1.0), borderaxespad=0)


def _summaries(summary: dict) -> list:
    compared = summary.get("compare")
    return [summary] + ([compared["summary"]] if compared else [])


def _label(s: dict, index: int) -> str:
    """A ruleset's name, with A or B when two are compared (they may have the same name)."""
    if "compare" in s and index == 0:
        return f"{s['ruleset']} (A)"
    return s["ruleset"] if index == 0 else f"{s['ruleset']} (B)"


def _rates(ax, names: list, summaries: list, key, title: str, players: int,
           labels: list | None = None, series: list | None = None, colours=COLOURS) -> None:
    """Bars of win rates with their intervals, one series a summary, one group a name."""
    width = 0.8 / len(summaries)
    for i, s in enumerate(summaries):
        entries = [key(s).get(n) for n in names]
        xs = [j + (i - (len(summaries) - 1) / 2) * width for j in range(len(names))]
        rates = [e["rate"] if e else 0 for e in entries]
        # max(0, ...): an interval's end may differ from the rate by a rounding error
        low = [max(0.0, e["rate"] - e["ci95"][0]) if e else 0 for e in entries]
        high = [max(0.0, e["ci95"][1] - e["rate"]) if e else 0 for e in entries]
        ax.bar(xs, rates, width, yerr=[low, high], capsize=3, color=colours[i % len(colours)],
               label=series[i] if series else _label(s, i))
    ax.axhline(1 / players, color="black", linestyle="--", linewidth=1,
               label=f"even share (1/{players})")
    ax.set_xticks(range(len(names)), labels or names, rotation=30, ha="right")
    ax.set_ylabel("win rate (95% interval)")
    ax.set_title(title)
    _legend(ax)


def win_rates(summary: dict) -> bytes:
    summaries = _summaries(summary)
    names = list(dict.fromkeys(c for s in summaries for c in s["wins"]))
    figure = Figure(figsize=(max(6, 1.1 * len(names)), 4))
    _rates(figure.subplots(), names, summaries, lambda s: s["wins"],
           "Win rate by character", summary["players"], labels=_named(summary, names))
    return _png(figure)


def seats(summary: dict) -> bytes:
    summaries = _summaries(summary)
    bots = summary["bots"]
    names = [str(e["seat"]) for e in summary["by_seat"]]
    labels = names if len(set(bots)) == 1 else [f"{n}\n{bots[int(n)]}" for n in names]
    figure = Figure(figsize=(max(6, 0.9 * len(names)), 4))
    ax = figure.subplots()
    _rates(ax, names, summaries, lambda s: {str(e["seat"]): e for e in s["by_seat"]},
           "Win rate by seat at the deal (0 = bow)", summary["players"])
    ax.set_xticks(range(len(names)), labels, rotation=0, ha="center")
    return _png(figure)


def score_parts(summary: dict) -> bytes:
    summaries = _summaries(summary)
    figure = Figure(figsize=(max(6, 1.1 * len(summary["parts"])) * len(summaries), 4))
    axes = figure.subplots(1, len(summaries), sharey=True, squeeze=False)[0]
    # the parts of both rulesets, in one order and colour each, so that one legend serves
    parts = all_part_names(summary)
    added = itertools.cycle(PLUGIN_PART_COLOURS)
    colours = {part: PART_COLOURS.get(part) or next(added) for part in parts}
    for ax, s, i in zip(axes, summaries, range(len(summaries))):
        names = list(s["parts"])
        bottom = [0.0] * len(names)
        for part in parts:
            values = [s["parts"][n].get(part, 0) for n in names]
            ax.bar(range(len(names)), values, 0.7, bottom=bottom, label=part,
                   color=colours[part])
            bottom = [b + v for b, v in zip(bottom, values)]
        ax.set_xticks(range(len(names)), _named(summary, names), rotation=30, ha="right")
        ax.set_title(f"Mean score by part: {_label(s, i)}")
    axes[0].set_ylabel("points per game")
    _legend(axes[-1])
    return _png(figure)


def rounds(summary: dict) -> bytes:
    summaries = _summaries(summary)
    lengths = sorted({int(r) for s in summaries for r in s["rounds"]["histogram"]})
    figure = Figure(figsize=(7, 4))
    ax = figure.subplots()
    width = 0.8 / len(summaries)
    for i, s in enumerate(summaries):
        histogram = s["rounds"]["histogram"]
        xs = [r + (i - (len(summaries) - 1) / 2) * width for r in lengths]
        ax.bar(xs, [histogram.get(str(r), 0) / s["games"] for r in lengths], width,
               color=COLOURS[i], label=f"{_label(s, i)}: mean {s['rounds']['mean']:.2f}")
    ax.set_xlabel("rounds")
    ax.set_ylabel("share of games")
    ax.set_title("Game length")
    _legend(ax)
    return _png(figure)


def ends(summary: dict) -> bytes:
    summaries = _summaries(summary)
    causes = list(dict.fromkeys(e for s in summaries for e in s["ends"]))
    figure = Figure(figsize=(6, 4))
    ax = figure.subplots()
    width = 0.8 / len(summaries)
    for i, s in enumerate(summaries):
        xs = [j + (i - (len(summaries) - 1) / 2) * width for j in range(len(causes))]
        ax.bar(xs, [s["ends"].get(e, 0) / s["games"] for e in causes], width, color=COLOURS[i],
               label=_label(s, i))
    ax.set_xticks(range(len(causes)), causes)
    ax.set_ylabel("share of games")
    ax.set_title("How the games ended")
    _legend(ax)
    return _png(figure)


def differences(summary: dict) -> bytes:
    compared = summary["compare"]
    names = [c for c, d in compared["difference"].items() if d["difference"] is not None]
    figure = Figure(figsize=(7, max(3, 0.5 * len(names) + 1)))
    ax = figure.subplots()
    _difference_bars(ax, [compared["difference"][name] for name in names])
    ax.set_yticks(range(len(names)), _named(summary, names))
    ax.invert_yaxis()
    ax.set_xlabel(f"win rate {compared['ruleset']} minus {summary['ruleset']}, points "
                  "(95% interval; red: significant)")
    ax.set_title("Paired difference by character")
    return _png(figure)


def _difference_bars(ax, differences: list) -> None:
    """One row per paired difference (in points, with its 95% interval; red where it is
    significant), and the line of no difference."""
    for y, d in enumerate(differences):
        lo, hi = d["ci95"]
        colour = "#d62728" if d["significant"] else "#555555"
        below, above = max(0.0, d["difference"] - lo), max(0.0, hi - d["difference"])
        ax.errorbar([100 * d["difference"]], [y], xerr=[[100 * below], [100 * above]],
                    fmt="o", color=colour, capsize=4)
    ax.axvline(0, color="black", linewidth=1)


def restricted(summary: dict) -> bytes:
    """The restricted seat's change of win rate, over all seats and by character."""
    r = summary["restricted"]
    entries = [("any seat", r)] + [(summary.get("names", {}).get(c, c), d)
                                   for c, d in r["by_character"].items()]
    entries = [(n, d) for n, d in entries if d["difference"] is not None]
    figure = Figure(figsize=(7, max(3, 0.5 * len(entries) + 1)))
    ax = figure.subplots()
    _difference_bars(ax, [d for _, d in entries])
    ax.set_yticks(range(len(entries)), [n for n, _ in entries])
    ax.invert_yaxis()
    ax.set_xlabel("win rate restricted minus free, points (95% interval; red: significant)")
    ax.set_title(f"What {', '.join(r['actions'])} is worth to a seat (restricted play)")
    return _png(figure)


def vary(summary: dict) -> bytes:
    """Win rate of each character against the value of the varied field."""
    v = summary["vary"]
    values = v["values"]
    names = list(dict.fromkeys(c for entry in values for c in entry["wins"]))
    figure = Figure(figsize=(8, 4.5))
    ax = figure.subplots()
    xs = list(range(len(values)))
    for i, c in enumerate(names):
        offset = (i - (len(names) - 1) / 2) * 0.04       # whiskers side by side, not on top
        points = [(x + offset, e["wins"][c]) for x, e in zip(xs, values) if c in e["wins"]]
        rates = [w["rate"] for _, w in points]
        low = [max(0.0, w["rate"] - w["ci95"][0]) if "ci95" in w else 0 for _, w in points]
        high = [max(0.0, w["ci95"][1] - w["rate"]) if "ci95" in w else 0 for _, w in points]
        ax.errorbar([x for x, _ in points], rates, yerr=[low, high], marker="o", capsize=3,
                    color=COLOURS[i % len(COLOURS)], label=_named(summary, [c])[0])
    ax.axhline(1 / summary["players"], color="black", linestyle="--", linewidth=1,
               label=f"even share (1/{summary['players']})")
    ax.set_xticks(xs, [str(e["value"]) for e in values])
    ax.set_xlabel(v["path"])
    ax.set_ylabel("win rate (95% interval)")
    ax.set_title(f"Win rate by {v['path']}")
    _legend(ax)
    return _png(figure)


def robust(summary: dict) -> bytes:
    """Win rate by character under each kind of seat."""
    r = summary["robust"]
    names = list(r["verdicts"])
    studies = [{"wins": r["wins"][k]} for k in r["bots"]]
    figure = Figure(figsize=(max(7, 1.2 * len(names)), 4))
    labels = [n + ("" if r["verdicts"][c]["same"] else " *")
              for c, n in zip(names, _named(summary, names))]
    _rates(figure.subplots(), names, studies, lambda s: s["wins"],
           "Win rate by kind of seat (* the verdict depends on the bots)", summary["players"],
           labels=labels, series=[f"{k} ({r['games'][k]:,} games)" for k in r["bots"]],
           colours=[BOT_COLOURS.get(k, "#555555") for k in r["bots"]])
    return _png(figure)


def all_plots(summary: dict) -> dict:
    """File name -> PNG bytes."""
    plots = {"win_rates.png": win_rates(summary), "seats.png": seats(summary),
             "score_parts.png": score_parts(summary), "rounds.png": rounds(summary),
             "ends.png": ends(summary)}
    if summary.get("compare"):
        plots["differences.png"] = differences(summary)
    if summary.get("restricted"):
        plots["restricted.png"] = restricted(summary)
    if summary.get("vary"):
        plots["vary.png"] = vary(summary)
    if summary.get("robust"):
        plots["robust.png"] = robust(summary)
    return plots
