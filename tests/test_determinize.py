"""``game.determinize(c, seed)`` (docs/agents.md): a copy in which what ``c`` cannot see is dealt
again. The copy is a legal position (it saves and restores, and keeps every invariant), shows
``c`` exactly what the game shows it (its view now and its whole log), keeps the kind of every
card ``c`` has seen and the place of every navigation card it has followed, and over many seeds
the hidden parts vary."""

from __future__ import annotations

import random
from collections import Counter

import pytest

import lifeboat_rules as lr
from lifeboat_rules import Game
from lifeboat_rules.bots import RandomPlayer
from lifeboat_rules.stages import Window

import invariants as inv

SPECS = [{"extends": "classic"}, {"extends": "classic", "expansions": ["cannibalism"],
                                  "variants": ["shark", "quick"]},
         {"extends": "classic", "variants": ["single_card_rowing"],
          "options": {"rowing": "keep_one", "swap_turn_order": "swapped_acts_next"}},
         {"extends": "all_in_one"}]


def positions(spec: dict, games: int, every: int, players: int = 6, seed: int = 0,
              observe: bool = True):
    """(game, knowledge) at every ``every``-th step of random games: ``knowledge`` is what each
    player saw in its views and log so far (``invariants.Knowledge``), gathered step by step
    (with ``observe``)."""
    ruleset = lr.load_ruleset(spec)
    players = min(players, ruleset.content.setup["players"]["max"])
    for number in range(games):
        game = lr.new_game(ruleset, players=players, seed=seed + number)
        knowledge = inv.Knowledge(game)
        player = RandomPlayer(seed + number, free_rate=0.1)
        step = 0
        while not game.over:
            if observe:
                knowledge.observe(game)
            if step % every == every - 1:
                yield game, knowledge
            game.apply(player.act(game))
            step += 1


def known_ids(game: Game, viewer: str) -> set:
    """The ids of cards in hidden places that ``viewer`` may still name: those its decision
    shows (the cards passed to it), those its offers name, and cards gone out of the game."""
    view = game.view(viewer)
    shown = {c["id"] for c in view.get("decision", {}).get("cards", ())}
    shown |= {c for offer in view.get("offers", ()) for c in offer["give"] + offer["take"]}
    return shown | set(game.state.removed)


def check_copy(game: Game, viewer: str, seed: int, knowledge: inv.Knowledge) -> Game:
    copy = game.determinize(viewer, seed)
    assert copy is not game and copy.state is not game.state
    restored = Game.from_dict(copy.to_dict())           # a legal saved game
    assert inv.fingerprint(restored) == inv.fingerprint(copy)
    inv.check_all(copy, deep=False)
    assert copy.view(viewer) == game.view(viewer), f"{viewer} sees another game"
    assert copy.events_for(viewer) == game.events_for(viewer), f"{viewer}'s log differs"
    assert copy.legal_ids(viewer) == game.legal_ids(viewer)
    kinds = copy.state.table.kinds
    state, other = game.state, copy.state
    visible = set(other.discard) | {c for ch in other.characters.values() for c in ch.front}
    visible |= set(other.characters[viewer].hand)
    for card, kind in knowledge.cards[viewer]:
        if card in visible:   # still where it can see it (elsewhere it has another id now)
            assert kinds[card] == kind, f"{viewer} saw {card} as {kind}; the copy made it {kinds[card]}"
    # the ids the viewer may not see are new: none is one the game has or will show
    hidden = set(kinds) - visible - known_ids(game, viewer)
    assert not hidden & set(state.table.kinds), f"the copy keeps hidden ids {sorted(hidden)[:3]}"
    # the hidden parts keep their sizes and the decks their contents
    assert Counter(state.table.kinds.values()) == Counter(kinds.values())
    for who, character in state.characters.items():
        assert len(other.characters[who].hand) == len(character.hand)
    assert other.characters[viewer].hand == state.characters[viewer].hand
    assert sorted(state.navigation + state.rowing_pile + state.drawn) == \
        sorted(other.navigation + other.rowing_pile + other.drawn)
    assert sorted(c.love for c in state.characters.values()) == \
        sorted(c.love for c in other.characters.values())
    assert sorted(c.hate for c in state.characters.values()) == \
        sorted(c.hate for c in other.characters.values())
    assert other.rng != state.rng, "the copy would draw what the game draws"
    return copy


def test_copies_are_legal_and_show_the_viewer_the_same_game():
    checked = 0
    for game, knowledge in positions({"extends": "classic"}, games=1, every=13, seed=40):
        for viewer in game.state.characters:
            check_copy(game, viewer, checked, knowledge)
            checked += 1
    assert checked > 30


@pytest.mark.slow
@pytest.mark.parametrize("spec", SPECS, ids=inv.spec_name)
def test_copies_are_legal_in_many_positions(spec):
    checked = 0
    for game, knowledge in positions(spec, games=3, every=9):
        for viewer in game.state.characters:
            check_copy(game, viewer, checked, knowledge)
            checked += 1
    assert checked > 100


@pytest.mark.slow
def test_copies_in_open_windows_keep_who_is_pending():
    """In a window, who is pending says who has a window action (R-WIN-2): the copy deals
    hands that keep it so, for every viewer."""
    windows = Counter()
    for game, _ in positions({"extends": "classic"}, games=25, every=1, seed=100, observe=False):
        top = game.top
        if not isinstance(top, Window):
            continue
        windows[top.KIND] += 1
        for viewer in game.state.characters:
            copy = game.determinize(viewer, windows.total())
            assert copy.pending == game.pending
            assert copy.view(viewer) == game.view(viewer)
    assert windows["thirst"] > 10 and windows["fight"] > 10 and windows["overboard"] > 3


def _midgame(seed: int = 11, steps: int = 60) -> Game:
    game = lr.new_game("classic", players=6, seed=seed)
    player = RandomPlayer(seed, free_rate=0.0)
    for _ in range(steps):
        game.apply(player.act(game))
    assert not game.over
    return game


def test_hidden_parts_vary_over_seeds():
    game = _midgame()
    viewer = game.state.seats[0]
    others = [c for c in game.state.characters if c != viewer]
    loves, hands, supplies, decks, rngs = set(), set(), set(), set(), set()
    for seed in range(40):
        copy = game.determinize(viewer, seed)
        chars, kinds = copy.state.characters, copy.state.table.kinds
        loves.add(tuple((chars[c].love, chars[c].hate) for c in others))
        hands.add(tuple(kinds[card] for c in others for card in chars[c].hand))
        supplies.add(tuple(kinds[card] for card in copy.state.supply))
        decks.add(tuple(copy.state.navigation))
        rngs.add(copy.state.rng)
        # the viewer's own cards never change
        assert (chars[viewer].love, chars[viewer].hate) == \
            (game.state.characters[viewer].love, game.state.characters[viewer].hate)
    assert len(loves) > 30 and len(hands) > 30 and len(supplies) > 30 and len(decks) > 30
    assert len(rngs) == 40


def test_same_seed_same_copy():
    game = _midgame(seed=5)
    viewer = game.state.seats[-1]
    first, second = game.determinize(viewer, 3), game.determinize(viewer, 3)
    assert inv.fingerprint(first) == inv.fingerprint(second)


def test_copy_does_not_draw_what_the_game_will():
    """The copy's generator is seeded again: a robbery of a random hand card, settled in the
    game and in many copies, does not always take the card the game takes."""
    game = lr.new_game("classic", setup={
        "seats": ["lady_lauren", "the_kid", "frenchy", "first_mate"], "phase": "action",
        "hand": {"frenchy": ["water", "cash", "knife", "oar"]}, "supply": ["water"] * 4,
        "navigation": ["nav-19", "nav-20", "nav-21"]})
    viewer = "first_mate"
    actions = [a for a in game.legal_actions("lady_lauren") if a["type"] == "pass"]
    game.apply(actions[0])
    rob = {"by": "the_kid", "type": "rob", "target": "frenchy", "card": "hand"}
    taken = {e["card"] for e in game.clone().apply(rob) if e["type"] == "robbed"}
    other = set()
    for seed in range(20):
        copy = game.determinize(viewer, seed)
        other |= {e["card"] for e in copy.apply(rob) if e["type"] == "robbed"}
    assert other - taken, "every copy robbed the card the game robs"


def test_a_card_put_under_the_deck_stays_there():
    """A rower who puts every drawn card under the deck knows they are its last cards, and
    which: every copy keeps them there, in that order; another player does not know them."""
    game = lr.new_game("classic", setup={
        "seats": ["lady_lauren", "the_kid", "frenchy", "first_mate"], "phase": "action",
        "navigation": [f"nav-{n}" for n in range(19, 31)]})
    game.apply({"by": "lady_lauren", "type": "row"})
    drawn = [c["id"] for c in game.view("lady_lauren")["decision"]["cards"]]
    game.apply({"by": "lady_lauren", "type": "place", "pile": []})
    assert game.state.navigation[-2:] == drawn
    tails = set()
    for seed in range(30):
        assert game.determinize("lady_lauren", seed).state.navigation[-2:] == drawn
        tails.add(tuple(game.determinize("the_kid", seed).state.navigation[-2:]))
    assert len(tails) > 10


def test_a_supply_card_seen_while_picking_keeps_its_kind():
    """The second picker looked at the cards passed to it (R-SUPPLY-1): the one it passed on
    went to the third picker (the last card, taken without a choice), whose hand keeps that
    kind in its copies under an id the game never showed; the picks of the others that it
    never saw vary."""
    game = lr.new_game("classic", setup={
        "seats": ["lady_lauren", "the_kid", "frenchy"], "phase": "supply",
        "supply": ["water", "cash", "knife", "oar", "jewels", "chum"]})
    first = game.pending[0].by
    offered = game.view(first)["decision"]["cards"]
    game.apply({"by": first, "type": "pick", "card": offered[0]["id"]})
    second = game.pending[0].by
    seen = {c["id"]: c["kind"] for c in game.view(second)["decision"]["cards"]}
    game.apply({"by": second, "type": "pick", "card": sorted(seen)[0]})
    passed_on = sorted(seen)[1]
    third = game.state.seats[2]
    assert game.state.characters[third].hand and passed_on not in game.state.table.kinds
    kinds_of_first = set()
    for seed in range(30):
        copy = game.determinize(second, seed)
        kinds = copy.state.table.kinds
        assert [kinds[c] for c in copy.state.characters[third].hand] == [seen[passed_on]]
        assert not set(copy.state.characters[third].hand) & set(game.state.table.kinds)
        kinds_of_first.add(kinds[copy.state.characters[first].hand[0]])
    assert len(kinds_of_first) > 1


def test_cards_still_being_passed_are_any_of_those_passed_on():
    """The first picker saw the cards it passed on, but not which of them the second picker
    kept: while the third is choosing, the cards still being passed are dealt again from
    those it passed on (never a card it did not see), and not always the true ones."""
    game = lr.new_game("classic", setup={
        "seats": ["lady_lauren", "the_kid", "frenchy", "first_mate"], "phase": "supply",
        "supply": ["water", "cash", "knife", "oar", "jewels", "chum", "compass", "parasol"]})
    first = game.pending[0].by
    offered = {c["id"]: c["kind"] for c in game.view(first)["decision"]["cards"]}
    mine = sorted(offered)[0]
    game.apply({"by": first, "type": "pick", "card": mine})
    passed = sorted(k for c, k in offered.items() if c != mine)
    second = game.pending[0].by
    game.apply({"by": second, "type": "pick",
                "card": game.view(second)["decision"]["cards"][0]["id"]})
    truth = sorted(game.state.table.kinds[c] for c in game.state.passing)
    found = set()
    for seed in range(40):
        copy = game.determinize(first, seed)
        kinds = copy.state.table.kinds
        being_passed = sorted(kinds[c] for c in copy.state.passing)
        assert len(being_passed) == 2 and set(being_passed) <= set(passed)
        held = [kinds[c] for c in copy.state.characters[second].hand]
        assert sorted(being_passed + held) == passed, "the three passed on are where they went"
        assert not set(copy.state.passing) & set(game.state.table.kinds)
        found.add(tuple(being_passed))
    assert len(found) > 1 and found != {tuple(truth)}


def test_an_over_game_copies_as_it_is():
    game = _midgame(seed=8, steps=0)
    player = RandomPlayer(8)
    while not game.over:
        game.apply(player.act(game))
    copy = game.determinize(next(iter(game.state.characters)), 1)
    assert copy.result == game.result
    inv.check_all(copy, deep=False)


def test_refuses_what_is_not_a_character():
    game = _midgame(seed=1, steps=3)
    with pytest.raises(ValueError):
        game.determinize("nobody", 1)
    with pytest.raises(ValueError):
        game.determinize(None, 1)
    with pytest.raises(ValueError):
        game.determinize(game.state.seats[0], "seed")


def test_the_log_determinize_reads_is_the_viewers_log():
    """``views.told`` (read only, shared with the log) is exactly ``events_for``."""
    from lifeboat_rules.bots import RandomPlayer
    from lifeboat_rules.views import told
    for ruleset in ("classic", "all_in_one"):
        game = lr.new_game(ruleset, players=5, seed=3)
        bot = RandomPlayer(3, free_rate=0.2)
        steps = 0
        while not game.over and steps < 400:
            game.apply(bot.act(game))
            steps += 1
            if steps % 37 == 0:
                for viewer in list(game.state.characters) + [None]:
                    assert told(game, viewer) == game.events_for(viewer)
