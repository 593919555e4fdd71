"""One legality source per action type: the listing and the check agree on reachable states.

Each action type decides legality in one function, its ``check`` (through ``Game.verdict``,
which adds what every type shares: the game is not over, the actor may act, the stage offers
that type to that actor). ``legal_actions`` and ``legal_ids`` list the type's ``moves``. This
test proves the two agree: on states reached by random play in every built-in ruleset and
combination, for every character and every action type, every value of every parameter's
domain is tried (every character, every card id, "hand", every navigation card, every pile of
the cards drawn, both sides, every open offer...): ``verdict`` accepts it exactly when
``moves`` lists it. Trade offers, whose forms cannot all be listed, are checked on their
canonical forms (single-card gifts) and on random richer ones (accepted ones must apply). An
offer shows only the kinds (and markers) of what it gives, so a gift of any card is listed once
for its kind and markers, naming the first such card of the hand (docs/api.md).
"""

from __future__ import annotations

import itertools
import random

import pytest

import lifeboat_rules as lr
from lifeboat_rules.actions import Domain
from lifeboat_rules.bots import RandomPlayer
from lifeboat_rules.stages import Window

import invariants as inv

STATES_PER_SPEC = inv.budget(80, 800)


def domain_values(game, atype, param, by, rnd) -> list:
    """Every value a parameter can take in this game (and a few it cannot)."""
    state = game.state
    domain = param.domain
    if domain is Domain.CHARACTER:
        values = list(state.characters)
    elif domain is Domain.CARD:
        values = list(state.table.kinds)
    elif domain is Domain.CARD_OR_HAND:
        values = ["hand"] + list(state.table.kinds)
    elif domain is Domain.NAVCARD:
        values = list(state.table.navcards)
    elif domain is Domain.SIDE:
        values = ["attacker", "defender"]
    elif domain is Domain.PILE:
        drawn = state.drawn
        values = [list(pile) for size in range(len(drawn) + 1)
                  for pile in itertools.combinations(drawn, size)]
        values += [drawn[:1] * 2] if drawn else []
        others = [c for c in state.table.navcards if c not in drawn]
        if others:
            values.append([rnd.choice(others)])
    elif domain is Domain.OFFER:
        values = [o.id for o in state.offers] + ["o999"]
    elif domain is Domain.CARDS:
        if param.name == "take":
            values = [[]]
        else:
            values = [[c] for c in state.table.kinds]
    else:  # pragma: no cover - a new domain needs its values here
        raise AssertionError(f"no values for {domain}")
    if param.optional:
        values.append(None)
    return values


def every_move(game, atype, by, rnd):
    domains = [domain_values(game, atype, p, by, rnd) for p in atype.params]
    for values in itertools.product(*domains):
        yield tuple(values)


def gift_class(game, values) -> tuple:
    """What a single-card gift shows: to whom, the card's kind and its markers."""
    to, (card,), _ = values
    markers = sorted(m for m, cards in game.state.card_markers.items() if card in cards)
    return to, game.state.table.kinds[card], markers


def check_agreement(game, rnd) -> int:
    """``verdict`` accepts exactly what ``moves`` lists, for every character and type."""
    tried = 0
    for by in game.state.characters:
        moves = game.moves(by)
        listed = {(atype.name, repr(values)) for atype, values in moves}
        gifts = [gift_class(game, values) for atype, values in moves if atype.name == "offer"]
        assert len(gifts) == len({repr(g) for g in gifts}), f"{by}: a gift listed twice"
        hand = game.state.characters[by].hand
        for atype in game.rules.types.values():
            for values in every_move(game, atype, by, rnd):
                refusal = game.verdict(atype, by, values)
                key = (atype.name, repr(values))
                if refusal is None and atype.name == "offer":
                    shown = gift_class(game, values)
                    assert shown in gifts, f"{by}: a gift of {shown} is legal but not listed"
                    first = next(c for c in hand if gift_class(game, (shown[0], [c], [])) == shown)
                    assert (key in listed) == (values[1] == [first]), (by, values)
                elif refusal is None:
                    assert key in listed, f"{by}: {atype.name}{values} is legal but not listed"
                else:
                    assert key not in listed, \
                        f"{by}: {atype.name}{values} is listed but refused: {refusal.text()}"
                    assert refusal.rule.startswith(("R-", "API", "plugin")), refusal
                tried += 1
    return tried


def check_window_shortcuts(game) -> int:
    """A window asks each candidate cheaper questions than the listing (``available`` of its
    own action types, ``claims_any`` of the free types it claims): they answer as the listing
    does (``moves``, and ``claims`` of each listed move)."""
    top = game.top
    if not isinstance(top, Window) or game.over:
        return 0
    tried = 0
    types = game.rules.types
    claimed = [types[name] for name in top.claimed(game) if name in types]
    for by in game.state.characters:
        for atype in game.rules.kind_types.get(top.KIND, ()):
            if atype.available is not None:
                listed = bool(list(atype.moves(game, top, by)))
                assert bool(atype.available(game, top, by)) == listed, \
                    f"{by}: {atype.name} available says {not listed}, its moves say {listed}"
                tried += 1
        for atype in claimed:
            some = any(top.claims(game, atype, by, values) for values in atype.moves(game, top, by))
            assert top.claims_any(game, atype, by) == some, \
                f"{by}: {type(top).__name__}.claims_any of {atype.name} is {not some}, its moves say {some}"
            tried += 1
    return tried


def check_rich_offers(game, rnd) -> int:
    """Random richer offers: accepted ones apply (on a copy), refused ones change nothing."""
    state = game.state
    offer = game.rules.types["offer"]
    tried = 0
    for by in state.characters:
        for _ in range(3):
            to = rnd.choice(list(state.characters))
            mine = state.characters[by].hand
            theirs = state.characters[to].hand
            give = rnd.sample(mine, min(len(mine), rnd.randrange(3)))
            take = rnd.sample(theirs, min(len(theirs), rnd.randrange(3)))
            values = (to, give, take)
            refusal = game.verdict(offer, by, values)
            if refusal is None:
                game.clone().apply({"by": by, "type": "offer", "to": to, "give": give, "take": take})
            tried += 1
    return tried


def reachable_states(spec, count: int):
    """Games in random states: a state every few actions of random games."""
    number = 0
    while count > 0:
        rnd = random.Random(number)
        ruleset = inv.load(spec, inv.random_options(rnd))
        players = list(ruleset.players)[number % len(ruleset.players)]
        game = lr.new_game(ruleset, players=players, seed=number)
        bot = RandomPlayer(number, free_rate=0.15)
        while not game.over and count > 0:
            if rnd.random() < 0.25:
                yield game, rnd
                count -= 1
            game.apply(bot.act(game))
        number += 1


@pytest.mark.slow
@pytest.mark.parametrize("spec", inv.ruleset_specs(), ids=inv.spec_name)
def test_listing_and_check_agree_on_reachable_states(spec):
    tried = 0
    for game, rnd in reachable_states(spec, STATES_PER_SPEC):
        tried += check_agreement(game, rnd)
        tried += check_rich_offers(game, rnd)
        tried += check_window_shortcuts(game)
    inv.count(inv.spec_name(spec), "moves tried against the listing", tried)
    assert tried > 10_000


def test_listing_and_check_agree_on_a_few_states():
    """The same, fast: a handful of states of the base game (the full test is marked slow)."""
    for game, rnd in reachable_states({"extends": "classic"}, 6):
        assert check_agreement(game, rnd) > 0
        check_window_shortcuts(game)
