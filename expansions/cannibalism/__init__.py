"""The Cannibalism expansion (docs/rules.md section X: R-CANN-1..3; R-SETUP-1, R-MED-1).

Content (``content.yaml``): Dr. Harter (his used medical kit stays face up in front of him,
which the base game's ``specials.spend`` honours through ``keeps_used``), the cannibalism card,
the four navigation cards nav-07..nav-10; this module adds the expansion's medical kit to
whatever count the content has, and one more player to the most it allows (R-SETUP-1: 4-7
players, 4-8 with Liquid Courage too, whatever the order of the two).

Rules: the cannibalism card is a special action of the effect kind ``cannibalism``
(R-CANN-1: target a dead character on board). Using it discards it and opens an objection
window (``ObjectWindow``, decision kind ``object``) in which any awake character other than
the user may ``object``; the window runs to its close (R-CANN-2). If anyone objected, a fight
follows with the user attacking and the objectors defending (others may join, R-FIGHT-2..5);
the fight's stake is settled by the ``object`` action type. If nobody objected or the user's
side wins, the body leaves the game with its cards (status ``lost``, no ghost) and every
character still on board that is not dead heals 1 damage (R-CANN-3).
"""

from __future__ import annotations

import os
from typing import ClassVar

from lifeboat_rules import effects, hookimpl
from lifeboat_rules.actions import ActionType, Effect
from lifeboat_rules.content import merge_file
from lifeboat_rules.declare import CHARACTER, integer, name, names, state
from lifeboat_rules.records import Kind, Refusal
from lifeboat_rules.rules.fights import start_fight
from lifeboat_rules.rules.specials import spend
from lifeboat_rules.stages import Window
from lifeboat_rules.state import Stake

LIFEBOAT_KIND = "expansion"

CONTENT = os.path.join(os.path.dirname(__file__), "content.yaml")

# The expansion's medical kit, for content that has none of its own.
MEDICAL_KIT = {"name": "Medical Kit", "count": 0, "special": {"effect": "heal", "amount": 1}}


@hookimpl
def lifeboat_content(content):
    merge_file(content, CONTENT)
    provisions = content.setdefault("provisions", {})
    kit = provisions.setdefault("medical_kit", dict(MEDICAL_KIT, special=dict(MEDICAL_KIT["special"])))
    kit["count"] = kit.get("count", 0) + 1   # one more medical kit, whatever the count was
    players = content.get("setup", {}).get("players")
    if players:   # R-SETUP-1: Dr. Harter's seat is one more player (with Liquid Courage: 8)
        players["max"] += 1


# --------------------------------------------------------------------------- the objection window

@state
class ObjectWindow(Window):
    """R-CANN-2: any awake character other than the user may object; the window runs to its
    close, then the body is eaten or a fight decides it."""
    NAME: ClassVar[str] = "object"
    KIND: ClassVar[str] = Kind.OBJECT
    user: str = name(CHARACTER)
    body: str = name(CHARACTER)
    amount: int = integer(1, high=1000, doc="damage healed by everyone in the boat (R-CANN-3)")
    objectors: list = names(CHARACTER)

    def candidates(self, game) -> list:
        chars = game.state.characters
        return [c for c in game.state.seats if c != self.user and chars[c].awake]

    def close(self, game) -> None:
        stake = Stake(act="object", actor=self.user, target=self.body, amount=self.amount)
        effects.emit(game, {"type": "objections", "character": self.user, "target": self.body,
                            "objectors": self.objectors[:]})
        if self.objectors:
            start_fight(game, [self.user], self.objectors, stake)   # R-CANN-2, R-FIGHT-1
        else:
            eat(game, stake)                                          # R-CANN-3

    def public(self, game):
        return {"kind": "object", "user": self.user, "body": self.body,
                "objectors": self.objectors[:]}


def eat(game, stake: Stake) -> None:
    """R-CANN-3: the body leaves the game with its cards; everyone on board who is not dead,
    the user included, heals 1. (Also the stake of the fight an objection started.)"""
    state = game.state
    body = stake.target
    if body not in state.seats or not state.characters[body].dead:
        return   # the body is no longer there to be eaten
    effects.emit(game, {"type": "eaten", "character": body, "by": stake.actor})
    effects.lose(game, body, "eaten")   # status lost; it died; no treasure; no ghost
    chars = state.characters
    for who in state.seats[:]:
        if not chars[who].dead:
            effects.heal(game, who, stake.amount, "cannibalism")


# --------------------------------------------------------------------------- the card (R-CANN-1)

def _targets(game, user, card) -> list:
    chars = game.state.characters
    return [c for c in game.state.seats if c != user and chars[c].dead]


def _resolve(game, user, card, target) -> None:
    amount = game.rules.content.provisions[game.state.table.kinds[card]].param("amount", 1)
    spend(game, user, card)   # the card is discarded either way (R-CANN-3)
    game.push(ObjectWindow(user=user, body=target, amount=amount))
    effects.emit(game, {"type": "cannibalism", "character": user, "target": target})


CANNIBALISM = Effect("cannibalism", "R-CANN-1", _targets, _resolve)


# --------------------------------------------------------------------------- object (R-CANN-2)

def _object_check(game, stage: ObjectWindow, by: str):
    if by == stage.user:
        return Refusal("R-CANN-2", f"{by} used the card and cannot object to it", "by", by)
    if by in stage.objectors:
        return Refusal("R-CANN-2", f"{by} has objected already", "by", by)
    return None


def _object_moves(game, stage: ObjectWindow, by: str):
    return [] if by == stage.user or by in stage.objectors else [()]


def _object_resolve(game, stage: ObjectWindow, by: str) -> None:
    stage.objectors.append(by)
    effects.emit(game, {"type": "object", "character": by, "target": stage.body})


OBJECT = ActionType("object", "R-CANN-2", _object_check, _object_moves, _object_resolve,
                    kinds=(Kind.OBJECT,), settle=eat)


@hookimpl
def lifeboat_effects():
    return {"cannibalism": CANNIBALISM}


@hookimpl
def lifeboat_action_types():
    return [OBJECT]


@hookimpl
def lifeboat_stages():
    return [ObjectWindow]
