"""``lifeboat-rules play``: one human against random players, in the terminal.

It shows what the human's player may see (``Game.view``), the events in words, and numbers the
legal actions to choose from; everyone else is a ``RandomPlayer``.
"""

from __future__ import annotations

import sys

from .bots import RandomPlayer
from .narrate import describe


def _card(card: dict) -> str:
    return f"{card['kind']} ({card['id']})"


def _describe_action(action: dict) -> str:
    rest = {k: v for k, v in action.items() if k not in ("by", "type")}
    return action["type"] + (" " + " ".join(f"{k}={v}" for k, v in rest.items()) if rest else "")


def show(view: dict, out) -> None:
    print(f"\n== round {view['round']}, {view['phase']} phase; seagulls {view['seagulls']}; "
          f"supply {view['supply_size']}, navigation deck {view['navigation_size']}, "
          f"rowing pile {view['rowing_pile_size']}", file=out)
    print("seats (bow -> stern): " + " ".join(view["seats"]), file=out)
    for who, entry in view["characters"].items():
        marks = "".join(m for m, on in (("R", entry["rowed"]), ("F", entry["fought"]),
                                        ("P", entry["parasol_active"])) if on)
        front = ", ".join(_card(c) for c in entry["front"]) or "-"
        print(f"  {who:12} size {entry['size']} survival {entry['survival']} damage "
              f"{entry['damage']} {entry['status']:11} hand {entry['hand_size']} front {front} {marks}",
              file=out)
    me = view["you"]
    mine = view["characters"][me]
    print(f"you are {me}; you love {view['love']} and hate {view['hate']}", file=out)
    print("your hand: " + (", ".join(_card(c) for c in mine.get("hand", [])) or "empty"), file=out)
    decision = view.get("decision")
    if decision:
        cards = decision.get("cards")
        print(f"you decide: {decision['kind']}" + (f" among {cards}" if cards else ""), file=out)


def play(args, stdin=None, out=None) -> int:
    from . import load_ruleset, new_game

    stdin = stdin or sys.stdin
    out = out or sys.stdout
    ruleset = load_ruleset(args.ruleset)
    players = args.players or max(ruleset.players)
    game = new_game(ruleset, players=players, seed=args.seed)
    me = args.character or game.state.seats[0]
    if me not in game.state.characters:
        print(f"{me} is not in this game; in play: {', '.join(game.state.characters)}", file=out)
        return 2
    bot = RandomPlayer(args.seed)
    shown = 0
    while not game.over:
        for event in game.log[shown:]:
            line = describe(event)
            if line:
                print(line, file=out)
        shown = len(game.log)
        if any(d.by == me for d in game.pending):
            show(game.view(me), out)
            actions = game.legal_actions(me)
            for number, action in enumerate(actions, start=1):
                print(f"  {number:3}. {_describe_action(action)}", file=out)
            print("choose a number (q to quit): ", end="", file=out, flush=True)
            answer = stdin.readline()
            if not answer or answer.strip().lower() in ("q", "quit"):
                print("\nbye", file=out)
                return 0
            try:
                action = actions[int(answer) - 1]
            except (ValueError, IndexError):
                print("not one of the numbers", file=out)
                continue
            game.apply(action)
        else:
            game.apply(bot.act(game))
    for event in game.log[shown:]:
        line = describe(event)
        if line:
            print(line, file=out)
    return 0
