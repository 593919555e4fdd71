"""The bots (docs/agents.md): registered by name, always legal, seeded; HeuristicBot plays to its
love, hate and treasure as the issue asks (keeps its water, robs its hated when stronger,
refuses when stronger, joins its love's winning side, steers away from falling overboard);
SearchBot searches within its budget and takes what is plainly best; the command line seats
them by name."""

from __future__ import annotations

import random
import re
import time

import pytest

import lifeboat_rules as lr
from lifeboat_rules.bots import (BOTS, PACED_SEARCH_BUDGET, PACED_SEARCH_SECONDS, PACED_SECONDS, PacedBot,
                                 RandomBot, RandomPlayer, make_bot, paced_bot)
from lifeboat_rules.cli import main
from lifeboat_rules.heuristic import HeuristicBot
from lifeboat_rules.search import SearchBot, expected_scores, survival_chance


def test_bots_by_name():
    assert {"random", "heuristic", "search"} <= set(BOTS)
    assert isinstance(make_bot("random", seed=1), RandomBot)
    assert isinstance(make_bot("heuristic", seed=1), HeuristicBot)
    assert isinstance(make_bot("search", seed=1), SearchBot)
    with pytest.raises(ValueError, match="known bots"):
        make_bot("grandmaster")


@pytest.mark.parametrize("name", ["random", "heuristic", "search"])
def test_every_choice_is_legal_and_games_end(name):
    """One bot of ``name`` and random players: every action it chooses is listed for it."""
    ruleset = lr.load_ruleset("classic")
    for seed in range(2 if name == "search" else 6):
        game = lr.new_game(ruleset, players=5, seed=seed)
        bot = make_bot(name, seed=seed) if name != "search" else SearchBot(seed=seed, rollouts=2)
        mine = game.state.seats[seed % 5]
        others = RandomBot(seed)
        while not game.over:
            who = game.pending[0].by
            if who == mine:
                action = bot.choose(game, who)
                assert action in game.legal_actions(who)
            else:
                action = others.choose(game, who)
            game.apply(action)


def _choices(bot_factory, seed=4, steps=150):
    game = lr.new_game("classic", players=6, seed=seed)
    bot = bot_factory()
    out = []
    for _ in range(steps):
        if game.over:
            break
        who = game.pending[0].by
        action = bot.choose(game, who)
        out.append(action)
        game.apply(action)
    return out


def test_same_seed_same_play():
    assert _choices(lambda: HeuristicBot(seed=3)) == _choices(lambda: HeuristicBot(seed=3))
    assert _choices(lambda: SearchBot(seed=3, rollouts=2, budget=60), steps=40) == \
        _choices(lambda: SearchBot(seed=3, rollouts=2, budget=60), steps=40)


def position(**setup):
    return lr.new_game("classic", setup={"phase": "action", **setup})


SEATS = ["lady_lauren", "the_captain", "first_mate", "the_kid"]


def test_heuristic_robs_its_hated_when_stronger():
    game = position(seats=SEATS[2:] + SEATS[:2], hate={"first_mate": "the_kid"},
                    love={"first_mate": "lady_lauren"},
                    hand={"the_kid": ["cash"], "lady_lauren": ["jewels"]})
    assert game.pending[0].by == "first_mate"
    action = HeuristicBot(1).choose(game, "first_mate")
    assert action == {"by": "first_mate", "type": "rob", "target": "the_kid", "card": "hand"}


def test_heuristic_does_not_rob_a_stronger_character_that_can_refuse():
    game = position(seats=["the_kid", "first_mate", "lady_lauren", "the_captain"],
                    hate={"the_kid": "first_mate"}, hand={"first_mate": ["cash"]},
                    navigation=["nav-19", "nav-20"])
    action = HeuristicBot(1).choose(game, "the_kid")
    # the Kid's pickpocket cannot be refused (R-ROB-4): robbing a hand is safe for him
    assert action["type"] == "rob" and action["card"] == "hand"
    other = position(seats=["lady_lauren", "first_mate", "the_kid", "the_captain"],
                     hate={"lady_lauren": "first_mate"}, hand={"first_mate": ["cash"]},
                     navigation=["nav-19", "nav-20"])
    action = HeuristicBot(1).choose(other, "lady_lauren")
    assert not (action["type"] == "rob" and action["target"] == "first_mate")


def test_heuristic_refuses_when_stronger_and_allows_when_weaker():
    for defender, expected in (("first_mate", "refuse"), ("lady_lauren", "allow")):
        seats = ["the_captain", defender] + [c for c in SEATS if c not in ("the_captain", defender)]
        game = position(seats=seats, hand={defender: ["jewels"]},
                        navigation=["nav-19", "nav-20"])
        game.apply({"by": "the_captain", "type": "rob", "target": defender, "card": "hand"})
        assert game.pending[0].by == defender
        assert HeuristicBot(2).choose(game, defender)["type"] == expected


def test_heuristic_keeps_its_water_for_itself_and_its_love():
    """In the thirst window it waters itself, then its love, never its hated."""
    def thirsty(love, hate):
        game = position(seats=SEATS, phase="navigation", love={"the_captain": love},
                        hate={"the_captain": hate}, hand={"the_captain": ["water", "water"]},
                        navigation=["nav-19"])
        return game   # nav-19: first_mate falls; the_captain and first_mate are thirsty

    game = thirsty(love="first_mate", hate="lady_lauren")
    while not game.over and game.pending and game.pending[0].kind != "thirst":
        game.apply({"by": game.pending[0].by, "type": "pass"})
    assert game.pending[0].kind == "thirst" and game.pending[0].by == "the_captain"
    bot = HeuristicBot(3)
    first = bot.choose(game, "the_captain")
    assert first["type"] == "water" and first["target"] == "the_captain"
    game.apply(first)
    second = bot.choose(game, "the_captain")
    assert second["type"] == "water" and second["target"] == "first_mate"

    game = thirsty(love="lady_lauren", hate="first_mate")
    while game.pending[0].kind != "thirst":
        game.apply({"by": game.pending[0].by, "type": "pass"})
    game.apply(bot.choose(game, "the_captain"))
    assert bot.choose(game, "the_captain")["type"] == "pass"   # not for its hated


def test_heuristic_joins_its_loves_side_when_it_wins():
    game = position(seats=["the_captain", "lady_lauren", "first_mate", "the_kid"],
                    love={"first_mate": "lady_lauren"}, hand={"lady_lauren": ["cash"]},
                    navigation=["nav-19", "nav-20"])
    game.apply({"by": "the_captain", "type": "rob", "target": "lady_lauren", "card": "hand"})
    game.apply({"by": "lady_lauren", "type": "refuse"})
    assert game.pending and {d.kind for d in game.pending} == {"fight"}
    action = HeuristicBot(4).choose(game, "first_mate")
    assert action == {"by": "first_mate", "type": "join", "side": "defender"}


def test_the_navigator_avoids_falling_overboard():
    """nav-19 throws first_mate overboard and makes him thirsty; nav-23 throws the_captain
    and makes first_mate thirsty. first_mate, the navigator (nearest the stern), three blows
    from being knocked out (R-STATUS), chooses nav-23: the heuristic and the search alike."""
    game = position(seats=["lady_lauren", "the_captain", "the_kid", "first_mate"],
                    phase="navigation", rowing_pile=["nav-19", "nav-23"],
                    damage={"first_mate": 5}, love={"first_mate": "the_kid"},
                    hate={"first_mate": "lady_lauren"}, navigation=["nav-20"])
    assert game.pending[0].by == "first_mate" and game.pending[0].kind == "navigate"
    assert HeuristicBot(5).choose(game, "first_mate")["card"] == "nav-23"
    search = SearchBot(seed=5, rollouts=8, budget=60)
    assert search.choose(game, "first_mate")["card"] == "nav-23"
    assert search.last["worlds"] == 8 and len(search.last["moves"]) == 2


def test_search_spends_nothing_on_a_forced_move():
    """A pick among cards of one kind is one move worth searching (cards of a kind do the
    same): no world is played. Among two kinds, the budget's worlds are."""
    for supply, worlds in ((["water"] * 3, 0), (["water", "cash", "water"], 5)):
        game = lr.new_game("classic", setup={"seats": SEATS[:3], "phase": "supply",
                                             "supply": supply})
        bot = SearchBot(seed=1, rollouts=5, budget=60)
        action = bot.choose(game, game.pending[0].by)
        assert action["type"] == "pick" and bot.last["worlds"] == worlds


def test_search_budget_in_seconds_stops_the_search():
    game = lr.new_game("classic", players=6, seed=2)
    bot = SearchBot(seed=1, rollouts=None, budget=0.0)
    who = game.pending[0].by
    action = bot.choose(game, who)
    assert bot.last["worlds"] == 0 and action in game.legal_actions(who)


class FakeClock:
    """A clock whose time is the work done: one second per engine move (``work``)."""

    def __init__(self):
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def counting_moves(monkeypatch, clock: FakeClock) -> list:
    """Every ``Game.apply_id`` costs one second of ``clock``; the list gets each move's start."""
    started = []
    apply_id = lr.Game.apply_id

    def counted(game, character, number):
        started.append(clock.now)
        clock.now += 1.0
        return apply_id(game, character, number)

    monkeypatch.setattr(lr.Game, "apply_id", counted)
    return started


@pytest.mark.parametrize("budget", [3.0, 30.0, pytest.param(300.0, marks=pytest.mark.slow)])
def test_search_budget_is_a_hard_bound(monkeypatch, budget):
    """No engine move of a playout starts at or after the deadline, whatever the budget: a
    playout is abandoned at the deadline, not finished (before, the first world was always
    played to its end: up to a whole playout over)."""
    clock = FakeClock()
    started = counting_moves(monkeypatch, clock)
    ruleset = lr.load_ruleset("classic")
    decisions = 0
    for seed in range(2):
        game = lr.new_game(ruleset, players=6, seed=seed)
        bot = SearchBot(seed=seed, rollouts=None, budget=budget, clock=clock)
        for _ in range(25):
            who = game.pending[0].by
            begin = clock.now
            del started[:]
            action = bot.choose(game, who)
            if bot.last.get("moves"):
                decisions += 1
                assert started and max(started) < begin + budget, (budget, max(started), begin)
                assert clock.now <= begin + budget + 1       # the last move ends by then
            game.apply(action)
    assert decisions >= 5


def test_search_finishes_the_worlds_its_budget_allows(monkeypatch):
    """With time for many worlds, the search plays whole worlds and stops at the deadline
    (a world counts only when every kept move was played out in it)."""
    game = lr.new_game("classic", players=6, seed=2)
    who = game.pending[0].by
    clock = FakeClock()
    counting_moves(monkeypatch, clock)
    unlimited = SearchBot(seed=1, rollouts=3, budget=10 ** 9, clock=clock)
    unlimited.choose(game, who)
    assert unlimited.last["worlds"] == 3
    per_world = clock.now / 3
    clock.now = 0.0
    bot = SearchBot(seed=1, rollouts=None, budget=2.5 * per_world, clock=clock)
    bot.choose(game, who)
    assert bot.last["worlds"] == 2 and clock.now <= 2.5 * per_world + 1


def test_expected_scores_and_survival():
    game = lr.new_game("classic", players=6, seed=3)
    for who in game.state.characters:
        assert 0.0 < survival_chance(game, who) <= 1.0
    scores = expected_scores(game)
    assert set(scores) == set(game.state.characters)
    rnd = random.Random(0)
    while not game.over:
        who = game.pending[0].by
        game.apply_id(who, rnd.choice(game.legal_ids(who)))
    # at the end, survival is certain for the survivors and expected scores are the scores
    expected = expected_scores(game)
    assert expected == pytest.approx({c: float(s) for c, s in game.result["scores"].items()})


def test_simulate_with_bots_by_name(capsys):
    """The balance lab seats the bots by name (its --bots, docs/balance.md)."""
    assert main(["simulate", "--games", "2", "--players", "4", "--bots", "heuristic,random"]) == 0
    out = capsys.readouterr().out
    assert re.search(r"^heuristic\s+4\s", out, re.M) and re.search(r"^random\s+4\s", out, re.M)
    assert main(["simulate", "--games", "1", "--bots", "nobody"]) == 2
    assert "known bots: heuristic, random, search" in capsys.readouterr().err


def test_play_against_bots_by_name(monkeypatch, capsys):
    class Script:
        def readline(self):
            return "1\n"

    monkeypatch.setattr("sys.stdin", Script())
    assert main(["play", "--seed", "3", "--players", "4", "--plain", "--bots", "heuristic"]) == 0
    assert "Final scores:" in capsys.readouterr().out
    assert main(["play", "--seed", "3", "--players", "4", "--plain", "--bots", "nobody"]) == 2
    assert "known bots: heuristic, random, search" in capsys.readouterr().err


def test_the_core_and_the_bots_import_no_framework():
    """The adapters' frameworks are imported only by the adapters (the rl extra)."""
    import subprocess
    import sys
    code = ("import sys, lifeboat_rules, lifeboat_rules.bots, lifeboat_rules.encoding, "
            "lifeboat_rules.cli, lifeboat_rules.determinize; "
            "print(sorted({'numpy', 'pettingzoo', 'pyspiel', 'gymnasium', 'scipy'} "
            "& set(sys.modules)))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


# ---------------------------------------------------------------------- pace (hidden information)


class FakeClock:
    def __init__(self):
        self.now = 100.0

    def __call__(self):
        return self.now


def test_a_paced_bot_is_shown_at_the_same_moment_however_long_it_took():
    """Where people watch a bot play, how long it takes must not say what it holds: each
    decision is shown ``seconds`` after it began, or when made if it took longer."""
    clock = FakeClock()

    class Takes(RandomBot):
        took = 0.0

        def choose(self, game, character):
            clock.now += self.took
            return super().choose(game, character)

    game = lr.new_game("classic", players=4, seed=1)
    bot = Takes(seed=1)
    paced = PacedBot(bot, 0.3, clock)
    for took, shown_after in ((0.0, 0.3), (0.05, 0.3), (0.29, 0.3), (0.5, 0.5)):
        bot.took = took
        began = clock.now
        assert paced.choose(game, game.pending[0].by) in game.legal_actions(game.pending[0].by)
        assert paced.show_at == pytest.approx(began + shown_after)
    unpaced = PacedBot(Takes(seed=1), 0.0, clock)
    unpaced.choose(game, game.pending[0].by)
    assert unpaced.show_at < clock.now             # shown at once


def test_the_search_bot_thinks_only_when_it_has_a_choice_and_its_pace_hides_it():
    """The channel the pace closes: in fight windows of the same game the search bot answers
    at once when one move is worth a search (nothing it holds matters) and plays worlds out
    when several are; paced, every one of those decisions is shown the same time after it
    began (the search's wall-clock bound, PACED_SEARCH_BUDGET, is under PACED_SEARCH_SECONDS)."""
    assert PACED_SEARCH_BUDGET < PACED_SEARCH_SECONDS
    readings: list = []

    def clock():             # the wall clock, its readings kept
        readings.append(time.monotonic())
        return readings[-1]

    rng = random.Random(4)
    searched = set()
    for seed in range(12):
        game = lr.new_game("classic", players=4, seed=seed)
        for _ in range(400):
            if game.over or searched == {True, False}:
                break
            decision = game.pending[0]
            if str(decision.kind) == "fight":
                paced = paced_bot("search", seed=seed, clock=clock)
                assert isinstance(paced.bot, SearchBot) and paced.seconds == PACED_SEARCH_SECONDS
                readings.clear()
                paced.choose(game, decision.by)
                searched.add(paced.bot.last["worlds"] > 0)
                assert paced.show_at == readings[0] + PACED_SEARCH_SECONDS
            game.apply(rng.choice(game.legal_actions(decision.by)))
    assert searched == {True, False}


def test_paced_bots_by_name(monkeypatch):
    for name in ("random", "heuristic"):
        paced = paced_bot(name, seed=1)
        assert type(paced.bot) is BOTS[name] and paced.seconds == PACED_SECONDS
    with pytest.raises(ValueError, match="known bots"):
        paced_bot("grandmaster")

    class Deep(RandomBot):
        paced_seconds = 2.5           # a bot from outside that says how long it may think

    monkeypatch.setitem(BOTS, "deep", Deep)
    assert paced_bot("deep", seed=1).seconds == 2.5


def test_the_quick_bots_decide_well_within_their_pace():
    """PACED_SECONDS hides what random and heuristic hold only because they always decide
    sooner (their slowest decisions of two whole games, in this thread's CPU time so that a
    busy machine does not count: about 0.1 ms on the development machine, 400 times less)."""
    for name in ("random", "heuristic"):
        bot, slowest = make_bot(name, seed=2), 0.0
        for seed in range(2):
            game = lr.new_game("classic", players=6, seed=seed)
            while not game.over:
                by = game.pending[0].by
                began = time.thread_time()
                action = bot.choose(game, by)
                slowest = max(slowest, time.thread_time() - began)
                game.apply(action)
        assert slowest < PACED_SECONDS, (name, slowest)


def test_play_waits_for_each_search_decisions_pace():
    """``play --bots search,random``: the wait before the person's next screen is the bots'
    paces times their decisions (public), not how long each thought."""
    from lifeboat_rules.play import SeatedBots

    game = lr.new_game("classic", players=4, seed=3)
    waits: list = []
    seated = SeatedBots(game, ["search", "random"], 3, sleep=waits.append)
    clock = FakeClock()                  # the decisions take no time on it
    for paced in seated.bots.values():
        paced.clock = clock
    kinds = []
    for _ in range(12):
        kinds.append(type(seated.bots[game.pending[0].by].bot))
        game.apply(seated.act(game))
    assert SearchBot in kinds and RandomBot in kinds
    assert waits == pytest.approx([PACED_SEARCH_SECONDS if kind is SearchBot else PACED_SECONDS
                                   for kind in kinds])


def test_play_paces_its_default_random_opponents_too():
    from lifeboat_rules.play import PacedRandom

    game = lr.new_game("classic", players=4, seed=3)
    waits: list = []
    clock = FakeClock()
    opponents = PacedRandom(3, sleep=waits.append, clock=clock)
    reference = RandomPlayer(3)               # the same moves, unpaced
    for _ in range(10):
        action = opponents.act(game)
        assert action == reference.act(game)
        game.apply(action)
    assert waits == pytest.approx([PACED_SECONDS] * 10)
