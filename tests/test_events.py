"""The event vocabulary: what the built-in rules emit, as docs/api.md lists it."""

from __future__ import annotations

import pytest

import lifeboat_rules as lr
from lifeboat_rules.bots import RandomPlayer
from lifeboat_rules.effects import CONTAINERS, finisher_of, copy_event, copy_log

RULESETS = ["classic", "cannibalism", "shark", "quick", "single_card_rowing",
            {"expansions": ["cannibalism"], "variants": ["shark", "quick", "single_card_rowing"]},
            "liquid_courage", "all_in_one",
            {"extends": "all_in_one", "variants": ["shark", "quick", "single_card_rowing"]}]


def played_logs(games: int):
    for spec in RULESETS:
        ruleset = lr.load_ruleset(spec)
        for seed in range(games):
            players = list(ruleset.players)[seed % len(ruleset.players)]
            game = lr.new_game(ruleset, players=players, seed=seed)
            bot = RandomPlayer(seed, free_rate=0.2)
            while not game.over:
                game.apply(bot.act(game))
            yield game.log


def test_every_event_type_is_known_with_the_fields_that_hold_containers():
    """``effects.CONTAINERS`` lists every event type the built-in rules emit and, for each,
    the fields that may hold a list or a mapping (copies of events rely on it)."""
    seen = set()
    for log in played_logs(15):
        for event in log:
            kind = event["type"]
            assert kind in CONTAINERS, f"event type {kind!r} is missing from effects.CONTAINERS"
            nested = {k for k, v in event.items() if type(v) in (list, dict)}
            assert nested <= set(CONTAINERS[kind]), f"{kind}: {nested - set(CONTAINERS[kind])} hold containers"
            seen.add(kind)
    assert len(seen) >= 40, sorted(seen)


@pytest.mark.parametrize("event", [
    {"type": "seats", "seats": ["a", "b"]},
    {"type": "action", "action": {"by": "a", "type": "place", "pile": ["n1"]}},
    {"type": "a_plugins_own", "list": [[1], {"x": [2]}]},
])
def test_a_copied_event_shares_nothing(event):
    shares_nothing(copy_event(event), event)


def shares_nothing(copy, original) -> None:
    assert copy == original
    stack = [(copy, original)]
    while stack:
        mine, theirs = stack.pop()
        if type(mine) in (list, dict):
            assert mine is not theirs
            pairs = zip(mine.values(), theirs.values()) if type(mine) is dict else zip(mine, theirs)
            stack.extend(pairs)


LOGGED = [
    {"type": "action", "action": {"by": "a", "type": "pass"}},
    {"type": "action", "action": {"by": "a", "type": "place", "pile": ["n1", "n2"]}},
    {"type": "action", "action": {"by": "a", "type": "offer", "give": ["p1"], "take": []}},
    {"type": "action", "action": {"by": "a", "type": "x", "odd": {"y": [1]}}},
    {"type": "action", "action": {"by": "a", "type": "x", "odd": [["nested"]]}},
    {"type": "offer", "offer": "o1", "from": "a", "to": "b", "give": ["p1"], "take": []},
    {"type": "navigation", "card": "n1", "data": {"overboard": ["a"], "thirst": {"all_except": ["b"]}}},
    {"type": "seats", "seats": [["nested"], "b"]},
    {"type": "fight", "attackers": ["a"], "defenders": ["b"], "strength": {"attacker": 1}},
    {"type": "a_plugins_own", "list": [[1], {"x": [2]}]},
    {"type": "move", "card": "p1", "from": "hand:a", "to": "discard"},
    {"type": "pass", "character": "a", "odd": [1, [2]]},
    {"type": "action", "action": {"by": "a", "type": "pass"}, "odd": {"x": 1}},
]


@pytest.mark.parametrize("event", LOGGED)
def test_a_logged_event_is_copied_sharing_nothing(event):
    """``to_dict`` copies the log by each event's shape (``effects.finisher_of``): whatever the
    shape, the copy equals the event and shares no list or mapping with it."""
    finish = finisher_of(event)
    copies = copy_log([event], [] if finish is None else [(0, finish)])
    shares_nothing(copies[0], event)


def test_saved_logs_share_nothing_with_the_game():
    """The same for every event of played games, and ``to_dict`` gives that copy."""
    for log in played_logs(2):
        copies = copy_log(log, [(i, c) for i, e in enumerate(log) if (c := finisher_of(e))])
        assert len(copies) == len(log)
        for copy, event in zip(copies, log):
            shares_nothing(copy, event)


def test_to_dict_and_events_copy_the_whole_log():
    ruleset = lr.load_ruleset("classic")
    game = lr.new_game(ruleset, players=5, seed=3)
    bot = RandomPlayer(3, free_rate=0.2)
    for _ in range(3):
        for _ in range(40):
            if not game.over:
                game.apply(bot.act(game))
        for copy in (game.to_dict()["log"], game.events):   # the finishers are kept between
            assert len(copy) == len(game.log)
            for mine, theirs in zip(copy, game.log):
                shares_nothing(mine, theirs)


def test_the_api_docs_list_exactly_the_built_in_event_types():
    """docs/api.md's table of events is the vocabulary ``simulate --count`` checks names
    against (docs/balance.md): the same types as ``effects.CONTAINERS``."""
    import re
    from pathlib import Path
    text = (Path(__file__).parent.parent / "docs" / "api.md").read_text(encoding="utf-8")
    table = text.split("\n## Events\n", 1)[1].split("\nNew fields", 1)[0]
    documented = set()
    for line in table.splitlines():
        if line.startswith("| `"):
            documented |= set(re.findall(r"`(\w+)`", line.split("|")[1]))
    assert documented == set(CONTAINERS)
