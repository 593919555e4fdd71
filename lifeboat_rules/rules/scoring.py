"""The scores once the game is over (R-SCORE-1..9)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .. import effects
from ..hookspecs import hookimpl

if TYPE_CHECKING:
    from ..engine import Game

# a score part a hook may answer: far beyond any game's (the base game's are under 100), and
# small enough for every JSON reader to keep exactly (the result is saved and shown)
MAX_PART = 1_000_000


def treasure(game: "Game", who: str) -> int:
    """R-SCORE-3: cash, jewels by set, paintings in hand and in front, the group the
    character's ability names doubled."""
    provisions = game.rules.content.provisions
    kinds = game.state.table.kinds
    character = game.state.characters[who]
    points: dict = {}
    counts: dict = {}
    tables: dict = {}
    for card in character.hand + character.front:
        info = provisions[kinds[card]]
        group = info.treasure_group
        if group is None:
            continue
        if info.treasure_set:
            counts[group] = counts.get(group, 0) + 1
            tables[group] = info.treasure_set
        else:
            points[group] = points.get(group, 0) + info.treasure_points
    for group, count in counts.items():
        table = tables[group]
        points[group] = points.get(group, 0) + table[min(count, len(table) - 1)]
    info = game.rules.content.characters.get(who)
    double = info.double_treasure if info is not None else None
    return sum(value * 2 if group == double else value for group, value in points.items())


def base_score(game: "Game", who: str) -> dict:
    """The four independent parts. The special cases fall out of them: a narcissist's survival
    counts as its own and as its love's (R-SCORE-5); a misanthrope scores no survival of its own
    (loving itself too, its survival counts once, through love) and the size of every other
    character that died (R-SCORE-6); love and hate on the same other character score its
    survival if it survives, its size if it died (R-SCORE-7). Every player scores its love and
    hate whatever became of its character (R-SCORE-9)."""
    chars = game.state.characters
    me = chars[who]
    misanthrope = me.hate == who                                            # R-SCORE-6
    parts = {"survival": 0, "treasure": 0, "love": 0, "hate": 0}
    if me.alive and not misanthrope:                                        # R-SCORE-1, -2
        parts["survival"] = me.survival
    if not me.lost:                                                         # R-SCORE-3
        parts["treasure"] = treasure(game, who)
    if me.love is not None and me.love in chars and chars[me.love].alive:
        parts["love"] = chars[me.love].survival                 # R-SCORE-4, R-SCORE-5, R-SCORE-7
    if me.hate is not None:
        if misanthrope:
            parts["hate"] = sum(other.size for cid, other in chars.items()
                                if cid != who and not other.alive)
        elif me.hate in chars and not chars[me.hate].alive:
            parts["hate"] = chars[me.hate].size                             # R-SCORE-4, R-SCORE-7
    return parts


@hookimpl(trylast=True)
def lifeboat_score(game, character):
    return base_score(game, character)


def score_game(game: "Game") -> dict:
    """Every player's score parts and total; the highest total wins, a tie shares the win
    (R-SCORE-8)."""
    hook = game.rules.score_hook
    breakdown = {}
    for who in game.state.characters:
        parts = hook(game=game, character=who) if hook is not None else base_score(game, who)
        if type(parts) is not dict or any(type(k) is not str or type(v) is not int
                                          or not -MAX_PART <= v <= MAX_PART
                                          for k, v in parts.items()):
            effects.hook_nonsense("lifeboat_score", parts, f"as {who}'s score parts: "
                                  f"{{part: whole number, at most {MAX_PART:,} either way}} (R-SCORE)")
        breakdown[who] = dict(parts)
    scores = {who: sum(parts.values()) for who, parts in breakdown.items()}
    best = max(scores.values()) if scores else 0
    winners = [who for who, score in scores.items() if score == best]
    return {"scores": scores, "winners": winners, "breakdown": breakdown}
