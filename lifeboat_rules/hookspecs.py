"""Every hook of lifeboat_rules, documented (issue #3, ARCHITECTURE.md).

A plugin is a module (or any object) with functions marked ``@lifeboat_rules.hookimpl`` whose
names are hook names below; it takes only the arguments it needs. The base game is itself a
set of such plugins (``lifeboat_rules.rules.*``), registered first; expansions, variants and
a ruleset's ``plugins`` are registered after it, so their implementations run first
(pluggy calls the last registered first) and can override or wrap the base game.

Two families:

* **Registration hooks** run once, when a ruleset is loaded: content, options, action types,
  special-action effects, stage classes, phases. Errors here are ``ContentError`` at load time.
* **Game hooks** run while a game is played. ``firstresult`` hooks take the first non-None
  answer; the base game answers last, so a plugin answering first replaces the base rule, and
  a wrapper (``@hookimpl(wrapper=True)``, ``result = yield``) adjusts the base answer on its
  way. Game hooks change the game only through ``lifeboat_rules.effects`` (the one path that
  emits events). A game hook that raises makes ``apply`` refuse the action with a
  ``PluginError`` naming the plugin, and the game is left as it was (so do ``legal_actions``
  and ``new_game``).

The engine calls a game hook only where some plugin implements it, except the hooks the base
game answers itself (``lifeboat_damage``, ``lifeboat_thirst``, ``lifeboat_overboard``,
``lifeboat_score``, ``lifeboat_phases``), which are called once per event, never per legal
action. docs/house-rules.md has this list as a table and a worked example.
"""

from __future__ import annotations

import pluggy

PROJECT = "lifeboat_rules"
hookspec = pluggy.HookspecMarker(PROJECT)
hookimpl = pluggy.HookimplMarker(PROJECT)


# --------------------------------------------------------------------------- registration

@hookspec
def lifeboat_content(content: dict, ruleset) -> None:
    """Add to or change the content mapping (characters, provisions, navigation, setup).

    Called once per ruleset, in registration order (base game, expansions, variants, plugins),
    before the ruleset's ``overrides`` are merged and the result is validated against
    ``schemas/content.schema.json``. Change ``content`` in place; ``lifeboat_rules.content.
    merge_file`` merges a YAML file of the plugin's own.
    """


@hookspec
def lifeboat_options() -> dict:
    """Declare ruleset options: ``{name: {"default": value, "values": [allowed, ...]}}``."""


@hookspec
def lifeboat_action_types() -> list:
    """Register action types (``lifeboat_rules.actions.ActionType``): the action vocabulary."""


@hookspec
def lifeboat_effects() -> dict:
    """Register special-action effect kinds: ``{effect name: lifeboat_rules.actions.Effect}``.

    A provision's ``special: {effect: NAME, ...}`` names one of them (R-SPEC-1).
    """


@hookspec
def lifeboat_stages() -> list:
    """Register stage classes (decisions and windows) so that saved games can name them."""


@hookspec(firstresult=True)
def lifeboat_phases() -> list:
    """The phases of a round in order: ``[(name, begin)]`` where ``begin(game)`` returns the
    phase's stage or None when the phase does not take place (R-SUPPLY-2)."""


# --------------------------------------------------------------------------- game

@hookspec
def lifeboat_deal(game) -> None:
    """Setup: a dealt game has just been set up (R-SETUP), before its first phase begins;
    change it through ``lifeboat_rules.effects`` (the quick variant deals damage and a seagull
    here). Not called for an explicit setup (SCENARIOS.md: what a variant does when dealing is
    not added to a scenario). Setup numbers (player counts, starting hand, removed provisions)
    are content: change them in ``lifeboat_content``."""


@hookspec
def lifeboat_phase_start(game, phase: str) -> None:
    """A phase (``supply``, ``action``, ``navigation``) has begun."""


@hookspec
def lifeboat_phase_end(game, phase: str) -> None:
    """A phase has ended (for ``navigation``: before the round's markers are cleared)."""


@hookspec
def lifeboat_legal_actions(game, character: str, actions: list) -> None:
    """Add actions to, or remove actions from, ``actions`` (the list ``legal_actions`` returns).

    An added action must be resolved by a registered action type or by
    ``lifeboat_resolve_action``; removing one forbids it (``apply`` refuses what is not listed).
    Open-ended types (trade offers) are listed in a canonical form only: removing every
    listed form of such a type forbids the type for that character now.
    """


@hookspec(firstresult=True)
def lifeboat_resolve_action(game, action: dict):
    """Resolve a legal action; return True when handled. The base game resolves its own
    action types after every plugin had its chance to replace them."""


@hookspec(firstresult=True)
def lifeboat_damage(game, character: str, amount: int, cause: str) -> int:
    """The damage ``character`` takes from ``cause`` (``fight``, ``overboard``, ``shark``,
    ``thirst``, ...), before it is taken. Return the amount (0 prevents it); wrap to adjust."""


@hookspec
def lifeboat_status_changed(game, character: str, old: str, new: str) -> None:
    """``character``'s status changed (awake, unconscious, dead, lost: R-STATUS)."""


@hookspec(firstresult=True)
def lifeboat_thirst(game, character: str, card) -> int:
    """How many times ``character`` is thirsty under navigation ``card`` (R-THIRST-1), before
    the parasol and water. The base game counts oar, fight and the thirst list, at most 3."""


@hookspec(firstresult=True)
def lifeboat_overboard(game, card) -> list:
    """Who falls overboard under navigation ``card`` (R-OVER-1): a list of character ids."""


@hookspec(firstresult=True)
def lifeboat_score(game, character: str) -> dict:
    """The score parts of ``character``'s player once the game is over:
    ``{"survival", "treasure", "love", "hate"}`` in the base game (R-SCORE). Wrap to add or
    change parts; the score is the sum of the parts."""


@hookspec
def lifeboat_event(game, event: dict) -> None:
    """Every event, as it happens (read only)."""


@hookspec
def lifeboat_game_over(game, result: dict) -> None:
    """The game is over; ``result`` is final."""


REGISTRATION_HOOKS = frozenset({
    "lifeboat_content", "lifeboat_options", "lifeboat_action_types", "lifeboat_effects",
    "lifeboat_stages", "lifeboat_phases"})
