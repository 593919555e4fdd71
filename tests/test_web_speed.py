"""What the web table does to be fast (issue 16: server CPU a move) gives the same answers as
the plain way: the feed read as the game goes (``words.FeedReader``) and read for every seat
together, the views made together, the fight buttons made without a copy of the game."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import lifeboat_rules as lr
from lifeboat_rules.words import FeedReader


def test_a_feed_reader_tells_what_polling_game_feed_tells():
    for seed in range(6):
        game = lr.new_game("classic" if seed % 3 else "cannibalism", players=4 + seed % 3, seed=seed)
        viewers = [None] + list(game.view(None)["seats"])
        langs = {v: ("zh" if i % 2 else "en") for i, v in enumerate(viewers)}
        readers = {v: FeedReader(game, v, langs[v]) for v in viewers}
        streamed = {v: readers[v].read() for v in viewers}
        polled = {v: game.feed(v, 0, langs[v]) for v in viewers}
        # polled as docs/api.md says: from the entry after the last one told (passes the log
        # ends on are told once the run is over, so they come with a later poll)
        upto = {v: polled[v][-1]["index"] + 1 if polled[v] else 0 for v in viewers}
        rng = random.Random(seed)
        while not game.over:
            by = game.pending[0].by
            game.apply(rng.choice(game.legal_actions(by)))
            for v in viewers:
                if rng.random() < 0.7:       # pages read at their own pace
                    streamed[v] += readers[v].read()
                    polled[v] += game.feed(v, upto[v], langs[v])
                    upto[v] = polled[v][-1]["index"] + 1 if polled[v] else 0
        for v in viewers:
            streamed[v] += readers[v].read()
            polled[v] += game.feed(v, upto[v], langs[v])
            assert streamed[v] == polled[v], (seed, v)
            assert streamed[v], (seed, v)


@pytest.mark.parametrize("shared", [False, True])
def test_feed_readers_read_together_tell_each_viewer_what_its_own_reader_tells(shared):
    """``FeedReader.read_all`` words a stretch once for the readers that would word it alike:
    each reader still gets exactly what it would read alone, and a reader shown a card's kind
    (its own draw) never gets the words made for one that is not, nor the other way round;
    the same with ``shared`` (the readers worded alike get one list)."""
    differed = 0
    for seed in range(6):
        game = lr.new_game("classic" if seed % 3 else "cannibalism", players=4 + seed % 3, seed=seed)
        viewers = [None] + list(game.view(None)["seats"])
        keys = [(v, lang) for v in viewers for lang in ("en", "zh")]
        together = {k: FeedReader(game, *k) for k in keys}
        alone = {k: FeedReader(game, *k) for k in keys}
        told = {k: [] for k in keys}
        rng = random.Random(seed)
        while not game.over:
            by = game.pending[0].by
            game.apply(rng.choice(game.legal_actions(by)))
            reading = [k for k in keys if rng.random() < 0.8]      # some fall behind a while
            for k, entries in zip(reading, FeedReader.read_all([together[k] for k in reading], shared)):
                own = alone[k].read()
                assert entries == own, (seed, k)
                told[k] += entries
            texts = {}
            for k in reading:
                if k[1] == "en" and told[k]:
                    texts.setdefault(told[k][-1]["index"], set()).add(told[k][-1]["text"])
            differed += sum(1 for t in texts.values() if len(t) > 1)
        for k in keys:
            told[k] += FeedReader.read_all([together[k]])[0]
            assert told[k] == game.feed(k[0], 0, k[1]), (seed, k)
    # the games had moves that viewers are told differently (a card's kind to its holder only):
    # where sharing keyed on less than what each is shown would have given one viewer another's
    assert differed > 20


def test_fight_buttons_made_without_a_copy_of_the_game_are_those_made_with_one():
    """A fight's buttons say what each move does to the sides' strengths, counted on a copy of
    the game; plays that cannot change them (a card that is no weapon, a player outside the
    fight), a member's weapon (its bonus added to the member's side) and joins (the joiner's
    size and weapons added to its side) skip the copy (``Table._strength_known``). In every
    fight position of games of every built-in ruleset, every seat's buttons are the same
    either way (``Table.count_on_copy``: no subclass, which a compiled ``Table`` refuses)."""
    from lifeboat_rules.rulesets import builtin_rulesets
    from lifeboat_rules.web.tables import UNKNOWN, Table

    compared = skipped = joins = weapons = copied = 0
    for seed, ruleset in enumerate(sorted(builtin_rulesets()) * 2):
        game = lr.new_game(ruleset, players=4 + seed % 3, seed=seed)
        seats = {s: {"controller": "link", "bot": None, "moves": 0} for s in game.view(None)["seats"]}
        rng = random.Random(seed)
        while not game.over:
            if (game.view(None).get("stage") or {}).get("kind") == "fight":
                quick, slow = Table("q", game, "en", seats), Table("s", game, "en", seats)
                slow.count_on_copy = True
                for seat in seats:
                    if seat not in game.state.characters:
                        continue
                    for lang in ("en", "zh"):
                        assert quick.choices(seat, lang) == slow.choices(seat, lang), (ruleset, seed, seat)
                    view = game.view(seat)
                    stage = view["stage"]
                    known = [a for a in game.legal_actions(seat)
                             if quick._strength_known(a, stage, view) is not UNKNOWN]
                    skipped += len(known)
                    joins += sum(a["type"] == "join" for a in known)
                    members = stage["attackers"] + stage["defenders"]
                    kinds = {c["id"]: c["kind"] for c in view["characters"][seat].get("hand", ())}
                    weapons += sum(bool(a["type"] == "play" and seat in members
                                        and quick.weapons().get(kinds.get(a["card"]))) for a in known)
                    compared += 1
                copied += len(slow._after[1])      # the slow table counted on copies
            by = game.pending[0].by
            game.apply(rng.choice(game.legal_actions(by)))
    assert compared > 100 and skipped > 500 and joins > 100 and weapons > 20, (
        compared, skipped, joins, weapons)
    assert copied > skipped, (copied, skipped)


def test_views_made_together_are_each_viewers_own_view():
    """``Game.views`` makes several viewers' views at once, sharing what they all see alike:
    each is exactly ``game.view`` of its viewer (keys in the same order), so no viewer's view
    holds another's hand, love, hate, decision or offers."""
    from lifeboat_rules.rulesets import builtin_rulesets
    from lifeboat_rules.web.jsontext import dumps

    positions = 0
    for seed, ruleset in enumerate(sorted(builtin_rulesets())):
        game = lr.new_game(ruleset, players=4 + seed % 3, seed=seed)
        viewers = [None] + list(game.view(None)["seats"])
        rng = random.Random(seed)
        while True:
            together = game.views(viewers if positions % 2 else list(reversed(viewers)))
            assert list(together) == (viewers if positions % 2 else list(reversed(viewers)))
            for viewer in viewers:
                assert dumps(together[viewer]) == dumps(game.view(viewer)), (ruleset, viewer)
            positions += 1
            if game.over:
                break
            game.apply(rng.choice(game.legal_actions(rng.choice(game.pending).by)))
    assert positions > 500


def test_a_viewer_whose_pages_are_gone_is_not_kept_up_to_date_and_reads_right_when_back(monkeypatch):
    """A table makes the views and feeds of the viewers its pages asked for at one of the last
    two positions, all at once; a viewer no page asks for any more (a spectator link opened
    once, the host's page closed, a language left) costs nothing after that, and when a page
    of it comes back it reads exactly what a fresh table would show it."""
    from lifeboat_rules.web.tables import Table

    made_views: list = []
    read_feeds: list = []
    views, read_all = lr.Game.views, FeedReader.read_all
    monkeypatch.setattr(lr.Game, "views", lambda self, viewers, kept=None: (
        made_views.extend(viewers), views(self, viewers, kept))[1])
    monkeypatch.setattr(FeedReader, "read_all", staticmethod(lambda readers, shared=False: (
        read_feeds.extend((r.viewer, r._feed.lang) for r in readers), read_all(readers, shared))[1]))
    for seed in range(4):
        game = lr.new_game("classic", players=4, seed=seed)
        seats = list(game.view(None)["seats"])
        table = Table("g", game, "en", {s: {"controller": "link", "bot": None, "moves": 0} for s in seats})
        table.view(None), table.feed(None, "en", 0), table.feed(None, "zh", 0)   # opened once
        since = {s: 0 for s in seats}
        rng = random.Random(seed)
        for step in range(60):
            if game.over:
                break
            game.apply(rng.choice(game.legal_actions(rng.choice(game.pending).by)))
            for seat in seats[: 2 if step % 3 else 4]:     # two pages skip two positions in three
                assert table.view(seat) == game.view(seat)
                table.feed(seat, "en", since[seat])
                since[seat] = len(game.log)
        assert step > 20
        # the spectator's view and feeds were made at most twice after it stopped asking
        assert made_views.count(None) <= 3 and read_feeds.count((None, "zh")) <= 3, seed
        fresh = Table("f", game, "en", table.seats)
        for viewer in [None] + seats:
            assert table.view(viewer) == game.view(viewer) == fresh.view(viewer)
            for lang in ("en", "zh"):
                assert table.feed(viewer, lang, 0) == fresh.feed(viewer, lang, 0), (seed, viewer, lang)
        made_views.clear(), read_feeds.clear()


def test_views_with_kept_parts_read_as_fresh_ones_and_reuse_only_what_did_not_change():
    """``game.views(viewers, kept)``: over whole games of every built-in ruleset (all viewers
    or some, as pages come and go), each view reads exactly as ``game.view`` makes it anew; a
    character's entry (public, or a viewer's own with its hand) that reads as at the last call
    is the last call's very object, one that changed is a new one; and the views handed out
    before are never changed by a later call."""
    from lifeboat_rules.rulesets import builtin_rulesets
    from lifeboat_rules.web.jsontext import dumps

    reused = renewed = 0
    for seed, ruleset in enumerate(sorted(builtin_rulesets())):
        game = lr.new_game(ruleset, players=4 + seed % 3, seed=seed)
        everyone = [None] + list(game.view(None)["seats"])
        rng = random.Random(seed)
        kept: dict = {}
        public: dict = {}       # who -> its public entry at the last call
        own: dict = {}          # viewer -> its own entry at the last call it was shown
        handed: list = []       # (a view handed out, as text then)
        while True:
            viewers = everyone if rng.random() < 0.7 else rng.sample(everyone, 2)
            made = game.views(viewers, kept)
            now: dict = {}
            for viewer in viewers:
                view = made[viewer]
                assert dumps(view) == dumps(game.view(viewer)), (ruleset, viewer)
                for who, entry in view["characters"].items():
                    before = own.get(viewer) if who == viewer else public.get(who)
                    if before is not None:
                        same = dumps(before) == dumps(entry)
                        assert same or before is not entry, (ruleset, viewer, who)
                        # (a viewer's own entry is kept with its public one, which may have
                        # changed and changed back while the viewer was not shown: an own
                        # entry that reads the same may be a new object)
                        assert who == viewer or (before is entry) == same, (ruleset, viewer, who)
                        reused += before is entry
                        renewed += before is not entry
                    if who == viewer:
                        own[viewer] = entry
                    else:
                        now[who] = entry
                handed.append((view, dumps(view)))
            public.update(now)
            if game.over:
                break
            game.apply(rng.choice(game.legal_actions(rng.choice(game.pending).by)))
        assert all(dumps(view) == text for view, text in handed), "a later call changed a view"
    assert reused > 3 * renewed > 0, (reused, renewed)


def test_events_copied_once_for_viewers_shown_alike_are_each_viewers_own():
    """``views.events_alike`` (a move's new events for every seat's feed at once) gives each
    viewer exactly ``events_for`` from its own index, one list only for viewers whose stretch
    hides the same fields: over whole games of every built-in ruleset, from several indices,
    and it shares lists (most moves hide nothing) but never two that differ."""
    from lifeboat_rules.rulesets import builtin_rulesets
    from lifeboat_rules.views import events_alike

    shared = differed = 0
    for seed, ruleset in enumerate(sorted(builtin_rulesets())):
        game = lr.new_game(ruleset, players=4 + seed % 3, seed=seed)
        viewers = [None] + list(game.view(None)["seats"])
        rng = random.Random(seed)
        while not game.over:
            size = len(game.log)
            wanted = [(v, max(0, size - back)) for v in viewers for back in (1, 3)]
            got = events_alike(game, wanted)
            for (viewer, since), events in zip(wanted, got):
                assert events == game.events_for(viewer, since), (ruleset, viewer, since)
            for i in range(len(got)):
                for j in range(i):
                    if got[i] is got[j]:
                        shared += 1
                    elif wanted[i][1] == wanted[j][1] and got[i] != got[j]:
                        differed += 1
            by = game.pending[0].by
            game.apply(rng.choice(game.legal_actions(by)))
    assert shared > 1000 and differed > 50, (shared, differed)


def test_json_text_is_the_standard_librarys_whatever_the_keys_and_characters():
    """``jsontext.dumps`` takes orjson's fast way when it can and falls back for keys that are
    not text and for lone surrogates: the text is the standard library's compact text each
    time (keys sorted when asked)."""
    import json

    from lifeboat_rules.web.jsontext import dumps

    values = [{"b": 1, "a": [True, None, 2.5, "é 救生艇"]}, {2: "two", 1: {3: [3]}},
              {"lone": "\udc80", "x": {1: "x"}}, [{"z": 0, "y": {"b": 1, "a": 2}}], "plain", 7]
    for value in values:
        for sort in (False, True):
            expected = json.dumps(value, ensure_ascii=False, separators=(",", ":"), sort_keys=sort)
            text = dumps(value, sort=sort)
            assert json.loads(text) == json.loads(expected)
            if "\udc80" not in expected:     # (escaped by the fallback: text SQLite takes)
                assert text == expected, (value, sort)


def test_json_bytes_sent_to_pages_read_as_the_standard_librarys_json():
    """``jsontext.dumps_bytes`` (what a page is sent): UTF-8 bytes that read back as the value,
    the standard library's compact text where orjson writes it, and valid UTF-8 with a lone
    surrogate escaped where it cannot (a page's JSON.parse takes the escape)."""
    import json

    from lifeboat_rules.web.jsontext import dumps_bytes

    values = [{"b": 1, "a": [True, None, 2.5, "é 救生艇"], "held": ("the_kid",)},
              {2: "two", 1: {3: [3]}}, {"lone": "\udc80"}, [{"z": 0}], "plain", 7, ()]
    for value in values:
        data = dumps_bytes(value)
        assert type(data) is bytes
        text = data.decode("utf-8")            # never invalid UTF-8
        expected = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
        assert json.loads(text) == json.loads(expected)
        if "\udc80" not in expected and not any(type(k) is int for k in getattr(value, "keys", lambda: ())()):
            assert text == expected, value


def _read(reader, text):
    """What ``reader`` makes of ``text``: ("ok", value) or ("refused", the error's class)."""
    try:
        return ("ok", reader(text))
    except (ValueError, RecursionError) as exc:
        return ("refused", ValueError if isinstance(exc, ValueError) else RecursionError)


def _same(a, b):
    """Two values read from JSON alike: equal, of the same types all through (1 is not 1.0),
    NaN equal to NaN."""
    if type(a) is not type(b):
        return False
    if type(a) is dict:
        return list(a) == list(b) and all(_same(a[k], b[k]) for k in a)
    if type(a) in (list, tuple):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    if type(a) is float and a != a:
        return b != b
    return a == b


MESSAGES = ['{"type":"move","seat":"the_kid","offer":"ab12","action":{"type":"pass","by":"the_kid"},"ref":3}',
            '{"a":1,"a":2}', '{"a":"\x01"}', '{"a":NaN}', '{"a":-Infinity}', '{"a":1e400}',
            '{"a":123456789012345678901234567890}', '{"a":-9223372036854775809}',
            '{"a":18446744073709551616}', '{"a":18446744073709551615}', '{"a":9223372036854775807}',
            '{"a":"\\ud800"}', '{"a":"\\ud83d\\ude00"}', ' {"a":1} ', '{"a":1} x', '[1,]', '{"a":1,}',
            '\ufeff{"a":1}', '{"a":-0.0}', '{"a":1.0}', '{"a":1E2}', '{"a":"\\u0000"}', '"\t"',
            '{"a":0.1000000000000000055511151231257827}', '{"a":1234567890123456789.5}',
            '{"a":"1234567890123456789012"}', "[" * 5000 + "]" * 5000, "", "nul", '{"a":tru}',
            '{"é":"救生艇"}', '{"a":[1,2,{"b":null}]}', '{"a":1e-400}', '{"a":-}', '{"a":01}']


def test_messages_in_read_as_the_standard_library_reads_them():
    """``jsontext.loads`` (a page's message in) reads with orjson where that gives exactly the
    standard library's value, and with the standard library elsewhere: every text reads to
    the same value, of the same types, or is refused by both (orjson alone would read an
    integer beyond 64 bits as a float and refuse NaN)."""
    import json

    from lifeboat_rules.web.jsontext import loads

    for text in MESSAGES:
        ours, theirs = _read(loads, text), _read(json.loads, text)
        assert ours[0] == theirs[0] and (ours[0] == "refused" or _same(ours[1], theirs[1])), text


@settings(max_examples=300, deadline=None)
@given(st.recursive(st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(),
                    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4),
                    max_leaves=12))
def test_any_json_value_reads_back_as_the_standard_library_reads_it(value):
    import json

    from lifeboat_rules.web.jsontext import loads

    text = json.dumps(value)
    assert _same(loads(text), json.loads(text))
    compact = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    assert _same(_read(loads, compact), _read(json.loads, compact))


def test_a_fights_words_made_once_for_every_page_read_as_each_pages_own():
    """A fight's words are made in two parts (``Table.stage_text``): what every page reads
    alike, once per position, then where the page's seat stands. Every seat's and a
    spectator's text, in both languages, is what ``fight_words`` makes for that page alone."""
    from lifeboat_rules.web import labels
    from lifeboat_rules.web.tables import Table

    compared = 0
    for seed in range(12):
        game = lr.new_game("classic", players=6, seed=seed)
        seats = {s: {"controller": "link", "bot": None, "moves": 0} for s in game.view(None)["seats"]}
        table = Table("g", game, "en", seats)
        rng = random.Random(seed)
        while not game.over:
            viewers = [None] + [s for s in seats if s in game.state.characters]
            if (table.view(None).get("stage") or {}).get("kind") == "fight":
                for lang in ("en", "zh"):
                    for viewer in viewers:
                        view = table.view(viewer)
                        alone = labels.fight_words(view["stage"], view, viewer, table.names(lang), lang,
                                                   table.robbed())
                        assert table.stage_text(view, viewer, lang) == alone, (seed, viewer, lang)
                        compared += 1
            game.apply(rng.choice(game.legal_actions(rng.choice(game.pending).by)))
    assert compared > 500, compared


def test_buttons_kept_from_earlier_positions_and_games_read_as_fresh_ones():
    """A table keeps its buttons' words from position to position (``Table.choices``); they
    must read as the library words each move now, in this game. Games played side by side in
    one server number their offers alike ("o1" in each, made by different players), so the
    answer to an offer is worded with this game's maker, never another game's (an audit found
    "accepts the offer from Lady Lauren" under an offer the Captain made), and a pass says
    what is passed now (the same moves under a new decision: "gives no water", no longer "does
    nothing for those overboard"). Each position's buttons, with the words kept, against a
    table with none kept."""
    from lifeboat_rules.rulesets import builtin_rulesets
    from lifeboat_rules.web import tables as web_tables
    from lifeboat_rules.web.tables import Table

    compared = answers = 0
    for ruleset in sorted(builtin_rulesets()):
        games = [lr.new_game(ruleset, players=4, seed=seed) for seed in (5, 5, 6)]
        seats = {s: {"controller": "link", "bot": None, "moves": 0} for s in games[0].view(None)["seats"]}
        tables = [Table(f"g{n}", game, "en", seats) for n, game in enumerate(games)]
        rngs = [random.Random(n) for n in range(len(games))]
        for _ in range(120):
            for table, game, rng in zip(tables, games, rngs):
                if game.over:
                    continue
                for seat in seats:
                    if seat not in game.state.characters:
                        continue
                    for lang in ("en", "zh"):
                        kept = table.choices(seat, lang)
                        kept_words, web_tables._LABELS = web_tables._LABELS, {}    # none kept
                        try:
                            fresh = Table("fresh", game, "en", seats).choices(seat, lang)
                        finally:
                            web_tables._LABELS = kept_words
                        assert kept == fresh, (ruleset, seat, lang, len(game.log))
                        answers += sum(b["action"]["type"] in ("accept_offer", "decline_offer") for b in kept)
                    compared += 1
                by = rng.choice(sorted({d.by for d in game.pending}))
                legal = game.legal_actions(by)
                # offers made and answered often, so that every game has an "o1", "o2"...
                trading = [a for a in legal if a["type"] in ("offer", "accept_offer", "decline_offer")]
                game.apply(rng.choice(trading if trading and rng.random() < 0.5 else legal))
    assert compared > 2000 and answers > 200, (compared, answers)
