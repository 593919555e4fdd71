"""The shark variant (RULES.md: R-SHARK-1, R-SHARK-2): every character is one size larger,
and the ghosts of characters lost at sea by falling overboard may call the shark in each
overboard window (R-OVER-3 caps shark damage at 1 whatever the calls)."""

from lifeboat_rules import effects, hookimpl
from lifeboat_rules.actions import ActionType

LIFEBOAT_KIND = "variant"


@hookimpl
def lifeboat_content(content):
    for character in content["characters"].values():   # R-SHARK-1
        character["size"] += 1


def _shark_options(game, character, stage):
    ghost = game.state.characters[character]
    if ghost.lost and ghost.ghost and character not in stage.called:   # once per window
        return [{"by": character, "type": "shark"}]
    return []


def _shark_resolve(game, action):
    window = game.top
    window.called.append(action["by"])
    effects.emit(game, {"type": "shark", "ghost": action["by"]})


def _shark_explain(game, action):
    from lifeboat_rules.rules.overboard import OverboardWindow
    who = game.state.characters[action["by"]]
    if not (who.lost and who.ghost):
        return "R-SHARK-2", "only a ghost (a character lost at sea by falling overboard) calls the shark"
    if not isinstance(game.top, OverboardWindow):
        return "R-SHARK-2", "the shark is called in the overboard window only"
    if action["by"] in game.top.called:
        return "R-WIN-2", f"{action['by']} has called the shark in this window already"
    return "R-WIN-2", f"{action['by']} is not pending in the overboard window"


SHARK = ActionType("shark", "R-SHARK-2", _shark_options, _shark_resolve,
                   stages=("overboard",), explain=_shark_explain, ghost=True)


@hookimpl
def lifeboat_action_types():
    return [SHARK]
