"""What each player may see (API.md, Views): a JSON-safe mapping, no secrets of others."""

from __future__ import annotations


def _cards(game, ids) -> list:
    kinds = game.state.kinds
    return [{"id": c, "kind": kinds[c]} for c in ids]


def view(game, viewer: str | None) -> dict:
    state = game.state
    chars = state.characters
    if viewer is not None and (type(viewer) is not str or viewer not in chars):
        from .refusals import _short   # a repr that cannot fail, whatever was passed
        raise ValueError(f"unknown character {_short(viewer)}: a view is of a character in play, or None")
    kinds = state.kinds
    characters = {}
    for who, ch in chars.items():
        entry = {
            "size": ch.size, "survival": ch.survival, "damage": ch.damage, "status": ch.status,
            "front": [{"id": c, "kind": kinds[c]} for c in ch.front],
            "hand_size": len(ch.hand),
            "rowed": ch.rowed, "fought": ch.fought, "parasol_active": ch.parasol_active,
            "on_board": not ch.lost,
        }
        if ch.lost:
            entry["ghost"] = ch.ghost
        if who == viewer:
            entry["hand"] = [{"id": c, "kind": kinds[c]} for c in ch.hand]
        characters[who] = entry
    top = game.top
    pending = game._pending
    out = {
        "you": viewer,
        "ruleset": game.ruleset.name,
        "round": state.round,
        "phase": state.phase,
        "seagulls": state.seagulls,
        "over": state.over,
        "seats": state.seats[:],
        "characters": characters,
        "supply_size": len(state.supply),
        "navigation_size": len(state.navigation),
        "rowing_pile_size": len(state.rowing_pile),
        "discard": [kinds[c] for c in state.discard],
        "removed_size": len(state.removed),
        "pending": [d.data() for d in pending],
    }
    if state.current is not None:
        out["navigation_card"] = state.navcards[state.current].data()
    if top is not None:
        public = top.public(game)
        if public is not None:
            out["stage"] = public
    if viewer is not None:
        me = chars[viewer]
        out["love"] = me.love
        out["hate"] = me.hate
        mine = [d for d in pending if d.by == viewer]
        if mine and top is not None:
            decision = top.private(game, viewer) or {}
            decision.setdefault("kind", mine[0].kind)
            if "cards" in decision and not decision["cards"]:
                del decision["cards"]
            out["decision"] = decision
        out["offers"] = [o.data() for o in state.offers if viewer in (o.by, o.to)]
    if state.over and state.result is not None:
        result = state.result
        out["result"] = {"scores": dict(result["scores"]), "winners": list(result["winners"]),
                         "breakdown": {c: dict(p) for c, p in result["breakdown"].items()},
                         "end": result["end"]}
    return out
