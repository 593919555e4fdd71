"""What a study plays: rulesets, player count, seeds, bots per seat (docs/balance.md)."""

from __future__ import annotations

from dataclasses import dataclass

from .. import load_ruleset, new_game
from ..bots import BOTS


@dataclass(frozen=True)
class Plan:
    """``games`` games with seeds ``seed``, ``seed + 1``, ... under ``rulesets[0]`` and, when
    comparing, the same seeds and seats under ``rulesets[1]``.

    Rulesets travel as their flattened definitions (what a saved game carries), so a worker
    process or a Dask worker loads exactly the same ruleset without reading the user's files
    (plugins named in them must be importable there).
    """

    rulesets: tuple          # flattened definitions (mappings)
    names: tuple             # their names
    players: int
    seed: int
    games: int
    bots: tuple              # bot names, by seat in deal order, cycled to the player count
    rotate: bool = False     # move the bots one seat toward the stern each game
    order: tuple = ()        # the characters in seat order of a full table (for tables, plots)
    sources: tuple = ()      # the rulesets as named on the command line (for a replay command)

    @classmethod
    def make(cls, ruleset="classic", games: int = 1, players: int | None = None, seed: int = 1,
             bots=("random",), rotate: bool = False, compare=None) -> "Plan":
        """A plan from what the command line takes; ValueError (or ContentError) if it cannot
        be played."""
        loaded = [load_ruleset(ruleset)]
        if compare is not None:
            loaded.append(load_ruleset(compare))
        if players is None:
            players = max(loaded[0].players)
        for each in loaded:
            if players not in each.players:
                raise ValueError(f"{each.name} is played by {min(each.players)} to "
                                 f"{max(each.players)} players, not {players} (R-SETUP-1)")
        if games < 1:
            raise ValueError("--games must be at least 1")
        bots = tuple(bots) or ("random",)
        unknown = [b for b in bots if b not in BOTS]
        if unknown:
            raise ValueError(f"unknown bot {unknown[0]!r}; known bots: {', '.join(sorted(BOTS))}")
        if len(bots) > players:
            raise ValueError(f"{len(bots)} bots named for {players} seats")
        order: list = []
        for each in loaded:
            for character in new_game(each, players=max(each.players), seed=0).view(None)["seats"]:
                if character not in order:
                    order.append(character)
        return cls(rulesets=tuple(r.spec for r in loaded), names=tuple(r.name for r in loaded),
                   players=players, seed=seed, games=games, bots=bots, rotate=rotate,
                   order=tuple(order),
                   sources=tuple(r if isinstance(r, str) else None
                                 for r in (ruleset, compare)[:len(loaded)]))

    @property
    def comparing(self) -> bool:
        return len(self.rulesets) > 1

    def to_dict(self) -> dict:
        """What ``runner.play_seeds`` takes (plain data, cheap to send to a worker)."""
        return {"rulesets": list(self.rulesets), "players": self.players, "seed": self.seed,
                "bots": list(self.bots), "rotate": self.rotate, "sources": list(self.sources)}
