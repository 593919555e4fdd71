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
  and the player's view as JSON (``Game.view``). Information state: the same vector followed
  by the kinds the player has seen go into other hands (``Encoder.knowledge``); the string is
  the player's love and hate and its whole log as it saw it (``Game.events_for``), so two
  histories the player can tell apart never share a string.
"""

from __future__ import annotations

import json

import numpy as np
import pyspiel

import lifeboat_rules as lr
from .encoding import Encoder

NAME = "python_lifeboat"
SEED_BYTES = 4
MAX_GAME_LENGTH = 10_000
DEFAULTS = {"ruleset": "classic", "players": 6, "reward": "win"}

GAME_TYPE = pyspiel.GameType(
    short_name=NAME,
    long_name="Python Lifeboat",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.GENERAL_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=8,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=DEFAULTS,
)


def max_score(ruleset) -> float:
    """A bound on any score (R-SCORE): survival twice (a narcissist), every size (a
    misanthrope), and every treasure doubled."""
    content = ruleset.content
    characters = content.characters.values()
    treasure = 0
    for info in content.provisions.values():
        if info.treasure_set:
            treasure += max(info.treasure_set)
        else:
            treasure += info.treasure_points * info.count
    return float(2 * max(c.survival for c in characters) + sum(c.size for c in characters)
                 + 2 * treasure)


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
        info = pyspiel.GameInfo(
            num_distinct_actions=sample.num_actions,
            max_chance_outcomes=256,
            num_players=self.players,
            min_utility=0.0,
            max_utility=1.0 if self.reward == "win" else max_score(self.ruleset),
            utility_sum=None,
            max_game_length=MAX_GAME_LENGTH)
        super().__init__(GAME_TYPE, info, params)

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

    def __init__(self, ruleset, players: int, reward: str, spec):
        self.ruleset, self.players, self.reward, self.spec = ruleset, players, reward, spec

    def __deepcopy__(self, memo):
        return self

    def __reduce__(self):
        return (_shared, (self.spec, self.players, self.reward))


def _shared(spec, players: int, reward: str) -> Shared:
    return Shared(lr.load_ruleset(spec), players, reward, spec)


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


class LifeboatState(pyspiel.State):
    """A game of Lifeboat before (chance: the seed's bytes) and after the deal."""

    def __init__(self, game: LifeboatGame):
        super().__init__(game)
        self.shared = Shared(game.ruleset, game.players, game.reward, game.spec)
        self.seed_bytes: list = []
        self.dealt = None           # Dealt, once the four bytes are drawn
        self.seats: list = []

    @property
    def game(self):
        """The ``lifeboat_rules`` game (None before the deal)."""
        return None if self.dealt is None else self.dealt.game

    # ------------------------------------------------------------------ OpenSpiel API

    def current_player(self):
        if self.game is None:
            return pyspiel.PlayerId.CHANCE
        if self.game.over:
            return pyspiel.PlayerId.TERMINAL
        return self.seats.index(self.game.pending[0].by)

    def _legal_actions(self, player):
        if self.game is None or self.game.over or player != self.current_player():
            return []
        return self.game.legal_ids(self.seats[player])

    def chance_outcomes(self):
        assert self.game is None
        return [(byte, 1.0 / 256) for byte in range(256)]

    def _apply_action(self, action):
        if self.game is None:
            self.seed_bytes.append(int(action))
            if len(self.seed_bytes) == SEED_BYTES:
                seed = sum(b << (8 * i) for i, b in enumerate(self.seed_bytes))
                shared = self.shared
                self.dealt = Dealt(lr.new_game(shared.ruleset, players=shared.players, seed=seed))
                self.seats = self.game.state.seats[:]
            return
        self.game.apply_id(self.game.pending[0].by, int(action))

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
        return self.game is not None and self.game.over

    def returns(self):
        if not self.is_terminal():
            return [0.0] * self.shared.players
        result = self.game.result
        if self.shared.reward == "score":
            return [float(result["scores"][c]) for c in self.seats]
        winners = result["winners"]
        return [1.0 / len(winners) if c in winners else 0.0 for c in self.seats]

    def __str__(self):
        if self.game is None:
            return f"dealing: seed bytes {self.seed_bytes}"
        return repr(self.game)


class LifeboatObserver:
    """Observation (``perfect_recall=False``) or information state (``True``) of a player."""

    def __init__(self, game: LifeboatGame, iig_obs_type):
        self.encoder = game.encoder
        self.recall = iig_obs_type.perfect_recall
        size = self.encoder.size + (self.encoder.knowledge_size if self.recall else 0)
        self.tensor = np.zeros(size, np.float32)
        self.dict = {"observation": self.tensor[:self.encoder.size]}
        if self.recall:
            self.dict["seen"] = self.tensor[self.encoder.size:]

    def set_from(self, state: LifeboatState, player: int) -> None:
        self.tensor.fill(0.0)
        if state.game is None:
            return
        character = state.seats[player]
        values = self.encoder.observation(state.game, character)
        if self.recall:
            values = values + self.encoder.knowledge(state.game, character)
        self.tensor[:] = values

    def string_from(self, state: LifeboatState, player: int) -> str:
        if state.game is None:
            return f"player {player}: dealing"
        game = state.game
        character = state.seats[player]
        if self.recall:
            view = game.view(character)
            return json.dumps({"player": player, "you": character, "love": view.get("love"),
                               "hate": view.get("hate"), "log": game.events_for(character)},
                              sort_keys=True, separators=(",", ":"))
        return json.dumps(game.view(character), sort_keys=True, separators=(",", ":"))


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
