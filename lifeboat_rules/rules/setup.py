"""Setup (RULES.md: R-SETUP-1..6) and the order of the phases of a round."""

from __future__ import annotations

from ..errors import ContentError
from ..hookspecs import hookimpl
from ..model import Character, NavigationCard, State
from ..rng import Rng, seed_state


@hookimpl
def lifeboat_phases():
    from .navigation import begin_navigation
    from .supply import begin_supply
    from .turn import begin_action
    return [("supply", begin_supply), ("action", begin_action), ("navigation", begin_navigation)]


def _seat_order(content, ids) -> list:
    return sorted(ids, key=lambda c: (content.characters[c].seat, c))


def _character(content, who: str) -> Character:
    info = content.characters[who]
    return Character(who, info.size, info.survival)


def deal(ruleset, players: int, seed: int) -> State:
    """A dealt game (R-SETUP-1..6)."""
    content = ruleset.content
    low, high = content.setup["players"]["min"], content.setup["players"]["max"]
    if type(players) is not int or not low <= players <= high:
        raise ValueError(f"R-SETUP-1: {ruleset.name} is for {low} to {high} players, not {players!r}")
    if type(seed) is not int:
        raise ValueError(f"the seed must be an int, not {seed!r}")
    rng = Rng(seed_state(seed))
    pool = list(content.characters)
    rng.shuffle(pool)                                             # R-SETUP-2
    in_play = _seat_order(content, pool[:players])                # R-SETUP-6: seats
    characters = {who: _character(content, who) for who in in_play}
    loves, hates = in_play[:], in_play[:]                         # R-SETUP-4
    rng.shuffle(loves)
    rng.shuffle(hates)
    for who, love, hate in zip(in_play, loves, hates):
        characters[who].love = love
        characters[who].hate = hate
    deck = [kind for kind, info in content.provisions.items() for _ in range(info.count)]
    rng.shuffle(deck)
    ids = [f"p{i + 1}" for i in range(len(deck))]
    kinds = dict(zip(ids, deck))
    removed_count = content.removed_provisions(players)           # R-SETUP-3
    removed, rest = ids[:removed_count], ids[removed_count:]
    hand_size = content.setup["starting_hand"]                    # R-SETUP-5
    for who in in_play:
        characters[who].hand = rest[:hand_size]
        rest = rest[hand_size:]
    navigation = list(content.navigation)
    rng.shuffle(navigation)                                       # R-SETUP-6
    return State(characters=characters, kinds=kinds, navcards=dict(content.navigation),
                 seats=in_play[:], supply=rest, removed=removed, navigation=navigation,
                 rng=rng.state, options=dict(ruleset.options))


def position(ruleset, setup: dict, seed: int = 0, where: str = "<setup>") -> tuple[State, str]:
    """An explicit position (SCENARIOS.md, setup). Returns the state and the phase that begins.
    Everything is checked; a problem is a ContentError naming the place."""
    from ..validation import check_def
    check_def("scenario", "setup", setup, where, prefix="setup")
    content = ruleset.content
    problems: list[tuple[str, str]] = []

    def problem(path, message):
        problems.append((f"setup.{path}", message))

    seats = list(setup["seats"])
    lost = list(setup.get("lost", []))
    for index, who in enumerate(seats + lost):
        key = f"seats[{index}]" if index < len(seats) else f"lost[{index - len(seats)}]"
        if who not in content.characters:
            problem(key, f"unknown character {who!r}")
    if len(set(seats + lost)) != len(seats + lost):
        problem("seats", "a character is named twice in seats and lost")
    in_play = seats + [c for c in lost if c not in seats]
    if len(in_play) < 2:
        problem("seats", "a position needs at least 2 characters in play")
    kinds_known = content.provisions

    def known_char(path, who, on_board=False):
        if who not in in_play:
            problem(path, f"{who!r} is not a character in play")
        elif on_board and who not in seats:
            problem(path, f"{who!r} is not on board")

    for who, amount in setup.get("damage", {}).items():
        known_char(f"damage.{who}", who)
        if amount < 0:
            problem(f"damage.{who}", "damage is never negative")
    for key in ("love", "hate"):
        for who, other in setup.get(key, {}).items():
            known_char(f"{key}.{who}", who)
            known_char(f"{key}.{who}", other)
    for key in ("hand", "front"):
        for who, cards in setup.get(key, {}).items():
            known_char(f"{key}.{who}", who, on_board=True)
            for index, kind in enumerate(cards):
                if kind not in kinds_known:
                    problem(f"{key}.{who}[{index}]", f"unknown provision {kind!r}")
    for key in ("supply", "discard"):
        for index, kind in enumerate(setup.get(key, [])):
            if kind not in kinds_known:
                problem(f"{key}[{index}]", f"unknown provision {kind!r}")
    for key in ("rowed", "fought", "active_parasol"):
        for index, who in enumerate(setup.get(key, [])):
            known_char(f"{key}[{index}]", who, on_board=True)
    navcards: dict = {}
    decks = {}
    for key in ("navigation", "rowing_pile"):
        ids = []
        for index, entry in enumerate(setup.get(key, [])):
            if isinstance(entry, str):
                card_id = entry
                if card_id not in content.navigation:
                    problem(f"{key}[{index}]", f"unknown navigation card {card_id!r}")
                    continue
                card = content.navigation[card_id]
            else:
                card_id = entry["id"]
                card = NavigationCard.from_data(card_id, entry)
            if card_id in navcards:
                problem(f"{key}[{index}]", f"navigation card {card_id!r} is there twice")
                continue
            navcards[card_id] = card
            ids.append(card_id)
        decks[key] = ids
    limit = content.setup["seagulls_to_land"]
    seagulls = setup.get("seagulls", 0)
    if seagulls >= limit:
        problem("seagulls", f"at most {limit - 1} seagulls can be on the table")
    if problems:
        from ..validation import raise_problems
        raise_problems(problems, where)

    # in the ruleset's order, as in a dealt game and a restored one (saving.from_dict)
    characters = {who: _character(content, who) for who in content.characters if who in in_play}
    for who in lost:
        characters[who].lost = True
        characters[who].ghost = True   # their players remain, as ghosts (SCENARIOS.md)
    for who, amount in setup.get("damage", {}).items():
        characters[who].damage = amount
    for who, other in setup.get("love", {}).items():
        characters[who].love = other
    for who, other in setup.get("hate", {}).items():
        characters[who].hate = other
    kinds: dict = {}

    def make(kind):
        card = f"p{len(kinds) + 1}"
        kinds[card] = kind
        return card

    for who in seats:
        characters[who].hand = [make(k) for k in setup.get("hand", {}).get(who, [])]
        characters[who].front = [make(k) for k in setup.get("front", {}).get(who, [])]
    supply = [make(k) for k in setup.get("supply", [])]
    discard = [make(k) for k in setup.get("discard", [])]
    for who in setup.get("rowed", []):
        characters[who].rowed = True
    for who in setup.get("fought", []):
        characters[who].fought = True
    effect_of = ruleset.rules.effect_of
    for index, who in enumerate(setup.get("active_parasol", [])):
        if not any(effect_of.get(kinds[c]) == "parasol" for c in characters[who].front):
            raise ContentError(f"{who} has no parasol face up to be active", where,
                               f"setup.active_parasol[{index}]")
        characters[who].parasol_active = True
    state = State(characters=characters, kinds=kinds, navcards=navcards, seats=seats,
                  supply=supply, discard=discard, navigation=decks["navigation"],
                  rowing_pile=decks["rowing_pile"], round=setup.get("round", 1),
                  seagulls=seagulls, rng=seed_state(seed), options=dict(ruleset.options))
    return state, setup.get("phase", "supply")


def start(ruleset, players=None, seed=None, setup=None, where="<setup>"):
    """A new game: dealt (``players``, ``seed``) or from an explicit position (``setup``)."""
    import os

    from .. import effects
    from ..engine import Game

    if seed is None:
        seed = int.from_bytes(os.urandom(8), "big") >> 1
    elif type(seed) is not int:
        raise ValueError(f"the seed must be an int, not {seed!r}")
    if setup is not None:
        state, phase = position(ruleset, setup, seed, where)
        game = Game(ruleset, state)
        effects.emit(game, {"type": "setup", "seats": state.seats[:],
                            "players": len(state.characters), "seed": seed, "dealt": False})
        _begin(game, phase)
        return game
    if players is None:
        raise ValueError("new_game needs players=N (R-SETUP-1) or an explicit setup={...}")
    state = deal(ruleset, players, seed)
    game = Game(ruleset, state)
    effects.emit(game, {"type": "setup", "seats": state.seats[:], "players": players,
                        "seed": seed, "dealt": True})
    _begin(game, None, deal=ruleset.rules.has_hook("lifeboat_deal"))
    return game


def _begin(game, phase, deal: bool = False) -> None:
    """Run the dealing hook and begin the first phase; an error raised by plugin code there
    is a ``PluginError`` naming the plugin (as in ``apply``)."""
    try:
        if deal:
            game.rules.hook.lifeboat_deal(game=game)
        game._start(phase)
    except Exception as exc:
        if not game.rules.guarded:
            raise
        error = game.rules.plugin_error(exc, "starting the game")
        if error is exc:
            raise
        raise error from exc
