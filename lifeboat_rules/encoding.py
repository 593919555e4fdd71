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

``knowledge`` (information state only) appends ``seen``: per character, the kinds (K counts/3)
of the cards in its hand that ``c`` has seen.
"""

from __future__ import annotations

from .determinize import known_cards

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
        self.knowledge_size = C * K
        self.char_index = {c: i for i, c in enumerate(self.characters)}
        self.kind_index = {k: i for i, k in enumerate(self.kinds)}
        self.nav_index = {n: i for i, n in enumerate(self.navcards)}

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
        """What ``character``'s player sees now, as ``size`` numbers in [0, 1]."""
        view = game.view(character)
        out = [0.0] * self.size
        C, K, N, S = len(self.characters), len(self.kinds), len(self.navcards), self.seats
        chars = self.char_index
        part = {name: offset for name, offset, _ in self._layout}
        self._one(out, part["me"], chars, character)
        self._one(out, part["love"], chars, view.get("love"))
        self._one(out, part["hate"], chars, view.get("hate"))
        seats = view["seats"]
        pending = {d["by"] for d in view["pending"]}
        block = CHARACTER_FLAGS + S + K
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
            if who == character:
                self._count(out, part["hand"], [c["kind"] for c in entry.get("hand", ())])
        base = part["board"]
        out[base] = min(view["round"] / 20, 1.0)
        out[base + 1] = min(view["seagulls"] / self.landing, 1.0)
        self._one(out, base + 2, {p: i for i, p in enumerate(PHASES)}, view["phase"])
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
        decision = view.get("decision")
        if decision is not None:
            base = part["decision"]
            kind = decision.get("kind")
            out[base + (DECISIONS.index(kind) if kind in DECISIONS else len(DECISIONS))] = 1.0
            base += len(DECISIONS) + 1
            cards = decision.get("cards", ())
            self._count(out, base, [c["kind"] for c in cards if "kind" in c])
            for card in cards:
                if "seagull" in card:
                    self._one(out, base + K, self.nav_index, card["id"])
        self._stage(out, part["stage"], view.get("stage"))
        return out

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

    def knowledge(self, game, character: str) -> list:
        """``seen``: per character, the kinds of the cards in its hand that ``character``'s
        player has seen (from its log and view: ``determinize.known_cards``)."""
        K = len(self.kinds)
        out = [0.0] * self.knowledge_size
        known = known_cards(game, character, game.events_for(character), game.view(character))
        kinds = game.state.table.kinds
        for who, other in game.state.characters.items():
            i = self.char_index.get(who)
            if i is None or who == character:
                continue
            self._count(out, i * K, [kinds[c] for c in other.hand if c in known])
        return out
