"""A small deterministic random generator (SplitMix64).

The whole generator state is one 64-bit integer kept in the game state, so that a game
copies, saves and replays exactly, on any machine and any Python version (docs/api.md: same seed,
same actions, same game). ``random.Random`` is avoided on purpose: its state is large and its
derived methods are not promised to stay the same across Python versions.
"""

from __future__ import annotations

MASK = (1 << 64) - 1
SPAN = 1 << 64
GOLDEN = 0x9E3779B97F4A7C15


def seed_state(seed: int) -> int:
    """The generator state for a seed (any int, negative included).

    The seed is mixed once: with ``seed * GOLDEN`` as the state, seeds 0 and 1 dealt the same
    game and every seed replayed its neighbour's draws shifted by one (R-SETUP-2..6: dealt at
    random, shuffled)."""
    return Rng(seed & MASK).next64()


class Rng:
    """Draws from a state; ``state`` is read back into the game after use."""

    __slots__ = ("state",)

    def __init__(self, state: int):
        self.state = state & MASK

    def next64(self) -> int:
        self.state = z = (self.state + GOLDEN) & MASK
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """A uniform integer in [0, n), without modulo bias."""
        if n <= 0:
            raise ValueError("below() needs n >= 1")
        limit = (1 << 64) - ((1 << 64) % n)
        while True:
            x = self.next64()
            if x < limit:
                return x % n

    def shuffle(self, items: list) -> None:
        """Fisher-Yates, in place: ``j = below(i + 1)`` for i from the last index down, with
        ``below`` and ``next64`` written out (a deal shuffles about eighty times)."""
        state = self.state
        for i in range(len(items) - 1, 0, -1):
            n = i + 1
            limit = SPAN - SPAN % n
            while True:
                state = z = (state + GOLDEN) & MASK
                z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
                z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
                x = z ^ (z >> 31)
                if x < limit:
                    break
            j = x % n
            items[i], items[j] = items[j], items[i]
        self.state = state

    def choice(self, items):
        return items[self.below(len(items))]


# --------------------------------------------------------------------------- card ids

_ID_SALT = 0x6361726469647321     # keeps the key apart from the generator's own draws


def card_key(seed: int) -> int:
    """The key of a game's card ids, from its seed, without drawing from the game's generator
    (the same seed deals the same game with or without it). Kept out of every view and event."""
    return Rng(seed_state(seed) ^ _ID_SALT).next64()


def card_id(key: int, serial: int) -> str:
    """The ``serial``-th card id of a game (docs/api.md: a card's id is a secret like its kind):
    ``p`` and eight hex digits, a keyed permutation of the serial (four Feistel rounds over
    32 bits), so that ids never repeat within a game and say nothing about when or in what
    order they were made to whoever does not hold the key."""
    left, right = (serial >> 16) & 0xFFFF, serial & 0xFFFF
    for round_key in _round_keys(key):
        z = ((right ^ round_key) * 0xBF58476D1CE4E5B9) & MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
        left, right = right, left ^ ((z ^ (z >> 31)) & 0xFFFF)
    return f"p{left:04x}{right:04x}"


_HEX = frozenset("0123456789abcdef")


def card_id_ok(card: str) -> bool:
    """Whether ``card`` has the form of a card id: ``p`` and up to six digits (an explicit
    position's numbers) or ``p`` and eight hex digits (``card_id``)."""
    rest = card[1:]
    return card[:1] == "p" and (
        (rest.isdigit() and rest.isascii() and len(rest) <= 6)
        or (len(rest) == 8 and all(c in _HEX for c in rest)))


_ROUND_KEYS: dict = {}


def _round_keys(key: int) -> tuple:
    found = _ROUND_KEYS.get(key)
    if found is None:
        rng = Rng(key)
        found = tuple(rng.next64() for _ in range(4))
        if len(_ROUND_KEYS) > 4096:   # a search determinizes often: keep the few recent keys
            _ROUND_KEYS.clear()
        _ROUND_KEYS[key] = found
    return found
