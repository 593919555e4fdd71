"""The shark variant (R-SHARK-1, R-SHARK-2): every character is one size larger, and the
ghosts of characters lost at sea by falling overboard may call the shark in each overboard
window (R-OVER-3 caps shark damage at 1 whatever the calls)."""

from lifeboat_rules import effects, hookimpl
from lifeboat_rules.actions import ActionType
from lifeboat_rules.records import Kind, Refusal

LIFEBOAT_KIND = "variant"


@hookimpl
def lifeboat_content(content):
    for character in content["characters"].values():   # R-SHARK-1
        character["size"] += 1


def _shark_check(game, stage, by):
    if not game.state.characters[by].ghost:
        return Refusal("R-SHARK-2", "only a ghost (a character lost at sea by falling overboard) "
                                    "calls the shark", "by", by)
    if by in stage.called:
        return Refusal("R-WIN-2", f"{by} has called the shark in this window already", "by", by)
    return None


def _shark_moves(game, stage, by):
    if game.state.characters[by].ghost and by not in stage.called:   # once per window
        return [()]
    return []


def _shark_resolve(game, stage, by):
    stage.called.append(by)
    effects.emit(game, {"type": "shark", "ghost": by})


SHARK = ActionType("shark", "R-SHARK-2", _shark_check, _shark_moves, _shark_resolve,
                   kinds=(Kind.OVERBOARD,), ghost=True)


@hookimpl
def lifeboat_action_types():
    return [SHARK]
