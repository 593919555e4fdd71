"""``lifeboat-rules simulate``: the balance lab on the command line (docs/balance.md)."""

from __future__ import annotations

import argparse
import importlib.util
import json
import sys
import time

from ..words import FeedReader

HELP = """\
Play N games (seeds S, S+1, ...) between bots and summarize them: win rates with 95%
intervals by character, seat and bot, score parts, game length, end causes; and, when asked,
how often events happen (--count), what an action is worth (--restrict), how a number of the
content should be set (--vary), and which conclusions hold whoever plays (--robust).

Seats are numbered in deal order, bow to stern (0 is the bow). --bots names a bot per seat
in that order, cycled when there are fewer names than players. Without --bots every seat is
`heuristic` (a bot that plays to its love, hate and treasure): random play says little about
people's games, so `--bots random` must be asked for, and the report warns of it. In the base game the seats at the deal follow the characters (Lady
Lauren always sits at the bow), so a bot kept in one seat also keeps a character. --rotate
moves the list one seat toward the stern each game: seat j of game k gets bot (j - k) mod
players of the cycled list (game k is the one of seed S+k), so every bot sits in every seat
equally often over each run of P games.

The bot in seat j of the game of seed s is seeded with s*100 + j. A game is played by always
asking the bot of the first pending decision's character (game.pending[0]). Results do not
depend on --jobs or the cluster: games are counted in seed order.

--restrict A[,A]: restricted play (Jaffe et al., AIIDE 2012): every seed is played again
with one seat, seat k mod P in game k, never taking those action types unless nothing else is
legal; its win rate against its rate in the unrestricted game of the same seed, paired.
--vary PATH=V1,V2,...: every seed is played again for each value of one content field (e.g.
characters.the_kid.size=2,3,4). --robust: the study again with random, heuristic and search
bots in every seat (search on a tenth of the games, at least 200 but no more than --games),
and whether each character's verdict (above, within or below an even share) is the same
under all three.

The 95% intervals, --compare, --restrict, --robust, --report, --dask and the progress bar
need the lab extra: pip install '.[lab]' in the lifeboat_rules source folder (it is installed
from a checkout).
"""

LAB = "pip install '.[lab]' in the lifeboat_rules source folder"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.description = HELP
    parser.formatter_class = argparse.RawDescriptionHelpFormatter
    parser.add_argument("--games", type=int, default=1, metavar="N", help="games to play (default 1)")
    parser.add_argument("--ruleset", default="classic", metavar="R",
                        help="a built-in name or a YAML file (default classic)")
    parser.add_argument("--players", type=int, default=None, metavar="P",
                        help="default: the most the ruleset allows")
    parser.add_argument("--seed", type=int, default=1, metavar="S", help="the first seed (default 1)")
    from ..bots import BOTS
    parser.add_argument("--bots", default="heuristic", metavar="B,...",
                        help="bot names per seat in deal order, cycled (default heuristic; "
                             f"known: {', '.join(BOTS)})")
    parser.add_argument("--rotate", action="store_true",
                        help="move the bots one seat toward the stern each game")
    where = parser.add_mutually_exclusive_group()
    where.add_argument("--jobs", type=int, default=1, metavar="J",
                       help="local worker processes (default 1: this process)")
    where.add_argument("--dask", default=None, metavar="ADDRESS",
                       help="run on an existing Dask cluster, e.g. tcp://host:8786")
    parser.add_argument("--compare", default=None, metavar="R2",
                        help="also play the same seeds and seats under R2, and compare")
    parser.add_argument("--count", default=None, metavar="TYPE[,TYPE]",
                        help="count these events in every game (an event type such as use, "
                             "rob, row, or TYPE:KIND such as use:flare_gun)")
    parser.add_argument("--restrict", default=None, metavar="ACTION[,ACTION]",
                        help="restricted play: what these action types are worth to a seat")
    parser.add_argument("--vary", default=None, metavar="PATH=V1,V2,...",
                        help="the study for each value of one content field, "
                             "e.g. characters.the_kid.size=2,3,4")
    parser.add_argument("--robust", action="store_true",
                        help="the study again under random, heuristic and search seats")
    parser.add_argument("--robust-games", type=int, default=None, metavar="N",
                        help="games of --robust's search study (default: a tenth of --games, "
                             "at least 200 and at most --games)")
    parser.add_argument("--report", default=None, metavar="DIR",
                        help="write summary.json, games.jsonl, plots and index.html into DIR")
    parser.add_argument("--json", action="store_true",
                        help="print one JSON row per game on standard output "
                             "(the summary goes to standard error)")
    parser.add_argument("--verbose", "-v", action="store_true",
                        help="print every game as a spectator at the table is told it "
                             "(game.feed(None): one sentence per move, no hidden card "
                             "named; in this process)")
    parser.add_argument("--keep-going", action="store_true",
                        help="count the games a plugin error stops or that never end (in the "
                             "summary and the report, each with its seed and replay command) instead of "
                             "stopping at the first")
    parser.add_argument("--chunk", type=int, default=None, help=argparse.SUPPRESS)


def _have(*modules: str) -> bool:
    return all(importlib.util.find_spec(m) is not None for m in modules)


def _need(what: str, *modules: str) -> None:
    if not _have(*modules):
        raise ValueError(f"{what} needs the lab extra: {LAB}")


def simulate(args) -> int:
    from . import Plan, run
    from .failures import GameFailed, failure_text
    from .progress import wanted
    from .summary import compare_text, text

    if args.jobs < 1:
        raise ValueError("--jobs must be at least 1")
    if args.verbose and (args.jobs > 1 or args.dask):
        raise ValueError("--verbose prints the events of games played in this process; "
                         "leave out --jobs and --dask")
    if args.report:
        _need("--report", "matplotlib", "statsmodels", "scipy")
    for flag, asked in (("--compare", args.compare), ("--restrict", args.restrict),
                        ("--robust", args.robust)):
        if asked:
            _need(flag, "statsmodels", "scipy")
    if args.dask:
        _need("--dask", "distributed")
    intervals = _have("statsmodels", "scipy")
    plan = Plan.make(args.ruleset, games=args.games, players=args.players, seed=args.seed,
                     bots=[b.strip() for b in args.bots.split(",") if b.strip()],
                     rotate=args.rotate, compare=args.compare, count=_names(args.count),
                     restrict=_names(args.restrict), vary=args.vary, robust=args.robust,
                     robust_games=args.robust_games)
    for doubt in plan.doubts:      # before the games, not after a long run
        print(f"warning: {doubt}", file=sys.stderr)
    screen = sys.stderr if args.json else sys.stdout
    progress = wanted() and not args.verbose and _have("rich")

    def each(rows):
        if args.json:
            for row in rows:
                print(json.dumps(row), flush=False)
        elif args.verbose or args.games == 1:
            for row in rows:
                if "failed" in row:
                    print(failure_text(row["failed"]))
                else:
                    _print_scores(row)

    watch = None
    if args.verbose:
        print("(each game as a spectator is told it: game.feed(None))")

        reading: dict = {}

        def watch(game, events):
            # one reader a game: it remembers what it told (a repeat reads "again", a run of
            # passes the last slice ended on is told once it is over)
            reader = reading.get("reader")
            if reader is None or reader.game is not game:
                reader = reading["reader"] = FeedReader(game, None)
            for entry in reader.read():
                print(entry["text"])

    began = time.perf_counter()
    try:
        summary = run(plan, jobs=args.jobs, dask=args.dask, report=args.report, progress=progress,
                      intervals=intervals, chunk=args.chunk, each=each, watch=watch,
                      keep_going=args.keep_going)
    except GameFailed as exc:      # not a traceback: what happened, and how to see it again
        sys.stdout.flush()
        print(f"error: {exc}\n(--keep-going counts such games instead of stopping)",
              file=sys.stderr)
        return 1
    elapsed = time.perf_counter() - began
    sys.stdout.flush()
    if args.games > 1 or args.report:       # one game: its scores are the summary
        print(text(summary), file=screen)
        if plan.comparing:
            print("\n" + text(summary["compare"]["summary"]), file=screen)
            print("\n" + compare_text(summary), file=screen)
    place = f"on {args.dask}" if args.dask else f"with {args.jobs} job(s)"
    played = plan.games * len(plan.arms)
    if plan.robust:
        played += sum(n for kind, n in summary["robust"]["games"].items()
                      if summary["robust"]["wins"][kind] is not summary["wins"])
    print(f"\n{played:,} game(s) in {elapsed:.1f} s {place}: "
          f"{played / elapsed:,.1f} games/s", file=screen)
    if not intervals and args.games > 1:
        print(f"(95% intervals need the lab extra: {LAB})", file=screen)
    if args.report:
        print(f"report: {args.report}/index.html (summary.json, games.jsonl, plots)", file=screen)
    return 0


def _names(listed: str | None) -> list:
    return [n.strip() for n in (listed or "").split(",") if n.strip()]


def _print_scores(row: dict) -> None:
    print(f"{row['ruleset']}, seed {row['seed']}: final scores ({row['end']} after "
          f"{row['rounds']} round(s)):")
    for who, score in sorted(row["scores"].items(), key=lambda item: -item[1]):
        parts = ", ".join(f"{k} {v}" for k, v in row["parts"][who].items())
        print(f"  {who:12} {score:3}  ({parts})")
    print(f"winner(s): {', '.join(row['winners'])}")
