"""What each player may see (docs/api.md, Views and Per-player events): a JSON-safe view of the
table, and the log with every field the player may not see left out."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Iterable

from .records import short
from .effects import copy_event

if TYPE_CHECKING:
    from .engine import Game
    from .types import Event, View


def _viewer(game: "Game", viewer) -> None:
    if viewer is not None and (type(viewer) is not str or viewer not in game.state.characters):
        raise ValueError(f"unknown character {short(viewer)}: a view is of a character in play, "
                         "or None")


def _reader(game: "Game", viewer, since) -> None:
    _viewer(game, viewer)
    if type(since) is not int or since < 0:
        raise ValueError(f"since is a log index (0 or more), not {short(since)}")


def view(game: "Game", viewer: str | None) -> "View":
    return views_of(game, (viewer,))[viewer]


def views_of(game: "Game", viewers: "Iterable[str | None]",
             kept: "dict[object, Any] | None" = None) -> "dict[str | None, View]":
    """``{viewer: view(game, viewer)}`` for several viewers at one position, made together:
    what every viewer sees alike (the table, every character's public side, the stage) is
    made once and shared by their views, and each gets its own hand, love and hate,
    decision, offers and the card markers it may see. Read them only.

    ``kept``: a dict the caller keeps for one game from one call to the next (empty at
    first). A character's entry (and a viewer's own, with its hand) that reads as it did at
    the last call is then that call's very object, not a new equal one: a front end
    comparing a view with the last one passes over them at once (``is``)."""
    viewers = tuple(viewers)
    for viewer in viewers:
        _viewer(game, viewer)
    state = game.state
    chars = state.characters
    kinds = state.table.kinds
    texts = _provision_texts(game)
    characters = {}
    for who, ch in chars.items():
        markers = ch.markers
        if kept is not None:
            # everything the entry is made of (a card's kind and text never change)
            key = (ch.size, ch.survival, ch.damage, ch.lost, ch.ghost, len(ch.hand),
                   tuple(ch.front), tuple(markers))
            was = kept.get(who)
            if was is not None and was[0] == key:
                characters[who] = was[1]
                continue
        entry = {
            "size": ch.size, "survival": ch.survival, "damage": ch.damage,
            "status": ch.status.value,
            "front": [{"id": c, "kind": kinds[c]} for c in ch.front],
            "hand_size": len(ch.hand),
            "rowed": "rowed" in markers, "fought": "fought" in markers,
            "parasol_active": "parasol" in markers, "markers": markers[:],
            "on_board": not ch.lost,
        }
        if ch.lost:
            entry["ghost"] = ch.ghost
        if texts:   # a house rule's card that says what it does (content ``text``)
            _add_texts(entry["front"], texts)
        characters[who] = entry
        if kept is not None:
            kept[who] = (key, entry)
    pending = game.pending
    head = {
        "ruleset": game.ruleset.name,
        "round": state.round,
        "phase": state.phase.value,
        "seagulls": state.seagulls,
        "over": state.over,
        "seats": state.seats[:],
    }
    tail = {
        "supply_size": len(state.supply),
        "navigation_size": len(state.navigation),
        "rowing_pile_size": len(state.rowing_pile),
        "discard": [kinds[c] for c in state.discard],
        "removed_size": len(state.removed),
        "pending": [d.data() for d in pending],
    }
    navigation_card = None
    if state.current is not None:
        navigation_card = _with_text(game, state.table.navcards[state.current].data())
    top = game.top
    public = top.public(game) if top is not None else None
    result = None
    if state.over and state.result is not None:
        result = game.result
        # the reveal: every player's love and hate, shown once the game is over
        result["reveal"] = {who: {"love": ch.love, "hate": ch.hate} for who, ch in chars.items()}
    out_all: dict = {}
    for viewer in viewers:
        out = {"you": viewer, **head}
        if viewer is None:
            out["characters"] = characters
        else:
            seen = characters[viewer]      # its entry as the others see it
            hand = chars[viewer].hand
            was = kept.get(("own", viewer)) if kept is not None else None
            if was is not None and was[0] is seen and was[1] == hand:
                own = was[2]
            else:
                own = {**seen, "hand": [{"id": c, "kind": kinds[c]} for c in hand]}
                if texts:
                    _add_texts(own["hand"], texts)
                if kept is not None:
                    kept[("own", viewer)] = (seen, hand[:], own)
            out["characters"] = {**characters, viewer: own}
        out.update(tail)
        if state.card_markers:
            out["card_markers"] = {m: [c for c in cards if _visible(game, viewer, c)]
                                   for m, cards in state.card_markers.items()}
        if navigation_card is not None:
            out["navigation_card"] = navigation_card
        if public is not None:
            out["stage"] = public
        if viewer is not None:
            me = chars[viewer]
            out["love"] = me.love
            out["hate"] = me.hate
            mine = [d for d in pending if d.by == viewer]
            if mine and top is not None:
                decision = top.private(game, viewer) or {}
                decision.setdefault("kind", str(mine[0].kind))
                if "cards" in decision and not decision["cards"]:
                    del decision["cards"]
                elif "cards" in decision:
                    decision["cards"] = [_with_text(game, card) if "kind" not in card else card
                                         for card in decision["cards"]]
                    if texts:
                        _add_texts(decision["cards"], texts)
                out["decision"] = decision
            out["offers"] = [o.data() for o in state.offers if viewer in (o.by, o.to)]
        if result is not None:
            out["result"] = result
        out_all[viewer] = out
    return out_all


def _provision_texts(game: "Game") -> dict:
    """``{kind: {lang: str}}`` for the provisions whose content gives a ``text`` (worked out
    once per ruleset: ``Rules.provision_texts``)."""
    return game.rules.provision_texts


def _add_texts(cards: list, texts: dict) -> None:
    """Each provision card of ``cards`` (a hand, a front, a decision's cards) with its text."""
    for card in cards:
        kind = card.get("kind")
        if kind in texts and "overboard" not in card:
            card["text"] = dict(texts[kind])


def _with_text(game: "Game", card: dict) -> dict:
    """A navigation card's data with its content ``text`` (what it does in words, by
    language: a house rule's card whose effect its fields do not show), when it has one."""
    entry = game.ruleset.content.raw.get("navigation", {}).get(card.get("id"))
    said = entry.get("text") if isinstance(entry, dict) else None
    if isinstance(said, str):
        said = {"en": said}
    if isinstance(said, dict) and said:
        return {**card, "text": dict(said)}
    return card


def _visible(game: "Game", viewer, card: str) -> bool:
    """A card whose place the viewer sees: face up, discarded, or in the viewer's hand."""
    state = game.state
    if card in state.discard:
        return True
    for who, ch in state.characters.items():
        if card in ch.front:
            return True
        if card in ch.hand:
            return who == viewer
    return False


def events_for(game: "Game", viewer: str | None, since: int = 0) -> "list[Event]":
    """The log from ``since`` on as ``viewer`` may see it (None: a spectator)."""
    _reader(game, viewer, since)
    log = game.log
    secrets = game.secrets
    out = []
    for index in range(since, len(log)):
        event = log[index]
        secret = secrets.get(index)
        hidden = secret.hidden_from(viewer) if secret is not None else ()
        out.append(redact(event, hidden) if hidden else copy_event(event))
    return out


def events_alike(game: "Game", wanted: "Iterable[tuple[str | None, int]]") -> "list[list[Event]]":
    """``[events_for(game, viewer, since) for viewer, since in wanted]``, where the viewers
    shown a stretch of the log alike (the same ``since``, the same fields hidden at each of its
    entries with a secret) share one list: read them only. (A front end that tells every seat
    each new move makes the list once, not once a seat: most moves hide nothing.) An entry
    with nothing hidden from its viewer is the log's own, as in ``told``."""
    log = game.log
    secrets = game.secrets
    made: dict = {}
    out = []
    for viewer, since in wanted:
        _reader(game, viewer, since)
        hidden = [(index, secrets[index].hidden_from(viewer))
                  for index in range(since, len(log)) if index in secrets]
        shown = (since, tuple(fields for _, fields in hidden))
        events = made.get(shown)
        if events is None:
            events = made[shown] = log[since:]
            for index, fields in hidden:
                if fields:
                    events[index - since] = redact(log[index], fields)
        out.append(events)
    return out


def told(game: "Game", viewer: str | None) -> list:
    """The log as ``viewer`` may see it, like ``events_for(game, viewer)``, for reading only:
    entries with nothing hidden from the viewer are the log's own (events are never changed
    once logged), so it costs a copy only of what it redacts (``determinize`` reads it for
    every world it deals)."""
    log = game.log
    secrets = game.secrets
    if not secrets:
        return list(log)
    out = list(log)
    for index, secret in secrets.items():
        hidden = secret.hidden_from(viewer)
        if hidden:
            out[index] = redact(log[index], hidden)
    return out


def redact(event: dict, hidden: tuple) -> dict:
    """A copy of ``event`` without the ``hidden`` fields (``action.pile``: a field of the
    action the event carries)."""
    copy = copy_event(event)
    for field in hidden:
        outer, _, inner = field.partition(".")
        if inner:
            nested = copy.get(outer)
            if type(nested) is dict:
                nested.pop(inner, None)
        else:
            copy.pop(outer, None)
    return copy
