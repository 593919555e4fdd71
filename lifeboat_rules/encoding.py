"""Fixed-length vectors of what a player sees, for learning agents (docs/agents.md).

``Encoder(ruleset, players)`` lays out one vector for every position of every game of that
ruleset and player count. ``observation(game, c)`` is built from ``game.view(c)`` alone, so it
can say nothing ``c`` may not know; ``knowledge(game, c)`` adds what ``c`` remembers (the kinds
of cards it has seen go into other hands) for an information state. Every entry lies in
[0, 1]: counts are divided by a bound and cut off there. Plain Python lists: the adapters make
arrays of them (``lifeboat_rules.pettingzoo``, ``lifeboat_rules.openspiel``).

The layout, in order (``Encoder.layout()`` gives each part's name, offset and length;
C characters of the ruleset in content order, K provision kinds, N navigation cards, S seats):

* ``me``, ``love``, ``hate``: one-hot over the C characters;
* ``characters``: C blocks, one per character: in play, on board, awake, unconscious, dead,
  lost, ghost, damage/10, size/10, survival/10, blows left before knocked out/10, hand size/10,
  rowed, fought, parasol open, pending; its seat (one-hot over S); the kinds face up in front
  of it (K counts/3);
* ``hand``: the kinds in one's own hand (K counts/3);
* ``board``: round/20, seagulls/landing count, phase (supply, action, navigation, over), supply
  size, navigation deck size, rowing pile size, removed cards (each over its largest value),
  the discard pile by kind (K, each over the ruleset's count of that kind);
* ``current``: the navigation card being resolved (one-hot over N);
* ``decision``: one's own decision kind (pick, turn, place, respond, fight, navigate,
  overboard, thirst, object, another), the provisions it shows (K counts/3), the navigation
  cards it shows (multi-hot over N);
* ``stage``: what everyone sees of the stage: a swap or robbery waiting for an answer (swap,
  rob, its actor and target one-hot over C, a hand card, the kind of a face-up card over K);
  a fight (attackers, defenders multi-hot over C, each side's strength/40); the overboard
  step (fallen multi-hot over C, chum played, shark coming); the thirst step (thirsts left
  per character/3).

Every part but ``me``, ``love``, ``hate``, ``hand`` and ``decision`` is public: ``public(game)``
builds it once for everyone from the fields ``game.view(None)`` shows (the same numbers as
``encode_public(game.view(None))``), and ``private(game, c, out)`` adds ``c``'s own parts (the
same numbers as ``observation``; a learning loop that wants every player's vector after every
move pays for the public part once). Both are made of named pieces (``character_block`` of
``flags``, ``seat`` and ``front``; ``board`` of ``counters`` and ``discard``; ``current``,
``stage``; ``identity``, ``hand``, ``decision``), which the OpenSpiel adapter writes one by
one, when their sources change, into arrays it keeps.

``Recall`` is what each player remembers, kept up to date move by move for an information
state (OpenSpiel's): two chained digests, the public record (what everyone saw at each step:
the log entries with their secret fields left out, who was pending) and the player's own
(what only it saw: the secret fields it was let see, the decision it was shown, each with its
step), which together give back exactly its view and log at every step; and ``seen``: per
character, the kinds (K counts/3) of cards the player saw go into that character's hand and
not come out. Each update reads only the log entries added since the last one, once for all
the players. ``whole(game, seats)`` is the whole game for a centralised critic (PettingZoo's
``state()``).
"""

from __future__ import annotations

import hashlib
import json
import marshal
import struct

from .stages import Stage
from .views import redact

DECISIONS = ("pick", "turn", "place", "respond", "fight", "navigate", "overboard", "thirst",
             "object")
PHASES = ("supply", "action", "navigation", "over")
CHARACTER_FLAGS = 16


class Encoder:
    """The observation vector of one ruleset and player count (see the module's docstring)."""

    def __init__(self, ruleset, players: int):
        content = ruleset.content
        self.characters = list(content.characters)
        self.kinds = list(content.provisions)
        self.navcards = list(content.navigation)
        self.seats = players
        self.pending_texts: dict = {}   # for ``Recall``
        self.plans: dict = {}           # for ``Recall``: the characters in play: their plans
        self.counts = {k: max(info.count, 1) for k, info in content.provisions.items()}
        self.total_cards = max(sum(info.count for info in content.provisions.values()), 1)
        self.landing = content.setup["seagulls_to_land"]
        C, K, N, S = len(self.characters), len(self.kinds), len(self.navcards), players
        parts = [("me", C), ("love", C), ("hate", C),
                 ("characters", C * (CHARACTER_FLAGS + S + K)), ("hand", K),
                 ("board", 2 + len(PHASES) + 4 + K), ("current", N),
                 ("decision", len(DECISIONS) + 1 + K + N),
                 ("stage", 2 + 2 * C + 1 + K + 2 * C + 2 + C + 2 + C)]
        self._layout = []
        offset = 0
        for name, length in parts:
            self._layout.append((name, offset, length))
            offset += length
        self.size = offset
        self.block = CHARACTER_FLAGS + S + K      # a character's block of ``characters``
        self.board_size = dict((n, l) for n, _, l in self._layout)["board"]
        self.stage_size = dict((n, l) for n, _, l in self._layout)["stage"]
        self.decision_size = dict((n, l) for n, _, l in self._layout)["decision"]
        self.knowledge_size = C * K
        self.whole_size = S * self.size + 3 * K + 3 * N
        self.char_index = {c: i for i, c in enumerate(self.characters)}
        self.kind_index = {k: i for i, k in enumerate(self.kinds)}
        self.nav_index = {n: i for i, n in enumerate(self.navcards)}
        self.phase_index = {p: i for i, p in enumerate(PHASES)}
        self.part = {name: offset for name, offset, _ in self._layout}   # part: offset
        self._blocks: dict = {}     # a character's block of the public part, by what it shows
        self._marks: dict = {}      # a player's own numbers when not deciding, by what it holds

    def layout(self) -> list:
        """``[(part, offset, length)]`` of the observation vector."""
        return list(self._layout)

    # ------------------------------------------------------------------ helpers

    def _one(self, out: list, base: int, index: dict, key) -> None:
        i = index.get(key)
        if i is not None:
            out[base + i] = 1.0

    def _count(self, out: list, base: int, kinds, bound: float = 3.0) -> None:
        index = self.kind_index
        for kind in kinds:
            i = index.get(kind)
            if i is not None:
                out[base + i] = min(1.0, out[base + i] + 1.0 / bound)

    # ------------------------------------------------------------------ vectors

    def observation(self, game, character: str) -> list:
        """What ``character``'s player sees now, as ``size`` numbers in [0, 1]: its view
        (``game.view(character)``) encoded."""
        view = game.view(character)
        out = self.encode_public(view)
        hand = [c["kind"] for c in view["characters"][character].get("hand", ())]
        self.encode_private(out, character, view.get("love"), view.get("hate"), hand,
                            view.get("decision"))
        return out

    def __getstate__(self) -> dict:
        # pickled without the caches kept for ``Recall``
        return {**self.__dict__, "pending_texts": {}, "plans": {}}

    def plans_for(self, characters) -> dict:
        """``Recall``'s plans (``Recall._plan``) for games of ``characters``."""
        key = frozenset(characters)
        plans = self.plans.get(key)
        if plans is None:
            if len(self.plans) > 100:
                self.plans.clear()
            plans = self.plans[key] = {}
        return plans

    def public(self, game) -> list:
        """The public parts (everything but ``me``, ``love``, ``hate``, ``hand`` and
        ``decision``, which are 0): ``encode_public(game.view(None))``, the same for every
        player, read here straight from the fields the public view shows (once a move for
        everyone: tests/test_openspiel.py checks that the two agree). Made of the pieces
        below (``character_block``, ``board``, ``current``, ``stage``), which the OpenSpiel
        adapter writes one by one when their sources change."""
        state = game.state
        kinds = state.table.kinds
        out = [0.0] * self.size
        part = self.part
        at = {who: i for i, who in enumerate(state.seats)}
        pending = {d.by for d in game.pending}
        block = self.block
        for who, ch in state.characters.items():
            i = self.char_index.get(who)
            if i is None:
                continue
            base = part["characters"] + i * block
            out[base:base + block] = self.character_block(
                ch, self.character_key(who, ch, at.get(who), kinds))
            if who in pending:
                out[base + CHARACTER_FLAGS - 1] = 1.0
        base = part["board"]
        out[base:base + self.board_size] = self.board(state)
        base = part["current"]
        out[base:base + len(self.navcards)] = self.current(state)
        top = game.top
        if top is not None:
            base = part["stage"]
            out[base:base + self.stage_size] = self.stage(top.public(game))
        return out

    @staticmethod
    def character_key(who: str, ch, seat, kinds: dict) -> tuple:
        """What ``who``'s block of ``characters`` but its pending flag is made of (``seat``:
        its place in the seats, or None)."""
        front = tuple([kinds[c] for c in ch.front]) if ch.front else ()
        return (who, ch.lost, ch.ghost, ch.size, ch.damage, ch.survival, len(ch.hand),
                tuple(ch.markers), seat, front)

    def character_block(self, ch, key: tuple) -> list:
        """``ch``'s block of ``characters`` but its pending flag (0 there), ``block``
        numbers; ``key``: ``character_key``'s (a block changes a few times a game: made once
        for each key)."""
        blocks = self._blocks
        values = blocks.get(key)
        if values is None:
            if len(blocks) > 100_000:
                blocks.clear()
            values = blocks[key] = self._block(ch, key)
        return values

    def board(self, state) -> list:
        """The ``board`` part (``board_size`` numbers): ``counters`` then ``discard``."""
        return self.counters(state) + self.discard(state)

    def counters(self, state) -> list:
        """The first numbers of ``board``: the round, the seagulls, the phase, the sizes of
        the supply, the navigation deck, the rowing pile and the removed cards."""
        N = len(self.navcards)
        out = [min(state.round / 20, 1.0), min(state.seagulls / self.landing, 1.0)]
        out += [0.0] * len(PHASES)
        self._one(out, 2, self.phase_index, state.phase.value)
        out += [min(len(state.supply) / self.total_cards, 1.0),
                min(len(state.navigation) / max(N, 1), 1.0),
                min(len(state.rowing_pile) / max(N, 1), 1.0),
                min(len(state.removed) / self.total_cards, 1.0)]
        return out

    def discard(self, state) -> list:
        """The last numbers of ``board``: the discard pile by kind (K, each over the
        ruleset's count of that kind)."""
        out = [0.0] * len(self.kinds)
        kinds = state.table.kinds
        for card in state.discard:
            kind = kinds[card]
            i = self.kind_index.get(kind)
            if i is not None:
                out[i] = min(1.0, out[i] + 1.0 / self.counts[kind])
        return out

    def current(self, state) -> list:
        """The ``current`` part: the navigation card being resolved, one-hot."""
        out = [0.0] * len(self.navcards)
        if state.current is not None:
            self._one(out, 0, self.nav_index, state.table.navcards[state.current].id)
        return out

    def stage(self, stage) -> list:
        """The ``stage`` part (``stage_size`` numbers) of what everyone sees of the stage
        (``Stage.public``, a view's ``stage``)."""
        out = [0.0] * self.stage_size
        self._stage(out, 0, stage)
        return out

    def _block(self, ch, key: tuple) -> list:
        """A character's part of ``characters`` but its pending flag (``key``: what it is
        made of, ``character_key``): its ``flags``, its ``seat`` and its ``front``."""
        _, lost, ghost, size, damage, survival, hand, markers, seat, front = key
        return self.flags(ch.status, lost, ghost, size, damage, survival, hand, markers,
                          False) + self.seat(seat) + self.front(front)

    @staticmethod
    def flags(status, lost: bool, ghost: bool, size: int, damage: int, survival: int,
              hand: int, markers, pending: bool) -> list:
        """The first ``CHARACTER_FLAGS`` numbers of a character's block (``hand``: its hand
        size; ``status``: its ``Status``)."""
        status = status.value
        return [1.0, float(not lost), float(status == "awake"),
                float(status == "unconscious"), float(status == "dead"), float(status == "lost"),
                float(lost and ghost), min(damage / 10, 1.0), min(size / 10, 1.0),
                min(survival / 10, 1.0), min(max(size - damage, 0) / 10, 1.0),
                min(hand / 10, 1.0), float("rowed" in markers), float("fought" in markers),
                float("parasol" in markers), float(pending)]

    def seat(self, seat) -> list:
        """A character's seat in its block: one-hot over the S seats (``seat`` None: none)."""
        out = [0.0] * self.seats
        if seat is not None and seat < self.seats:
            out[seat] = 1.0
        return out

    def front(self, kinds) -> list:
        """The kinds face up in front of a character, in its block (K counts/3)."""
        out = [0.0] * len(self.kinds)
        self._count(out, 0, kinds)
        return out

    def private(self, game, character: str, out: list, deciding=None) -> list:
        """``out`` (a copy of ``public(game)``) with ``character``'s own parts filled in: the
        vector ``observation(game, character)`` gives. What it reads is what its view shows
        only to it: its love and hate, its hand, its decision. (``deciding``: the characters
        pending now, when the caller has them.)"""
        me = game.state.characters[character]
        kinds = game.state.table.kinds
        if deciding is not None and character not in deciding:
            decision = None
        else:
            decision = decision_of(game, character)
        if decision is not None:
            self.encode_private(out, character, me.love, me.hate, [kinds[c] for c in me.hand],
                                decision)
            return out
        # not deciding: the same few numbers until its hand changes, made once for each
        key = (character, me.love, me.hate, tuple(kinds[c] for c in me.hand))
        marks = self._marks.get(key)
        if marks is None:
            if len(self._marks) > 100_000:
                self._marks.clear()
            mine = [0.0] * self.size
            self.encode_private(mine, character, me.love, me.hate, list(key[3]), None)
            marks = self._marks[key] = [(i, v) for i, v in enumerate(mine) if v]
        for i, v in marks:
            out[i] = v
        return out

    def encode_private(self, out: list, character: str, love, hate, hand: list,
                       decision) -> None:
        """Write ``character``'s own parts into ``out`` (0 there before): ``identity``,
        ``hand`` (its kinds) and ``decision`` (its view's, or None)."""
        part = self.part
        C = len(self.characters)
        out[part["me"]:part["me"] + 3 * C] = self.identity(character, love, hate)
        out[part["hand"]:part["hand"] + len(self.kinds)] = self.hand(hand)
        if decision is not None:
            out[part["decision"]:part["decision"] + self.decision_size] = \
                self.decision(decision)

    def identity(self, character: str, love, hate) -> list:
        """The ``me``, ``love`` and ``hate`` parts, one after the other (3 C numbers)."""
        C = len(self.characters)
        out = [0.0] * (3 * C)
        chars = self.char_index
        self._one(out, 0, chars, character)
        self._one(out, C, chars, love)
        self._one(out, 2 * C, chars, hate)
        return out

    def hand(self, kinds: list) -> list:
        """The ``hand`` part: the kinds of one's hand (K counts/3)."""
        out = [0.0] * len(self.kinds)
        self._count(out, 0, kinds)
        return out

    def decision(self, decision: dict) -> list:
        """The ``decision`` part of one's decision as its view shows it (``decision_of``)."""
        K = len(self.kinds)
        out = [0.0] * self.decision_size
        kind = decision.get("kind")
        out[DECISIONS.index(kind) if kind in DECISIONS else len(DECISIONS)] = 1.0
        base = len(DECISIONS) + 1
        cards = decision.get("cards", ())
        self._count(out, base, [c["kind"] for c in cards if "kind" in c])
        for card in cards:
            if "seagull" in card:
                self._one(out, base + K, self.nav_index, card["id"])
        return out

    def encode_public(self, view: dict) -> list:
        out = [0.0] * self.size
        N, S = len(self.navcards), self.seats
        chars = self.char_index
        part = self.part
        seats = view["seats"]
        pending = {d["by"] for d in view["pending"]}
        block = CHARACTER_FLAGS + S + len(self.kinds)
        for who, entry in view["characters"].items():
            i = chars.get(who)
            if i is None:
                continue
            base = part["characters"] + i * block
            status = entry["status"]
            size, damage = entry["size"], entry["damage"]
            flags = [1.0, float(entry["on_board"]), float(status == "awake"),
                     float(status == "unconscious"), float(status == "dead"),
                     float(status == "lost"), float(entry.get("ghost", False)),
                     min(damage / 10, 1.0), min(size / 10, 1.0), min(entry["survival"] / 10, 1.0),
                     min(max(size - damage, 0) / 10, 1.0), min(entry["hand_size"] / 10, 1.0),
                     float(entry["rowed"]), float(entry["fought"]),
                     float(entry["parasol_active"]), float(who in pending)]
            out[base:base + CHARACTER_FLAGS] = flags
            if who in seats and seats.index(who) < S:
                out[base + CHARACTER_FLAGS + seats.index(who)] = 1.0
            self._count(out, base + CHARACTER_FLAGS + S, [c["kind"] for c in entry["front"]])
        base = part["board"]
        out[base] = min(view["round"] / 20, 1.0)
        out[base + 1] = min(view["seagulls"] / self.landing, 1.0)
        self._one(out, base + 2, self.phase_index, view["phase"])
        base += 2 + len(PHASES)
        out[base] = min(view["supply_size"] / self.total_cards, 1.0)
        out[base + 1] = min(view["navigation_size"] / max(N, 1), 1.0)
        out[base + 2] = min(view["rowing_pile_size"] / max(N, 1), 1.0)
        out[base + 3] = min(view["removed_size"] / self.total_cards, 1.0)
        base += 4
        for kind in view["discard"]:
            i = self.kind_index.get(kind)
            if i is not None:
                out[base + i] = min(1.0, out[base + i] + 1.0 / self.counts[kind])
        current = view.get("navigation_card")
        if current is not None:
            self._one(out, part["current"], self.nav_index, current["id"])
        self._stage(out, part["stage"], view.get("stage"))
        return out

    # the kinds of stage the ``stage`` part shows (any other shows as zeros)
    STAGE_KINDS = frozenset(("respond", "fight", "overboard", "thirst"))

    @staticmethod
    def stage_key(stage) -> tuple | None:
        """What the ``stage`` part shows of ``stage`` (a stage's public part), as a key: equal
        keys, equal parts (``stage``). It leaves out what the part does not show, such as
        card ids and a fight's stake, so that parts recur from game to game."""
        kind = stage.get("kind") if stage else None
        if kind == "fight":
            strength = stage.get("strength", {})
            return ("fight", tuple(stage["attackers"]), tuple(stage["defenders"]),
                    min(strength.get("attacker", 0) / 40, 1.0),
                    min(strength.get("defender", 0) / 40, 1.0))
        if kind == "respond":
            card = stage.get("card")
            return ("respond", stage.get("act") == "swap", stage.get("by"), stage.get("target"),
                    card == "hand", card.get("kind") if isinstance(card, dict) else None)
        if kind == "overboard":
            return ("overboard", tuple(stage["fallen"]), bool(stage.get("chum")),
                    bool(stage.get("shark")))
        if kind == "thirst":
            return ("thirst", tuple(sorted((who, min(count / 3, 1.0))
                                           for who, count in stage["thirst"].items())))
        return None

    @staticmethod
    def decision_key(decision: dict) -> tuple:
        """What the ``decision`` part shows of ``decision`` (``decision_of``), as a key: equal
        keys, equal parts (``decision``); card ids are left out but a seagull card's."""
        kind = decision.get("kind")
        cards = decision.get("cards", ())
        return ("decision", kind if kind in DECISIONS else None,
                tuple(sorted(c["kind"] for c in cards if "kind" in c)),
                tuple(c["id"] for c in cards if "seagull" in c))

    def _stage(self, out: list, base: int, stage) -> None:
        C, K = len(self.characters), len(self.kinds)
        chars = self.char_index
        if not stage:
            return
        kind = stage.get("kind")
        if kind == "respond":
            out[base + (0 if stage.get("act") == "swap" else 1)] = 1.0
            self._one(out, base + 2, chars, stage.get("by"))
            self._one(out, base + 2 + C, chars, stage.get("target"))
            card = stage.get("card")
            if card == "hand":
                out[base + 2 + 2 * C] = 1.0
            elif isinstance(card, dict):
                self._one(out, base + 3 + 2 * C, self.kind_index, card.get("kind"))
        base += 3 + 2 * C + K
        if kind == "fight":
            for who in stage["attackers"]:
                self._one(out, base, chars, who)
            for who in stage["defenders"]:
                self._one(out, base + C, chars, who)
            strength = stage.get("strength", {})
            out[base + 2 * C] = min(strength.get("attacker", 0) / 40, 1.0)
            out[base + 2 * C + 1] = min(strength.get("defender", 0) / 40, 1.0)
        base += 2 * C + 2
        if kind == "overboard":
            for who in stage["fallen"]:
                self._one(out, base, chars, who)
            out[base + C] = float(bool(stage.get("chum")))
            out[base + C + 1] = float(bool(stage.get("shark")))
        base += C + 2
        if kind == "thirst":
            for who, count in stage["thirst"].items():
                i = chars.get(who)
                if i is not None:
                    out[base + i] = min(count / 3, 1.0)

    def whole(self, game, seats: list) -> list:
        """The whole game as ``whole_size`` numbers in [0, 1], for a centralised critic: the
        observation of each character of ``seats`` in turn (so every hand, love and hate),
        then what nobody sees: the supply deck, the cards being passed and the removed cards
        by kind (K each, each kind over its count), the navigation deck (N: each card's
        place from the top, (place + 1) / N, 0 when not in the deck), the cards drawn and
        the rowing pile (N each, multi-hot)."""
        state = game.state
        kinds = state.table.kinds
        public = self.public(game)
        out: list = []
        for character in seats:
            out += self.private(game, character, public[:]) if character in state.characters \
                else [0.0] * self.size
        K, N = len(self.kinds), len(self.navcards)
        for pile in (state.supply, state.passing, state.removed):
            counts = [0.0] * K
            for card in pile:
                kind = kinds[card]
                i = self.kind_index.get(kind)
                if i is not None:
                    counts[i] = min(1.0, counts[i] + 1.0 / self.counts[kind])
            out += counts
        deck = [0.0] * N
        for place, card in enumerate(state.navigation):
            i = self.nav_index.get(state.table.navcards[card].id)
            if i is not None:
                deck[i] = (place + 1) / max(N, 1)
        out += deck
        for pile in (state.drawn, state.rowing_pile):
            marks = [0.0] * N
            for card in pile:
                self._one(marks, 0, self.nav_index, state.table.navcards[card].id)
            out += marks
        return out

    # ------------------------------------------------------------------ memory

    def learn(self, seen: dict, events: list, viewer) -> dict:
        """``seen`` ({character: K kind counts}) after ``viewer`` saw ``events`` (its own
        log entries): a card it saw go into another character's hand with its kind shown is
        counted there, one that comes out with its kind shown is taken off, and one that
        comes out unseen makes it forget that hand (it cannot tell which card left). Only
        what the entries show: no card's id is followed."""
        for event in events:
            if event.get("type") == "move":
                seen = self.learn_move(seen, event.get("kind"), event.get("from"),
                                       event.get("to"), viewer)
        return seen

    def learn_move(self, seen: dict, kind, source, target, viewer) -> dict:
        """``learn`` of one move as ``viewer`` saw it (``kind``: None when not shown)."""
        if type(source) is str and source.startswith("hand:"):
            who = source[5:]
            if who != viewer and who in seen:
                i = self.kind_index.get(kind) if kind is not None else None
                if i is None:
                    seen = {k: v for k, v in seen.items() if k != who}
                elif seen[who][i]:
                    counts = list(seen[who])
                    counts[i] -= 1
                    seen = {**seen, who: tuple(counts)}
        if type(target) is str and target.startswith("hand:") and kind is not None:
            who = target[5:]
            i = self.kind_index.get(kind)
            if who != viewer and i is not None:
                counts = list(seen.get(who, (0,) * len(self.kinds)))
                counts[i] += 1
                seen = {**seen, who: tuple(counts)}
        return seen

    def seen_vector(self, seen: dict) -> list:
        """``seen`` as C x K numbers (counts/3, in content order)."""
        K = len(self.kinds)
        out = [0.0] * self.knowledge_size
        for who, counts in seen.items():
            i = self.char_index.get(who)
            if i is None:
                continue
            for k, count in enumerate(counts):
                if count:
                    out[i * K + k] = min(count / 3, 1.0)
        return out


def decision_of(game, character: str) -> dict | None:
    """``character``'s decision as its view shows it (``view["decision"]``), or None when it
    is not pending."""
    top = game.top
    for decision in game.pending:
        if decision.by == character:
            if top is None:
                return None
            shown = top.private(game, character) or {}
            shown.setdefault("kind", str(decision.kind))
            if "cards" in shown and not shown["cards"]:
                del shown["cards"]
            return shown
    return None


# ---------------------------------------------------------------------- what players remember

# The events naming the character an effect changed (effects.py: damage, heal, lose, mark; a
# move names its zones, a change of seats changes every character's seat), and the events that
# change neither the board nor the stage on top (the record of an action, a pass, a trade offer
# made or declined), in the package's own rules (``Recall.touched``)
NAMING = frozenset(("damage", "heal", "lost", "marker", "status"))
RESEATING = frozenset(("seats", "setup"))
QUIET = frozenset(("action", "pass", "offer", "decline"))
EVERYONE = object()

DIGEST_WORDS = 8            # a digest in a tensor: 8 numbers of 16 bits each (128 bits)
DIGEST_BYTES = 2 * DIGEST_WORDS
RECALL_WORDS = 2 * DIGEST_WORDS     # the public digest, then the player's own


def _words(digest: bytes) -> list:
    """A digest as ``DIGEST_WORDS`` numbers k / 65536 (16 bits each: exact in float32)."""
    return [word / 65536 for word in struct.unpack(f">{DIGEST_WORDS}H", digest)]


def _digest(previous: bytes, piece) -> bytes:
    if type(piece) is str:
        piece = piece.encode()
    return hashlib.blake2b(previous + piece, digest_size=DIGEST_BYTES).digest()


def serial(value) -> bytes:
    """A value as bytes (a step's piece of a record; a stage's public part, as a key):
    ``marshal`` at version 2, which writes a value's types and contents only (no references,
    so equal values give equal bytes) and can be read back (so different values give
    different bytes), several times faster than ``repr``. A value it
    cannot write (a plugin's object in an event): its ``repr``, marked as such."""
    try:
        return marshal.dumps(value, 2)
    except ValueError:
        return b"repr:" + repr(value).encode()


def piece_value(piece):
    """A piece of a record as a value: a step's piece read back (``serial``), the opening
    pieces as they are (JSON text)."""
    if type(piece) is bytes:
        return piece[5:].decode() if piece.startswith(b"repr:") else marshal.loads(piece)
    return piece


def _piece(value) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"))


class Private:
    """A player's own record: the chained digest of what only it saw (its character, love
    and hate at the deal, the hidden fields it was let see, the decisions it was shown), each
    piece with the step it came in; its ``seen``; its pieces, newest first, as nested pairs.
    Immutable: an update makes a new one, so copies share it."""

    __slots__ = ("digest", "pieces", "seen", "seen_numbers", "words")

    def __init__(self, digest: bytes, pieces, seen, seen_numbers: tuple = (None, None)):
        self.digest, self.pieces, self.seen, self.seen_numbers = \
            digest, pieces, seen, seen_numbers
        self.words = None       # seen and the digest as tensor entries, once asked


class Recall:
    """What every player remembers, move by move (see the module's docstring).

    A player's information state is the public record (what everyone saw at each step: the
    log entries with the secret fields left out, who was pending) together with its own
    record (the secret fields it was let see, the decisions it was shown, at the step it saw
    them): the two give back exactly its view of every step, and its view of every step gives
    back the two. So the digest of a player is made of two chained digests: the public one,
    one piece a step for everyone, and its own, one piece at the steps where it saw something
    the others did not.

    ``Recall(encoder, game, seats)`` right after the deal; ``step(game)`` after every move (it
    notes the log's end, who is pending and what each pending player is shown: a few
    lookups); ``digests(game, c)`` is ``c``'s pair of digests now (the public one and its
    own; ``c`` None: the spectator, who has no own one), after bringing the records up to
    date, which reads only the log entries added since: each entry once, for everyone.
    ``read`` counts the log entries read, for the tests."""

    def __init__(self, encoder: "Encoder", game, seats: list):
        self.encoder = encoder
        self.chain = None           # the steps, newest first: (log end, pending, shown, older)
        self.count = 0
        self.read = 0
        # texts of who is pending (the same in any game) and how each secret reads to each
        # player (``_plan``: the same in any game of the same characters), kept by the encoder
        # for every game it encodes
        self.pending_texts = encoder.pending_texts
        self.plans = encoder.plans_for(seats)
        self.public = (_digest(b"", "public"), 0, 0, None)    # digest, steps, log, pieces
        # what the steps read by the last update changed, as the package's own rules change
        # things (each change an event naming what it changed): (the steps before it, after
        # it, the characters the events named (None: every one), whether they were all
        # ``QUIET``): for ``Tensors``, which writes only what may have changed
        self.touched: tuple = (-1, -1, None, False)
        self.public_words = _words(self.public[0])
        self.private = {}
        for viewer in seats:
            me = game.state.characters[viewer]
            piece = _piece([0, "player", viewer, me.love, me.hate])
            self.private[viewer] = Private(_digest(b"", piece), (piece, None), {})
        self.step(game)

    def copy(self) -> "Recall":
        other = Recall.__new__(Recall)
        other.encoder = self.encoder
        other.chain = self.chain
        other.count = self.count
        other.read = self.read
        other.pending_texts = self.pending_texts     # texts of who is pending: the same anywhere
        other.plans = self.plans
        other.public = self.public
        other.public_words = self.public_words
        other.touched = self.touched
        other.private = dict(self.private)
        return other

    def __deepcopy__(self, memo) -> "Recall":
        return self.copy()

    def __reduce__(self):
        # pickled flat: the nested pairs would be as deep as the game is long
        steps = []
        node = self.chain
        while node is not None:
            steps.append(node[:3])
            node = node[3]
        digest, count, log, pieces = self.public
        private = {v: (p.digest, _flatten(p.pieces), p.seen) for v, p in self.private.items()}
        return (_recall, (self.encoder, steps, self.count, self.read,
                          (digest, count, log, _flatten(pieces)), private))

    def step(self, game) -> None:
        """Note the step just taken: the log's end, who is pending (public), what each
        pending player is shown (its view's ``decision``: the supply cards passed to it, the
        navigation cards it chooses from), each as text."""
        pending = tuple(game.pending)
        texts = self.pending_texts
        text = texts.get(pending)
        if text is None:
            if len(texts) > 10_000:
                texts.clear()
            text = texts[pending] = repr([d.data() for d in pending])
        shown = None
        top = game.top
        if top is not None and type(top).private is not Stage.private:
            for decision in pending:
                private = top.private(game, decision.by)
                if private:
                    if shown is None:
                        shown = {}
                    shown[decision.by] = repr(private)
        self.chain = (len(game.log), text, shown, self.chain)
        self.count += 1

    def shown(self, viewer: str):
        """What ``viewer`` is shown at this step (its view's ``decision`` but its kind, as
        text), or None: noted by ``step``."""
        shown = self.chain[2] if self.chain is not None else None
        return None if shown is None else shown.get(viewer)

    def digests(self, game, viewer) -> tuple:
        """``(public digest, own digest or None)`` of ``viewer`` now."""
        if self.public[1] != self.count:
            self._update(game)
        return self.public[0], None if viewer is None else self.private[viewer].digest

    def _update(self, game) -> None:
        """Bring the public record and every player's own record up to date."""
        digest, done, start, pieces = self.public
        if self.count - done == 1:      # asked after every step: the usual case
            steps: list = [self.chain]
        else:
            steps = []
            node = self.chain
            for _ in range(self.count - done):
                steps.append(node)
                node = node[3]
            steps.reverse()
        log, secrets = game.log, game.secrets
        self.read += len(log) - start
        private = self.private
        plans = self.plans
        changed: set = set()      # ``touched``
        name = changed.add
        quiet = True
        for number, (end, pending, shown, _) in enumerate(steps, done + 1):
            texts: list = []        # the step's entries as everyone sees them
            text = texts.append
            extras: dict = {}       # viewer: [(place in the step, the entry as it sees it)]
            for index in range(start, end):
                event = log[index]
                kind = event["type"]
                if kind not in QUIET:
                    quiet = False
                    if kind == "move":
                        zone = event.get("from")
                        if type(zone) is str and ":" in zone:
                            name(zone.partition(":")[2])
                        zone = event.get("to")
                        if type(zone) is str and ":" in zone:
                            name(zone.partition(":")[2])
                    elif kind in NAMING:
                        name(event.get("character"))
                    elif kind in RESEATING:
                        name(EVERYONE)
                secret = secrets.get(index)
                if secret is None:
                    text(event)
                    if kind == "move":
                        self._learn(event, None)
                    continue
                try:
                    plan = plans.get(secret)
                except TypeError:   # a plugin's secret holding lists: read each time
                    plan = None
                if plan is None:
                    plan = self._plan(secret)
                public_hidden, named, flat = plan
                # the event as redact gives it (a copy without the hidden fields), and as
                # events_for shows it to each one the secret names (a narrower audience,
                # ``Secret.more``, may see more: a card's new id)
                if flat:        # top-level fields only: the same entry without a deep copy
                    text({k: v for k, v in event.items() if k not in public_hidden})
                    for viewer, hidden in named.items():
                        seen = {k: v for k, v in event.items() if k not in hidden}
                        extras.setdefault(viewer, []).append((index - start, seen))
                else:
                    text(redact(event, public_hidden))
                    for viewer, hidden in named.items():
                        seen = redact(event, hidden) if hidden else event
                        extras.setdefault(viewer, []).append((index - start, seen))
                if kind == "move":
                    self._learn(event, plan)
            piece = serial((texts, pending))
            digest = _digest(digest, piece)
            pieces = (piece, pieces)
            if shown is not None:
                for viewer in shown:
                    if viewer in private:
                        extras.setdefault(viewer, [])
            for viewer, seen in extras.items():
                record = private[viewer]
                mine = serial((number, seen, None if shown is None else shown.get(viewer)))
                private[viewer] = Private(_digest(record.digest, mine), (mine, record.pieces),
                                          record.seen, record.seen_numbers)
            start = end
        self.public = (digest, self.count, start, pieces)
        self.public_words = None    # made when asked (``numbers``)
        self.touched = (done, self.count, None if EVERYONE in changed else changed, quiet)

    def _plan(self, secret) -> tuple:
        """How ``secret`` reads: ``(the fields hidden from the public, {player: the fields
        hidden from it}``, for each player of the game it names that sees more than the
        public``, whether every hidden field is a top-level one)``. The same for every event
        carrying an equal secret: made once."""
        plans = self.plans
        if len(plans) > 10_000:
            plans.clear()
        public_hidden = secret.hidden_from(None)
        named = {}
        for viewer in _named(secret):
            if viewer in self.private:
                hidden = secret.hidden_from(viewer)
                if hidden != public_hidden:
                    named[viewer] = hidden
        flat = not any("." in field for field in public_hidden)
        plan = (public_hidden, named, flat)
        try:
            plans[secret] = plan
        except TypeError:
            pass
        return plan

    def _learn(self, event: dict, plan) -> None:
        """Each player's ``seen`` after a move (``Encoder.learn``), as the player sees the
        move (``plan``: its secret's ``_plan``, or None). Only those for whom the move may
        tell something are asked: it leaves the hand of another whose cards they follow, or
        it enters another's hand with its kind shown to them."""
        source, target = event.get("from"), event.get("to")
        left = source[5:] if type(source) is str and source.startswith("hand:") else None
        entered = target[5:] if "kind" in event and type(target) is str and \
            target.startswith("hand:") else None
        if left is None and entered is None:
            return
        everyone = False
        if plan is None:
            public_hidden, named = (), {}
        else:
            public_hidden, named, _ = plan
            # a secret of its own (a plugin's, hiding where a card went): ask everyone
            everyone = any(field not in ("card", "kind") for field in public_hidden)
        learn, learn_move = self.encoder.learn, self.encoder.learn_move
        kind = event.get("kind")
        private = self.private
        if everyone:
            asked = private
        elif left is None and "kind" in public_hidden:
            # into a hand with its kind hidden but from those the secret names (a pick):
            # only they may learn something
            asked = [v for v, hidden in named.items() if v != entered and "kind" not in hidden]
            if not asked:
                return
        else:
            asked = private
        for viewer in asked:
            record = private[viewer]
            seen = record.seen
            if seen is None:
                continue
            hidden = named.get(viewer, public_hidden)
            if everyone:
                now = learn(seen, (redact(event, hidden) if hidden else event,), viewer)
            elif (left is not None and left != viewer and left in seen) or \
                    (entered is not None and entered != viewer and "kind" not in hidden):
                # the engine's moves hide their card and kind only: from and to are seen
                now = learn_move(seen, None if "kind" in hidden else kind, source, target,
                                 viewer)
            else:
                continue
            if now is not seen:
                private[viewer] = Private(record.digest, record.pieces, now, record.seen_numbers)

    def seen(self, game, viewer) -> dict:
        """``seen`` of ``viewer``'s memory (worked out from the whole log once, in a resampled
        world)."""
        if self.public[1] != self.count:
            self._update(game)
        record = self.private[viewer]
        if record.seen is None:
            events = game.events_for(viewer)
            self.read += len(events)
            record = self.private[viewer] = Private(record.digest, record.pieces,
                                                    self.encoder.learn({}, events, viewer))
        return record.seen

    def numbers(self, game, viewer) -> tuple:
        """``viewer``'s memory as tensor entries, in two lists: the public digest
        (``DIGEST_WORDS`` numbers, ``_words``), then ``seen`` (C x K, ``Encoder.seen_vector``;
        for the spectator, what everyone saw) and its own digest (the spectator's is 0)."""
        if self.public[1] != self.count:
            self._update(game)
        if self.public_words is None:
            self.public_words = _words(self.public[0])
        if viewer is None:
            return self.public_words, \
                self.encoder.seen_vector(self.public_seen(game)) + [0.0] * DIGEST_WORDS
        seen = self.seen(game, viewer)
        record = self.private[viewer]
        if record.words is None or record.seen_numbers[0] is not seen:
            record.seen_numbers = (seen, self.encoder.seen_vector(seen))
            record.words = record.seen_numbers[1] + _words(record.digest)
        return self.public_words, record.words

    def public_seen(self, game) -> dict:
        """``seen`` for the spectator: the kinds everyone saw go into each hand (worked out
        from the whole public log: the public observer is seldom asked)."""
        events = game.events_for(None)
        self.read += len(events)
        return self.encoder.learn({}, events, None)

    def resampled(self, game, keep: str) -> "Recall":
        """The recall of ``game``, a world dealt again for ``keep`` (``Game.determinize``):
        the public record and ``keep``'s own are this one's (the world shows them the same);
        the world has no past of its own for the others, whose own record starts again from
        what they hold in it now."""
        other = self.copy()
        if other.public[1] != other.count:
            other._update(game)
        kinds = game.state.table.kinds
        for viewer in list(other.private):
            if viewer == keep:
                continue
            me = game.state.characters[viewer]
            piece = _piece([other.count, "resampled", viewer, me.love, me.hate,
                            [kinds[c] for c in me.hand], decision_of(game, viewer)])
            other.private[viewer] = Private(_digest(b"", piece), (piece, None), None)
        return other

    def transcript(self, game, viewer) -> list:
        """What ``viewer``'s digest is made of, read back (``piece_value``): the public
        pieces, oldest first (the opening text, then each step's ``(entries, who was
        pending)``), then for a player its own pieces (the opening text, then ``(step,
        [(place in the step, entry as it saw it)], what it was shown or None)``)."""
        if self.public[1] != self.count:
            self._update(game)
        out = _flatten(self.public[3])
        if viewer is not None:
            out += _flatten(self.private[viewer].pieces)
        return [piece_value(piece) for piece in out]


def _named(secret) -> list:
    """Every character a secret or its narrower secrets (``Secret.more``) name, once each."""
    found: list = []
    while secret is not None:
        found.extend(c for c in secret.audience if c not in found)
        secret = secret.more
    return found


def _flatten(pieces) -> list:
    out = []
    while pieces is not None:
        out.append(pieces[0])
        pieces = pieces[1]
    out.reverse()
    return out


def _nest(pieces: list):
    nested = None
    for piece in pieces:
        nested = (piece, nested)
    return nested


def _recall(encoder: "Encoder", steps: list, count: int, read: int, public: tuple,
            private: dict) -> Recall:
    recall = Recall.__new__(Recall)
    recall.encoder = encoder
    chain = None
    for end, pending, shown in reversed(steps):
        chain = (end, pending, shown, chain)
    recall.chain, recall.count, recall.read = chain, count, read
    recall.pending_texts = encoder.pending_texts
    recall.plans = encoder.plans_for(list(private))
    digest, done, log, pieces = public
    recall.public = (digest, done, log, _nest(pieces))
    recall.private = {v: Private(d, _nest(pieces), seen) for v, (d, pieces, seen) in private.items()}
    recall.public_words = _words(digest)
    recall.touched = (-1, -1, None, False)
    return recall
