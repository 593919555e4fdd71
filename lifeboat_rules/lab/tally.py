"""Counting games: win shares, scores, rounds and end causes (standard library only).

Ties share the win (R-SCORE-8): each of ``k`` winners gets a share of ``1/k``, so the wins of
all characters add up to the number of games. Shares are counted exactly, as whole multiples
of ``1/unit`` where ``unit`` is the least common multiple of 1 .. players.
"""

from __future__ import annotations

import math
from array import array
from collections import Counter

from .runner import ENDS


class Count:
    """Games played and win shares (in units) of one character, seat or bot."""

    __slots__ = ("games", "units")

    def __init__(self):
        self.games = 0
        self.units = 0


class Tally:
    """Everything a summary says about one ruleset's games, added one row at a time in seed
    order (so that the sums, and the summary, are the same however the games were run)."""

    def __init__(self, players: int, order=(), count=()):
        self.players = players
        self.unit = math.lcm(*range(1, players + 1))
        self.games = 0
        self.characters: dict = {c: Count() for c in order}
        self.scores: dict = {c: 0 for c in order}
        self.parts: dict = {c: {} for c in order}
        # the score parts, in the order the games first name them: the base game's four
        # (R-SCORE) and any a plugin's lifeboat_score wrapper adds, which no fixed list knows
        self.part_names: dict = {}
        self.seats = [Count() for _ in range(players)]
        self.bots: dict = {}
        self.rounds: Counter = Counter()
        self.ends: Counter = Counter(dict.fromkeys(ENDS, 0))
        self.decisions = 0
        self.failed: list = []          # games a plugin stopped (--keep-going), in seed order
        self.counts: dict = dict.fromkeys(count, 0)        # events counted, over all games
        self.happened: dict = dict.fromkeys(count, 0)      # games in which they happened

    def add(self, row: dict) -> dict:
        """Count one game; returns each character's win share in units."""
        self.games += 1
        winners = row["winners"]
        share = self.unit // len(winners) if winners else 0
        units = {}
        for seat, character in enumerate(row["seats"]):
            won = share if character in winners else 0
            units[character] = won
            for count in (self.characters.setdefault(character, Count()), self.seats[seat],
                          self.bots.setdefault(row["bots"][seat], Count())):
                count.games += 1
                count.units += won
            self.scores[character] = self.scores.get(character, 0) + row["scores"][character]
            parts = self.parts.setdefault(character, {})
            for part, value in row["parts"][character].items():
                parts[part] = parts.get(part, 0) + value
                self.part_names.setdefault(part, None)
        self.rounds[row["rounds"]] += 1
        self.ends[row["end"]] += 1
        self.decisions += row["decisions"]
        for name, n in row.get("counts", {}).items():
            self.counts[name] = self.counts.get(name, 0) + n
            self.happened[name] = self.happened.get(name, 0) + (n > 0)
        return units

    def fail(self, row: dict) -> None:
        """Count a game a plugin stopped: apart, in none of the other numbers."""
        self.failed.append(row["failed"])

    def wins(self, count: Count) -> float:
        return count.units / self.unit


class Pairs:
    """The paired win shares of each character under two rulesets, game by game (for games in
    which the character is dealt under both)."""

    def __init__(self, unit: int):
        self.unit = unit
        self.shares: dict = {}          # character -> ([share under A], [share under B])

    def add(self, units_a: dict, units_b: dict) -> None:
        for character, a in units_a.items():
            if character in units_b:
                first, second = self.shares.setdefault(character, (array("d"), array("d")))
                first.append(a / self.unit)
                second.append(units_b[character] / self.unit)


class Restriction:
    """Restricted play: the win share of the restricted seat of each game, unrestricted (the
    study's own game) and restricted (the same seed and seats), by seat and by the character
    in it; and how often the restriction took a move away."""

    def __init__(self, unit: int):
        self.unit = unit
        self.all = (array("d"), array("d"))
        self.characters: dict = {}      # character -> (unrestricted shares, restricted shares)
        self.avoided = 0                # restricted decisions, over all games
        self.bit = 0                    # games in which the restriction took a move away

    def add(self, row: dict, units_free: dict, units_restricted: dict) -> None:
        restricted = row["restricted"]
        character = row["seats"][restricted["seat"]]
        free, bound = units_free[character] / self.unit, units_restricted[character] / self.unit
        for first, second in (self.all, self.characters.setdefault(
                character, (array("d"), array("d")))):
            first.append(free)
            second.append(bound)
        self.avoided += restricted["avoided"]
        self.bit += restricted["avoided"] > 0
