"""SearchBot: information-set Monte Carlo search over ``game.determinize`` (docs/agents.md).

For a decision of character ``c`` the bot

1. lists ``c``'s moves and keeps the few the heuristic (``heuristic.Mind``) likes best
   (``candidates``; free moves only where a window takes them as its action; one move of each
   set that differs only in which card of a kind it uses), so that the samples go where the
   choice is;
2. samples worlds consistent with what ``c`` knows: ``game.determinize(c, seed)`` deals again
   the other hands, their love and hate, the decks (and seeds the game's random generator
   again, so no world knows the real future);
3. in each world plays every kept move, then ``HeuristicBot`` for everyone to the end of the
   round (``rounds``), and scores the world for ``c``: at the end of the game its share of the
   win, before it a soft maximum of the expected final scores (``value``: R-SCORE's parts
   with each survival weighted by a chance measured from heuristic games);
4. takes the move with the best mean. Every move is tried in the same worlds with the same
   dice (common random numbers), so that the comparison is between moves, not between worlds.

Scoring the world after a round rather than at the end of the game trades a little bias for
much less noise: the next navigation card, a fight, a robbery decide most of what a move does,
and a whole game played out adds ten rounds of dice on top.

The budget is ``rollouts`` worlds a decision, or ``budget`` CPU seconds, whichever ends first.
The seconds are a hard bound: the clock is read before every move of a playout and before
every world is dealt, and at the deadline the world being played is abandoned (a world counts
only once every kept move has been played out in it). So a decision runs past its budget by
at most one engine move or one deal, never by a playout. If no world was finished in time the
bot takes the heuristic's favourite. A decision with one move, or one move worth a search,
costs nothing.
"""

from __future__ import annotations

import math
import random
import time
from typing import TYPE_CHECKING, Callable

from .heuristic import HeuristicBot, Mind
from .rules.scoring import treasure
from .stages import Window

if TYPE_CHECKING:
    from .actions import ActionType
    from .engine import Game
    from .types import Action

MAX_ROLLOUT_DECISIONS = 3_000     # a game that runs longer is cut off and scored as it stands


class SearchBot:
    """Information-set Monte Carlo search (see the module's docstring).

    ``budget``: CPU seconds of this process a decision at most (``time.process_time``: on a
    shared machine the bot plays the same whatever the load), a hard bound (see the module's
    docstring); ``rollouts``: worlds a decision at most (None: only the time counts); ``candidates``: moves searched (the heuristic's best
    ones); ``rounds``: how far each world is played before it is scored (None: to the end of
    the game); ``temperature``: how much a point of expected lead is worth (``value``);
    ``clock``: the seconds the budget is counted in (``time.process_time``; a test gives a
    fake one).
    """

    def __init__(self, seed: int | None = None, budget: float = 0.45, rollouts: int | None = 4,
                 candidates: int = 3, rounds: int | None = 1, temperature: float = 3.0,
                 clock: Callable[[], float] = time.process_time) -> None:
        self.random = random.Random(seed)
        self.clock = clock
        self.budget = budget
        self.rollouts = rollouts
        self.candidates = candidates
        self.rounds = rounds
        self.temperature = temperature
        self.last: dict = {}      # what the last search found: moves, means, worlds, seconds

    def choose(self, game: Game, character: str) -> Action:
        """One of ``game.legal_actions(character)``."""
        atype, values = self.choose_move(game, character)
        return game.action_dict(atype, character, values)

    def choose_move(self, game: Game, character: str) -> tuple[ActionType, tuple[object, ...]]:
        clock = self.clock
        began = clock()
        moves = game.moves(character)
        self.last = {"worlds": 0, "seconds": 0.0}
        if len(moves) == 1:
            return moves[0]
        kept = self.shortlist(game, character, moves)
        if len(kept) == 1:
            return kept[0]
        encode = game.space.encoders
        ids = [encode[atype.name](game, character, values) for atype, values in kept]
        totals = [0.0] * len(kept)
        worlds = 0
        deadline = began + self.budget
        while self.rollouts is None or worlds < self.rollouts:
            if clock() >= deadline:
                break
            seed = self.random.getrandbits(62)
            world = game.determinize(character, seed)
            values = []
            for number in ids:
                if clock() >= deadline:
                    break       # out of time: a world half played is left out
                sample = world.clone()
                sample.apply_id(character, number)
                result = self._playout(sample, character, seed, deadline)
                if result is None:
                    break
                values.append(result)
            if len(values) < len(ids):
                break
            totals = [t + v for t, v in zip(totals, values)]
            worlds += 1
        if worlds:
            means = [t / worlds for t in totals]
            best = max(range(len(kept)), key=lambda i: (means[i], -i))
        else:
            means, best = [], 0         # no world in time: the heuristic's favourite
        self.last = {"moves": [game.action_dict(a, character, v) for a, v in kept],
                     "means": means, "worlds": worlds, "seconds": clock() - began}
        return kept[best]

    def shortlist(self, game, character: str, moves: list) -> list:
        """The moves worth a search: the heuristic's best ``candidates`` decisions (free moves
        only where the window takes them as its action: a weapon in a fight, the life
        preserver overboard), one of each set of moves that differ only in which card of a
        kind they use, the heuristic's favourite first."""
        top = game.top
        window = top if isinstance(top, Window) else None
        kinds = game.state.table.kinds
        mind = Mind(game, character)
        scored, seen = [], set()
        for atype, values in moves:
            claimed = window is not None and window.claims(game, atype, character, values)
            if atype.free and not claimed:
                continue
            key = (atype.name, tuple(_kind_of(v, kinds) for v in values))
            if key in seen:
                continue
            seen.add(key)
            score = mind.score((atype, values)) + self.random.random() * 1e-3
            scored.append((score, atype, values))
        if not scored:
            return [moves[0]]
        scored.sort(key=lambda item: -item[0])
        return [(atype, values) for _, atype, values in scored[:self.candidates]]

    def _playout(self, game, me: str, seed: int, deadline: float) -> float | None:
        """Play the world on with the heuristic for everyone, to the end of the game or of
        the ``rounds``-th round from now; ``me``'s value there, or None if the clock reaches
        ``deadline`` first (read before every move)."""
        bot = HeuristicBot(seed)
        clock = self.clock
        timed = deadline != math.inf    # a bot counting worlds only (the lab's) reads no clock
        encode = game.space.encoders
        state = game.state
        stop = None if self.rounds is None else state.round + self.rounds
        for _ in range(MAX_ROLLOUT_DECISIONS):
            if state.over or (stop is not None and state.round >= stop):
                break
            if timed and clock() >= deadline:
                return None
            who = game.pending[0].by
            atype, values = bot.choose_move(game, who)
            game.apply_id(who, encode[atype.name](game, who, values))
            state = game.state
        return value(game, me, self.temperature)


def _kind_of(value, kinds: dict):
    """A move's value with provision cards named by kind (cards of a kind do the same)."""
    if type(value) is str:
        return kinds.get(value, value)
    if type(value) is list:
        return tuple(kinds.get(v, v) if type(v) is str else v for v in value)
    return value


def survival_chance(game, who: str) -> float:
    """The chance that a character survives to the end (R-SCORE-1), from its margin of blows
    before it is knocked out, the seagulls on the table and its water: a table measured over
    600 games between heuristic bots (benchmarks/agents.py --survival prints it again)."""
    character = game.state.characters[who]
    if character.lost or character.damage > character.size:
        return 0.0
    if game.state.over:
        return 1.0
    margin = min(character.size - character.damage, len(SURVIVAL) - 1)
    seagulls = min(game.state.seagulls, 3)
    kinds, provisions = game.state.table.kinds, game.rules.content.provisions
    water = sum(1 for c in character.hand + character.front if provisions[kinds[c]].quenches)
    return min(1.0, SURVIVAL[margin][seagulls] + 0.05 * min(water, 2))


# survival_chance by margin (0..8+) and seagulls (0..3), without water (smoothed so that it
# never falls as the margin or the seagulls grow)
SURVIVAL = [[0.05, 0.12, 0.24, 0.60],
            [0.23, 0.29, 0.48, 0.80],
            [0.39, 0.50, 0.67, 0.89],
            [0.56, 0.63, 0.80, 0.95],
            [0.66, 0.71, 0.88, 0.97],
            [0.68, 0.78, 0.92, 0.98],
            [0.74, 0.83, 0.95, 0.99],
            [0.78, 0.87, 0.96, 0.99],
            [0.83, 0.90, 0.97, 0.99]]


def expected_scores(game) -> dict:
    """Each player's score at the end as expected now: R-SCORE's parts with every survival
    weighted by its chance (``survival_chance``)."""
    chars = game.state.characters
    alive = {who: survival_chance(game, who) for who in chars}
    out = {}
    for who, me in chars.items():
        total = 0.0
        if me.hate != who:
            total += me.survival * alive[who]
            if me.hate is not None and me.hate in chars:
                total += chars[me.hate].size * (1.0 - alive[me.hate])
        else:
            total += sum(c.size * (1.0 - alive[c.id]) for c in chars.values() if c.id != who)
        if not me.lost:
            total += treasure(game, who)
        if me.love is not None and me.love in chars:
            total += chars[me.love].survival * alive[me.love]
        out[who] = total
    return out


def value(game, me: str, temperature: float) -> float:
    """``me``'s share of the win: exact at the end of the game, else a soft maximum of the
    expected scores (``temperature``: how much a point of lead is worth)."""
    if game.over:
        winners = game.result["winners"]
        return 1.0 / len(winners) if me in winners else 0.0
    scores = expected_scores(game)
    top = max(scores.values())
    weights = {who: math.exp((s - top) / temperature) for who, s in scores.items()}
    return weights[me] / sum(weights.values())
