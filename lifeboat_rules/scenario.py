"""Rules-reference scenarios (docs/scenarios.md): load, run and check them.

``lifeboat-rules check PATH...`` runs every scenario of every file (a folder: every ``*.yaml``
below it) and prints ``PASS name`` or ``FAIL name: what differed``.
"""

from __future__ import annotations

import os
from collections import Counter
from typing import Iterable

import attrs
import yaml

from . import validation
from .content import did_you_mean
from .engine import new_game
from .errors import ContentError, IllegalAction, PluginError, problem_lines
from .plugins import origin
from .rulesets import load_ruleset_at
from .stages import Window
from .yamlio import check_json_like, line_of, read_yaml

MAX_PASSES = 10_000   # a `pass: all` that never closes is a failure, not a hang


@attrs.frozen
class Scenario:
    name: str
    data: dict
    where: str        # file (and index) for messages
    folder: str       # relative ruleset paths are relative to the scenario's file
    file: str = ""    # the file, and the scenario's place in it (for the lines of problems)
    prefix: str = ""


@attrs.frozen
class Outcome:
    scenario: Scenario | None
    name: str
    passed: bool
    message: str = ""

    def line(self) -> str:
        return f"PASS {self.name}" if self.passed else f"FAIL {self.name}: {self.message}"


class ScenarioFailure(Exception):
    """A scenario that does not hold; ``place``: the part of it that failed (``steps[2]``,
    ``expect``), for the line it is written on."""

    place: str | None = None


def scenario_files(paths: Iterable[str]) -> list[str]:
    """The files to run: files as given, folders searched for ``*.yaml`` / ``*.yml``."""
    found = []
    for path in paths:
        if os.path.isdir(path):
            for root, dirs, files in os.walk(path):
                dirs.sort()
                for name in sorted(files):
                    if name.endswith((".yaml", ".yml")):
                        found.append(os.path.join(root, name))
        else:
            found.append(path)
    return found


def load_file(path: str) -> list[Scenario]:
    """Every scenario of a file, checked against ``schemas/scenario.schema.json``."""
    document = read_yaml(path)
    check_json_like(document, path)
    kind = validation.document_kind(document)
    if kind != "scenario" and isinstance(document, dict) and not set(document) & validation.SCENARIO_ONLY_KEYS:
        # (a ruleset handed to `check`: its schema error as a scenario would dump the file)
        raise ContentError(f"this is a {kind} file, not a scenario file: `lifeboat-rules check` runs "
                           f"scenario files (docs/scenarios.md); `lifeboat-rules validate {path}` "
                           f"checks a {kind} file", where=path)
    validation.check("scenario", document, path, file=path)
    if isinstance(document, dict) and "scenarios" in document:
        items = document["scenarios"]
    elif isinstance(document, list):
        items = document
    else:
        items = [document]
    folder = os.path.dirname(os.path.abspath(path))
    stem = os.path.splitext(os.path.basename(path))[0]
    out = []
    for index, item in enumerate(items):
        name = item.get("name") or (stem if len(items) == 1 else f"{stem}[{index}]")
        where = path if len(items) == 1 else f"{path}[{index}]"
        prefix = (f"scenarios[{index}]" if isinstance(document, dict) and "scenarios" in document
                  else f"[{index}]" if isinstance(document, list) else "")
        out.append(Scenario(name, item, where, folder, path, prefix))
    return out


def run(scenario: Scenario) -> Outcome:
    try:
        _run(scenario)
    except ScenarioFailure as exc:
        return Outcome(scenario, scenario.name, False, f"{exc} ({_where_failed(scenario, exc.place)})")
    except ContentError as exc:
        return Outcome(scenario, scenario.name, False, f"invalid: {exc}")
    except PluginError as exc:     # a plugin raised while the position was set up
        return Outcome(scenario, scenario.name, False,
                       f"setting up the position: {exc}{_raised_at(exc)} ({scenario.where})")
    return Outcome(scenario, scenario.name, True)


def _where_failed(scenario: Scenario, place: str | None) -> str:
    """The scenario's file (and index), with the line of the part that failed when known."""
    if not place or not scenario.file:
        return scenario.where
    found = line_of(scenario.file, f"{scenario.prefix}.{place}".replace(".[", "[") if scenario.prefix else place)
    return f"{scenario.where}, line {found}" if found is not None else scenario.where


def _raised_at(exc: PluginError) -> str:
    """`` (file, line N)`` where the plugin's own exception was raised, if known."""
    return origin(exc.__cause__) if exc.__cause__ is not None else ""


def game_for(scenario: Scenario):
    """The game a scenario's setup describes (its phase begun)."""
    data = scenario.data
    ruleset = load_ruleset_at(data.get("ruleset", "classic"), scenario.folder)
    try:
        return new_game(ruleset, seed=data.get("seed", 0), setup_data=data["setup"],
                        where=scenario.where)
    except ContentError as exc:
        if exc.where != scenario.where or not scenario.file:
            raise
        raise _with_lines(exc, scenario) from None


def _with_lines(exc: ContentError, scenario: Scenario) -> ContentError:
    """The problems of a scenario's setup with the line each is written on."""
    def line(path: str) -> str | None:
        place = f"{scenario.prefix}.{path}" if scenario.prefix else path
        found = line_of(scenario.file, place.replace(".[", "["))
        return f"line {found}" if found is not None else None

    found = []
    for problem in exc.details:
        path = problem.path or ""
        found.append((path, problem.message, line(path)) if path.startswith("setup")
                     else (problem.path, problem.message))
    return validation.problems_error(found, exc.where or scenario.where, file=scenario.file)


def _run(scenario: Scenario) -> None:
    data = scenario.data
    game = game_for(scenario)
    for number, step in enumerate(data.get("steps", []), start=1):
        try:
            _step(game, step, number)
        except ScenarioFailure as exc:
            exc.place = f"steps[{number - 1}]"
            raise
    if "expect" in data:
        try:
            _check(game, data["expect"], "")
        except ScenarioFailure as exc:
            exc.place = "expect"
            raise


def _step(game, step: dict, number: int) -> None:
    if "expect" in step:
        _check(game, step["expect"], f"step {number}: ")
    elif "illegal" in step:
        _illegal(game, step["illegal"], number)
    elif "pass" in step:
        _pass(game, step["pass"], number)
    else:
        try:
            game.apply(step)
        except PluginError as exc:     # not a refusal by the rules: a plugin that failed
            raise ScenarioFailure(f"step {number}: {_brief(step)} made a plugin fail: "
                                  f"{exc}{_raised_at(exc)}") from None
        except IllegalAction as exc:
            raise ScenarioFailure(f"step {number}: {_brief(step)} was refused: {exc}") from None


def _brief(value) -> str:
    """A value as a scenario file writes it (``{by: first_mate, type: row}``, ``[nav-19]``,
    ``turn``): the author's own words, not Python's reprs of the engine's records."""
    text = yaml.safe_dump(_plain(value), default_flow_style=True, width=float("inf"),
                          allow_unicode=True, sort_keys=False)
    return text.removesuffix("...\n").strip()


def _plain(value):
    """``value`` made of plain YAML types (a decision kind or a status is a str enum)."""
    if isinstance(value, str):
        return str(value)
    if isinstance(value, dict):
        return {_plain(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    return value if value is None or isinstance(value, (bool, int, float)) else repr(value)


def _illegal(game, action, number: int) -> None:
    before = game.to_dict()
    try:
        game.apply(action)
    except PluginError as exc:      # a crash is no ruling that the action is illegal
        raise ScenarioFailure(f"step {number}: {_brief(action)} made a plugin fail, rather than "
                              f"being refused by the rules: {exc}{_raised_at(exc)}") from None
    except IllegalAction:
        if game.to_dict() != before:
            raise ScenarioFailure(f"step {number}: the refused action changed the game") from None
        return
    raise ScenarioFailure(f"step {number}: {_brief(action)} was accepted but must be illegal")


def _pass(game, who, number: int) -> None:
    top = game.top
    if who == "all":
        if not isinstance(top, Window):
            return
        for _ in range(MAX_PASSES):
            if not any(stage is top for stage in game.state.stack) or game.over:
                return
            waiting = game.pending
            if not waiting:
                return
            decision = waiting[0]
            try:
                game.apply({"by": decision.by, "type": "pass"})
            except IllegalAction as exc:
                raise ScenarioFailure(f"step {number}: {decision.by} could not pass: {exc}") from None
        raise ScenarioFailure(f"step {number}: the window did not close after {MAX_PASSES} passes")
    for character in who:
        try:
            game.apply({"by": character, "type": "pass"})
        except IllegalAction as exc:
            raise ScenarioFailure(f"step {number}: {character} could not pass: {exc}") from None


# --------------------------------------------------------------------------- checks

def _as_set(values) -> list:
    return sorted(set(values))


def _check(game, expect: dict, prefix: str) -> None:
    problems = []
    state = game.state
    chars = state.characters
    kinds = state.table.kinds

    def differ(what, wanted, got):
        problems.append(f"{what}: expected {_brief(wanted)}, got {_brief(got)}")

    def character(who):
        if who not in chars:
            problems.append(f"{who!r} is not a character in play; {did_you_mean(str(who), chars)}")
            return None
        return chars[who]

    def known(what, values, ids, word):
        """Whether every id ``values`` names is one of ``ids``; a misspelt one is said (with
        the near ones) rather than compared."""
        unknown = [v for v in values if v not in ids]
        for value in unknown:
            problems.append(f"{what}: unknown {word} {value!r}; {did_you_mean(str(value), ids)}")
        return not unknown

    provisions = game.rules.content.provisions

    for who, wanted in expect.get("damage", {}).items():
        ch = character(who)
        if ch is not None and ch.damage != wanted:
            differ(f"damage of {who}", wanted, ch.damage)
    for who, wanted in expect.get("status", {}).items():
        ch = character(who)
        if ch is not None and ch.status != wanted:
            differ(f"status of {who}", wanted, ch.status.value)
    if "seats" in expect and state.seats != expect["seats"]:
        differ("seats", expect["seats"], state.seats)
    for zone in ("hand", "front"):
        for who, wanted in expect.get(zone, {}).items():
            ch = character(who)
            if ch is None:
                continue
            got = [kinds[c] for c in getattr(ch, zone)]
            if known(f"{zone} of {who}", wanted, provisions, "provision") \
                    and Counter(got) != Counter(wanted):
                differ(f"{zone} of {who}", sorted(wanted), sorted(got))
    for who, wanted in expect.get("hand_size", {}).items():
        ch = character(who)
        if ch is not None and len(ch.hand) != wanted:
            differ(f"hand size of {who}", wanted, len(ch.hand))
    if "discard" in expect:
        got = [kinds[c] for c in state.discard]
        if known("discard", expect["discard"], provisions, "provision") \
                and Counter(got) != Counter(expect["discard"]):
            differ("discard", sorted(expect["discard"]), sorted(got))
    if "supply" in expect and len(state.supply) != expect["supply"]:
        differ("supply", expect["supply"], len(state.supply))
    if "navigation" in expect:
        navcards = {**game.rules.content.navigation, **state.table.navcards}   # and inline ones
        if known("navigation", expect["navigation"], navcards, "navigation card") \
                and state.navigation != expect["navigation"]:
            differ("navigation", expect["navigation"], state.navigation)
    if "rowing_pile" in expect and len(state.rowing_pile) != expect["rowing_pile"]:
        differ("rowing_pile", expect["rowing_pile"], len(state.rowing_pile))
    if "seagulls" in expect and state.seagulls != expect["seagulls"]:
        differ("seagulls", expect["seagulls"], state.seagulls)
    for key, marker in (("rowed", "rowed"), ("fought", "fought"), ("parasol_active", "parasol")):
        if key in expect:
            got = [c for c, ch in chars.items() if marker in ch.markers]
            if _as_set(got) != _as_set(expect[key]):
                differ(key, _as_set(expect[key]), _as_set(got))
    if "phase" in expect and state.phase != expect["phase"]:
        differ("phase", expect["phase"], state.phase.value)
    if "round" in expect and state.round != expect["round"]:
        differ("round", expect["round"], state.round)
    pending = game.pending
    if "pending" in expect:
        got = _as_set(d.by for d in pending)
        if got != _as_set(expect["pending"]):
            differ("pending", _as_set(expect["pending"]), got)
    for who, kind in expect.get("decisions", {}).items():
        got = [d.kind for d in pending if d.by == who]
        if kind not in got:
            problems.append(f"decision of {who}: expected {_brief(kind)}, got "
                            f"{' and '.join(_brief(k) for k in got) or 'no decision pending'}")
    if "over" in expect and state.over != expect["over"]:
        differ("over", expect["over"], state.over)
    if "scores" in expect or "winners" in expect:
        result = game.result
        if result is None:
            problems.append("scores: the game is not over")
        else:
            for who, wanted in expect.get("scores", {}).items():
                got = result["scores"].get(who)
                if got != wanted:
                    parts = result["breakdown"].get(who)
                    problems.append(f"score of {who}: expected {wanted}, got {got} {_brief(parts)}")
            if "winners" in expect and _as_set(result["winners"]) != _as_set(expect["winners"]):
                differ("winners", _as_set(expect["winners"]), _as_set(result["winners"]))
    if "events" in expect:
        missing = _missing_event(game.log, expect["events"])
        if missing is not None:
            problems.append(_no_such_event(game.log, *missing))
    if problems:
        raise ScenarioFailure(prefix + "; ".join(problems))


def _matches(event: dict, wanted: dict) -> bool:
    return all(key in event and event[key] == value for key, value in wanted.items())


def _missing_event(log: list, wanted: list) -> tuple[dict, int] | None:
    """The first expected event not in the log in order, and where in the log its search
    began (past the event matched before it)."""
    position = 0
    for expected in wanted:
        start = position
        while position < len(log) and not _matches(log[position], expected):
            position += 1
        if position == len(log):
            return expected, start
        position += 1
    return None


MAX_NEAREST = 3   # logged events shown for an expected one that is missing


def _no_such_event(log: list, expected: dict, start: int) -> str:
    """An expected event the log lacks, with the logged events of its type nearest to it (the
    most fields equal), each with the fields it differs by: what the author got wrong."""
    said = f"events: no {_brief(expected)} in order (log has {len(log)} events)"
    kind = expected["type"]
    later = [(i, e) for i, e in enumerate(log) if i >= start and e.get("type") == kind]
    earlier = [(i, e) for i, e in enumerate(log) if i < start and e.get("type") == kind]
    if not later and not earlier:
        types = ", ".join(dict.fromkeys(_brief(e.get("type")) for e in log))
        return f"{said}; the log has no {_brief(kind)} event (its types: {types})"
    found = later or earlier

    def equal(event):
        return sum(1 for key, value in expected.items() if key in event and event[key] == value)

    best = max(equal(e) for _, e in found)
    nearest = [(i, e) for i, e in found if equal(e) == best]
    shown = ", ".join(f"event {i + 1} {_brief(e)}{_differences(e, expected)}"
                      for i, e in nearest[:MAX_NEAREST])
    more = f" (and {len(nearest) - MAX_NEAREST} more as near)" if len(nearest) > MAX_NEAREST else ""
    if not later:   # the order counts: only events after the one matched ahead of it do
        return (f"{said}; the log's {_brief(kind)} events all come before event {start}, which the "
                f"event expected ahead of it matched: {shown}{more}")
    return f"{said}; nearest: {shown}{more}"


def _differences(event: dict, expected: dict) -> str:
    """`` (amount 1, not 2; no cause)``: where a logged event differs from an expected one."""
    found = [f"{key} {_brief(event[key])}, not {_brief(value)}" if key in event else f"no {key}"
             for key, value in expected.items() if key not in event or event[key] != value]
    return f" ({'; '.join(found)})" if found else ""


def check_paths(paths: Iterable[str]) -> list[Outcome]:
    outcomes = []
    for path in scenario_files(paths):
        try:
            scenarios = load_file(path)
        except ContentError as exc:
            outcomes.append(Outcome(None, path, False, f"invalid file: {exc}"))
            continue
        for scenario in scenarios:
            outcomes.append(run(scenario))
    return outcomes


def validate_scenario_file(path: str) -> list[str]:
    """Problems of a scenario file, without running it (for ``lifeboat-rules validate``)."""
    try:
        scenarios = load_file(path)
    except ContentError as exc:
        return problem_lines(exc, path)
    problems = []
    for scenario in scenarios:
        try:
            game_for(scenario)
        except ContentError as exc:
            lines = problem_lines(exc, scenario.where)
            if exc.where is not None and exc.where != scenario.where:
                # the ruleset's problem (its lines are of the ruleset's file): said so
                lines = [f"{scenario.where}: its ruleset {line}" for line in lines]
            problems.extend(lines)
        except PluginError as exc:     # a plugin raised while the position was set up
            problems.append(f"{scenario.where}: setting up the position: {exc}{_raised_at(exc)}")
    return problems

