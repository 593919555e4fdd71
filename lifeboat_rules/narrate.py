"""Events in words, for ``lifeboat-rules simulate --verbose`` and the play command."""

from __future__ import annotations


def _names(items) -> str:
    return ", ".join(items) if items else "nobody"


def describe(event: dict) -> str | None:
    """A line for an event, or None for the bookkeeping ones (card moves, markers)."""
    kind = event["type"]
    get = event.get
    if kind == "setup":
        return f"setup: {get('players')} players, seats {' '.join(get('seats'))} (seed {get('seed')})"
    if kind == "phase":
        return f"-- round {get('round')}, {get('phase')} phase"
    if kind == "pick":
        return f"{get('character')} picks a supply card" + (" (the last one)" if get("automatic") else "")
    if kind == "turn":
        return f"{get('character')}'s turn"
    if kind == "pass":
        return f"{get('character')} passes" if get("stage") == "turn" else None
    if kind == "row":
        return f"{get('character')} rows and draws {get('drawn')} navigation cards"
    if kind == "place":
        return f"{get('character')} keeps {get('kept')} for the rowing pile"
    if kind == "swap":
        return f"{get('character')} asks {get('target')} to swap seats"
    if kind == "rob":
        card = get("card")
        what = "a random hand card" if card == "hand" else f"the {card['kind']}"
        return f"{get('character')} robs {what} from {get('target')}"
    if kind == "robbed":
        return (f"{get('character')} takes {get('kind')} from {get('target')}" if get("card")
                else f"{get('character')} finds nothing to take from {get('target')}")
    if kind == "respond":
        return f"{get('character')} {'allows it' if get('answer') == 'allow' else 'refuses: a fight!'}"
    if kind == "join":
        return f"{get('character')} joins the {get('side')}s"
    if kind == "fight":
        strength = get("strength", {})
        return (f"fight: {_names(get('attackers'))} ({strength.get('attacker')}) against "
                f"{_names(get('defenders'))} ({strength.get('defender')}); the {get('winner')}s win")
    if kind == "use":
        target = f" on {get('target')}" if get("target") else ""
        return f"{get('character')} uses the {get('kind')}{target}"
    if kind == "play":
        return f"{get('character')} plays {get('kind')} face up"
    if kind == "preserve":
        return f"{get('character')} throws the life preserver to {get('target')}"
    if kind == "seats":
        return f"seats: {' '.join(get('seats'))}"
    if kind == "seagulls":
        return f"seagulls: {get('count')}"
    if kind == "navigation":
        data = get("data", {})
        return (f"navigation card {get('card')}: overboard {data.get('overboard')}, thirst "
                f"{data.get('thirst')}, oar {data.get('oar')}, fight {data.get('fight')}, "
                f"seagull {data.get('seagull')}")
    if kind == "overboard":
        return f"overboard: {_names(get('characters'))}"
    if kind == "chum":
        return f"{get('character')} throws chum to the sharks"
    if kind == "shark":
        return f"the ghost of {get('ghost')} calls the shark"
    if kind == "thirst":
        return f"{get('character')} is thirsty x{get('count')}"
    if kind == "water":
        return f"{get('character')} gives water to {get('target')}"
    if kind == "damage":
        return f"{get('character')} takes {get('amount')} damage ({get('cause')})"
    if kind == "heal":
        return f"{get('character')} heals {get('amount')} ({get('cause')})"
    if kind == "status":
        return f"{get('character')} is {get('status')}"
    if kind == "lost":
        return f"{get('character')} is lost ({get('cause')})"
    if kind == "offer":
        return f"{get('from')} offers {get('to')} {get('give')} for {get('take')}"
    if kind == "trade":
        return f"{get('to')} accepts {get('from')}'s offer"
    if kind == "game_over":
        scores = get("scores", {})
        ranking = ", ".join(f"{c} {s}" for c, s in sorted(scores.items(), key=lambda i: -i[1]))
        return f"GAME OVER. Scores: {ranking}. Winner(s): {_names(get('winners'))}"
    if kind == "cannibalism":
        return f"{get('character')} wants to eat the body of {get('target')}"
    if kind == "object":
        return f"{get('character')} objects"
    if kind == "eaten":
        return f"{get('by')} and the others eat {get('character')}"
    if kind == "kept":
        return f"{get('character')} keeps the {get('kind')} face up"
    if kind == "flare":
        return f"{get('character')} fires the flare gun"
    if kind == "parasol":
        return f"{get('character')}'s parasol is {'open' if get('active') else 'closed'}"
    return None
