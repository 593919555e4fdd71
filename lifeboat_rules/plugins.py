"""Plugins: found by name, registered on a pluggy ``PluginManager``, read into the tables a game
uses (action types by decision kind, effects, stages, markers, phases, the hooks some plugin
implements).

The base game is a list of plugins registered by name first (``BASE_PLUGINS``, as datasette's
``DEFAULT_PLUGINS``); a ruleset's expansions, variants and plugins come after, found as shipped
modules, entry points of the group ``lifeboat_rules`` or importable module paths. pluggy checks
every hook implementation against ``hookspecs.py`` when it is registered (names, arguments,
wrappers); its verdicts, with the file and line of the function and the hook's parameters added,
and every ``lifeboat_*`` function not marked ``@hookimpl`` (which pluggy would skip in silence),
are reported with the plugin's name and the place in the ruleset that names it, together with
every other problem found, as one ``ContentError`` that is also a ``PluginError``.
"""

from __future__ import annotations

import difflib
import functools
import importlib
import inspect
import os
import re
import shlex
import sys
import types as pytypes
from importlib import metadata
from typing import TYPE_CHECKING, Any, Callable

import attrs
import pluggy

from . import hookspecs
from .actions import ActionSpace, ActionType, Domain, Effect, Param, compile_builder
from .content import Content, base_content
from .errors import ContentError, IllegalAction, PluginError
from .records import Marker, short
from .stages import Stage, Window

if TYPE_CHECKING:
    from .types import Action

ENTRY_POINT_GROUP = "lifeboat_rules"
SHIPPED_PREFIX = "lifeboat_rules."

# The base game, registered first, one module per part of the rulebook.
BASE_PLUGINS = (
    "lifeboat_rules.rules.setup",
    "lifeboat_rules.rules.status",
    "lifeboat_rules.rules.supply",
    "lifeboat_rules.rules.turn",
    "lifeboat_rules.rules.fights",
    "lifeboat_rules.rules.specials",
    "lifeboat_rules.rules.playing",
    "lifeboat_rules.rules.trading",
    "lifeboat_rules.rules.navigation",
    "lifeboat_rules.rules.overboard",
    "lifeboat_rules.rules.thirst",
    "lifeboat_rules.rules.scoring",
)

# The shipped expansions and variants; also entry points, exactly as a third-party plugin,
# and found here when the package metadata is not installed.
SHIPPED_PLUGINS = {
    "cannibalism": "lifeboat_rules.expansions.cannibalism",
    "liquid_courage": "lifeboat_rules.expansions.liquid_courage",
    "shark": "lifeboat_rules.expansions.shark",
    "quick": "lifeboat_rules.expansions.quick",
    "single_card_rowing": "lifeboat_rules.expansions.single_card_rowing",
}

PLUGIN_WORDS = {"expansions": "expansion", "variants": "variant", "plugins": "plugin"}

# Game hooks the base game answers itself: called only when another plugin implements them.
BASE_ANSWERED = ("lifeboat_damage", "lifeboat_thirst", "lifeboat_overboard", "lifeboat_strength",
                 "lifeboat_score")


def origin(exc: BaseException) -> str:
    """`` (file, line N)`` of the innermost frame of an exception, for messages; for a hook's
    answer the engine refused, where the answering hook implementations are defined (the
    refusal is raised in the engine, which is not where to look)."""
    at = getattr(exc, "at", "")
    if at:
        return f" ({at})"
    tb = exc.__traceback__
    if tb is None:
        return ""
    while tb.tb_next is not None:
        tb = tb.tb_next
    return f" ({tb.tb_frame.f_code.co_filename}, line {tb.tb_lineno})"


def _one_line(text) -> str:
    return " ".join(part.strip() for part in str(text).splitlines() if part.strip())


# --------------------------------------------------------------------------- plugins by name

@functools.lru_cache(maxsize=1)
def entry_point_plugins() -> dict:
    """``{name: [import path, ...]}`` of the installed entry points of group ``lifeboat_rules``
    (more than one path: two packages claim the name)."""
    found: dict = {}
    try:
        points = metadata.entry_points(group=ENTRY_POINT_GROUP)
    except Exception:  # pragma: no cover - broken metadata must not break loading
        return found
    for point in points:
        values = found.setdefault(point.name, [])
        if point.value not in values:
            values.append(point.value)
    return found


def known_plugin_names() -> list:
    return sorted(set(SHIPPED_PLUGINS) | set(entry_point_plugins()))


def plugin_target(name: str, where: str | None = None, path: str | None = None) -> str:
    """The import path of a plugin a ruleset names: an entry-point name, a shipped expansion
    or variant, or an importable module path (``package.module[:attribute]``)."""
    points = entry_point_plugins().get(name)
    if points:
        if len(points) > 1:
            raise ContentError(f"the plugin name {name!r} is registered by more than one installed "
                               f"package (entry points {', '.join(points)} in group "
                               f"{ENTRY_POINT_GROUP!r}); name the module instead", where, path)
        return points[0]
    return SHIPPED_PLUGINS.get(name, name)


def every_shipped_plugin() -> dict:
    """A ruleset mapping with every shipped expansion and variant (each under what it says it
    is, ``LIFEBOAT_KIND``)."""
    spec: dict = {"expansions": [], "variants": []}
    for name, module in SHIPPED_PLUGINS.items():
        kind = getattr(importlib.import_module(module), "LIFEBOAT_KIND", "variant")
        spec["expansions" if kind == "expansion" else "variants"].append(name)
    return spec


def is_installed(name: str) -> bool:
    return name in SHIPPED_PLUGINS or name in entry_point_plugins()


def import_plugin(name: str, where: str, path: str, section: str = "plugins"):
    """The plugin object a ruleset names; every way this fails is a ``ContentError`` naming the
    plugin and its place in the ruleset."""
    word = PLUGIN_WORDS.get(section, "plugin")
    target = plugin_target(name, where, path)
    module_name, _, attribute = target.partition(":")
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as exc:
        missing = exc.name or ""
        if target == name and (module_name == missing or module_name.startswith(missing + ".")):
            known = known_plugin_names()
            close = difflib.get_close_matches(name, known, n=1)
            hint = f"; did you mean {close[0]!r}?" if close else ""
            raise ContentError(f"unknown {word} {name!r}: no module of that name and no entry point "
                               f"in group {ENTRY_POINT_GROUP!r} (known names: "
                               f"{', '.join(known) or 'none'}){hint}{_importable_hint(module_name, where)}",
                               where, path) from None
        # a module the plugin imports is missing: the plugin's line that imports it
        place = _import_place(exc)
        at = f"ModuleNotFoundError in {place}: " if place else ""
        raise ContentError(f"{word} {name!r} cannot be imported ({target}): {at}{exc}",
                           where, path) from None
    except SyntaxError as exc:
        raise ContentError(f"{word} {name!r} cannot be imported ({target}): SyntaxError in "
                           f"{exc.filename}, line {exc.lineno}: {exc.msg}", where, path) from None
    except Exception as exc:
        raise ContentError(f"{word} {name!r} failed to import ({target}): {type(exc).__name__}: "
                           f"{exc}{origin(exc)}", where, path) from None
    if attribute:
        try:
            return getattr(module, attribute)
        except AttributeError:
            raise ContentError(f"{word} {name!r}: module {module_name} has no {attribute!r}",
                               where, path) from None
    return module


def _import_place(exc: BaseException) -> str:
    """``file, line N`` of the innermost frame of a failed import outside the import machinery
    (the plugin's ``import`` statement, or its own module's), or "" when there is none (the
    module named is the one missing)."""
    place = ""
    tb = exc.__traceback__.tb_next if exc.__traceback__ is not None else None   # past ours
    while tb is not None:
        file = tb.tb_frame.f_code.co_filename
        if not (file.startswith("<frozen ") or file == importlib.__file__):
            place = f"{file}, line {tb.tb_lineno}"
        tb = tb.tb_next
    return place


def _importable_hint(module_name: str, where: str | None) -> str:
    """How to make a plugin module importable: when its file (or package folder) lies in the
    current folder or beside the ruleset, the command that finds it there. The current folder
    is never put on ``sys.path`` for the author (a file there could shadow a library), and the
    ``lifeboat-rules`` script does not look there (its ``sys.path[0]`` is its own folder)."""
    top = module_name.split(".", 1)[0]
    folders = [os.getcwd()]
    if where and os.path.isfile(where):
        folders.append(os.path.dirname(os.path.abspath(where)))
    for folder in folders:
        for entry in (f"{top}.py", top):
            found = os.path.join(folder, entry)
            if os.path.isfile(found) if entry.endswith(".py") else os.path.isdir(found):
                shown = os.path.relpath(folder)
                if shown.startswith(os.pardir):
                    shown = folder
                value = os.pathsep.join(part for part in (shown, os.environ.get("PYTHONPATH")) if part)
                return (f"; {entry} is in {folder}, but Python does not look for modules there: "
                        f"name its folder in PYTHONPATH: PYTHONPATH={shlex.quote(value)} "
                        f"{_this_command()}")
    return (f"; a plugin module must be importable: name the folder that holds it in PYTHONPATH, "
            f"or install it as a package with an entry point in group {ENTRY_POINT_GROUP!r} "
            f"(docs/house-rules.md)")


def _this_command() -> str:
    """The ``lifeboat-rules`` command running, as typed again; ``lifeboat-rules ...`` when the
    library is used otherwise."""
    if os.path.basename(sys.argv[0] if sys.argv else "") == "lifeboat-rules":
        return shlex.join(["lifeboat-rules", *sys.argv[1:]])
    return "lifeboat-rules ..."


def plugin_folders(names) -> list[str]:
    """The folders on ``sys.path`` the plugins ``names`` (plugin objects, as ``Rules.names``
    has them) outside this package were imported from, in order."""
    folders: list[str] = []
    for plugin in names:
        if shipped(plugin):
            continue
        module_name = _module_of(plugin)
        top = sys.modules.get(module_name.split(".", 1)[0])
        file = getattr(top, "__file__", None)
        if file:
            folder = os.path.dirname(os.path.abspath(file))
            if os.path.basename(file).startswith("__init__."):   # a package: the folder above it
                folder = os.path.dirname(folder)
        elif top is not None and getattr(top, "__path__", None):   # a namespace package
            folder = os.path.dirname(os.path.abspath(list(top.__path__)[0]))
        else:
            continue
        if folder not in folders:
            folders.append(folder)
    return folders


def _module_of(plugin) -> str:
    if isinstance(plugin, pytypes.ModuleType):
        return plugin.__name__
    if isinstance(plugin, type):
        return plugin.__module__
    return type(plugin).__module__


def shipped(plugin) -> bool:
    """Whether a registered plugin object is one of this package's own (trusted: its errors
    are the engine's, not a house rule's)."""
    module_name = _module_of(plugin)
    return module_name == "lifeboat_rules" or module_name.startswith(SHIPPED_PREFIX)


# --------------------------------------------------------------------------- the manager

class Registry:
    """The plugins of one ruleset on their manager, with who registered them and where the
    ruleset names them; collects problems instead of stopping at the first."""

    def __init__(self):
        self.pm = pluggy.PluginManager(hookspecs.PROJECT)
        self.pm.add_hookspecs(hookspecs)
        self.names: dict = {}       # plugin object -> name
        self.places: dict = {}      # name -> where the ruleset names it
        self.problems: list = []    # (place, message)
        self.culprit: str | None = None   # the first plugin whose hooks are wrong (PluginError)

    def register(self, plugin, name: str, place: str) -> bool:
        if plugin in self.names:
            self.problems.append((place, f"plugin {name!r} is registered twice (it is also "
                                         f"{self.names[plugin]!r})"))
            return False
        unmarked = self._unmarked(plugin, name)
        if unmarked:
            self.problems.extend((place, message) for message in unmarked)
            self.culprit = self.culprit or name
        try:
            self.pm.register(plugin, name=name)
            self.pm.check_pending()
        except pluggy.PluginValidationError as exc:
            if self.pm.is_registered(plugin):
                self.pm.unregister(plugin)
            found = self._invalid_each(plugin, name) or [self._verdict(plugin, name, exc)]
            self.problems.extend((place, message) for message in found)
            self.culprit = self.culprit or name
            return False
        except ValueError as exc:
            self.problems.append((place, f"plugin {name!r} cannot be registered: {exc}"))
            return False
        self.names[plugin] = name
        self.places[name] = place or "(base game)"
        return not unmarked

    def _verdict(self, plugin, name: str, exc: pluggy.PluginValidationError) -> str:
        # pluggy names the plugin by its repr ("<module 'x' from '...'>"): the module's name
        # reads better, and the file comes with the facts
        said = re.sub(r"<module '([\w.]+)'(?: from '[^']*')?>", r"\1", _one_line(exc))
        hint, facts = _hint(exc), self._facts(plugin, exc)
        if hint and facts.startswith("; "):      # after a question: a new sentence
            facts = " " + facts[2:]
        return f"plugin {name!r}: {said}{hint}{facts}"

    def _invalid_each(self, plugin, name: str) -> list:
        """pluggy's verdict on each hook implementation of a plugin it refused, one at a time
        (it stops at the first): every wrong hook is told in one go, not one per run."""
        found = []
        for attribute in dir(plugin):
            if self.pm.parse_hookimpl_opts(plugin, attribute) is None:
                continue
            alone = pytypes.ModuleType(_module_of(plugin))     # (pluggy names it in its verdict)
            setattr(alone, attribute, getattr(plugin, attribute))
            try:
                self.pm.register(alone, name=name)
                self.pm.check_pending()
            except pluggy.PluginValidationError as exc:
                found.append(self._verdict(plugin, name, exc))
            except ValueError:
                pass
            finally:
                if self.pm.is_registered(alone):
                    self.pm.unregister(alone)
        return found

    def _unmarked(self, plugin, name: str) -> list:
        """A function named ``lifeboat_*`` that is not marked ``@hookimpl`` is a hook its
        author meant to write, and pluggy would skip it in silence: a problem each, naming
        the module, the file and the line."""
        found = []
        for attribute in dir(plugin):
            if not attribute.startswith("lifeboat_"):
                continue
            function = getattr(plugin, attribute, None)
            if not (inspect.isfunction(function) or inspect.ismethod(function)):
                continue
            if self.pm.parse_hookimpl_opts(plugin, attribute) is not None:
                continue
            hook = getattr(hookspecs, attribute, None)
            what = ("the hook" if callable(hook) else "not a hook either") + \
                (f" {attribute}({', '.join(_parameters(attribute))})" if callable(hook) else
                 _hint(f"unknown hook '{attribute}'").replace("; ", ": "))
            found.append(f"plugin {name!r}: {_module_of(plugin)}.{attribute} "
                         f"({_where(function)}) is named like a hook but is not marked "
                         f"@hookimpl (from lifeboat_rules import hookimpl), so it would never "
                         f"be called; mark it, or rename it ({what})")
        return found

    def _facts(self, plugin, exc) -> str:
        """What pluggy's verdict on a hook implementation leaves out: the module, file and
        line of the function, and the parameters the hook has."""
        text = str(exc)
        match = re.search(r"hook '(\w+)'", text)
        if match is None:
            return ""
        hook = match.group(1)
        function = None
        for attribute in dir(plugin):
            options = self.pm.parse_hookimpl_opts(plugin, attribute)
            if options is not None and (options.get("specname") or attribute) == hook:
                function = getattr(plugin, attribute)
                break
        facts = []
        if function is not None:
            facts.append(f"{_module_of(plugin)}.{getattr(function, '__name__', hook)} is at "
                         f"{_where(function)}")
        if hasattr(hookspecs, hook):
            facts.append(f"the hook's parameters are {hook}({', '.join(_parameters(hook))}); an "
                         "implementation takes any of them, by these names")
        return "; " + "; ".join(facts) if facts else ""

    def place(self, plugin_name: str) -> str:
        return self.places.get(plugin_name, plugin_name)

    def implementations(self, hook_name: str) -> list:
        return getattr(self.pm.hook, hook_name).get_hookimpls()

    def plugin_name(self, impl) -> str:
        return self.names.get(impl.plugin, impl.plugin_name)

    def collect(self, hook_name: str, check) -> list:
        """Call a registration hook plugin by plugin (registration order); ``check(value,
        plugin)`` returns problems. Returns ``[(plugin name, value)]`` of the answers that hold."""
        answers = []
        for impl in self.implementations(hook_name):
            plugin = self.plugin_name(impl)
            try:
                value = impl.function()
            except Exception as exc:
                self.problems.append((self.place(plugin), f"plugin {plugin!r} failed in {hook_name}: "
                                      f"{type(exc).__name__}: {exc}{origin(exc)}"))
                continue
            if value is None:
                continue
            found = check(value, plugin)
            if found:
                self.problems.extend((self.place(plugin), message) for message in found)
            else:
                answers.append((plugin, value))
        return answers


def _parameters(hook: str) -> list:
    """The parameters of a hook, as hookspecs.py declares them."""
    return list(inspect.signature(getattr(hookspecs, hook)).parameters)


def _where(function) -> str:
    """``file, line N`` of a function's ``def`` (past its decorators)."""
    function = inspect.unwrap(function)
    try:
        lines, first = inspect.getsourcelines(function)
        offset = next((i for i, text in enumerate(lines)
                       if text.lstrip().startswith(("def ", "async def "))), 0)
        line = first + offset
    except (OSError, TypeError):
        code = getattr(function, "__code__", None)
        line = code.co_firstlineno if code is not None else "?"
    try:
        file = inspect.getsourcefile(function) or inspect.getfile(function)
    except TypeError:
        file = "?"
    return f"{file}, line {line}"


def _hint(exc) -> str:
    """For an unknown hook name, the hook it most likely means."""
    text = str(exc)
    if "unknown hook" not in text:
        return ""
    name = text.split("'")[1] if "'" in text else ""
    close = difflib.get_close_matches(name, [n for n in dir(hookspecs) if n.startswith("lifeboat_")], n=1)
    return f"; did you mean {close[0]!r}?" if close else ""


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


def check_options(value, plugin: str) -> list:
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


def check_effects(value, plugin) -> list:
    if not isinstance(value, dict):
        return [f"plugin {plugin!r}: lifeboat_effects must return a mapping "
                f"{{name: lifeboat_rules.actions.Effect}}, not {type(value).__name__}"]
    problems = []
    for name, effect in value.items():
        if not isinstance(name, str) or not isinstance(effect, Effect):
            problems.append(f"plugin {plugin!r}: lifeboat_effects: {short(name)} is not a "
                            "lifeboat_rules.actions.Effect")
        elif not (callable(effect.targets) and callable(effect.resolve)):
            problems.append(f"plugin {plugin!r}: lifeboat_effects: {name!r}: targets and resolve "
                            "must be functions")
    return problems


def _is_stage(item) -> bool:
    return isinstance(item, type) and issubclass(item, Stage) and isinstance(item.NAME, str)


def check_action_types(value, plugin) -> list:
    """A list of well-formed ``ActionType`` records: found wrong here, at load time, rather
    than when a game first lists or applies one (and then blamed on nobody)."""
    if isinstance(value, (str, bytes, dict)) or not hasattr(value, "__iter__"):
        return [f"plugin {plugin!r}: lifeboat_action_types must return a list of "
                f"lifeboat_rules.actions.ActionType records, not {type(value).__name__}"]
    problems = []
    for atype in value:
        problems.extend(f"plugin {plugin!r}: lifeboat_action_types: {message}"
                        for message in _action_type_problems(atype))
    return problems


def _action_type_problems(atype) -> list:
    if not isinstance(atype, ActionType):
        return [f"{short(atype)} is not a lifeboat_rules.actions.ActionType"]
    if not (type(atype.name) is str and atype.name):
        return [f"an action type's name must be a non-empty string, not {short(atype.name)}"]
    where = f"action type {atype.name!r}"
    problems = []
    if type(atype.rule) is not str:
        problems.append(f"{where}: rule must be a rule id (a string)")
    for field in ("check", "moves", "resolve"):
        if not callable(getattr(atype, field)):
            problems.append(f"{where}: {field} must be a function")
    if atype.settle is not None and not callable(atype.settle):
        problems.append(f"{where}: settle must be a function or None")
    params = atype.params
    if not (isinstance(params, tuple) and all(
            isinstance(p, Param) and isinstance(p.name, str) and isinstance(p.domain, Domain)
            and p.name not in ("by", "type") for p in params)):
        problems.append(f"{where}: params must be a tuple of Param(name, Domain.X, ...)")
    elif len({p.name for p in params}) != len(params):
        problems.append(f"{where}: two params have the same name")
    kinds = atype.kinds
    if not (isinstance(kinds, tuple) and all(isinstance(k, str) and k for k in kinds)):
        problems.append(f"{where}: kinds must be a tuple of decision kinds, or (FREE,)")
    names = {getattr(p, "name", None) for p in params} if isinstance(params, tuple) else set()
    if not (isinstance(atype.private, tuple) and all(n in names for n in atype.private)):
        problems.append(f"{where}: private must be a tuple of its params' names")
    return problems


check_stages = _records(_is_stage, "Stage subclasses with a NAME", "lifeboat_stages")
check_markers = _records(lambda m: isinstance(m, Marker), "lifeboat_rules.records.Marker records",
                         "lifeboat_markers")


def unique(registry: Registry, answers: list, what: str, key) -> dict:
    """``{key: (plugin, item)}``; a second plugin registering the same key is a problem."""
    found: dict = {}
    for plugin, items in answers:
        for item in (items.items() if isinstance(items, dict) else items):
            name = key(item)
            if name in found and found[name][1] is not item:
                registry.problems.append((registry.place(plugin), f"plugin {plugin!r} registers the "
                                          f"{what} {name!r}, which {found[name][0]!r} registers already"))
            else:
                found[name] = (plugin, item)
    return {name: item for name, (_, item) in found.items()}


# --------------------------------------------------------------------------- what a game reads

@attrs.define(slots=True, eq=False)
class Rules:
    """What a game reads from its ruleset's plugins: hot-path tables, and the hooks some
    plugin implements (None where only the base game answers, which it then does inline)."""
    pm: pluggy.PluginManager
    content: Content
    options: dict
    names: dict                    # plugin object -> registered name
    types: dict[str, ActionType]   # action type name -> ActionType, in registration order
    effects: dict                  # effect name -> Effect
    stages: dict                   # stage NAME -> class
    markers: dict                  # marker name -> Marker
    phases: list                   # [(Phase, begin)]
    trusted: frozenset = attrs.field(init=False)
    kind_types: dict = attrs.field(init=False)     # decision kind -> [ActionType] (pass apart)
    free_types: tuple = attrs.field(init=False)
    free_names: frozenset = attrs.field(init=False)
    claims: dict = attrs.field(init=False)         # window NAME -> free types that may be its actions
    ghost_kinds: frozenset = attrs.field(init=False)
    effect_of: dict = attrs.field(init=False)      # provision kind -> effect name
    parasol_kinds: frozenset = attrs.field(init=False)
    round_markers: tuple = attrs.field(init=False)
    phase_begin: dict = attrs.field(init=False)
    phase_after: dict = attrs.field(init=False)    # Phase -> the next phase, None after the last
    builders: dict[str, Callable[[str, tuple[Any, ...]], Action]] = attrs.field(init=False)   # type name -> compiled action_dict
    pass_moves: tuple = attrs.field(init=False)    # (pass, [()]): a passable stage's pass
    fields: dict = attrs.field(init=False)         # action type name -> the keys its dicts may have
    flat_actions: frozenset = attrs.field(init=False)   # types whose dicts hold no list
    kind_sets: dict = attrs.field(init=False, factory=dict)   # see ``kinds_with``
    window_holders: bool = attrs.field(init=False)  # option window_pending: holders (R-WIN-3)
    hook: object = attrs.field(init=False)
    space: ActionSpace = attrs.field(init=False)
    guarded: bool = attrs.field(init=False)
    event_hook: Callable[..., Any] | None = attrs.field(init=False)
    status_hook: Callable[..., Any] | None = attrs.field(init=False)
    refuse_hook: Callable[..., Any] | None = attrs.field(init=False)
    resolve_hook: Callable[..., Any] | None = attrs.field(init=False)
    phase_start_hook: Callable[..., Any] | None = attrs.field(init=False)
    phase_end_hook: Callable[..., Any] | None = attrs.field(init=False)
    damage_hook: Callable[..., Any] | None = attrs.field(init=False)
    thirst_hook: Callable[..., Any] | None = attrs.field(init=False)
    overboard_hook: Callable[..., Any] | None = attrs.field(init=False)
    water_hook: Callable[..., Any] | None = attrs.field(init=False)
    strength_hook: Callable[..., Any] | None = attrs.field(init=False)
    score_hook: Callable[..., Any] | None = attrs.field(init=False)
    listings_outlive_passes: bool = attrs.field(init=False)   # see ``Game._transact``
    provision_texts: dict = attrs.field(init=False)

    def __attrs_post_init__(self):
        self.trusted = frozenset(name for plugin, name in self.names.items() if shipped(plugin))
        self.hook = self.pm.hook
        kind_types: dict = {}
        for atype in self.types.values():
            if atype.name == "pass":
                continue
            for kind in atype.kinds:
                kind_types.setdefault(kind, []).append(atype)
        self.free_types = tuple(kind_types.pop("free", ()))
        self.free_names = frozenset(t.name for t in self.free_types)
        self.claims = {}   # a window's CLAIMS, then free types naming its kind in ``windows``
        for name, cls in self.stages.items():
            if isinstance(cls, type) and issubclass(cls, Window):
                extra = tuple(t.name for t in self.free_types
                              if cls.KIND in t.windows and t.name not in cls.CLAIMS)
                self.claims[name] = tuple(cls.CLAIMS) + extra
        self.kind_types = {kind: tuple(found) for kind, found in kind_types.items()}
        self.ghost_kinds = frozenset(k for t in self.types.values() if t.ghost for k in t.kinds)
        self.effect_of = {kind: info.effect for kind, info in self.content.provisions.items()
                          if info.effect}
        self.parasol_kinds = frozenset(k for k, e in self.effect_of.items() if e == "parasol")
        self.round_markers = tuple(m.name for m in self.markers.values() if m.round)
        self.window_holders = self.options.get("window_pending") == "holders"
        self.phase_begin = dict(self.phases)
        order = [phase for phase, _ in self.phases]
        self.phase_after = dict(zip(order, order[1:] + [None]))
        self.builders = {name: compile_builder(atype) for name, atype in self.types.items()}
        self.pass_moves = (self.types["pass"], [()]) if "pass" in self.types else None
        self.fields = {name: frozenset(["by", "type", *(p.name for p in atype.params)])
                       for name, atype in self.types.items()}
        self.flat_actions = frozenset(
            name for name, atype in self.types.items()
            if not any(p.domain in (Domain.PILE, Domain.CARDS) for p in atype.params))
        self.space = self.space_for(len(self.content.navigation), self.content.card_count)
        # A game applies actions as transactions (a copy to go back to) when code from outside
        # this package takes part; the built-in rules decide before they change anything.
        self.guarded = any(name not in self.trusted for name in self.names.values())
        self.event_hook = self._implemented("lifeboat_event")
        self.status_hook = self._implemented("lifeboat_status_changed")
        self.refuse_hook = self._implemented("lifeboat_refuse")
        self.resolve_hook = self._implemented("lifeboat_resolve_action")
        self.phase_start_hook = self._implemented("lifeboat_phase_start")
        self.phase_end_hook = self._implemented("lifeboat_phase_end")
        self.damage_hook = self._implemented("lifeboat_damage", base_answers=True)
        self.thirst_hook = self._implemented("lifeboat_thirst", base_answers=True)
        self.overboard_hook = self._implemented("lifeboat_overboard", base_answers=True)
        self.water_hook = self._implemented("lifeboat_water_given")
        self.strength_hook = self._implemented("lifeboat_strength", base_answers=True)
        self.score_hook = self._implemented("lifeboat_score", base_answers=True)
        # the engine keeps the other characters' listings across a pass in a window that
        # stays open (``Game._transact``): the built-in action types never list by who has
        # passed, and no plugin hook can act on the pass or refuse a listed move
        self.listings_outlive_passes = not self.guarded and self.resolve_hook is None \
            and self.event_hook is None and self.refuse_hook is None
        # {kind: {lang: text}} of the provisions whose content says what they do (a house
        # rule's card); views show it beside each such card (the content is fixed)
        self.provision_texts = {}
        for kind, entry in self.content.raw.get("provisions", {}).items():
            said = entry.get("text") if isinstance(entry, dict) else None
            if isinstance(said, str):
                said = {"en": said}
            if isinstance(said, dict) and said:
                self.provision_texts[kind] = dict(said)

    def kinds_with(self, attribute: str) -> frozenset:
        """The provision kinds whose ``ProvisionInfo.<attribute>`` is set (``quenches``,
        ``chum``, ``preserver``, ``weapon``...): the content is fixed, so each set is worked
        out once."""
        found = self.kind_sets.get(attribute)
        if found is None:
            found = self.kind_sets[attribute] = frozenset(
                kind for kind, info in self.content.provisions.items() if getattr(info, attribute))
        return found

    def _implemented(self, name: str, base_answers: bool = False):
        caller = getattr(self.pm.hook, name)
        impls = caller.get_hookimpls()
        if base_answers:
            impls = [i for i in impls if not self.names.get(i.plugin, "").startswith("base.")]
        return caller if impls else None

    def space_for(self, navcards: int, cards: int) -> ActionSpace:
        """The integer action space for a game with that many cards (the ruleset's own for a
        dealt game)."""
        setup = self.content.setup
        draws = setup["rowing_draws"] + sum(info.rowing_draws * info.count
                                            for info in self.content.provisions.values())
        flare = max([info.param("draws", 0) for info in self.content.provisions.values()] + [0])
        return ActionSpace(self.types.values(), tuple(self.content.characters),
                           max(cards, self.content.card_count),
                           max(navcards, len(self.content.navigation)), max(draws, flare, 1))

    def implementers(self, hook_name: str) -> list:
        return [self.names.get(impl.plugin, impl.plugin_name)
                for impl in getattr(self.pm.hook, hook_name).get_hookimpls()]

    def _defined_at(self, hook_name: str) -> list:
        """``file, line N`` of each implementation of a hook from outside this package (all of
        them if none is)."""
        impls = getattr(self.pm.hook, hook_name).get_hookimpls()
        outside = [i for i in impls if self.names.get(i.plugin, i.plugin_name) not in self.trusted]
        # the def, past its @hookimpl (a code object's first line is the decorator's)
        return [_where(impl.function) for impl in outside or impls
                if hasattr(inspect.unwrap(impl.function), "__code__")]

    def blame(self, exc: BaseException) -> str | None:
        """The plugin an exception comes from: the innermost frame of a registered plugin
        from outside this package, else the innermost plugin frame; for a hook that answered
        nonsense, the plugins implementing that hook."""
        hook = getattr(exc, "hook", None)
        if hook is not None:
            outside = [n for n in self.implementers(hook) if n not in self.trusted]
            return ", ".join(outside or self.implementers(hook))
        modules = {_module_of(plugin): name for plugin, name in self.names.items()}
        found = fallback = None
        tb = exc.__traceback__
        while tb is not None:
            name = modules.get(tb.tb_frame.f_globals.get("__name__", ""))
            if name is not None:
                if name in self.trusted:
                    fallback = name
                else:
                    found = name
            tb = tb.tb_next
        return found or (fallback if not isinstance(exc, IllegalAction) else None)

    def plugin_error(self, exc: BaseException, doing: str) -> BaseException:
        """The error to raise for ``exc`` raised while ``doing`` something: a ``PluginError``
        naming the plugin, or ``exc`` itself when it is the engine's own refusal."""
        if isinstance(exc, PluginError):
            return exc
        plugin = self.blame(exc)
        hook = getattr(exc, "hook", None)
        if hook is not None and not getattr(exc, "at", ""):
            exc.at = "; ".join(self._defined_at(hook))      # type: ignore[attr-defined]
        if isinstance(exc, IllegalAction) and plugin is None:
            return exc
        return PluginError(f"plugin {plugin or '(unknown)'} failed while {doing}: "
                           f"{type(exc).__name__}: {exc}", plugin or "(unknown)")

    def trace(self, writer=print) -> None:
        """Write every hook call and its result with ``writer`` (pluggy's tracing)."""
        self.pm.trace.root.setwriter(writer)
        self.pm.enable_tracing()


# --------------------------------------------------------------------------- installed content

@functools.lru_cache(maxsize=None)
def _installed_characters() -> frozenset:
    """The characters some installed content defines: the base game's and those every
    installed expansion, variant or plugin adds (a card may name an expansion's character
    that the game at hand does not have: it is ignored there, section C)."""
    found = set(base_content()["characters"])
    for name in known_plugin_names():
        try:
            plugin = import_plugin(name, "<installed plugins>", name)
        except ContentError:
            continue
        registry = Registry()
        if not registry.register(plugin, name, name):
            continue
        for impl in registry.implementations("lifeboat_content"):
            content = base_content()
            arguments = {"content": content,
                         "ruleset": pytypes.SimpleNamespace(name=name, spec={"name": name})}
            try:
                impl.function(**{arg: arguments[arg] for arg in impl.argnames})
            except Exception:       # a plugin that fails here is reported where it is used
                continue
            characters = content.get("characters")
            if isinstance(characters, dict):
                found.update(c for c in characters if isinstance(c, str))
    return frozenset(found)


def defined_somewhere(character: str) -> bool:
    """Whether some installed content defines ``character`` (for ids a card names)."""
    return character in _installed_characters()
