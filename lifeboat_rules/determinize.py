"""Determinization: a copy of a game as one player may imagine it (docs/agents.md).

``determinize(game, c, seed)`` deals again, at random, everything the player of ``c`` cannot
see, keeping everything it has seen, so that a search over copies never looks at hidden cards:

* provision cards keep their places; what is hidden is the *kind* of a card ``c`` does not
  know now, and its *id* (docs/api.md: a card's id is a secret like its kind: a card that went
  into another's hand has an id ``c`` never saw). The kinds of those cards (other hands, the
  supply, cards being passed, removed cards) are dealt again among them, and each gets a new
  id under a new key, so that no id of the copy is one the game will show later;
* the cards ``c`` passed on in a supply pick (R-SUPPLY-1) went one to each later picker, or
  are still being passed: their kinds are dealt again among those places (a later picker
  that has given no card away since holds one of them), which of them went where being what
  ``c`` cannot tell;
* the navigation cards ``c`` cannot place are dealt again among the places it cannot see (the
  deck, the rowing pile, cards another rower holds), following the moves of the log as ``c``
  saw them, so that a card ``c`` put under the deck stays where it went;
* other characters' love and hate cards are dealt again among them (each deck stays one card
  per character: ``c``'s own cards are known to it);
* the copy's log is ``c``'s own (``events_for(c)``): nothing ``c`` was not shown is in it;
* the random generator is seeded again from ``seed``: a copy cannot draw what the game will.

What ``c`` knows comes from its own log (``game.events_for(c)``) and its view now; the cards
it looked at while picking a supply card are found from the moves of the log. The copy
also keeps what the view shows of the others. Who is pending in a window follows from public
facts alone (R-WIN-2), so it tells nothing to keep; only under the option ``window_pending:
holders`` (R-WIN-3), where the characters pending are exactly those that have a window action,
is a pending character dealt a hand that has one and a character that is not pending a hand
that has none.

Not modelled: what a player might infer from the others' earlier choices (a pass in an
earlier thirst window says nothing here about that hand now; a later picker that has given a
card away may still hold the one passed to it), and the contents of trade offers between two
other characters, which are kept as they are.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import attrs

from .effects import copy_event
from .rng import Rng, seed_state
from .stages import Window
from .views import told

if TYPE_CHECKING:
    from .engine import Game

NAV_ZONES = ("navigation", "drawn", "rowing_pile", "current")
HAND_TRIES = 200        # hands dealt to one constrained character before starting again
ATTEMPTS = 30           # whole deals before the fallback


def determinize(game: "Game", viewer: str, seed: int) -> "Game":
    """A copy of ``game`` consistent with all that ``viewer``'s player has seen, the rest dealt
    again at random from ``seed`` (see the module's docstring)."""
    if type(viewer) is not str or viewer not in game.state.characters:
        raise ValueError(f"determinize needs a character in play, not {viewer!r}")
    if type(seed) is not int:
        raise ValueError(f"the seed must be an int, not {seed!r}")
    rng = Rng(seed_state(seed))
    copy = game.clone()
    if not game.over:
        events = told(game, viewer)     # read only: shared with the log where nothing is hidden
        view = game.view(viewer)
        # the copy tells the story as the viewer was told it (its navigation cards below)
        copy.log = list(events)
        copy._deep, copy._deep_upto = [], 0
        _deal_navigation(game, copy, viewer, events, view, rng)
        _deal_loyalties(copy, viewer, rng)
        copy = _deal_provisions(game, copy, viewer, events, view, rng)
    copy.state.rng = rng.next64()
    copy.refresh()
    return copy


# --------------------------------------------------------------------------- love and hate

def _deal_loyalties(copy: "Game", viewer: str, rng: Rng) -> None:
    """The others' love cards are dealt again among them, and so are their hate cards
    (R-SETUP-4: one card of each deck per player; the viewer knows only its own)."""
    others = [c for c in copy.state.characters.values() if c.id != viewer]
    for field in ("love", "hate"):
        cards = [getattr(c, field) for c in others]
        rng.shuffle(cards)
        for character, card in zip(others, cards):
            setattr(character, field, card)


# --------------------------------------------------------------------------- provisions

def known_cards(game: "Game", viewer: str, events: list, view: dict) -> set:
    """The provision cards whose kind ``viewer`` knows now, by their id: shown with their
    kind in its log or its view, and not since gone where it cannot follow them (a card that
    went into another's hand has an id it never saw; of the cards it passed on in a supply
    pick, it cannot tell which are still being passed, R-SUPPLY-1)."""
    state = game.state
    kinds = state.table.kinds
    known: set = set()
    for event in events:
        card = event.get("card")
        if type(card) is str and card in kinds and "kind" in event:
            known.add(card)
    for entry in view["characters"].values():
        known.update(c["id"] for c in entry["front"])
        known.update(c["id"] for c in entry.get("hand", ()))
    shown = {card.get("id") for card in view.get("decision", {}).get("cards", ())}
    known.update(c for c in shown if c in kinds)
    known.difference_update(c for c in state.passing if c not in shown)
    known.difference_update(state.supply)    # a card passed back under the deck (a plugin's)
    return known


def _passed_on(game: "Game", viewer: str) -> tuple[list, dict]:
    """``([(kinds, receivers)], gave)``: for each supply pick of ``viewer``, the kinds of the
    cards it passed on (it saw them all, R-SUPPLY-1) and who took a card from them after it,
    each as ``(who, log index)``, in order; and for each character the last log index at which
    a card left its hand. Read from the game's log, which follows the cards: a pick names the
    card taken (an automatic pick takes the first)."""
    groups = []
    gave: dict = {}
    passing: list = []
    kind_of: dict = {}
    picked: dict = {}
    group = None
    for index, event in enumerate(game.log):
        kind = event["type"]
        if kind == "action":
            action = event.get("action")
            if type(action) is dict and action.get("type") == "pick":
                picked[action.get("by")] = action.get("card")
            continue
        if kind != "move" or "kind" not in event:
            continue
        source, target = event["from"], event["to"]
        if source[:5] == "hand:":
            gave[source[5:]] = index
        if target == "passing":
            passing.append(event["card"])
            kind_of[event["card"]] = event["kind"]
            continue
        if source != "passing":
            continue
        who = target[5:] if target[:5] == "hand:" else None
        card = picked.pop(who, None) if who is not None else event["card"]
        if card not in passing:
            card = passing[0] if passing else None
        if card is None:
            continue
        passing.remove(card)
        if who == viewer:
            group = ([kind_of[c] for c in passing], [])
            groups.append(group)
        elif group is not None and who is not None:
            group[1].append((who, index))
        if not passing:
            group = None
    return groups, gave


def _pins(game: "Game", copy: "Game", viewer: str, known: set, truth: dict, rng: Rng) -> dict:
    """``{card: kind}``: the cards of the copy that hold the kinds ``viewer`` passed on (see
    the module's docstring), each a hidden card of a later picker that has given no card away
    since, or a card still being passed; only kinds the hidden cards have between them."""
    groups, gave = _passed_on(game, viewer)
    if not groups:
        return {}
    state = copy.state
    left: dict = {}
    for kind in truth.values():
        left[kind] = left.get(kind, 0) + 1
    pins: dict = {}
    for number, (kinds, receivers) in enumerate(groups):
        slots: list = list(receivers)
        last = number == len(groups) - 1
        open_cards = [c for c in state.passing if c not in known] if last else []
        slots += [None] * len(open_cards)
        kinds = list(kinds)
        rng.shuffle(kinds)
        places = iter(open_cards)
        for kind, slot in zip(kinds, slots):
            if slot is None:
                card = next(places)
            else:
                who, since = slot
                character = state.characters.get(who)
                if character is None or gave.get(who, -1) > since:
                    continue   # it has given a card away since: the one passed, perhaps
                hidden = [c for c in character.hand if c in truth and c not in pins]
                if not hidden:
                    continue
                card = hidden[rng.below(len(hidden))]
            if left.get(kind, 0) > 0:
                left[kind] -= 1
                pins[card] = kind
    return pins


def _hidden_places(copy: "Game", unknown: set) -> list:
    """``[(owner or None, [cards])]``: where the unknown cards are, by hand (owner) or pile."""
    state = copy.state
    places = [(who, [c for c in ch.hand if c in unknown]) for who, ch in state.characters.items()]
    places += [(None, [c for c in pile if c in unknown])
               for pile in (state.supply, state.passing, state.removed)]
    return [(who, cards) for who, cards in places if cards]


def _deal_provisions(game: "Game", copy: "Game", viewer: str, events: list, view: dict,
                     rng: Rng) -> "Game":
    """The copy with the kinds of the cards ``viewer`` does not know dealt again, and new
    ids for them."""
    table = game.state.table
    known = known_cards(game, viewer, events, view)
    unknown = {c for c in table.kinds if c not in known}
    if not unknown:
        return copy
    truth = {c: k for c, k in table.kinds.items() if c in unknown}
    pins = _pins(game, copy, viewer, known, truth, rng)
    top = game.top
    window = top if isinstance(top, Window) else None
    wanted = (game.pending, game.legal_ids(viewer))
    for attempt in range(ATTEMPTS + 2):
        # the passed-on kinds where they went, while dealing at random; not in the fallbacks
        pinned = pins if attempt < ATTEMPTS else {}
        places = _hidden_places(copy, unknown.difference(pinned))
        constrained = []
        # R-WIN-2: who is pending follows from public facts and says nothing of a hand; under
        # window_pending: holders (R-WIN-3) it tells who has a window action, and a copy keeps that
        if window is not None and game.rules.window_holders:
            pending = {d.by for d in game.pending}
            hands = {who: cards for who, cards in places if who is not None}
            constrained = [(who, hands[who], who in pending) for who in window.candidates(game)
                           if who != viewer and who not in window.passed and who in hands]
        tied = {c for _, cards, _ in constrained for c in cards}
        free = [c for _, cards in places for c in cards if c not in tied]
        pool = sorted(truth.values())
        for kind in pinned.values():
            pool.remove(kind)
        trial = copy.clone()     # a fresh copy each time: no listing kept from a deal before
        kinds = trial.state.table.kinds     # the trial's own table, changed in place
        kinds.update(pinned)
        if attempt < ATTEMPTS:
            left = _deal_hands(trial, trial.top, constrained, pool, kinds, rng)
            if left is None:
                continue
        else:
            # fallback: the constrained hands keep their kinds (at last, every card does), so
            # that the copy always shows the viewer what the game shows it
            keep = tied if attempt == ATTEMPTS else unknown
            left = list(pool)
            for card in keep:
                left.remove(truth[card])
            rng.shuffle(left)
        for card, kind in zip(free, left):
            kinds[card] = kind
        trial.refresh()
        if (trial.pending, trial.legal_ids(viewer)) == wanted:
            break
    # an offer to or from the viewer may ask for cards by ids it named: those stay (the cards
    # it gives are named by kind)
    offered = {c for o in view.get("offers", ()) for c in o["take"]}
    _new_ids(trial, unknown - offered, rng)
    return trial


def _deal_hands(trial, window, constrained, pool, kinds, rng) -> list | None:
    """Deal the constrained hands first (each pending character gets a hand with a window
    action, each other one a hand without); returns the kinds left for the other cards, in a
    random order, or None when the pool ran out of what a hand needs."""
    left = list(pool)
    rng.shuffle(left)
    for who, cards, pending in constrained:
        for _ in range(HAND_TRIES):
            picked = _sample(left, len(cards), rng)
            for card, index in zip(cards, picked):
                kinds[card] = left[index]
            if window.has_action(trial, who) == pending:
                for index in sorted(picked, reverse=True):
                    left.pop(index)
                break
        else:
            return None
    return left


def _sample(items: list, count: int, rng: Rng) -> list:
    """``count`` distinct indexes of ``items``, at random."""
    indexes = list(range(len(items)))
    for i in range(count):
        j = i + rng.below(len(indexes) - i)
        indexes[i], indexes[j] = indexes[j], indexes[i]
    return indexes[:count]


def _new_ids(copy: "Game", cards: set, rng: Rng) -> None:
    """The ``cards`` of the copy under new ids, made with a new key (the game's own would make
    the ids the game will show): wherever the state names them."""
    state = copy.state
    state.card_key = rng.next64()
    renamed = {card: state.new_card_id() for card in state.table.kinds if card in cards}
    state.table.kinds = {renamed.get(c, c): k for c, k in state.table.kinds.items()}

    def rename(zone: list) -> list:
        return [renamed.get(c, c) for c in zone]

    for character in state.characters.values():
        character.hand = rename(character.hand)
    state.supply = rename(state.supply)
    state.passing = rename(state.passing)
    state.removed = rename(state.removed)
    state.removed_face_up = rename(state.removed_face_up)
    state.card_markers = {m: rename(cs) for m, cs in state.card_markers.items()}
    state.offers = [attrs.evolve(o, take=rename(o.take)) for o in state.offers]
    copy.refresh()


# --------------------------------------------------------------------------- navigation

class _Card:
    """One navigation card as the viewer follows it through the log: ``id`` once seen."""
    __slots__ = ("id",)

    def __init__(self):
        self.id = None


def _deal_navigation(game: "Game", copy: "Game", viewer: str, events: list, view: dict,
                     rng: Rng) -> None:
    state = game.state
    log = game.log
    # how many cards each place held at the start, from the sizes now and the moves since
    sizes = {"navigation": len(state.navigation), "drawn": len(state.drawn),
             "rowing_pile": len(state.rowing_pile), "current": int(state.current is not None)}
    moves = [(i, e) for i, e in enumerate(log) if e["type"] == "move" and e["from"] in NAV_ZONES]
    for _, event in moves:
        sizes[event["from"]] += 1
        sizes[event["to"]] -= 1
    places = {zone: [_Card() for _ in range(n)] for zone, n in sizes.items()}
    moved: dict = {}      # log index -> the card that moved
    chose = False
    for index, event in enumerate(events):
        kind = event["type"]
        if kind == "navigate":
            chose = True
        if kind != "move" or event["from"] not in NAV_ZONES:
            continue
        source = places[event["from"]]
        seen = event.get("card")
        card = _take(source, seen, chose and event["to"] == "current", rng)
        chose = False
        if seen is not None:
            card.id = seen
        places[event["to"]].append(card)
        moved[index] = card
    # what the view shows now: the card being resolved, and the cards of a decision
    if state.current is not None and places["current"]:
        places["current"][0].id = state.current
    decision = view.get("decision", {})
    zone = {"place": "drawn", "navigate": "rowing_pile"}.get(decision.get("kind"))
    if zone is not None:
        for card, data in zip(places[zone], decision.get("cards", ())):
            card.id = data["id"]
    seen_ids = {c.id for cards in places.values() for c in cards if c.id is not None}
    hidden = [c for cards in places.values() for c in cards if c.id is None]
    ids = [n for n in state.table.navcards if n not in seen_ids]
    if len(ids) != len(hidden):    # the log does not follow the cards (a plugin's moves)
        return
    rng.shuffle(ids)
    for card, nav in zip(hidden, ids):
        card.id = nav
    cstate = copy.state
    cstate.navigation = [c.id for c in places["navigation"]]
    cstate.drawn = [c.id for c in places["drawn"]]
    cstate.rowing_pile = [c.id for c in places["rowing_pile"]]
    _rewrite_navigation(copy, moves, moved)


def _take(source: list, seen: str | None, chosen: bool, rng: Rng) -> "_Card":
    """The card that leaves a place: the one seen if the viewer knows where it was; otherwise
    the first (cards are drawn from the top, and go on in the order they were put), or, for a
    card the navigator chose, any card the viewer could not tell apart from it."""
    if seen is not None:
        for i, card in enumerate(source):
            if card.id == seen:
                return source.pop(i)
    if source and source[0].id is None and not chosen:
        return source.pop(0)
    blind = [i for i, card in enumerate(source) if card.id is None]
    if not blind:    # not a deck this module can follow; keep the story going
        return source.pop(0) if source else _Card()
    return source.pop(blind[rng.below(len(blind))])


def _rewrite_navigation(copy: "Game", moves: list, moved: dict) -> None:
    """Every navigation move of the copy's log names the card the copy says moved, and a
    rower's kept pile names the cards it put on the rowing pile."""
    log = copy.log
    kept: list = []
    place_action = None
    for index, event in enumerate(log):
        if event["type"] == "action" and event["action"].get("type") == "place":
            place_action, kept = index, []
            continue
        card = moved.get(index)
        if card is not None and event.get("card") != card.id:
            event = copy_event(event)
            event["card"] = card.id
            log[index] = event
        if card is not None and event["from"] == "drawn" and event["to"] == "rowing_pile":
            kept.append(card.id)
        if event["type"] == "place" and place_action is not None:
            action_event = log[place_action]
            if action_event["action"].get("pile") != kept:
                action_event = copy_event(action_event)
                action_event["action"]["pile"] = kept
                log[place_action] = action_event
            place_action = None
