"""The tables of one web server: games, seats, links, moves and what each seat sees.

No web framework here: ``app.py`` turns requests and WebSocket messages into calls of ``Hall``
and sends back what it returns. Everything a client sends is checked here; a refusal is a
``Refusal`` with a code (the page words it) and a detail, and changes nothing.
"""

from __future__ import annotations

import bisect
import collections
import hashlib
import json
import math
import random
import secrets
import sqlite3
import threading
import time
import unicodedata
from typing import TYPE_CHECKING

import lifeboat_rules as lr
from lifeboat_rules import words as lr_words
from lifeboat_rules.rulesets import builtin_rulesets

from .. import bots
from . import labels
from lifeboat_rules.records import Side
from lifeboat_rules.rules.fights import FightWindow
from lifeboat_rules.stages import Window

from .jsontext import dumps
from .store import SNAPSHOT_EVERY, TIMED_OUT, Conflict, MovesWrite, Store

if TYPE_CHECKING:
    from lifeboat_rules.types import Action

# Actions a player may take whatever they are deciding (R-PLAY-1, trading): the page lists
# them apart from the decision. A layout choice only: legality is the game's.
ANY_TIME = frozenset({"play", "offer", "accept_offer", "decline_offer", "drink", "preserve"})

CONTROLLERS = ("link", "host", "bot")

MAX_CHAT = 300              # characters of one message said at the table
CHAT_RATE = 0.5             # messages a second one speaker may say, on average
CHAT_BURST = 5              # and at once
MAX_CHAT_PER_GAME = 2000    # messages kept with one game
TIMERS = (0, 30, 60, 120, 300)   # the turn timers the creation page offers (seconds; 0: none)
MAX_TIMER = 3600
TIMEOUT_BOT = "heuristic"   # who plays a seat whose turn timer ran out
UNKNOWN = object()     # what the table cannot tell without a copy of the game
_NONE: tuple = ()      # no new table talk (a JSON array)

# "Pass for me": the pass comes this many seconds after the seat became pending, drawn
# uniformly, and drawn before (and whatever) the seat's hand holds, so that when it passes
# tells nobody what it held (docs/web.md, "Pass for me").
AUTOPASS_DELAY = (2.0, 9.0)

# (ruleset, seat, lang) -> {an action's key: its button's words}, shared by the tables
_LABELS: dict = {}

_BOT_SECRET = secrets.token_bytes(16)    # the bots' seeds: drawn once a process, told to no one


class Refusal(Exception):
    """A request the table refuses; nothing changed. ``code`` names the reason."""

    def __init__(self, code: str, detail: str = ""):
        super().__init__(f"{code}: {detail}" if detail else code)
        self.code = code
        self.detail = detail

    def message(self, lang: str = "en") -> dict:
        """The refusal as the page is sent it: the reason in the page's language, and the
        detail after it (the reason's own full stop dropped: "The request was not valid: ...",
        never "valid.: ...")."""
        text = labels.ui(lang).get("err_" + self.code, self.code)
        if self.detail:
            text = text.rstrip(".。") + ("：" if lang == "zh" else ": ") + self.detail
        return {"type": "refused", "code": self.code, "message": text}


class Pass:
    """What a token opens: a game, a role (host, seat, spectator) and the seats it acts for."""

    __slots__ = ("token", "game_id", "role", "seats")

    def __init__(self, token: str, game_id: str, role: str, seats: tuple):
        self.token = token
        self.game_id = game_id
        self.role = role
        self.seats = seats


class Table:
    """One game in memory, with its seats' controllers and bots. Only one thread at a time
    works on a table (the server keeps one lock per game)."""

    def __init__(self, game_id: str, game, lang: str, seats: dict, chat: list | None = None,
                 options: dict | None = None):
        self.game_id = game_id
        self.game = game
        self.lang = lang
        self.seats = seats                 # character -> {"controller", "bot", "moves"}
        self.chat = chat or []             # [{"n", "at", "by", "text"}]: the table talk
        options = options or {}
        self.timer = options.get(("", "timer"), 0)          # seconds a person may take; 0: none
        self.autopass = {s for (s, k), v in options.items() if k == "autopass" and v}
        self.timed_out = {s: v for (s, k), v in options.items() if k == "timed_out"}
        self.pending_since: dict = {}      # seat -> when (clock) it last became pending
        self.autopass_at: dict = {}        # seat -> when (clock) "pass for me" passes for it
        self.bots: dict = {}
        self.links: list | None = None     # the host's list of live links, until one changes
        self._names: dict = {}
        self._feeds: dict = {}             # (viewer, lang) -> the feed in words so far
        self._feed_batches = 0             # times feeds were brought up to date (``feed``)
        self._choices: dict = {}           # (seat, lang) -> (its legal moves, fight, buttons, decision)
        self._weapons: dict | None = None
        self._rounds: list = []            # [(log index, round)] where each round begins
        self._rounds_upto = 0
        self._offers: dict = {}            # seat -> (log length, moves, fingerprint)
        self._legal: dict = {}             # seat -> (log length, its legal moves then, game.moves)
        self._views: dict = {}             # viewer -> (log length, its view then)
        self._view_asked: dict = {}        # viewer -> the batch of views when it was last asked
        self._view_batches = 0             # batches of views made (``view``)
        self._view_parts: dict = {}        # what the views of the last position were made of
        self._decisions: dict = {}         # (seat, kind, lang) -> its decision in words
        self._stage_texts: dict = {}       # (viewer or None, lang) -> (stage, view, in words)
        self._after: tuple = (-1, {})      # (log length, {action: fight strengths after it})
        self._robbed: tuple = (-1, None)   # (log length, what the open fight's robbery is over)
        self._now: tuple = (-1, [], [], {})    # what ``now`` says, and for which log length
        self.unsnapped = 0                 # actions saved since the file's snapshot
        # True: every fight's strengths counted on a copy of the game, none known without
        # it (``_strength_known``): slower, the reference the shortcut is tested against
        self.count_on_copy = False

    def now(self) -> tuple:
        """``(log length, pending, waiting, decisions)`` of the position now, made once per
        position however many pages ask: the game's pending decisions, who they wait for (in
        order), and each pending seat's first decision. Shared: read only."""
        size = len(self.game.log)
        if self._now[0] != size:
            pending = self.game.pending
            decisions: dict = {}
            for decision in pending:
                decisions.setdefault(decision.by, decision)
            self._now = (size, pending, [d.by for d in pending], decisions)
        return self._now

    def write_of(self, moves: list, people: int) -> MovesWrite:
        """What ``Store.save_games`` writes of ``moves`` (``[(log length before, action)]``,
        just applied, ``people`` of them a person's): the snapshot (``Game.to_dict``) at the
        game's end and once ``SNAPSHOT_EVERY`` actions are saved since the last, else None."""
        game = self.game
        snap = game.over or self.unsnapped + len(moves) >= SNAPSHOT_EVERY
        return MovesWrite(self.game_id, moves, len(game.log), game.over, people,
                          game.to_dict if snap else None)

    def written(self, write: MovesWrite) -> None:
        """``write`` (``write_of``) is in the file."""
        self.unsnapped = 0 if write.snapshot is not None else self.unsnapped + len(write.moves)

    def choices(self, seat: str, lang: str, view: dict | None = None) -> list:
        """``seat``'s legal moves as buttons: [{"label", "action", "any_time"}], one per
        wording (two listings of one move that read the same are one button to a person).
        Worded again only when the moves (or, in a fight, its sides) change, and then only
        the moves not worded before: outside a fight an action's words depend on the action
        and on the cards its actor sees, by kind and place (a card's id changes as it goes
        into a hand; its kind never does), except a pass, which says what is passed (the
        decision)."""
        game = self.game
        legal = self.legal(seat)
        view = game.view(seat) if view is None else view      # the seat's own view
        stage = view.get("stage") if (view.get("stage") or {}).get("kind") == "fight" else None
        # a pass says what is passed: the same moves under another decision read otherwise
        mine = self.now()[3].get(seat)
        deciding = mine.kind if mine is not None else None
        cached = self._choices.get((seat, lang))
        if cached is not None and (cached[0] is legal or cached[0] == legal) and cached[1] == stage \
                and cached[3] == deciding:
            return cached[2]
        # buttons' words are kept for every game of the ruleset (one object, loaded once): an
        # action's words read the ruleset's content, the cards' kinds and places, the offers'
        # makers and takers (all in the key) and the decision (a pass's, in the key too)
        known = _LABELS.setdefault((game.ruleset, seat, lang), {})
        if len(known) > 4096:
            known.clear()
        names = self.names(lang)
        places = _places(view)
        words = None        # the menu's words, made at its first action not worded before
        buttons, seen = [], set()
        for action in legal:
            label, after = None, None
            if stage is not None:       # a fight's buttons depend on its sides: worded anew
                after = self._strength_known(action, stage, view)
                if after is UNKNOWN:
                    after = self._strength_after(action)
                label = labels.fight_label(action, stage, after, view, self.weapons(), names, lang)
            if label is None:
                words_key = _key(action, places)
                if action["type"] == "pass":
                    words_key = (words_key, deciding)
                label = known.get(words_key)
                if label is None:
                    if words is None:
                        words = labels.menu_words(game, lang, seat, view)
                    label = known[words_key] = words(action)
            if label in seen:
                continue
            seen.add(label)
            any_time = action["type"] in ANY_TIME and not (
                action["type"] == "preserve" and deciding == "overboard")
            if stage is not None and action["type"] == "play" and after not in (None, stage.get("strength")):
                any_time = False      # a participant's weapon answers the fight (R-FIGHT-2)
            buttons.append({"label": label, "action": action, "any_time": any_time})
        self._choices[(seat, lang)] = (legal, stage, buttons, deciding)
        return buttons

    def decision_text(self, decision, lang: str) -> str:
        """``decision`` (one of the game's pending decisions) in words for its seat, worded
        once per seat, kind of decision and language: the library words a decision from its
        seat and kind alone, with the content's words (``words.describe_decision``)."""
        key = (decision.by, str(decision.kind), lang)
        text = self._decisions.get(key)
        if text is None:
            text = self._decisions[key] = labels.describe(decision, self.game, lang, decision.by)
        return text

    def stage_text(self, view: dict, viewer, lang: str) -> str | None:
        """The view's stage in words (``labels.stage_words``, a fight's ``fight_words``),
        worded once for every page shown that stage: a stage other than a fight is worded
        from it alone (kept while it reads the same), a fight for each viewer from its view
        (read only and made anew for each position, so the same object is the same fight): what
        every viewer reads alike once, then where the viewer stands."""
        stage = view.get("stage")
        fight = (stage or {}).get("kind") == "fight"
        key = (viewer, lang) if fight else (None, lang)
        cached = self._stage_texts.get(key)
        if cached is not None and (cached[1] is view if fight
                                   else cached[0] is stage or cached[0] == stage):
            return cached[2]
        names = self.names(lang)
        text: str | None
        if fight and stage is not None:
            # what every page reads alike once per position (the views share their stage)
            common = self._stage_texts.get(("fight", lang))
            if common is None or common[0] is not stage:
                common = self._stage_texts[("fight", lang)] = (
                    stage, None, labels.fight_lines(stage, view, names, lang, self.robbed()))
            text = "\n".join(common[2] + labels.fight_you(stage, view, viewer, lang))
        else:
            text = labels.stage_words(stage, names, lang)
        self._stage_texts[key] = (stage, view, text)
        return text

    def view(self, viewer):
        """``game.view(viewer)``, made once per position however many pages show it (a
        spectator link open on many screens, a seat open twice). Shared: read only."""
        size = len(self.game.log)
        cached = self._views.get(viewer)
        if cached is None or cached[0] != size:
            # the viewers whose pages asked at one of the last two positions are shown this
            # one too: their views are made together (``Game.views``), the parts they see
            # alike once; a viewer whose pages are gone is made again only if asked again
            recent = self._view_batches - 1
            asked = self._view_asked
            behind = [v for v, (at, _) in self._views.items()
                      if at != size and v != viewer and asked.get(v, -1) >= recent]
            behind.append(viewer)
            for shown, made in self.game.views(behind, self._view_parts).items():
                self._views[shown] = (size, made)
            self._view_batches += 1
            cached = self._views[viewer]
        self._view_asked[viewer] = self._view_batches
        return cached[1]

    def legal(self, seat: str) -> list:
        """``game.legal_actions(seat)``, listed once per position (the log grows with every
        action applied), and the very list of the last position when the seat's moves are
        the same (``game.moves``: a move's dict is made from it alone), so that what is kept
        by it (the offer, the buttons) is found at once. Shared: read only."""
        game = self.game
        size = len(game.log)
        cached = self._legal.get(seat)
        if cached is None or cached[0] != size:
            moves = game.moves(seat)
            legal = cached[1] if cached is not None and (cached[2] is moves or cached[2] == moves) \
                else game.legal_actions(seat)
            cached = self._legal[seat] = (size, legal, moves)
        return cached[1]

    def _strength_known(self, action: dict, stage: dict, view: dict):
        """The fight's strengths once ``action`` is made, known without a copy of the game, or
        ``UNKNOWN``. Under the base count only (R-FIGHT-3: the members' sizes and the weapons
        face up in front of them; no ``lifeboat_strength`` hook, no plugin from outside the
        library): a play by a player outside the fight, or of a card that is no weapon,
        leaves them as they are; a member's weapon adds its bonus to the member's side (the
        card goes face up in front of it); a join is counted by the fight itself with the
        joiner on its side (``side_strength``: the count the fight closes with, if the join
        closes it).
        (tests/test_web_speed.py checks the buttons against those made with the copy, on a
        table with ``count_on_copy`` set: then nothing is known without it.)"""
        kind = action["type"]
        if kind not in ("play", "join") or self.count_on_copy:
            return UNKNOWN
        rules = self.game.rules
        if rules.strength_hook is not None or rules.guarded:
            return UNKNOWN
        by = action.get("by")
        inside = by in stage.get("attackers", ()) or by in stage.get("defenders", ())
        strength = stage.get("strength")
        entry = (view.get("characters") or {}).get(by) or {}
        if kind == "play":
            if not inside:
                return strength
            card = next((c.get("kind") for c in entry.get("hand", ()) if c.get("id") == action.get("card")), None)
            if card is None:
                return UNKNOWN
            bonus = self.weapons().get(card)
            if not bonus:
                return strength
            side = Side.ATTACKER.value if by in stage.get("attackers", ()) else Side.DEFENDER.value
            if type(strength) is not dict or type(strength.get(side)) is not int:
                return UNKNOWN
            return {**strength, side: strength[side] + bonus}
        joined = action.get("side")
        fight = self.game.top
        if inside or type(strength) is not dict or joined not in strength or not isinstance(fight, FightWindow):
            return UNKNOWN
        members = fight.attackers if joined == Side.ATTACKER.value else fight.defenders
        return {**strength, joined: fight.side_strength(self.game, members + [by])}

    def _strength_after(self, action: dict):
        """The fight's strengths once ``action`` is made (the engine's count, R-FIGHT-3, on a
        copy of the game: still open, or as it was resolved if the move closed it), or None.
        Only for join and play."""
        if action["type"] not in ("join", "play"):
            return None
        size = len(self.game.log)
        if self._after[0] != size:
            self._after = (size, {})
        known = self._after[1]           # once per position, however many pages ask
        key = _key(action)
        if key not in known:
            copy = self.game.clone()
            events = copy.apply(action)
            top = copy.top         # the innermost stage, as the view shows it (public)
            stage = (top.public(copy) if top is not None else None) or {}
            if stage.get("kind") == "fight":
                known[key] = stage.get("strength")
            else:
                known[key] = next((e.get("strength") for e in events if e.get("type") == "fight"), None)
        return known[key]

    def weapons(self) -> dict:
        """{provision kind: fight bonus} of the game's content (R-FIGHT-3)."""
        if self._weapons is None:
            provisions = lr_words.content(self.game).get("provisions", {})
            self._weapons = {k: p.get("weapon", 0) for k, p in provisions.items() if p.get("weapon")}
        return self._weapons

    def robbed(self):
        """What the open fight's robbery is over: "hand", a face-up card's id, or None (no
        robbery). Read from the public ``rob`` event that started it (R-ROB-1), once per
        position."""
        size = len(self.game.log)
        if self._robbed[0] != size:
            self._robbed = (size, self._find_robbed())
        return self._robbed[1]

    def _find_robbed(self):
        log = self.game.log
        for index in range(len(log) - 1, -1, -1):
            if log[index]["type"] == "fight_start":
                if log[index].get("act") != "rob":
                    return None
                for back in range(index - 1, -1, -1):      # within the robber's turn
                    event = log[back]
                    if event["type"] == "rob":
                        return event.get("card")
                    if event["type"] == "turn":
                        return None
                return None
        return None

    def feed(self, viewer, lang: str, since: int) -> list:
        """``viewer``'s feed (``game.feed``: one sentence per move), each entry with the round
        it belongs to (0: the deal): [{"i", "round", "text"}]; with ``since`` (the log's
        length when the page was last sent its feed) the entries told after that, including a
        run of passes the log then ended on, which is told once the run is over.

        The feed's entries never change once told, so each viewer's and language's are kept,
        and read as the game goes (``words.FeedReader``: the new events only, where polling
        ``game.feed`` would read the log again from the turn before): a page that reconnects
        late in a game gets hundreds at once, and a move costs one entry per page. The entries
        are the kept ones, shared by every page of the viewer: read only."""
        entry = self._feeds.get((viewer, lang))
        if entry is None:
            entry = self._feeds[(viewer, lang)] = {"reader": lr_words.FeedReader(self.game, viewer, lang),
                                                   "lines": [], "told_at": [], "read_at": -1, "asked": -1}
        size = len(self.game.log)
        if entry["read_at"] != size:
            # the feeds asked for at one of the last two positions are brought up to date at
            # once: a move all their viewers are shown alike is worded once
            # (``FeedReader.read_all``), not once a page; a feed whose pages are gone catches
            # up only if asked for again (a reader reads on from where it stopped)
            recent = self._feed_batches - 1
            behind = [e for e in self._feeds.values()
                      if e["read_at"] != size and e is not entry and e["asked"] >= recent]
            behind.append(entry)
            self._feed_batches += 1
            made: dict = {}       # id(entries worded alike) -> their lines (shared, read only)
            told_all = lr_words.FeedReader.read_all([e["reader"] for e in behind], shared=True)
            for caught, told in zip(behind, told_all):
                caught["read_at"] = size
                if not told:
                    continue
                lines = made.get(id(told))
                if lines is None:
                    lines = made[id(told)] = [{"i": line["index"], "round": self.round_at(line["index"]),
                                               "text": line["text"]} for line in told]
                caught["lines"] += lines
                caught["told_at"] += [size] * len(lines)    # the log's length when each was told
        entry["asked"] = self._feed_batches
        start = bisect.bisect_right(entry["told_at"], since) if since else 0
        return entry["lines"][start:]

    def round_at(self, index: int) -> int:
        """The round the log entry ``index`` belongs to (0 before the first): the rounds'
        ``phase`` events are public."""
        log = self.game.log
        starts = self._rounds
        for number in range(self._rounds_upto, len(log)):
            event = log[number]
            if event["type"] == "phase" and type(event.get("round")) is int and (
                    not starts or starts[-1][1] != event["round"]):
                starts.append((number, event["round"]))
        self._rounds_upto = len(log)
        found = bisect.bisect_right(starts, (index, float("inf"))) - 1
        return starts[found][1] if found >= 0 else 0

    def bot(self, seat: str, clock=time.monotonic) -> bots.PacedBot:
        """The seat's bot, paced as people watch it (``bots.paced_bot``: a decision is shown
        no sooner than its ``show_at``)."""
        entry = self.seats[seat]
        bot = self.bots.get(seat)
        if bot is None or bot[0] != entry["bot"]:
            # the game's id is on every page: with it alone a player could work out a bot's
            # draws and so read its hand from its moves; the process's secret keeps them apart
            seed = int.from_bytes(hashlib.sha256(
                _BOT_SECRET + f"{self.game_id}/{seat}/{entry['moves']}".encode()).digest()[:4], "big")
            bot = self.bots[seat] = (entry["bot"], bots.paced_bot(entry["bot"], seed, clock))
        return bot[1]

    def bot_pending(self) -> str | None:
        """The first seat played by a bot that must decide now, or None."""
        if self.game.over:
            return None
        return next((d.by for d in self.now()[1] if self.seats[d.by]["controller"] == "bot"), None)

    def names(self, lang: str) -> dict:
        if lang not in self._names:
            self._names[lang] = labels.names(self.game, lang)
        return self._names[lang]

    def offer(self, seat: str) -> str:
        """A fingerprint of what ``seat`` may do now and of how many moves it has made: a move
        sent against another fingerprint (an old page, a replayed message) is refused."""
        moves = self.seats[seat]["moves"]
        legal = self.legal(seat)
        cached = self._offers.get(seat)
        if cached is not None and cached[0] == moves and (cached[1] is legal or cached[1] == legal):
            return cached[2]     # (most moves leave most seats' moves as they were)
        text = dumps(legal, ascii=True, sort=True) + f"|{moves}"
        # (BLAKE2, Python's own: made anew for each fingerprint, OpenSSL's SHA-256 looked its
        # digest up first each time, a second's CPU in fifty of the server's)
        fingerprint = hashlib.blake2b(text.encode(), digest_size=10).hexdigest()
        self._offers[seat] = (moves, legal, fingerprint)
        return fingerprint


class Hall:
    """Every table of one server, kept in SQLite, the most recently used ones in memory.

    Thread safe for calls on different games; calls on one game must come one at a time
    (the server holds a lock per game around them)."""

    def __init__(self, store: Store, max_games: int = 100, cache_size: int = 64,
                 bot_steps: int = 20_000, max_bot_games: int = 2, clock=time.monotonic, rng=None,
                 autopass_delay: tuple = AUTOPASS_DELAY):
        self.store = store
        self.max_games = max_games
        self.max_bot_games = max_bot_games
        self.cache_size = cache_size
        self.bot_steps = bot_steps
        self._lock = threading.RLock()     # the tables in memory and the known tokens
        self._tables: collections.OrderedDict = collections.OrderedDict()
        self._tokens: dict = {}            # token -> what store.token said (a cache)
        self._token_changes = 0            # how many times tokens changed (_tokens_changed)
        # game id -> [table, [(log length before, action)], people]: moves applied ``later``,
        # not yet in the file (``write``); their tables stay in memory meanwhile
        self._unwritten: dict = {}
        self.in_use: collections.Counter = collections.Counter()   # game id -> open pages
        self.rulesets = self._builtin_rulesets()
        for lang in labels.LANGS:      # the words, read now rather than at the first move
            lr_words.catalog(lang)
        self.clock = clock                         # turn timers and "pass for me" run on it
        self.rng = rng if rng is not None else random.SystemRandom()
        self.autopass_delay = autopass_delay
        self._talk: dict = {}                      # (game, speaker) -> (allowance, checked): chat rate

    @staticmethod
    def _builtin_rulesets() -> dict:
        """{name: [min players, max players]} of the rulesets shipped with the library (the
        YAML files of its data folder, each loaded by name): the only ones a client may choose
        (clients never name files)."""
        out = {}
        for name in builtin_rulesets():
            players = lr.load_ruleset(name).players
            out[name] = [min(players), max(players)]
        return out

    # ------------------------------------------------------------------ creating and entering

    def create(self, ruleset, players, lang, controllers, seed=None, timer=None) -> dict:
        """A new game; returns {"game", "host"} (the host's token). ``timer``: the seconds a
        person may take over a decision before a bot plays the seat (None or 0: no timer).
        Its bots have not moved yet: the server has them play (``bot_step``) apart from
        other games."""
        if type(ruleset) is not str or ruleset not in self.rulesets:
            raise Refusal("bad_request", f"ruleset must be one of {', '.join(self.rulesets)}")
        low, high = self.rulesets[ruleset]
        if type(players) is not int or not low <= players <= high:
            raise Refusal("bad_request", f"players must be a number from {low} to {high}")
        if lang not in labels.LANGS:
            raise Refusal("bad_request", f"lang must be one of {', '.join(labels.LANGS)}")
        if seed is not None and (type(seed) is not int or not 0 <= seed < 2 ** 31):
            raise Refusal("bad_request", "seed must be a number from 0 to 2147483647")
        if (type(controllers) is not list or len(controllers) != players
                or any(not self._controller_ok(c) for c in controllers)):
            raise Refusal("bad_request", f"seats must list {players} of: link, host, "
                          + ", ".join(f"bot:{n}" for n in bots.bot_names()))
        timer = 0 if timer is None else timer
        if type(timer) is not int or not 0 <= timer <= MAX_TIMER:
            raise Refusal("bad_request", f"timer must be a number of seconds from 0 to {MAX_TIMER}")
        if self.store.count_open_games() >= self.max_games:
            raise Refusal("limit", f"{self.max_games} games are already being played on this server")
        if all(c.startswith("bot:") for c in controllers):
            self._check_bots_only_limit()

        game = lr.new_game(ruleset, players=players, seed=seed)
        game_id = secrets.token_hex(8)
        host = secrets.token_urlsafe(32)
        tokens: list[tuple[str, str, str | None]] = [
            (host, "host", None), (secrets.token_urlsafe(32), "spectator", None)]
        seats: list[tuple[str, str, str | None]] = []
        for character, controller in zip(game.view(None)["seats"], controllers):
            kind, _, bot = controller.partition(":")
            seats.append((character, kind, bot or None))
            if kind == "link":
                tokens.append((secrets.token_urlsafe(32), "seat", character))
        self.store.add_game(game_id, ruleset, players, lang, game.to_dict(), seats, tokens)
        if timer:
            self.store.set_option(game_id, "", "timer", timer)
        table = Table(game_id, game, lang, {s: {"controller": c, "bot": b, "moves": 0} for s, c, b in seats},
                      options={("", "timer"): timer})
        with self._lock:
            self._remember(table)
        self._track(table)
        return {"game": game_id, "host": host}

    def _bots_only_full(self) -> bool:
        """Whether a game more of bots only would pass ``max_bot_games`` (one created so, one
        its host makes so, one its people's timers would make so)."""
        return self.store.count_open_games(bots_only=True) >= self.max_bot_games

    def _check_bots_only_limit(self) -> None:
        """``limit`` if a game more of bots only would pass ``max_bot_games``."""
        if self._bots_only_full():
            raise Refusal("limit", f"{self.max_bot_games} games of bots only are already being "
                          "played on this server")

    @staticmethod
    def _controller_ok(value) -> bool:
        if type(value) is not str:
            return False
        kind, _, bot = value.partition(":")
        return (kind in ("link", "host") and not bot) or (kind == "bot" and bot in bots.bot_names())

    def enter(self, token) -> Pass:
        """The pass a token opens now; a ``Refusal`` for a forged or replaced token."""
        if type(token) is not str or not 0 < len(token) <= 128:
            raise Refusal("bad_token")
        found = self._tokens.get(token)      # (one read of a dict; the lock guards its changes)
        if found is None:
            read_at = self._token_changes
            found = self.store.token(token)
            if found is None:
                raise Refusal("bad_token")
            with self._lock:
                if len(self._tokens) > 50_000:
                    self._tokens.clear()
                # kept only if no token changed while it was read (a link replaced meanwhile
                # would otherwise stay open in the cache)
                if self._token_changes == read_at:
                    self._tokens[token] = found
        if found["revoked"]:
            raise Refusal("revoked")
        role = found["role"]
        if role == "host":     # the seats it holds follow the table's controllers
            table = self.table(found["game_id"])
            seats = tuple(s for s, e in table.seats.items() if e["controller"] == "host")
            return Pass(token, found["game_id"], role, seats)
        # a seat's or the spectator's pass is the same until its token changes (and is then
        # dropped from ``_tokens`` with what was found for it)
        made = found.get("pass")
        if made is None:
            made = found["pass"] = Pass(token, found["game_id"], role,
                                        (found["seat"],) if role == "seat" else ())
        return made

    def _tokens_changed(self, game_id: str) -> None:
        with self._lock:
            self._token_changes += 1
            for token in [t for t, found in self._tokens.items() if found["game_id"] == game_id]:
                del self._tokens[token]

    # ------------------------------------------------------------------ tables in memory

    def table(self, game_id: str) -> Table:
        table = self._tables.get(game_id)     # in memory: no lock (each step is one call in C)
        if table is not None:
            try:
                self._tables.move_to_end(game_id)
                return table
            except KeyError:      # dropped meanwhile by another thread: read back as below
                pass
        with self._lock:
            table = self._tables.get(game_id)
            if table is not None:
                self._tables.move_to_end(game_id)
                return table
            row = self.store.game(game_id)
            if row is None:
                raise Refusal("bad_token")
            game = lr.Game.from_dict(row["state"])
            for at, action in row["moves"]:       # the actions saved since the snapshot
                if at >= len(game.log):
                    game.apply(action)
            made = collections.Counter(entry["action"]["by"] for entry in game.log if entry["type"] == "action")
            seats = {seat: {**entry, "moves": made[seat]} for seat, entry in row["seats"].items()}
            table = Table(game_id, game, row["lang"], seats, self.store.chat(game_id),
                          self.store.options(game_id))
            table.unsnapped = len(row["moves"])
            self._remember(table)
            self._track(table)
            return table

    def _remember(self, table: Table) -> None:
        self._tables[table.game_id] = table
        self._tables.move_to_end(table.game_id)
        for game_id in list(self._tables):       # the least recently used first
            if len(self._tables) <= self.cache_size:
                break
            if not self.in_use[game_id] and game_id != table.game_id and game_id not in self._unwritten:
                del self._tables[game_id]

    def _forget(self, game_id: str) -> None:
        with self._lock:
            self._tables.pop(game_id, None)

    def sweep(self, unplayed_for: float, bots_done_for: float, keep_bots_done: int,
              idle_for: float | None = None) -> list:
        """Drops games nobody played ``unplayed_for`` seconds after their creation, games in
        progress nothing moved in for ``idle_for`` seconds, and finished bots-only games (see
        ``Store.sweep``); returns their ids."""
        now = time.time()
        gone = self.store.sweep(now - unplayed_for, now - bots_done_for, keep_bots_done,
                                None if idle_for is None else now - idle_for)
        for game_id in gone:
            self._forget(game_id)
            self._tokens_changed(game_id)
        return gone

    # ------------------------------------------------------------------ moves

    def move(self, pass_: Pass, seat, action, offer, later: bool = False) -> None:
        """Apply ``action`` for ``seat``, saved before this returns (with ``later``: by the next
        ``write``, with the other moves of its moment; whoever answers it writes first). The
        link is checked again first: a move that reaches the table after its link was replaced
        is refused."""
        pass_ = self.enter(pass_.token)       # revoked since? the seats it holds now?
        if type(seat) is not str or seat not in pass_.seats:
            raise Refusal("not_your_seat", "this link does not play that seat")
        if type(action) is not dict or action.get("by") != seat:
            raise Refusal("not_your_seat", "a move must be made by the seat that sends it")
        table = self.table(pass_.game_id)
        game = table.game
        if game.over:
            raise Refusal("over")
        if type(offer) is not str or offer != table.offer(seat):
            raise Refusal("stale")
        return self._apply(table, seat, action, people=1, later=later)

    def _apply(self, table: Table, seat: str, action: dict, people: int, later: bool = False) -> None:
        """``action`` for ``seat``, saved before this returns (or kept for ``write``: see
        ``move``); a ``Refusal`` if illegal."""
        game = table.game
        at = len(game.log)
        try:
            game.apply(action)
        except lr.IllegalAction as exc:
            raise Refusal("illegal", str(exc)) from None
        table.seats[seat]["moves"] += 1
        if later:
            kept = self._unwritten.get(table.game_id)
            if kept is None:
                self._unwritten[table.game_id] = [table, [(at, action)], people]
            else:
                kept[1].append((at, action))
                kept[2] += people
        else:
            self._save(table, [(at, action)], people=people)
        self._track(table)

    def unwritten(self) -> bool:
        """Whether moves applied ``later`` wait for ``write``: no state may show them before."""
        return bool(self._unwritten)

    def write(self) -> list:
        """The moves applied ``later`` since the last write, of every game, written in one
        transaction (a group commit); if that fails, each game's alone, so that one game's
        fault refuses no other's moves. Returns the ids of the games whose moves could not be
        written: each is dropped from memory (it is read back from the file: memory never runs
        ahead of it), and their moves are to be refused as ``not_saved``."""
        if not self._unwritten:
            return []
        waiting, self._unwritten = self._unwritten, {}
        tables = [table for table, _, _ in waiting.values()]
        writes = [table.write_of(moves, people) for table, moves, people in waiting.values()]
        failed: list = []
        try:
            try:
                self.store.save_games(writes)
            except (Conflict, OSError, sqlite3.Error):
                for write in writes:
                    try:
                        self.store.save_games([write])
                    except (Conflict, OSError, sqlite3.Error):
                        failed.append(write.game_id)
        except BaseException:
            for table in tables:
                self._forget(table.game_id)
            raise
        for table, write in zip(tables, writes):
            if table.game_id in failed:
                self._forget(table.game_id)
            else:
                table.written(write)
        return failed

    def bot_step(self, game_id: str, budget: float = 0.05) -> tuple:
        """Bots decide for their seats, for about ``budget`` seconds of their thinking at most
        (at least one decision), until a person must decide or the game ends, or until a bot
        whose decision must not be shown yet has decided; saved before this returns. (How
        many moves they made, whether a bot must still decide, and the moment on ``clock``
        before which no page may see them, or None: the server waits for it holding the
        game's lock, then calls ``track``.)"""
        table = self.table(game_id)
        game = table.game
        moves: list[tuple[int, Action]] = []
        began = time.perf_counter()
        show_at = None
        try:
            while len(moves) < self.bot_steps:
                seat = table.bot_pending()
                if seat is None or (moves and time.perf_counter() - began > budget):
                    break
                bot = table.bot(seat, self.clock)
                action = bot.choose(game, seat)
                moves.append((len(game.log), action))
                game.apply(action)
                table.seats[seat]["moves"] += 1
                if bot.show_at > self.clock():
                    # how long a bot took must not say what it holds (bots.PacedBot)
                    show_at = bot.show_at
                    break
        except BaseException:
            self._forget(game_id)       # memory must not run ahead of the file
            raise
        if moves:
            self._save(table, moves, people=0)
            if show_at is None:
                self._track(table)
        return len(moves), table.bot_pending() is not None, show_at

    def track(self, game_id: str) -> None:
        """Who is pending since when (``_track``), once the bots' moves are shown."""
        self._track(self.table(game_id))

    def bot_pending(self, game_id: str) -> bool:
        return self.table(game_id).bot_pending() is not None

    def _save(self, table: Table, moves: list, people: int) -> None:
        """The actions just applied, into the file; if that fails, the game in memory is
        dropped (it is read back from the file: memory never runs ahead of it) and the
        move refused as ``not_saved``."""
        write = table.write_of(moves, people)
        try:
            self.store.save_games([write])
        except (Conflict, OSError, sqlite3.Error) as exc:
            self._forget(table.game_id)
            raise Refusal("not_saved") from exc      # (its words say it all; the page gets its ref)
        except BaseException:
            self._forget(table.game_id)
            raise
        table.written(write)

    # ------------------------------------------------------------------ the host's controls

    def manage(self, pass_: Pass, op, seat, bot=None) -> str | None:
        """The host hands a seat to a bot (``op="bot"``), to a new link (``"link"``: any
        earlier link of the seat stops working) or to this browser (``"here"``), or replaces
        the spectator link (``"spectator_link"``) or its own (``"host_link"``: returns the
        new host token; this page goes on with it, every other page of the old one is cut
        off). A seat handed to a bot is played by the server's bots afterwards."""
        pass_ = self.enter(pass_.token)
        if pass_.role != "host":
            raise Refusal("not_host")
        table = self.table(pass_.game_id)
        if op in ("spectator_link", "host_link"):
            token = secrets.token_urlsafe(32)
            self.store.replace_token(table.game_id, op.split("_")[0], token)
            self._links_changed(table)
            return token if op == "host_link" else None
        if type(seat) is not str or seat not in table.seats:
            raise Refusal("bad_request", "no such seat")
        if op == "bot":
            bot = bot if bot is not None else "random"
            if bot not in bots.bot_names():
                raise Refusal("bad_request", f"bots: {', '.join(bots.bot_names())}")
            if (not table.game.over and table.seats[seat]["controller"] != "bot"
                    and self._would_be_bots_only(table, seat)):
                self._check_bots_only_limit()     # the last person's seat: a game of bots only
            self.store.set_seat(table.game_id, seat, "bot", bot, None)
            table.seats[seat].update(controller="bot", bot=bot)
        elif op == "link":
            self.store.set_seat(table.game_id, seat, "link", None, secrets.token_urlsafe(32))
            table.seats[seat].update(controller="link", bot=None)
        elif op == "here":
            self.store.set_seat(table.game_id, seat, "host", None, None)
            table.seats[seat].update(controller="host", bot=None)
        else:
            raise Refusal("bad_request", "op must be bot, link, here, spectator_link or host_link")
        table.timed_out.pop(seat, None)
        self._track(table)
        self._links_changed(table)
        return None

    def _links_changed(self, table: Table) -> None:
        table.links = None
        self._tokens_changed(table.game_id)

    # ------------------------------------------------------------------ timers: the turn timer, "pass for me"

    def _track(self, table: Table) -> None:
        """After every change: when each pending seat became pending (the turn timer counts
        from then), and for a seat that asked "pass for me", when it would pass. That moment
        is drawn as the seat becomes pending, before and whatever its hand holds: whether it
        then passes depends on the hand, when it passes does not."""
        now = self.clock()
        game = table.game
        pending = {} if game.over else {d.by: str(d.kind) for d in game.pending}
        for seat, (kind, _) in list(table.pending_since.items()):
            if pending.get(seat) != kind:
                del table.pending_since[seat]
                table.autopass_at.pop(seat, None)
        for seat, kind in pending.items():
            if seat not in table.pending_since:
                table.pending_since[seat] = (kind, now)
                if seat in table.autopass:
                    table.autopass_at[seat] = now + self.rng.uniform(*self.autopass_delay)

    @staticmethod
    def _person(table: Table, seat: str) -> bool:
        return table.seats[seat]["controller"] in ("link", "host")

    @staticmethod
    def _would_be_bots_only(table: Table, seat: str) -> bool:
        """Whether handing ``seat`` to a bot leaves no seat of the game to a person."""
        return all(e["controller"] == "bot" for s, e in table.seats.items() if s != seat)

    def timed(self, game_id: str) -> bool:
        """Whether the game has a turn timer or a seat that asked "pass for me": the only games
        with anything timed. Cheap, and safe from the event loop's thread (it reads two
        fields of a table in memory; a game not in memory has nothing running)."""
        table = self._tables.get(game_id)
        return table is not None and bool(table.timer or table.autopass)

    def due(self, game_id: str):
        """The clock time of the game's next timed thing (a turn timer running out, a "pass
        for me"), or None."""
        table = self._tables.get(game_id)
        if table is None or table.game.over:
            return None
        times = [at for seat, at in table.autopass_at.items() if self._person(table, seat)]
        if table.timer:
            times += [since + table.timer for seat, (_, since) in table.pending_since.items()
                      if self._person(table, seat)]
        return min(times) if times else None

    def run_due(self, game_id: str) -> bool:
        """Do what is due now: pass for the seats that asked and have nothing to play, hand to
        a bot the seats whose turn timer ran out. Whether anything changed."""
        table = self._tables.get(game_id)
        if table is None or table.game.over:
            return False
        now = self.clock()
        changed = False
        for seat, at in sorted(table.autopass_at.items(), key=lambda item: item[1]):
            if at > now or table.game.over or table.autopass_at.get(seat) != at:
                continue
            del table.autopass_at[seat]
            if self._person(table, seat) and nothing_to_play(table.game, seat):
                self._apply(table, seat, {"by": seat, "type": "pass"}, people=1)
                changed = True
        if table.timer and not table.game.over:
            late = [seat for seat, (_, since) in table.pending_since.items()
                    if self._person(table, seat) and since + table.timer <= now]
            for seat in late:
                if self._would_be_bots_only(table, seat) and self._bots_only_full():
                    # the last person's seat would make one game of bots only too many (an
                    # audit ran games of bots only past the limit with 1-second timers): the
                    # seat stays its player's, the game waits, and its timer starts again
                    table.pending_since[seat] = (table.pending_since[seat][0], now)
                    continue
                was = table.seats[seat]["controller"]
                self.store.hand_to_bot(game_id, seat, TIMEOUT_BOT, was)
                table.seats[seat].update(controller="bot", bot=TIMEOUT_BOT)
                table.timed_out[seat] = TIMED_OUT[was]
                changed = True
            if late:
                self._track(table)       # the server has the bots play them now
        return changed

    def set_autopass(self, pass_: Pass, seat, on) -> None:
        """A seat asks for (or stops) "pass for me when I have nothing to play"."""
        pass_ = self.enter(pass_.token)       # a replaced link acts no more (as in ``move``)
        if type(seat) is not str or seat not in pass_.seats:
            raise Refusal("not_your_seat", "this link does not play that seat")
        if type(on) is not bool:
            raise Refusal("bad_request", "on must be true or false")
        table = self.table(pass_.game_id)
        self.store.set_option(table.game_id, seat, "autopass", int(on))
        if on:
            table.autopass.add(seat)
            if seat in table.pending_since and seat not in table.autopass_at:
                table.autopass_at[seat] = self.clock() + self.rng.uniform(*self.autopass_delay)
        else:
            table.autopass.discard(seat)
            table.autopass_at.pop(seat, None)

    def take_back(self, pass_: Pass) -> None:
        """The player of a seat whose timer ran out takes it back from the bot."""
        pass_ = self.enter(pass_.token)
        table = self.table(pass_.game_id)
        if table.game.over:
            raise Refusal("over")          # nothing is left to play
        seat = pass_.seats[0] if pass_.role == "seat" else None
        if seat is None or seat not in table.timed_out or table.seats[seat]["controller"] != "bot":
            raise Refusal("bad_request", "only a seat a bot took over when its time ran out")
        controller = next(c for c, v in TIMED_OUT.items() if v == table.timed_out[seat])
        self.store.take_back(table.game_id, seat, controller)
        table.seats[seat].update(controller=controller, bot=None)
        del table.timed_out[seat]
        self._track(table)

    # ------------------------------------------------------------------ table talk

    def say(self, pass_: Pass, seat, text) -> dict:
        """A player says ``text`` to the table (seats and the host; spectators read): kept
        with the game, at most MAX_CHAT characters, CHAT_RATE a second on average."""
        pass_ = self.enter(pass_.token)       # not in the name of a seat whose link was replaced
        if pass_.role == "spectator":
            raise Refusal("chat", "spectators read the table talk; the players write it")
        if type(text) is not str:
            raise Refusal("chat", "text must be a string")
        text = clean_text(text)
        if not 1 <= len(text) <= MAX_CHAT or not visible(text):
            raise Refusal("chat", f"1 to {MAX_CHAT} characters")
        table = self.table(pass_.game_id)
        if len(table.chat) >= MAX_CHAT_PER_GAME:
            raise Refusal("limit", f"{MAX_CHAT_PER_GAME} messages at most in one game")
        author = seat if seat in pass_.seats else (pass_.seats[0] if pass_.role == "seat" else "host")
        # counted by who speaks, not by link: a host that replaces its own link (or a seat's)
        # does not start again with a full allowance
        if self._talks_too_fast((table.game_id, author)):
            raise Refusal("too_fast", f"at most {CHAT_BURST} messages at once, then one every {1 / CHAT_RATE:g} s")
        said = self.store.add_chat(table.game_id, author, text)
        table.chat.append(said)
        return said

    def _talks_too_fast(self, speaker: tuple) -> bool:
        now = self.clock()
        allowance, checked = self._talk.get(speaker, (float(CHAT_BURST), now))
        allowance = min(float(CHAT_BURST), allowance + (now - checked) * CHAT_RATE)
        if len(self._talk) > 10_000:            # forget speakers long quiet
            self._talk = {t: v for t, v in self._talk.items() if now - v[1] < CHAT_BURST / CHAT_RATE}
        if allowance < 1:
            self._talk[speaker] = (allowance, now)
            return True
        self._talk[speaker] = (allowance - 1, now)
        return False

    # ------------------------------------------------------------------ what a seat sees

    def state(self, pass_: Pass, seat, lang: str, since: int = 0, chat_since: int = 0) -> dict:
        """The message a connection gets: the view of ``seat`` (one of the pass's seats, or
        None for the public view), its choices in words, its event feed from ``since``, the
        table talk after message ``chat_since``, the turn timers, and at the end every
        player's love and hate with the reasons of the scores."""
        table = self.table(pass_.game_id)
        game = table.game
        viewer = seat if seat in pass_.seats else None
        size, _, waiting, decisions = table.now()
        view = table.view(viewer)
        names = table.names(lang)
        feed = table.feed(viewer, lang, since)
        stage = view.get("stage")
        stage_text = table.stage_text(view, viewer, lang)
        out = {
            "type": "state", "game": table.game_id, "role": pass_.role, "lang": lang,
            "seat": viewer, "held": pass_.seats, "view": view,     # (a tuple: a JSON array)
            "names": names if since == 0 else None,     # with a full state only: they never change
            "stage_text": stage_text,
            "waiting": waiting,
            "feed_from": since, "feed": feed, "log_size": size,
            "choices": [], "decision_text": None, "offer": None,
            # messages are numbered 1, 2, ...; none new: the same empty list, passed over at once
            "chat_from": chat_since, "chat": table.chat[chat_since:] if chat_since < len(table.chat) else _NONE,
            "chat_size": len(table.chat), "can_chat": pass_.role != "spectator",
            "timer": self._timer_state(table),
        }
        if viewer is not None:
            out["autopass"] = viewer in table.autopass
            out["timed_out"] = viewer in table.timed_out and table.seats[viewer]["controller"] == "bot"
        if viewer is not None and not game.over:
            out["offer"] = table.offer(viewer)
            mine = decisions.get(viewer)
            if mine is not None and (stage or {}).get("kind") == "fight" and str(mine.kind) == "fight":
                out["decision_text"] = labels.fight_decision(stage, viewer, lang)
            elif mine is not None:
                out["decision_text"] = table.decision_text(mine, lang)
            out["choices"] = table.choices(viewer, lang, view)
        if game.over:
            out["reveal"] = labels.reveal(view, names, lang)
        if pass_.role == "host":
            out["table"] = self._host_table(table)
        return out

    def _timer_state(self, table: Table) -> dict | None:
        """{"seconds", "left": {seat: whole seconds left}} of the people the game waits for,
        or None without a turn timer. Who is pending is public (R-WIN-2), and so is this."""
        if not table.timer or table.game.over:
            return None
        now = self.clock()
        return {"seconds": table.timer,
                "left": {seat: max(0, math.ceil(since + table.timer - now))
                         for seat, (_, since) in table.pending_since.items() if self._person(table, seat)}}

    def _host_table(self, table: Table) -> dict:
        # (typed: a dict that starts with None alone would be read as holding None only)
        links: dict[str, str | None] = {"spectator": None, "host": None}
        seat_links: dict[str, str] = {}
        if table.links is None:
            table.links = self.store.live_tokens(table.game_id)
        for token, role, seat in table.links:
            if role == "seat":
                seat_links[seat] = token
            else:
                links[role] = token
        return {
            "seats": {s: {"controller": e["controller"], "bot": e["bot"], "link": seat_links.get(s)}
                      for s, e in table.seats.items()},
            "spectator": links["spectator"], "host": links["host"], "bots": bots.bot_names(),
        }


def _key(action: dict, places: dict | None = None):
    """An action as a key: its fields, in the order the engine lists them (the same for every
    move of a type), each card named in ``places`` ({id: (kind, place)}) by its kind and
    place, a list as a tuple; as JSON when a field holds anything else."""
    get = (places or _NO_PLACES).get
    values = action.values()
    if "give" not in action and "pile" not in action:     # (the base game's lists of cards)
        try:       # (most actions hold no list: their key is made in C)
            # ``get`` raises TypeError for a value that cannot be a key (a list), and what it
            # gives back always can be one: no hash() to check the key
            return (tuple(action), tuple(map(get, values, values)))
        except TypeError:
            pass
    try:
        return (tuple(action), tuple([tuple(map(get, v, v)) if type(v) is list else get(v, v)
                                      for v in values]))
    except TypeError:    # something deeper than a list of names
        return json.dumps(action, sort_keys=True, separators=(",", ":"))


_NO_PLACES: dict = {}


def _places(view: dict) -> dict:
    """{card id: (kind, place)} of the cards a view shows: hands, face-up cards and the cards
    a decision shows; and {offer id: (..., who made it, to whom)} of the offers it shows (an
    answer to an offer is worded with its maker, and a taken-back game may number another
    offer alike)."""
    out: dict[str, tuple] = {}
    for who, entry in view["characters"].items():
        for card in entry.get("hand", ()):
            out[card["id"]] = ("card", card["kind"], "hand", who)
        for card in entry["front"]:
            out[card["id"]] = ("card", card["kind"], "front", who)
    for card in (view.get("decision") or {}).get("cards", ()):
        if "kind" in card and "id" in card:
            out[card["id"]] = ("card", card["kind"], "shown")
    for offer in view.get("offers", ()):
        if isinstance(offer.get("id"), str):
            out[offer["id"]] = (out.get(offer["id"]), "offer", offer.get("from"), offer.get("to"))
    return out


def nothing_to_play(game, seat: str) -> bool:
    """Whether ``seat`` is pending in an open window with no window action it can take with
    the cards it holds (R-WIN-2: it can only pass; playing a card face up or trading does not
    answer the window)."""
    if game.over or not any(d.by == seat for d in game.pending):
        return False
    top = game.top
    if not isinstance(top, Window) or top.has_action(game, seat):
        return False
    return {"by": seat, "type": "pass"} in game.legal_actions(seat)


# Kept of the format characters (Unicode's "Cf"): the joiners that emoji and some scripts
# (Persian, the Indic ones) need to read right. Every other one is invisible, and among them
# are the marks that reorder text on screen (U+200E, U+200F, U+061C, U+202A-E, U+2066-9), tags
# and the interlinear annotations: dropped, with control characters and lone surrogates.
_JOINERS = {0x200C, 0x200D}
MAX_MARKS = 4       # combining marks kept on one character (the rest pile up over the lines)


def visible(text: str) -> bool:
    """Whether ``text`` shows anything: a letter, a digit, a punctuation mark or a symbol (a
    line of joiners, combining marks and spaces alone reads as nothing)."""
    return any(unicodedata.category(ch)[0] in "LNPS" for ch in text)


def clean_text(text: str) -> str:
    """One line of table talk: control, format (the joiners kept) and reordering characters
    dropped, at most MAX_MARKS combining marks on a character, spaces trimmed."""
    out, marks = [], 0
    for ch in text:
        if ch in "\t\r\n":
            out.append(" ")
            marks = 0
            continue
        kind = unicodedata.category(ch)
        if kind in ("Cc", "Cs") or (kind == "Cf" and ord(ch) not in _JOINERS):
            continue
        if kind in ("Mn", "Me"):
            marks += 1
            if marks > MAX_MARKS:
                continue
        else:
            marks = 0
        out.append(ch)
    return " ".join("".join(out).split())
