"""``python_lifeboat``'s tensors kept up to date step by step (``lifeboat_rules.openspiel.Tensors``)
are the tensors made from scratch, at every step of whole games, for every player, under
several rulesets; and the check that says so fails when an update is skipped."""

from __future__ import annotations

import os
import sys

import pytest

pyspiel = pytest.importorskip("pyspiel", reason="the OpenSpiel adapter needs the rl extra: "
                                                "pip install -e '.[rl]' (CI installs it)")
import numpy as np  # noqa: E402

import lifeboat_rules.openspiel  # noqa: E402,F401  (registers python_lifeboat)
from lifeboat_rules.encoding import DIGEST_WORDS  # noqa: E402
from lifeboat_rules.openspiel import Tensors  # noqa: E402

EXAMPLES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "docs", "examples")

# (ruleset, players, first seed byte, an event the game must have): Liquid Courage (a drink),
# Cannibalism (a body eaten), the edition with both, the shark
GAMES = [("classic", 6, 1, "fight"), ("liquid_courage", 5, 3, "drink"),
         ("cannibalism", 4, 4, "eaten"), ("all_in_one", 7, 4, "drink"), ("shark", 5, 1, "shark")]


def dealt(game, seed: int):
    state = game.new_initial_state()
    for byte in (seed, 9, 0, 0):
        state.apply_action(byte)
    return state


def words(digest: bytes) -> list:
    return [int.from_bytes(digest[i:i + 2], "big") / 65536 for i in range(0, 2 * DIGEST_WORDS, 2)]


def from_scratch(state, player: int) -> np.ndarray:
    """``player``'s information-state tensor made from nothing kept: its observation encoded
    from its view, the public digest, its ``seen`` counted from its whole log
    (``events_for``), its own digest."""
    lgame = state.game
    character = state.seats[player]
    encoder = state.shared.encoder
    public, own = state.recall.digests(lgame, character)
    seen = encoder.learn({}, lgame.events_for(character), character)
    return np.array(encoder.observation(lgame, character) + words(public)
                    + encoder.seen_vector(seen) + words(own), np.float32)


def replayed(game, state):
    """A state given the same history in one go: its records read every step at once when
    first asked (no step-by-step update)."""
    other = game.new_initial_state()
    for action in state.history():
        other.apply_action(action)
    return other


def mismatches(state) -> list:
    """``[(player, index of the first wrong number)]``: where the tensors kept step by step
    differ from those made from scratch (and from a fresh ``Tensors`` written whole)."""
    size = state.shared.encoder.size
    wrong = []
    kept = [state.information_state_tensor(p) for p in range(state.shared.players)]
    fresh = state.clone()               # a copy starts with empty tensors: written whole
    assert fresh.tensors.step == -1
    for player, tensor in enumerate(kept):
        expected = from_scratch(state, player)
        assert tensor.dtype == np.float32 and tensor.shape == expected.shape
        for got in (tensor, fresh.information_state_tensor(player)):
            if not np.array_equal(got, expected):
                wrong.append((player, int(np.flatnonzero(got != expected)[0])))
        if not np.array_equal(state.observation_tensor(player), expected[:size]):
            wrong.append((player, "observation"))
    return wrong


def cannibal(state, action: int) -> bool:
    """Whether ``action`` uses a cannibalism card or objects to one (R-CANN-1, R-CANN-2)."""
    lgame = state.game
    data = lgame.action_of(state.seats[state.current_player()], action)
    return data["type"] == "object" or data["type"] == "use" and \
        lgame.state.table.kinds.get(data.get("card")) == "cannibalism"


def play(ruleset: str, players: int, seed: int, check):
    """A whole game of random legal moves (cannibalism first when it may be played, else it
    seldom is); ``check(state, move)`` after every move."""
    game = pyspiel.load_game("python_lifeboat", {"ruleset": ruleset, "players": players})
    state = dealt(game, seed)
    rnd = np.random.default_rng(seed)
    move = 0
    check(state, move)
    while not state.is_terminal():
        legal = state.legal_actions()
        state.apply_action(int(rnd.choice([a for a in legal if cannibal(state, a)] or legal)))
        move += 1
        check(state, move)
    return game, state, move


@pytest.mark.parametrize("ruleset, players, seed, event", GAMES)
def test_the_tensors_kept_step_by_step_are_the_ones_made_from_scratch(ruleset, players, seed,
                                                                        event):
    """At every step of a whole game, every player's tensor as ``Tensors`` keeps it equals the
    one made from scratch; every 25 moves and at the end, a state given the whole history at
    once (its records read in one go) gives the same tensors."""
    game = whole_game_checked(ruleset, players, seed, event)
    assert not game.ruleset.rules.guarded


def test_with_code_from_outside_the_tensors_are_the_ones_made_from_scratch(monkeypatch):
    """A ruleset with a plugin from outside the package (the house rule of
    docs/house-rules.md, whose Storm throws the stern overboard): ``Tensors`` looks at every
    character's block at every step, and its tensors are still the ones made from scratch."""
    monkeypatch.syspath_prepend(os.path.join(EXAMPLES, "storm"))
    try:
        game = whole_game_checked(os.path.join(EXAMPLES, "storm.yaml"), 6, 2, "overboard")
        assert game.ruleset.rules.guarded
    finally:
        sys.modules.pop("lifeboat_storm", None)


def seed_with(ruleset: str, players: int, seed: int, event: str) -> int:
    """The first seed from ``seed`` on whose random game has ``event`` and over 60 moves (which
    random game shows what changes with the moves the engine lists)."""
    for tried in range(seed, seed + 60):
        _, state, moves = play(ruleset, players, tried, lambda state, move: None)
        if moves > 60 and any(e["type"] == event for e in state.game.log):
            return tried
    raise AssertionError(f"no game of {ruleset} from seed {seed} on has a {event!r} event")


def whole_game_checked(ruleset: str, players: int, seed: int, event: str):
    seed = seed_with(ruleset, players, seed, event)
    written = []

    def check(state, move):
        before = state.tensors.written
        assert mismatches(state) == [], (ruleset, move)
        written.append(state.tensors.written - before)
        if move % 25 == 0:
            other = replayed(state.get_game(), state)
            for p in range(players):
                assert np.array_equal(other.information_state_tensor(p),
                                      state.information_state_tensor(p)), (ruleset, move, p)

    game, state, moves = play(ruleset, players, seed, check)
    assert moves > 60 and any(e["type"] == event for e in state.game.log)
    other = replayed(game, state)
    for p in range(players):
        assert np.array_equal(other.information_state_tensor(p),
                              state.information_state_tensor(p))
    # step by step, a step writes a few parts, not the whole of every tensor
    assert sum(written[1:]) / len(written[1:]) < 20
    return game


def test_the_check_fails_when_an_update_is_skipped():
    """The comparison above can fail: skip one step's refresh, or one part of one (a hand, a
    character's block, a player's memory), and the tensors kept differ from those made from
    scratch."""
    found = {"step": 0, "hand": 0, "block": 0, "memory": 0}

    def check(state, move):
        if move == 0 or state.is_terminal():
            return
        tensors = state.tensors
        kind = list(found)[move % 4]
        if found[kind] >= 2 or tensors.rows is None:
            state.information_state_tensor(0)   # written at this step: spoilt at a later one
            return
        lgame = state.game
        if kind == "step":          # the whole update of this step skipped
            tensors.step = state.recall.count
        elif kind == "hand":        # a hand that changed taken as unchanged
            changed = [p for p, c in enumerate(state.seats)
                       if tensors.mine[p][1] != lgame.state.characters[c].hand]
            if not changed:
                return
            tensors.mine[changed[0]][1] = lgame.state.characters[state.seats[changed[0]]].hand[:]
        elif kind == "block":       # a character's flags that changed taken as unchanged
            pending = {d.by for d in lgame.pending}
            for who, ch in lgame.state.characters.items():
                flags = (ch.status, ch.lost, ch.ghost, ch.size, ch.damage, ch.survival,
                         len(ch.hand), tuple(ch.markers), who in pending)
                if tensors.blocks[who][0] != flags:
                    tensors.blocks[who][0] = flags
                    break
            else:
                return
        else:                       # a player's memory that changed taken as unchanged
            state.recall.digests(lgame, None)
            changed = [p for p, c in enumerate(state.seats)
                       if state.recall.private[c].digest != tensors.mine[p][4]]
            if not changed:
                return
            tensors.mine[changed[0]][4] = state.recall.private[state.seats[changed[0]]].digest
        assert mismatches(state), (kind, move)
        found[kind] += 1
        state.tensors = Tensors()   # on from a good state

    play("classic", 6, 5, check)
    assert all(found.values()), found


def test_a_part_kept_by_what_it_shows_is_the_part_made_anew():
    """``Tensors`` keeps the stage and decision parts by what they show
    (``Encoder.stage_key``, ``Encoder.decision_key``: no card ids, no stake) and does not
    ask the stages of the package it shows as zeros (``openspiel.SILENT``). Over random games
    of every built-in ruleset, stages or decisions with equal keys have equal parts, and every
    stage class taken as silent shows as zeros."""
    import random

    import lifeboat_rules as lr
    from lifeboat_rules.encoding import Encoder, decision_of
    from lifeboat_rules.openspiel import SILENT
    from lifeboat_rules.rulesets import builtin_rulesets

    stage_kinds = set()
    decisions = 0
    for name in builtin_rulesets():
        ruleset = lr.load_ruleset(name)
        players = max(ruleset.players)
        encoder = Encoder(ruleset, players)
        parts: dict = {}          # key: the part made anew (one encoder's)
        for seed in range(6):
            game = lr.new_game(ruleset, players=players, seed=seed)
            choices = random.Random(seed)
            while not game.over:
                top = game.top
                if top is not None:
                    stage = top.public(game)
                    kind = (stage or {}).get("kind")
                    stage_kinds.add(kind)
                    made = encoder.stage(stage)
                    key = ("stage", encoder.stage_key(stage))
                    assert parts.setdefault(key, made) == made, (key, stage)
                    if SILENT.get(type(top)):
                        assert not any(made) and kind not in Encoder.STAGE_KINDS
                    for decision in game.pending:
                        shown = decision_of(game, decision.by)
                        made = encoder.decision(shown)
                        key = encoder.decision_key(shown)
                        assert parts.setdefault(key, made) == made, (key, shown)
                        decisions += 1
                who = game.pending[0].by
                ids = game.legal_ids(who)
                game.apply_id(who, ids[choices.randrange(len(ids))])
    assert Encoder.STAGE_KINDS <= stage_kinds and decisions > 1000
