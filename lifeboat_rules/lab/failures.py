"""Games a plugin stops (docs/balance.md, "When a plugin fails"): the record of where and how,
the words a person reads, and the one command that plays that game again.

A plugin that raises while a game is played (a ``PluginError``) is a bug in the house rule,
not a result: the study stops with this record, or counts it apart (``--keep-going``).
"""

from __future__ import annotations

import json
import os
import shlex

from ..errors import PluginError
from ..plugins import origin, plugin_folders


class GameFailed(Exception):
    """A plugin raised while a game was played, or the game did not end: ``failure`` says
    which game, where and what (seed, round, the action being applied or who was choosing,
    the plugin, its error; for a game that did not end, ``endless`` and ``moves``)."""

    def __init__(self, failure: dict):
        super().__init__(failure_text(failure))
        self.failure = failure


def failure_text(failure: dict) -> str:
    """What a person needs to find the bug: the game, the round, the action, the plugin, and
    the one command that plays that game again."""
    if failure.get("endless"):
        text = (f"the game with seed {failure['seed']} of {failure['ruleset']} did not end: still "
                f"going in round {failure['round']} after {failure['moves']} moves (a house rule "
                "may let a game go on for ever, say with no navigation card that shows a "
                "seagull: play it with --verbose to see how)")
        if failure.get("replay"):
            text += f"\nreplay that game with: {failure['replay']}"
        return text
    action = failure["action"]
    doing = (f"applying {json.dumps(action)}" if action is not None
             else f"listing the moves of {failure['choosing']}" if failure.get("choosing")
             else "dealing")
    text = (f"a plugin failed in the game with seed {failure['seed']} of {failure['ruleset']}, "
            f"round {failure['round']}, while {doing}: {failure['error']}")
    if failure.get("replay"):
        text += f"\nreplay that game with: {failure['replay']}"
    return text


def replay_command(source, players: int, seed: int, bots: list, ruleset=None) -> str | None:
    """The command that plays exactly that game again: the same ruleset, players and seed,
    and the bots of its seats named one by one (so no rotation is needed; each bot's own seed
    follows from the game's seed and its seat); with the ``PYTHONPATH`` its plugins were
    found through, so that it works when pasted."""
    if not isinstance(source, str):
        return None
    command = ("lifeboat-rules simulate --games 1 " + " ".join(shlex.quote(part) for part in (
        "--ruleset", source, "--players", str(players), "--seed", str(seed), "--bots", ",".join(bots))))
    path = plugin_path(ruleset) if ruleset is not None else None
    return f"PYTHONPATH={shlex.quote(path)} {command}" if path else command


def plugin_path(ruleset) -> str | None:
    """The ``PYTHONPATH`` a command needs for the plugins of ``ruleset``: the variable as it is
    set when a plugin was found in one of its folders, and the current folder (``.``) when a
    plugin was found there only (``python -m`` looks there; the ``lifeboat-rules`` script does
    not); None when every plugin is installed or shipped."""
    folders = plugin_folders(ruleset.rules.names)
    given = [part for part in os.environ.get("PYTHONPATH", "").split(os.pathsep) if part]
    listed = {os.path.abspath(part) for part in given}
    here = os.path.abspath(os.getcwd())
    parts = list(given) if any(folder in listed for folder in folders) else []
    if here in folders and here not in listed:
        parts.insert(0, ".")
    return os.pathsep.join(parts) or None


def failure(game, ruleset, players: int, seed: int, bots: list, action, character,
            exc: PluginError) -> dict:
    """The record of a game a plugin stopped: its seed, round, the action being applied (or
    whose move was being chosen: ``choosing``), the plugin and its error with file and line."""
    return {"seed": seed, "ruleset": ruleset.name, "players": players, "bots": list(bots),
            "round": game.state.round if game is not None else 0, "action": action,
            "choosing": character if action is None else None, "plugin": exc.plugin,
            "error": str(exc) + (origin(exc.__cause__) if exc.__cause__ is not None else "")}


def endless(game, ruleset, players: int, seed: int, bots: list, moves: int) -> dict:
    """The record of a game still going after ``moves`` moves: a ruleset (or a plugin) under
    which a game may never end, counted as a plugin's failure is."""
    return {"seed": seed, "ruleset": ruleset.name, "players": players, "bots": list(bots),
            "round": game.state.round, "action": None, "choosing": None, "plugin": None,
            "endless": True, "moves": moves,
            "error": f"the game did not end after {moves} moves"}
