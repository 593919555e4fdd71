"""Lifeboat as an OpenSpiel game: ``import lifeboat_rules.openspiel`` registers
``python_lifeboat`` (docs/agents.md).

Needs the optional extra ``rl`` (``pip install '.[rl]'`` in the source folder: open_spiel, numpy); the
core does not import this module.

    import pyspiel
    import lifeboat_rules.openspiel  # registers the game
    game = pyspiel.load_game("python_lifeboat", {"ruleset": "classic", "players": 6})

* Parameters: ``ruleset`` (a built-in name or a YAML path, default ``classic``), ``players``
  (default 6), ``reward`` (``win``: each winner's share of the win, 1 or 1/k for a k-way tie,
  the default; ``score``: the final scores, R-SCORE).
* Players 0 .. n-1 are the seats at the deal, bow to stern. The player to move is the one of
  the first pending decision (``game.pending[0]``); its legal actions are its integer
  actions (``Game.legal_ids``), free moves included.
* Chance: explicit (``EXPLICIT_STOCHASTIC``). Four chance nodes open the game; each draws one
  byte (256 outcomes, each 1/256) of the deal seed, so the deal is one of 2**32 seeds, drawn
  uniformly. The seed fixes everything random in a game of Lifeboat: the characters, love and
  hate cards, both decks, and the game's own generator, which later draws the random hand card
  of a robbery (R-ROB-3). So after the deal every transition is a function of the state and
  the action, and the state is a function of its history, which is what OpenSpiel's
  serialization, replay and tree searches need; the chance nodes stay small enough to list.
  (A sampled-stochastic game would hide the deal inside the state, and explicit nodes for
  every shuffle would need thousands of chance steps a game.) Note that a state knows its
  future: a search over true states (OpenSpiel's MCTS) sees the deck; over information sets,
  use ``Game.determinize`` (``lifeboat_rules.search``).
* Observation (``observation_tensor``/``observation_string``): ``encoding.Encoder``'s vector,
  and the player's view as JSON (``Game.view``). Tensors are float32 numpy arrays, a new one
  at each call (an information-state tensor: its player's row of a copy of every player's
  made once a step, which no other call hands out).
* Information state (perfect recall): two chained 128-bit digests (``encoding.Recall``), the
  public record (one piece a step: the log entries everyone saw, with their secret fields left
  out, and who was pending) and the player's own (its character, love and hate, then what
  only it saw, each piece with its step: the secret fields it was let see, the decision it
  was shown, such as the supply cards passed to it and the navigation cards it chose from).
  Together they give back exactly its view and log (``Game.events_for``) at every step. The
  string is the player, its character, the step and both digests; the tensor is the
  observation vector, ``public_recall`` (the public digest as 8 numbers of 16 bits, k /
  65536), ``seen`` (the kinds the player saw go into other hands) and ``recall`` (its own
  digest, 8 numbers). So two histories the player can tell apart give different strings and
  tensors, and two it cannot give equal ones (up to a collision, odds about 2**-128). Both
  are kept up to date step by step: a step notes who is pending and what each is shown, and
  asking for an information state reads only the log entries added since the last time, once
  for all the players, so its cost does not grow with the game. Every player's tensors are
  kept in a numpy row of its own (``Tensors``), and a step writes only the parts whose
  sources changed (``rl_environment`` asks every player's after every step).
  ``LifeboatState.transcript(player)`` lists the pieces.
* ``resample_from_infostate(player, sampler)``: a world dealt again through
  ``Game.determinize`` (its seed from ``sampler``), with the same information state for
  ``player``; OpenSpiel's ``ISMCTSBot`` plays the game as it is. The world has no step-by-step
  past of its own: the others remember the public record and what they hold in it.
* Observers (``make_py_observer``/``pyspiel.make_observer``): the player's own
  (``private_info=SINGLE_PLAYER``, the default) or public facts only (``private_info=NONE``,
  ``public_info=True``: the spectator's view, and with ``perfect_recall`` the public record).
* Rewards: ``win`` is constant-sum (the shares add up to 1); ``score`` is general-sum, from 0
  to ``max_score``, the best total the content allows.
* Who is pending follows the ruleset: the default (R-WIN-2, public facts only), or
  ``window_pending: holders`` as given (R-WIN-3: it tells who holds what, and so does
  ``current_player``).
"""

from __future__ import annotations

import json
import math
import struct
from itertools import combinations

import numpy as np
import pyspiel

import lifeboat_rules as lr
from .encoding import CHARACTER_FLAGS, DIGEST_WORDS, RECALL_WORDS, Encoder, Recall, \
    decision_of

NAME = "python_lifeboat"
SEED_BYTES = 4
MAX_GAME_LENGTH = 10_000
DEFAULTS = {"ruleset": "classic", "players": 6, "reward": "win"}



def game_type(utility) -> pyspiel.GameType:
    return pyspiel.GameType(
        short_name=NAME,
        long_name="Python Lifeboat",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=utility,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=8,
        min_num_players=2,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=DEFAULTS)


# reward "win" (the default): the shares of the win add up to 1 in every game
GAME_TYPE = game_type(pyspiel.GameType.Utility.CONSTANT_SUM)
SCORE_TYPE = game_type(pyspiel.GameType.Utility.GENERAL_SUM)


def max_treasure(content, character) -> int:
    """R-SCORE-3: the most treasure ``character`` can score: every treasure card in its hand
    and in front of it, a set group at its best count, its ability's group doubled."""
    groups: dict = {}
    for info in content.provisions.values():
        if info.treasure_group is None:
            continue
        entry = groups.setdefault(info.treasure_group, {"points": 0, "cards": 0, "set": None})
        if info.treasure_set:
            entry["cards"] += info.count
            entry["set"] = info.treasure_set
        else:
            entry["points"] += info.treasure_points * info.count
    total = 0
    for group, entry in groups.items():
        value = entry["points"]
        if entry["set"]:
            table = entry["set"]
            value += max(table[min(n, len(table) - 1)] for n in range(entry["cards"] + 1))
        total += 2 * value if group == character.double_treasure else value
    return total


def max_score(ruleset, players: int) -> float:
    """The best total any player can reach (R-SCORE), over every character it may play, every
    love and hate card it may hold, and every set of ``players`` characters in play (R-SETUP-2,
    R-SETUP-4: the love and hate cards name characters in play):

    * its treasure, all of it, its ability's group doubled (``max_treasure``, R-SCORE-3);
    * loving another that survives: its survival; hating another that died: its size
      (R-SCORE-4); both on the same other: the better of the two (R-SCORE-7);
    * loving itself: its survival twice (R-SCORE-5);
    * hating itself: no survival of its own, the size of every other character that died
      (R-SCORE-6), so every other character in play but a loved one that survives; loving
      itself too, its survival once.

    Every character's fate is free here (any may survive or die), which a game can reach. A
    ruleset whose plugins score their own way (``lifeboat_score``) has no bound the content
    can tell: infinity."""
    rules = ruleset.rules
    if rules.score_hook is not None:
        return math.inf
    content = ruleset.content
    chars = content.characters
    best = 0
    for me, info in chars.items():
        others = [c for c in chars if c != me]
        for company in combinations(others, players - 1):
            treasure = max_treasure(content, info)
            for love in (me,) + company:
                for hate in (me,) + company:
                    total = treasure
                    if hate == me:                                   # R-SCORE-6
                        died = [c for c in company if c != love]
                        total += sum(chars[c].size for c in died)
                        total += chars[love].survival               # R-SCORE-4 / -5 once
                        if love != me:
                            # the loved one may die instead: its size, not its survival
                            total = max(total, treasure + sum(chars[c].size for c in company))
                    elif love == me:                                 # R-SCORE-5
                        total += 2 * info.survival + chars[hate].size
                    elif love == hate:                               # R-SCORE-7
                        total += info.survival + max(chars[love].survival, chars[love].size)
                    else:                                            # R-SCORE-2, -4
                        total += info.survival + chars[love].survival + chars[hate].size
                    best = max(best, total)
    return float(best)


class LifeboatGame(pyspiel.Game):
    """``python_lifeboat`` (see the module's docstring)."""

    def __init__(self, params=None):
        params = {**DEFAULTS, **(params or {})}
        self.spec = params["ruleset"]
        self.ruleset = lr.load_ruleset(self.spec)
        self.players = int(params["players"])
        self.reward = params["reward"]
        if self.reward not in ("win", "score"):
            raise ValueError(f"reward is 'win' or 'score', not {self.reward!r}")
        sample = lr.new_game(self.ruleset, players=self.players, seed=0)   # checks the count
        self.encoder = Encoder(self.ruleset, self.players)
        self.arrays: dict = {}      # Tensors' parts as arrays, by what they are made of
        win = self.reward == "win"
        info = pyspiel.GameInfo(
            num_distinct_actions=sample.num_actions,
            max_chance_outcomes=256,
            num_players=self.players,
            min_utility=0.0,        # every part of a score is 0 or more (R-SCORE)
            max_utility=1.0 if win else max_score(self.ruleset, self.players),
            utility_sum=1.0 if win else None,
            max_game_length=MAX_GAME_LENGTH)
        self.type = GAME_TYPE if win else SCORE_TYPE
        super().__init__(self.type, info, params)

    def get_type(self) -> pyspiel.GameType:
        """As OpenSpiel's, answered here for Python callers (``rl_environment`` asks it twice
        a step) without making a new one in C++."""
        return self.type

    def new_initial_state(self):
        return LifeboatState(self)

    def make_py_observer(self, iig_obs_type=None, params=None):
        if params:
            raise ValueError(f"python_lifeboat observers take no parameters, not {params}")
        iig_obs_type = iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False)
        return LifeboatObserver(self, iig_obs_type)


class Shared:
    """What states share and never change: the same object in every copy (OpenSpiel's
    ``clone`` deep-copies every attribute of a Python state, and its ``serialize`` pickles
    them: this one pickles as its parameters)."""

    def __init__(self, ruleset, players: int, reward: str, spec, encoder, arrays: dict):
        self.ruleset, self.players, self.reward, self.spec = ruleset, players, reward, spec
        self.encoder = encoder
        self.arrays = arrays

    def __deepcopy__(self, memo):
        return self

    def __reduce__(self):
        return (_shared, (self.spec, self.players, self.reward))


def _shared(spec, players: int, reward: str) -> Shared:
    ruleset = lr.load_ruleset(spec)
    return Shared(ruleset, players, reward, spec, Encoder(ruleset, players), {})


class Dealt:
    """The ``lifeboat_rules`` game of a state: copied with ``Game.clone`` (cheap), pickled as
    its saved game (``Game.to_dict``)."""

    def __init__(self, game):
        self.game = game

    def __deepcopy__(self, memo):
        return Dealt(self.game.clone())

    def __reduce__(self):
        return (_dealt, (self.game.to_dict(),))


def _dealt(data: dict) -> Dealt:
    return Dealt(lr.Game.from_dict(data))


UNWRITTEN = object()    # a part of ``Tensors`` not written yet
PACKAGE = "lifeboat_rules."
# the stage classes of the package's own rules: True when the ``stage`` part shows them as
# zeros (their public kind is not one it shows), found when first met
SILENT: dict = {}
DECIDING: dict = {}     # who is pending (``Game.pending``, a tuple): who decides what


class Tensors:
    """Every player's observation and information-state tensor, kept up to date step by step
    (``LifeboatState.information_state_tensor``): one numpy row per player, and a player's
    tensor its row of a copy made once a step (``hand_out``). After a step, ``refresh``
    writes only the parts whose sources may have changed, as the step's events tell
    (``Recall.touched``): into every row, a character's block when what it shows changes, who
    is pending, the board, the stage, and the public digest (every step); into a player's own
    row, its hand, its decision and its memory (``encoding.Recall``) when they changed; each
    part through a view of it made once (``_make_parts``). A copy starts empty and is written
    whole when first asked (``written`` counts the parts written, for the tests)."""

    def __init__(self):
        self.step = -1              # the step (``Recall.count``) written, -1: nothing yet
        self.rows = None            # numpy array, a row per player, made when first asked
        self.views: list = []       # each row
        self.roster: tuple = ()     # the characters in play, as written
        self.members: list = []     # (character, where its block starts)
        self.blocks: dict = {}      # character: what its block's parts were written from
        self.pending: set = set()   # who was pending, as written
        self.seats: list = []
        self.at: dict = {}          # character: its place in ``seats``
        self.board = self.discard = self.current = self.stage = self.top = UNWRITTEN
        self.mine: list = []        # per player: [love and hate, hand, decision, seen, digest]
        self.player: dict = {}      # character: its player
        # as last looked at: each player's record (``Recall.private``), who was deciding what,
        # what each was shown (``Recall.shown``), whether a stage was on top
        self.records: dict = {}
        self.deciding: dict = {}
        self.shown = None
        self.staged = None
        # the parts as views of the rows (``_make_parts``)
        self.common: dict = {}
        self.block: dict = {}
        self.own: list = []
        self.written = 0
        # this step's tensors not handed out yet, by player: the rows copied once a step,
        # each player's row of the copy handed out once (nobody else holds or writes it; a
        # tensor asked again in the same step is a copy of its own); emptied by a move
        self.handed: dict = {}

    def hand_out(self, player: int):
        """``player``'s row of this step as an array of its own."""
        values = self.handed.pop(player, None)
        return self.views[player].copy() if values is None else values

    def __deepcopy__(self, memo):
        return Tensors()

    def _make_parts(self, encoder: Encoder) -> None:
        """Each part of the rows as a view of its own, made once (writing into a view is
        cheaper than into a slice of the rows): the public parts of every row at once
        (``common``; ``block``: each character's flags, pending flag, seat and front), and
        each player's own parts (``own``: love and hate, hand, decision, own digest, and its
        memory of each character)."""
        rows, part, S, K = self.rows, encoder.part, encoder.seats, len(encoder.kinds)
        F = CHARACTER_FLAGS
        board = part["board"]
        self.common = {
            "board": rows[:, board:board + encoder.board_size - K],
            "discard": rows[:, board + encoder.board_size - K:board + encoder.board_size],
            "current": rows[:, part["current"]:part["current"] + len(encoder.navcards)],
            "stage": rows[:, part["stage"]:part["stage"] + encoder.stage_size],
            "digest": rows[:, encoder.size:encoder.size + DIGEST_WORDS]}
        self.block = {who: (rows[:, base:base + F], rows[:, base + F - 1],
                            rows[:, base + F:base + F + S],
                            rows[:, base + F + S:base + encoder.block])
                      for who, base in self.members}
        memory = encoder.size + DIGEST_WORDS
        mark = memory + encoder.knowledge_size
        C = len(encoder.characters)
        self.own = [(row[part["me"]:part["me"] + 3 * C], row[part["hand"]:part["hand"] + K],
                     row[part["decision"]:part["decision"] + encoder.decision_size], row[mark:],
                     [row[memory + i * K:memory + (i + 1) * K] for i in range(C)])
                    for row in self.views]

    def __reduce__(self):
        return (Tensors, ())

    def refresh(self, state: "LifeboatState") -> None:
        """Bring every player's tensor to ``state``'s step."""
        shared = state.shared
        encoder = shared.encoder
        recall = state.recall
        game = state.dealt.game
        recall.digests(game, None)              # the records up to date
        table = game.state
        if self.rows is None or len(self.roster) != len(table.characters):
            self.__dict__.update(Tensors().__dict__, written=self.written)
            size = encoder.size + encoder.knowledge_size + RECALL_WORDS
            self.rows = np.zeros((shared.players, size), np.float32)
            self.views = list(self.rows)                    # a player's row, as a view
            self.roster = tuple(table.characters)
            start, block = encoder.part["characters"], encoder.block
            self.members = [(who, start + encoder.char_index[who] * block)
                            for who in self.roster if who in encoder.char_index]
            self.blocks = dict.fromkeys(self.roster, UNWRITTEN)
            self.mine = [[UNWRITTEN] * 5 for _ in state.seats]
            self.player = {who: i for i, who in enumerate(state.seats)}
            self._make_parts(encoder)
        arrays = shared.arrays
        if len(arrays) > 100_000:
            arrays.clear()
        # character: the kind of its first pending decision (never changed: shared)
        pending = tuple(game.pending)
        deciding = DECIDING.get(pending)
        if deciding is None:
            if len(DECIDING) > 10_000:
                DECIDING.clear()
            deciding = DECIDING[pending] = {}
            for decision in pending:
                deciding.setdefault(decision.by, decision.kind)
        named = self._public(encoder, game, table, deciding.keys(), arrays, recall)
        self._own(state, encoder, game, table, deciding, arrays, named)
        self.step = recall.count
        self.handed = dict(enumerate(self.rows.copy()))

    def _public(self, encoder, game, table, pending, arrays: dict, recall):
        """Write the public parts; the characters named by the events since the last time
        (None: any may have changed)."""
        blocks, characters = self.blocks, table.characters
        written = 0
        members = self.block        # the characters whose blocks are looked at: all
        named = None
        quiet = False       # only events that change no board and no stage since the last time
        touched = recall.touched
        if self.step >= 0 and touched[0] == self.step and touched[1] == recall.count and \
                not game.rules.guarded:
            # the package's own rules change a character only through effects that log an
            # event naming it (effects.py: damage, heal, lose, mark, move, swap_seats): only
            # those named since the last time are looked at (with code from outside, or when
            # the record's last update began elsewhere, all)
            named, quiet = touched[2], touched[3]
            if named is not None:
                members = [who for who in named if who in self.block] if named else ()
                # who is pending changed for others too: their pending flag alone (the last
                # of a block's flags)
                if pending != self.pending:
                    block = self.block
                    for who in pending ^ self.pending:
                        last = blocks.get(who, UNWRITTEN)
                        if who in named or last is UNWRITTEN:
                            continue
                        now = who in pending
                        last[0] = last[0][:-1] + (now,)
                        block[who][1].fill(1.0 if now else 0.0)
                        written += 1
        if named is None and self.seats != table.seats:    # seats change by "seats" events
            self.seats = table.seats[:]
            self.at = {who: i for i, who in enumerate(self.seats)}
        if pending != self.pending:
            self.pending = set(pending)
        if members:
            at, kinds, block = self.at, table.table.kinds, self.block
            for who in members:
                ch = characters[who]
                # a block in three parts, each written when what it shows changed: the flags
                # (who is pending among them), the seat, the front (by card ids: the same game
                # throughout)
                flags = (ch.status, ch.lost, ch.ghost, ch.size, ch.damage, ch.survival,
                         len(ch.hand), tuple(ch.markers), who in pending)
                last = blocks[who]
                if last is UNWRITTEN:
                    last = blocks[who] = [UNWRITTEN] * 3
                if last[0] != flags:
                    last[0] = flags
                    block[who][0][...] = _array(arrays, flags, encoder.flags, *flags)
                    written += 1
                seat = at.get(who)
                if last[1] != seat:
                    last[1] = seat
                    block[who][2][...] = encoder.seat(seat)
                    written += 1
                if last[2] != ch.front:
                    last[2] = ch.front[:]
                    front = ("front", *sorted(kinds[c] for c in ch.front))
                    block[who][3][...] = _array(arrays, front, encoder.front, front[1:])
                    written += 1
        top = game.top
        common = self.common
        if not quiet:
            key = (table.round, table.seagulls, table.phase, len(table.supply),
                   len(table.navigation), len(table.rowing_pile), len(table.removed))
            if self.board != key:
                self.board = key
                common["board"][...] = encoder.counters(table)
                written += 1
            if self.discard != table.discard:
                self.discard = table.discard[:]
                common["discard"][...] = encoder.discard(table)
                written += 1
            if self.current != table.current:
                self.current = table.current
                common["current"][...] = encoder.current(table)
                written += 1
        if not quiet or top is not self.top:
            stage = _shown_stage(game, top, encoder)
            self.top = top
            key = encoder.stage_key(stage)
            if self.stage is UNWRITTEN or self.stage != key:
                self.stage = key
                common["stage"][...] = _array(arrays, ("stage", key), encoder.stage, stage)
                written += 1
        common["digest"][...] = digest_numbers(recall.public[0])
        self.written += written + 1
        return named

    def _own(self, state, encoder, game, table, deciding: dict, arrays: dict, named) -> None:
        """Write each player's own parts (``named``: the characters the events since the
        last time name, None: any). Each part is looked at only for the players for whom it
        may have changed: the hand for those named (a hand changes only by a move naming it,
        love and hate only at the deal, in the package's own rules), the decision for those
        whose kind of decision or what they are shown changed, the memory for those whose
        record changed (records are replaced when they change)."""
        recall = state.recall
        private = recall.private
        top = game.top
        shown = recall.chain[2] if recall.chain is not None else None   # ``Recall.shown``
        player = self.player
        if named is None or (top is None) is not self.staged:
            hands = deciders = remembering = player
        else:
            hands = [who for who in named if who in player] if named else ()
            before = self.deciding
            deciders = set()
            if deciding != before:
                for who in deciding.keys() | before.keys():
                    if deciding.get(who) != before.get(who):
                        deciders.add(who)
            if shown != self.shown:
                now, then = shown or {}, self.shown or {}
                for who in now.keys() | then.keys():
                    if now.get(who) != then.get(who):
                        deciders.add(who)
            records = self.records
            remembering = () if private == records else \
                [who for who, record in private.items() if records.get(who) is not record]
        own, mine = self.own, self.mine
        characters = table.characters
        written = 0
        if hands:
            kinds = table.table.kinds
            for character in hands:
                index = player[character]
                me, last, views = characters[character], mine[index], own[index]
                if last[0] != (me.love, me.hate):
                    last[0] = (me.love, me.hate)
                    views[0][...] = encoder.identity(character, me.love, me.hate)
                    written += 1
                if last[1] != me.hand:
                    last[1] = me.hand[:]
                    hand = ("hand", *sorted(kinds[c] for c in me.hand))
                    views[1][...] = _array(arrays, hand, encoder.hand, hand[1:])
                    written += 1
        if deciders:
            for character in deciders:
                if character not in player:
                    continue
                index = player[character]
                last = mine[index]
                # its decision: its kind and what it is shown (``Recall.shown``) say it all
                kind = deciding.get(character)
                key = None if kind is None or top is None else \
                    ("decision", kind, None if shown is None else shown.get(character))
                if last[2] != key:
                    last[2] = key
                    if key is None:
                        own[index][2].fill(0.0)
                    else:
                        values = arrays.get(key) if key[2] is None else None
                        if values is None:
                            # what it is shown: by what the part shows of it (card ids
                            # differ from game to game)
                            decision = decision_of(game, character)
                            values = _array(arrays, encoder.decision_key(decision),
                                            encoder.decision, decision)
                            if key[2] is None:
                                arrays[key] = values
                        own[index][2][...] = values
                    written += 1
        if remembering:
            K, chars = len(encoder.kinds), encoder.char_index
            for character in remembering:
                if character not in player:
                    continue
                index = player[character]
                last, views = mine[index], own[index]
                record = private[character]
                seen = record.seen
                if seen is None:
                    seen = recall.seen(game, character)     # worked out once in a resampled world
                    record = private[character]
                if last[3] is not seen:
                    # only the characters whose counts changed
                    old = {} if last[3] is UNWRITTEN else last[3]
                    memory = views[4]
                    for who in old.keys() | seen.keys():
                        counts = seen.get(who)
                        i = chars.get(who)
                        if counts != old.get(who) and i is not None:
                            if counts is None:          # forgotten
                                memory[i].fill(0.0)
                            else:
                                values = arrays.get(("seen", counts))
                                if values is None:
                                    values = arrays["seen", counts] = np.array(
                                        encoder.seen_vector({who: counts})[i * K:(i + 1) * K],
                                        np.float32)
                                memory[i][...] = values
                            written += 1
                    last[3] = seen
                if last[4] != record.digest:
                    last[4] = record.digest
                    views[3][...] = digest_numbers(record.digest)
                    written += 1
            self.records = dict(private)
        self.deciding, self.shown, self.staged = deciding, shown, top is None
        self.written += written


def _shown_stage(game, top, encoder: Encoder):
    """The public part of ``top`` (the stage on top, or None) as the ``stage`` part needs it:
    None for a stage of the package's own whose kind the part shows as zeros (a turn, a
    pick...), which is not asked (``SILENT``, learnt when such a stage is first met)."""
    if top is None or SILENT.get(type(top)):
        return None
    stage = top.public(game)            # a new dict (a view's part)
    kind = type(top)
    if kind not in SILENT and kind.__module__.startswith(PACKAGE):
        SILENT[kind] = (stage or {}).get("kind") not in encoder.STAGE_KINDS
    return stage


UNPACK = struct.Struct(f">{DIGEST_WORDS}H").unpack


def _array(arrays: dict, key: tuple, make, *args) -> "np.ndarray":
    """The float32 array of a part that shows ``key``, made by ``make(*args)`` the first time
    (parts recur: the same flags, hand, front or stage in many positions)."""
    values = arrays.get(key)
    if values is None:
        values = arrays[key] = np.array(make(*args), np.float32)
    return values


def digest_numbers(digest: bytes) -> list:
    """A digest as tensor entries: ``DIGEST_WORDS`` numbers of 16 bits, k / 65536 (the
    numbers of ``Recall.numbers``; exact in float32, and worked out: cheaper than looking
    them up in a table of 65536)."""
    return [word / 65536 for word in UNPACK(digest)]


# what an observer shows: (perfect recall?, private facts?)
OBSERVATION, INFORMATION, PUBLIC, PUBLIC_RECORD = (False, True), (True, True), (False, False), \
    (True, False)


class LifeboatState(pyspiel.State):
    """A game of Lifeboat before (chance: the seed's bytes) and after the deal."""

    def __init__(self, game: LifeboatGame):
        super().__init__(game)
        self.shared = Shared(game.ruleset, game.players, game.reward, game.spec, game.encoder,
                             game.arrays)
        self.seed_bytes: list = []
        self.dealt = None           # Dealt, once the four bytes are drawn
        self.seats: list = []
        self.recall = None          # encoding.Recall, once dealt
        self.tensors = Tensors()
        self.current = pyspiel.PlayerId.CHANCE     # the current player, set by every move

    @property
    def game(self):
        """The ``lifeboat_rules`` game (None before the deal)."""
        return None if self.dealt is None else self.dealt.game

    # ------------------------------------------------------------------ OpenSpiel API

    def current_player(self):
        return self.current

    def _who_moves(self) -> None:
        """Set ``current`` after the deal or a move (asked many times a step)."""
        game = self.dealt.game
        self.current = pyspiel.PlayerId.TERMINAL if game.state.over else \
            self.seats.index(game.pending[0].by)

    def _legal_actions(self, player):
        if self.dealt is None or player < 0 or player != self.current:
            return []
        return self.dealt.game.legal_ids(self.seats[player])

    def legal_actions(self, player=None):
        """As OpenSpiel's, answered here for Python callers (``rl_environment``) without the
        round trip through C++."""
        current = self.current
        if player is None:
            player = current
        elif player != current:     # the others, every step (rl_environment)
            return []
        if player >= 0:
            return self.dealt.game.legal_ids(self.seats[player])
        return list(range(256)) if player == pyspiel.PlayerId.CHANCE else []

    def chance_outcomes(self):
        assert self.game is None
        return [(byte, 1.0 / 256) for byte in range(256)]

    def _apply_action(self, action):
        if self.dealt is None:
            self.seed_bytes.append(int(action))
            if len(self.seed_bytes) == SEED_BYTES:
                seed = sum(b << (8 * i) for i, b in enumerate(self.seed_bytes))
                shared = self.shared
                game = lr.new_game(shared.ruleset, players=shared.players, seed=seed)
                self.dealt = Dealt(game)
                self.seats = game.state.seats[:]
                self.recall = Recall(shared.encoder, game, self.seats)
                self._who_moves()
            return
        game = self.dealt.game
        game.apply_id(game.pending[0].by, int(action))
        self.tensors.handed = {}
        self.recall.step(game)
        self._who_moves()

    def _action_to_string(self, player, action):
        if player == pyspiel.PlayerId.CHANCE:
            return f"seed byte {len(self.seed_bytes)}: {action}"
        if self.game is not None and 0 <= player < len(self.seats):
            try:
                return json.dumps(self.game.action_of(self.seats[player], int(action)),
                                  separators=(",", ":"))
            except lr.IllegalAction:
                pass
        return f"action {action}"

    def is_terminal(self):
        return self.dealt is not None and self.dealt.game.state.over

    def is_chance_node(self):
        """As OpenSpiel's, answered here for Python callers without the round trip."""
        return self.dealt is None

    def rewards(self):
        """As OpenSpiel's for a game rewarded at its end: the returns once over, 0 before
        (answered here for Python callers, ``rl_environment``, without the round trip)."""
        if self.current >= 0:       # a player to move: not over
            return [0.0] * self.shared.players
        return self.returns()

    def returns(self):
        if not self.is_terminal():
            return [0.0] * self.shared.players
        result = self.game.result
        if self.shared.reward == "score":
            return [float(result["scores"][c]) for c in self.seats]
        winners = result["winners"]
        return [1.0 / len(winners) if c in winners else 0.0 for c in self.seats]

    def resample_from_infostate(self, player_id, probability_sampler):
        """A state ``player_id`` cannot tell from this one: the world dealt again for it by
        ``Game.determinize``, seeded from ``probability_sampler`` (a uniform draw in [0, 1));
        its information state is this one's (see the module's docstring)."""
        if self.dealt is None:
            return self.clone()     # before the deal every player knows the same: nothing
        seed = int(probability_sampler() * 2 ** 53)
        other = self.clone()
        character = self.seats[player_id]
        world = self.dealt.game.determinize(character, seed)
        other.dealt = Dealt(world)
        other.recall = self.recall.resampled(world, character)
        other.tensors = Tensors()
        other._who_moves()
        return other

    def __str__(self):
        if self.game is None:
            return f"dealing: seed bytes {self.seed_bytes}"
        return repr(self.game)

    # ------------------------------------------------------------------ what a player knows

    def observation_tensor(self, player=None):
        """The player's observation vector, a new float32 numpy array (``Tensors``)."""
        tensors = self.tensors
        if tensors.step >= 0 and tensors.step == self.recall.count and \
                type(player) is int and 0 <= player < len(tensors.views):  # this step's
            return tensors.views[player][:self.shared.encoder.size].copy()
        player = self._player(player)
        size = self.shared.encoder.size
        if self.dealt is None:
            return np.zeros(size, np.float32)
        return self._tensors().views[player][:size].copy()

    def information_state_tensor(self, player=None):
        """The player's information-state vector, a float32 numpy array of its own (a row of
        this step's copy of every player's, ``Tensors.hand_out``: kept up to date step by
        step, so asking every player's after every step costs a few writes and one copy)."""
        if type(player) is int:
            values = self.tensors.handed.pop(player, None)     # this step's, not handed out yet
            if values is not None:
                return values
        player = self._player(player)
        if self.dealt is None:
            encoder = self.shared.encoder
            return np.zeros(encoder.size + encoder.knowledge_size + RECALL_WORDS, np.float32)
        return self._tensors().hand_out(player)

    def _tensors(self) -> Tensors:
        tensors = self.tensors
        if tensors.step != self.recall.count:
            tensors.refresh(self)
        return tensors

    def observation_string(self, player=None):
        return self.text(OBSERVATION, self._player(player))

    def information_state_string(self, player=None):
        return self.text(INFORMATION, self._player(player))

    def _player(self, player) -> int:
        if player is None:
            player = self.current_player()
        if not 0 <= player < self.shared.players:
            raise pyspiel.SpielError(f"player {player} is not a player of this game")
        return player

    def transcript(self, player: int | None) -> list:
        """The pieces the information-state digest of ``player`` (None: the public record)
        is made of, oldest first (see the module's docstring)."""
        if self.dealt is None:
            return []
        viewer = None if player is None else self.seats[player]
        return self.recall.transcript(self.dealt.game, viewer)

    def vector(self, mode: tuple, player: int):
        """The tensor of an observer ``mode`` for ``player``: a player's own observers read
        ``Tensors``; the public ones (seldom asked) are made here from the public parts."""
        recall, private = mode
        if private:
            return self.information_state_tensor(player) if recall else \
                self.observation_tensor(player)
        encoder = self.shared.encoder
        if self.dealt is None:
            return [0.0] * (encoder.size + (encoder.knowledge_size + RECALL_WORDS
                                            if recall else 0))
        game = self.dealt.game
        values = encoder.public(game)
        if recall:
            public, rest = self.recall.numbers(game, None)
            values += public + rest
        return values

    def text(self, mode: tuple, player: int) -> str:
        """The string of an observer ``mode`` for ``player``."""
        recall, private = mode
        if self.dealt is None:
            who = f"player {player}" if private else "public"
            return f"{who}: dealing, {len(self.seed_bytes)} of {SEED_BYTES} seed bytes drawn"
        game = self.dealt.game
        viewer = self.seats[player] if private else None
        if not recall:
            return json.dumps(game.view(viewer), sort_keys=True, separators=(",", ":"))
        public, own = self.recall.digests(game, viewer)
        if not private:
            return f"public, step {self.recall.count}, recall {public.hex()}"
        return f"player {player} ({viewer}), step {self.recall.count}, recall {public.hex()} " \
               f"{own.hex()}"


class LifeboatObserver:
    """An observer of ``python_lifeboat``: a player's observation (``perfect_recall=False``)
    or information state (``True``); with ``private_info=NONE``, public facts only."""

    def __init__(self, game: LifeboatGame, iig_obs_type):
        encoder = game.encoder
        private = iig_obs_type.private_info
        if private == pyspiel.PrivateInfoType.SINGLE_PLAYER and iig_obs_type.public_info:
            has_private = True
        elif private == pyspiel.PrivateInfoType.NONE and iig_obs_type.public_info:
            has_private = False
        else:
            raise ValueError("python_lifeboat observes one player's facts with the public ones "
                             "(private_info=SINGLE_PLAYER) or the public facts alone "
                             "(private_info=NONE), with public_info=True")
        self.mode = (bool(iig_obs_type.perfect_recall), has_private)
        recall = self.mode[0]
        size = encoder.size + (encoder.knowledge_size + RECALL_WORDS if recall else 0)
        self.tensor = np.zeros(size, np.float32)
        self.dict = {"observation": self.tensor[:encoder.size]}
        if recall:
            at = encoder.size
            self.dict["public_recall"] = self.tensor[at:at + DIGEST_WORDS]
            at += DIGEST_WORDS
            self.dict["seen"] = self.tensor[at:at + encoder.knowledge_size]
            self.dict["recall"] = self.tensor[at + encoder.knowledge_size:]

    def set_from(self, state: LifeboatState, player: int) -> None:
        self.tensor[:] = state.vector(self.mode, player)

    def string_from(self, state: LifeboatState, player: int) -> str:
        return state.text(self.mode, player)


class LifeboatBot(pyspiel.Bot):
    """A ``lifeboat_rules`` bot (``RandomBot``, ``HeuristicBot``, ``SearchBot``...) as an
    OpenSpiel bot of ``python_lifeboat``: ``LifeboatBot(HeuristicBot(seed=1), player=0)``."""

    def __init__(self, bot, player: int):
        pyspiel.Bot.__init__(self)
        self.bot = bot
        self.player = player

    def step(self, state: LifeboatState) -> int:
        character = state.seats[self.player]
        return state.game.action_id(self.bot.choose(state.game, character))

    def restart_at(self, state) -> None:
        pass

    def inform_action(self, state, player_id, action) -> None:
        pass


pyspiel.register_game(GAME_TYPE, LifeboatGame)
