"""The agent adapters' speed (docs/agents.md): prints ratios to references measured in the same
run, never asserts.

    pip install -e '.[rl]'
    python benchmarks/adapters.py [--games 20] [--seed 1]

1. ``rl_environment``: the same games (seeds 1..G, random legal moves from one generator)
   played through OpenSpiel's ``open_spiel.python.rl_environment.Environment`` on
   ``python_lifeboat`` (every step asks every player's information-state tensor and legal
   actions, as the environment does) and through the raw integer API
   (``game.legal_ids`` / ``game.apply_id``), game by game in turn so that both see the same
   load. Printed: steps per second of each and the ratio (environment / raw).
2. The information state at move 10 and at move 200: the CPU seconds of one step (a move,
   then every player's information-state tensor and string) over moves 10-29 and 200-219 of
   the same games, per log entry the step added (steps add a few entries each; some add
   more), with the ratio of the two.

CPU time of this process (``time.process_time``): on a shared machine it is what the work
costs, whatever the load.
"""

from __future__ import annotations

import argparse
import random
import sys
import time

import pyspiel
from open_spiel.python import rl_environment

import lifeboat_rules as lr
import lifeboat_rules.openspiel  # noqa: F401  (registers python_lifeboat)

PLAYERS = 6
clock = time.process_time


class FixedDeal:
    """``rl_environment``'s chance sampler dealing the seed it is given (four bytes, least
    significant first), so that the environment plays the raw API's game."""

    def __init__(self):
        self.seed = 0
        self.drawn = 0

    def __call__(self, state) -> int:
        byte = (self.seed >> (8 * self.drawn)) & 255
        self.drawn = (self.drawn + 1) % 4
        return byte


def raw_game(ruleset, seed: int, choices: random.Random) -> tuple[int, float]:
    game = lr.new_game(ruleset, players=PLAYERS, seed=seed)
    steps = 0
    began = clock()
    while not game.over:
        who = game.pending[0].by
        ids = game.legal_ids(who)
        game.apply_id(who, ids[choices.randrange(len(ids))])
        steps += 1
    return steps, clock() - began


def environment_game(env, deal: FixedDeal, seed: int, choices: random.Random) -> tuple[int, float]:
    deal.seed, deal.drawn = seed, 0
    steps = 0
    began = clock()
    step = env.reset()
    while not step.last():
        player = step.observations["current_player"]
        legal = step.observations["legal_actions"][player]
        step = env.step([legal[choices.randrange(len(legal))]])
        steps += 1
    return steps, clock() - began


def one_step(state, rnd: random.Random) -> None:
    legal = state.legal_actions()
    state.apply_action(legal[rnd.randrange(len(legal))])
    for player in range(PLAYERS):
        state.information_state_tensor(player)
        state.information_state_string(player)


def information_state_cost(games: int, first: int, window: int = 20) -> dict:
    """CPU seconds and log entries read per step around move 10 and move 200."""
    game = pyspiel.load_game("python_lifeboat", {"players": PLAYERS})
    totals = {10: [0.0, 0, 0], 200: [0.0, 0, 0]}
    for number in range(games):
        seed = first + number
        state = game.new_initial_state()
        for i in range(4):
            state.apply_action((seed >> (8 * i)) & 255)
        rnd = random.Random(seed)
        move = 0
        while not state.is_terminal() and move < 200 + window:
            at = 10 if 10 <= move < 10 + window else 200 if move >= 200 else None
            log = len(state.game.log)
            began = clock()
            one_step(state, rnd)
            spent = clock() - began
            if at is not None:
                entry = totals[at]
                entry[0] += spent
                entry[1] += len(state.game.log) - log
                entry[2] += 1
            move += 1
    return {at: {"seconds": s / r, "entries": r / n, "steps": n}
            for at, (s, r, n) in totals.items() if n}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    ruleset = lr.load_ruleset("classic")
    deal = FixedDeal()
    env = rl_environment.Environment("python_lifeboat", chance_event_sampler=deal,
                                     players=PLAYERS)
    raw = [0, 0.0]
    wrapped = [0, 0.0]
    for number in range(args.games):
        seed = args.seed + number
        steps, seconds = raw_game(ruleset, seed, random.Random(seed))
        raw[0] += steps
        raw[1] += seconds
        steps, seconds = environment_game(env, deal, seed, random.Random(seed))
        wrapped[0] += steps
        wrapped[1] += seconds
    raw_rate, env_rate = raw[0] / raw[1], wrapped[0] / wrapped[1]
    print(f"classic, {PLAYERS} players, {args.games} games (seeds {args.seed}..."
          f"{args.seed + args.games - 1}), random legal moves; CPU seconds of this process")
    print(f"  raw integer API (legal_ids, apply_id): {raw[0]} steps, {raw_rate:,.0f} steps/s")
    print(f"  OpenSpiel rl_environment:              {wrapped[0]} steps, {env_rate:,.0f} steps/s")
    print(f"  ratio rl_environment / raw: {env_rate / raw_rate:.3f}x")
    cost = information_state_cost(min(args.games, 10), args.seed)
    if 10 in cost and 200 in cost:
        early, late = cost[10], cost[200]
        print("  a move, then every player's information-state tensor and string:")
        for at, c in ((10, early), (200, late)):
            print(f"    moves {at}-{at + 19}: {c['seconds'] * c['entries'] * 1e6:7.0f} us a step, "
                  f"{c['seconds'] * 1e6:6.1f} us per log entry it added ({c['entries']:.1f} "
                  f"entries a step, {c['steps']} steps)")
        print(f"    ratio move 200 / move 10, per log entry added: "
              f"{late['seconds'] / early['seconds']:.2f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
