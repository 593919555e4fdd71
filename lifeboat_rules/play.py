"""``lifeboat-rules play``: one person against random players, in the terminal.

Each time the person's character must decide, the screen shows what happened since their last
move (``game.feed``: one sentence per move, as that player is told it), the table as that
player may see it (``Game.view``) and a numbered menu with one entry per distinct move. On a
terminal each screen is redrawn to fit the terminal's size (news that does not fit is shown a
page at a time first); with ``rich`` installed the table is drawn with it. A player whose
character is out of the game may watch the rest a round at a time or skip to the end; the game
ends with every player's love and hate and why each part of each score counted. ``run`` takes
the input and output streams, so a whole game can be driven by a script.
"""

from __future__ import annotations

import random
import re
import shlex
import shutil
import sys
import time
import unicodedata
from dataclasses import dataclass, field

from . import words
from .bots import PACED_SECONDS, RandomPlayer, paced_bot, shown_at
from .engine import new_game
from .rulesets import load_ruleset
from .words import describe, text

WIDTH, HEIGHT = 80, 24        # the size when the terminal does not say
CLEAR = "\x1b[H\x1b[2J"
INTERRUPTED = 130             # the exit status of a program stopped by Ctrl-C (128 + SIGINT)


# --------------------------------------------------------------------------- text that fits

def width(line: str) -> int:
    """Columns a line takes on a terminal (East Asian wide characters take two)."""
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in line)


def wrap(line: str, columns: int = WIDTH, indent: str = "") -> list:
    """``line`` cut into lines of at most ``columns`` columns, at spaces where there are
    some (Chinese has none: it is cut between characters); continuation lines get
    ``indent``."""
    out: list = []
    rest = line
    prefix = ""
    while width(prefix + rest) > columns:
        room = columns - width(prefix)
        cut, used = 0, 0
        for i, ch in enumerate(rest):
            used += width(ch)
            if used > room:
                break
            cut = i + 1
        space = rest.rfind(" ", 0, cut + 1)
        if space > 0 and width(rest[:space]) > room // 2:
            cut = space
        out.append(prefix + rest[:cut].rstrip())
        rest = rest[cut:].lstrip()
        prefix = indent
    out.append(prefix + rest)
    return out


# --------------------------------------------------------------------------- the menu

@dataclass
class Entry:
    """A menu entry: one action, or a group of entries opened as a sub-menu."""
    label: str
    action: dict | None = None
    entries: list = field(default_factory=list)


def _places(view: dict) -> dict:
    """id -> (kind, place) of every card the viewer sees."""
    where: dict = {}
    for owner, entry in view["characters"].items():
        for card in entry.get("hand") or []:
            where[card["id"]] = (card["kind"], f"hand:{owner}")
        for card in entry.get("front") or []:
            where[card["id"]] = (card["kind"], f"front:{owner}")
    for card in (view.get("decision") or {}).get("cards") or []:
        if card.get("kind") is not None:   # provisions; navigation cards stay themselves
            where.setdefault(card["id"], (card["kind"], "decision"))
    return where


def _key(action: dict, where: dict) -> tuple:
    """What a move does, for a player: cards of one kind in one place are interchangeable."""
    def card(ref):
        return where.get(ref, ref) if isinstance(ref, str) else ref
    items = []
    for name, value in sorted(action.items()):
        if isinstance(value, list):
            value = tuple(card(v) for v in value) if name in ("give", "take") else tuple(value)
        elif name == "card":
            value = card(value)
        items.append((name, value))
    return tuple(items)


# Fields an action may leave out to mean "the obvious one" (docs/api.md, Actions): the first
# water or chum card (R-THIRST-2, R-OVER-2), the one offer open to you (R-TRADE-1). The short
# form is the same move as one listed in full.
OPTIONAL_FIELDS = {"water": "card", "chum": "card", "accept_offer": "offer",
                   "decline_offer": "offer"}


def distinct_moves(game, me: str, actions: list) -> list:
    """``actions`` with one action per distinct move: a card named by its kind (an alias of
    the first such card) and a short form leaving out an optional field are dropped when the
    same move is listed in full; cards of one kind in one place count once."""
    view = game.view(me)
    where = _places(view)
    kinds = set(words.content(game).get("provisions", {}))

    def rest(action, left_out):
        return tuple(sorted((k, repr(v)) for k, v in action.items() if k != left_out))

    full = {rest(action, OPTIONAL_FIELDS[action["type"]]) for action in actions
            if OPTIONAL_FIELDS.get(action["type"]) in action}
    out, seen = [], set()
    for action in actions:
        field = OPTIONAL_FIELDS.get(action["type"])
        if field and field not in action and rest(action, field) in full:
            continue    # the short form of a move listed in full
        ref = action.get("card")
        if isinstance(ref, str) and ref in kinds and ref not in where and \
                ref in _kinds_listed(actions, action, where):
            continue    # a kind: the first such card, listed by its id
        key = _key(action, where)
        if key not in seen:
            seen.add(key)
            out.append(action)
    return out


def _kinds_listed(actions: list, alias: dict, where: dict) -> set:
    """The kinds of the cards listed by id in actions that differ from ``alias`` only in
    their card."""
    others = {k: v for k, v in alias.items() if k != "card"}
    found = set()
    for action in actions:
        ref = action.get("card")
        if ref in where and {k: v for k, v in action.items() if k != "card"} == others:
            found.add(where[ref][0])
    return found


def build_menu(game, me: str, lang: str, limit: int) -> list:
    """The menu entries for ``me`` now: one per distinct move, labelled with ``describe``; if
    there are more than ``limit``, the largest kinds of move are gathered into sub-menus."""
    actions = distinct_moves(game, me, game.legal_actions(me))
    where = _places(game.view(me))
    entries = [Entry(describe(a, game, lang), a) for a in actions]
    # two moves that read alike differ by where the card is: say it
    labels: dict = {}
    for entry in entries:
        labels.setdefault(entry.label, []).append(entry)
    for same in labels.values():
        if len(same) > 1:
            for entry in same:
                place = where.get(entry.action.get("card"), (None, ""))[1]
                if place.startswith("hand:"):
                    entry.label += " " + text("ui.from_hand", lang)
                elif place.startswith("front:"):
                    entry.label += " " + text("ui.face_up", lang)
    while len(entries) > limit:
        by_type: dict = {}
        for entry in entries:
            if entry.action is not None:
                by_type.setdefault(entry.action["type"], []).append(entry)
        kind, members = max(by_type.items(), key=lambda item: len(item[1]), default=(None, []))
        if len(members) < 2:
            break
        label = text(f"ui.groups.{kind}", lang) if words.has_text(f"ui.groups.{kind}", lang) \
            else text("ui.groups.other", lang, what=kind.replace("_", " "))
        group = Entry(text("ui.group", lang, n=len(members), label=label), entries=members)
        first = entries.index(members[0])
        entries = [e for e in entries if e not in members]
        entries.insert(first, group)
    return entries


# --------------------------------------------------------------------------- the table

def status_lines(game, me: str, lang: str) -> list:
    """The table as ``me`` may see it, as lines of text (not yet cut to a width)."""
    view = game.view(me)
    who = lambda c: words.character_name(game, c, lang)          # noqa: E731
    card = lambda c: words.provision_name(game, c["kind"], lang)  # noqa: E731
    lines = [text("ui.status", lang, round=view["round"],
                  phase=words.catalog(lang)["phases"].get(view["phase"], view["phase"]),
                  seagulls=view["seagulls"], land=_landing(game), supply=view["supply_size"],
                  deck=view["navigation_size"], pile=view["rowing_pile_size"]),
             text("ui.seats", lang)]
    separator = words.catalog(lang)["ui"]["separator"]
    for character in view["seats"]:
        entry = view["characters"][character]
        front = separator.join(card(c) for c in entry["front"])
        marks = [text(f"ui.{m}", lang) for m, on in (("rowed", entry["rowed"]),
                                                       ("fought", entry["fought"]),
                                                       ("parasol_open", entry["parasol_active"]),
                                                       ("drank", "drank" in entry.get("markers", ())))
                 if on]
        lines.append(text(
            "ui.seat_line", lang, mark=text("ui.you_mark", lang) if character == me else "  ",
            who=who(character), damage=entry["damage"], size=entry["size"],
            status=words.catalog(lang)["statuses"].get(entry["status"], entry["status"]),
            hand=entry["hand_size"],
            front=text("ui.front", lang, cards=front) if front else "",
            markers=text("ui.markers", lang, list=separator.join(marks)) if marks else ""))
    gone = [c for c in view["characters"] if c not in view["seats"]]
    if gone:
        lines.append(text("ui.lost_seats", lang, names=separator.join(who(c) for c in gone)))
    mine = view["characters"][me]
    lines.append(text("ui.you", lang, who=who(me), love=who(view.get("love")),
                      hate=who(view.get("hate"))))
    hand = [card(c) for c in mine.get("hand") or []]
    lines.append(text("ui.hand", lang, cards=separator.join(hand)) if hand
                 else text("ui.hand_empty", lang))
    return lines


def _landing(game) -> int:
    setup = words.content(game).get("setup", {})
    return setup.get("seagulls_to_land", 4) if isinstance(setup, dict) else 4


def decision_lines(game, me: str, lang: str) -> list:
    """What ``me`` must decide now, with what everyone sees of it (a fight's sides...) and
    the navigation cards it looks at, each with what it does."""
    view = game.view(me)
    lines = [describe(d, game, lang) for d in game.pending if d.by == me]
    stage = view.get("stage") or {}
    who = lambda c: words.character_name(game, c, lang)  # noqa: E731
    names = lambda cs: words.names(game, cs, lang)  # noqa: E731
    kind = stage.get("kind")
    if kind == "fight":
        strength = stage.get("strength") or {}
        lines.append(text("ui.stage_fight", lang, attackers=names(stage.get("attackers")),
                          defenders=names(stage.get("defenders")),
                          a=strength.get("attacker", "?"), d=strength.get("defender", "?")))
    elif kind == "overboard":
        lines.append(text("ui.stage_overboard", lang, names=names(stage.get("fallen"))))
    elif kind == "thirst":
        thirst = stage.get("thirst") or {}
        listed = words.catalog(lang)["ui"]["separator"].join(
            text("ui.thirsty", lang, who=who(c), n=n) for c, n in thirst.items())
        lines.append(text("ui.stage_thirst", lang, list=listed))
    elif kind == "respond" and stage.get("act") in ("swap", "rob"):
        # who asks what of you, as the event that asked it says it
        lines.append(describe({"type": stage["act"], "character": stage.get("by"),
                               "target": stage.get("target")}, game, lang, viewer=me))
    for card in (view.get("decision") or {}).get("cards") or []:
        if "kind" not in card:   # the navigation cards you drew or choose from, in words
            lines.append(text("ui.drawn_card", lang, card=words.navigation_name(game, card["id"], lang),
                              details=words.navigation_details(game, card, lang)))
    return lines


class PlainScreen:
    """Plain text. ``fit``: each screen is redrawn from the top and cut to the terminal's size
    (``size``: (columns, lines), else asked of the terminal each time); otherwise everything
    is printed in turn (a pipe, a log, a test)."""

    def __init__(self, out, fit: bool, title: str | None = None, size: tuple | None = None):
        self.out = out
        self.fit = fit
        self.title = title   # heads the table: which game this is
        self.size = size
        self.stdin = None    # where a page of news waits for Enter (set by ``run``)

    def columns(self) -> int:
        return self._size()[0]

    def rows(self) -> int:
        return self._size()[1]

    def _size(self) -> tuple:
        if self.size is not None:
            return self.size
        found = shutil.get_terminal_size((WIDTH, HEIGHT))
        return max(found.columns, 30), max(found.lines, 10)

    def _head(self, status: list) -> list:
        return ([self.title] if self.title else []) + status

    def say(self, line: str = "") -> None:
        for part in wrap(line, self.columns()) if self.fit else [line]:
            print(part, file=self.out)

    def prompt(self, question: str) -> None:
        self.out.write(question)
        self.out.flush()

    @staticmethod
    def _numbered(menu: list) -> list:
        return [f"{i:2}. {entry.label}" for i, entry in enumerate(menu, start=1)]

    def _cut(self, lines: list, indent: str) -> list:
        return [part for line in lines for part in wrap(line, self.columns(), indent=indent)]

    def lines_of(self, status: list, decision: list, menu: list) -> int:
        """Lines the table, the decision, the menu and the prompt take on the screen."""
        return len(self._cut(self._head(status) + decision + self._numbered(menu), "    ")) + 1

    def _pages(self, feed: list, room: int, lang: str) -> list:
        """The news that does not fit in ``room`` lines is shown first, a screen at a time,
        each waiting for Enter; what is left is returned to go above the table."""
        lines = self._cut(feed, "  ")
        page = self.rows() - 1
        room = max(room, 1)
        while len(lines) > room and page > 0 and self.stdin is not None:
            self.out.write(CLEAR)
            for line in lines[:page]:
                print(line, file=self.out)
            self.prompt(text("ui.more_news", lang))
            answer = self.stdin.readline()
            if not answer or answer.strip().lower() in ("q", "quit"):
                return self._trim(lines, room, lang)
            lines = lines[page:]
        return self._trim(lines, room, lang)

    def show(self, feed: list, status: list, decision: list, menu: list, lang: str) -> None:
        numbered = self._numbered(menu)
        if not self.fit:
            for line in feed + [""] + self._head(status) + decision + numbered:
                print(line, file=self.out)
            return
        shown = self._pages(feed, self.rows() - self.lines_of(status, decision, menu), lang)
        self.out.write(CLEAR)
        for line in shown + self._cut(self._head(status) + decision + numbered, "    "):
            print(line, file=self.out)

    def news(self, feed: list, lang: str) -> None:
        """News alone (watching a game one is out of)."""
        if not self.fit:
            for line in feed:
                print(line, file=self.out)
            return
        shown = self._pages(feed, self.rows() - 1, lang)
        self.out.write(CLEAR)
        for line in shown:
            print(line, file=self.out)

    def finish(self, feed: list, table: dict, lang: str) -> None:
        """The last events, the scores (``score_table``) and why each part scored."""
        reveal, scores = score_lines(table, reveal=True), score_lines(table)
        if self.fit:   # the reveal goes with the news when the screen is too small for both
            ending = self._cut(scores, "    ")
            shown = self._pages(feed + [""] + reveal, self.rows() - len(ending) - 1, lang)
            self.out.write(CLEAR)
            scores = ending
        else:
            shown = feed + [""] + reveal
        for line in shown + [""] + scores:
            print(line, file=self.out)

    @staticmethod
    def _trim(lines: list, room: int, lang: str) -> list:
        """The last lines that fit in ``room``, after a line saying how many are left out."""
        if len(lines) <= room:
            return lines
        if room <= 0:
            return []
        keep = room - 1
        return [text("ui.earlier", lang, n=len(lines) - keep)] + (lines[-keep:] if keep else [])

    def menu_limit(self, status: list, decision: list) -> int:
        """How many menu entries to aim at (``build_menu`` gathers the rest)."""
        if not self.fit:
            return 10
        return max(self.rows() - self.lines_of(status, decision, []) - 2, 2)   # 2 lines of news


class RichScreen(PlainScreen):
    """The same screen drawn with ``rich`` (the optional package): the table in a panel, the
    news dimmed, the scores as a table."""

    def __init__(self, out, fit: bool, title: str | None = None, size: tuple | None = None):
        super().__init__(out, fit, title, size)
        from rich.console import Console
        self.console = Console(file=out, width=self.columns(), highlight=False, emoji=False,
                               markup=False)

    def _fresh(self) -> None:
        self.console.width = self.columns()   # the terminal may have been resized

    def say(self, line: str = "") -> None:
        self.console.print(line)

    def _height(self, renderable) -> int:
        return len(self.console.render_lines(renderable, self.console.options, pad=False))

    def _parts(self, status: list, decision: list, menu: list) -> list:
        from rich.panel import Panel
        from rich.text import Text
        # the title in the panel's top border
        return [Panel(Text("\n".join(status)), title=self.title, title_align="left",
                      expand=True)] + \
            [Text(line, style="bold") for line in decision] + \
            [Text(line) for line in self._numbered(menu)]

    def lines_of(self, status: list, decision: list, menu: list) -> int:
        self._fresh()
        return sum(self._height(part) for part in self._parts(status, decision, menu)) + 1

    def _news(self, feed: list, room: int | None, lang: str) -> list:
        """The events as dimmed text: the last ones that fit in ``room`` lines (None: all);
        those that do not fit are shown first, a screen at a time (``_pages``)."""
        from rich.text import Text
        if room is None:
            return [Text(line, style="dim") for line in feed]
        lines = self._pages(feed, room, lang)
        return [Text(line, style="dim") for line in lines]

    def show(self, feed: list, status: list, decision: list, menu: list, lang: str) -> None:
        room = self.rows() - self.lines_of(status, decision, menu) if self.fit else None
        news = self._news(feed, room, lang)
        if self.fit:
            self.out.write(CLEAR)
        for renderable in news + self._parts(status, decision, menu):
            self.console.print(renderable)

    def finish(self, feed: list, table: dict, lang: str) -> None:
        from rich.table import Table
        from rich.text import Text
        self._fresh()
        drawn = Table(title=table["title"], title_justify="left")
        for i, column in enumerate(table["columns"]):
            drawn.add_column(column, justify="left" if i == 0 else "right")
        for row in table["rows"]:
            drawn.add_row(*row)
        winners = Text(table["winners"], style="bold")
        room = self.rows() - self._height(drawn) - self._height(winners) - 1 \
            if self.fit else None
        news = self._news(feed + [""] + score_lines(table, reveal=True), room, lang)
        if self.fit:
            self.out.write(CLEAR)
        for renderable in news + [drawn, winners]:
            self.console.print(renderable)


def make_screen(out, renderer: str = "auto", fit: bool | None = None):
    """``renderer``: ``plain``, ``rich`` or ``auto`` (rich if installed and ``out`` is a
    terminal). ``fit`` (default: ``out`` is a terminal): redraw and fit each screen."""
    terminal = bool(getattr(out, "isatty", lambda: False)())
    fit = terminal if fit is None else fit
    if renderer == "rich" or (renderer == "auto" and terminal):
        try:
            return RichScreen(out, fit)
        except ImportError:
            if renderer == "rich":
                raise
    return PlainScreen(out, fit)


# --------------------------------------------------------------------------- the loop

def ask(menu: list, stdin, screen, lang: str) -> int | None:
    """The index of the entry the person types, asking again until it is one of the numbers
    shown; None when they quit (``q``) or the input ends."""
    while True:
        screen.prompt(text("ui.prompt", lang, n=len(menu)))
        answer = stdin.readline()
        if not answer or answer.strip().lower() in ("q", "quit"):
            return None
        answer = answer.strip()
        if re.fullmatch(r"[0-9]+", answer) and 1 <= int(answer) <= len(menu):
            return int(answer) - 1
        screen.say(text("ui.refused", lang, answer=answer or '""', n=len(menu)))


class News:
    """What ``me``'s player has not been told yet (``game.feed``, polled as its entries
    say: from the entry after the last one told)."""

    def __init__(self, game, me: str, lang: str):
        self.game, self.me, self.lang = game, me, lang
        self.since = 0

    def take(self) -> list:
        entries = self.game.feed(self.me, self.since, self.lang)
        if entries:
            self.since = entries[-1]["index"] + 1
        return [entry["text"] for entry in entries]


def choose(game, me: str, lang: str, stdin, screen, feed: list) -> dict | None:
    """Show the screen and the menu (opening sub-menus) until the person picks a move."""
    status = status_lines(game, me, lang)
    decision = decision_lines(game, me, lang)
    limit = screen.menu_limit(status, decision)
    menu = build_menu(game, me, lang, limit)
    while screen.fit and limit > 1 and screen.lines_of(status, decision, menu) >= screen.rows():
        limit -= 1   # labels that take two lines: gather more
        menu = build_menu(game, me, lang, limit)

    def page(entries: list) -> list:
        """A sub-menu, with what does not fit under "More", and "Back"."""
        size = len(entries)
        while True:
            rest = entries[size:]
            shown = entries[:size] + \
                ([Entry(text("ui.more", lang, n=len(rest)), entries=rest)] if rest else []) + \
                [Entry(text("ui.back", lang))]
            if not screen.fit or size <= 1 or \
                    screen.lines_of(status, decision, shown) <= screen.rows():
                return shown
            size -= 1

    current = menu
    while True:
        screen.show(feed, status, decision, current, lang)
        index = ask(current, stdin, screen, lang)
        if index is None:
            return None
        entry = current[index]
        if entry.action is not None:
            return entry.action
        current = page(entry.entries) if entry.entries else menu   # a group, or back
        feed = []


def is_out(game, me: str) -> bool:
    """``me`` can decide nothing more: dead, or lost at sea without a ghost's actions."""
    entry = game.view(me)["characters"][me]
    return entry["status"] == "dead" or (entry["status"] == "lost" and not entry.get("ghost"))


def out_of_the_game(game, me: str, lang: str, stdin, screen, feed: list) -> str | None:
    """Tell the person their character is out; ``"watch"`` or ``"skip"`` as they choose,
    None when they quit."""
    entry = game.view(me)["characters"][me]
    status = words.catalog(lang)["statuses"].get(entry["status"], entry["status"])
    said = [text("ui.out", lang, who=words.character_name(game, me, lang), status=status)]
    menu = [Entry(text(f"ui.out_menu.{choice}", lang), {"type": choice})
            for choice in ("watch", "skip")]
    screen.show(feed, status_lines(game, me, lang), said, menu, lang)
    index = ask(menu, stdin, screen, lang)
    return None if index is None else menu[index].action["type"]


def watch_next(game, lang: str, stdin, screen) -> str | None:
    """Between two rounds of a game one watches: ``"go"``, ``"skip"``, or None to quit."""
    screen.prompt(text("ui.watch_prompt", lang, round=game.view(None)["round"]))
    answer = stdin.readline()
    if not answer or answer.strip().lower() in ("q", "quit"):
        return None
    return "skip" if answer.strip().lower() in ("s", "skip") else "go"


def score_table(game, me: str, lang: str) -> dict:
    """The final scores with their parts (R-SCORE-2..4), best first, the winners, and the
    reveal: every player's love and hate and why each part counted: ``{"title", "columns",
    "rows", "winners", "reveal_title", "reveal"}`` (the rows as text cells)."""
    result = game.view(me)["result"]
    columns = words.catalog(lang)["ui"]["columns"]
    parts = ("survival", "treasure", "love", "hate")
    rows = []
    ranked = sorted(result["scores"].items(), key=lambda item: -item[1])
    for character, score in ranked:
        breakdown = result["breakdown"].get(character, {})
        mark = "* " if character == me else "  "
        rows.append([mark + words.character_name(game, character, lang)]
                    + [str(breakdown.get(p, 0)) for p in parts] + [str(score)])
    return {"title": text("ui.scores", lang),
            "columns": [columns[c] for c in ("player",) + parts + ("total",)],
            "rows": rows,
            "winners": text("ui.winners", lang, n=len(result["winners"]),
                            names=words.names(game, result["winners"], lang)),
            "reveal_title": text("ui.reveal_title", lang),
            "reveal": [reveal_line(game, result, character, lang) for character, _ in ranked]}


def reveal_line(game, result: dict, character: str, lang: str) -> str:
    """``character``'s love and hate, and why each part of its score counted (R-SCORE)."""
    view = game.view(None)
    status = {c: entry["status"] for c, entry in view["characters"].items()}
    alive = lambda c: status.get(c) in ("awake", "unconscious")   # noqa: E731
    said = lambda c: words.catalog(lang)["statuses"].get(status.get(c), status.get(c))  # noqa: E731
    who = lambda c: words.character_name(game, c, lang)  # noqa: E731
    secret = result.get("reveal", {}).get(character, {})
    love, hate = secret.get("love"), secret.get("hate")
    part = result["breakdown"].get(character, {})
    why = []
    n = part.get("survival", 0)
    if n > 0:
        why.append(text("ui.why.survival_alive", lang, n=n))
    elif not alive(character):
        why.append(text("ui.why.survival_gone", lang, status=said(character)))
    elif hate == character:
        why.append(text("ui.why.survival_self_hate", lang))
    else:
        why.append(text("ui.why.survival_other", lang, n=n))
    n = part.get("treasure", 0)
    why.append(text("ui.why.treasure", lang, n=n) if n else text("ui.why.no_treasure", lang))
    n = part.get("love", 0)
    if love == character and n > 0:
        why.append(text("ui.why.love_self", lang, n=n))
    elif n > 0 and alive(love):
        why.append(text("ui.why.love_alive", lang, love=who(love), n=n))
    elif n == 0 and love is not None and not alive(love):
        why.append(text("ui.why.love_gone", lang, love=who(love)))
    else:
        why.append(text("ui.why.love_other", lang, n=n))
    n = part.get("hate", 0)
    if hate == character:
        why.append(text("ui.why.hate_self", lang, n=n))
    elif n > 0 and hate is not None and not alive(hate):
        why.append(text("ui.why.hate_gone", lang, hate=who(hate), n=n))
    elif n == 0 and alive(hate):
        why.append(text("ui.why.hate_alive", lang, hate=who(hate)))
    else:
        why.append(text("ui.why.hate_other", lang, n=n))
    return text("ui.reveal", lang, who=who(character), love=who(love), hate=who(hate),
                parts=text("ui.why_separator", lang).join(why))


def score_lines(table: dict, reveal: bool = False) -> list:
    """``score_table`` as lines of plain text, the numbers aligned (``reveal``: the lines of
    the reveal instead)."""
    if reveal:
        return [table["reveal_title"]] + table["reveal"]
    cells = [table["columns"]] + table["rows"]
    widths = [max(width(row[i]) for row in cells) for i in range(len(table["columns"]))]

    def line(row: list) -> str:
        out = row[0] + " " * (widths[0] - width(row[0]))
        for cell, w in zip(row[1:], widths[1:]):
            out += "  " + " " * (w - width(cell)) + cell
        return out

    return [table["title"]] + [line(row) for row in cells] + [table["winners"]]


def run(game, me: str, lang: str = "en", stdin=None, out=None, bot=None, screen=None) -> int:
    """Play ``game`` to its end: the person at ``stdin``/``out`` decides for ``me``, ``bot``
    (default: a ``RandomPlayer``) for everyone else, on ``screen`` (default: ``make_screen``).
    Returns 0 (also when the person quits)."""
    stdin = stdin or sys.stdin
    out = out or sys.stdout
    screen = screen or make_screen(out)
    screen.stdin = stdin
    bot = bot or RandomPlayer(0)
    news = News(game, me, lang)   # all since the last screen: your last move's sentence on
    watching = None           # once out of the game: "watch" or "skip"
    round_shown = None
    while not game.over:
        if any(d.by == me for d in game.pending):
            action = choose(game, me, lang, stdin, screen, news.take())
            if action is None:
                screen.say(text("ui.bye", lang))
                return 0
            game.apply(action)
            continue
        if watching is None and is_out(game, me):
            watching = out_of_the_game(game, me, lang, stdin, screen, news.take())
            if watching is None:
                screen.say(text("ui.bye", lang))
                return 0
            round_shown = game.view(None)["round"]
        elif watching == "watch" and game.view(None)["round"] != round_shown:
            screen.news(news.take(), lang)
            round_shown = game.view(None)["round"]
            answer = watch_next(game, lang, stdin, screen)
            if answer is None:
                screen.say(text("ui.bye", lang))
                return 0
            if answer == "skip":
                watching = "skip"
        # the person is asked first whenever they must decide, so the bot's pick among
        # the pending decisions is always someone else's
        game.apply(bot.act(game))
    screen.finish(news.take(), score_table(game, me, lang), lang)
    return 0


def find_character(game, wanted: str) -> str | None:
    """The character of this game ``wanted`` names: its id or a display name, any language."""
    in_play = game.view(None)["seats"]
    key = wanted.strip().lower()
    for character in in_play:
        names = {character.lower()} | {words.character_name(game, character, code).lower()
                                        for code in words.languages()}
        if key in names:
            return character
    return None


def play(args, stdin=None, out=None) -> int:
    """``lifeboat-rules play``: deal a game and play it with the person as ``--as``. Ctrl-C
    ends it with status 130 (a pipe closed early, ``| head``, is the command line's)."""
    out = out or sys.stdout
    lang = words.language(args.lang)
    try:
        return _play(args, lang, stdin, out)
    except KeyboardInterrupt:
        try:
            print("\n" + text("ui.interrupted", lang), file=out, flush=True)
        except (BrokenPipeError, OSError):
            pass
        return INTERRUPTED


def _play(args, lang: str, stdin, out) -> int:
    ruleset = load_ruleset(args.ruleset)
    players = args.players or max(ruleset.players)
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2 ** 31)
    game = new_game(ruleset, players=players, seed=seed)
    seats = game.view(None)["seats"]
    me = seats[0] if args.character is None else find_character(game, args.character)
    screen = make_screen(out, "plain" if args.plain else "auto")
    if me is None:
        screen.say(text("ui.not_in_game", lang, who=args.character,
                        names=words.names(game, seats, lang)))
        return 2
    # no seed until the end: it deals the whole game again, every hand and deck order
    title = text("ui.title", lang, ruleset=ruleset.name, n=players,
                 who=words.character_name(game, me, lang))
    screen.say(title)
    screen.title = title
    bots = getattr(args, "bots", None)
    opponents = PacedRandom(seed) if not bots else SeatedBots(game, bots.split(","), seed)
    status = run(game, me, lang, stdin, out, opponents, screen)
    if game.over:
        command = ["lifeboat-rules", "play", "--ruleset", args.ruleset, "--players", str(players),
                   "--seed", str(seed), "--as", me] + (["--bots", bots] if bots else [])
        screen.say(text("ui.dealt_again", lang, seed=seed, command=shlex.join(command)))
    return status


class PacedRandom:
    """``play`` without ``--bots``: one ``RandomPlayer`` for every other seat, each of its
    decisions taking ``bots.PACED_SECONDS`` however long it took (``bots.paced_bot``'s rule),
    so that the wait before your next screen is the number of their moves times that."""

    def __init__(self, seed: int, sleep=time.sleep, clock=time.monotonic):
        self.player = RandomPlayer(seed)
        self.sleep = sleep
        self.clock = clock

    def act(self, game) -> dict | None:
        began = self.clock()
        action = self.player.act(game)
        _wait_until(shown_at(began, PACED_SECONDS, self.clock()), self.clock, self.sleep)
        return action


class SeatedBots:
    """``play --bots B,...``: a bot of the registry (``bots.BOTS``) per seat at the deal,
    names cycled, asked for the first pending decision (``game.pending[0]``), paced as people
    watch it (``bots.paced_bot``: a search bot's decision takes the same time whatever it
    holds, so the wait before your next screen tells you nothing of it)."""

    def __init__(self, game, names: list, seed: int, sleep=time.sleep):
        names = [n.strip() for n in names if n.strip()] or ["random"]
        seats = game.view(None)["seats"]
        self.bots = {c: paced_bot(names[j % len(names)], seed=seed * 100 + j)
                     for j, c in enumerate(seats)}
        self.sleep = sleep

    def act(self, game) -> dict:
        who = game.pending[0].by
        bot = self.bots[who]
        action = bot.choose(game, who)
        _wait_until(bot.show_at, bot.clock, self.sleep)
        return action


def _wait_until(moment: float, clock, sleep) -> None:
    """Sleep until ``moment`` on ``clock``: a paced bot's decision is shown no sooner."""
    wait = moment - clock()
    if wait > 0:
        sleep(wait)
