"""State fields declared once; copying, saving, restoring and the saved-game schema derived.

A class of the game state (a character, the table, a stage, a stake...) declares each field
with one of the helpers below (``integer``, ``flag``, ``name``, ``names``, ``record``...). The
helper says what the field holds (its JSON shape, its bounds, what its ids refer to) and that
one declaration gives:

* ``clone(obj)``: an independent copy, compiled into one straight-line function per class so
  that copying a whole game for tree search stays in microseconds;
* ``dump(obj)`` / ``load(cls, data)``: the JSON-safe form of ``to_dict`` and back;
* ``check(cls, data)``: every structural problem of such data (types, bounds, missing and
  unknown keys), the same rules as ``schema(cls)``, the JSON Schema shipped for saved games;
* ``refs(obj)``: the ids a record holds and what they must name (a character in play, a card of
  the game...), which ``Game.from_dict`` checks against the game.

Declare a class with ``@state`` (mutable, copied on clone) or ``@value`` (immutable, shared by
copies). A plugin's stage declares its fields the same way (docs/house-rules.md).
"""

from __future__ import annotations

from typing import Any, Callable

import attrs

KEY = "lifeboat_rules"

# What an id refers to (checked against the game by Game.from_dict).
CHARACTER = "character"      # a character in play
CARD = "card"                # a provision card of the game
NAVCARD = "navcard"          # a navigation card of the game
ACTION = "action"            # a registered action type
SETTLING = "settling action"  # a registered action type that settles a stake (``settle``)
MARKER = "marker"            # a registered marker

MAX_INT = 1_000_000
MAX_ITEMS = 10_000
MAX_TEXT = 200


@attrs.frozen(slots=True)
class Spec:
    """What a declared field holds."""
    shape: str                     # int bool str str? strs counts word record record? records
    #                                record_map stages data data? big shared
    ref: str | None = None
    low: int = 0
    high: int = MAX_INT
    cls: Any = None                # record class, or the enum of a word
    doc: str = ""


def _field(spec: Spec, **kwargs):
    return attrs.field(metadata={KEY: spec}, **kwargs)


def integer(default: int = 0, *, low: int = 0, high: int = MAX_INT, doc: str = ""):
    """A whole number from ``low`` to ``high``."""
    return _field(Spec("int", low=low, high=high, doc=doc), default=default)


def flag(default: bool = False, *, doc: str = ""):
    return _field(Spec("bool", doc=doc), default=default)


def name(ref: str | None = None, default: Any = attrs.NOTHING, *, doc: str = ""):
    """A short string; with ``ref``, an id of that kind."""
    return _field(Spec("str", ref=ref, doc=doc), default=default)


def maybe_name(ref: str | None = None, *, doc: str = ""):
    """A short string or None."""
    return _field(Spec("str?", ref=ref, doc=doc), default=None)


def names(ref: str | None = None, *, doc: str = ""):
    """A list of short strings (ids of ``ref``)."""
    return _field(Spec("strs", ref=ref, doc=doc), factory=list)


def counts(ref: str | None = CHARACTER, *, high: int = MAX_INT, doc: str = ""):
    """A mapping from ids of ``ref`` to whole numbers from 0 to ``high``."""
    return _field(Spec("counts", ref=ref, high=high, doc=doc), factory=dict)


def lists(ref: str | None = None, *, key: str | None = None, doc: str = ""):
    """A mapping from short strings (ids of ``key``) to lists of ids of ``ref``."""
    return _field(Spec("lists", ref=ref, cls=key, doc=doc), factory=dict)


def word(enum_class: type, default: Any = attrs.NOTHING, *, doc: str = ""):
    """A value of a str enum (saved as its value)."""
    return _field(Spec("word", cls=enum_class, doc=doc), default=default,
                  converter=enum_class)


def record(cls: type, *, optional: bool = False, doc: str = ""):
    """Another declared record (``optional``: or None)."""
    shape = "record?" if optional else "record"
    return _field(Spec(shape, cls=cls, doc=doc), default=None if optional else attrs.NOTHING)


def records(cls: type, *, doc: str = ""):
    """A list of declared records."""
    return _field(Spec("records", cls=cls, doc=doc), factory=list)


def record_map(cls: type, ref: str | None = CHARACTER, *, doc: str = ""):
    """A mapping from ids of ``ref`` to declared records."""
    return _field(Spec("record_map", cls=cls, ref=ref, doc=doc), factory=dict)


def stages(*, doc: str = ""):
    """The stack of stages: records of the classes the ruleset registers, each saved with its
    ``NAME`` under the key ``stage``."""
    return _field(Spec("stages", doc=doc), factory=list)


def data(*, optional: bool = True, doc: str = ""):
    """JSON-like data never changed in place (replaced whole): shared by copies."""
    return _field(Spec("data?" if optional else "data", doc=doc),
                  default=None if optional else attrs.NOTHING)


def big(default: int = 0, *, doc: str = ""):
    """A 64-bit unsigned number, saved as 16 hex digits (the random generator's state)."""
    return _field(Spec("big", doc=doc), default=default)


def shared(*, copied: bool = False, doc: str = ""):
    """A value saved apart (the card table): shared by copies, or with ``copied`` copied by
    its ``copy()`` (the table: its card ids change with the game, its navigation cards not)."""
    return _field(Spec("shared", cls="copy" if copied else None, doc=doc))


def state(cls):
    """Declare a mutable record of the state: slots, keyword-only, copied on clone
    (``obj.clone()``)."""
    # no hooks on assignment: a field is set often (and by clone, for every field)
    cls = attrs.define(cls, slots=True, kw_only=True, eq=False, on_setattr=attrs.setters.NO_OP)
    cls.__lifeboat_frozen__ = False
    cls.clone = clone
    return cls


def value(cls):
    """Declare an immutable record: shared by copies."""
    cls = attrs.frozen(cls, slots=True, kw_only=True)
    cls.__lifeboat_frozen__ = True
    return cls


def specs(cls) -> tuple:
    """``((name, Spec), ...)`` of a declared class, in declaration order."""
    found = cls.__dict__.get("__lifeboat_specs__")
    if found is None:
        out = []
        for field in attrs.fields(cls):
            spec = field.metadata.get(KEY)
            if spec is None:
                raise TypeError(f"{cls.__qualname__}.{field.name} is not declared with a "
                                "lifeboat_rules.declare helper (integer, flag, name, names, ...)")
            out.append((field.name, spec))
        found = tuple(out)
        setattr(cls, "__lifeboat_specs__", found)
    return found


def _frozen(cls) -> bool:
    return bool(getattr(cls, "__lifeboat_frozen__", False))


# --------------------------------------------------------------------------- clone

def _compile(cls, kind: str, lines: list, env: dict) -> Callable:
    source = "\n".join(lines)
    namespace: dict = {}
    exec(compile(source, f"<lifeboat_rules.declare {kind} {cls.__qualname__}>", "exec"), env, namespace)
    function = namespace[kind]
    function.__source__ = source
    return function


def clone(obj):
    """An independent copy of a declared record (compiled once per class)."""
    return _cloner(type(obj))(obj)


def _cloner(cls) -> Callable:
    function = cls.__dict__.get("__lifeboat_clone__")
    if function is not None:
        return function
    if _frozen(cls):
        function = _same
    else:
        lines = ["def clone(self):", "    new = new_object(cls)"]
        env = {"new_object": object.__new__, "cls": cls, "clone_any": clone}
        for field_name, spec in specs(cls):
            get = f"self.{field_name}"
            shape = spec.shape
            if shape in ("strs",):
                expr = f"{get}[:]"
            elif shape == "counts":
                expr = f"{get}.copy()"
            elif shape == "lists":
                expr = f"{{k: v[:] for k, v in {get}.items()}}"
            elif shape in ("record", "record?"):
                if _frozen(spec.cls):
                    expr = get
                else:
                    env[f"clone_{field_name}"] = _cloner(spec.cls)
                    expr = (f"clone_{field_name}({get})" if shape == "record"
                            else f"(None if {get} is None else clone_{field_name}({get}))")
            elif shape == "records":
                env[f"clone_{field_name}"] = _cloner(spec.cls)
                expr = (f"{get}[:]" if _frozen(spec.cls)
                        else f"[clone_{field_name}(v) for v in {get}]")
            elif shape == "record_map":
                env[f"clone_{field_name}"] = _cloner(spec.cls)
                expr = (f"{get}.copy()" if _frozen(spec.cls)
                        else f"{{k: clone_{field_name}(v) for k, v in {get}.items()}}")
            elif shape == "stages":
                expr = f"[clone_any(v) for v in {get}]"
            elif shape == "shared" and spec.cls == "copy":
                expr = f"{get}.copy()"
            else:   # int bool str str? word data data? big shared: immutable or shared
                expr = get
            lines.append(f"    new.{field_name} = {expr}")
        lines.append("    return new")
        function = _compile(cls, "clone", lines, env)
    setattr(cls, "__lifeboat_clone__", function)
    return function


def _same(obj):
    return obj


# --------------------------------------------------------------------------- dump and load

def copy_json(value):
    """A copy of JSON-like data (plain loops: faster than comprehensions, which cost a frame
    each; most values are flat lists of strings or small mappings)."""
    kind = type(value)
    if kind is list or kind is tuple:
        copy = list(value)
        for index, item in enumerate(copy):
            kind = type(item)
            if kind is list or kind is dict or kind is tuple:
                copy[index] = copy_json(item)
        return copy
    if kind is dict:
        copy = value.copy()
        for key, item in copy.items():
            kind = type(item)
            if kind is list or kind is dict or kind is tuple:
                copy[key] = copy_json(item)
        return copy
    return value


def dump(obj) -> dict:
    """The JSON-safe form of a declared record."""
    return _dumper(type(obj))(obj)


def _dumper(cls) -> Callable:
    function = cls.__dict__.get("__lifeboat_dump__")
    if function is not None:
        return function
    lines = ["def dump(self):", "    return {"]
    env = {"dump_any": dump, "copy_json": copy_json, "dump_stage": dump_stage}
    for field_name, spec in specs(cls):
        get = f"self.{field_name}"
        shape = spec.shape
        if shape == "shared":
            continue
        if shape == "strs":
            expr = f"{get}[:]"
        elif shape == "counts":
            expr = f"dict({get})"
        elif shape == "lists":
            expr = f"{{k: v[:] for k, v in {get}.items()}}"
        elif shape == "word":
            expr = f"{get}.value"
        elif shape == "record":
            expr = f"dump_any({get})"
        elif shape == "record?":
            expr = f"(None if {get} is None else dump_any({get}))"
        elif shape == "records":
            expr = f"[dump_any(v) for v in {get}]"
        elif shape == "record_map":
            expr = f"{{k: dump_any(v) for k, v in {get}.items()}}"
        elif shape == "stages":
            expr = f"[dump_stage(v) for v in {get}]"
        elif shape in ("data", "data?"):
            expr = f"copy_json({get})"
        elif shape == "big":
            expr = f"format({get}, '016x')"
        else:
            expr = get
        lines.append(f"        {field_name!r}: {expr},")
    lines.append("    }")
    function = _compile(cls, "dump", lines, env)
    setattr(cls, "__lifeboat_dump__", function)
    return function


def dump_stage(stage) -> dict:
    out = {"stage": type(stage).NAME}
    out.update(dump(stage))
    return out


def load(cls, data: dict, stage_classes: dict | None = None, **shared_values):
    """A record of ``cls`` from data that ``check`` found right."""
    values = dict(shared_values)
    for field_name, spec in specs(cls):
        shape = spec.shape
        if shape == "shared":
            continue
        raw = data[field_name]
        if shape == "strs":
            value = list(raw)
        elif shape == "counts":
            value = dict(raw)
        elif shape == "lists":
            value = {key: list(items) for key, items in raw.items()}
        elif shape == "word":
            value = spec.cls(raw)
        elif shape == "record":
            value = load(spec.cls, raw, stage_classes)
        elif shape == "record?":
            value = None if raw is None else load(spec.cls, raw, stage_classes)
        elif shape == "records":
            value = [load(spec.cls, item, stage_classes) for item in raw]
        elif shape == "record_map":
            value = {key: load(spec.cls, item, stage_classes) for key, item in raw.items()}
        elif shape == "stages":
            value = [load(stage_classes[item["stage"]], item, stage_classes) for item in raw]
        elif shape in ("data", "data?"):
            value = copy_json(raw)
        elif shape == "big":
            value = int(raw, 16)
        else:
            value = raw
        values[field_name] = value
    return cls(**values)


# --------------------------------------------------------------------------- checking data

def _path(prefix: str, key) -> str:
    if isinstance(key, int):
        return f"{prefix}[{key}]"
    return f"{prefix}.{key}" if prefix else str(key)


def _short_text(value) -> bool:
    return type(value) is str and 0 < len(value) <= MAX_TEXT


def check(cls, data, path: str = "", stage_classes: dict | None = None,
          problems: list | None = None) -> list:
    """Every structural problem of ``data`` as a record of ``cls``: ``[(path, message)]``.

    The same rules as ``schema(cls)`` (tests/test_saving.py compares the two on mutated
    saves), checked in plain Python because a saved game is read far more often than the
    schema changes.
    """
    out = [] if problems is None else problems
    if type(data) is not dict:
        out.append((path or "(top)", f"must be an object, not {type(data).__name__}"))
        return out
    declared = specs(cls)
    known = {field_name for field_name, spec in declared if spec.shape != "shared"}
    if getattr(cls, "NAME", None) is not None and stage_classes is not None:
        known.add("stage")
    for key in data:
        if key not in known:
            out.append((_path(path, key), "unknown key"))
    for field_name, spec in declared:
        if spec.shape == "shared":
            continue
        where = _path(path, field_name)
        if field_name not in data:
            out.append((where, "missing"))
            continue
        _check_value(spec, data[field_name], where, stage_classes, out)
    return out


def _check_value(spec: Spec, value, where: str, stage_classes, out: list) -> None:
    shape = spec.shape
    if shape == "int":
        if type(value) is not int or not spec.low <= value <= spec.high:
            out.append((where, f"must be a whole number from {spec.low} to {spec.high}"))
    elif shape == "bool":
        if type(value) is not bool:
            out.append((where, "must be true or false"))
    elif shape == "str":
        if not _short_text(value):
            out.append((where, f"must be a string of 1 to {MAX_TEXT} characters"))
    elif shape == "str?":
        if value is not None and not _short_text(value):
            out.append((where, f"must be null or a string of 1 to {MAX_TEXT} characters"))
    elif shape == "strs":
        if type(value) is not list or len(value) > MAX_ITEMS:
            out.append((where, f"must be a list of at most {MAX_ITEMS} strings"))
        else:
            for index, item in enumerate(value):
                if not _short_text(item):
                    out.append((_path(where, index), f"must be a string of 1 to {MAX_TEXT} characters"))
    elif shape == "counts":
        if type(value) is not dict:
            out.append((where, "must be an object"))
        else:
            for key, item in value.items():
                if type(item) is not int or not 0 <= item <= spec.high:
                    out.append((_path(where, key), f"must be a whole number from 0 to {spec.high}"))
    elif shape == "lists":
        if type(value) is not dict or len(value) > MAX_ITEMS:
            out.append((where, "must be an object"))
        else:
            for key, items in value.items():
                place = _path(where, key)
                if not _short_text(key):
                    out.append((place, f"keys must be strings of 1 to {MAX_TEXT} characters"))
                if type(items) is not list or len(items) > MAX_ITEMS:
                    out.append((place, f"must be a list of at most {MAX_ITEMS} strings"))
                    continue
                for index, item in enumerate(items):
                    if not _short_text(item):
                        out.append((_path(place, index), f"must be a string of 1 to {MAX_TEXT} characters"))
    elif shape == "word":
        allowed = [member.value for member in spec.cls]
        if type(value) is not str or value not in allowed:
            out.append((where, f"must be one of {allowed}"))
    elif shape in ("record", "record?"):
        if value is None and shape == "record?":
            return
        check(spec.cls, value, where, stage_classes, out)
    elif shape in ("records", "record_map"):
        container = list if shape == "records" else dict
        if type(value) is not container or len(value) > MAX_ITEMS:
            out.append((where, f"must be {'a list' if container is list else 'an object'}"))
        else:
            items = enumerate(value) if container is list else value.items()
            for key, item in items:
                check(spec.cls, item, _path(where, key), stage_classes, out)
    elif shape == "stages":
        if type(value) is not list or len(value) > 100:
            out.append((where, "must be a list of at most 100 stages"))
        else:
            for index, item in enumerate(value):
                place = _path(where, index)
                stage_name = item.get("stage") if type(item) is dict else None
                stage_class = (stage_classes or {}).get(stage_name) if type(stage_name) is str else None
                if stage_class is None:
                    out.append((_path(place, "stage"), "must name a stage the ruleset registers "
                                f"({', '.join(sorted(stage_classes or {}))})"))
                else:
                    check(stage_class, item, place, stage_classes, out)
    elif shape == "data":
        if value is None:
            out.append((where, "must not be null"))
    elif shape == "big":
        if type(value) is not str or len(value) != 16 or any(c not in "0123456789abcdef" for c in value):
            out.append((where, "must be 16 lower-case hex digits"))


# --------------------------------------------------------------------------- references

def refs(obj, path: str = ""):
    """``(path, ref, value)`` for every id a record holds (depth first)."""
    for field_name, spec in specs(type(obj)):
        shape = spec.shape
        value = getattr(obj, field_name)
        where = _path(path, field_name)
        if spec.ref is not None:
            if shape in ("str", "str?"):
                if value is not None:
                    yield where, spec.ref, value
            elif shape == "strs":
                for index, item in enumerate(value):
                    yield _path(where, index), spec.ref, item
            elif shape in ("counts", "record_map"):
                for key in value:
                    yield _path(where, key), spec.ref, key
            elif shape == "lists":
                for key, items in value.items():
                    if spec.cls is not None:
                        yield _path(where, key), spec.cls, key
                    for index, item in enumerate(items):
                        yield _path(_path(where, key), index), spec.ref, item
        if shape in ("record", "record?") and value is not None:
            yield from refs(value, where)
        elif shape == "records" or shape == "stages":
            for index, item in enumerate(value):
                yield from refs(item, _path(where, index))
        elif shape == "record_map":
            for key, item in value.items():
                yield from refs(item, _path(where, key))


# --------------------------------------------------------------------------- JSON Schema

def schema(cls, stage_classes: dict | None = None) -> dict:
    """The JSON Schema (2020-12) of a record of ``cls`` as ``dump`` writes it."""
    properties = {}
    for field_name, spec in specs(cls):
        if spec.shape == "shared":
            continue
        properties[field_name] = _value_schema(spec, stage_classes)
    required = list(properties)
    if getattr(cls, "NAME", None) is not None and stage_classes is not None:
        properties = {"stage": {"const": cls.NAME}, **properties}
        required = ["stage"] + required
    out = {"type": "object", "additionalProperties": False, "required": required,
           "properties": properties}
    doc = (cls.__doc__ or "").strip().splitlines()
    if doc:
        out = {"description": doc[0], **out}
    return out


def _text_schema() -> dict:
    return {"type": "string", "minLength": 1, "maxLength": MAX_TEXT}


def _value_schema(spec: Spec, stage_classes) -> dict:
    shape = spec.shape
    if shape == "int":
        out = {"type": "integer", "minimum": spec.low, "maximum": spec.high}
    elif shape == "bool":
        out = {"type": "boolean"}
    elif shape == "str":
        out = _text_schema()
    elif shape == "str?":
        out = {"oneOf": [{"type": "null"}, _text_schema()]}
    elif shape == "strs":
        out = {"type": "array", "maxItems": MAX_ITEMS, "items": _text_schema()}
    elif shape == "counts":
        out = {"type": "object",
               "additionalProperties": {"type": "integer", "minimum": 0, "maximum": spec.high}}
    elif shape == "lists":
        out = {"type": "object", "maxProperties": MAX_ITEMS,
               "propertyNames": {"minLength": 1, "maxLength": MAX_TEXT},
               "additionalProperties": {"type": "array", "maxItems": MAX_ITEMS,
                                        "items": _text_schema()}}
    elif shape == "word":
        out = {"enum": [member.value for member in spec.cls]}
    elif shape == "record":
        out = schema(spec.cls, stage_classes)
    elif shape == "record?":
        out = {"oneOf": [{"type": "null"}, schema(spec.cls, stage_classes)]}
    elif shape == "records":
        out = {"type": "array", "maxItems": MAX_ITEMS, "items": schema(spec.cls, stage_classes)}
    elif shape == "record_map":
        out = {"type": "object", "additionalProperties": schema(spec.cls, stage_classes)}
    elif shape == "stages":
        choices = [schema(stage_classes[key], stage_classes) for key in sorted(stage_classes or {})]
        out = {"type": "array", "maxItems": 100, "items": {"oneOf": choices} if choices else {}}
    elif shape == "data":
        out = {"not": {"type": "null"}}
    elif shape == "data?":
        out = {}
    elif shape == "big":
        out = {"type": "string", "pattern": "^[0-9a-f]{16}$"}
    else:  # pragma: no cover - every shape is handled above
        raise ValueError(shape)
    if spec.ref is not None:
        out = {**out, "description": f"ids of: {spec.ref}"}
    if spec.doc:
        out = {**out, "description": spec.doc}
    return out
