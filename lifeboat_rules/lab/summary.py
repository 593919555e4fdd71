"""A study's summary (what ``summary.json`` holds) and its tables on screen."""

from __future__ import annotations

import textwrap

from .failures import failure_text
from .runner import seat_bots
from .tally import Count, Pairs, Restriction, Tally

METHODS = {
    "win share": "each of k tied winners wins 1/k of the game; the wins of all characters add "
                 "up to the number of games",
    "ci95": "Wilson score interval of the win shares (statsmodels proportion_confint, "
            "method='wilson')",
    "difference": "paired by seed: mean per-game difference of the win share (B - A), 95% "
                  "interval and p-value of the paired t-test (scipy ttest_rel); p_holm: "
                  "Holm-adjusted over the characters (statsmodels multipletests)",
    "seats": "seat 0 is the bow at the deal; bots are listed per seat in deal order",
    "failed": "games a plugin stopped (simulate --keep-going): counted apart and left out of "
              "every other number; each with its seed, round, action and replay command",
    "counts": "per event type: events over games (mean per game) and the share of games with "
              "at least one",
    "restricted": "restricted play (Jaffe et al., AIIDE 2012): in game k seat k mod players "
                  "never takes the restricted action types unless nothing else is legal; its "
                  "win share minus its share in the unrestricted game of the same seed and "
                  "seats, paired t-test (scipy ttest_rel)",
    "window_pending": "random and heuristic seats are played under window_pending: holders "
                      "(R-WIN-3) for speed: the lab makes a pass that a character must make "
                      "without asking its bot, so the games, and this summary, are the same "
                      "as under the default (tests/test_lab_holders.py)",
    "verdict": "above or below an even share (1/players) when the 95% interval of the win "
               "rate leaves it out, else within",
    "needs": "the fewest games in which a character that never wins is below an even share "
             "(its Wilson interval of 0 wins ends below 1/players): a robust study with "
             "fewer for some character (robust.small) has verdicts that mean nothing",
}

MAX_FAILURES_LISTED = 20     # failed games described in full (all are counted)

RANDOM_WARNING = ("random bots were chosen: they play without a plan, and what wins against "
                  "them says little about people's games (leave out --bots for heuristic "
                  "seats)")


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
        "bots": seat_bots(plan.bots, plan.players),
        "rotate": plan.rotate,
        "names": dict(plan.characters),
        "wins": {c: _entry(tally, tally.characters[c], stats) for c in dealt},
        "scores": {c: tally.scores[c] / tally.characters[c].games for c in dealt},
        # every part the games named, for every character (a part a plugin gives only some
        # characters is 0 for the others: the score is the sum of the parts)
        "parts": {c: {part: tally.parts[c].get(part, 0) / tally.characters[c].games
                      for part in tally.part_names} for c in dealt},
        "by_seat": [{"seat": j, **_entry(tally, count, stats)} for j, count in enumerate(tally.seats)],
        "by_bot": {name: _entry(tally, count, stats) for name, count in tally.bots.items()},
        "rounds": {"mean": sum(r * n for r, n in tally.rounds.items()) / games if games else None,
                   "histogram": {str(r): tally.rounds[r] for r in sorted(tally.rounds)}},
        "ends": dict(tally.ends),
        "decisions": {"mean": tally.decisions / games if games else None},
        "failed": {"games": len(tally.failed), "first": tally.failed[:MAX_FAILURES_LISTED]},
        **({"counts": counts(tally)} if plan.count else {}),
        **({"warning": RANDOM_WARNING} if "random" in plan.bots else {}),
        "methods": METHODS,
    }


def part_names(summary: dict) -> list:
    """The score parts of a summary, in the order the games named them (``Tally.part_names``):
    the base game's and those the ruleset's plugins add."""
    return list(dict.fromkeys(part for parts in summary["parts"].values() for part in parts))


def all_part_names(summary: dict) -> list:
    """The score parts of a study and of the ruleset it is compared with, in one order (for
    a plot and its caption)."""
    compared = (summary.get("compare") or {}).get("summary")
    return list(dict.fromkeys([*part_names(summary), *(part_names(compared) if compared else ())]))


def counts(tally: Tally) -> dict:
    """Per counted event: its mean per game and the share of games in which it happened."""
    games = tally.games or 1
    return {name: {"total": n, "mean": n / games, "share": tally.happened[name] / games}
            for name, n in tally.counts.items()}


def restriction(plan, bound: Restriction) -> dict:
    """What the restricted actions are worth: the restricted seat's win share minus its share
    unrestricted on the same seeds and seats, over all games and by character."""
    from . import stats
    games = len(bound.all[0])
    return {"actions": list(plan.restrict), "seat": "game k: seat k mod players",
            "games": games, "avoided": {"mean": bound.avoided / games if games else None,
                                        "share": bound.bit / games if games else None},
            **stats.paired(*bound.all),
            "by_character": {c: stats.paired(*bound.characters[c])
                             for c in plan.order if c in bound.characters}}


def variation(plan, tallies: list, intervals: bool = True) -> dict:
    """The study for each value of the varied field: win rates, rounds and ends."""
    path, values = plan.vary
    stats = _stats(intervals)
    first = len(plan.names) - len(values)
    out = []
    for i, (value, tally) in enumerate(zip(values, tallies)):
        dealt = [c for c, count in tally.characters.items() if count.games]
        out.append({"value": value, "ruleset": plan.names[first + i], "games": tally.games,
                    "wins": {c: _entry(tally, tally.characters[c], stats) for c in dealt},
                    "rounds": {"mean": sum(r * n for r, n in tally.rounds.items()) / tally.games
                               if tally.games else None},
                    "ends": dict(tally.ends)})
    return {"path": path, "values": out}


def verdict(entry: dict, even: float) -> str:
    """``above``, ``within`` or ``below`` an even share, by the 95% interval."""
    lo, hi = entry["ci95"]
    return "above" if lo > even else "below" if hi < even else "within"


def robustness(plan, studies: dict) -> dict:
    """Each character's verdict under each kind of seat, which differ, and which studies are
    too small for their verdicts to mean anything (``stats.fewest_games``)."""
    from . import stats
    even = 1 / plan.players
    needs = stats.fewest_games(even)
    verdicts, depends = {}, []
    for c in plan.order:
        if not all(c in s["wins"] for s in studies.values()):
            continue
        these = {kind: verdict(s["wins"][c], even) for kind, s in studies.items()}
        same = len(set(these.values())) == 1
        verdicts[c] = {**these, "same": same}
        if not same:
            depends.append(c)
    # a study's verdicts are as good as its thinnest: a character's own games (it is not dealt
    # in every game when the ruleset has more characters than seats)
    thinnest = {kind: min((s["wins"][c]["games"] for c in verdicts), default=s["games"])
                for kind, s in studies.items()}
    small = {kind: n for kind, n in thinnest.items() if n < needs}
    return {"bots": list(studies), "even": even,
            "needs": needs, "small": small,
            **({"warning": small_warning(small, needs, even)} if small else {}),
            "games": {kind: s["games"] for kind, s in studies.items()},
            "wins": {kind: s["wins"] for kind, s in studies.items()},
            "ends": {kind: s["ends"] for kind, s in studies.items()},
            "rounds": {kind: s["rounds"]["mean"] for kind, s in studies.items()},
            "verdicts": verdicts, "depends": depends}


def small_warning(small: dict, needs: int, even: float) -> str:
    """Why the verdicts of studies this small say nothing, and how many games they need."""
    from . import stats
    reach = stats.wilson(0, needs - 1)[1]
    studies = ", ".join(f"{kind} {n:,}" for kind, n in small.items())
    return (f"too few games for these verdicts to mean anything (games of the least dealt "
            f"character: {studies}): with fewer than {needs} games a character that never "
            f"wins is still within an even share (the 95% interval of 0 wins in {needs - 1} "
            f"games reaches {100 * reach:.1f}%, above {100 * even:.1f}%); play at least {needs} "
            "games for every character in every study (--games, and --robust-games for search)")


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


def _name(summary: dict, character: str) -> str:
    return summary.get("names", {}).get(character, character)


def _seats(bots: list) -> str:
    """``heuristic`` for six alike, else the list by seat."""
    if len(set(bots)) == 1:
        return f"{bots[0]} in every seat"
    return "by seat " + ", ".join(f"{j} {b}" for j, b in enumerate(bots))


def text(summary: dict) -> str:
    """The summary as a person reads it: tables of win rates, scores, rounds and ends, then
    each question asked (counts, restricted play, a varied field, robustness)."""
    games = summary["games"]
    seeds = f"seed {summary['seed']}" if games == 1 else \
        f"seeds {summary['seed']}-{summary['seed'] + games - 1}"
    rotate = ", rotating a seat a game" if summary["rotate"] else ""
    lines = [f"{summary['ruleset']}: {games:,} game(s), {summary['players']} players, {seeds}, "
             f"bots {_seats(summary['bots'])}{rotate}", ""]
    if summary.get("warning"):
        lines[1:1] = [f"WARNING: {summary['warning']}."]
    intervals = any("ci95" in e for e in summary["wins"].values())
    names = part_names(summary)
    rows = []
    for c, e in summary["wins"].items():
        parts = summary["parts"][c]
        rows.append([_name(summary, c), e["games"], f"{e['wins']:.1f}", _percent(e["rate"])]
                    + ([_interval(e)] if intervals else [])
                    + [f"{summary['scores'][c]:.2f}", *(f"{parts[p]:.2f}" for p in names)])
    lines += _table(["character", "games", "wins", "rate"] + (["95% interval"] if intervals else [])
                    + ["score", *names], rows)
    lines.append("")
    lines += _wins("seat", {f"{e['seat']} {summary['bots'][e['seat']]}"
                            if len(set(summary["bots"])) > 1 else str(e["seat"]): e
                            for e in summary["by_seat"]})
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
    for key, part in (("counts", counts_text), ("restricted", restricted_text),
                      ("vary", vary_text), ("robust", robust_text)):
        if summary.get(key):
            lines += ["", part(summary)]
    return "\n".join(lines)


def _wrap(sentence: str) -> str:
    return textwrap.fill(sentence, width=96, break_on_hyphens=False)


def failed_text(summary: dict) -> list:
    """The games a plugin stopped or that did not end, with the first one's replay command."""
    failed = summary.get("failed") or {}
    if not failed.get("games"):
        return []
    seeds = ", ".join(str(f["seed"]) for f in failed["first"])
    more = ", ..." if failed["games"] > len(failed["first"]) else ""
    lines = [f"failed: {failed['games']:,} game(s) stopped by a plugin error or never ending, "
             f"left out of the numbers above (seeds {seeds}{more})", f"  first: {failure_text(failed['first'][0])}"]
    return lines


def counts_text(summary: dict) -> str:
    rows = [[name, f"{c['mean']:.2f}", _percent(c["share"]), f"{c['total']:,}"]
            for name, c in summary["counts"].items()]
    lines = ["How often it happened (--count):"]
    lines += _table(["event", "per game", "games with it", "in all"], rows)
    never = [name for name, c in summary["counts"].items() if c["total"] == 0]
    if never:
        lines.append(f"never happened in these games: {', '.join(never)}")
    return "\n".join(lines)


def _difference(d: dict) -> list:
    diff = d["difference"]
    if not d["ci95"]:
        interval = ""
    elif d.get("alike"):
        # every pair moved alike: exact for the same games, else only "none of these moved
        # otherwise" (docs/balance.md, section 7)
        interval = f"all {d['pairs']} alike"
    else:
        interval = f"{100 * d['ci95'][0]:+.1f} to {100 * d['ci95'][1]:+.1f}"
    return ["-" if diff is None else f"{100 * diff:+.1f}", interval,
            "-" if d["p"] is None else f"{d['p']:.3g}", "yes" if d["significant"] else "no"]


def restricted_text(summary: dict) -> str:
    r = summary["restricted"]
    actions = ", ".join(r["actions"])
    lines = [_wrap(f"Restricted play (--restrict {actions}): in each game one seat, rotating, "
                   f"never takes {actions} unless nothing else is legal; its win rate against "
                   "the same seats unrestricted on the same seeds, in points:"),
             f"the restriction took a move away in {_percent(r['avoided']['share'])} of games "
             f"({r['avoided']['mean']:.1f} decisions a game)", ""]
    rows = [["any seat", r["pairs"], _percent(r["rate_a"]), _percent(r["rate_b"]), *_difference(r)]]
    rows += [[_name(summary, c), d["pairs"], _percent(d["rate_a"]), _percent(d["rate_b"]),
              *_difference(d)] for c, d in r["by_character"].items()]
    lines += _table(["restricted seat", "games", "free", "restricted", "change", "95% interval",
                     "p", "significant"], rows)
    return "\n".join(lines)


def vary_text(summary: dict) -> str:
    v = summary["vary"]
    values = v["values"]
    names = list(dict.fromkeys(c for entry in values for c in entry["wins"]))
    rows = []
    for c in names:
        cells = []
        for entry in values:
            e = entry["wins"].get(c)
            cells.append("-" if e is None else
                         _percent(e["rate"]) + (f" ({_interval(e)})" if "ci95" in e else ""))
        rows.append([_name(summary, c), *cells])
    rows.append(["all dead", *(_percent(e["ends"]["all_dead"] / e["games"]) for e in values)])
    rows.append(["rounds", *(f"{e['rounds']['mean']:.2f}" for e in values)])
    lines = [f"Win rate by value of {v['path']} (--vary), 95% intervals:"]
    lines += _table(["character", *(f"{v['path'].split('.')[-1]}={e['value']}" for e in values)],
                    rows)
    return "\n".join(lines)


def robust_text(summary: dict) -> str:
    r = summary["robust"]
    kinds = r["bots"]
    rows = []
    for c, v in r["verdicts"].items():
        cells = [f"{_percent(r['wins'][k][c]['rate'])} {v[k]}" for k in kinds]
        rows.append([_name(summary, c), *cells, "yes" if v["same"] else "NO"])
    lines = [_wrap(f"Robustness (--robust): win rate and verdict against an even share "
                   f"({_percent(r['even'])}) with every seat "
                   + ", ".join(f"{k} ({r['games'][k]:,} games)" for k in kinds) + ":")]
    if r.get("warning"):
        lines.append(_wrap(f"WARNING: {r['warning']}."))
    lines += _table(["character", *kinds, "same verdict"], rows)
    if r["depends"]:
        lines.append(_wrap("These conclusions depend on how well the bots play: "
                           + "; ".join(f"{_name(summary, c)} is "
                                       + ", ".join(f"{r['verdicts'][c][k]} with {k}" for k in kinds)
                                       for c in r["depends"]) + "."))
    else:
        lines.append("Every character's verdict is the same whoever sits in the seats"
                     + (", which says nothing with so few games (the warning above)."
                        if r.get("small") else "."))
    return "\n".join(lines)


def compare_text(summary: dict) -> str:
    """The paired comparison as a table."""
    a, b = summary["ruleset"], summary["compare"]["ruleset"]
    rows = []
    for c, d in summary["compare"]["difference"].items():
        rows.append([_name(summary, c), d["pairs"], _percent(d["rate_a"]), _percent(d["rate_b"]),
                     *_difference(d)[:2],
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
