"""A study's summary (what ``summary.json`` holds) and its tables on screen."""

from __future__ import annotations

from .failures import failure_text
from .tally import PARTS, Count, Pairs, Tally

METHODS = {
    "win share": "each of k tied winners wins 1/k of the game; the wins of all characters add "
                 "up to the number of games",
    "ci95": "Wilson score interval of the win shares (statsmodels proportion_confint, "
            "method='wilson')",
    "difference": "paired by seed: mean per-game difference of the win share (B - A), 95% "
                  "interval and p-value of the paired t-test (scipy ttest_rel); p_holm: "
                  "Holm-adjusted over the characters (statsmodels multipletests)",
    "seats": "seat 0 is the bow at the deal; bots are listed per seat in deal order, cycled",
    "failed": "games a plugin stopped (simulate --keep-going): counted apart and left out of "
              "every other number; each with its seed, round, action and replay command",
}
MAX_FAILURES_LISTED = 20     # failed games described in full (all are counted)


def _stats(intervals: bool):
    if not intervals:
        return None
    from . import stats
    return stats


def _entry(tally: Tally, count: Count, stats) -> dict:
    wins = tally.wins(count)
    entry = {"games": count.games, "wins": wins,
             "rate": wins / count.games if count.games else None}
    if stats is not None:
        entry["ci95"] = stats.wilson(wins, count.games)
    return entry


def summarize(plan, tally: Tally, index: int = 0, intervals: bool = True) -> dict:
    """The summary of one ruleset's games (``intervals``: with 95% intervals, which need the
    ``lab`` extra)."""
    stats = _stats(intervals)
    dealt = [c for c, count in tally.characters.items() if count.games]
    games = tally.games
    return {
        "games": games,
        "ruleset": plan.names[index],
        "players": plan.players,
        "seed": plan.seed,
        "bots": list(plan.bots),
        "rotate": plan.rotate,
        "wins": {c: _entry(tally, tally.characters[c], stats) for c in dealt},
        "scores": {c: tally.scores[c] / tally.characters[c].games for c in dealt},
        "parts": {c: {part: tally.parts[c].get(part, 0) / tally.characters[c].games
                      for part in PARTS} for c in dealt},
        "by_seat": [{"seat": j, **_entry(tally, count, stats)} for j, count in enumerate(tally.seats)],
        "by_bot": {name: _entry(tally, count, stats) for name, count in tally.bots.items()},
        "rounds": {"mean": sum(r * n for r, n in tally.rounds.items()) / games if games else None,
                   "histogram": {str(r): tally.rounds[r] for r in sorted(tally.rounds)}},
        "ends": dict(tally.ends),
        "decisions": {"mean": tally.decisions / games if games else None},
        "failed": {"games": len(tally.failed), "first": tally.failed[:MAX_FAILURES_LISTED]},
        "methods": METHODS,
    }


def compare(plan, tally: Tally, pairs: Pairs) -> dict:
    """The second ruleset's summary and, per character, the paired difference of win rates."""
    from . import stats
    differences = {c: stats.paired(*pairs.shares[c]) for c in plan.order if c in pairs.shares}
    adjusted = stats.holm([d["p"] for d in differences.values()])
    for entry, p in zip(differences.values(), adjusted):
        entry["p_holm"] = p
    return {"ruleset": plan.names[1], "summary": summarize(plan, tally, 1),
            "difference": differences}


# --- on screen -------------------------------------------------------------------------------

def _percent(x) -> str:
    return "-" if x is None else f"{100 * x:.1f}%"


def _interval(entry) -> str:
    ci = entry.get("ci95")
    return "" if not ci else f"{100 * ci[0]:.1f}-{100 * ci[1]:.1f}%"


def _table(header: list, rows: list) -> list:
    widths = [max(len(str(x)) for x in column) for column in zip(header, *rows)]
    lines = []
    for row in [header, *rows]:
        cells = [str(x).ljust(w) if i == 0 else str(x).rjust(w)
                 for i, (x, w) in enumerate(zip(row, widths))]
        lines.append("  ".join(cells).rstrip())
    return lines


def _wins(label: str, entries: dict) -> list:
    intervals = any("ci95" in e for e in entries.values())
    rows = [[name, e["games"], f"{e['wins']:.1f}", _percent(e["rate"])]
            + ([_interval(e)] if intervals else []) for name, e in entries.items()]
    return _table([label, "games", "wins", "rate"] + (["95% interval"] if intervals else []), rows)


def text(summary: dict) -> str:
    """The summary as a person reads it: tables of win rates, scores, rounds and ends."""
    games = summary["games"]
    seeds = f"seed {summary['seed']}" if games == 1 else \
        f"seeds {summary['seed']}-{summary['seed'] + games - 1}"
    rotate = ", rotating a seat a game" if summary["rotate"] else ""
    lines = [f"{summary['ruleset']}: {games:,} game(s), {summary['players']} players, {seeds}, "
             f"bots {','.join(summary['bots'])}{rotate}", ""]
    intervals = any("ci95" in e for e in summary["wins"].values())
    rows = []
    for c, e in summary["wins"].items():
        parts = summary["parts"][c]
        rows.append([c, e["games"], f"{e['wins']:.1f}", _percent(e["rate"])]
                    + ([_interval(e)] if intervals else [])
                    + [f"{summary['scores'][c]:.2f}", *(f"{parts[p]:.2f}" for p in PARTS)])
    lines += _table(["character", "games", "wins", "rate"] + (["95% interval"] if intervals else [])
                    + ["score", *PARTS], rows)
    lines.append("")
    lines += _wins("seat", {str(e["seat"]): e for e in summary["by_seat"]})
    if len(summary["by_bot"]) > 1:
        lines.append("")
        lines += _wins("bot", summary["by_bot"])
    rounds = summary["rounds"]
    lengths = [int(r) for r in rounds["histogram"]]
    lines.append("")
    if games:    # (none when a plugin stopped every game: --keep-going)
        lines.append(f"rounds: mean {rounds['mean']:.2f}, {min(lengths)} to {max(lengths)}; "
                     f"decisions per game: {summary['decisions']['mean']:.1f}")
        lines.append("ends: " + ", ".join(f"{end} {n:,} ({_percent(n / games)})"
                                          for end, n in summary["ends"].items()))
    lines += failed_text(summary)
    return "\n".join(lines)


def failed_text(summary: dict) -> list:
    """The games a plugin stopped, with the first one's replay command."""
    failed = summary.get("failed") or {}
    if not failed.get("games"):
        return []
    seeds = ", ".join(str(f["seed"]) for f in failed["first"])
    more = ", ..." if failed["games"] > len(failed["first"]) else ""
    lines = [f"failed: {failed['games']:,} game(s) stopped by a plugin error, left out of the "
             f"numbers above (seeds {seeds}{more})", f"  first: {failure_text(failed['first'][0])}"]
    return lines


def compare_text(summary: dict) -> str:
    """The paired comparison as a table."""
    a, b = summary["ruleset"], summary["compare"]["ruleset"]
    rows = []
    for c, d in summary["compare"]["difference"].items():
        diff = d["difference"]
        rows.append([c, d["pairs"], _percent(d["rate_a"]), _percent(d["rate_b"]),
                     "-" if diff is None else f"{100 * diff:+.1f}",
                     "" if not d["ci95"] else f"{100 * d['ci95'][0]:+.1f} to {100 * d['ci95'][1]:+.1f}",
                     "-" if d["p"] is None else f"{d['p']:.3g}",
                     "-" if d["p_holm"] is None else f"{d['p_holm']:.3g}",
                     "yes" if d["significant"] else "no"])
    lines = [f"{a} (A) against {b} (B), paired on the same seeds and seats: win rate by character, "
             "difference B - A in points", ""]
    lines += _table(["character", "pairs", "A", "B", "B - A", "95% interval", "p", "Holm p",
                     "significant"], rows)
    other = summary["compare"]["summary"]
    lines.append("")
    lines.append(f"rounds: mean {summary['rounds']['mean']:.2f} (A), {other['rounds']['mean']:.2f} (B); "
                 "ends A: " + ", ".join(f"{e} {n:,}" for e, n in summary["ends"].items())
                 + "; B: " + ", ".join(f"{e} {n:,}" for e, n in other["ends"].items()))
    return "\n".join(lines)
