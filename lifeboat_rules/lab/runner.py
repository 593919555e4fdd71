"""Playing one game, and a run of seeds, between bots seated by name (docs/balance.md).

This module is what a worker process or a Dask worker runs: it needs only the core and the
standard library, and everything it takes and returns is plain data (a ruleset's flattened
definition, seeds, bot names; rows of JSON-safe dicts).
"""

from __future__ import annotations

import math

from .. import PluginError, load_ruleset, new_game
from ..bots import make_bot
from ..stages import Window
from .failures import GameFailed, endless, failure, replay_command
from .plan import with_holders
from .restrict import Restricted

# A search seat of the lab counts worlds, never seconds: its budget in CPU time would make a
# game depend on how busy the machine is, and the same seed must give the same game anywhere.
LAB_BOT_OPTIONS = {"search": {"budget": math.inf}}
MAX_DECISIONS = 100_000       # moves: a game that does not end by then is a bug in a rule or a bot
ENDS = ("landed", "all_dead", "adrift")


def seat_bots(bots, players: int, game_number: int = 0, rotate: bool = False) -> list:
    """The bot name of each seat (deal order, bow to stern) in game ``game_number`` (0, 1, ...).

    The names are cycled to one per seat. With ``rotate`` the list moves one seat toward the
    stern each game: seat ``j`` of game ``k`` gets bot ``(j - k) mod players`` of the cycled
    list, so over any ``players`` games in a row each entry of that list sits once in every
    seat.
    """
    cycled = [bots[j % len(bots)] for j in range(players)]
    if not rotate:
        return cycled
    shift = game_number % players
    return cycled[-shift:] + cycled[:-shift] if shift else cycled


def bot_seed(seed: int, seat: int) -> int:
    """The seed of the bot in ``seat`` of the game dealt with ``seed``."""
    return seed * 100 + seat


def lab_bot(name: str, seed: int):
    """The bot ``name`` as the lab seats it (``LAB_BOT_OPTIONS``)."""
    return make_bot(name, seed=seed, **LAB_BOT_OPTIONS.get(name, {}))


def counter(names) -> tuple:
    """What ``--count`` counts: ``TYPE`` (events of that type) or ``TYPE:KIND`` (those whose
    ``kind`` is KIND, e.g. ``use:flare_gun``); ``(types, {(type, kind)})``."""
    plain = frozenset(n for n in names if ":" not in n)
    kinds = frozenset(tuple(n.split(":")) for n in names if ":" in n)
    return plain, kinds


def count_events(log, names) -> dict:
    """How many events of each counted name the log holds."""
    plain, kinds = counter(names)
    counts = dict.fromkeys(names, 0)
    for event in log:
        kind = event["type"]
        if kind in plain:
            counts[kind] += 1
        if kinds and (kind, event.get("kind")) in kinds:
            counts[f"{kind}:{event['kind']}"] += 1
    return counts


def only_move(game, character: str):
    """``(type, character, values)`` of the one move ``character`` makes without being asked
    (see ``play_game``), or None when it has a choice."""
    moves = game.moves(character)
    if len(moves) == 1:
        return moves[0][0], character, moves[0][1]
    window = game.top
    if isinstance(window, Window):
        chosen = [(atype, values) for atype, values in moves
                  if not atype.free or window.claims(game, atype, character, values)]
        if len(chosen) == 1 and chosen[0][0].name == "pass":
            return chosen[0][0], character, chosen[0][1]
    return None


def play_game(ruleset, players: int, seed: int, bots: list, watch=None, count=(),
              restrict=None) -> dict:
    """Deal game ``seed`` and play it to the end; its row (docs/balance.md, section 4).

    ``count``: event names to count (``counts`` in the row); ``restrict``: ``(seat, action
    types)``, that seat's bot playing restricted (``restricted`` in the row).

    The game is driven by always answering the first pending decision, ``game.pending[0]``
    (pending decisions come in seat order, ghosts last), with the bot of that character's
    seat at the deal. A character with one legal move, or pending in a window with nothing to
    play there (its window moves are a pass alone, R-WIN-2; it could still play a card face
    up or trade, free moves it takes when its bot is asked for a decision), makes that move
    without its bot being asked: no bot spends thought or randomness on it, so the games do
    not depend on whether such characters are pending at all (the option ``window_pending``,
    R-WIN-3). ``decisions`` counts the moves bots chose.
    ``watch(game, events)``, if given, is called with every new slice of the log.
    """
    try:
        game = new_game(ruleset, players=players, seed=seed)
    except PluginError as exc:
        raise GameFailed(failure(None, ruleset, players, seed, bots, None, None, exc)) from exc
    seats = game.view(None)["seats"]
    by_character = {c: lab_bot(bots[j], bot_seed(seed, j)) for j, c in enumerate(seats)}
    if restrict is not None:
        seat, banned = restrict
        restricted = by_character[seats[seat]] = Restricted(by_character[seats[seat]], banned)
    love, hate = {}, {}
    for character in seats:
        view = game.view(character)
        love[character], hate[character] = view.get("love"), view.get("hate")
    shown = 0
    decisions = steps = 0
    while not game.over:
        if watch is not None:
            watch(game, game.log[shown:])
            shown = len(game.log)
        if steps >= MAX_DECISIONS:
            raise GameFailed(endless(game, ruleset, players, seed, bots, MAX_DECISIONS))
        character = game.pending[0].by
        action = None
        try:
            forced = only_move(game, character)
            if forced is not None:
                action = game.action_dict(*forced)
            else:
                action = by_character[character].choose(game, character)
                decisions += 1
            game.apply(action)
        except PluginError as exc:    # the seed, round and action, for the message and a replay
            raise GameFailed(failure(game, ruleset, players, seed, bots, action, character,
                                      exc)) from exc
        steps += 1
    if watch is not None:
        watch(game, game.log[shown:])
    result = game.result
    row = {
        "seed": seed,
        "ruleset": ruleset.name,
        "players": players,
        "seats": seats,
        "bots": list(bots),
        "love": love,
        "hate": hate,
        "scores": dict(result["scores"]),
        "parts": {c: dict(parts) for c, parts in result["breakdown"].items()},
        "winners": list(result["winners"]),
        "rounds": game.view(None)["round"],
        "end": result["end"],
        "decisions": decisions,
    }
    if count:
        row["counts"] = count_events(game.log, count)
    if restrict is not None:
        row["restricted"] = {"seat": restrict[0], "actions": list(restrict[1]),
                             "avoided": restricted.avoided}
    return row


def play_seeds(plan: dict, first: int, count: int) -> list:
    """Games ``first`` .. ``first + count - 1`` (numbered from 0) of a plan (``Plan.to_dict``),
    as a list: what a worker process or a Dask worker runs."""
    return list(games_of(plan, first, count))


def games_of(plan: dict, first: int, count: int, watch=None):
    """Per game, a tuple of rows, one per arm of the plan (``Plan.arms``: the study, the
    ruleset compared, the restricted seat, each varied value), all played with the same seed
    and the same bots in the same seats. The restricted seat of game ``k`` is ``k mod
    players``."""
    # holders (R-WIN-3) only where the plan found it gives the same games (Plan.holders)
    rulesets = [load_ruleset(with_holders(spec) if plan.get("holders") else spec)
                for spec in plan["rulesets"]]
    players, counted, banned = plan["players"], tuple(plan["count"]), tuple(plan["restrict"])
    sources = list(plan.get("sources") or ()) + [None] * len(rulesets)
    for number in range(first, first + count):
        seed = plan["seed"] + number
        bots = seat_bots(plan["bots"], players, number, plan["rotate"])
        rows = []
        for index, restricted in plan["arms"]:
            ruleset = rulesets[index]
            try:
                rows.append(play_game(ruleset, players, seed, bots,
                                      watch if not restricted else None, counted,
                                      (number % players, banned) if restricted else None))
            except GameFailed as exc:     # a row that says so: the study stops or counts it
                rows.append({"seed": seed, "ruleset": ruleset.name, "players": players,
                             "bots": list(bots), "failed": dict(exc.failure, replay=replay_command(
                                 sources[index], players, seed, bots, ruleset))})
        yield tuple(rows)
