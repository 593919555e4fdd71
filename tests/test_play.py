"""``lifeboat-rules play``: whole games driven by scripted input (lifeboat_rules/play.py)."""

from __future__ import annotations

import importlib.util
import io
import json
import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import time

import pytest

import lifeboat_rules as lr
from lifeboat_rules import play, words
from lifeboat_rules.bots import RandomPlayer
from lifeboat_rules.cli import main

INSTANCE_ID = re.compile(r"(?<![A-Za-z0-9])(?:p[0-9a-f]{8}(?![0-9a-z])|[po]\d+)")
PROMPT = re.compile(r"(?:Your choice \(1-|请选择（1-)(\d+)")


class Script:
    """Typed lines, then "1" for every later question (the first entry of each menu)."""

    def __init__(self, lines=()):
        self.lines = list(lines)
        self.asked = 0

    def readline(self) -> str:
        self.asked += 1
        return (self.lines.pop(0) if self.lines else "1") + "\n"


def play_through(ruleset="classic", players=5, seed=11, lang="en", script=None, who=0,
                 screen=None):
    game = lr.new_game(ruleset, players=players, seed=seed)
    out = io.StringIO()
    me = game.view(None)["seats"][who]
    screen = screen(out) if screen else play.PlainScreen(out, fit=False)
    screen.title = words.text("ui.title", lang, ruleset=ruleset, n=players,
                              who=words.character_name(game, me, lang))
    assert play.run(game, me, lang, script or Script(), out, RandomPlayer(seed), screen) == 0
    return game, me, out.getvalue()


def test_out_of_range_and_other_answers_are_refused_and_the_game_plays_to_its_end():
    script = Script(["0", "-1", "4000", "abc", "", "1.5", " 2x"])
    game, me, out = play_through(script=script)
    first_menu = int(PROMPT.search(out).group(1))
    for answer in ("0", "-1", "4000", "abc", '""', "1.5", "2x"):
        assert f"{answer} is not on the menu: type a number from 1 to {first_menu}." in out
    assert game.over
    # the scores with their parts, as the game reckoned them
    result = game.result
    names = {c: game.ruleset.content.raw["characters"][c]["name"] for c in result["scores"]}
    assert "Final scores:" in out
    for character, total in result["scores"].items():
        parts = [result["breakdown"][character][p] for p in ("survival", "treasure", "love", "hate")]
        row = r"\s+".join([re.escape(names[character])] + [str(n) for n in parts + [total]])
        assert re.search(row, out), (character, out[-800:])
    winners = " and ".join(names[c] for c in result["winners"])
    assert out.rstrip().endswith(f"{winners}.")
    # words only: no instance ids, no Python reprs
    assert not INSTANCE_ID.search(out)
    assert not re.search(r"[{}\[\]]|'by'|None", out)


def test_the_status_is_shown_at_every_decision():
    game, me, out = play_through(seed=12)
    screens = out.split("Seats, bow to stern")[1:]
    assert len(screens) == len(PROMPT.findall(out)) > 5
    for screen in screens:
        assert "* Lady Lauren: " in screen          # your seat, marked
        assert "You are Lady Lauren. You love " in screen
        assert "Your hand" in screen


def test_the_game_in_chinese_from_the_command_line(monkeypatch, capsys):
    monkeypatch.setattr("sys.stdin", Script(["0", "abc"]))
    assert main(["play", "--seed", "5", "--players", "6", "--lang", "zh", "--as", "the_kid",
                 "--plain"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("救生艇（classic）：6名玩家。你扮演小孩。")
    menu = int(PROMPT.search(out).group(1))
    assert f"0 不在菜单中：请输入 1 到 {menu} 之间的数字。" in out
    assert f"abc 不在菜单中：请输入 1 到 {menu} 之间的数字。" in out
    assert "* 小孩：" in out and "你是小孩。" in out
    assert "最终得分：" in out and "获胜者：" in out
    for english in ("Lady Lauren", "The Kid", "Water", "Round", "Seats", "navigation"):
        assert english not in out
    assert not INSTANCE_ID.search(out)


def test_you_choose_your_character_by_id_or_by_name(monkeypatch, capsys):
    monkeypatch.setattr("sys.stdin", io.StringIO("q\n"))
    assert main(["play", "--seed", "5", "--players", "6", "--as", "船长", "--plain"]) == 0
    out = capsys.readouterr().out
    assert "You play The Captain." in out
    assert out.rstrip().endswith("Bye. (The game was not finished.)")


def test_the_seed_is_told_only_when_the_game_is_over(monkeypatch, capsys):
    """An audit read the seed off the title line and dealt the game again beside it: every
    hand, love and hate and both decks' order. The seed, which deals the same game, is said
    once the game is over (with the command that plays it again), never while it is played."""
    monkeypatch.setattr(play, "PACED_SECONDS", 0.0)     # the others' moves without their pace
    monkeypatch.setattr("sys.stdin", io.StringIO("q\n"))
    assert main(["play", "--players", "6", "--as", "frenchy", "--plain"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Lifeboat, classic: 6 players. You play Frenchy.")
    assert "seed" not in out.lower() and not re.search(r"\d{4,}", out)
    monkeypatch.setattr("sys.stdin", Script())
    assert main(["play", "--players", "6", "--as", "the_kid", "--plain"]) == 0   # (all dealt)
    out = capsys.readouterr().out
    *before, last = out.rstrip().splitlines()
    assert not any("seed" in line for line in before)
    seed = int(re.search(r"That game was seed (\d+); this deals it again: ", last).group(1))
    command = shlex.split(last.split("this deals it again: ")[1])
    assert command == ["lifeboat-rules", "play", "--ruleset", "classic", "--players", "6",
                       "--seed", str(seed), "--as", "the_kid"]
    monkeypatch.setattr("sys.stdin", Script())
    assert main(command[1:] + ["--plain"]) == 0
    assert capsys.readouterr().out == out            # the same deal, the same bots: the same game


def test_a_character_not_dealt_is_refused(monkeypatch, capsys):
    seats = lr.new_game("classic", players=4, seed=5).view(None)["seats"]
    missing = next(c for c in ("lady_lauren", "sir_stephen", "the_captain", "first_mate",
                               "frenchy", "the_kid") if c not in seats)
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    assert main(["play", "--seed", "5", "--players", "4", "--as", missing, "--plain"]) == 2
    assert f"{missing} is not in this game; in play: " in capsys.readouterr().out


def test_quitting_or_the_end_of_input_stops_the_game():
    for typed in (["q"], ["quit"]):
        game, _, out = play_through(script=Script(typed))
        assert not game.over and "Bye." in out
    game = lr.new_game("classic", players=5, seed=11)
    out = io.StringIO()
    assert play.run(game, "lady_lauren", "en", io.StringIO(""), out, RandomPlayer(1),
                    play.PlainScreen(out, fit=False)) == 0
    assert not game.over and "Bye." in out.getvalue()


# --------------------------------------------------------------------------- the menu

def _effect(game, action) -> tuple:
    """What applying ``action`` does, with each card id read as its kind (cards of one kind
    are interchangeable), offer ids left out, and the applied action itself not counted."""
    copy = game.clone()
    events = copy.apply(action)
    kinds = game.state.table.kinds
    said = [json.dumps(e, sort_keys=True) for e in events if e["type"] != "action"]
    return tuple(INSTANCE_ID.sub(lambda m: kinds.get(m.group(0), "#"), s) for s in said)


def test_the_menu_lists_each_distinct_move_once():
    checked = shrunk = 0
    for ruleset, seed in (("classic", 3), ("cannibalism", 4), ("shark", 5)):
        game = lr.new_game(ruleset, players=5, seed=seed)
        me = game.view(None)["seats"][1]
        bot = RandomPlayer(seed)
        while not game.over:
            if any(d.by == me for d in game.pending):
                listed = game.legal_actions(me)
                menu = play.build_menu(game, me, "en", limit=10_000)
                assert all(entry.action is not None for entry in menu)   # no grouping asked
                labels = [entry.label for entry in menu]
                assert len(labels) == len(set(labels)), labels
                effects = [_effect(game, entry.action) for entry in menu]
                assert len(effects) == len(set(effects)), labels   # no two alike
                assert {_effect(game, a) for a in listed} == set(effects)   # none missing
                checked += 1
                shrunk += len(menu) < len(listed)
                game.apply(menu[0].action if seed % 2 else menu[-1].action)
            else:
                game.apply(bot.act(game))
    assert checked > 30 and shrunk > 10


def test_a_long_menu_gathers_kinds_of_move_into_sub_menus():
    game = lr.new_game("classic", players=6, seed=3)
    while game.pending[0].kind != "turn":
        game.apply(RandomPlayer(3).act(game))
    me = game.pending[0].by
    full = play.build_menu(game, me, "en", limit=10_000)
    short = play.build_menu(game, me, "en", limit=8)
    assert len(short) <= 8 < len(full)
    opened = [e for entry in short for e in (entry.entries or [entry])]
    assert sorted(e.label for e in opened) == sorted(e.label for e in full)
    swaps = next(entry for entry in short if entry.entries and
                 entry.entries[0].action["type"] == "swap")
    assert swaps.label == "Swap seats (5 choices)"
    # a sub-menu is chosen from like the menu, and Back returns to it
    out = io.StringIO()
    script = Script([str(short.index(swaps) + 1), "6", str(short.index(swaps) + 1), "2"])
    chosen = play.choose(game, me, "en", script, play.PlainScreen(out, fit=False), [])
    assert chosen == swaps.entries[1].action
    assert "Back" in out.getvalue()


# --------------------------------------------------------------------------- 80 x 24

def _frames(out: str) -> list:
    """Each screen up to its prompt (the answer is typed after it)."""
    frames = []
    for frame in out.split(play.CLEAR)[1:]:
        lines = frame.split("\n")
        ask = next((i for i, line in enumerate(lines) if PROMPT.search(line)), None)
        # the last screen (the scores) ends with a line break, not a prompt
        frames.append(lines[: ask + 1] if ask is not None else frame.rstrip("\n").split("\n"))
    return frames


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_each_screen_fits_80_by_24(lang):
    count = 0
    for ruleset, players, seed in (("classic", 6, 1), ("cannibalism", 7, 2), ("shark", 4, 3)):
        _, _, out = play_through(ruleset, players, seed, lang, who=seed % players,
                                 screen=lambda o: play.PlainScreen(o, fit=True, size=(80, 24)))
        for frame in _frames(out):
            assert len(frame) <= 24, "\n".join(frame)
            assert max(play.width(line) for line in frame) <= 80, "\n".join(frame)
            count += 1
    assert count > 50


def test_wide_characters_count_twice():
    assert play.width("罗伦小姐") == 8 and play.width("Lady Lauren") == 11
    line = "结算航行卡 21：出现海鸥；小孩落水；除罗伦小姐以外的所有人口渴；划船者口渴；参加战斗者口渴。"
    parts = play.wrap(line, 40, indent="  ")
    assert len(parts) > 1 and all(play.width(p) <= 40 for p in parts)
    assert "".join(p.strip() for p in parts) == line
    words = play.wrap("Lady Lauren tries to rob a random card from Sir Stephen's hand.", 30)
    assert words == ["Lady Lauren tries to rob a", "random card from Sir Stephen's", "hand."]


@pytest.mark.skipif(importlib.util.find_spec("rich") is None,
                    reason="rich is not installed (pip install -e '.[dev]' installs it)")
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_game_drawn_with_rich(lang):
    game, me, out = play_through("cannibalism", 7, 6, lang, who=2,
                                 screen=lambda o: play.RichScreen(o, fit=True, size=(80, 24)))
    assert game.over
    frames = _frames(out)
    assert len(frames) > 10
    for frame in frames[:-1]:
        assert len(frame) <= 24 and max(play.width(line) for line in frame) <= 80
        # a prompt, or a page of news that did not fit waiting for Enter
        assert frame[-1].startswith(("Your choice", "请选择", words.text("ui.more_news", lang)))
    last = "\n".join(frames[-1])
    assert ("Final scores:" if lang == "en" else "最终得分：") in last
    assert not INSTANCE_ID.search(out)


# --------------------------------------------------------------------------- the terminal's size

def test_the_screen_is_the_terminals_size(monkeypatch):
    """A screen without a fixed size asks the terminal each time; the space is used."""
    monkeypatch.setattr(play.shutil, "get_terminal_size",
                        lambda fallback=None: __import__("os").terminal_size((120, 40)))
    _, _, out = play_through("classic", 6, 1, who=1,
                             screen=lambda o: play.PlainScreen(o, fit=True))
    frames = _frames(out)
    assert max(len(frame) for frame in frames) > 24     # more than 80x24 would have shown
    for frame in frames:
        assert len(frame) <= 40 and max(play.width(line) for line in frame) <= 120
    _, _, out = play_through("classic", 6, 1, who=1,
                             screen=lambda o: play.PlainScreen(o, fit=True, size=(64, 22)))
    for frame in _frames(out):
        assert len(frame) <= 22 and max(play.width(line) for line in frame) <= 64


class Recording(play.PlainScreen):
    """A plain screen that keeps the news of each screen it shows."""

    def __init__(self, out, game):
        super().__init__(out, fit=False)
        self.game = game
        self.shown: list = []     # (news, log length when shown)

    def show(self, feed, status, decision, menu, lang):
        self.shown.append((list(feed), len(self.game.log)))
        super().show(feed, status, decision, menu, lang)

    def finish(self, feed, table, lang):
        self.shown.append((list(feed), len(self.game.log)))
        super().finish(feed, table, lang)


def test_each_screen_tells_everything_since_the_last_one():
    """The news of the screens, one after the other, is the player's whole feed: nothing left
    out, nothing twice; each screen opens with the outcome of your last move."""
    for seed in (2, 3):
        game = lr.new_game("classic", players=6, seed=seed)
        me = game.view(None)["seats"][2]
        out = io.StringIO()
        screen = Recording(out, game)
        play.run(game, me, "en", Script(), out, RandomPlayer(seed), screen)
        told = [line for news, _ in screen.shown for line in news]
        whole = game.feed(me)
        assert told == [e["text"] for e in whole]
        starts = [e["index"] for e in whole]
        mine = [i for i, e in enumerate(game.log)
                if e["type"] == "action" and e["action"]["by"] == me]
        for (news, _), (following, upto) in zip(screen.shown, screen.shown[1:]):
            made = [i for i in mine if i < upto]
            if not made or not following:
                continue
            entry = next(e for e in whole if e["index"] == max(k for k in starts if k <= made[-1]))
            # your last move is told on this screen, unless an earlier one told it
            assert entry["text"] in following or entry["text"] in \
                [line for n, u in screen.shown if u <= upto for line in n]


def test_the_cards_a_rower_drew_are_told_in_words():
    for seed in range(40):
        game = lr.new_game("classic", players=4, seed=seed)
        bot = RandomPlayer(seed)
        while not game.over and not (game.pending and game.pending[0].kind == "place"):
            game.apply(bot.act(game))
        if not game.over:
            break
    rower = game.pending[0].by
    lines = play.decision_lines(game, rower, "en")
    drawn = game.view(rower)["decision"]["cards"]
    assert drawn
    for card in drawn:
        line = words.text("ui.drawn_card", "en", card=words.navigation_name(game, card["id"]),
                          details=words.navigation_details(game, card))
        assert line in lines
        assert "overboard" in line or "thirsty" in line or "seagull" in line or \
            "nothing happens" in line


# --------------------------------------------------------------------------- out of the game

def _dies_early():
    """A seed and seat where the person (answering 1 to everything) dies two rounds or more
    before the end."""
    for seed in range(60):
        who = seed % 6
        game, me, out = _play_out(seed, who, ["1"])
        if len(re.findall(r"Round \d+ is next", out)) >= 2:   # two rounds or more to watch
            return seed, who
    raise AssertionError("no early death in 60 games")


class OnceOut:
    """1 to everything until the screen says the person is out of the game; then ``lines``."""

    def __init__(self, out: io.StringIO, lines):
        self.out, self.lines = out, list(lines)

    def readline(self) -> str:
        if "is out of the game" in self.out.getvalue() and self.lines:
            return self.lines.pop(0) + "\n"
        return "1\n"


def _play_out(seed, who, answers):
    game = lr.new_game("classic", players=6, seed=seed)
    out = io.StringIO()
    me = game.view(None)["seats"][who]
    assert play.run(game, me, "en", OnceOut(out, answers), out, RandomPlayer(seed),
                    play.PlainScreen(out, fit=False)) == 0
    return game, me, out.getvalue()


def test_out_of_the_game_you_may_skip_to_the_end_or_watch():
    seed, who = _dies_early()
    # skip: one question, then the end
    game, me, out = _play_out(seed, who, ["2"])
    name = words.character_name(game, me)
    assert out.count(f"{name} is out of the game") == 1 and game.over
    tail = out.split("is out of the game", 1)[1]
    assert "Skip to the end" in tail and "Final scores:" in tail
    assert len(PROMPT.findall(tail)) == 1 and "is next" not in tail
    # watch: a pause before every round, each with the news of the round before
    game, me, out = _play_out(seed, who, ["1"])
    tail = out.split("is out of the game", 1)[1]
    pauses = re.findall(r"Round (\d+) is next\. Enter: go on, s: skip to the end, q: quit: ",
                        tail)
    assert len(pauses) >= 2 and [int(n) for n in pauses] == sorted(int(n) for n in pauses)
    between = tail.split("is next", 2)[1]
    assert "Round " in between   # the news of a round
    assert "Final scores:" in tail and game.over
    # s at a pause skips the rest; q quits
    game, me, out = _play_out(seed, who, ["1", "s"])
    assert len(re.findall(r"Round \d+ is next", out)) == 1 and game.over
    game, me, out = _play_out(seed, who, ["1", "q"])
    assert not game.over and out.rstrip().endswith("Bye. (The game was not finished.)")


def test_the_end_reveals_love_and_hate_and_why_each_part_scored():
    game, me, out = play_through(seed=13)
    reveal = game.view(me)["result"]["reveal"]
    ending = out.split("Love and hate, and why each part scored:", 1)[1]
    for character, secret in reveal.items():
        line = next(l for l in ending.splitlines()
                    if l.startswith(words.character_name(game, character) + " loved "))
        assert line.startswith(f"{words.character_name(game, character)} loved "
                               f"{words.character_name(game, secret['love'])} and hated "
                               f"{words.character_name(game, secret['hate'])}: ")
        parts = game.result["breakdown"][character]
        for part in ("love", "hate"):   # a part that scored says by how much
            if parts[part]:
                assert f"+{parts[part]}" in line
    # before the end, a view reveals nothing
    fresh = lr.new_game("classic", players=5, seed=13)
    assert "result" not in fresh.view(None)


# --------------------------------------------------------------------------- ending cleanly

class Interrupting:
    def __init__(self, after: int):
        self.after = after

    def readline(self) -> str:
        self.after -= 1
        if self.after < 0:
            raise KeyboardInterrupt
        return "1\n"


def test_ctrl_c_ends_the_game_cleanly(monkeypatch, capsys):
    monkeypatch.setattr("sys.stdin", Interrupting(5))
    assert main(["play", "--seed", "5", "--players", "5", "--plain"]) == 130
    captured = capsys.readouterr()
    assert captured.out.rstrip().endswith("Interrupted. (The game was not finished.)")
    assert "Traceback" not in captured.err and "error" not in captured.err


def _cli(*args: str) -> list:
    return [sys.executable, "-m", "lifeboat_rules.cli", *args]


def _as_from_a_terminal(command: list) -> list:
    """``command`` with Ctrl-C at its default, as a terminal starts it. (A process started in
    the background by a shell without job control, as a CI script may start the tests,
    inherits SIGINT ignored, and Python then keeps it ignored: Ctrl-C could not reach it.)"""
    return [sys.executable, "-c", "import os, signal, sys; signal.signal(signal.SIGINT, signal.SIG_DFL); "
            "os.execv(sys.argv[1], sys.argv[1:])", *command]


def test_ctrl_c_in_a_real_process_exits_130_without_a_traceback():
    process = subprocess.Popen(_as_from_a_terminal(_cli("play", "--seed", "5", "--plain")),
                               stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    seen = b""
    while b"Your choice" not in seen:   # waiting at its first question
        chunk = process.stdout.read1(4096)
        assert chunk, seen
        seen += chunk
    process.send_signal(signal.SIGINT)
    # stdin stays open until it has exited: on a loaded machine the end of input that
    # communicate() sends could otherwise reach the game before the signal does
    try:
        process.wait(timeout=120)
    except subprocess.TimeoutExpired:
        process.kill()
        out, err = process.communicate()
        pytest.fail(f"still running 120 s after Ctrl-C; its output ends {out[-300:]!r}, errors {err[-300:]!r}")
    out, err = process.communicate(timeout=120)
    assert process.returncode == 130, err
    assert b"Traceback" not in err and b"KeyboardInterrupt" not in err
    assert b"Interrupted." in out


def test_piping_into_head_ends_cleanly(tmp_path):
    errors = tmp_path / "err.txt"
    command = (f"yes 1 | {shlex.join(_cli('play', '--seed', '3', '--plain'))} 2> {errors} "
               "| head -n 3")
    done = subprocess.run(["bash", "-c", command], capture_output=True, timeout=300)
    assert len(done.stdout.decode().splitlines()) == 3
    assert errors.read_text() == ""


def test_in_a_real_terminal_the_screen_fills_it(tmp_path):
    """In tmux at 100x35, the screen uses the terminal: lines of up to 100 columns, 35 at most.
    Skipped without tmux, except in CI (LIFEBOAT_REQUIRE_TMUX=1), where that is a failure."""
    if shutil.which("tmux") is None:
        if os.environ.get("LIFEBOAT_REQUIRE_TMUX") == "1":
            pytest.fail("LIFEBOAT_REQUIRE_TMUX=1 but tmux is not installed", pytrace=False)
        pytest.skip("tmux is not installed (apt-get install tmux)")
    session = f"lifeboat-play-{os.getpid()}"
    command = shlex.join(_cli("play", "--seed", "3", "--players", "6", "--plain"))
    subprocess.run(["tmux", "new-session", "-d", "-s", session, "-x", "100", "-y", "35",
                    # (a moment for tmux to give the pane its size)
                    f"sleep 1; cd {shlex.quote(os.getcwd())} && {command}"], check=True)
    try:
        screen = ""
        for _ in range(600):   # up to a minute for the first screen
            screen = subprocess.run(["tmux", "capture-pane", "-p", "-t", session],
                                    capture_output=True, text=True).stdout
            if "Your choice" in screen:
                break
            time.sleep(0.1)
        lines = screen.rstrip("\n").split("\n")
        assert "Your choice" in lines[-1] or "Your choice" in screen, screen
        widest = max(play.width(line) for line in lines)
        assert len(lines) <= 35 and 80 < widest <= 100, screen   # wider than 80x24 would be
    finally:
        subprocess.run(["tmux", "kill-session", "-t", session], capture_output=True)
