"""``python_lifeboat`` under OpenSpiel (docs/agents.md): its random-simulation test, its MCTS bot
playing against uniform random bots, explicit chance for the deal, tensors and strings."""

from __future__ import annotations

import json

import pytest

pyspiel = pytest.importorskip("pyspiel", reason="the OpenSpiel adapter needs the rl extra: "
                                                "pip install -e '.[rl]' (CI installs it)")
import numpy as np  # noqa: E402
from open_spiel.python.algorithms import evaluate_bots, ismcts, mcts  # noqa: E402
from open_spiel.python.bots import uniform_random  # noqa: E402
from open_spiel.python.observation import make_observation  # noqa: E402

import lifeboat_rules as lr  # noqa: E402
import lifeboat_rules.openspiel  # noqa: E402,F401  (registers python_lifeboat)
from lifeboat_rules.encoding import Encoder, Recall, piece_value  # noqa: E402
from lifeboat_rules.stages import Window  # noqa: E402


def dealt(game, seed_bytes=(7, 1, 0, 0)):
    state = game.new_initial_state()
    for byte in seed_bytes:
        assert state.is_chance_node()
        assert state.chance_outcomes() == [(b, 1 / 256) for b in range(256)]
        state.apply_action(byte)
    return state


@pytest.mark.slow
def test_random_sim_test():
    pyspiel.random_sim_test(pyspiel.load_game("python_lifeboat"), num_sims=2, serialize=True,
                            verbose=False)


@pytest.mark.slow
def test_random_sim_test_other_parameters():
    game = pyspiel.load_game("python_lifeboat",
                             {"ruleset": "cannibalism", "players": 4, "reward": "score"})
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


def test_game_sizes_and_parameters():
    game = pyspiel.load_game("python_lifeboat", {"players": 5})
    sample = lr.new_game("classic", players=5, seed=0)
    assert game.num_players() == 5
    assert game.num_distinct_actions() == sample.num_actions
    assert game.max_chance_outcomes() == 256
    encoder = Encoder(sample.ruleset, 5)
    assert game.observation_tensor_size() == encoder.size
    assert game.information_state_tensor_size() == encoder.size + encoder.knowledge_size + 16
    assert game.get_type().chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    with pytest.raises(Exception):
        pyspiel.load_game("python_lifeboat", {"players": 9})


def test_the_chance_nodes_draw_the_deal_seed():
    """Four chance bytes, least significant first, make the seed of ``new_game``; then the
    players are the seats at the deal and play the game's integer actions."""
    game = pyspiel.load_game("python_lifeboat")
    state = dealt(game, (7, 1, 0, 0))
    reference = lr.new_game("classic", players=6, seed=7 + 256)
    assert state.game.log == reference.log
    seats = reference.state.seats[:]          # at the deal
    for _ in range(60):
        player = state.current_player()
        assert seats[player] == reference.pending[0].by
        assert state.legal_actions() == reference.legal_ids(reference.pending[0].by)
        action = state.legal_actions()[len(reference.log) % len(state.legal_actions())]
        reference.apply_id(reference.pending[0].by, action)
        state.apply_action(action)
    assert state.game.log == reference.log


def test_clone_is_independent_and_serialize_restores():
    game = pyspiel.load_game("python_lifeboat")
    state = dealt(game)
    copy = state.clone()
    copy.apply_action(copy.legal_actions()[0])
    assert len(copy.game.log) > len(state.game.log)
    restored = game.deserialize_state(copy.serialize())
    assert restored.game.to_dict() == copy.game.to_dict()
    assert restored.history() == copy.history()


def test_observations_are_the_players_own():
    """A player's observation tensor and string come from its view: the same in a copy where
    what it cannot see is dealt again (OpenSpiel's own path, through the observer, gives the
    same numbers as the Python one)."""
    game = pyspiel.load_game("python_lifeboat")
    state = dealt(game, (3, 0, 0, 0))
    rnd = np.random.default_rng(5)
    for _ in range(50):
        state.apply_action(int(rnd.choice(state.legal_actions())))
    lgame = state.game
    encoder = Encoder(lgame.ruleset, 6)
    for player, character in enumerate(state.seats):
        tensor = state.observation_tensor(player)
        assert tensor == pytest.approx(encoder.observation(lgame, character))
        assert json.loads(state.observation_string(player)) == lgame.view(character)
        info = state.information_state_tensor(player)
        assert len(info) == game.information_state_tensor_size()
        assert info.dtype == tensor.dtype == np.float32
        assert np.array_equal(info[:encoder.size], tensor)
        assert pyspiel.State.information_state_tensor(state, player) == pytest.approx(info)
        assert pyspiel.State.observation_tensor(state, player) == pytest.approx(tensor)
        assert pyspiel.State.information_state_string(state, player) == \
            state.information_state_string(player)
        other = state.clone()
        other.dealt.game = lgame.determinize(character, 11)
        other.tensors = lifeboat_rules.openspiel.Tensors()
        assert np.array_equal(other.observation_tensor(player), tensor)
    strings = {state.information_state_string(p) for p in range(6)}
    assert len(strings) == 6


@pytest.mark.slow   # quicker neighbour: test_observations_are_the_players_own
def test_the_public_part_is_the_public_view():
    """``Encoder.public`` reads the public fields straight from the state: the same numbers as
    encoding ``view(None)``, and with a player's own parts, as encoding its view."""
    for ruleset, players in (("classic", 6), ("all_in_one", 8), ("shark", 5),
                             ("cannibalism", 7)):
        for seed in range(2):
            lgame = lr.new_game(ruleset, players=players, seed=seed)
            encoder = Encoder(lgame.ruleset, players)
            rnd = np.random.default_rng(seed)
            while True:
                public = encoder.public(lgame)
                assert public == encoder.encode_public(lgame.view(None))
                for character in lgame.state.characters:
                    assert encoder.private(lgame, character, public[:]) == \
                        encoder.observation(lgame, character)
                if lgame.over:
                    break
                who = lgame.pending[0].by
                lgame.apply_id(who, int(rnd.choice(lgame.legal_ids(who))))


# ---------------------------------------------------------------------------- perfect recall

class Story:
    """An OpenSpiel state with what every player observed at every step so far: its view and
    its log (``events_for``), the oracle of what it can tell apart."""

    def __init__(self, state, seen=None):
        self.state = state
        self.seen = seen if seen is not None else {p: [] for p in range(len(state.seats))}
        self.observe()

    def observe(self):
        lgame = self.state.game
        for p, character in enumerate(self.state.seats):
            self.seen[p] = self.seen[p] + [json.dumps([lgame.view(character),
                                                       lgame.events_for(character)],
                                                      sort_keys=True)]

    def then(self, action):
        state = self.state.clone()
        state.apply_action(action)
        return Story(state, dict(self.seen))


def world_at_the_deal(game, state, player):
    """A state whose game is ``state``'s dealt again for ``player`` (determinize) right after
    the deal, with its own records from there: another history ``player`` cannot tell from
    ``state``'s, played on from the same deal point."""
    other = dealt(game, (9, 9, 9, 9))
    lgame = state.game.determinize(state.seats[player], 77)
    other.dealt = lifeboat_rules.openspiel.Dealt(lgame)
    other.seats = lgame.state.seats[:]
    other.recall = Recall(game.encoder, lgame, other.seats)
    other.tensors = lifeboat_rules.openspiel.Tensors()
    other.to_move = (-1, None)
    return other


def compare(a: Story, b: Story, counts: dict, at_pick: list):
    for p in range(len(a.state.seats)):
        same = a.seen[p] == b.seen[p]
        strings = a.state.information_state_string(p) == b.state.information_state_string(p)
        tensors = np.array_equal(a.state.information_state_tensor(p),
                                 b.state.information_state_tensor(p))
        assert strings == same and tensors == same, (p, same, strings, tensors)
        counts[same] += 1
        view = a.state.game.view(a.state.seats[p])
        if not same and view.get("decision", {}).get("kind") == "pick":
            at_pick.append(p)


@pytest.mark.slow   # its quicker neighbour in the fast subset: test_navigation_cards_seen_are_remembered
def test_information_state_separates_exactly_what_a_player_can_tell_apart():
    """Over many pairs of histories: two a player can tell apart (its view or its log differ
    at some step) give it different information-state strings and tensors, two it cannot give
    equal ones. The pairs: a history and its branches (one action or another: a kept supply
    card, the pile kept after rowing...), and a history beside one dealt again for a player at
    the deal and played with the same actions (the supply cards it is shown differ: before,
    the string left them out, even at the player's own pick)."""
    game = pyspiel.load_game("python_lifeboat", {"players": 5})
    counts = {True: 0, False: 0}
    at_pick: list = []
    rnd = np.random.default_rng(2)
    for number in range(4):
        story = Story(dealt(game, (number, 3, 0, 0)))
        for step in range(70):
            if story.state.is_terminal():
                break
            legal = story.state.legal_actions()
            if len(legal) > 1 and step % 3 == 0:
                first, second = rnd.choice(legal, 2, replace=False)
                compare(story.then(int(first)), story.then(int(second)), counts, at_pick)
            story = story.then(int(rnd.choice(legal)))
    for number in range(30):
        a = Story(dealt(game, (number, 5, 0, 0)))
        player = len(a.state.seats) - 1 - number % 2       # late pickers: long alike
        b = Story(world_at_the_deal(game, a.state, player))
        apart = 0
        while apart < 3:
            compare(a, b, counts, at_pick)
            apart += a.seen[player] != b.seen[player]
            if a.state.is_terminal():
                break
            action = int(rnd.choice(a.state.legal_actions()))
            if action not in b.state.legal_actions():
                break
            a, b = a.then(action), b.then(action)
    assert counts[True] >= 60 and counts[False] >= 500, counts
    assert at_pick, "no pair told apart at a player's own pick"


def test_navigation_cards_seen_are_remembered():
    """A navigator shown another rowing pile (a card of the pile swapped with the unseen top
    of the deck) can tell the two apart, and its information state says so; the public
    record cannot."""
    game = pyspiel.load_game("python_lifeboat", {"players": 4})
    rnd = np.random.default_rng(4)
    found = 0
    for number in range(40):
        state = dealt(game, (number, 8, 0, 0))
        while not state.is_terminal():
            lgame = state.game
            decision = lgame.view(lgame.pending[0].by).get("decision", {})
            if decision.get("kind") == "navigate" and len(decision["cards"]) > 1 \
                    and lgame.state.navigation:
                player = state.current_player()
                other = state.clone()
                table = other.game.state
                table.rowing_pile[1], table.navigation[0] = \
                    table.navigation[0], table.rowing_pile[1]
                other.recall.step(other.game)       # what each is shown now
                state.recall.step(lgame)
                assert state.information_state_string(player) != \
                    other.information_state_string(player)
                assert state.recall.digests(lgame, None) == \
                    other.recall.digests(other.game, None)
                found += 1
                break
            state.apply_action(int(rnd.choice(state.legal_actions())))
        if found >= 3:
            break
    assert found >= 3


def test_the_records_read_the_log_as_events_for_shows_it():
    """The public record reads each log entry as ``events_for(None)`` shows it, and a player's
    own record adds exactly the entries ``events_for`` shows it otherwise (with their place in
    the step): the records read the log once for everyone, and this is the check that they
    read it as each player sees it."""
    game = pyspiel.load_game("python_lifeboat", {"players": 5})
    rnd = np.random.default_rng(9)
    for number in range(3):
        state = dealt(game, (number, 7, 0, 0))
        state.information_state_string(0)
        while not state.is_terminal():
            lgame = state.game
            start = len(lgame.log)
            own_before = {c: state.recall.private[c].pieces for c in state.seats}
            state.apply_action(int(rnd.choice(state.legal_actions())))
            state.information_state_string(0)
            entries, _ = piece_value(state.recall.public[3][0])
            public = lgame.events_for(None, start)
            assert entries == public and list(map(repr, entries)) == list(map(repr, public))
            for character in state.seats:
                mine = lgame.events_for(character, start)
                extra = [(i, e) for i, e in enumerate(mine) if repr(e) != repr(public[i])]
                pieces = state.recall.private[character].pieces
                if pieces is own_before[character]:
                    assert not extra
                else:
                    step, seen, shown = piece_value(pieces[0])
                    assert step == state.recall.count
                    assert list(map(repr, seen)) == list(map(repr, extra)), (seen, extra)
                    assert seen or shown is not None


def test_information_state_costs_the_same_late_as_early(monkeypatch):
    """Kept up to date step by step: asking every player's information-state tensor and
    string after a move reads exactly the log entries that move added (each once, for all
    players), calls neither ``events_for`` nor ``view``, and so costs the same at move 200
    as at move 10 (before, each was rebuilt from the whole log)."""
    game = pyspiel.load_game("python_lifeboat")
    rnd = np.random.default_rng(7)
    late = 0
    for number in range(12):
        state = dealt(game, (number, 2, 0, 0))
        state.information_state_string(0)           # the deal read
        for move in range(260):
            if state.is_terminal():
                break
            before_log, before_read = len(state.game.log), state.recall.read
            state.apply_action(int(rnd.choice(state.legal_actions())))
            for name in ("events_for", "view"):
                monkeypatch.setattr(lr.Game, name, forbidden)
            for p in range(6):
                state.information_state_tensor(p)
                state.information_state_string(p)
            monkeypatch.undo()
            assert state.recall.read - before_read == len(state.game.log) - before_log
            late += move >= 200
    assert late > 50, "too few moves past 200"


def forbidden(*args, **kwargs):
    raise AssertionError("rebuilt from the log or the view")


def test_resample_from_infostate_keeps_the_information_state():
    """``resample_from_infostate`` deals a world through ``determinize``: the same
    information-state string and tensor for that player, the same legal actions when it is
    to move, the same public observation; other hands may differ."""
    game = pyspiel.load_game("python_lifeboat", {"players": 4})
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    rnd = np.random.default_rng(3)
    differed = 0
    public = make_observation(game, pyspiel.IIGObservationType(
        public_info=True, private_info=pyspiel.PrivateInfoType.NONE, perfect_recall=False))
    for number in range(3):
        state = dealt(game, (number, 4, 0, 0))
        for step in range(90):
            if state.is_terminal():
                break
            if step % 7 == 0:
                player = state.current_player()
                world = state.resample_from_infostate(player, sampler)
                assert world.information_state_string(player) == \
                    state.information_state_string(player)
                assert np.array_equal(world.information_state_tensor(player),
                                      state.information_state_tensor(player))
                assert world.legal_actions() == state.legal_actions()
                assert observed(public, world, player) == observed(public, state, player)
                differed += world.game.to_dict() != state.game.to_dict()
            state.apply_action(int(rnd.choice(state.legal_actions())))
    assert differed > 3


def observed(observer, state, player):
    observer.set_from(state, player)
    return observer.tensor.copy().tolist(), observer.string_from(state, player)


def test_a_public_observer_sees_public_facts_only():
    """Two states that differ only in private facts (a copy with everything one player cannot
    see dealt again, seen by a public observer) give equal public observations, with and
    without perfect recall; a player's own observer tells them apart."""
    game = pyspiel.load_game("python_lifeboat")
    none = pyspiel.PrivateInfoType.NONE
    observers = [make_observation(game, pyspiel.IIGObservationType(
        public_info=True, private_info=none, perfect_recall=recall)) for recall in (False, True)]
    own = make_observation(game, pyspiel.IIGObservationType(perfect_recall=False))
    rnd = np.random.default_rng(8)
    state = dealt(game, (1, 1, 0, 0))
    told = 0
    for step in range(120):
        if state.is_terminal():
            break
        if step % 10 == 0:
            player = state.current_player()
            world = state.resample_from_infostate(player, pyspiel.UniformProbabilitySampler(0, 1))
            for observer in observers:
                for p in range(6):
                    assert observed(observer, world, p) == observed(observer, state, p)
            told += any(observed(own, world, p) != observed(own, state, p) for p in range(6))
        state.apply_action(int(rnd.choice(state.legal_actions())))
    assert told >= 3
    assert json.loads(observers[0].string_from(state, 0)) == state.game.view(None)
    with pytest.raises(ValueError, match="private_info"):
        make_observation(game, pyspiel.IIGObservationType(
            public_info=True, perfect_recall=False,
            private_info=pyspiel.PrivateInfoType.ALL_PLAYERS))


def test_utilities():
    """``reward="win"``: constant-sum, the shares add up to 1. ``reward="score"``: from 0 (every
    part of a score is 0 or more) to the best total the content allows. Classic, 6 players:
    Lady Lauren (survival 8, size 4, jewels doubled) loving and hating herself, surviving
    while the five others die (sizes 5 + 7 + 8 + 6 + 3 = 29), holding all the treasure: cash
    6 x 1, jewels 3 of [0, 1, 4, 8] = 8 doubled to 16, paintings 3 + 3 + 2 = 8: 8 + 29 + 30 =
    67 (R-SCORE-3, R-SCORE-5, R-SCORE-6)."""
    win = pyspiel.load_game("python_lifeboat")
    assert win.get_type().utility == pyspiel.GameType.Utility.CONSTANT_SUM
    assert win.utility_sum() == 1.0 and win.min_utility() == 0.0 and win.max_utility() == 1.0
    score = pyspiel.load_game("python_lifeboat", {"reward": "score"})
    assert score.get_type().utility == pyspiel.GameType.Utility.GENERAL_SUM
    assert score.min_utility() == 0.0 and score.max_utility() == 67.0
    for seed in range(30):
        lgame = lr.new_game("classic", players=6, seed=seed)
        rnd = np.random.default_rng(seed)
        while not lgame.over:
            who = lgame.pending[0].by
            lgame.apply_id(who, int(rnd.choice(lgame.legal_ids(who))))
        assert all(0 <= s <= 67 for s in lgame.result["scores"].values())


@pytest.mark.slow   # quicker neighbour: test_resample_from_infostate_keeps_the_information_state
def test_ismcts_plays_whole_games():
    """OpenSpiel's ``ISMCTSBot`` plays the game as it is: its worlds come from
    ``resample_from_infostate`` (no resampler of ours), its tree is keyed by the information
    state strings, and it asserts that every world keeps its root's."""
    game = pyspiel.load_game("python_lifeboat", {"players": 4})
    rng = np.random.RandomState(2)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    searched = 0
    for number in range(2):
        bot = ismcts.ISMCTSBot(game, evaluator, 2.0, max_simulations=3, random_state=rng)
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(int(rng.randint(256)))
            elif state.current_player() == number:
                legal = state.legal_actions()
                action = bot.step(state)
                assert action in legal
                searched += len(legal) > 1
                state.apply_action(action)
            else:
                state.apply_action(int(rng.choice(state.legal_actions())))
        assert sum(state.returns()) == pytest.approx(1.0)
    assert searched >= 10


@pytest.mark.slow
def test_mcts_bot_plays_against_uniform_random_bots():
    """OpenSpiel's own MCTS bot (random rollouts) plays whole games against its uniform
    random bots; the returns are win shares."""
    game = pyspiel.load_game("python_lifeboat", {"players": 4})
    rng = np.random.RandomState(3)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    for _ in range(2):
        bots = [mcts.MCTSBot(game, 2.0, 6, evaluator, random_state=rng, solve=False)]
        bots += [uniform_random.UniformRandomBot(p, rng) for p in range(1, 4)]
        returns = evaluate_bots.evaluate_bots(game.new_initial_state(), bots, rng)
        assert len(returns) == 4 and sum(returns) == pytest.approx(1.0)
        assert all(r in (0.0, 1.0, 0.5, 1 / 3, 0.25) for r in returns)


def test_the_holders_option_is_followed_as_given(tmp_path):
    """By default who is pending follows public facts (R-WIN-2): a window asks characters
    with nothing to play, who can only pass. A ruleset with ``window_pending: holders``
    (R-WIN-3) is followed as given: it asks only those with something to play. Either way
    the current player is the first pending decision's, with its legal actions."""
    path = tmp_path / "holders.yaml"
    path.write_text("extends: classic\noptions: {window_pending: holders}\n", encoding="utf-8")
    passes_only = {}
    for name, params in (("public", {}), ("holders", {"ruleset": str(path)})):
        game = pyspiel.load_game("python_lifeboat", {"players": 5, **params})
        rnd = np.random.default_rng(1)
        passes_only[name] = 0
        for number in range(4):
            state = dealt(game, (number, 6, 0, 0))
            while not state.is_terminal():
                lgame = state.game
                who = lgame.pending[0].by
                assert state.current_player() == state.seats.index(who)
                assert state.legal_actions() == lgame.legal_ids(who)
                window = lgame.top
                if isinstance(window, Window):
                    acts = [atype for atype, values in lgame.moves(who) if atype.name != "pass"
                            and (not atype.free or window.claims(lgame, atype, who, values))]
                    passes_only[name] += not acts
                state.apply_action(int(rnd.choice(state.legal_actions())))
    assert passes_only["public"] > 0 and passes_only["holders"] == 0, passes_only
