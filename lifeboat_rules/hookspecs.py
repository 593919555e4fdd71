"""Every hook of lifeboat_rules, documented in the manner of pytest's hookspec.py.

A plugin is a module (or any object) with functions marked ``@lifeboat_rules.hookimpl`` whose
names are hook names below; it takes only the arguments it needs (pluggy checks the names
against these specifications when the plugin is registered). The base game is itself a set of
such plugins (``lifeboat_rules.rules.*``), registered first; expansions, variants and a
ruleset's ``plugins`` are registered after it, so their implementations run first (pluggy calls
the last registered first) and can replace the base rule (``firstresult`` hooks) or wrap it
(``@hookimpl(wrapper=True)`` with ``result = yield``).

Two families:

* **Registration hooks** run once when a ruleset is loaded; what they return describes the
  game (content, options, action types, effects, stages, markers, phases). Problems are
  ``ContentError`` at load time (a ``PluginError`` too when a plugin's hooks are wrong: a
  ``lifeboat_*`` function not marked ``@hookimpl``, parameters that are not the hook's).
* **Game hooks** run while a game is played. They change the game only through
  ``lifeboat_rules.effects`` (the one path that emits events). One that raises makes ``apply``
  (or ``new_game``) fail with a ``PluginError`` naming the plugin, the game left as it was.

The engine calls a game hook only where some plugin other than the base game implements it,
and never once per listed action unless a plugin implements ``lifeboat_refuse``.
docs/house-rules.md has this list as a table and worked examples.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pluggy

if TYPE_CHECKING:
    from .content import NavigationCard
    from .engine import Game

PROJECT = "lifeboat_rules"
hookspec = pluggy.HookspecMarker(PROJECT)
hookimpl = pluggy.HookimplMarker(PROJECT)


# --------------------------------------------------------------------------- registration

@hookspec
def lifeboat_content(content: dict, ruleset: Any) -> None:
    """Add to or change the content of a ruleset.

    Called once per ruleset load, in registration order (base game, expansions, variants,
    plugins), before the ruleset's ``overrides`` are merged and the result is validated.

    :param content: the content mapping (``characters``, ``provisions``, ``navigation``,
        ``setup``); change it in place. ``lifeboat_rules.content.merge_file(content, path)``
        merges a YAML file of the plugin's own.
    :param ruleset: the ruleset being loaded (``.name``, ``.spec``); read only.
    """


@hookspec
def lifeboat_options() -> dict:
    """Declare ruleset options: ``{name: {"default": value, "values": [allowed, ...]}}``.

    Called once per ruleset load. A later plugin may declare an option again (its default
    wins). The ruleset's ``options`` are checked against what is declared.
    """


@hookspec
def lifeboat_action_types() -> list:
    """Register action types: a list of ``lifeboat_rules.actions.ActionType``.

    Called once per ruleset load. Two plugins may not register the same name. The order of
    registration is the order of the integer action space.
    """


@hookspec
def lifeboat_effects() -> dict:
    """Register special-action effect kinds: ``{name: lifeboat_rules.actions.Effect}``.

    A provision's ``special: {effect: NAME, ...}`` names one of them (R-SPEC-1).
    """


@hookspec
def lifeboat_stages() -> list:
    """Register stage classes (subclasses of ``lifeboat_rules.stages.Stage`` declared with
    ``lifeboat_rules.declare``), so that saved games can name and check them."""


@hookspec
def lifeboat_markers() -> list:
    """Register markers: a list of ``lifeboat_rules.records.Marker`` (a name, whether it goes
    on cards, whether it is cleared at the end of the round)."""


@hookspec(firstresult=True)
def lifeboat_phases() -> list:
    """The phases of a round in order: ``[(phase, begin)]`` where ``phase`` is a
    ``lifeboat_rules.records.Phase`` and ``begin(game)`` returns the phase's stage, or None when
    the phase does not take place (R-SUPPLY-2). firstresult: the base game answers last."""


# --------------------------------------------------------------------------- game

@hookspec
def lifeboat_deal(game: "Game") -> None:
    """A dealt game has just been set up (R-SETUP), before its first phase begins.

    Not called for an explicit setup (a scenario's position is taken as it stands). May change
    the game through ``effects`` (the quick variant deals damage and a seagull here).
    """


@hookspec
def lifeboat_phase_start(game: "Game", phase: str) -> None:
    """A phase (``supply``, ``action``, ``navigation``) has begun; may change the game."""


@hookspec
def lifeboat_phase_end(game: "Game", phase: str) -> None:
    """A phase has ended (for ``navigation``: before the round's markers are cleared)."""


@hookspec(firstresult=True)
def lifeboat_refuse(game: "Game", action: dict) -> str | None:
    """Forbid an action the rules allow: return a reason (a message), or None.

    Called for every action the rules would list or apply (so ``legal_actions``,
    ``legal_ids`` and ``apply`` agree) while some plugin implements it.

    :param action: the canonical action dict (read only).
    """


@hookspec(firstresult=True)
def lifeboat_resolve_action(game: "Game", action: dict) -> bool | None:
    """Resolve a legal action instead of its action type: return True when handled.

    :param action: the canonical action dict (read only).
    """


@hookspec(firstresult=True)
def lifeboat_damage(game: "Game", character: str, amount: int, cause: str) -> int:
    """The damage ``character`` takes from ``cause`` (``fight``, ``overboard``, ``shark``,
    ``thirst``, ...), before it is taken: return the amount (0 prevents it), or wrap to adjust.
    firstresult; the base game answers ``amount``."""


@hookspec
def lifeboat_status_changed(game: "Game", character: str, old: str, new: str) -> None:
    """``character``'s status changed (awake, unconscious, dead, lost: R-STATUS)."""


@hookspec(firstresult=True)
def lifeboat_thirst(game: "Game", character: str, card: "NavigationCard") -> int:
    """How many times ``character`` is thirsty under navigation ``card`` (R-THIRST-1), before
    the parasol and water. firstresult; the base game counts the oar with a rowing marker, the
    fight icon with a fight marker and the thirst list, at most 3."""


@hookspec
def lifeboat_water_given(game: "Game", giver: str, target: str, card: str, cancelled: int,
                         window: Any) -> None:
    """Water has just been given in the thirst window (R-THIRST-2): ``giver`` gave ``card`` to
    ``target``, which cancelled ``cancelled`` of its thirsts.

    Called once per water given, after its own events (``water``, ``quench``), and only while
    some plugin implements it. Not firstresult: every implementation is called; what they
    return is ignored. May change the game: through ``effects``, and by cancelling more thirsts
    in the window with ``window.quench(game, by, target, amount, source)`` (Madame Wong's
    shared water, R-WONG-1, in the Liquid Courage expansion).

    :param giver: the character who gave the water.
    :param target: the thirsty character the water went to.
    :param card: the water card, already discarded.
    :param cancelled: how many of the target's thirsts it cancelled (1 for the base game's water).
    :param window: the open thirst window (``lifeboat_rules.rules.thirst.ThirstWindow``); its
        ``thirst`` counts the thirsts not yet cancelled.
    """


@hookspec(firstresult=True)
def lifeboat_overboard(game: "Game", card: "NavigationCard") -> list:
    """Who falls overboard under navigation ``card`` (R-OVER-1): character ids. firstresult;
    the base game answers the card's overboard list among the characters on board."""


@hookspec(firstresult=True)
def lifeboat_strength(game: "Game", character: str) -> int:
    """``character``'s own strength in a fight (R-FIGHT-3): its size plus its face-up weapons.
    firstresult; wrap to add a bonus."""


@hookspec(firstresult=True)
def lifeboat_score(game: "Game", character: str) -> dict:
    """The score parts of ``character``'s player once the game is over:
    ``{"survival", "treasure", "love", "hate"}`` in the base game (R-SCORE). Wrap to add or
    change parts; the score is the sum of the parts."""


@hookspec
def lifeboat_event(game: "Game", event: dict) -> None:
    """Every event, as it happens. Read only."""


@hookspec
def lifeboat_game_over(game: "Game", result: dict) -> None:
    """The game is over; ``result`` (a copy) is final."""
