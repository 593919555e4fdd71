"""The two errors of the public contract (docs/api.md, Errors)."""

from __future__ import annotations


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


class ContentError(Exception):
    """A content, ruleset, scenario or saved-game document that cannot be used.

    ``where`` names the file (or ``<mapping>``), ``line`` where in it (``"line 7"``, or
    ``"parent.yaml, line 7"`` in a file it extends) when the file has one, ``path`` the place
    inside it, ``problems`` lists every problem found when there are several (each with its
    line first where it has one).
    """

    def __init__(self, message: str, where: str | None = None, path: str | None = None,
                 problems: list[str] | None = None, line: str | None = None) -> None:
        self.where = where
        self.path = path
        self.line = line
        self.problems = problems or [message]
        prefix = ""
        if where:
            prefix = f"{where}: "
        if line:
            prefix += f"{line}: "
        if path:
            prefix += f"{path}: "
        super().__init__(prefix + message)


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
                 line: str | None = None):
        ContentError.__init__(self, message, where, path, problems, line)
        self.rule = "plugin"
        self.plugin = plugin
