"""Why an action is refused: a message naming the rule (issue #2, Bad input).

Legality itself is decided by the action types' ``options`` (what ``legal_actions`` lists);
this module only finds the words. It checks the shape of the action first (a mapping, a known
type, a known character, the fields of that type with the right types, known cards), then the
moment (the game is over, the character is not awake), then asks the action type.
"""

from __future__ import annotations

from .actions import LIST, STR

MAX_TEXT = 200


def _short(value) -> str:
    """A short repr for a message, whatever the value (a huge int or string, a cycle, an
    object whose repr raises): words about bad input must not fail themselves."""
    if type(value) is str and len(value) > 60:
        value = value[:60]
    try:
        text = repr(value)
    except Exception:   # ints past the str-conversion limit, hostile __repr__, deep nesting
        text = f"<a {type(value).__name__}>"
    return text if len(text) <= 60 else text[:57] + "..."


def common_problem(game, action):
    """Problems of shape and moment shared by every action type, as (rule, message)."""
    if type(action) is not dict:
        return "API", f"an action is a mapping with 'by' and 'type', not {type(action).__name__}"
    if "type" not in action:
        return "API", "the action has no 'type'"
    kind = action["type"]
    rules = game.rules
    if type(kind) is not str or kind not in rules.types:
        known = ", ".join(sorted(rules.types))
        return "API", f"unknown action type {_short(kind)} (known: {known})"
    if "by" not in action:
        return "API", "the action has no 'by' (the character taking it)"
    by = action["by"]
    state = game.state
    if type(by) is not str or by not in state.characters:
        return "API", f"unknown character {_short(by)} (in play: {', '.join(state.characters)})"
    action_type = rules.types[kind]
    fields = {f.name: f for f in action_type.fields}
    for key in action:
        if key not in ("by", "type") and key not in fields:
            return "API", f"{kind} has no field {_short(key)} (fields: {', '.join(fields) or 'none'})"
    for field in action_type.fields:
        if field.name not in action:
            if field.required:
                return "API", f"{kind} needs the field {field.name!r}"
            continue
        value = action[field.name]
        if field.kind == STR and (type(value) is not str or len(value) > MAX_TEXT):
            return "API", f"{kind}.{field.name} must be a short string, not {_short(value)}"
        if field.kind == LIST and (type(value) is not list
                                   or any(type(v) is not str or len(v) > MAX_TEXT for v in value)
                                   or len(value) > 100):
            return "API", f"{kind}.{field.name} must be a list of strings, not {_short(value)}"
    for name in action_type.card_fields:
        if name not in action:
            continue
        values = action[name] if type(action[name]) is list else [action[name]]
        for value in values:
            if value == "hand" and kind == "rob":
                continue
            if value not in state.kinds and value not in rules.content.provisions:
                return "API", f"unknown card {_short(value)} (a card id of this game or a provision kind)"
    for name in ("target", "to"):
        if name in fields and name in action and action[name] not in state.characters:
            return "API", f"unknown character {_short(action[name])}"
    if state.over:
        return "R-END-1", "the game is over: nothing may be played"
    character = state.characters[by]
    if character.lost and not action_type.ghost:
        return "R-STATUS", f"{by} has left the game ({'lost at sea' if character.ghost else 'lost'})"
    if not character.lost and not character.awake:
        return "R-STATUS", f"{by} is {character.status}: only awake characters act"
    return None


def explain(game, action) -> tuple[str, str]:
    """(message, rule) for ``IllegalAction``: the reason ``action`` is refused now."""
    problem = common_problem(game, action)
    if problem is None:
        action_type = game.rules.types[action["type"]]
        if action_type.explain is not None:
            problem = action_type.explain(game, action)
        if problem is None:
            problem = _fallback(game, action, action_type)
    rule, message = problem
    return f"{rule}: {message}", rule


def _fallback(game, action, action_type):
    waiting = ", ".join(f"{d.by} ({d.kind})" for d in game.pending) or "nobody"
    return action_type.rule, (f"{action['type']} by {action['by']} is not legal now "
                              f"(the game waits for: {waiting})")
