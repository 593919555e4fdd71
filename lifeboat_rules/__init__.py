"""lifeboat_rules: the reference rules engine for the board game Lifeboat (Jeff Siadek, 2002).

The public contract is API.md: ``load_ruleset``, ``new_game``, ``Game`` (``pending``,
``legal_actions``, ``apply``, ``view``, ``to_dict`` / ``from_dict``, ``clone``, ``over``,
``result``), ``IllegalAction``, ``ContentError``; ``describe`` (a sentence for an event, an
action or a decision, in English or Chinese); and ``hookimpl`` for plugins.
"""

from __future__ import annotations

from typing import Any

from .actions import Decision
from .content import Ruleset, load_ruleset
from .engine import Game
from .errors import ContentError, IllegalAction, PluginError
from .hookspecs import hookimpl
from .words import describe

__all__ = ["load_ruleset", "new_game", "Game", "Ruleset", "Decision", "IllegalAction",
           "ContentError", "PluginError", "hookimpl", "describe", "__version__"]
__version__ = "0.1.0"


def new_game(ruleset: Any = "classic", players: int | None = None, seed: int | None = None,
             setup: dict | None = None) -> Game:
    """A new game under ``ruleset`` (a ``Ruleset``, or what ``load_ruleset`` takes).

    Dealt per R-SETUP for ``players`` with ``seed`` (a random seed when None, recorded in the
    ``setup`` event), or started from an explicit position ``setup`` (SCENARIOS.md). A player
    count the ruleset does not allow raises ``ValueError`` (R-SETUP-1).
    """
    from .rules.setup import start
    return start(load_ruleset(ruleset), players=players, seed=seed, setup=setup)
