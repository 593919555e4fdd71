"""The command line: ``lifeboat-rules check | validate | simulate | play | serve | schema``
(docs/api.md). The optional extras (the lab's statistics and plots, the web table) are imported
by their own modules only when their command runs."""

from __future__ import annotations

import argparse
import json
import os
import sys

from .bots import BOTS
from .content import check_fragment, never_ending
from .errors import ContentError, problem_lines
from .lab.command import add_arguments as add_simulate_arguments
from .lab.command import simulate
from .lab.runner import MAX_DECISIONS
from .play import play
from .plugins import every_shipped_plugin
from .rulesets import load_ruleset
from .saving import saved_game_schema
from .scenario import check_paths, scenario_files, validate_scenario_file
from .validation import document_kind
from .words import languages
from .yamlio import read_yaml


def _check(args) -> int:
    outcomes = check_paths(args.paths)
    passed = failed = 0
    for outcome in outcomes:
        if outcome.passed:
            passed += 1
            if not args.quiet:
                print(outcome.line())
        else:
            failed += 1
            print(outcome.line())
    print(f"{passed} passed, {failed} failed")
    return 0 if failed == 0 else 1


def _validate(args) -> int:
    bad = 0
    files = scenario_files(args.paths)
    for path in files:
        problems: list = []
        notes: list = []
        kind = "not read"       # (its YAML is broken: no kind to tell)
        try:
            document = read_yaml(path)
            kind = document_kind(document)
            if kind == "scenario":
                problems = validate_scenario_file(path)
            elif kind == "content":
                check_fragment(document, path)
            else:
                ruleset = load_ruleset(path)
                if never_ending(ruleset.content.navigation):
                    notes.append("note: no navigation card shows a seagull, so only the death of "
                                 "everyone on board ends a game (R-END-1): it may go on for ever "
                                 f"unless a plugin ends it (simulate stops a game after "
                                 f"{MAX_DECISIONS:,} moves)")
        except ContentError as exc:
            problems = problem_lines(exc, path)
        if problems:
            bad += 1
            print(f"INVALID {path} ({kind})")
            for problem in problems:
                print(f"  {problem}")
        else:
            print(f"OK {path} ({kind})")
            for note in notes:
                print(f"  {note}")
    print(f"{len(files) - bad} valid, {bad} invalid")
    return 1 if bad or not files else 0


def _schema(args) -> int:
    ruleset = load_ruleset(args.ruleset if args.ruleset is not None else every_shipped_plugin())
    print(json.dumps(saved_game_schema(ruleset), indent=2))
    return 0


def _serve(args) -> int:
    try:   # the optional extra `web`: imported only when the table is served
        from .web.app import serve
        from .web.store import FileBusy
    except ImportError as exc:
        print(f"error: the web table needs the optional extra 'web' ({exc}); install it with "
              "pip install '.[web]' in the lifeboat_rules source folder", file=sys.stderr)
        return 2
    if args.max_games < 1:
        raise ValueError("--max-games must be at least 1")
    try:
        serve(args.db, host=args.host, port=args.port, max_games=args.max_games,
              origins=args.origin or (), allow_seeds=args.allow_seeds, proxies=args.proxy or ())
    except FileBusy as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    return 0


def _quiet(out) -> None:
    """Send the rest of ``out`` nowhere, so that Python's last flush at exit is quiet too."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, out.fileno())
    except (OSError, ValueError, AttributeError):
        pass   # not a file (a test's StringIO)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="lifeboat-rules",
                                     description="The reference rules engine for Lifeboat.")
    sub = parser.add_subparsers(dest="command", required=True)

    check = sub.add_parser("check", help="run rules-reference scenario files (docs/scenarios.md)")
    check.add_argument("paths", nargs="+", help="scenario files or folders")
    check.add_argument("-q", "--quiet", action="store_true", help="print only failures")
    check.set_defaults(run=_check)

    validate = sub.add_parser("validate", help="check content, ruleset and scenario files")
    validate.add_argument("paths", nargs="+")
    validate.set_defaults(run=_validate)

    lab = sub.add_parser("simulate", help="play many games between bots: win rates, "
                         "comparisons, reports (the balance lab)")
    add_simulate_arguments(lab)
    lab.set_defaults(run=simulate)

    schema = sub.add_parser("schema", help="print the JSON Schema of a saved game "
                                           "(Game.to_dict), derived from the state's declaration")
    schema.add_argument("--ruleset", default=None,
                        help="the ruleset whose stages it names (default: every shipped "
                             "expansion and variant, as schemas/saved_game.schema.json)")
    schema.set_defaults(run=_schema)

    terminal = sub.add_parser("play", help="play a game in the terminal against random players")
    terminal.add_argument("--players", type=int, default=None,
                          help="default: the most the ruleset allows")
    terminal.add_argument("--ruleset", default="classic", help="a built-in name or a YAML file")
    terminal.add_argument("--seed", type=int, default=None, help="default: a random one, shown")
    terminal.add_argument("--as", dest="character", default=None,
                          help="the character you play, by id or name (default: the first seat)")
    terminal.add_argument("--lang", default="en", choices=languages(),
                          help="the language of the game's words (default: en)")
    terminal.add_argument("--plain", action="store_true",
                          help="plain text even when rich is installed")
    terminal.add_argument("--bots", default=None, metavar="B,...",
                          help="the other players' bots by seat, bow to stern, names cycled: "
                               f"{', '.join(sorted(BOTS))} (default: random players)")
    terminal.set_defaults(run=play)

    serve = sub.add_parser("serve", help="the web table (needs the extra: pip install '.[web]' in the source folder)",
                           formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    serve.add_argument("--host", default="127.0.0.1", help="the address to listen on")
    serve.add_argument("--port", type=int, default=8000, help="the port to listen on")
    serve.add_argument("--db", default="lifeboat-tables.sqlite3",
                       help="the SQLite file where the games are kept")
    serve.add_argument("--max-games", type=int, default=100, help="games in progress at most")
    serve.add_argument("--origin", action="append", metavar="URL",
                       help="another address the pages are served from (a reverse proxy's "
                            "https://name); requests from pages of any other site are refused")
    serve.add_argument("--proxy", action="append", metavar="ADDRESS",
                       help="a reverse proxy's address: its X-Forwarded-For names the client the "
                            "limits count by (from anyone else that header is ignored)")
    serve.add_argument("--allow-seeds", action="store_true",
                       help="a new game may come with its seed, for repeatable test games (whoever "
                            "sends the seed knows the deal: never on a table people play at)")
    serve.set_defaults(run=_serve)

    args = parser.parse_args(argv)
    try:
        return args.run(args)
    except BrokenPipeError:
        # the reader went away (`| head`): what is left goes nowhere, without a traceback
        _quiet(sys.stdout)
        return 1
    except ContentError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except (ValueError, KeyboardInterrupt) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
