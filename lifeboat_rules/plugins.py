"""The plugin manager of a ruleset and the tables the engine reads from it (issue #3).

``build_rules`` registers the base game, the ruleset's expansions, variants and plugins on a
pluggy ``PluginManager``, runs the registration hooks once, and keeps what the engine needs on
its hot path in plain tables (action types by stage, effects, phases) so that a game calls
pluggy only at the points where plugins take part (phases, damage, status, thirst, overboard,
scoring, events) and not at all for hooks nobody implements.

Everything that can be wrong with a plugin is found here, at load time, and reported as one
``ContentError`` listing every problem with the plugin's name and the place (the ruleset
entry that names it, the file and line of a hook implementation): a module that cannot be
imported, a hook name that does not exist, an implementation taking arguments its hook does
not pass, a wrapper that is not a generator, registration hooks answering something that is
not a record, conflicting or missing companion plugins, content or overrides that break the
content schema, unknown options or option values.
"""

from __future__ import annotations

import difflib
import importlib
import inspect
import types as pytypes

import pluggy

from . import hookspecs
from .actions import ActionType, Effect
from .content import (BASE_PLUGINS, Ruleset, _origin, base_content, content_problems, deep_merge,
                      import_plugin)
from .errors import ContentError, IllegalAction, PluginError
from .stages import Stage
from .validation import raise_problems

SHIPPED_PREFIX = "lifeboat_rules."

SPEC_ARGS = {
    name: tuple(inspect.signature(getattr(hookspecs, name)).parameters)
    for name in dir(hookspecs)
    if getattr(getattr(hookspecs, name), hookspecs.PROJECT + "_spec", None) is not None
}
"""Every hook name and the arguments it passes."""

# Registration hooks whose answers are collected plugin by plugin (plain hooks, no wrappers).
COLLECTED_HOOKS = ("lifeboat_options", "lifeboat_action_types", "lifeboat_effects",
                   "lifeboat_stages")


class HookResultError(Exception):
    """A hook answered something the engine cannot use."""

    def __init__(self, hook: str, message: str):
        super().__init__(f"{hook} {message}")
        self.hook = hook


class Rules:
    """What a game reads from its ruleset's plugins."""

    def __init__(self, pm: pluggy.PluginManager, content, options: dict, names: dict,
                 where: str, types: dict, effects: dict, stages: dict, phases: list):
        self.pm = pm
        self.hook = pm.hook
        self.content = content
        self.options = options
        self.names = names          # plugin object -> the name it was registered under
        self.where = where
        # the base game and the shipped expansions and variants are this package's own code
        self.trusted = {name for plugin, name in names.items()
                        if _module_of(plugin).startswith(SHIPPED_PREFIX)}

        # action types (the vocabulary), by stage
        self.types = types
        self.by_stage: dict = {}
        for action_type in types.values():
            for stage in action_type.stages:
                self.by_stage.setdefault(stage, []).append(action_type)
        self.free_types = self.by_stage.get("free", [])
        self.free_names = frozenset(t.name for t in self.free_types)
        self.list_types = frozenset(t.name for t in self.types.values()
                                    if any(f.kind == "list" for f in t.fields))
        self.window_types = {stage: frozenset(t.name for t in listed if t.name != "pass")
                             for stage, listed in self.by_stage.items()}
        self.ghost_kinds = frozenset(stage for t in types.values() if t.ghost for stage in t.stages)
        self.open_types = frozenset(t.name for t in types.values() if t.open)

        # special-action effects, stages, phases
        self.effects = effects
        self.effect_of = {kind: info.effect for kind, info in content.provisions.items() if info.effect}
        self.stages = stages
        self.phases = phases
        self.phase_begin = dict(phases)

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
        action_type = self.types.get(action["type"])
        if action_type is None:
            raise HookResultError("lifeboat_legal_actions",
                                  f"listed a {action['type']!r} action, which no action type "
                                  "and no lifeboat_resolve_action resolves")
        action_type.resolve(game, action)

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
        found, fallback = _frames_blame(exc, self.names, self.trusted)
        return found or (fallback if not isinstance(exc, IllegalAction) else None)

    def plugin_error(self, exc: BaseException, doing: str) -> BaseException:
        """The error to raise for ``exc`` raised by plugin code while ``doing`` something: a
        ``PluginError`` naming the plugin, or ``exc`` itself when it is the engine's own
        refusal (an ``IllegalAction`` no plugin raised)."""
        if isinstance(exc, PluginError):
            return exc
        plugin = self.blame(exc)
        if isinstance(exc, IllegalAction) and plugin is None:
            return exc
        return PluginError(f"plugin {plugin or '(unknown)'} failed while {doing}: "
                           f"{type(exc).__name__}: {exc}", plugin or "(unknown)")


def _module_of(plugin) -> str:
    if isinstance(plugin, pytypes.ModuleType):
        return plugin.__name__
    if isinstance(plugin, type):
        return plugin.__module__
    return type(plugin).__module__


def _frames_blame(exc: BaseException, names: dict, trusted=frozenset()) -> tuple:
    """(innermost untrusted plugin, innermost trusted plugin) among the frames of ``exc``."""
    modules = {_module_of(plugin): name for plugin, name in names.items()}
    found = fallback = None
    tb = exc.__traceback__
    while tb is not None:
        name = modules.get(tb.tb_frame.f_globals.get("__name__", ""))
        if name is not None:
            if name in trusted:
                fallback = name
            else:
                found = name
        tb = tb.tb_next
    return found, fallback


def _source(function) -> str:
    """``file:line`` of a hook implementation, for messages."""
    code = getattr(inspect.unwrap(function), "__code__", None)
    if code is None:
        return getattr(function, "__qualname__", repr(function))
    return f"{code.co_filename}:{code.co_firstlineno}"


def _argnames(function) -> tuple:
    """The arguments pluggy passes to ``function``: its positional parameters without a
    default (as pluggy's own ``varnames``)."""
    try:
        signature = inspect.signature(function)
    except (TypeError, ValueError):
        return ()
    return tuple(p.name for p in signature.parameters.values()
                 if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)
                 and p.default is p.empty)


def check_hookimpls(pm: pluggy.PluginManager, plugin, name: str) -> list:
    """Every problem of ``plugin``'s hook implementations (before registering it)."""
    problems = []
    for attr in dir(plugin):
        try:
            opts = pm.parse_hookimpl_opts(plugin, attr)
        except Exception:
            continue
        if opts is None:
            continue
        function = getattr(plugin, attr)
        at = _source(function)
        if attr not in SPEC_ARGS:
            close = difflib.get_close_matches(attr, list(SPEC_ARGS), n=1)
            hint = f"; did you mean {close[0]!r}?" if close else ""
            problems.append(f"plugin {name!r}: {attr} ({at}) is marked @hookimpl but is not a "
                            f"hook of lifeboat_rules{hint}")
            continue
        passed = SPEC_ARGS[attr]
        taken = _argnames(function)
        extra = [arg for arg in taken if arg not in passed]
        if extra:
            problems.append(f"plugin {name!r}: {attr} ({at}) takes {', '.join(extra)}, which the "
                            f"hook does not pass (it passes: {', '.join(passed) or 'nothing'})")
        wrapper = opts.get("wrapper") or opts.get("hookwrapper")
        if wrapper and not inspect.isgeneratorfunction(function):
            problems.append(f"plugin {name!r}: {attr} ({at}) is a wrapper but not a generator "
                            "function (a wrapper does `result = yield` once)")
        if wrapper and attr in COLLECTED_HOOKS + ("lifeboat_content",):
            problems.append(f"plugin {name!r}: {attr} ({at}) is a registration hook and "
                            "cannot be a wrapper")
    return problems


def _one_line(text: str) -> str:
    return " ".join(part.strip() for part in str(text).splitlines() if part.strip())


# --------------------------------------------------------------------------- registration records

def _check_options(value, plugin: str) -> list:
    if not isinstance(value, dict):
        return [f"plugin {plugin!r}: lifeboat_options must return a mapping "
                f"{{name: {{'default': ..., 'values': [...]}}}}, not {type(value).__name__}"]
    problems = []
    for name, spec in value.items():
        if not isinstance(name, str) or not isinstance(spec, dict) \
                or not isinstance(spec.get("values"), (list, tuple)) or "default" not in spec:
            problems.append(f"plugin {plugin!r}: option {name!r} must be declared as "
                            "{'default': value, 'values': [allowed, ...]}")
        elif spec["default"] not in spec["values"]:
            problems.append(f"plugin {plugin!r}: option {name!r}: the default {spec['default']!r} "
                            f"is not one of its values {list(spec['values'])}")
    return problems


def _collect(pm, names: dict, places: dict, hook_name: str, problems: list, check) -> list:
    """Call a registration hook plugin by plugin (registration order); ``check(value,
    plugin)`` returns problems. Returns [(plugin name, value)] of the answers that hold."""
    answers = []
    for impl in getattr(pm.hook, hook_name).get_hookimpls():
        plugin = names.get(impl.plugin, impl.plugin_name)
        try:
            value = impl.function()
        except Exception as exc:
            problems.append((places.get(plugin, plugin), f"plugin {plugin!r} failed in {hook_name}: "
                             f"{type(exc).__name__}: {exc}{_origin(exc)}"))
            continue
        if value is None:
            continue
        found = check(value, plugin)
        if found:
            problems.extend((places.get(plugin, plugin), message) for message in found)
        else:
            answers.append((plugin, value))
    return answers


def _records(kind, what: str, hook_name: str):
    def check(value, plugin):
        if isinstance(value, (str, bytes, dict)) or not hasattr(value, "__iter__"):
            return [f"plugin {plugin!r}: {hook_name} must return a list of {what}, "
                    f"not {type(value).__name__}"]
        bad = [item for item in value if not kind(item)]
        if bad:
            return [f"plugin {plugin!r}: {hook_name} returned {bad[0]!r}, which is not {what}"]
        return []
    return check


def _check_effects(value, plugin):
    if not isinstance(value, dict):
        return [f"plugin {plugin!r}: lifeboat_effects must return a mapping "
                f"{{name: lifeboat_rules.actions.Effect}}, not {type(value).__name__}"]
    return [f"plugin {plugin!r}: lifeboat_effects: {name!r} is not a lifeboat_rules.actions.Effect"
            for name, effect in value.items()
            if not isinstance(name, str) or not isinstance(effect, Effect)]


def _is_stage(item) -> bool:
    return isinstance(item, type) and issubclass(item, Stage) and isinstance(item.NAME, str)


def _overrides_path(overrides: dict, path: str) -> str:
    """A content problem's path, as ``overrides.<path>`` when the ruleset's overrides set that
    place, else marked as a place of the merged content."""
    tokens = []
    for part in path.replace("[", ".[").split("."):
        if part:
            tokens.append(int(part[1:-1]) if part.startswith("[") and part[1:-1].isdigit() else part)
    node = overrides
    matched = 0
    for token in tokens:
        if isinstance(node, dict) and isinstance(token, str) and token in node:
            node = node[token]
        elif isinstance(node, list) and isinstance(token, int) and token < len(node):
            node = node[token]
        else:
            break
        matched += 1
    if tokens and (matched == len(tokens) or matched >= 2):
        return f"overrides.{path}"
    return f"{path} (merged content)"


# --------------------------------------------------------------------------- build

def build_rules(flat: dict, where: str) -> Ruleset:
    pm = pluggy.PluginManager(hookspecs.PROJECT)
    pm.add_hookspecs(hookspecs)
    names: dict = {}
    places: dict = {}     # plugin name -> where the ruleset names it (expansions[0], ...)
    problems: list = []   # (path in the ruleset, message)

    def register(plugin, name: str, path: str) -> bool:
        if plugin in names:
            problems.append((path, f"plugin {name!r} is registered twice (it is also "
                                   f"{names[plugin]!r})"))
            return False
        found = check_hookimpls(pm, plugin, name)
        if found:
            problems.extend((path, message) for message in found)
            return False
        try:
            pm.register(plugin, name=name)
        except pluggy.PluginValidationError as exc:
            problems.append((path, f"plugin {name!r} has a hook implementation that does not fit "
                                   f"its specification: {_one_line(exc)}"))
            return False
        except ValueError as exc:
            problems.append((path, f"plugin {name!r} cannot be registered: {exc}"))
            return False
        names[plugin] = name
        places[name] = path or "(base game)"
        return True

    for module_name in BASE_PLUGINS:
        register(importlib.import_module(module_name), "base." + module_name.rsplit(".", 1)[1], "")
    loaded = []
    for section, prefix in (("expansions", "expansion:"), ("variants", "variant:"), ("plugins", "plugin:")):
        for index, name in enumerate(flat[section]):
            path = f"{section}[{index}]"
            try:
                plugin = import_plugin(name, where, path, section)
            except ContentError as exc:
                problems.append((path, str(exc).split(f"{path}: ", 1)[-1]))
                continue
            declared = getattr(plugin, "LIFEBOAT_KIND", None)
            if section != "plugins" and isinstance(declared, str) and declared + "s" != section:
                article = "an" if declared[:1] in "aeiou" else "a"
                problems.append((path, f"{name!r} is {article} {declared}, not one of the {section} "
                                       f"(list it under {declared}s)"))
                continue
            if register(plugin, prefix + name, path):
                loaded.append((name, plugin, path))
    # plugins declare what they cannot be combined with, and what they need
    present = {name for name, _, _ in loaded}
    for name, plugin, path in loaded:
        for other in getattr(plugin, "LIFEBOAT_CONFLICTS", ()):
            if other in present:
                problems.append((path, f"{name!r} cannot be combined with {other!r} "
                                       f"({name} declares LIFEBOAT_CONFLICTS)"))
        for other in getattr(plugin, "LIFEBOAT_REQUIRES", ()):
            if other not in present:
                problems.append((path, f"{name!r} needs {other!r} in the same ruleset "
                                       f"({name} declares LIFEBOAT_REQUIRES)"))
    try:
        pm.check_pending()
    except pluggy.PluginValidationError as exc:  # pragma: no cover - check_hookimpls finds these
        problems.append(("plugins", f"a plugin implements a hook that does not exist: {_one_line(exc)}"))
    # Go on without the plugins that failed, so that every other problem is reported too.
    failed_plugins = len(problems)

    # content: base files, each plugin in registration order, then the overrides
    raw = base_content()
    ruleset_stub = pytypes.SimpleNamespace(name=flat["name"], spec=flat)
    for impl in pm.hook.lifeboat_content.get_hookimpls():
        plugin = names.get(impl.plugin, impl.plugin_name)
        arguments = {"content": raw, "ruleset": ruleset_stub}
        try:
            impl.function(**{arg: arguments[arg] for arg in impl.argnames})
        except ContentError as exc:
            problems.extend((places[plugin], f"plugin {plugin!r} (lifeboat_content): "
                             f"{exc.where + ': ' if exc.where else ''}{line}") for line in exc.problems)
        except Exception as exc:
            problems.append((places[plugin], f"plugin {plugin!r} failed in lifeboat_content: "
                             f"{type(exc).__name__}: {exc}{_origin(exc)}"))
    if flat["overrides"]:
        deep_merge(raw, flat["overrides"])

    effects: dict = {}
    for plugin, registered in _collect(pm, names, places, "lifeboat_effects", problems, _check_effects):
        for name, effect in registered.items():
            if name in effects:
                problems.append((places[plugin], f"plugin {plugin!r} registers the effect {name!r}, which "
                                     f"{effects[name][0]!r} registers already"))
            else:
                effects[name] = (plugin, effect)

    content, found = content_problems(raw, set(effects))
    for path, message in found:
        problems.append((_overrides_path(flat["overrides"], path) if flat["overrides"] else
                         f"{path} (merged content)", message))

    # options: declared by plugins, defaults first; a later plugin may redeclare an option
    declared: dict = {}
    for plugin, registered in _collect(pm, names, places, "lifeboat_options", problems, _check_options):
        declared.update(registered)
    options = {name: spec["default"] for name, spec in declared.items()}
    for name, value in flat["options"].items():
        if name not in declared:
            close = difflib.get_close_matches(name, list(declared), n=1)
            hint = f"; did you mean {close[0]!r}?" if close else ""
            problems.append((f"options.{name}", f"unknown option (known: "
                                                f"{', '.join(sorted(declared)) or 'none'}){hint}"))
        elif value not in declared[name]["values"]:
            problems.append((f"options.{name}", f"{value!r} is not one of "
                                                f"{list(declared[name]['values'])}"))
        else:
            options[name] = value

    types: dict = {}
    for plugin, registered in _collect(pm, names, places, "lifeboat_action_types", problems,
                                       _records(lambda t: isinstance(t, ActionType),
                                                "lifeboat_rules.actions.ActionType records",
                                                "lifeboat_action_types")):
        for action_type in registered:
            if action_type.name in types:
                problems.append((places[plugin], f"plugin {plugin!r} registers the action type "
                                     f"{action_type.name!r}, which {types[action_type.name][0]!r} "
                                     "registers already"))
            else:
                types[action_type.name] = (plugin, action_type)
    stages: dict = {}
    for plugin, registered in _collect(pm, names, places, "lifeboat_stages", problems,
                                       _records(_is_stage, "Stage subclasses with a NAME",
                                                "lifeboat_stages")):
        for cls in registered:
            if cls.NAME in stages and stages[cls.NAME][1] is not cls:
                problems.append((places[plugin], f"plugin {plugin!r} registers the stage {cls.NAME!r}, which "
                                     f"{stages[cls.NAME][0]!r} registers already"))
            else:
                stages[cls.NAME] = (plugin, cls)
    try:
        phases = pm.hook.lifeboat_phases()
    except Exception as exc:
        culprit = _frames_blame(exc, names)[0] or _frames_blame(exc, names)[1] or "(unknown)"
        problems.append((places.get(culprit, "lifeboat_phases"), f"plugin {culprit!r} failed in lifeboat_phases: "
                             f"{type(exc).__name__}: {exc}{_origin(exc)}"))
        phases = None
    else:
        if (not isinstance(phases, (list, tuple)) or not phases
                or not all(isinstance(p, (list, tuple)) and len(p) == 2 and isinstance(p[0], str)
                           and callable(p[1]) for p in phases)):
            problems.append(("lifeboat_phases", "lifeboat_phases must return a non-empty list of (name, begin) "
                                 f"pairs (implemented by {', '.join(_implementers(pm, names, 'lifeboat_phases'))})"))
    if problems:
        if failed_plugins:
            note = " (found without the plugins that failed to load)"
            problems[failed_plugins:] = [(path, message + note)
                                         for path, message in problems[failed_plugins:]]
        raise_problems(problems, where)

    rules = Rules(pm, content, options, names, where,
                  {name: t for name, (_, t) in types.items()},
                  {name: e for name, (_, e) in effects.items()},
                  {name: cls for name, (_, cls) in stages.items()},
                  [tuple(p) for p in phases])
    return Ruleset(flat["name"], flat, content, options, rules, where)


def _implementers(pm, names: dict, hook_name: str) -> list:
    return [names.get(impl.plugin, impl.plugin_name)
            for impl in getattr(pm.hook, hook_name).get_hookimpls()]
