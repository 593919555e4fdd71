"""Playing one game, and a run of seeds, between bots seated by name (docs/balance.md).

This module is what a worker process or a Dask worker runs: it needs only the core and the
standard library, and everything it takes and returns is plain data (a ruleset's flattened
definition, seeds, bot names; rows of JSON-safe dicts).
"""

from __future__ import annotations

from .. import PluginError, load_ruleset, new_game
from ..bots import make_bot
from .failures import GameFailed, failure, replay_command

MAX_DECISIONS = 100_000       # a game that does not end by then is a bug in a rule or a bot
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


def play_game(ruleset, players: int, seed: int, bots: list, watch=None) -> dict:
    """Deal game ``seed`` and play it to the end; its row (docs/balance.md, section 4).

    The game is driven by always answering the first pending decision, ``game.pending[0]``
    (pending decisions come in seat order, ghosts last), with the bot of that character's
    seat at the deal. ``watch(game, events)``, if given, is called with every new slice of the
    log.
    """
    try:
        game = new_game(ruleset, players=players, seed=seed)
    except PluginError as exc:
        raise GameFailed(failure(None, ruleset, players, seed, bots, None, None, exc)) from exc
    seats = game.view(None)["seats"]
    by_character = {c: make_bot(bots[j], seed=bot_seed(seed, j)) for j, c in enumerate(seats)}
    love, hate = {}, {}
    for character in seats:
        view = game.view(character)
        love[character], hate[character] = view.get("love"), view.get("hate")
    shown = 0
    decisions = 0
    while not game.over:
        if watch is not None:
            watch(game, game.log[shown:])
            shown = len(game.log)
        if decisions >= MAX_DECISIONS:
            raise RuntimeError(f"game {seed} of {ruleset.name} did not end after "
                               f"{MAX_DECISIONS} decisions")
        character = game.pending[0].by
        action = None
        try:
            action = by_character[character].choose(game, character)
            game.apply(action)
        except PluginError as exc:    # the seed, round and action, for the message and a replay
            raise GameFailed(failure(game, ruleset, players, seed, bots, action, character,
                                      exc)) from exc
        decisions += 1
    if watch is not None:
        watch(game, game.log[shown:])
    result = game.result
    return {
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


def play_seeds(plan: dict, first: int, count: int) -> list:
    """Games ``first`` .. ``first + count - 1`` (numbered from 0) of a plan (``Plan.to_dict``),
    as a list: what a worker process or a Dask worker runs."""
    return list(games_of(plan, first, count))


def games_of(plan: dict, first: int, count: int, watch=None):
    """Per game, a tuple of rows, one per ruleset of the plan (two when comparing), all
    played with the same seed and the same bots in the same seats."""
    rulesets = [load_ruleset(spec) for spec in plan["rulesets"]]
    sources = list(plan.get("sources") or ()) + [None] * len(rulesets)
    for number in range(first, first + count):
        seed = plan["seed"] + number
        bots = seat_bots(plan["bots"], plan["players"], number, plan["rotate"])
        rows = []
        for ruleset, source in zip(rulesets, sources):
            try:
                rows.append(play_game(ruleset, plan["players"], seed, bots, watch))
            except GameFailed as exc:     # a row that says so: the study stops or counts it
                rows.append({"seed": seed, "ruleset": ruleset.name, "players": plan["players"],
                             "bots": list(bots), "failed": dict(exc.failure, replay=replay_command(
                                 source, plan["players"], seed, bots))})
        yield tuple(rows)
