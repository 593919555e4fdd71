"""The action vocabulary as registered records (API.md, Actions).

An ``ActionType`` is what a plugin registers (hook ``lifeboat_action_types``) to add a kind of
action: its fields, the decision kinds (stages) that offer it, one function that lists its legal
forms now, one that resolves it, and one that explains a refusal. Legality has a single source:
``apply`` accepts exactly what ``options`` lists (``Game.legal_actions``), so the two cannot
disagree; ``explain`` only words the refusal.
"""

from __future__ import annotations

from typing import Any, Callable

import attrs

STR, LIST = "str", "list"


@attrs.frozen(slots=True)
class Field:
    name: str
    kind: str = STR          # "str" or "list" (of str)
    required: bool = True


@attrs.frozen(slots=True)
class ActionType:
    """One action type.

    ``stages``: decision kinds whose stage lists it (``turn``, ``fight``, ``overboard``, ...),
    or ``("free",)`` for an action that may be taken at any time it is legal (R-PLAY-1).
    ``options(game, character, stage)`` returns every legal action dict of this type for
    ``character`` now (``stage`` is the stage offering it, None for free actions).
    ``resolve(game, action)`` carries it out through ``lifeboat_rules.effects``.
    ``explain(game, action)`` returns ``(rule, message)`` saying why it is refused, or None.
    ``ghost``: a lost character's player (a ghost) may take it (R-SHARK-2).
    ``open``: its forms cannot all be listed (a trade offer); ``apply`` then accepts it when
    ``explain`` finds nothing wrong, and ``options`` lists a canonical selection.
    ``settle(game, stake)``: carries out the stake of a fight or an allowed request that this
    action started (``stake["act"]`` names the type).
    """
    name: str
    rule: str
    options: Callable[..., list]
    resolve: Callable[..., None]
    fields: tuple = ()
    stages: tuple = ()
    explain: Callable[..., Any] | None = None
    ghost: bool = False
    card_fields: tuple = ()   # fields holding provision references (checked for unknown cards)
    open: bool = False        # open-ended (trade offers): checked by ``explain``, listed canonically
    settle: Callable[..., None] | None = None  # carries out what a fight or an answer decided

    @property
    def free(self) -> bool:
        return "free" in self.stages


@attrs.frozen(slots=True)
class Effect:
    """A special-action effect kind (R-SPEC-1): provisions name it in ``special.effect``.

    ``targets(game, user, card_id)`` lists the legal targets: character ids, or ``[None]``
    for an effect without a target (an empty list: cannot be used now).
    ``resolve(game, user, card_id, target)`` carries it out; the card is still where it was.
    ``keep(game, user, card_id)`` tells whether the card stays after use (default: discarded).
    """
    name: str
    rule: str
    targets: Callable[..., list]
    resolve: Callable[..., None]
    target_field: bool = True


@attrs.frozen(slots=True)
class Decision:
    """A decision the game waits for: ``by`` (a character id) must decide something of
    ``kind`` (pick, turn, place, respond, fight, navigate, overboard, thirst, object)."""
    by: str
    kind: str

    def data(self) -> dict:
        return {"by": self.by, "kind": self.kind}


def card_forms(game, ids) -> list:
    """The ways an action may name each of ``ids``: every instance id, and each kind once
    (a kind means the first such card where the action takes it from)."""
    kinds = game.state.kinds
    forms = list(ids)
    seen = set()
    for cid in ids:
        kind = kinds[cid]
        if kind not in seen:
            seen.add(kind)
            forms.append(kind)
    return forms


def find_card(game, ref, *zones) -> str | None:
    """The card ``ref`` (an instance id or a kind) in the first of ``zones`` that holds it."""
    kinds = game.state.kinds
    if ref in kinds:
        for zone in zones:
            if ref in zone:
                return ref
        return None
    for zone in zones:
        for cid in zone:
            if kinds[cid] == ref:
                return cid
    return None
