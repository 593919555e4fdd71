"""The two errors of the public contract (docs/api.md, Errors)."""

from __future__ import annotations

import re

import attrs


class IllegalAction(Exception):
    """An action that ``apply`` refuses. The game is left exactly as it was.

    ``rule`` is the id of the ruling that forbids it (``R-...``), or ``"API"`` for an action
    that is malformed rather than against a rule. ``field`` names the field of the action the
    refusal is about (``"card"``, ``"target"``; ``"by"`` for who may act, ``"type"`` for what
    may be done now), or None when it is about the game as a whole (it is over); ``value`` is
    that field's value as the engine read it (a provision kind given for a card reads as the
    first such card where the action takes it from), None without a field. Both come from the
    action and from what its actor may see, never from another player's secrets, so a front
    end can word a refusal in its own language from ``rule``, ``field`` and ``value``.
    """

    def __init__(self, message: str, rule: str = "API", field: str | None = None,
                 value: object = None):
        super().__init__(message)
        self.rule = rule
        self.field = field
        self.value = value


@attrs.frozen
class Problem:
    """One problem of a ``ContentError``, for a program (an editor marking the line): ``path``
    the place inside the document (``"overrides.provisions.wter"``; None for the document as a
    whole or a place given by its line only), ``line`` and ``column`` where it is written
    (from 1; None where there is no file), ``file`` the file that line is in (the error's
    ``where``, or a file a ruleset extends), ``message`` what is wrong and what to do."""

    path: str | None
    line: int | None
    message: str
    file: str | None = None
    column: int | None = None


# "line 7", "parent.yaml, line 7", "line 3, column 5", "line 2, byte 40": a place as the
# messages word it (yamlio, rulesets), read back into numbers for ``Problem``
_LINE = re.compile(r"(?:(?P<file>.+), )?line (?P<line>\d+)(?:, column (?P<column>\d+))?(?:, byte \d+)?")


def line_parts(text: str | None) -> tuple[str | None, int | None, int | None]:
    """(file, line, column) of a place worded ``[file, ]line N[, column M]``; Nones otherwise."""
    found = _LINE.fullmatch(text) if text else None
    if found is None:
        return None, None, None
    column = found.group("column")
    return found.group("file"), int(found.group("line")), int(column) if column else None


class ContentError(Exception):
    """A content, ruleset or scenario file or mapping, or a saved game, that cannot be used.

    ``where`` names the file (or ``<mapping>``), ``line`` where in it (``"line 7"``, or
    ``"parent.yaml, line 7"`` in a file it extends) when the file has one, ``path`` the place
    inside it: with several problems, those of the first. ``problems`` words every problem
    (each with its line first where it has one); ``details`` gives each as a ``Problem``
    (path, line, message, file, column), in the same order.
    """

    def __init__(self, message: str, where: str | None = None, path: str | None = None,
                 problems: list[str] | None = None, line: str | None = None,
                 details: list[Problem] | None = None) -> None:
        self.where = where
        self.problems = problems or [message]
        if details is None:
            if len(self.problems) == 1:
                details = [problem_record(path, line, message, where)]
            else:   # worded only: each as its message, without a place
                details = [Problem(None, None, text, where) for text in self.problems]
        self.details: list[Problem] = list(details)
        prefix = ""
        if where:
            prefix = f"{where}: "
        if line:
            prefix += f"{line}: "
        if path:
            prefix += f"{path}: "
        super().__init__(prefix + message)
        self.path = path
        self.line = line
        if len(self.details) > 1:   # a program reads the place of the first of several
            first = self.details[0]
            self.path = first.path if path is None else path
            self.line = _line_text(first, where) if line is None else line


def problem_record(path: str | None, line: str | None, message: str, where: str | None) -> Problem:
    """A ``Problem`` from a place worded as messages word it; a path that is a line (a YAML
    syntax error's ``line 3, column 5``) is read as the line."""
    file, number, column = line_parts(line)
    if number is None and path is not None:
        file, number, column = line_parts(path)
        if number is not None:
            path = None
    return Problem(path, number, message, file or (where if number is not None else None), column)


def _line_text(problem: Problem, where: str | None) -> str | None:
    if problem.line is None:
        return None
    text = f"line {problem.line}"
    # (one scenario of a file is where="file[2]", its lines those of the file)
    same = problem.file in (None, where) or (where or "").startswith(f"{problem.file}[")
    return text if same else f"{problem.file}, {text}"


def problem_lines(exc: ContentError, where: str | None = None) -> list[str]:
    """Each problem of ``exc`` as a line of its own that names the file (``where`` when the
    error names none), as ``validate`` prints them."""
    name = exc.where or where
    if len(exc.problems) == 1:
        return [str(exc) if exc.where or not where else f"{where}: {exc}"]
    return [problem if name is None or problem.startswith(name) else f"{name}: {problem}"
            for problem in exc.problems]


class PluginError(IllegalAction):
    """A plugin raised while the engine was applying an action; the game is unchanged.

    It is an ``IllegalAction`` so that a front end that catches refusals also survives a broken
    plugin; ``plugin`` names the culprit and ``__cause__`` holds the original exception.
    """

    def __init__(self, message: str, plugin: str) -> None:
        super().__init__(message, rule="plugin")
        self.plugin = plugin


class BrokenPlugin(PluginError, ContentError):
    """A plugin whose hooks are wrong, found when its ruleset is loaded: a function named
    ``lifeboat_*`` that is not marked ``@hookimpl``, or a hook implementation whose parameters
    are not the hook's. It is a ``PluginError`` (``plugin`` names the culprit; the message the
    module, the file and the line) and, like every problem found while loading, a
    ``ContentError`` listing every problem of the ruleset."""

    def __init__(self, message: str, where: str | None = None, path: str | None = None,
                 problems: list[str] | None = None, plugin: str = "(unknown)",
                 line: str | None = None, details: list[Problem] | None = None):
        ContentError.__init__(self, message, where, path, problems, line, details)
        self.rule = "plugin"
        self.plugin = plugin
