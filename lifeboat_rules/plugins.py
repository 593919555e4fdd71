"""The plugin manager of a ruleset and the tables the engine reads from it (issue #3).

``build_rules`` registers the base game, the ruleset's expansions, variants and plugins on a
pluggy ``PluginManager``, runs the registration hooks once, and keeps what the engine needs on
its hot path in plain tables (action types by stage, effects, phases) so that a game calls
pluggy only at the points where plugins take part (phases, damage, status, thirst, overboard,
scoring, events) and not at all for hooks nobody implements.
"""

from __future__ import annotations

import importlib
import types as pytypes

import pluggy

from . import hookspecs
from .content import BASE_PLUGINS, Ruleset, base_content, build_content, deep_merge, import_plugin
from .errors import ContentError, IllegalAction

SHIPPED_PREFIX = "lifeboat_rules."


class HookResultError(Exception):
    """A hook answered something the engine cannot use."""

    def __init__(self, hook: str, message: str):
        super().__init__(f"{hook} {message}")
        self.hook = hook


class Rules:
    """What a game reads from its ruleset's plugins."""

    def __init__(self, pm: pluggy.PluginManager, content, options: dict, names: dict,
                 where: str):
        self.pm = pm
        self.hook = pm.hook
        self.content = content
        self.names = names          # plugin object -> the name it was registered under
        self.where = where
        # the base game and the shipped expansions and variants are this package's own code
        self.trusted = {name for plugin, name in names.items()
                        if _module_of(plugin).startswith(SHIPPED_PREFIX)}
        hook = self.hook

        # action types (the vocabulary), by stage
        self.types: dict = {}
        for plugin_types in hook.lifeboat_action_types():
            for action_type in plugin_types or ():
                if action_type.name in self.types:
                    raise ContentError(f"two plugins register the action type {action_type.name!r}", where)
                self.types[action_type.name] = action_type
        self.by_stage: dict = {}
        for action_type in self.types.values():
            for stage in action_type.stages:
                self.by_stage.setdefault(stage, []).append(action_type)
        self.free_types = self.by_stage.get("free", [])
        self.free_names = frozenset(t.name for t in self.free_types)
        self.window_types = {stage: frozenset(t.name for t in listed if t.name != "pass")
                             for stage, listed in self.by_stage.items()}
        self.ghost_kinds = frozenset(stage for t in self.types.values() if t.ghost for stage in t.stages)
        self.open_types = frozenset(t.name for t in self.types.values() if t.open)

        # special-action effects, stages, phases
        self.effects: dict = {}
        for registered in hook.lifeboat_effects():
            for name, effect in (registered or {}).items():
                if name in self.effects:
                    raise ContentError(f"two plugins register the effect {name!r}", where)
                self.effects[name] = effect
        self.effect_of = {kind: info.effect for kind, info in content.provisions.items() if info.effect}
        self.stages: dict = {}
        for registered in hook.lifeboat_stages():
            for cls in registered or ():
                self.stages[cls.NAME] = cls
        self.phases = list(hook.lifeboat_phases() or [])
        self.phase_begin = dict(self.phases)

        # game hooks: called only where someone implements them
        self.event_hook = self._optional("lifeboat_event")
        self.status_hook = self._optional("lifeboat_status_changed")
        self.legal_hook = self._optional("lifeboat_legal_actions")
        self.phase_start_hook = self._optional("lifeboat_phase_start")
        self.phase_end_hook = self._optional("lifeboat_phase_end")
        self.resolve_hook = self._optional("lifeboat_resolve_action")
        untrusted = [name for name in names.values() if name not in self.trusted]
        # A game applies actions as transactions (a snapshot to roll back to) when code outside
        # this package takes part; the built-in rules validate before they change anything.
        self.guarded = bool(untrusted)

    def _optional(self, name: str):
        caller = getattr(self.hook, name)
        return caller if caller.get_hookimpls() else None

    def has_hook(self, name: str) -> bool:
        return bool(getattr(self.hook, name).get_hookimpls())

    def resolve(self, game, action: dict) -> None:
        if self.resolve_hook is not None and self.resolve_hook(game=game, action=action):
            return
        self.types[action["type"]].resolve(game, action)

    def implementers(self, hook_name: str) -> list:
        return [self.names.get(impl.plugin, impl.plugin_name)
                for impl in getattr(self.hook, hook_name).get_hookimpls()]

    def blame(self, exc: BaseException) -> str | None:
        """The plugin an exception comes from: the innermost frame of a registered plugin that
        is not part of this package, else the innermost plugin frame; for a hook that answered
        nonsense, the plugins implementing that hook."""
        if isinstance(exc, HookResultError):
            outside = [n for n in self.implementers(exc.hook) if n not in self.trusted]
            return ", ".join(outside or self.implementers(exc.hook))
        modules = {}
        for plugin, name in self.names.items():
            modules[_module_of(plugin)] = name
        found = None
        fallback = None
        tb = exc.__traceback__
        while tb is not None:
            module = tb.tb_frame.f_globals.get("__name__", "")
            name = modules.get(module)
            if name is not None:
                if name not in self.trusted:
                    found = name
                else:
                    fallback = name
            tb = tb.tb_next
        return found or (fallback if not isinstance(exc, IllegalAction) else None)


def _module_of(plugin) -> str:
    if isinstance(plugin, pytypes.ModuleType):
        return plugin.__name__
    if isinstance(plugin, type):
        return plugin.__module__
    return type(plugin).__module__


def build_rules(flat: dict, where: str) -> Ruleset:
    pm = pluggy.PluginManager(hookspecs.PROJECT)
    pm.add_hookspecs(hookspecs)
    names: dict = {}

    def register(plugin, name: str, path: str):
        if plugin in names:
            raise ContentError(f"plugin {name!r} is registered twice (it is also {names[plugin]!r})",
                               where, path)
        try:
            pm.register(plugin, name=name)
        except pluggy.PluginValidationError as exc:
            raise ContentError(f"plugin {name!r} has a hook implementation that does not fit its "
                               f"specification: {exc}", where, path) from None
        except ValueError as exc:
            raise ContentError(f"plugin {name!r} cannot be registered: {exc}", where, path) from None
        names[plugin] = name

    for module_name in BASE_PLUGINS:
        register(importlib.import_module(module_name), "base." + module_name.rsplit(".", 1)[1], "")
    loaded = []
    for section, prefix in (("expansions", "expansion:"), ("variants", "variant:"), ("plugins", "plugin:")):
        for index, name in enumerate(flat[section]):
            path = f"{section}[{index}]"
            plugin = import_plugin(name, where, path)
            declared = getattr(plugin, "LIFEBOAT_KIND", None)
            if section != "plugins" and declared is not None and declared + "s" != section:
                raise ContentError(f"{name!r} is a{'n' if declared[0] in 'aeiou' else ''} {declared}, "
                                   f"not one of the {section}", where, path)
            register(plugin, prefix + name, path)
            loaded.append((name, plugin, path))
    # plugins declare what they cannot be combined with, and what they need
    present = {name for name, _, _ in loaded}
    for name, plugin, path in loaded:
        for other in getattr(plugin, "LIFEBOAT_CONFLICTS", ()):
            if other in present:
                raise ContentError(f"{name!r} cannot be combined with {other!r}", where, path)
        for other in getattr(plugin, "LIFEBOAT_REQUIRES", ()):
            if other not in present:
                raise ContentError(f"{name!r} needs {other!r} in the same ruleset", where, path)
    try:
        pm.check_pending()
    except pluggy.PluginValidationError as exc:
        raise ContentError(f"a plugin implements a hook that does not exist: {exc}", where) from None

    def run_registration(step: str, call):
        try:
            return call()
        except ContentError:
            raise
        except Exception as exc:
            culprit = _culprit(exc, names)
            raise ContentError(f"plugin {culprit} failed in {step}: {type(exc).__name__}: {exc}",
                               where) from exc

    # content: base files, each plugin in registration order, then the overrides
    raw = base_content()
    ruleset_stub = pytypes.SimpleNamespace(name=flat["name"], spec=flat)
    for impl in pm.hook.lifeboat_content.get_hookimpls():
        run_registration("lifeboat_content", lambda impl=impl: impl.function(
            **{arg: {"content": raw, "ruleset": ruleset_stub}[arg] for arg in impl.argnames}))
    if flat["overrides"]:
        deep_merge(raw, flat["overrides"])
    effect_names = set()
    for registered in run_registration("lifeboat_effects", pm.hook.lifeboat_effects):
        effect_names.update(registered or {})
    content = build_content(raw, where if flat["overrides"] else f"{where} (merged content)", effect_names)

    # options: declared by plugins, defaults first
    declared: dict = {}
    for registered in run_registration("lifeboat_options", pm.hook.lifeboat_options):
        declared.update(registered or {})
    options = {name: spec["default"] for name, spec in declared.items()}
    problems = []
    for name, value in flat["options"].items():
        if name not in declared:
            problems.append((f"options.{name}", f"unknown option (known: {', '.join(sorted(declared))})"))
        elif value not in declared[name]["values"]:
            problems.append((f"options.{name}", f"{value!r} is not one of {declared[name]['values']}"))
        else:
            options[name] = value
    if problems:
        from .validation import raise_problems
        raise_problems(problems, where)

    rules = run_registration("registration", lambda: Rules(pm, content, options, names, where))
    return Ruleset(flat["name"], flat, content, options, rules, where)


def _culprit(exc: BaseException, names: dict) -> str:
    modules = {_module_of(p): n for p, n in names.items()}
    found = "(unknown)"
    tb = exc.__traceback__
    while tb is not None:
        name = modules.get(tb.tb_frame.f_globals.get("__name__", ""))
        if name is not None:
            found = name
        tb = tb.tb_next
    return found

