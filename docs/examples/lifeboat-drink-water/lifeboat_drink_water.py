"""House rule for Lifeboat: water can also be drunk to heal 1 damage.

On your turn, as your special action (R-SPEC-1), you may drink one water from your
hand (or face up in front of you) to heal 1 damage of your own. Like every special action it
ends your turn. Water still cancels thirst in the thirst step, as before.

How it works: a provision's special action is data (``special: {effect: NAME}``) and an
*effect kind* is code. This plugin registers the effect kind ``drink`` and gives water a
special action of that kind; the engine then offers ``{"type": "use", "card": "water"}`` on
your turn whenever you have damage to heal, and carries it out with ``drink`` below.
"""

from lifeboat_rules import effects, hookimpl
from lifeboat_rules.actions import Effect

LIFEBOAT_KIND = "variant"   # may be listed under `variants:` or `plugins:` of a ruleset


def drink_targets(game, user, card):
    """Who the effect may target: nobody but the drinker, and only with damage to heal."""
    if game.state.characters[user].damage >= 1:
        return [None]        # [None]: the action has no `target` field
    return []                # []: the action is not offered now


def drink(game, user, card, target):
    """Heal the drinker, then discard the water (every change goes through `effects`)."""
    kind = game.state.table.kinds[card]            # card id -> provision kind
    amount = game.rules.content.provisions[kind].param("amount", 1)
    effects.heal(game, user, amount, "water")
    effects.discard(game, user, card)              # from the hand, or from in front


@hookimpl
def lifeboat_effects():
    return {"drink": Effect("drink", "HOUSE-DRINK", drink_targets, drink)}


@hookimpl
def lifeboat_content(content):
    content["provisions"]["water"]["special"] = {"effect": "drink", "amount": 1}
