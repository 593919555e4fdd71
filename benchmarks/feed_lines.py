"""How much a player reads: every event of ``events_for`` worded by ``describe`` (what front
ends printed before the feed) against ``game.feed``, over games between heuristic bots.

    python benchmarks/feed_lines.py [GAMES_PER_RULESET]

Prints, per way of telling, the lines read by every seat and a spectator, the share of them
that repeat the line before, and the share that are bookkeeping (a card moving between zones,
a marker, whose turn it is, an action told again by its event).
"""

from __future__ import annotations

import sys

import lifeboat_rules as lr
from lifeboat_rules.bots import make_bot

RULESETS = ["classic", "cannibalism", "shark", "quick", "single_card_rowing", "liquid_courage",
            "all_in_one"]
BOOKKEEPING = {"move", "marker", "card_marker", "turn", "action"}


def played(ruleset: str, seed: int):
    loaded = lr.load_ruleset(ruleset)
    game = lr.new_game(loaded, players=max(loaded.players), seed=seed)
    bots = {c: make_bot("heuristic", seed=seed * 100 + j)
            for j, c in enumerate(game.view(None)["seats"])}
    while not game.over:
        who = game.pending[0].by
        game.apply(bots[who].choose(game, who))
    return game


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 3
    totals = {"events": [0, 0, 0], "feed": [0, 0, 0]}   # lines, repeats, bookkeeping
    moves = 0
    for ruleset in RULESETS:
        for seed in range(games):
            game = played(ruleset, seed)
            moves += sum(e["type"] == "action" for e in game.log)
            for viewer in [None] + list(game.state.characters):
                lines = [(lr.describe(e, game, viewer=viewer), e["type"])
                         for e in game.events_for(viewer)]
                told = [(e["text"], None) for e in game.feed(viewer)]
                for name, said in (("events", lines), ("feed", told)):
                    totals[name][0] += len(said)
                    totals[name][1] += sum(a[0] == b[0] for a, b in zip(said, said[1:]))
                    totals[name][2] += sum(kind in BOOKKEEPING for _, kind in said)
    print(f"{games} game(s) per ruleset x {len(RULESETS)} rulesets, heuristic bots, "
          f"every seat and a spectator; {moves} moves")
    for name, (lines, repeats, bookkeeping) in totals.items():
        print(f"{name:7} {lines:8,} lines  {repeats / lines:6.1%} repeat the line before  "
              f"{bookkeeping / lines:6.1%} bookkeeping")
    print(f"feed / events: {totals['feed'][0] / totals['events'][0]:.2f} of the lines")


if __name__ == "__main__":
    main()
