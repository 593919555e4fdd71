"""The command line: ``lifeboat-rules check | validate | simulate | play | serve`` (docs/api.md)."""

from __future__ import annotations

import argparse
import json
import sys
import time


def _check(args) -> int:
    from .scenario import check_paths
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


def _kind_of(document) -> str:
    if isinstance(document, list):
        return "scenario"
    if isinstance(document, dict):
        keys = set(document)
        setup = document.get("setup")
        # a content file may have a `setup` section too; a scenario's setup names the seats
        if keys & {"steps", "scenarios", "expect"} or (isinstance(setup, dict) and "seats" in setup):
            return "scenario"
        if keys and keys <= {"characters", "provisions", "navigation", "setup"}:
            return "content"
        if "setup" in keys and not keys & RULESET_KEYS:
            return "scenario"
    return "ruleset"


RULESET_KEYS = frozenset({"extends", "expansions", "variants", "options", "plugins", "overrides",
                          "description"})


def _validate(args) -> int:
    from .content import check_fragment, load_ruleset
    from .errors import ContentError
    from .scenario import scenario_files, validate_scenario_file
    from .yamlio import read_yaml

    bad = 0
    files = scenario_files(args.paths)
    for path in files:
        problems: list = []
        kind = "?"
        try:
            document = read_yaml(path)
            kind = _kind_of(document)
            if kind == "scenario":
                problems = validate_scenario_file(path)
            elif kind == "content":
                check_fragment(document, path)
            else:
                load_ruleset(path)
        except ContentError as exc:
            problems = [f"{exc.where or path}: {p}" if not p.startswith(str(exc.where or path)) else p
                        for p in exc.problems] if len(exc.problems) > 1 else [str(exc)]
        if problems:
            bad += 1
            print(f"INVALID {path} ({kind})")
            for problem in problems:
                print(f"  {problem}")
        else:
            print(f"OK {path} ({kind})")
    print(f"{len(files) - bad} valid, {bad} invalid")
    return 1 if bad or not files else 0


# events --verbose leaves out: each repeats what a neighbouring event says
BOOKKEEPING = frozenset({"action", "move", "marker"})


def _simulate(args) -> int:
    from . import load_ruleset
    from .bots import RandomPlayer
    from .rules.setup import start
    from .words import describe

    ruleset = load_ruleset(args.ruleset)
    players = args.players or max(ruleset.players)
    wins: dict = {}
    total_actions = 0
    total_rounds = 0
    began = time.perf_counter()
    for number in range(args.games):
        seed = args.seed + number
        game = start(ruleset, players=players, seed=seed)
        bot = RandomPlayer(seed)
        shown = 0
        while not game.over:
            game.apply(bot.act(game))
            total_actions += 1
            if args.verbose:
                for event in game.log[shown:]:
                    if event["type"] not in BOOKKEEPING:
                        print(describe(event, game))
                shown = len(game.log)
        if args.verbose:
            for event in game.log[shown:]:
                if event["type"] not in BOOKKEEPING:
                    print(describe(event, game))
        result = game.result
        total_rounds += game.state.round
        for winner in result["winners"]:
            wins[winner] = wins.get(winner, 0) + 1
        if args.json:
            print(json.dumps({"seed": seed, "rounds": game.state.round, **result}))
        elif args.verbose or args.games == 1:
            print("final scores:")
            for who, score in sorted(result["scores"].items(), key=lambda i: -i[1]):
                parts = ", ".join(f"{k} {v}" for k, v in result["breakdown"][who].items())
                print(f"  {who:12} {score:3}  ({parts})")
            print(f"winner(s): {', '.join(result['winners'])}")
    elapsed = time.perf_counter() - began
    if not args.json:
        print(f"{args.games} game(s) of {ruleset.name} with {players} random players in "
              f"{elapsed:.2f} s; {total_actions / max(args.games, 1):.1f} decisions and "
              f"{total_rounds / max(args.games, 1):.1f} rounds per game")
        if args.games > 1:
            print("wins by character: " + ", ".join(
                f"{c} {n}" for c, n in sorted(wins.items(), key=lambda i: -i[1])))
    return 0


def _serve(args) -> int:
    try:
        import uvicorn

        from .web.app import MAX_MESSAGE, create_app
    except ImportError as exc:
        print(f"error: the web table needs the optional extra 'web' ({exc}); install it with "
              "pip install 'lifeboat-rules[web]'", file=sys.stderr)
        return 2
    if args.max_games < 1:
        raise ValueError("--max-games must be at least 1")
    app = create_app(args.db, max_games=args.max_games)
    print(f"Lifeboat table on http://{args.host}:{args.port}/ (games kept in {args.db})", flush=True)
    # Frames past 16 times the table's own limit are cut by the server before the table sees them.
    uvicorn.run(app, host=args.host, port=args.port, ws_max_size=16 * MAX_MESSAGE,
                log_level="warning")
    return 0


def _play(args) -> int:
    from .play import play
    return play(args)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="lifeboat-rules",
                                     description="The reference rules engine for Lifeboat.")
    sub = parser.add_subparsers(dest="command", required=True)

    check = sub.add_parser("check", help="run rules-reference scenario files (SCENARIOS.md)")
    check.add_argument("paths", nargs="+", help="scenario files or folders")
    check.add_argument("-q", "--quiet", action="store_true", help="print only failures")
    check.set_defaults(run=_check)

    validate = sub.add_parser("validate", help="check content, ruleset and scenario files")
    validate.add_argument("paths", nargs="+")
    validate.set_defaults(run=_validate)

    simulate = sub.add_parser("simulate", help="play games between random players")
    simulate.add_argument("--games", type=int, default=1)
    simulate.add_argument("--players", type=int, default=None, help="default: the most the ruleset allows")
    simulate.add_argument("--ruleset", default="classic", help="a built-in name or a YAML file")
    simulate.add_argument("--seed", type=int, default=1)
    simulate.add_argument("--verbose", "-v", action="store_true", help="print every event")
    simulate.add_argument("--json", action="store_true", help="one JSON result line per game")
    simulate.set_defaults(run=_simulate)

    from .words import languages
    play = sub.add_parser("play", help="play a game in the terminal against random players")
    play.add_argument("--players", type=int, default=None, help="default: the most the ruleset allows")
    play.add_argument("--ruleset", default="classic", help="a built-in name or a YAML file")
    play.add_argument("--seed", type=int, default=None, help="default: a random one, shown")
    play.add_argument("--as", dest="character", default=None,
                      help="the character you play, by id or name (default: the first seat)")
    play.add_argument("--lang", default="en", choices=languages(),
                      help="the language of the game's words (default: en)")
    play.add_argument("--plain", action="store_true",
                      help="plain text even when rich is installed")
    play.set_defaults(run=_play)

    serve = sub.add_parser("serve", help="the web table (needs the extra: pip install 'lifeboat-rules[web]')",
                           formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    serve.add_argument("--host", default="127.0.0.1", help="the address to listen on")
    serve.add_argument("--port", type=int, default=8000, help="the port to listen on")
    serve.add_argument("--db", default="lifeboat-tables.sqlite3",
                       help="the SQLite file where the games are kept")
    serve.add_argument("--max-games", type=int, default=100, help="games in progress at most")
    serve.set_defaults(run=_serve)

    args = parser.parse_args(argv)
    from .errors import ContentError
    try:
        return args.run(args)
    except ContentError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except (ValueError, KeyboardInterrupt) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
