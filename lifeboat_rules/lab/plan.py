"""What a study plays: rulesets, player count, seeds, bots per seat, and the designers'
questions asked of it (docs/balance.md)."""

from __future__ import annotations

import copy
import difflib
from dataclasses import dataclass

import yaml

from .. import load_ruleset, new_game
from ..bots import BOTS
from ..errors import ContentError
from ..effects import CONTAINERS
from ..words import character_name

DEFAULT_BOTS = ("heuristic",)       # random play says little about people's games
ROBUST_BOTS = ("random", "heuristic", "search")
ROBUST_SEARCH_GAMES = 200           # the search study of --robust: at least this many games
# Bots whose games are the same under window_pending: holders as under the default (R-WIN-3):
# they spend nothing on a pass they must make (the lab makes it unasked) and read nothing of
# who passed. tests/test_lab_holders.py shows it over many seeds of every built-in ruleset;
# a search seat is not among them (its imagined worlds differ under the two options).
HOLDERS_SAFE = frozenset({"random", "heuristic"})
# events that exist only for the passes holders leaves out
PASS_EVENTS = frozenset({"pass", "action"})
# Every event type the shipped rules and expansions emit: tests/test_events.py keeps
# effects.CONTAINERS complete, so --count checks against it rather than a copy of its own.
BUILT_IN_EVENTS = frozenset(CONTAINERS)


@dataclass(frozen=True)
class Plan:
    """``games`` games with seeds ``seed``, ``seed + 1``, ... under ``rulesets[0]`` and, on
    the same seeds and seats, under each other ruleset (the one compared, the values of a
    varied field), and restricted when ``restrict`` names action types.

    Rulesets travel as their flattened definitions (what a saved game carries), so a worker
    process or a Dask worker loads exactly the same ruleset without reading the user's files
    (plugins named in them must be importable there).
    """

    rulesets: tuple          # flattened definitions (mappings)
    names: tuple             # their names
    players: int
    seed: int
    games: int
    bots: tuple              # bot names, by seat in deal order, cycled to the player count
    rotate: bool = False     # move the bots one seat toward the stern each game
    order: tuple = ()        # the characters in seat order of a full table (for tables, plots)
    count: tuple = ()        # event types (or TYPE:KIND) counted in every game
    restrict: tuple = ()     # action types a rotating seat avoids (restricted play)
    vary: tuple = ()         # (content path, (value, ...)): rulesets[-len(values):] are they
    compared: bool = False   # rulesets[1] is the ruleset compared
    robust: bool = False     # the study again under random, heuristic and search seats
    robust_games: int = 0    # games of the search study of --robust
    characters: tuple = ()   # (id, display name) of every character in ``order``
    holders: bool = False    # played with window_pending: holders for speed (``fast``)
    sources: tuple = ()      # the rulesets as named on the command line (for a replay command)
    doubts: tuple = ()       # warnings: counted types no plugin is known to emit (event_types)

    @classmethod
    def make(cls, ruleset="classic", games: int = 1, players: int | None = None, seed: int = 1,
             bots=DEFAULT_BOTS, rotate: bool = False, compare=None, count=(), restrict=(),
             vary=None, robust: bool = False, robust_games: int | None = None,
             fast: bool = True) -> "Plan":
        """A plan from what the command line takes; ValueError (or ContentError) if it cannot
        be played. ``vary`` is ``(path, [value, ...])`` or ``"path=v1,v2"``. ``fast``: play
        under ``window_pending: holders`` where that gives the same games (``fast_for``)."""
        loaded = [load_ruleset(ruleset)]
        if compare is not None:
            loaded.append(load_ruleset(compare))
        if players is None:
            players = max(loaded[0].players)
        varied = ()
        if vary is not None:
            path, values = parse_vary(vary) if isinstance(vary, str) else vary
            specs = [varied_spec(loaded[0], path, value) for value in values]
            for value, spec in zip(values, specs):
                try:
                    loaded.append(load_ruleset(spec))
                except ContentError as exc:
                    # the value given on the command line, not the mapping the lab made of it
                    problems = "; ".join(p.message for p in exc.details)
                    raise ValueError(f"--vary: {path}={value!r} cannot be played: {problems}") from None
            varied = (path, tuple(values))
        for each in loaded:
            if players not in each.players:
                raise ValueError(f"{each.name} is played by {min(each.players)} to "
                                 f"{max(each.players)} players, not {players} (R-SETUP-1)")
        if games < 1:
            raise ValueError("--games must be at least 1")
        bots = tuple(bots) or DEFAULT_BOTS
        unknown = [b for b in bots if b not in BOTS]
        if unknown:
            raise ValueError(f"unknown bot {unknown[0]!r}" + _nearest(unknown[0], BOTS)
                             + f"; known bots: {', '.join(sorted(BOTS))}")
        if len(bots) > players:
            raise ValueError(f"{len(bots)} bots named for {players} seats")
        types = loaded[0].rules.types
        for name in restrict:
            if name not in types:
                raise ValueError(f"--restrict: no action type {name!r} in {loaded[0].name}"
                                 + _nearest(name, types) + f"; action types: {', '.join(sorted(types))}")
        known, unsure = event_types(loaded)
        kinds = provision_kinds(loaded)
        played = " or ".join(dict.fromkeys(r.name for r in loaded))    # the rulesets looked at
        doubts = []
        for name in count:
            if not name or name.count(":") > 1 or not all(name.split(":")):
                raise ValueError(f"--count: {name!r} is not an event type or TYPE:KIND")
            kind = name.split(":")[0]
            if kind not in known:
                # refused before any game is played: a misspelt type would count nothing
                # for the whole run
                message = (f"--count: no event type {kind!r} in {played}"
                           + _nearest(kind, known, 3) + f"; event types: {', '.join(sorted(known))}")
                if not unsure:
                    raise ValueError(message)
                plugins = (f"the plugin {unsure[0]} declares" if len(unsure) == 1 else
                           f"the plugins {', '.join(unsure)} declare")
                doubts.append(message + f" (counted anyway: {plugins} no LIFEBOAT_EVENTS, so "
                                        "the games may hold event types not listed here)")
            if ":" in name:
                kind = name.split(":")[1]
                if kind not in kinds:
                    raise ValueError(f"--count: no provision kind {kind!r} in {played}"
                                     + _nearest(kind, kinds)
                                     + f"; provision kinds: {', '.join(sorted(kinds))}")
        order: list = []
        names: dict = {}
        for each in loaded:
            game = new_game(each, players=max(each.players), seed=0)
            for character in game.view(None)["seats"]:
                if character not in order:
                    order.append(character)
                    names[character] = character_name(game, character)
        if robust_games is None:
            robust_games = min(games, max(ROBUST_SEARCH_GAMES, games // 10))
        specs = tuple(r.spec for r in loaded)
        return cls(rulesets=specs, names=tuple(r.name for r in loaded),
                   players=players, seed=seed, games=games, bots=bots, rotate=rotate,
                   order=tuple(order), count=tuple(count), restrict=tuple(restrict),
                   vary=varied, compared=compare is not None, robust=robust,
                   robust_games=robust_games,
                   characters=tuple((c, names[c]) for c in order),
                   holders=fast and fast_for(specs, bots, count), doubts=tuple(doubts),
                   sources=tuple(r if isinstance(r, str) else None
                                 for r in (ruleset, compare)[:1 + (compare is not None)]))

    @property
    def comparing(self) -> bool:
        return self.compared

    @property
    def arms(self) -> list:
        """What each seed is played as, in order: ``(ruleset index, restricted)``; the first
        is the study itself."""
        arms = [(0, False)]
        if self.compared:
            arms.append((1, False))
        if self.restrict:
            arms.append((0, True))
        if self.vary:
            first = len(self.rulesets) - len(self.vary[1])
            arms += [(first + i, False) for i in range(len(self.vary[1]))]
        return arms

    def plain(self, bots: tuple, games: int) -> "Plan":
        """The study alone (no comparison, restriction, variation or robustness), with
        other bots and games: what ``--robust`` plays."""
        return Plan(rulesets=self.rulesets[:1], names=self.names[:1], players=self.players,
                    seed=self.seed, games=games, bots=bots, rotate=False, order=self.order,
                    count=self.count, characters=self.characters,
                    holders=fast_for(self.rulesets[:1], bots, self.count),
                    sources=self.sources[:1])

    def to_dict(self) -> dict:
        """What ``runner.play_seeds`` takes (plain data, cheap to send to a worker)."""
        return {"rulesets": list(self.rulesets), "players": self.players, "seed": self.seed,
                "bots": list(self.bots), "rotate": self.rotate, "arms": self.arms,
                "count": list(self.count), "restrict": list(self.restrict),
                "holders": self.holders, "sources": list(self.sources)}


def fast_for(specs, bots, count) -> bool:
    """Whether the games of these rulesets, bots and counts are the same under
    ``window_pending: holders`` as under the rulesets' own option (R-WIN-3): every bot is one
    of ``HOLDERS_SAFE``, no pass event is counted, and no ruleset chose the option itself."""
    return (all(b in HOLDERS_SAFE for b in bots)
            and not any(name.split(":")[0] in PASS_EVENTS for name in count)
            and not any("window_pending" in spec.get("options", {}) for spec in specs))


def with_holders(spec: dict) -> dict:
    """A flattened ruleset played under ``window_pending: holders``."""
    return {**spec, "options": {**spec.get("options", {}), "window_pending": "holders"}}


def event_types(rulesets) -> tuple:
    """``(types, unsure)``: the event types the games of ``rulesets`` may hold, and the plugins
    of theirs that may emit others. The types are the shipped rules' (``BUILT_IN_EVENTS``),
    those a plugin declares in its module constant ``LIFEBOAT_EVENTS`` (the complete list of
    the types it emits) and those the content gives words for (``words: {LANG: {events:
    {TYPE: ...}}}``, a house rule's own events). A plugin from outside the package that
    declares no ``LIFEBOAT_EVENTS`` may emit any type: it is ``unsure`` (docs/balance.md)."""
    types = set(BUILT_IN_EVENTS)
    unsure: dict = {}
    for ruleset in rulesets:
        rules = ruleset.rules
        for plugin, name in rules.names.items():
            declared = getattr(plugin, "LIFEBOAT_EVENTS", None)
            if declared is not None:
                types.update(declared)
            elif name not in rules.trusted:
                unsure[name.partition(":")[2] or name] = True
        for table in (ruleset.content.raw.get("words") or {}).values():
            if isinstance(table, dict) and isinstance(table.get("events"), dict):
                types.update(k for k in table["events"] if isinstance(k, str))
    return frozenset(types), tuple(unsure)


def provision_kinds(rulesets) -> frozenset:
    """The provision kinds of every ruleset played: a kind of the compared ruleset (a house
    rule's new card) is counted in each, as 0 where it is not dealt (docs/balance.md)."""
    return frozenset(kind for ruleset in rulesets for kind in ruleset.content.provisions)


def _nearest(word: str, known, n: int = 1) -> str:
    close = difflib.get_close_matches(word, sorted(known), n=n)
    return f" (did you mean {' or '.join(map(repr, close))}?)" if close else ""


def parse_vary(text: str) -> tuple:
    """``"characters.the_kid.size=2,3,4"`` -> ``("characters.the_kid.size", [2, 3, 4])``
    (each value read as YAML: numbers, true/false, words)."""
    path, sep, values = text.partition("=")
    path = path.strip()
    if not sep or not path or not values.strip():
        raise ValueError(f"--vary takes PATH=V1,V2,... (e.g. characters.the_kid.size=2,3,4), "
                         f"not {text!r}")
    parsed = [yaml.safe_load(v.strip()) for v in values.split(",") if v.strip()]
    return path, parsed


def varied_spec(ruleset, path: str, value) -> dict:
    """The ruleset's flattened definition with the content field ``path`` set to ``value``,
    named after it; ValueError if the content has no such field."""
    keys = path.split(".")
    node = ruleset.content.raw
    for depth, key in enumerate(keys):
        if not isinstance(node, dict) or key not in node:
            where = ".".join(keys[:depth]) or "the content"
            known = list(node) if isinstance(node, dict) else []
            raise ValueError(f"--vary: {where} has no field {key!r}" + _nearest(key, known))
        node = node[key]
    if isinstance(node, (dict, list)):
        raise ValueError(f"--vary: {path} is not a single value")
    spec = copy.deepcopy(ruleset.spec)
    target = spec.setdefault("overrides", {})
    for key in keys[:-1]:
        target = target.setdefault(key, {})
    target[keys[-1]] = value
    spec["name"] = f"{ruleset.name} {path}={value}"
    return spec
