"""HeuristicBot: plays to its own love, hate and treasure (docs/agents.md).

It looks only at what its player may know: the public table (seats, damage, cards face up,
the stage), its own hand, love and hate, and the cards its decision shows it. Every decision
scores the legal moves with a few rules of thumb and takes the best (ties broken at random):

* what a character's health is worth to it: its own (+1), its love's (+0.7, R-SCORE-4), its
  hate's (-0.7); a blow that knocks out or kills counts more than one that does not;
* supply picks: water, then what scores (treasure doubled for its own kind, jewels by set),
  the life preserver, the parasol, weapons;
* its turn: heal itself or its love, open a parasol, rob what cannot be refused or whom it is
  stronger than (its hate first), take the stern seat to navigate, row while thirst is cheap;
* the target of a swap or robbery refuses when it is at least as strong (a tie goes to the
  defender, R-FIGHT-3) unless the actor is its love;
* fights: joins its love's side or its hate's opponents when that side wins with it; a fighter
  plays its weapons while its side is not ahead;
* navigation: keeps on the rowing pile, and chooses, the cards that hurt it least;
* windows: water for itself, then its love; the life preserver on itself or its love; chum
  when its hate falls alone.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .actions import ActionType
    from .engine import Game
    from .types import Action

MARGIN = 1          # strength a robber wants over its target (others may join, hands hide weapons)
IGNORED = frozenset({"offer", "accept_offer", "decline_offer"})   # it never trades


class HeuristicBot:
    """Plays to its own love, hate and treasure (see the module's docstring)."""

    def __init__(self, seed: int | None = None) -> None:
        self.random = random.Random(seed)

    def choose(self, game: Game, character: str) -> Action:
        """One of ``game.legal_actions(character)``."""
        atype, values = self.choose_move(game, character)
        return game.action_dict(atype, character, values)

    def choose_move(self, game: Game, character: str) -> tuple[ActionType, tuple[object, ...]]:
        """``(action type, values)``: one of ``game.moves(character)`` (for fast play)."""
        moves = game.moves(character)
        if len(moves) == 1:
            return moves[0]
        moves = [m for m in moves if m[0].name not in IGNORED] or moves
        mind = Mind(game, character)
        rnd = self.random.random
        best, best_score = None, None
        for move in moves:
            score = mind.score(move) + rnd() * 1e-3
            if best_score is None or score > best_score:
                best, best_score = move, score
        return best


class Mind:
    """What one character wants now, and the score of each of its moves."""

    def __init__(self, game, me: str):
        self.game = game
        self.state = state = game.state
        self.me = me
        self.chars = chars = state.characters
        self.provisions = game.rules.content.provisions
        self.info = game.rules.content.characters
        self.kinds = state.table.kinds
        self.top = game.top
        mine = chars[me]
        self.love, self.hate = mine.love, mine.hate
        weights = {}
        if self.hate == me:                          # a misanthrope: others' deaths score
            weights = {c: -0.3 for c in chars}
            weights[me] = 0.5
        else:
            weights[me] = 1.0
            if self.hate is not None:
                weights[self.hate] = weights.get(self.hate, 0.0) - 0.7
        if self.love is not None:
            weights[self.love] = weights.get(self.love, 0.0) + (0.5 if self.love == me else 0.7)
        self.weights = weights

    # ------------------------------------------------------------------ measures

    def weight(self, who: str) -> float:
        return self.weights.get(who, 0.0)

    def margin(self, who: str) -> int:
        """Blows a character can take before it is no longer awake."""
        character = self.chars[who]
        return character.size - character.damage

    def harm(self, who: str, amount: int) -> float:
        """What ``amount`` damage to ``who`` costs it: more as it nears knocked out or dead."""
        if amount <= 0:
            return 0.0
        after = self.margin(who) - amount
        if after < 0:
            return amount + 3.0
        if after == 0:
            return amount + 1.5
        if after <= 2:
            return amount + 0.5
        return float(amount)

    def strength(self, who: str, with_hand: bool = False) -> int:
        character = self.chars[who]
        provisions, kinds = self.provisions, self.kinds
        total = character.size + sum(provisions[kinds[c]].weapon for c in character.front)
        if with_hand:
            total += sum(provisions[kinds[c]].weapon for c in character.hand)
        return total

    def navigator(self) -> str | None:
        chars = self.chars
        for who in reversed(self.state.seats):
            if chars[who].awake:
                return who
        return None

    def card_value(self, card: str) -> float:
        """What a provision is worth to hold (supply picks, robberies)."""
        info = self.provisions[self.kinds[card]]
        me = self.chars[self.me]
        value = 0.3
        if info.quenches:
            value += 2.5 + (0.5 if me.damage else 0.0)
        if info.treasure_group is not None:
            double = self.info[self.me].double_treasure == info.treasure_group
            if info.treasure_set:
                have = sum(1 for c in me.hand + me.front
                           if self.provisions[self.kinds[c]].treasure_group == info.treasure_group)
                table = info.treasure_set
                gain = table[min(have + 1, len(table) - 1)] - table[min(have, len(table) - 1)]
            else:
                gain = info.treasure_points
            value += gain * (2 if double else 1)
        if info.weapon:
            value += 0.8 + 0.3 * info.weapon
        if info.preserver:
            value += 2.5
        if info.chum:
            value += 0.5
        if info.rowing_draws or info.navigation_draws:
            value += 0.7
        effect = info.effect
        if effect == "heal":
            value += 2.0
        elif effect == "parasol":
            value += 2.5
        return value

    def hand_value(self, who: str) -> float:
        """A random card of a hand another player cannot see: worth about an average card."""
        return 1.6 if self.chars[who].hand else 0.0

    def navigation_value(self, nav: str, rowed: bool = False) -> float:
        """What resolving a navigation card would do to what this character wants: the falls
        and thirsts it deals (R-OVER-1..5, R-THIRST-1), and a landing seagull."""
        card = self.state.table.navcards[nav]
        chars = self.chars
        seats = self.state.seats

        def marked(who, marker):
            return marker in chars[who].markers

        falls = set(card.overboard.select(seats, marked))
        thirsty = set(card.thirst.select(seats, marked))
        value = 0.0
        kinds, provisions = self.kinds, self.provisions
        for who in seats:
            weight = self.weights.get(who)
            if not weight:
                continue
            character = chars[who]
            if character.dead and who not in falls:
                continue
            blows = 0
            if who in falls:
                if not character.awake:
                    value -= weight * 4.0           # lost at sea (R-OVER-5)
                    continue
                preserved = any(provisions[kinds[c]].preserver for c in character.front)
                if not preserved:
                    blows += self.info[who].fall_damage if who in self.info else 1
            thirst = int(who in thirsty)
            if card.oar and ("rowed" in character.markers or (rowed and who == self.me)):
                thirst += 1
            if card.fight and "fought" in character.markers:
                thirst += 1
            if "parasol" in character.markers:
                thirst = max(0, thirst - 1)
            blows += thirst
            value -= weight * self.harm(who, blows)
        if card.seagull > 0:
            limit = self.game.rules.content.setup["seagulls_to_land"]
            if self.state.seagulls + card.seagull >= limit:
                value += 2.0 if chars[self.me].awake else -1.0
            else:
                value += 0.2
        elif card.seagull < 0:
            value -= 0.2
        return value

    # ------------------------------------------------------------------ moves

    def score(self, move) -> float:
        atype, values = move
        handler = getattr(self, "_" + atype.name, None)
        if handler is None:
            return -1.0          # not a move this bot knows: only if nothing else is legal
        return handler(*values)

    def _pass(self) -> float:
        return 0.0

    def _pick(self, card) -> float:
        return self.card_value(card)

    # a turn ------------------------------------------------------------------

    def _row(self) -> float:
        me = self.chars[self.me]
        water = any(self.provisions[self.kinds[c]].quenches for c in me.hand + me.front)
        return 0.8 if water or self.margin(self.me) >= 3 else 0.2

    def _swap(self, target) -> float:
        seats = self.state.seats
        if target == self.love or target != seats[-1] or self.navigator() == self.me:
            return -0.5
        stronger = self.strength(self.me, True) >= self.strength(target) + MARGIN
        if self.chars[target].awake and not stronger:
            return -0.5
        return 1.2

    def _rob(self, target, card) -> float:
        if target == self.love and self.love != self.me:
            return -2.0
        gain = self.hand_value(target) if card == "hand" else self.card_value(card)
        victim = self.chars[target]
        pickpocket = card == "hand" and self.info[self.me].pickpocket
        if not victim.awake or pickpocket:
            return gain + (0.8 if target == self.hate else 0.0)
        mine, theirs = self.strength(self.me, True), self.strength(target)
        if mine < theirs + MARGIN:
            return -1.0
        # a fight it should win: the robbery, and a blow to the loser (R-FIGHT-4)
        return 0.4 * gain - self.weight(target) * self.harm(target, 1) * 0.7 + \
            (0.5 if target == self.hate else -0.3)

    def _use(self, card, target) -> float:
        effect = self.provisions[self.kinds[card]].effect
        if effect == "heal":
            if target == self.me:
                return 1.0 + (1.5 if self.margin(self.me) <= 1 else 0.0)
            return self.weight(target) * (0.5 + (1.0 if self.margin(target) <= 1 else 0.0))
        if effect == "parasol":
            return 1.5
        if effect == "flare":
            limit = self.game.rules.content.setup["seagulls_to_land"]
            return 0.6 if self.state.seagulls >= limit - 2 and self.margin(self.me) >= 2 else -0.5
        return -0.5

    # an answer ------------------------------------------------------------------

    def _stake(self):
        return getattr(self.top, "stake", None)

    def _allow(self) -> float:
        return 0.0

    def _refuse(self) -> float:
        stake = self._stake()
        if stake is None:
            return -0.1
        actor = stake.actor
        if actor == self.love and self.love != self.me:
            return -1.0
        mine, theirs = self.strength(self.me, True), self.strength(actor)
        if mine < theirs:
            return -0.5
        stakes = 1.0
        if stake.act == "rob":
            stakes = self.card_value(stake.card) if stake.card else 1.5
        return 0.3 + 0.3 * stakes + (0.5 if actor == self.hate else 0.0)

    # a fight ---------------------------------------------------------------------

    def _sides(self):
        top = self.top
        attack = sum(self.strength(c) for c in top.attackers)
        defence = sum(self.strength(c) for c in top.defenders)
        return top, attack, defence

    def _join(self, side) -> float:
        top, attack, defence = self._sides()
        mine = self.strength(self.me, True)
        team = top.attackers if side == "attacker" else top.defenders
        foes = top.defenders if side == "attacker" else top.attackers
        care = sum(self.weight(c) for c in team) - sum(self.weight(c) for c in foes)
        if care <= 0.1:
            return -0.5
        wins = attack + mine > defence if side == "attacker" else defence + mine >= attack
        return care if wins else -0.5

    def _play(self, card) -> float:
        top = self.top
        weapon = self.provisions[self.kinds[card]].weapon
        if top is None or getattr(top, "KIND", None) != "fight" or not weapon:
            return -0.5
        if not top.in_fight(self.me):
            return -0.5
        _, attack, defence = self._sides()
        attacking = self.me in top.attackers
        ahead = attack > defence if attacking else defence >= attack
        return -0.2 if ahead else 0.5 + 0.1 * weapon

    # navigation ------------------------------------------------------------------

    def _place(self, pile) -> float:
        values = [self.navigation_value(nav, rowed=bool(pile)) for nav in pile]
        waiting = bool(self.state.rowing_pile)      # cards other rowers kept, unseen
        if self.navigator() == self.me:
            # it will choose among the pile: the best card kept is what counts
            best = max(values) if values else -0.5
            return max(best, -0.3) if waiting else best
        # another navigator chooses: keep only what is good for it
        return sum(values) / len(values) if values else -0.3

    def _navigate(self, card) -> float:
        return self.navigation_value(card)

    # windows ---------------------------------------------------------------------

    def _water(self, target, card) -> float:
        me = self.chars[self.me]
        if target == self.me:
            return 2.0 + (1.0 if self.margin(self.me) <= 2 else 0.0)
        if self.weight(target) <= 0:
            return -1.0
        waters = sum(1 for c in me.hand + me.front if self.provisions[self.kinds[c]].quenches)
        thirsty_me = self.top.thirst.get(self.me, 0) if hasattr(self.top, "thirst") else 0
        if waters <= thirsty_me:
            return -0.5
        return self.weight(target) * (1.0 + (1.0 if self.margin(target) <= 2 else 0.0))

    def _preserve(self, target) -> float:
        top = self.top
        if getattr(top, "KIND", None) != "overboard" or target not in top.fallen:
            return -0.5
        return self.weight(target) * 2.0

    def _chum(self, card=None) -> float:
        top = self.top
        if getattr(top, "KIND", None) != "overboard":
            return -0.5
        return -sum(self.weight(c) for c in top.fallen) - 0.2

    def _shark(self) -> float:
        return self._chum()

    def _object(self) -> float:
        return -0.3

    def _drink(self, card=None) -> float:
        return -0.3

    def _offer(self, to, give, take) -> float:
        return -1.0

    def _accept_offer(self, offer) -> float:
        return -0.5

    def _decline_offer(self, offer) -> float:
        return -0.6
