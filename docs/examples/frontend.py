"""A small typed front end for lifeboat_rules (docs/api.md, "Front ends").

It seats one person (answered here by a bot, so that it runs on its own) and bots for the
other seats, shows the person's view and what happened in words, in two languages, sends
moves as integers, words refusals from their fields, saves and restores the game, and plays
each game in a worker thread of its own. It type-checks under ``mypy --strict`` with no
``Any`` from the library (tests/test_typing.py checks it, and runs it).

    python docs/examples/frontend.py
"""

# mypy: disallow-any-expr
from __future__ import annotations

import asyncio
import json
from concurrent.futures import ThreadPoolExecutor
from typing import cast

import lifeboat_rules as lr
from lifeboat_rules.bots import Bot, make_bot
from lifeboat_rules.types import Action, Event, FeedEntry, Result, View


# --- the table as one player sees it --------------------------------------------------------

def show_table(game: lr.Game, me: str, lang: str) -> list[str]:
    """A few lines of ``me``'s view: everyone's damage, my hand, my love and hate."""
    view: View = game.view(me)
    lines = [f"round {view['round']}, {view['phase']}, seagulls {view['seagulls']}"]
    for who in view["seats"]:
        seat = view["characters"][who]
        front = ", ".join(card["kind"] for card in seat["front"]) or "-"
        lines.append(f"{who}: {seat['damage']}/{seat['size']} {seat['status']}, "
                     f"{seat['hand_size']} in hand, face up: {front}")
    hand = [card["kind"] for card in view["characters"][me].get("hand", [])]
    lines.append(f"my hand: {', '.join(hand) or '-'}; love {view.get('love')}, "
                 f"hate {view.get('hate')}")
    decision = view.get("decision")
    if decision is not None and decision["kind"] == "pick":
        passed = [card["kind"] for card in decision.get("cards", [])]
        lines.append(f"passed to me: {', '.join(passed)}")
    return lines


# --- what happened, in words ----------------------------------------------------------------

class Feed:
    """What one player is told, polled: the game's own story (``game.feed``, one sentence per
    move), and the typed events behind it (``events_for``) for what the screen must react to."""

    def __init__(self, game: lr.Game, me: str, lang: str) -> None:
        self.game = game
        self.me = me
        self.lang = lang
        self.seen = 0          # events_for: the next log index to read
        self.told_from = 0     # feed: the next log index to tell

    def new_lines(self) -> list[str]:
        entries: list[FeedEntry] = self.game.feed(self.me, since=self.told_from, lang=self.lang)
        if entries:
            self.told_from = entries[-1]["index"] + 1
        return [entry["text"] for entry in entries]

    def my_damage(self) -> list[str]:
        """The damage I took since the last call, each in a sentence worded for me."""
        events: list[Event] = self.game.events_for(self.me, since=self.seen)
        self.seen += len(events)
        said: list[str] = []
        for event in events:
            if event["type"] == "damage" and event["character"] == self.me:
                amount: int = event["amount"]   # the type narrows the union: a DamageEvent
                assert amount > 0
                said.append(lr.describe(event, self.game, self.lang, viewer=self.me))
        return said


# --- refusals in the front end's own words --------------------------------------------------

REFUSAL_WORDS = {
    "en": "That move is not allowed ({rule}): look at the {field}.",
    "zh": "这一步不合规则（{rule}）：请检查{field}。",
}


def word_refusal(error: lr.IllegalAction, lang: str) -> str:
    """A refusal worded from its structured fields (``rule``, ``field``, ``value``)."""
    field = error.field or "move"
    return REFUSAL_WORDS.get(lang, REFUSAL_WORDS["en"]).format(rule=error.rule, field=field)


# --- a seat: the person's turn, sent as an integer ------------------------------------------

def person_moves(game: lr.Game, me: str, chooser: Bot, lang: str) -> str:
    """The person's move: the menu labelled with ``describe``, the choice sent as an integer,
    guarded by the move counter (a move made on a stale screen is not sent)."""
    menu: list[tuple[int, str]] = [
        (number, lr.describe(game.action_of(me, number), game, lang, viewer=me))
        for number in game.legal_ids(me)]
    assert menu, "the person is pending, so it has a move"
    seen_at = game.actions_applied            # the screen was drawn at this move
    chosen: Action = chooser.choose(game, me)  # here a bot answers for the person
    number = game.action_id(chosen)            # its integer, below game.num_actions
    assert chosen in game.legal_actions(me) and 0 <= number < game.num_actions
    label = next(text for n, text in menu if n == number)
    if game.actions_applied != seen_at:
        return "stale screen: drawn again"
    preview: list[Event] = game.clone().apply_id(me, number)   # try it on a copy first
    assert game.actions_applied == seen_at and preview
    game.apply_id(me, number)
    return label


def hidden_worlds(game: lr.Game, me: str, count: int) -> list[int]:
    """What a search would look at: games dealt again where ``me`` cannot see (other hands,
    the decks), each consistent with ``me``'s view; here, how many cards each opponent holds."""
    worlds = [game.determinize(me, seed) for seed in range(count)]
    return [sum(len(w.view(c)["characters"][c].get("hand", [])) for c in w.view(None)["seats"]
                if c != me) for w in worlds]


def try_a_wrong_move(game: lr.Game, me: str, lang: str) -> str | None:
    """Send a move that is not legal now and word the refusal; the game is unchanged."""
    before = game.actions_applied
    try:
        game.apply({"by": me, "type": "rob", "target": me, "card": "hand"})
    except lr.IllegalAction as error:
        assert game.actions_applied == before
        return word_refusal(error, lang)
    return None


# --- a whole game: bots, saving and restoring, two languages --------------------------------

def play(seed: int, players: int = 4, lang: str = "en") -> tuple[Result, list[str]]:
    """Play one game to the end: the first seat is the person, bots play the others; halfway
    the game is saved to JSON and restored, as a server would after a restart. Returns the
    result and what the person's screen told, in ``lang`` and in the other language."""
    ruleset = lr.load_ruleset("classic")
    game = lr.new_game(ruleset, players=players, seed=seed)
    me = game.view(None)["seats"][0]
    bots: dict[str, Bot] = {c: make_bot("heuristic", seed=seed + i)
                            for i, c in enumerate(game.view(None)["seats"]) if c != me}
    person = make_bot("random", seed=seed)
    feeds = [Feed(game, me, lang), Feed(game, me, "zh" if lang == "en" else "en")]
    told: list[str] = []
    refusal = try_a_wrong_move(game, me, lang)
    assert refusal is not None
    saved_once = False
    while not game.over:
        decision: lr.Decision = game.pending[0]
        if decision.by == me:
            told.extend(show_table(game, me, lang))
            if decision.kind == "turn" and not saved_once:
                held = sum(game.view(None)["characters"][c]["hand_size"]
                           for c in game.view(None)["seats"] if c != me)
                assert hidden_worlds(game, me, 2) == [held, held]
            told.append(person_moves(game, me, person, lang))
        else:
            bot = bots.get(decision.by) or person   # a ghost's seat, or a seat dealt later
            game.apply(bot.choose(game, decision.by))
        for feed in feeds:
            told.extend(feed.new_lines())
            told.extend(feed.my_damage())
        if not saved_once and game.view(None)["round"] >= 3:
            text = json.dumps(game.to_dict())
            restored = lr.Game.from_dict(cast(object, json.loads(text)))
            assert restored.actions_applied == game.actions_applied
            assert restored.view(me) == game.view(me)
            game, saved_once = restored, True
            for feed in feeds:
                feed.game = game
    result = game.result
    assert result is not None
    return result, told


# --- one worker thread per game, for an asyncio server --------------------------------------

class Table:
    """One game and the one thread that touches it: a game is not shared between threads,
    so every call on it goes through this table's own single worker."""

    def __init__(self, seed: int, players: int) -> None:
        self.worker = ThreadPoolExecutor(max_workers=1)
        self.game = lr.new_game("classic", players=players, seed=seed)
        self.bot = make_bot("random", seed=seed)

    def _step(self) -> int:
        """One move by a bot for the first pending decision, unless the game is over (runs in
        the worker, like every call on this table's game)."""
        if not self.game.over:
            decision = self.game.pending[0]
            self.game.apply(self.bot.choose(self.game, decision.by))
        return self.game.actions_applied

    async def step(self) -> int:
        return await asyncio.get_running_loop().run_in_executor(self.worker, self._step)

    async def public_view(self) -> View:
        return await asyncio.get_running_loop().run_in_executor(self.worker, self.game.view)


async def serve_tables(seeds: list[int], moves: int) -> list[int]:
    """Several games at once: each table's moves run in its own worker, so a slow game never
    blocks the event loop or another game."""
    tables = [Table(seed, players=5) for seed in seeds]
    try:
        for _ in range(moves):
            await asyncio.gather(*(table.step() for table in tables))
        views = await asyncio.gather(*(table.public_view() for table in tables))
        return [view["seagulls"] for view in views]
    finally:
        for table in tables:
            table.worker.shutdown()


def main() -> None:
    result, told = play(seed=7)
    print("\n".join(told[-4:]))
    print("winners:", ", ".join(result["winners"]), "scores:", result["scores"])
    print("seagulls at four tables:", asyncio.run(serve_tables([1, 2, 3, 4], moves=40)))


if __name__ == "__main__":
    main()
