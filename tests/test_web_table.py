"""What the web table tells its players (issue 16, "Players read the table at a glance"):
fights in words with buttons that match, the end's reveal with the reasons of the scores, the
feed by rounds, the table talk, the turn timer, "pass for me when I have nothing to play", and
the words of the creation page. Without a browser: the table's own calls and Starlette's
TestClient (the browser tests are tests/test_web_browser.py)."""

from __future__ import annotations

import json
import random
import sqlite3

import pytest

import lifeboat_rules as lr
from lifeboat_rules import bots
from web_support import hello, missing_web, receive, require, send

require(missing_web())

from starlette.testclient import TestClient  # noqa: E402

from lifeboat_rules.web import labels  # noqa: E402
from lifeboat_rules.web.app import Server  # noqa: E402
from lifeboat_rules.web.store import Store  # noqa: E402
from lifeboat_rules.web.tables import (ANY_TIME, MAX_CHAT, MAX_CHAT_PER_GAME, TIMEOUT_BOT, Hall, Refusal, Table,  # noqa: E402
                                       clean_text, nothing_to_play)

WEAPON = {"oar": 1, "blackjack": 2, "knife": 3, "gaffing_hook": 4, "flare_gun": 8}   # the cards' bonuses


def bot_table(seed: int, players: int = 4, ruleset: str = "classic") -> Table:
    game = lr.new_game(ruleset, players=players, seed=seed)
    return Table("t", game, "en", {c: {"controller": "bot", "bot": "random", "moves": 0}
                                   for c in game.view(None)["seats"]})


def positions(seeds, players: int = 4, ruleset: str = "classic"):
    """(table, seat deciding) at every decision of random games."""
    for seed in seeds:
        table = bot_table(seed, players, ruleset)
        game = table.game
        players_ = {c: bots.make_bot("random", seed * 10 + i) for i, c in enumerate(game.view(None)["seats"])}
        while not game.over:
            seat = game.pending[0].by
            yield table, seat
            game.apply(players_[seat].choose(game, seat))


# ---------------------------------------------------------------------- fights (R-FIGHT-1..4)


def test_a_fight_says_who_attacks_whom_over_what_and_both_strengths():
    seen = {"swap": 0, "rob": 0}
    for table, seat in positions(range(30)):
        view = table.game.view(seat)
        stage = view.get("stage") or {}
        if stage.get("kind") != "fight":
            continue
        names = table.names("en")
        text = labels.fight_words(stage, view, seat, names, "en", table.robbed())
        stake = stage["stake"]
        first = text.split("\n")[0]
        assert first.startswith(names[stake["actor"]]) and names[stake["target"]] in first
        if stake["act"] == "swap":
            assert "swap seats" in first
        else:
            assert "rob" in first
        # both sides, each with its strength: its members' sizes and their face-up weapons
        for side, members in (("attacker", stage["attackers"]), ("defender", stage["defenders"])):
            expected = sum(view["characters"][c]["size"] + sum(WEAPON.get(f["kind"], 0) for f in view["characters"][c]["front"])
                           for c in members)
            assert stage["strength"][side] == expected
            label = "Attacking" if side == "attacker" else "Defending"
            assert f"{label}: {labels._list(members, names, 'en')}, strength {expected}." in text
        if seat in stage["attackers"]:
            assert "You attack" in text
        elif seat in stage["defenders"]:
            assert "You defend" in text
        seen[stake["act"]] += 1
    assert seen["swap"] and seen["rob"]


def test_a_cannibalism_fight_says_who_wants_to_eat_whom():
    stage = {"kind": "fight", "attackers": ["dr_harter"], "defenders": ["the_kid", "frenchy"],
             "stake": {"act": "object", "actor": "dr_harter", "target": "sir_stephen"},
             "strength": {"attacker": 5, "defender": 9}}
    names = {"dr_harter": "Dr. Harter", "the_kid": "The Kid", "frenchy": "Frenchy", "sir_stephen": "Sir Stephen"}
    text = labels.fight_words(stage, {"seats": [], "characters": {}}, None, names, "en")
    assert text.split("\n")[:2] == ["Dr. Harter wants to eat Sir Stephen, and The Kid, Frenchy object: a fight.",
                                    "Attacking: Dr. Harter, strength 5. Defending: The Kid, Frenchy, strength 9."]


def test_fight_buttons_match_where_the_player_stands():
    checked = {"done": 0, "stay_out": 0, "join": 0, "weapon": 0}
    words = labels.UI["en"]
    for table, seat in positions(range(40)):
        view = table.game.view(seat)
        stage = view.get("stage") or {}
        if stage.get("kind") != "fight":
            continue
        inside = seat in stage["attackers"] or seat in stage["defenders"]
        side = "attacker" if seat in stage["attackers"] else "defender"
        buttons = table.choices(seat, "en")
        for button in buttons:
            label, action = button["label"], button["action"]
            assert "stays out" not in label or not inside          # an attacker never "stays out"
            if action["type"] == "pass":
                assert label == (words["btn_fight_done"] if inside else words["btn_fight_stay_out"])
                checked["done" if inside else "stay_out"] += 1
            if action["type"] == "join":
                me = view["characters"][seat]
                adds = me["size"] + sum(WEAPON.get(f["kind"], 0) for f in me["front"])     # R-FIGHT-3
                was = stage["strength"][action["side"]]
                assert f"your size {adds} adds" in label and f"({was} → {was + adds})" in label
                checked["join"] += 1
            if action["type"] == "play" and inside:
                kind = next(c["kind"] for c in view["characters"][seat]["hand"] if c["id"] == action["card"])
                if kind in WEAPON:
                    was = stage["strength"][side]
                    assert f"+{WEAPON[kind]} to your side's strength ({was} → {was + WEAPON[kind]})" in label
                    assert not button["any_time"]               # it answers the fight
                    checked["weapon"] += 1
                else:
                    assert "strength" not in label
    assert all(checked.values()), checked


def test_the_fight_decision_is_worded_for_where_the_player_stands():
    stage = {"kind": "fight", "attackers": ["a"], "defenders": ["b"]}
    assert labels.fight_decision(stage, "a", "en") == labels.UI["en"]["decide_fight_in"]
    assert labels.fight_decision(stage, "c", "zh") == labels.UI["zh"]["decide_fight_out"]


# ---------------------------------------------------------------------- the end (R-SCORE)


def finished(seed: int, players: int = 5) -> lr.Game:
    game = lr.new_game("classic", players=players, seed=seed)
    players_ = {c: bots.make_bot("random", seed + i) for i, c in enumerate(game.view(None)["seats"])}
    while not game.over:
        seat = game.pending[0].by
        game.apply(players_[seat].choose(game, seat))
    return game


def test_the_end_reveals_love_and_hate_and_why_each_part_scored():
    misanthropes = 0
    words = labels.UI["en"]
    for seed in range(40):
        game = finished(seed)
        view = game.view(None)
        loyalties = {c: (game.view(c)["love"], game.view(c)["hate"]) for c in view["characters"]}
        names = labels.names(game, "en")
        reveal = labels.reveal(view, names, "en")
        assert set(reveal) == set(view["result"]["breakdown"])
        for who, entry in reveal.items():
            assert (entry["love"], entry["hate"]) == loyalties[who]
            # the base rules account for every part of every score in the classic game
            assert set(entry["why"]) == {"survival", "treasure", "love", "hate"}
            if entry["hate"] == who:                     # R-SCORE-6: the survival 0 says why
                misanthropes += 1
                assert entry["why"]["survival"] in (words["why_misanthrope"], words["why_misanthrope_loves_self"])
                died = sum(c["size"] for other, c in view["characters"].items()
                           if other != who and (c["status"] == "dead" or not c["on_board"]))
                assert entry["why"]["hate"] == words["why_hate_all"].format(n=died)
                assert view["result"]["breakdown"][who]["hate"] == died
    assert misanthropes > 0


def test_a_reason_is_left_out_where_a_house_rule_scores_otherwise():
    game = finished(3)
    view = json.loads(json.dumps(game.view(None)))
    who = next(iter(view["result"]["breakdown"]))
    view["result"]["breakdown"][who]["love"] += 100          # not what R-SCORE-4 gives
    reveal = labels.reveal(view, labels.names(game, "en"), "en")
    assert "love" not in reveal[who]["why"] and "hate" in reveal[who]["why"]


def test_love_and_hate_reach_the_pages_only_once_the_game_is_over(tmp_path):
    with TestClient(Server(str(tmp_path / "t.sqlite3"), allow_seeds=True).app) as client:
        running = client.post("/api/games", json={"ruleset": "classic", "players": 4, "lang": "en",
                                                  "seats": ["link"] * 4, "seed": 4}).json()
        done = client.post("/api/games", json={"ruleset": "classic", "players": 4, "lang": "en",
                                               "seats": ["bot:random"] * 4, "seed": 4}).json()
        with client.websocket_connect("/ws") as ws:
            state = hello(ws, running["host"])
            assert "reveal" not in state and "love" not in state["view"]
            spectator = state["table"]["spectator"]
        with client.websocket_connect("/ws") as ws:
            assert "reveal" not in hello(ws, spectator)
        with client.websocket_connect("/ws") as ws:
            state = hello(ws, done["host"])
            while not state["view"]["over"]:      # its bots play at their pace (bots.PacedBot)
                assert "reveal" not in state and "love" not in state["view"]
                state = receive(ws)
            assert set(state["reveal"]) == set(state["view"]["characters"])


# ---------------------------------------------------------------------- the feed by rounds


def test_every_feed_entry_carries_its_round():
    table = bot_table(7)
    game = table.game
    player = bots.make_bot("random", 1)
    while not game.over:
        game.apply(player.choose(game, game.pending[0].by))
    seat = game.view(None)["seats"][0] if game.view(None)["seats"] else next(iter(game.view(None)["characters"]))
    feed = table.feed(seat, "en", 0)
    rounds, current = {}, 0
    for index, event in enumerate(game.events_for(seat)):
        if event["type"] == "phase":
            current = event["round"]
        rounds[index] = current
    assert feed and all(entry["round"] == rounds[entry["i"]] for entry in feed)
    assert [e["round"] for e in feed] == sorted(e["round"] for e in feed)
    assert feed[-1]["round"] == game.view(None)["round"]
    assert table.feed(seat, "en", len(game.log)) == []


def test_a_page_sent_its_feed_move_by_move_gets_the_whole_feed():
    """A page is sent the entries told since its last state (``since``: the log's length
    then); a run of passes the log ended on is told later, with an index before ``since``,
    and must reach it all the same."""
    for seed in range(4):
        table = bot_table(seed, players=5)
        game = table.game
        player = bots.make_bot("random", seed)
        viewers = [None] + list(game.view(None)["seats"])
        got = {v: table.feed(v, "en", 0) for v in viewers}
        since = {v: len(game.log) for v in viewers}
        rng = random.Random(seed)
        while not game.over:
            game.apply(player.choose(game, game.pending[0].by))
            for v in viewers:
                if rng.random() < 0.6:
                    got[v] += table.feed(v, "en", since[v])
                    since[v] = len(game.log)
        for v in viewers:
            got[v] += table.feed(v, "en", since[v])
            assert [(e["i"], e["text"]) for e in got[v]] == [(e["index"], e["text"]) for e in game.feed(v, 0, "en")]


# ---------------------------------------------------------------------- table talk


def new_server(tmp_path, **options) -> Server:
    return Server(str(tmp_path / "t.sqlite3"), allow_seeds=True, rate=10_000, burst=10_000, **options)


def make_game(client, seats, **extra) -> dict:
    response = client.post("/api/games", json={"ruleset": "classic", "players": len(seats), "lang": "en",
                                               "seats": seats, "seed": 5, **extra})
    assert response.status_code == 201, response.text
    return response.json()


def test_table_talk_reaches_every_page_as_typed_and_is_kept(tmp_path):
    db = str(tmp_path / "t.sqlite3")
    attack = '<img src=x onerror="alert(1)"><script>alert(2)</script> & "quotes"'
    with TestClient(new_server(tmp_path).app) as client:
        created = make_game(client, ["link", "link", "bot:random", "bot:random"])
        with client.websocket_connect("/ws") as host:
            table = hello(host, created["host"])["table"]
            links = [e["link"] for e in table["seats"].values() if e["link"]]
            with client.websocket_connect("/ws") as seat, client.websocket_connect("/ws") as spectator:
                me = hello(seat, links[0])["seat"]
                assert hello(spectator, table["spectator"])["can_chat"] is False
                send(seat, {"type": "say", "text": attack})
                for ws in (seat, spectator, host):
                    state = receive(ws)
                    assert [(m["by"], m["text"]) for m in state["chat"]] == [(me, attack)]
                # spectators read, the players write
                send(spectator, {"type": "say", "text": "hello"})
                assert receive(spectator)["code"] == "chat"
                send(seat, {"type": "say", "text": "x" * (MAX_CHAT + 1)})
                assert receive(seat)["code"] == "chat"
                send(seat, {"type": "say", "text": " \n\t "})
                assert receive(seat)["code"] == "chat"
                send(seat, {"type": "say", "text": 42})
                assert receive(seat)["code"] == "chat"
    con = sqlite3.connect(db)
    assert con.execute("SELECT author, text FROM chat").fetchall() == [(me, attack)]
    con.close()
    # a restarted server has the talk too
    with TestClient(new_server(tmp_path).app) as client:
        with client.websocket_connect("/ws") as ws:
            assert [m["text"] for m in hello(ws, table["spectator"])["chat"]] == [attack]


def test_table_talk_is_rate_limited_per_speaker(tmp_path):
    now = [0.0]
    hall = Hall(Store(str(tmp_path / "t.sqlite3")), clock=lambda: now[0])
    created = hall.create("classic", 4, "en", ["link"] * 4, 1)
    host = hall.enter(created["host"])
    said = 0
    with pytest.raises(Refusal) as refused:
        for _ in range(100):
            hall.say(host, None, "deal?")
            said += 1
    assert refused.value.code == "too_fast" and said == 5
    now[0] += 2.0                     # one more every two seconds
    hall.say(host, None, "deal!")
    with pytest.raises(Refusal):
        hall.say(host, None, "deal!!")
    assert [m["by"] for m in hall.table(created["game"]).chat] == ["host"] * 6
    # an audit said 20 messages at once by replacing its own link between them: the speaker
    # is counted, not the link
    token = hall.manage(host, "host_link", None)
    with pytest.raises(Refusal) as refused:
        hall.say(hall.enter(token), None, "deal?")
    assert refused.value.code == "too_fast"
    seat = hall.table(created["game"]).game.pending[0].by
    tokens = {s: t for t, role, s in hall.store.live_tokens(created["game"]) if role == "seat"}
    for _ in range(5):                                   # a seat has its own allowance
        hall.say(hall.enter(tokens[seat]), seat, "no deal")
    hall.manage(hall.enter(token), "link", seat)          # and keeps it under a new link
    tokens = {s: t for t, role, s in hall.store.live_tokens(created["game"]) if role == "seat"}
    with pytest.raises(Refusal):
        hall.say(hall.enter(tokens[seat]), seat, "no deal")


def test_a_games_table_talk_is_kept_up_to_its_limit_also_after_a_restart(tmp_path):
    # docs/web.md's security model: at most MAX_CHAT_PER_GAME messages are kept with a game;
    # the next is refused (the file would otherwise grow without limit), after a restart too
    now = [0.0]
    path = str(tmp_path / "t.sqlite3")
    hall = Hall(Store(path), clock=lambda: now[0])
    created = hall.create("classic", 4, "en", ["link"] * 4, 1)
    host = hall.enter(created["host"])
    for number in range(MAX_CHAT_PER_GAME):
        now[0] += 2.0                     # within the speaker's rate
        hall.say(host, None, f"m{number}")
    now[0] += 2.0
    with pytest.raises(Refusal) as refused:
        hall.say(host, None, "one more")
    assert refused.value.code == "limit"
    hall.store.close()
    again = Hall(Store(path), clock=lambda: now[0])
    chat = again.table(created["game"]).chat
    assert len(chat) == MAX_CHAT_PER_GAME and chat[-1]["text"] == f"m{MAX_CHAT_PER_GAME - 1}"
    now[0] += 2.0
    with pytest.raises(Refusal) as refused:
        again.say(again.enter(created["host"]), None, "and another")
    assert refused.value.code == "limit"
    again.store.close()


def test_table_talk_is_one_line_without_reordering_marks(tmp_path):
    assert clean_text("  a\nb\tc\x07 \u202eevil\u202c  ") == "a b c evil"
    assert clean_text("小孩：来换座位吗？") == "小孩：来换座位吗？"
    # the other marks that reorder text, and every other invisible format character
    for mark in ("\u200e", "\u200f", "\u061c", "\u2066", "\u2069", "\u200b", "\u2060", "\ufeff",
                 "\U000e0041", "\U000e007f", "\ufff9", "\ufffb", "\x85"):
        assert clean_text(f"a{mark}b") == "ab", hex(ord(mark))
    assert clean_text("👨\u200d👩\u200d👧") == "👨\u200d👩\u200d👧"       # the joiners stay
    # a line that shows nothing is no message (an audit said five joiners alone)
    now = [0.0]
    hall = Hall(Store(str(tmp_path / "t.sqlite3")), clock=lambda: now[0])
    host = hall.enter(hall.create("classic", 4, "en", ["link"] * 4, 1)["host"])
    for nothing in ("\u200d" * 5, "\u200c\u0301\u0301", " \u200d "):
        with pytest.raises(Refusal) as refused:
            hall.say(host, None, nothing)
        assert refused.value.code == "chat"
    assert hall.say(host, None, "\u200d!")["text"] == "\u200d!"
    hall.store.close()
    assert clean_text("می\u200cخواهم") == "می\u200cخواهم"
    assert clean_text("ệ" + "e\u0323\u0302") == "ệe\u0323\u0302"      # marks a language needs
    assert clean_text("e" + "\u0301" * 50 + "x") == "e" + "\u0301" * 4 + "x"  # not a tower of them


# ---------------------------------------------------------------------- the turn timer


def link_hall(tmp_path, now, **options):
    hall = Hall(Store(str(tmp_path / "t.sqlite3")), clock=lambda: now[0], **options)
    return hall


def test_the_turn_timer_hands_a_late_seat_to_a_bot_and_its_player_takes_it_back(tmp_path):
    now = [100.0]
    hall = link_hall(tmp_path, now)
    created = hall.create("classic", 4, "en", ["link"] * 4, 3, timer=30)
    table = hall.table(created["game"])
    seat = table.game.pending[0].by
    token = next(t for t, role, s in hall.store.live_tokens(created["game"]) if s == seat)
    pass_ = hall.enter(token)
    assert hall.state(pass_, seat, "en")["timer"] == {"seconds": 30, "left": {seat: 30}}
    assert hall.due(created["game"]) == 130.0
    now[0] = 129.0
    assert hall.run_due(created["game"]) is False and table.seats[seat]["controller"] == "link"
    assert hall.state(pass_, seat, "en")["timer"]["left"][seat] == 1
    now[0] = 130.0
    log_size = len(table.game.log)
    assert hall.run_due(created["game"]) is True
    assert table.seats[seat] == {"controller": "bot", "bot": TIMEOUT_BOT, "moves": 0}
    hall.bot_step(created["game"])                                   # as the server has the bots play
    assert table.seats[seat]["moves"] >= 1 and len(table.game.log) > log_size
    state = hall.state(hall.enter(token), seat, "en")                # the link still opens the seat
    assert state["seat"] == seat and state["timed_out"] is True
    # what the file holds: the seat is the bot's for now, and was a link's
    con = sqlite3.connect(hall.store.path)
    assert con.execute("SELECT controller, bot FROM seats WHERE seat = ?", (seat,)).fetchone() == ("bot", TIMEOUT_BOT)
    assert con.execute("SELECT value FROM options WHERE seat = ? AND key = 'timed_out'", (seat,)).fetchone() == (1,)
    con.close()
    hall.take_back(hall.enter(token))
    assert table.seats[seat]["controller"] == "link" and not hall.state(pass_, seat, "en")["timed_out"]
    with pytest.raises(Refusal):
        hall.take_back(hall.enter(token))                          # only once the time ran out


def play_bots(hall, game_id):
    """The bots' moves, as the server has them play (shown at once: the clock is past their
    pace), until a person must decide or the game ends."""
    while True:
        moved, more, show_at = hall.bot_step(game_id)
        if show_at is not None:
            hall.track(game_id)
        if not more or not moved:
            return


def test_a_game_whose_people_all_ran_out_of_time_is_one_of_bots_only_until_one_comes_back(tmp_path):
    """An audit found a game whose every seat a bot played after its turn timer ran out not
    counted as one of bots only (docs/web.md: the limit on them). It is counted while no
    person plays a seat; and since people moved in it, it is kept once it ends, not swept as
    a game nobody played."""
    now = [100.0]
    hall = link_hall(tmp_path, now, max_bot_games=1)
    created = hall.create("classic", 4, "en", ["link"] * 4, 3, timer=30)
    game_id = created["game"]
    table = hall.table(game_id)
    tokens = {s: t for t, role, s in hall.store.live_tokens(game_id) if role == "seat"}
    first = table.game.pending[0].by
    action = next(a for a in table.game.legal_actions(first) if a["type"] not in ANY_TIME)
    hall.move(hall.enter(tokens[first]), first, action, table.offer(first))     # a person moved

    def bots_only() -> int:
        con = sqlite3.connect(hall.store.path)
        try:
            return con.execute("SELECT bots_only FROM games WHERE id = ?", (game_id,)).fetchone()[0]
        finally:
            con.close()

    while True:
        now[0] += 31.0
        hall.run_due(game_id)                  # the seats waited for too long go to bots
        if all(e["controller"] == "bot" for e in table.seats.values()):
            break
        assert bots_only() == 0
        play_bots(hall, game_id)
        assert not table.game.over
    assert bots_only() == 1 and hall.store.count_open_games(bots_only=True) == 1
    with pytest.raises(Refusal) as refused:                   # the limit counts it
        hall.create("classic", 4, "en", ["bot:random"] * 4, 4)
    assert refused.value.code == "limit"
    hall.take_back(hall.enter(tokens[first]))                 # a person again
    assert bots_only() == 0 and hall.store.count_open_games(bots_only=True) == 0
    while not table.game.over:                                # and the bots play the end
        now[0] += 31.0
        hall.run_due(game_id)
        play_bots(hall, game_id)
    assert bots_only() == 1
    with pytest.raises(Refusal) as refused:                   # nothing left to take back
        hall.take_back(hall.enter(tokens[first]))
    assert refused.value.code == "over"
    assert game_id not in hall.store.sweep(unplayed_before=now[0], bots_done_before=now[0] + 10 ** 6,
                                           keep_bots_done=0)
    assert hall.enter(tokens[first]).game_id == game_id
    hall.store.close()


def test_turn_timers_never_make_a_game_of_bots_only_past_the_limit(tmp_path):
    """An audit created games of 4 links with a 1-second timer and never opened them: every
    seat went to a bot, and more games of bots only ran at once than ``bots_only_games``.
    The last person's seat stays theirs while the limit is reached (the game waits, its timer
    starting again), and goes to the bot once a game of bots only has ended."""
    now = [100.0]
    hall = link_hall(tmp_path, now, max_bot_games=1)
    bots = hall.create("classic", 4, "en", ["bot:random"] * 4, 5)["game"]      # the one allowed
    game_id = hall.create("classic", 4, "en", ["link"] * 4, 3, timer=30)["game"]
    table = hall.table(game_id)
    assert hall.store.count_open_games(bots_only=True) == 1
    for _ in range(50):
        now[0] += 31.0
        hall.run_due(game_id)
        people = [s for s, e in table.seats.items() if e["controller"] != "bot"]
        assert people, "the limit was passed"
        if len(people) == 1 and people[0] in table.pending_since:
            break
        play_bots(hall, game_id)
    (last,) = [s for s, e in table.seats.items() if e["controller"] != "bot"]
    assert hall.run_due(game_id) is False and table.seats[last]["controller"] == "link"
    assert hall.due(game_id) == now[0] + 30            # waits a whole timer again, no busy loop
    assert hall.store.count_open_games(bots_only=True) == 1
    play_bots(hall, bots)                              # the game of bots only ends
    assert hall.table(bots).game.over and hall.store.count_open_games(bots_only=True) == 0
    now[0] += 31.0
    assert hall.run_due(game_id) is True and table.seats[last]["controller"] == "bot"
    assert hall.store.count_open_games(bots_only=True) == 1
    hall.store.close()


def test_without_a_timer_nothing_is_timed(tmp_path):
    now = [0.0]
    hall = link_hall(tmp_path, now)
    created = hall.create("classic", 4, "en", ["link"] * 4, 3)
    assert hall.due(created["game"]) is None
    now[0] = 10 ** 6
    assert hall.run_due(created["game"]) is False
    assert hall.state(hall.enter(created["host"]), None, "en")["timer"] is None


@pytest.mark.parametrize("timer", [-1, 3601, "30", 1.5, True])
def test_a_bad_timer_is_refused(tmp_path, timer):
    hall = link_hall(tmp_path, [0.0])
    with pytest.raises(Refusal) as refused:
        hall.create("classic", 4, "en", ["link"] * 4, 3, timer=timer)
    assert refused.value.code == "bad_request" and "timer" in refused.value.detail
    assert hall.store.game_ids() == []


def test_a_short_timer_runs_out_on_a_live_server(tmp_path):
    with TestClient(new_server(tmp_path).app) as client:
        created = make_game(client, ["link", "bot:random", "bot:random", "bot:random"], timer=1)
        with client.websocket_connect("/ws") as host:
            first = hello(host, created["host"])
            (seat, entry), = [(s, e) for s, e in first["table"]["seats"].items() if e["controller"] == "link"]
            assert first["timer"]["seconds"] == 1
            with client.websocket_connect("/ws") as page:
                hello(page, entry["link"])
                for _ in range(50):                    # pushed by the server once the second is up
                    state = receive(host)
                    if state["table"]["seats"][seat]["controller"] == "bot":
                        break
                assert state["table"]["seats"][seat] == {"controller": "bot", "bot": TIMEOUT_BOT, "link": entry["link"]}
                while True:
                    mine = receive(page)
                    if mine.get("timed_out"):
                        break
                send(page, {"type": "take_back"})
                while receive(host)["table"]["seats"][seat]["controller"] != "link":
                    pass


# ---------------------------------------------------------------------- "pass for me"


class Draws(random.Random):
    """A seeded generator that keeps every delay it gave (who asked is the table's affair)."""

    def __init__(self, seed):
        super().__init__(seed)
        self.given = []

    def uniform(self, a, b):
        value = super().uniform(a, b)
        self.given.append(value)
        return value


def test_pass_for_me_passes_only_with_nothing_to_play_after_the_drawn_delay(tmp_path):
    now = [0.0]
    hall = link_hall(tmp_path, now, rng=Draws(1))
    created = hall.create("classic", 6, "en", ["host"] * 6, 12)
    table = hall.table(created["game"])
    host = hall.enter(created["host"])
    for seat in table.seats:
        hall.set_autopass(host, seat, True)
    player = bots.make_bot("random", 3)
    passed = held = 0
    for _ in range(3000):
        game = table.game
        if game.over:
            break
        hall.state(host, None, "en")
        due = hall.due(created["game"])
        window_waits = {d.by for d in game.pending if str(d.kind) in ("fight", "overboard", "thirst", "object")}
        idle = {s for s in window_waits if nothing_to_play(game, s)}
        if due is not None and idle:
            now[0] = due
            before = len(game.log)
            hall.run_due(created["game"])
            # every seat is played here and none by a bot: what happened is "pass for me" alone
            actions = [e["action"] for e in game.log[before:] if e["type"] == "action"]
            assert all(a == {"by": a["by"], "type": "pass"} and a["by"] in idle for a in actions)
            passed += len(actions)
            continue
        seat = game.pending[0].by
        if seat in window_waits and not nothing_to_play(game, seat):
            held += 1                     # it has something: "pass for me" leaves it to the player
        hall.move(host, seat, player.choose(game, seat), table.offer(seat))
    assert passed > 0 and held > 0


def test_when_pass_for_me_passes_does_not_depend_on_the_hand(tmp_path):
    """An observer sees when a seat passes. The delay is drawn as the seat becomes pending,
    which is public (R-WIN-2), from a generator that never sees the hand: with the same
    generator, positions that differ only in the seat's hand (dealt again by ``determinize``
    for another player) draw the same delays at the same moments, whether the seat then has
    something to play or not."""
    differed = compared = 0
    hall = Hall(Store(str(tmp_path / "t.sqlite3")), clock=lambda: 5.0, autopass_delay=(2.0, 9.0))
    for table, seat in positions(range(12), players=5):
        game = table.game
        kinds = {d.by: str(d.kind) for d in game.pending}
        if kinds.get(seat) not in ("fight", "overboard", "thirst"):
            continue
        others = [c for c in game.view(None)["seats"] if c != seat]
        if not others:
            continue
        copy = game.determinize(others[0], 99)            # every hand but others[0]'s dealt again
        draws = []
        for position in (game, copy):
            hall.rng = Draws(7)           # the same draws for both positions
            probe = Table("p", position, "en", {c: {"controller": "link", "bot": None, "moves": 0}
                                                for c in position.view(None)["characters"]})
            probe.autopass = set(probe.seats)
            hall._track(probe)
            draws.append(sorted(probe.autopass_at.items()))
        assert draws[0] == draws[1]
        compared += 1
        if nothing_to_play(game, seat) != nothing_to_play(copy, seat):
            differed += 1
    assert compared > 20 and differed > 0


def test_pass_for_me_is_the_seats_own_secret(tmp_path):
    with TestClient(new_server(tmp_path).app) as client:
        created = make_game(client, ["link", "link", "bot:random", "bot:random"])
        with client.websocket_connect("/ws") as host:
            table = hello(host, created["host"])["table"]
            seat, entry = next((s, e) for s, e in table["seats"].items() if e["link"])
            other = next(e["link"] for s, e in table["seats"].items() if e["link"] and s != seat)
            with client.websocket_connect("/ws") as page, client.websocket_connect("/ws") as watcher:
                hello(page, entry["link"])
                hello(watcher, table["spectator"])
                send(page, {"type": "autopass", "seat": seat, "on": True})
                assert receive(page)["autopass"] is True
                send(page, {"type": "autopass", "seat": "nobody", "on": True})
                assert receive(page)["code"] == "not_your_seat"
                # no other page was sent anything: its next message answers its own request
                send(watcher, {"type": "lang", "lang": "zh"})
                answer = receive(watcher)
                assert answer["lang"] == "zh" and answer["feed_from"] == 0
            with client.websocket_connect("/ws") as page:
                state = hello(page, other)
                assert state["autopass"] is False and seat not in json.dumps(state.get("table", {}))
            with client.websocket_connect("/ws") as spectator:
                assert "autopass" not in hello(spectator, table["spectator"])


# ---------------------------------------------------------------------- the creation page's words


def test_every_ruleset_and_bot_has_words_in_both_languages(tmp_path):
    with TestClient(new_server(tmp_path).app) as client:
        setup = client.get("/api/setup").json()
    for lang in labels.LANGS:
        for name in setup["rulesets"]:
            words = labels.ruleset_words(name, lang)
            assert words["name"] != name or lang == "en" and name[0].isupper()
            assert words["about"] and setup["ui"][lang]["ruleset_" + name] == words["name"]
        for bot in setup["bots"]:
            assert setup["ui"][lang]["bot_" + bot] != bot
    assert setup["timers"][0] == 0
    assert set(labels.UI["en"]) == set(labels.UI["zh"])


def test_a_search_bots_decisions_are_shown_at_its_pace_whatever_it_holds(tmp_path):
    """How long a bot takes must not tell the table what it holds (bots.PacedBot): the
    server plays a search bot's decision and stops there, with the moment before which no
    page may see it (the decision's start and PACED_SEARCH_SECONDS, whether the bot searched
    or answered at once); who became pending is stamped only once it is shown (``track``),
    so a person's turn timer starts when the person can see the move."""
    now = [50.0]
    hall = Hall(Store(str(tmp_path / "t.sqlite3")), clock=lambda: now[0])
    created = hall.create("classic", 4, "en", ["link", "bot:search", "bot:search", "bot:search"], 3,
                          timer=60)
    table = hall.table(created["game"])
    person = next(s for s, e in table.seats.items() if e["controller"] == "link")
    searched = set()
    for _ in range(60):
        if table.game.over:
            break
        if table.bot_pending() is None:      # the person's turn: a move of theirs
            action = next(a for a in table.game.legal_actions(person) if a["type"] not in ANY_TIME)
            hall.move(hall.enter(next(t for t, role, s in hall.store.live_tokens(created["game"])
                                      if s == person)), person, action, table.offer(person))
            continue
        seat = table.bot_pending()
        stamped = dict(table.pending_since)
        moved, _, show_at = hall.bot_step(created["game"])
        assert moved == 1 and show_at == now[0] + bots.PACED_SEARCH_SECONDS
        searched.add(table.bot(seat).bot.last["worlds"] > 0)
        assert table.pending_since == stamped      # nobody's turn begins before it is shown
        now[0] = show_at
        hall.track(created["game"])
        assert all(table.pending_since[d.by][1] == now[0] for d in table.game.pending
                   if d.by not in stamped)
    assert searched == {True, False}
    hall.store.close()


def test_every_bot_is_shown_at_its_pace(tmp_path):
    """The quick bots too (bots.PACED_SECONDS): one decision a step, shown that long after it
    began, so that a window's bots appear one by one at a steady pace whatever they hold."""
    now = [10.0]
    hall = Hall(Store(str(tmp_path / "t.sqlite3")), clock=lambda: now[0])
    created = hall.create("classic", 4, "en", ["bot:random", "bot:heuristic"] * 2, 4)
    for _ in range(30):
        moved, more, show_at = hall.bot_step(created["game"])
        assert moved == 1 and show_at == now[0] + bots.PACED_SECONDS
        now[0] = show_at
        hall.track(created["game"])
    hall.store.close()


def test_a_bots_draws_cannot_be_worked_out_from_what_pages_are_shown():
    """Every page is shown its game's id; a bot seeded from the id, seat and move count alone
    could be replayed by a player, who would then read the bot's hand from its moves. The
    seed is made with a secret each server process draws: two processes seed the same bot of
    the same game differently, and neither as the id alone would."""
    import hashlib
    import subprocess
    import sys

    code = ("from lifeboat_rules.web import tables\n"
            "tables.bots.paced_bot = lambda name, seed, clock: print(seed)\n"
            "tables.Table('0123456789abcdef', None, 'en', "
            "{'frenchy': {'controller': 'bot', 'bot': 'random', 'moves': 3}}).bot('frenchy')\n")
    seeds = {int(subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout)
             for _ in range(2)}
    plain = int.from_bytes(hashlib.sha256(b"0123456789abcdef/frenchy/3").digest()[:4], "big")
    assert len(seeds) == 2 and plain not in seeds
