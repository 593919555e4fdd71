"""lifeboat_rules: the reference rules engine for the board game Lifeboat (Jeff Siadek, 2002).

The public contract (docs/api.md): ``load_ruleset``, ``new_game``, ``Game`` (``pending``,
``legal_actions``, ``apply``, the integer actions ``num_actions``, ``legal_ids``,
``action_id``, ``action_of``, ``apply_id``, ``view``, ``events_for``, ``to_dict`` /
``from_dict``, ``clone``, ``over``, ``result``), ``Decision``, ``IllegalAction``,
``ContentError``, ``PluginError``; ``describe`` (a sentence for an event, an action or a
decision, in English or Chinese); and ``hookimpl`` for plugins (docs/house-rules.md). The
shapes of the dicts it hands out are typed in ``lifeboat_rules.types`` (docs/api.md, Typing).
"""

from __future__ import annotations

from typing import Mapping

from .engine import Game
from .engine import new_game as _new_game
from .errors import ContentError, IllegalAction, PluginError
from .hookspecs import hookimpl
from .records import Decision
from .rulesets import Ruleset, RulesetSource, load_ruleset
from .words import describe

__all__ = ["load_ruleset", "new_game", "Game", "Ruleset", "Decision", "IllegalAction",
           "ContentError", "PluginError", "hookimpl", "describe", "__version__"]
__version__ = "0.2.0"


def new_game(ruleset: RulesetSource = "classic", players: int | None = None,
             seed: int | None = None, setup: Mapping[str, object] | None = None) -> Game:
    """A new game under ``ruleset`` (a ``Ruleset``, or what ``load_ruleset`` takes).

    Dealt for ``players`` with ``seed`` (R-SETUP; a random seed when None, recorded in the
    ``setup`` event), or started from an explicit position ``setup`` (docs/scenarios.md). A
    player count the ruleset does not allow raises ``ValueError`` (R-SETUP-1).
    """
    return _new_game(ruleset, players, seed, setup)
