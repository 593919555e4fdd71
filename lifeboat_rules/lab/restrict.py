"""Restricted play (Jaffe et al., "Evaluating Competitive Game Balance with Restricted Play",
AIIDE 2012): a seat that never takes some action types unless nothing else is legal.

Any bot plays restricted through ``Restricted``: the bot is handed the game as it is, except
that the moves it may choose among leave out the forbidden types whenever something else is
legal. The bot needs no change and does not know of the restriction beyond its own choices
(a search bot's imagined opponents, and its own imagined later moves, play unrestricted).
"""

from __future__ import annotations


class _Narrowed:
    """The game as one restricted character's bot sees it: ``moves`` and ``legal_actions`` of
    that character without the forbidden types when something else is legal; everything
    else is the game itself."""

    __slots__ = ("_game", "_who", "_banned")

    def __init__(self, game, who: str, banned: frozenset):
        self._game = game
        self._who = who
        self._banned = banned

    def __getattr__(self, name):
        return getattr(self._game, name)

    def moves(self, by: str) -> list:
        moves = self._game.moves(by)
        if by != self._who:
            return moves
        return [m for m in moves if m[0].name not in self._banned] or moves

    def legal_actions(self, by: str) -> list:
        actions = self._game.legal_actions(by)
        if by != self._who:
            return actions
        return [a for a in actions if a["type"] not in self._banned] or actions


class Restricted:
    """A bot that never takes the action types ``banned`` unless nothing else is legal.

    ``avoided`` counts its decisions where the restriction took something away (a forbidden
    move was legal beside an allowed one): a restriction that never bites changes nothing.
    """

    def __init__(self, bot, banned):
        self.bot = bot
        self.banned = frozenset(banned)
        self.avoided = 0

    def choose(self, game, character: str) -> dict:
        moves = game.moves(character)
        names = {atype.name for atype, _ in moves}
        if names & self.banned and names - self.banned:
            self.avoided += 1
            return self.bot.choose(_Narrowed(game, character, self.banned), character)
        return self.bot.choose(game, character)
