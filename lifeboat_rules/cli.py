"""The command line: ``lifeboat-rules check | validate | simulate | play`` (docs/api.md)."""

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
    from .content import check_fragment
    from .rulesets import load_ruleset
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


class SeatedBots:
    """``--bots``: a bot per seat at the deal (names cycled), asked for the first pending
    decision (``game.pending[0]``)."""

    def __init__(self, game, names: list, seed: int):
        from .bots import make_bot
        seats = game.state.seats[:]
        self.bots = {c: make_bot(names[j % len(names)], seed=seed * 100 + j)
                     for j, c in enumerate(seats)}

    def act(self, game):
        who = game.pending[0].by
        return self.bots[who].choose(game, who)


def bot_names(text: str) -> list:
    from .bots import BOTS
    names = [n.strip() for n in text.split(",") if n.strip()]
    unknown = [n for n in names if n not in BOTS]
    if not names or unknown:
        raise ValueError(f"--bots names bots among {', '.join(sorted(BOTS))}, not {text!r}")
    return names


def _simulate(args) -> int:
    from . import load_ruleset
    from .bots import RandomPlayer
    from . import new_game
    from .words import describe

    ruleset = load_ruleset(args.ruleset)
    players = args.players or max(ruleset.players)
    names = bot_names(args.bots) if args.bots else None
    wins: dict = {}
    total_actions = 0
    total_rounds = 0
    began = time.perf_counter()
    for number in range(args.games):
        seed = args.seed + number
        game = new_game(ruleset, players=players, seed=seed)
        bot = RandomPlayer(seed) if names is None else SeatedBots(game, names, seed)
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
        who = "random players" if names is None else "players: bots " + ",".join(names)
        print(f"{args.games} game(s) of {ruleset.name} with {players} {who} in "
              f"{elapsed:.2f} s; {total_actions / max(args.games, 1):.1f} decisions and "
              f"{total_rounds / max(args.games, 1):.1f} rounds per game")
        if args.games > 1:
            print("wins by character: " + ", ".join(
                f"{c} {n}" for c, n in sorted(wins.items(), key=lambda i: -i[1])))
    return 0


def _play(args) -> int:
    from .play import play
    return play(args)


def _schema(args) -> int:
    from .plugins import every_shipped_plugin
    from .rulesets import load_ruleset
    from .saving import saved_game_schema
    ruleset = load_ruleset(args.ruleset if args.ruleset is not None else every_shipped_plugin())
    print(json.dumps(saved_game_schema(ruleset), indent=2))
    return 0


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

    simulate = sub.add_parser("simulate", help="play games between random players")
    simulate.add_argument("--games", type=int, default=1)
    simulate.add_argument("--players", type=int, default=None, help="default: the most the ruleset allows")
    simulate.add_argument("--ruleset", default="classic", help="a built-in name or a YAML file")
    simulate.add_argument("--seed", type=int, default=1)
    simulate.add_argument("--verbose", "-v", action="store_true", help="print every event")
    simulate.add_argument("--json", action="store_true", help="one JSON result line per game")
    simulate.add_argument("--bots", default=None, metavar="B,...",
                          help="a bot per seat at the deal, bow to stern, names cycled: random, "
                               "heuristic, search (default: random players)")
    simulate.set_defaults(run=_simulate)

    schema = sub.add_parser("schema", help="print the JSON Schema of a saved game "
                                           "(Game.to_dict), derived from the state's declaration")
    schema.add_argument("--ruleset", default=None,
                        help="the ruleset whose stages it names (default: every shipped "
                             "expansion and variant, as schemas/saved_game.schema.json)")
    schema.set_defaults(run=_schema)

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
    play.add_argument("--bots", default=None, metavar="B,...",
                      help="the other players' bots, seat by seat, names cycled: random, "
                           "heuristic, search (default: random)")
    play.set_defaults(run=_play)

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
