"""The end of the game and the scores (RULES.md: R-END-1, R-SCORE-1..8)."""

from __future__ import annotations

from ..hookspecs import hookimpl


def survives(character) -> bool:
    """R-SCORE-1: on board and not dead (awake or unconscious)."""
    return character.alive


def treasure(game, who: str) -> int:
    """R-SCORE-3: cash, jewels by set, paintings in hand and in front, the kind the
    character's ability names doubled."""
    state = game.state
    provisions = game.rules.content.provisions
    character = state.characters[who]
    points: dict[str, int] = {}
    counts: dict[str, int] = {}
    tables: dict[str, tuple] = {}
    for card in character.hand + character.front:
        info = provisions[state.kinds[card]]
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


@hookimpl(trylast=True)
def lifeboat_score(game, character):
    """The four independent parts. The special cases fall out of them: a narcissist's survival
    counts as its own and as its love's (R-SCORE-5); a misanthrope scores no survival of its own
    (so loving itself too, its survival counts once, through love) and the size of every other
    character that died (R-SCORE-6); love and hate on the same other character score its
    survival if it survives, its size if it died (R-SCORE-7)."""
    chars = game.state.characters
    me = chars[character]
    misanthrope = me.hate == character                                      # R-SCORE-6
    parts = {"survival": 0, "treasure": 0, "love": 0, "hate": 0}
    if survives(me) and not misanthrope:                                    # R-SCORE-2
        parts["survival"] = me.survival
    if not me.lost:                                                         # R-SCORE-3
        parts["treasure"] = treasure(game, character)
    if me.love is not None and me.love in chars and survives(chars[me.love]):
        parts["love"] = chars[me.love].survival                 # R-SCORE-4, R-SCORE-5, R-SCORE-7
    if me.hate is not None:
        if misanthrope:
            parts["hate"] = sum(other.size for cid, other in chars.items()
                                if cid != character and not survives(other))
        elif me.hate in chars and not survives(chars[me.hate]):
            parts["hate"] = chars[me.hate].size                             # R-SCORE-4, R-SCORE-7
    return parts


def score_game(game) -> dict:
    """Every player's score parts and total; the highest total wins, ties share (R-SCORE-8)."""
    hook = game.rules.hook.lifeboat_score
    breakdown = {}
    for who in game.state.characters:
        parts = hook(game=game, character=who)
        if type(parts) is not dict or any(type(k) is not str or type(v) is not int
                                          for k, v in parts.items()):
            from .. import effects
            effects.hook_nonsense("lifeboat_score", parts,
                                  f"as {who}'s score parts: {{part: whole number}} (R-SCORE)")
        breakdown[who] = dict(parts)
    scores = {who: sum(parts.values()) for who, parts in breakdown.items()}
    best = max(scores.values()) if scores else 0
    winners = [who for who, score in scores.items() if score == best]
    return {"scores": scores, "winners": winners, "breakdown": breakdown}
