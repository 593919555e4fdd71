"""Who is pending in a window follows from public facts alone (R-WIN-2), and the option
``window_pending: holders`` (R-WIN-3) plays the same games, with only the passes of characters
that have nothing to play left out.

Who is pending is shown to every player (``pending``, the views, the adapters' current player,
the web table's "waiting for"), so it must not change when the hidden cards are dealt
differently. The expected behaviour comes from the rules, not from the engine: a hidden re-deal
keeps every public fact (hand sizes, cards face up, the discard pile) and so must keep who is
pending.
"""

from __future__ import annotations

import random

import pytest

import lifeboat_rules as lr
from lifeboat_rules.bots import RandomBot, RandomPlayer
from lifeboat_rules.stages import Window
from lifeboat_rules.state import Table

RULESETS = [
    ("classic", 6), ("cannibalism", 7), ("liquid_courage", 7), ("all_in_one", 8),
    ({"name": "shark", "variants": ["shark"]}, 5),
]


def holders(ruleset):
    """The same ruleset with ``window_pending: holders``."""
    if isinstance(ruleset, str):
        return {"name": f"{ruleset}-holders", "extends": ruleset,
                "options": {"window_pending": "holders"}}
    return dict(ruleset, name=f"{ruleset['name']}-holders", options={"window_pending": "holders"})


def redealt(game, rng: random.Random):
    """A copy whose hidden cards (every hand, the supply deck, the cards set aside unseen) have
    their kinds dealt again at random: every public fact stays, the hands change."""
    copy = game.clone()
    state = copy.state
    table = state.table
    hidden = [c for ch in state.characters.values() for c in ch.hand]
    hidden += state.supply + [c for c in state.removed if c not in state.removed_face_up]
    kinds = [table.kinds[c] for c in hidden]
    rng.shuffle(kinds)
    new = dict(table.kinds)
    new.update(zip(hidden, kinds))
    state.table = Table(new, table.navcards)
    copy.refresh()
    return copy


def window_states(ruleset, players, seeds):
    """Games (copies) at every moment a window is open, from random games."""
    for seed in seeds:
        game = lr.new_game(lr.load_ruleset(ruleset), players=players, seed=seed)
        driver = RandomPlayer(seed, free_rate=0.1)
        while not game.over:
            if isinstance(game.top, Window):
                yield game.clone()
            game.apply(driver.act(game))


@pytest.mark.parametrize("ruleset,players", RULESETS, ids=lambda r: str(r) if not isinstance(r, dict) else r["name"])
def test_who_is_pending_in_a_window_does_not_depend_on_the_hands(ruleset, players):
    rng = random.Random(7)
    checked = 0
    for game in window_states(ruleset, players, range(6)):
        pending = [(d.by, d.kind) for d in game.pending]
        for _ in range(3):
            other = redealt(game, rng)
            assert [(d.by, d.kind) for d in other.pending] == pending, \
                f"who is pending changed with the hidden cards: {pending}"
            # the view everyone sees says the same
            assert other.view(None)["pending"] == game.view(None)["pending"]
        checked += 1
    assert checked > 20


def test_a_fighter_is_asked_whether_or_not_it_holds_a_weapon():
    # the leak R-WIN-2 closes: being asked in a fight told the table who held a weapon
    asked = {True: [0, 0], False: [0, 0]}    # holds a weapon -> [asked, cases]
    for game in window_states("classic", 6, range(40)):
        top = game.top
        if top.NAME != "fight" or top.passed:
            continue
        pending = {d.by for d in game.pending}
        weapons = game.rules.kinds_with("weapon")
        unseen = any(k in weapons and c not in game.state.discard
                     and not any(c in ch.front for ch in game.state.characters.values())
                     for c, k in game.state.table.kinds.items())
        for who in top.attackers + top.defenders:
            character = game.state.characters[who]
            if not character.awake or not character.hand or not unseen:
                continue
            armed = any(game.state.table.kinds[c] in weapons for c in character.hand)
            asked[armed][1] += 1
            asked[armed][0] += who in pending
    assert asked[True][1] and asked[False][1]
    assert asked[True][0] == asked[True][1] and asked[False][0] == asked[False][1], asked


def lockstep(ruleset, players, seed):
    """Play one game under both options with the same choices: under the default, a character
    pending with nothing to play passes (R-WIN-2); every other action is the same in both.
    Returns the two finished games and how many such passes there were."""
    public = lr.new_game(lr.load_ruleset(ruleset), players=players, seed=seed)
    held = lr.new_game(lr.load_ruleset(holders(ruleset)), players=players, seed=seed)
    assert public.events == held.events
    bot = RandomBot(seed, free_rate=0.1)
    rng = random.Random(seed)
    extra_passes = 0
    told = {"public": [], "holders": []}   # the events each game told, passes of the asked left out
    while not (held.over and public.over):   # the last passes of the asked may end it
        asked = [(d.by, d.kind) for d in public.pending]
        acting = [(d.by, d.kind) for d in held.pending]
        extra = [d for d in asked if d not in acting]   # a window the other game did not open, too
        if extra:
            who = extra[0][0]
            assert isinstance(public.top, Window)
            # pending with nothing to play: it can only pass (its other moves are free ones)
            free = public.rules.free_names
            types = {a["type"] for a in public.legal_actions(who)}
            assert types - free == {"pass"}, f"{who} asked with {sorted(types)}"
            events = public.apply({"by": who, "type": "pass"})
            assert [e["type"] for e in events[:2]] == ["action", "pass"]
            told["public"] += events[2:]      # a last pass closes the window: what follows counts
            extra_passes += 1
            continue
        assert asked == acting
        who = acting[rng.randrange(len(acting))][0]
        actions = held.legal_actions(who)
        assert public.legal_actions(who) == actions, "the same actions are legal (R-WIN-3)"
        action = bot.choose(held, who)
        told["public"] += public.apply(action)
        told["holders"] += held.apply(action)
    assert public.over
    assert told["public"] == told["holders"], "the games told different stories"
    return public, held, extra_passes


@pytest.mark.parametrize("ruleset,players", RULESETS, ids=lambda r: str(r) if not isinstance(r, dict) else r["name"])
def test_holders_plays_the_same_games_without_the_empty_passes(ruleset, players):
    passes = 0
    for seed in range(8):
        public, held, extra = lockstep(ruleset, players, seed)
        passes += extra
        assert public.result == held.result
        view = public.view(None)
        other = held.view(None)
        assert view["characters"] == other["characters"] and view["seats"] == other["seats"]
    assert passes > 0, "no game asked anyone with nothing to play: the test shows nothing"


def test_holders_is_a_ruleset_option():
    assert lr.load_ruleset("classic").options["window_pending"] == "public"
    assert lr.load_ruleset(holders("classic")).options["window_pending"] == "holders"
    with pytest.raises(lr.ContentError, match="window_pending"):
        lr.load_ruleset({"options": {"window_pending": "everyone"}})
