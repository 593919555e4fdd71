"""A Lifeboat house rule: the Storm, a navigation card on which the two characters at the stern
fall overboard (docs/house-rules.md, "Words for your house rule")."""

from lifeboat_rules import effects, hookimpl

LIFEBOAT_EVENTS = ("storm",)   # the event types it emits (simulate --count checks names)


@hookimpl
def lifeboat_overboard(game, card):
    """Who falls overboard: under the Storm, the two at the stern; else the base game says."""
    if card.id != "storm":
        return None                       # not ours: the base game answers
    stern = game.state.seats[-2:]         # seats run from bow to stern
    effects.emit(game, {"type": "storm", "characters": stern})
    return stern
