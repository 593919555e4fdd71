"""``game.feed`` and ``describe(..., viewer=)``: one sentence per move, as each player at the
table may be told it (lifeboat_rules/words.py, docs/api.md "The feed")."""

from __future__ import annotations

import re

import pytest

import lifeboat_rules as lr
from lifeboat_rules import words
from lifeboat_rules.bots import RandomPlayer

RULESETS = ["classic", "cannibalism", "shark", "quick", "single_card_rowing", "all_in_one",
            "liquid_courage"]
GAMES_PER_RULESET = 6
INSTANCE_ID = re.compile(r"(?<![A-Za-z0-9])[po]\d+")
REPR = re.compile(r"[{}\[\]]|None|True|False")
CJK = re.compile(r"[\u4e00-\u9fff]")


def play(ruleset, seed: int, free_rate: float = 0.25, watch=None):
    loaded = lr.load_ruleset(ruleset)
    counts = list(loaded.players)
    game = lr.new_game(loaded, players=counts[seed % len(counts)], seed=seed)
    bot = RandomPlayer(seed, free_rate=free_rate)
    while not game.over:
        game.apply(bot.act(game))
        if watch is not None:
            watch(game)
    return game


@pytest.fixture(scope="module")
def games():
    return [(ruleset, seed, play(ruleset, seed))
            for ruleset in RULESETS for seed in range(GAMES_PER_RULESET)]


def viewers(game):
    return list(game.state.characters) + [None]


def check_text(text: str, lang: str, where) -> None:
    assert text and text.strip(), where
    assert not INSTANCE_ID.search(text), (where, text)
    assert not REPR.search(text), (where, text)
    assert "_" not in text, (where, text)
    if lang == "zh":
        assert CJK.search(text), (where, text)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_every_move_is_told_once_and_no_entry_repeats_the_one_before(games, lang):
    for ruleset, seed, game in games:
        actions = {i: e["action"] for i, e in enumerate(game.log) if e["type"] == "action"}
        for viewer in viewers(game):
            entries = game.feed(viewer, lang=lang)
            indices = [e["index"] for e in entries]
            assert indices == sorted(set(indices)), (ruleset, seed, viewer)
            texts = {e["index"]: e["text"] for e in entries}
            for i, action in actions.items():
                # the move is told by the entry whose part of the log holds it: one that
                # starts at it, or the passes in a row it is one of; it names who moved
                told = max(k for k in indices if k <= i)
                name = words.character_name(game, action["by"], lang)
                assert name in texts[told], (ruleset, seed, viewer, action, texts[told])
                if action["type"] != "pass":
                    assert told == i, (ruleset, seed, viewer, action)
                else:
                    between = [game.log[k]["type"] for k in range(told, i)]
                    assert set(between) <= {"action", "pass"}, (ruleset, seed, action, between)
            for before, entry in zip(entries, entries[1:]):
                assert entry["text"] != before["text"], (ruleset, seed, viewer, entry)
            for entry in entries:
                check_text(entry["text"], lang, (ruleset, seed, viewer, entry["index"]))


def test_bookkeeping_is_left_out(games):
    """Cards moving between zones, markers and whose turn it is are never an entry of their
    own; a move's events are told in its one sentence."""
    for ruleset, seed, game in games[::3]:
        told = {e["index"] for e in game.feed(None)}
        for i, event in enumerate(game.log):
            if event["type"] in ("marker", "card_marker", "turn", "pick", "respond"):
                assert i not in told, (ruleset, seed, i, event)
            if event["type"] == "quench" and game.log[i - 1]["type"] == "water":
                assert i not in told, (ruleset, seed, i, event)   # the water said it
        # far fewer entries than events
        assert len(told) < len(game.log) / 2


def test_polling_gives_the_same_entries(games):
    """Entries never change once told: polling with since=last index + 1 after every move
    gives the feed of the whole game, and feed(since=k) is the tail of feed()."""
    for ruleset in RULESETS[:3]:
        polled: dict = {}

        def watch(game):
            for viewer in (sorted(game.state.characters)[0], None):
                got = polled.setdefault(viewer, [])
                since = got[-1]["index"] + 1 if got else 0
                got.extend(game.feed(viewer, since=since, lang="en"))

        game = play(ruleset, 11, watch=watch)
        assert len(polled) == 2
        for viewer, got in polled.items():
            assert got == game.feed(viewer), (ruleset, viewer)
        whole = game.feed(None)
        for since in range(0, len(game.log), 7):
            assert game.feed(None, since=since) == [e for e in whole if e["index"] >= since]


def test_feed_checks_its_arguments():
    game = lr.new_game("classic", players=4, seed=1)
    with pytest.raises(ValueError):
        game.feed("nobody_at_all")
    with pytest.raises(ValueError):
        game.feed(None, since=-1)
    assert game.feed(None, since=10 ** 6) == []


# --------------------------------------------------------------------------- what is hidden

@pytest.mark.slow   # (a copy dealt again for every player at many moments: CI runs it)
def test_the_feed_says_nothing_a_player_may_not_know():
    """Mid-game, a copy of the game in which everything a player cannot see is dealt again
    (``determinize``: other hands, the decks, the rowing pile, others' love and hate, the
    log's hidden fields) gives that player the same feed, word for word."""
    checked = 0
    for ruleset in RULESETS:
        for seed in range(2):
            stops = iter(range(25, 10_000, 70))
            stop = next(stops)
            loaded = lr.load_ruleset(ruleset)
            game = lr.new_game(loaded, players=max(loaded.players) - seed % 2, seed=seed)
            bot = RandomPlayer(seed, free_rate=0.25)
            moves = 0
            while not game.over:
                game.apply(bot.act(game))
                moves += 1
                if moves == stop and not game.over:
                    stop = next(stops)
                    for viewer in game.state.characters:
                        copy = game.determinize(viewer, seed * 1000 + moves)
                        assert copy.events_for(viewer) == game.events_for(viewer)
                        for lang in ("en", "zh"):
                            assert copy.feed(viewer, lang=lang) == game.feed(viewer, lang=lang), \
                                (ruleset, seed, moves, viewer)
                        checked += 1
    assert checked > 60


def _provision_names(game, lang):
    out = {}
    for kind in words.content(game)["provisions"]:
        out[kind] = words.text("card", lang, name=words.provision_name(game, kind, lang))
    return out


def test_cards_named_in_a_feed_are_cards_its_player_was_shown(games):
    """A provision named in a player's entry is one whose kind that player's events show in
    this turn so far; a navigation card, one its events name."""
    for ruleset, seed, game in games[::3]:
        names = _provision_names(game, "en")
        navs = {nid: words.navigation_name(game, nid) for nid in words.content(game)["navigation"]}
        fresh = [i for i, e in enumerate(game.log) if e["type"] in ("turn", "phase", "setup")]
        for viewer in viewers(game):
            events = game.events_for(viewer)
            entries = game.feed(viewer)
            for k, entry in enumerate(entries):
                end = entries[k + 1]["index"] if k + 1 < len(entries) else len(events)
                begin = max(i for i in fresh if i <= entry["index"])
                shown = repr(events[begin:end])
                for kind, name in names.items():
                    # (the rule's own word "water" in a quench names no card)
                    if name in entry["text"]:
                        assert f"'{kind}'" in shown, (ruleset, seed, viewer, entry, kind)
                for nid, name in navs.items():
                    if re.search(re.escape(name) + r"(?!\d)", entry["text"]):
                        assert f"'{nid}'" in shown, (ruleset, seed, viewer, entry, nid)


def test_describe_names_cards_only_as_the_viewer_sees_them():
    game = lr.new_game("classic", players=6, seed=3)
    picker = game.pending[0].by
    card = game.view(picker)["decision"]["cards"][0]
    name = words.provision_name(game, card["kind"])
    action = {"by": picker, "type": "pick", "card": card["id"]}
    # as the picker sees it (the default, for the program that drives the game)
    assert name in lr.describe(action, game)
    assert name in lr.describe(action, game, viewer=picker)
    game.apply(action)
    other = next(c for c in game.state.characters if c != picker)
    for viewer in (other, None):
        sentence = lr.describe(action, game, "en", viewer=viewer)
        assert name not in sentence and "a card" in sentence, sentence
        assert words.provision_name(game, card["kind"], "zh") not in \
            lr.describe(action, game, "zh", viewer=viewer)
    # an event of the log, given whole, is read as that viewer's log shows it
    move = next(e for e in game.log if e["type"] == "move" and e.get("to") == f"hand:{picker}")
    assert "kind" in move
    assert name in lr.describe(move, game)
    assert name in lr.describe(move, game, viewer=picker)
    assert name not in lr.describe(move, game, viewer=other)
    assert name not in lr.describe(move, game, viewer=None)


# --------------------------------------------------------------------------- fights

def test_a_fight_reads_as_who_attacks_whom_over_what_and_who_won(games):
    for ruleset, seed, game in games:
        texts = {e["index"]: e["text"] for e in game.feed(None)}
        sides: set = set()
        for i, event in enumerate(game.log):
            kind = event["type"]
            if kind == "fight_start":
                sides = set(event["attackers"]) | set(event["defenders"])
                told = texts.get(i) or texts.get(i - 2)   # the refusal's entry, or its own
                assert told and "fight" in told
                for who in sides:
                    assert words.character_name(game, who) in told
                if event.get("act") == "swap":
                    assert "swap" in told
            elif kind == "join":
                sides.add(event["character"])
            elif kind == "pass" and event.get("stage") == "fight":
                sentence = texts[max(k for k in texts if k < i)]
                name = words.character_name(game, event["character"])
                clause = next(c for c in sentence.split("; ") if name in c)
                if event["character"] in sides:   # a fighter never "stays out"
                    assert "stay" not in clause and "nothing to the fight" in clause, sentence
                else:
                    assert "out of the fight" in clause, sentence
            elif kind == "fight":
                sentence = texts[i]
                winners = event["attackers"] if event["winner"] == "attacker" \
                    else event["defenders"]
                assert sentence.startswith(words.character_name(game, winners[0])), sentence
                assert str(event["strength"]["attacker"]) in sentence
                sides = set()


def test_a_players_private_facts_are_kept():
    """The card a player picked, and the card it took when robbing, are in its own feed."""
    seen_pick = seen_rob = 0
    for seed in range(12):
        game = play("classic", seed)
        for i, event in enumerate(game.log):
            if event["type"] != "action":
                continue
            action = event["action"]
            if action["type"] == "pick":
                move = game.log[i + 1]
                name = words.text("card", "en", name=words.provision_name(game, move["kind"]))
                text = {e["index"]: e["text"] for e in game.feed(action["by"], since=i)}[i]
                assert name in text, text
                seen_pick += 1
            if action["type"] == "allow" and game.log[i + 2]["type"] == "move" \
                    and game.log[i + 3]["type"] == "robbed":
                robber = game.log[i + 3]["character"]
                kind = game.log[i + 2]["kind"]
                name = words.text("card", "en", name=words.provision_name(game, kind))
                for viewer in (robber, action["by"]):
                    text = {e["index"]: e["text"] for e in game.feed(viewer, since=i)}[i]
                    assert name in text, text
                seen_rob += 1
    assert seen_pick > 50 and seen_rob > 5
