"""Card ids are secrets like kinds (docs/api.md, Per-player events and words; R-SUPPLY-1:
"keeps one secretly", nor through a card's identity).

A player sees the id of a card only where it could see where that card went: once a card it
saw goes into a hand it may not see, no id it is shown later (in its view, its log, its legal
actions, the actions its integers stand for, the words of its log) is one it saw before, and
it is shown no id of a card while that card is in such a hand (an offer shows the kinds of
the cards it gives, not their ids), and no id is ever in the words of its log or its feed. The tests follow each physical card through
the game from the unredacted log and the state (``Follower``), independently of how the
engine names cards, and look at every channel of every player after every step.

The supply pass with three pickers is also checked as two games that differ only in which of
two cards of one kind the second picker kept: the first picker saw both, so everything it is
shown, to the end of the game, must be the same in both.
"""

from __future__ import annotations

import random
import re

import pytest

import lifeboat_rules as lr
from lifeboat_rules.bots import HeuristicBot, RandomPlayer
from lifeboat_rules.rules.setup import deal
from lifeboat_rules.rulesets import builtin_rulesets

import invariants as inv

ID_TEXT = re.compile(r"p[0-9a-f]{8}|p[0-9]{1,6}")


class Follower:
    """Where each physical card of a game is, and under which ids it went, read from the
    unredacted log and checked against the state after every step. A card is named by the id
    it had when the game began (its label)."""

    def __init__(self, state):
        """``state``: the game as dealt, before its first event (``setup.deal``)."""
        self.label = {card: card for card in state.table.kinds}   # every id -> its card
        self.where: dict = {}           # current id -> its zone, as the log names zones
        self.kind = dict(state.table.kinds)
        for zone in ("supply", "passing", "discard", "removed"):
            for card in getattr(state, zone):
                self.where[card] = zone
        for who, character in state.characters.items():
            for card in character.hand:
                self.where[card] = f"hand:{who}"
            for card in character.front:
                self.where[card] = f"front:{who}"

    def follow(self, game, event: dict) -> tuple | None:
        """Take one logged event into account; for a card going into a hand, returns
        ``(label, the hand's owner)``."""
        if event.get("type") != "move" or event.get("kind") is None:
            return None
        card, source, target = event["card"], event["from"], event["to"]
        if card in self.where:
            assert self.where[card] == source, f"{card} moves from {source}, was in {self.where[card]}"
        else:
            # a new id: the card that left the source under an id the state no longer has
            gone = [c for c, z in self.where.items() if z == source and c not in game.state.table.kinds
                    and self.kind[self.label[c]] == event["kind"]]
            assert gone, f"{card} ({event['kind']}) came from {source}, but no card left it"
            old = gone[0]
            del self.where[old]
            self.label[card] = self.label[old]
        self.where[card] = target
        if target.startswith("hand:"):
            return self.label[card], target[5:]
        return None

    def check(self, game) -> None:
        state = game.state
        now = {c: z for c, z in self.where.items()}
        assert set(now) == set(state.table.kinds), "the follower lost a card"
        for card in state.supply:
            assert now[card] == "supply"
        for who, character in state.characters.items():
            for card in character.hand:
                assert now[card] == f"hand:{who}", f"{card} is in {who}'s hand, not {now[card]}"


def visible_to(zone: str, viewer: str, game) -> bool:
    """Whether ``viewer`` sees where a card in ``zone`` is now (a face-up card, the discard
    pile, its own hand, the cards passed to it while it picks)."""
    if zone.startswith("front:") or zone == "discard" or zone == f"hand:{viewer}":
        return True
    if zone == "passing":
        return any(d.by == viewer and d.kind == "pick" for d in game.pending)
    return False


def ids_in(value, known: dict) -> set:
    """The card ids (of any time of the game) anywhere in a JSON-like value."""
    return {s for s in inv.strings_in(value) if s in known}


class Sightings:
    """Every id each player is shown, by card and by epoch: an epoch of a card, for a player,
    ends when the card goes into a hand the player may not see."""

    def __init__(self, game):
        self.viewers = list(game.state.characters)
        self.epoch = {v: {} for v in self.viewers}        # viewer -> label -> epoch
        self.seen = {v: {} for v in self.viewers}         # viewer -> id -> epoch seen in
        self.shown = 0

    def entered(self, label: str, owner: str) -> None:
        for viewer in self.viewers:
            if viewer != owner:
                self.epoch[viewer][label] = self.epoch[viewer].get(label, 0) + 1

    def see(self, game, follower: Follower, viewer: str, ids: set, where: str,
            zones: dict | None = None) -> None:
        """``viewer`` is shown ``ids`` now (a view, its legal actions) or, with ``zones``, in
        the log of one step: ``zones`` gives every place each id was in during that step (an
        action names its card before the card moves: a card played goes face up)."""
        for card in ids:
            label = follower.label[card]
            epoch = self.epoch[viewer].get(label, 0)
            before = self.seen[viewer].get(card)
            assert before is None or before == epoch, (
                f"{viewer} saw {card} before {label} went into a hand it may not see, and is "
                f"shown it again ({where})")
            self.seen[viewer][card] = epoch
            self.shown += 1
            places = zones.get(card, set()) if zones is not None else {follower.where.get(card)}
            if zones is not None and "passing" in places:
                # the cards being passed: the picker looking at them is the one pending when
                # they are drawn, and a pick names its card to the picker (R-SUPPLY-1)
                continue
            assert any(z is not None and visible_to(z, viewer, game) for z in places), (
                f"{viewer} is shown {card} ({where}) while it is in {sorted(map(str, places))}")


def check_step(game, follower: Follower, sightings: Sightings, since: int) -> None:
    """The log from ``since`` on, and every player's channels after it."""
    known = follower.label
    viewers = sightings.viewers
    logs = {v: game.events_for(v, since) for v in viewers}
    zones = {card: {zone} for card, zone in follower.where.items()}
    hands = []
    for event in game.log[since:]:
        entered = follower.follow(game, event)
        if entered is not None:
            hands.append(entered)
        if event.get("type") == "move" and event.get("kind") is not None:
            zones.setdefault(event["card"], set()).add(event["to"])
    for offset in range(len(game.log) - since):
        for v in viewers:
            told = logs[v][offset]
            ids = ids_in(told, known)
            sightings.see(game, follower, v, ids, f"log entry {since + offset}: {told}", zones)
            text = lr.describe(told, game)
            assert not {m for m in ID_TEXT.findall(text) if m in known}, f"an id in words: {text}"
    for v in viewers:           # the feed a person reads, built on the log: no ids in words
        for entry in game.feed(v, since):
            assert not {m for m in ID_TEXT.findall(entry["text"]) if m in known}, entry
    for entered in hands:      # what it is shown from now on belongs to the card's next epoch
        sightings.entered(*entered)
    follower.check(game)
    for v in viewers:
        view = game.view(v)
        sightings.see(game, follower, v, ids_in(view, known), "its view")
        listed = game.legal_actions(v)
        sightings.see(game, follower, v, ids_in(listed, known), "its legal actions")
        by_number = [game.action_of(v, i) for i in game.legal_ids(v)]
        sightings.see(game, follower, v, ids_in(by_number, known), "its integer actions")


def play_and_check(ruleset, players: int, seed: int, bot: str) -> int:
    game = lr.new_game(ruleset, players=players, seed=seed)
    follower = Follower(deal(ruleset, players, seed))
    sightings = Sightings(game)
    check_step(game, follower, sightings, 0)
    if bot == "random":
        player = RandomPlayer(seed, free_rate=0.15)
        act = player.act
    else:
        heuristic = HeuristicBot(seed)
        rnd = random.Random(seed)

        def act(game):
            # the heuristic for the one deciding; now and then a trade or a play by anyone,
            # so that cards go from hand to hand (R-TRADE-1)
            if rnd.random() < 0.1:
                who = rnd.choice(list(game.state.characters))
                free = [a for a in game.legal_actions(who)
                        if a["type"] in ("offer", "accept_offer", "play")]
                if free:
                    return rnd.choice(free)
            who = game.pending[0].by
            return heuristic.choose(game, who)
    steps = 0
    while not game.over and steps < inv.MAX_ACTIONS_PER_GAME:
        since = len(game.log)
        game.apply(act(game))
        check_step(game, follower, sightings, since)
        steps += 1
    assert sightings.shown > 0
    return steps


RULESETS = builtin_rulesets()


@pytest.mark.parametrize("bot", ["random", "heuristic"])
@pytest.mark.parametrize("name", RULESETS)
def test_no_player_follows_a_card_into_a_hand_it_may_not_see(name, bot):
    ruleset = lr.load_ruleset(name)
    low, high = (ruleset.content.setup["players"][k] for k in ("min", "max"))
    for seed in range(inv.budget(2, 12)):
        play_and_check(ruleset, low + seed % (high - low + 1), 1000 + seed, bot)


# --------------------------------------------------------------------------- the supply pass

SUPPLY = {"seats": ["lady_lauren", "the_kid", "frenchy"], "phase": "supply",
          "supply": ["water", "water", "knife"], "navigation": [{"id": "calm"}, {"id": "still"}]}


def everything_shown(game, viewer: str) -> dict:
    """All that ``viewer`` is shown now: its view, log, legal actions and integers, and the
    actions and words those stand for."""
    ids = game.legal_ids(viewer)
    return {"view": game.view(viewer), "log": game.events_for(viewer),
            "actions": game.legal_actions(viewer), "ids": ids,
            "by_id": [game.action_of(viewer, i) for i in ids],
            "words": [lr.describe(e, game) for e in game.events_for(viewer)]}


def supply_twins(kept_second: int):
    """The three-picker pass: Lady Lauren draws water, water, knife and keeps the knife; the
    Kid keeps the first or the second water (``kept_second``); Frenchy gets the other."""
    game = lr.new_game("classic", setup=SUPPLY, seed=5)
    first = game.pending[0].by
    assert first == "lady_lauren"
    cards = game.view(first)["decision"]["cards"]
    assert [c["kind"] for c in cards] == ["water", "water", "knife"]
    game.apply({"by": first, "type": "pick", "card": cards[2]["id"]})
    waters = game.view("the_kid")["decision"]["cards"]
    game.apply({"by": "the_kid", "type": "pick", "card": waters[kept_second]["id"]})
    return game, [c["id"] for c in cards[:2]]


def test_the_first_picker_cannot_tell_which_card_a_later_picker_kept():
    """R-SUPPLY-1: "keeps one secretly". Lady Lauren saw both waters (with their ids); which
    one the Kid kept is all that differs between the two games, and she is shown exactly the
    same in both, now and after the Kid gives his water to her (it comes back to her hand, and
    nothing, not even its integer action, tells her which of the two she saw it is)."""
    one, seen = supply_twins(0)
    other, _ = supply_twins(1)
    assert one.to_dict() != other.to_dict()      # the games differ (which water is where)
    assert everything_shown(one, "lady_lauren") == everything_shown(other, "lady_lauren")
    # the waters she saw are in hands she may not see: their ids are gone for good
    for game in (one, other):
        for character in ("the_kid", "frenchy"):
            assert not set(game.state.characters[character].hand) & set(seen)
        shown = inv.strings_in(everything_shown(game, "lady_lauren"))
        later = shown - set(seen)
        kid_water = game.state.characters["the_kid"].hand[0]
        assert kid_water not in later and game.state.characters["frenchy"].hand[0] not in later
    # the action phase: the Kid gives his water to Lady Lauren (a trade, R-TRADE-1); it comes
    # back into her hand under an id she never saw, and its integer tells nothing either
    for game in (one, other):
        while game.pending[0].kind != "turn":
            game.apply({"by": game.pending[0].by, "type": "pass"})
        kid_water = game.state.characters["the_kid"].hand[0]
        game.apply({"by": "the_kid", "type": "offer", "to": "lady_lauren", "give": [kid_water],
                    "take": []})
        game.apply({"by": "lady_lauren", "type": "accept_offer"})
        back = [c for c in game.state.characters["lady_lauren"].hand
                if game.state.table.kinds[c] == "water"]
        assert len(back) == 1 and back[0] not in seen
    assert everything_shown(one, "lady_lauren") == everything_shown(other, "lady_lauren")
    # and Frenchy, who saw only the water passed to him, learns nothing of the Kid's either
    assert everything_shown(one, "frenchy")["view"]["characters"]["the_kid"] == \
        everything_shown(other, "frenchy")["view"]["characters"]["the_kid"]


def test_the_later_pickers_see_only_their_own_card():
    """The Kid is shown the id of the water he kept (in his hand), Frenchy of his own; the
    first picker's log shows the moves into their hands without any id; the pick itself
    names its card to the picker only."""
    game, seen = supply_twins(0)
    kid, french = (game.state.characters[c].hand[0] for c in ("the_kid", "frenchy"))
    for viewer, mine, theirs in (("the_kid", kid, french), ("frenchy", french, kid)):
        shown = inv.strings_in(everything_shown(game, viewer))
        assert mine in shown and theirs not in shown
    log = game.events_for("lady_lauren")
    into_hands = [e for e in log if e.get("type") == "move" and e.get("from") == "passing"
                  and e.get("to") in ("hand:the_kid", "hand:frenchy")]
    assert len(into_hands) == 2 and all("card" not in e and "kind" not in e for e in into_hands)
    picks = [e["action"] for e in log if e.get("type") == "action"
             and e["action"]["type"] == "pick" and e["action"]["by"] != "lady_lauren"]
    assert picks and all("card" not in a for a in picks)


def test_refusals_do_not_tell_whether_an_id_still_names_a_card():
    """With four seats, Lady Lauren saw the waters she passed on; the Kid kept one (its id is
    gone) and the other is still being passed: an action naming the id the Kid's card had and
    one naming the id of the card still being passed are refused alike (a refusal is a
    channel too)."""
    game = lr.new_game("classic", seed=5, setup={
        "seats": ["lady_lauren", "the_kid", "frenchy", "sir_stephen"], "phase": "supply",
        "supply": ["water", "water", "knife", "cash"], "navigation": [{"id": "calm"}]})
    cards = game.view("lady_lauren")["decision"]["cards"]
    game.apply({"by": "lady_lauren", "type": "pick", "card": cards[2]["id"]})
    offered = game.view("the_kid")["decision"]["cards"]
    game.apply({"by": "the_kid", "type": "pick", "card": offered[0]["id"]})
    gone, passing = offered[0]["id"], offered[1]["id"]
    assert gone not in game.state.table.kinds and passing in game.state.passing

    def refusal(card, **action):
        with pytest.raises(lr.IllegalAction) as caught:
            game.apply({"by": "lady_lauren", "card": card, **action})
        return caught.value.rule, str(caught.value).replace(card, "ID")

    for action in ({"type": "play"}, {"type": "pick"}, {"type": "use"},
                   {"type": "rob", "target": "the_kid"}):
        assert refusal(gone, **action) == refusal(passing, **action)
    with pytest.raises(lr.IllegalAction) as one:
        game.apply({"by": "lady_lauren", "type": "offer", "to": "frenchy", "give": [], "take": [gone, gone]})
    with pytest.raises(lr.IllegalAction) as other:
        game.apply({"by": "lady_lauren", "type": "offer", "to": "frenchy", "give": [],
                    "take": [passing, passing]})
    assert str(one.value).replace(gone, "ID") == str(other.value).replace(passing, "ID")
