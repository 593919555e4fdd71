"""Plugins that misbehave while a game is played (issue #4, test_plugin_errors.py).

Each class is one plugin, named in a ruleset as ``hostile_plugins:ClassName`` (pluggy takes
the functions of a class as hook implementations; they take no ``self``). Some answer a hook
with nonsense, some raise, some change the game behind the engine's back and then raise.
"""

from __future__ import annotations

from lifeboat_rules import hookimpl


# --------------------------------------------------------------------------- nonsense answers

class DamageAsText:
    @hookimpl
    def lifeboat_damage(game, character, amount, cause):
        return "a lot"


class NegativeDamage:
    @hookimpl
    def lifeboat_damage(game, character, amount, cause):
        return -amount


class FractionalDamage:
    @hookimpl
    def lifeboat_damage(game, character, amount, cause):
        return amount / 2


class HugeDamage:
    @hookimpl
    def lifeboat_damage(game, character, amount, cause):
        return 10 ** 40


class DamageWrapperForgetsTheResult:
    @hookimpl(wrapper=True)
    def lifeboat_damage(game, character, amount, cause):
        yield            # the base game's answer is dropped: None comes out


class NegativeThirst:
    @hookimpl
    def lifeboat_thirst(game, character, card):
        return -5


class ThirstAsText:
    @hookimpl
    def lifeboat_thirst(game, character, card):
        return "parched"


class OverboardNumber:
    @hookimpl
    def lifeboat_overboard(game, card):
        return 42


class OverboardOneString:
    @hookimpl
    def lifeboat_overboard(game, card):
        return "the_kid lady_lauren"      # a string is not a list of characters


class OverboardUnknown:
    @hookimpl
    def lifeboat_overboard(game, card):
        return ["nobody", None]


class ScoreAsText:
    @hookimpl
    def lifeboat_score(game, character):
        return "many points"


class ScorePartAsText:
    @hookimpl
    def lifeboat_score(game, character):
        return {"survival": "seven", "treasure": 0}


class ScorePartAsFloat:
    @hookimpl
    def lifeboat_score(game, character):
        return {"survival": 1.5}


class ScorePartHuge:
    """A whole number, but one no JSON writer takes (more than 4,300 digits)."""

    @hookimpl
    def lifeboat_score(game, character):
        return {"survival": 10 ** 5000}


class StrengthAsText:
    @hookimpl
    def lifeboat_strength(game, character):
        return "strong"


class NegativeStrength:
    @hookimpl
    def lifeboat_strength(game, character):
        return -3


class StrengthWrapperForgetsTheResult:
    @hookimpl(wrapper=True)
    def lifeboat_strength(game, character):
        yield            # the base game's answer is dropped: None comes out


NONSENSE = {
    "lifeboat_damage": [DamageAsText, NegativeDamage, FractionalDamage, HugeDamage,
                        DamageWrapperForgetsTheResult],
    "lifeboat_thirst": [NegativeThirst, ThirstAsText],
    "lifeboat_overboard": [OverboardNumber, OverboardOneString, OverboardUnknown],
    "lifeboat_score": [ScoreAsText, ScorePartAsText, ScorePartAsFloat, ScorePartHuge],
}
# asked by views as well (a fight's strengths): tried on a fight of their own
STRENGTH = [StrengthAsText, NegativeStrength, StrengthWrapperForgetsTheResult]


# --------------------------------------------------------------------------- raising

class RaisesOnDamageEvent:
    @hookimpl
    def lifeboat_event(game, event):
        if event["type"] == "damage":
            raise RuntimeError("no damage on my boat")


class RaisesWhenNavigationStarts:
    @hookimpl
    def lifeboat_phase_start(game, phase):
        if phase == "navigation":
            raise KeyError("the charts are lost")


class RaisesWhenAPhaseEnds:
    @hookimpl
    def lifeboat_phase_end(game, phase):
        if phase == "action":
            raise ValueError("the action phase never ends")


class RaisesResolvingARow:
    @hookimpl
    def lifeboat_resolve_action(game, action):
        if action["type"] == "row":
            raise ZeroDivisionError("the oars broke")


class RaisesAtGameOver:
    @hookimpl
    def lifeboat_game_over(game, result):
        raise RuntimeError("the ending is not allowed")


class ChangesThenRaises:
    """Changes the state behind the engine's back (not through ``effects``), then raises:
    the snapshot taken before the action must undo it all."""

    @hookimpl
    def lifeboat_status_changed(game, character, old, new):
        state = game.state
        state.seagulls = 99
        state.seats.reverse()
        for who in state.characters.values():
            who.hand.clear()
            who.damage = -7
        state.supply.clear()
        state.stack.clear()
        raise RuntimeError("and now the boat sinks")


RAISING = [RaisesOnDamageEvent, RaisesWhenNavigationStarts, RaisesWhenAPhaseEnds,
           RaisesResolvingARow, RaisesAtGameOver, ChangesThenRaises]
