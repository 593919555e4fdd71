"""Words a person reads: one sentence for an event, an action or a decision (``describe``).

The sentences are data: one catalog per language in ``lifeboat_rules/data/words/<lang>.yaml``
(English is the fallback for a missing key or language). The display names come from the
game's content: a character, provision or navigation card may carry ``names: {zh: ...}``
beside its English ``name``, so a ruleset or plugin that adds a card brings its own words.

A ruleset or plugin brings words of its own too: its content may carry ``words: {LANG:
{events: {TYPE: TEMPLATE}, actions: {TYPE: TEMPLATE}, decisions: {KIND: TEMPLATE}}}``
(templates over the item's fields, ``"{character} drinks the rum"``), and its provisions and
navigation cards ``text: {LANG: str}`` (what the card does). A sentence is looked up in the
content's words in the language asked for, then the catalog's sentence of a built-in type,
then the content's English words, then a generic sentence.

Nothing here looks at the game's secrets beyond what it is asked to word for whom: an event is
described with the fields it has (an event redacted for a player simply lacks some, and one
of the log given with ``viewer=c`` is read as ``events_for(c)`` shows it), and an action's
instance ids are named as ``viewer`` sees them now (``game.view(viewer)``; without a viewer,
as the acting player does).

``feed(game, c, since, lang)`` tells the game as player ``c`` is told it at the table: one
sentence per move, built on ``game.events_for(c)`` alone (docs/api.md, The feed).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping
from importlib import resources
from typing import TYPE_CHECKING, Any, Callable, Union

import yaml  # type: ignore[import-untyped,unused-ignore]

from .rng import card_id_ok
from .views import events_alike, redact

if TYPE_CHECKING:
    from .engine import Game
    from .records import Decision

DEFAULT_LANG = "en"
_PLURAL_KEYS = frozenset({"zero", "one", "other"})
_PLACEHOLDER = re.compile(r"\{(\w+)\}")
_LANG = re.compile(r"[a-z]{2,3}")


# --------------------------------------------------------------------------- catalogs

def _words_dir():
    return resources.files("lifeboat_rules.data").joinpath("words")


@functools.lru_cache(maxsize=None)
def languages() -> tuple[str, ...]:
    """The language codes that have a catalog (``en``, ``zh``, ...)."""
    return tuple(sorted(entry.name[:-5] for entry in _words_dir().iterdir()
                        if entry.name.endswith(".yaml") and _LANG.fullmatch(entry.name[:-5])))


def language(lang: Any) -> str:
    """The catalog for ``lang``: itself, else its primary code (``zh-CN`` -> ``zh``), else
    English. Only names from ``languages()`` are ever opened (a code may come from a client)."""
    if type(lang) is str and lang in languages():   # (the codes asked for most)
        return lang
    if isinstance(lang, str):
        code = lang.strip().lower().replace("_", "-")
        for candidate in (code, code.split("-")[0]):
            if candidate in languages():
                return candidate
    return DEFAULT_LANG


def _merge(base: dict, overlay: dict) -> dict:
    out = dict(base)
    for key, value in overlay.items():
        if isinstance(value, dict) and isinstance(out.get(key), dict) \
                and not set(value) <= _PLURAL_KEYS:
            out[key] = _merge(out[key], value)
        else:
            out[key] = value
    return out


# A language, a viewer or an index may come from anywhere (a client, a command line): those
# parameters are typed Any and checked in the body (``language``: any value but a known code
# reads English). The compiled build (setup.py) would refuse a value of another type than the
# one declared, at the call, where the Python build falls back.
def catalog(lang: Any = DEFAULT_LANG) -> dict:
    """The merged catalog of ``lang`` (its own keys over the English ones); read only."""
    return _catalog(language(lang))


@functools.lru_cache(maxsize=None)
def _catalog(code: str) -> dict:   # (cached per known code: any string may come in as lang)
    english = yaml.safe_load(_words_dir().joinpath("en.yaml").read_text(encoding="utf-8"))
    if code == DEFAULT_LANG:
        return english
    own = yaml.safe_load(_words_dir().joinpath(f"{code}.yaml").read_text(encoding="utf-8"))
    return _merge(english, own or {})


def _lookup(table: dict, path: str):
    node: Any = table
    for part in path.split("."):
        if not isinstance(node, dict) or part not in node:
            return None
        node = node[part]
    return node


def fill(template: str, values: Mapping) -> str:
    """``template`` with each ``{name}`` replaced by ``values[name]`` (one pass: a value is
    never read as a template); an unknown placeholder is left as written."""
    return _fill(_pieces(template), values)


def _fill(pieces: list, values: Mapping) -> str:
    size = len(pieces)
    if size == 1:
        return pieces[0]
    if size == 3:       # (one placeholder: most sentences)
        name = pieces[1]
        return pieces[0] + (str(values[name]) if name in values else "{" + name + "}") + pieces[2]
    out = [pieces[0]]
    for index in range(1, len(pieces), 2):     # a name, then the text up to the next one
        name = pieces[index]
        out.append(str(values[name]) if name in values else "{" + name + "}")
        out.append(pieces[index + 1])
    return "".join(out)


@functools.lru_cache(maxsize=8192)
def _pieces(template: str) -> list:
    """``template`` split at its placeholders: [text, name, text, name, ..., text], once per
    template (the catalogs' few hundred, and the content's)."""
    return _PLACEHOLDER.split(template)


def text(path: str, lang: Any = DEFAULT_LANG, n: Any = None, **values: Any) -> str:
    """The catalog text at ``path`` (dotted, e.g. ``"ui.prompt"``) in ``lang``, filled with
    ``values``; ``n`` chooses among ``zero``/``one``/``other`` forms and is ``{n}``."""
    found = _SENTENCES.get((lang, path)) if type(lang) is str and type(path) is str else None
    if found is None:
        found = _sentence(path, lang)
    if type(found) is dict:       # a sentence in plural forms
        count = 0 if n is None else n
        form = "zero" if count == 0 else "one" if count == 1 else "other"
        found = found[form] if form in found else found["other"]
    if n is not None:
        values = {"n": n, **values}
    return _fill(found, values)


# (lang, path) -> the sentence split at its placeholders (``_pieces``), or {form: that} for
# one in plural forms: the words are read once per language code and path (the catalogs
# never change), for the codes of ``languages()`` only (any string may come in as lang)
_SENTENCES: dict = {}


def _sentence(path: str, lang: Any):
    node = _entry(language(lang), path)
    if node is None:
        raise KeyError(f"no words for {path!r}")
    if isinstance(node, dict):
        if not set(node) <= _PLURAL_KEYS or "other" not in node:
            raise KeyError(f"{path!r} is not a sentence")
        found: Any = {form: _pieces(str(each)) for form, each in node.items()}
    else:
        found = _pieces(str(node))
    if type(lang) is str and type(path) is str and lang in languages():
        if len(_SENTENCES) > 8192:
            _SENTENCES.clear()
        _SENTENCES[(lang, path)] = found
    return found


def has_text(path: str, lang: Any = DEFAULT_LANG) -> bool:
    return _entry(language(lang), path) is not None


@functools.lru_cache(maxsize=8192)
def _entry(code: str, path: str):
    """The catalog entry at ``path`` of the language ``code`` (a code of ``languages()``:
    the catalogs never change), looked up once per path."""
    return _lookup(_catalog(code), path)


# --------------------------------------------------------------------------- display names

def content(game) -> dict:
    """The game's merged content mapping (``game.ruleset.content.raw``; empty if none)."""
    loaded = getattr(getattr(game, "ruleset", None), "content", None)
    raw = getattr(loaded, "raw", None)
    return raw if isinstance(raw, dict) else {}


def _from_id(ident: str) -> str:
    return ident.replace("_", " ").replace("-", " ")


def _display(entry: Any, lang: str) -> str | None:
    if not isinstance(entry, dict):
        return None
    names = entry.get("names")
    if isinstance(names, dict):
        # the language itself, else a regional form of it (names: {zh-Hans: ...})
        for code in [lang] + sorted(k for k in names if str(k).split("-")[0] == lang):
            if isinstance(names.get(code), str):
                return names[code]
    name = entry.get("name")
    return name if isinstance(name, str) else None


def character_name(game: "Game", character: object, lang: Any = DEFAULT_LANG) -> str:
    """A character's display name (``names[lang]``, else ``name``, else from its id)."""
    lang = language(lang)
    if not isinstance(character, str):
        return text("someone", lang)
    found = _display(content(game).get("characters", {}).get(character), lang)
    return found if found else _from_id(character).title()


def provision_name(game: "Game", kind: str, lang: Any = DEFAULT_LANG) -> str:
    """A provision kind's display name, bare (``Water``, ``水``)."""
    found = _display(content(game).get("provisions", {}).get(kind), language(lang))
    return found if found else _from_id(kind)


def navigation_name(game: "Game", card: object, lang: Any = DEFAULT_LANG) -> str:
    """A navigation card's display name: its own (``names``/``name``), else
    "navigation card 19" built from the id ``nav-19``; "a navigation card" when unknown."""
    lang = language(lang)
    if not isinstance(card, str):
        return text("a_navigation_card", lang)
    found = _display(content(game).get("navigation", {}).get(card), lang)
    if found:
        return text("navigation_card_named", lang, name=found)
    number = re.fullmatch(r"[a-z]+[-_]?(\d+)", card)
    return text("navigation_card", lang, number=number.group(1) if number else _from_id(card))


def navigation_details(game: "Game", card: object, lang: Any = DEFAULT_LANG) -> str:
    """What a navigation card does, in words ("a seagull; First Mate overboard; rowers
    thirsty"): its content ``text`` in ``lang`` if it has one, else its fields. ``card``: its
    id, or its data as views show it (``{"id", "overboard", ...}``)."""
    words = _Words(game, lang)
    if isinstance(card, Mapping):
        found = words.card_details(card.get("id"), card)
    else:
        found = words.card_details(card)
    return found if found is not None else text("events.navigation.nothing", words.lang)


def names(game: "Game", characters: object, lang: Any = DEFAULT_LANG) -> str:
    """Characters' display names as a list in words ("A, B and C"); ``"all"`` and
    ``{"all_except": [...]}`` (as on navigation cards) too."""
    return _Words(game, lang).names(characters)


def join(items: list, lang: Any = DEFAULT_LANG) -> str:
    """Texts joined as a list in ``lang`` ("A, B and C", "甲、乙和丙")."""
    return _Words(None, lang).join(list(items))


# --------------------------------------------------------------------------- the sentences

class _Actor:
    """The default ``viewer`` of ``describe``: the item's own actor."""

    def __repr__(self) -> str:
        return "ACTOR"


ACTOR: Any = _Actor()


def describe(item: Union[Mapping[str, object], "Decision"], game: "Game",
             lang: Any = DEFAULT_LANG, viewer: Any = ACTOR) -> str:
    """One sentence a person reads for ``item``, in ``lang`` (``"en"``, ``"zh"``; any other
    falls back to English).

    ``item`` is an event (a log entry: a mapping with ``type``), an action (a mapping with
    ``by`` and ``type``) or a decision (an object with ``.by`` and ``.kind``, as in
    ``game.pending``, or a mapping ``{"by", "kind"}``). Types the catalog does not know (a
    plugin's) get the content's words for them, else a plain generic sentence; fields an
    event lacks (redacted for its reader) are told vaguely ("a card").

    ``viewer``: the player the sentence is for (None: a spectator). Cards are named only as
    that player may see them: an action's instance ids as ``game.view(viewer)`` shows them,
    an event of the log as ``game.events_for(viewer)`` shows it. Left out, the item is worded
    as its actor sees it (for the program that drives the game, never another's screen).
    """
    if isinstance(item, Mapping):
        if "type" not in item and "by" in item and "kind" in item:
            return describe_decision(item, game, lang)
        if "by" in item and "type" in item and "character" not in item:
            return describe_action(item, game, lang, viewer)
        if "type" in item:
            return describe_event(item, game, lang, viewer)
        raise TypeError("describe() takes an event, an action or a decision")
    if hasattr(item, "by") and hasattr(item, "kind"):
        return describe_decision(item, game, lang)
    raise TypeError("describe() takes an event, an action or a decision")


def describe_event(event: Mapping, game, lang: Any = DEFAULT_LANG, viewer: Any = ACTOR) -> str:
    """The sentence for one log entry (see ``describe``)."""
    if viewer is not ACTOR:
        event = _as_seen(event, game, viewer)
    return _Words(game, lang).event(event)


def describe_action(action: Mapping, game, lang: Any = DEFAULT_LANG,
                    viewer: Any = ACTOR) -> str:
    """The sentence for an action dict, its cards named as ``viewer`` (default: its actor)
    sees them now."""
    return _Words(game, lang, viewer).action(action, live=True)


def action_words(game, lang: Any = DEFAULT_LANG, viewer: Any = ACTOR,
                 view: Mapping | None = None) -> Callable[[Mapping], str]:
    """``describe_action`` for many actions of one ``viewer`` in one position (a menu of its
    moves): the content and the cards the viewer sees are read once for all of them, from
    ``view`` when the caller has it (``game.view(viewer)`` now, read only), else from the
    game. Read between moves: the words name the cards as they are placed now."""
    words = _Words(game, lang, viewer, view)
    return lambda action: words.action(action, live=True)


def describe_decision(decision: Any, game, lang: Any = DEFAULT_LANG) -> str:
    """The sentence for a decision the game waits for (``game.pending``)."""
    if isinstance(decision, Mapping):
        by, kind = decision.get("by"), decision.get("kind")
    else:
        by, kind = decision.by, decision.kind
    words = _Words(game, lang)
    own = words.own("decisions", kind, {"by": by, "who": by}, words.lang)
    if own is not None:
        return own
    if isinstance(kind, str) and has_text(f"decisions.{kind}", words.lang) \
            and kind != "other":
        return words.t(f"decisions.{kind}", who=words.who(by))
    own = words.own("decisions", kind, {"by": by, "who": by}, DEFAULT_LANG)
    if own is not None:
        return own
    return words.t("decisions.other", who=words.who(by), what=_what(kind))


def _as_seen(event: Mapping, game, viewer) -> Mapping:
    """``event`` as ``game.events_for(viewer)`` shows it, when it is an entry of the log
    with fields kept from that viewer (found by equality, newest first); else itself."""
    secrets = getattr(game, "secrets", None)
    log = getattr(game, "log", None)
    if not secrets or not isinstance(log, list):
        return event
    for index in range(len(log) - 1, -1, -1):
        secret = secrets.get(index)
        if secret is not None and log[index] == event:
            if viewer is None or viewer not in secret.audience:
                return redact(dict(event), secret.hidden)
            return event
    return event


def _what(kind: Any) -> str:
    return _from_id(kind) if isinstance(kind, str) else "?"


# the last view looked at: (game, length of its log, viewer, view); a menu describes many
# actions of one player in one position, and every move lengthens the log
_last_view: tuple = (None, None, None, None)


def _view_of(game, character: str | None) -> dict | None:
    global _last_view
    log = getattr(game, "log", None)
    moves = len(log) if isinstance(log, list) else None
    cached_game, cached_moves, cached_character, view = _last_view
    if moves is not None and cached_game is game and cached_moves == moves \
            and cached_character == character:
        return view
    try:
        view = game.view(character)
    except (KeyError, ValueError, TypeError, AttributeError):
        view = None   # not a character of this game: its cards stay unnamed
    _last_view = (game, moves, character, view)
    return view


def _cards_seen(view: Any) -> dict | None:
    """id -> kind of the cards a view shows (hands, fronts, a decision's cards; a navigation
    card's kind is None); None without a view."""
    if not isinstance(view, Mapping):
        return None
    seen: dict = {}
    for entry in (view.get("characters") or {}).values():
        for card in list(entry.get("hand") or []) + list(entry.get("front") or []):
            seen[card.get("id")] = card.get("kind")
    for card in (view.get("decision") or {}).get("cards") or []:
        seen[card.get("id")] = card.get("kind")
    return seen


class _Words:
    """The sentences of one language for one game; ``viewer``: whose view names an action's
    cards (``ACTOR``: the action's actor)."""

    def __init__(self, game, lang: Any, viewer: Any = ACTOR, view: Mapping | None = None):
        self.game = game
        self.lang = language(lang)
        self.viewer = viewer
        self._view = view            # ``viewer``'s view now, when the caller has it
        self._cards: dict | None = None   # id -> kind of the cards in that view
        merged = content(game)
        self.provisions = merged.get("provisions", {})
        self.navigation = merged.get("navigation", {})
        self.characters = merged.get("characters", {})
        own = merged.get("words")
        self.words = own if isinstance(own, dict) else {}
        self._who: dict = {}
        self._kind_cards: dict = {}    # provision kind -> "the Water" (as ``kind_card`` words it)

    # -- the content's own words (``words:`` of a ruleset or plugin)
    def own(self, section: str, kind: Any, fields: Mapping, lang: str) -> str | None:
        """The content's template for ``kind`` in ``section`` and ``lang``, filled with the
        item's fields in words; None if the content has none."""
        if not isinstance(kind, str):
            return None
        table = self.words.get(lang)
        table = table.get(section) if isinstance(table, dict) else None
        template = table.get(kind) if isinstance(table, dict) else None
        if not isinstance(template, str):
            return None
        # (the English words of a language not given are filled with English names)
        filler = self if lang == self.lang else _Words(self.game, lang)
        sentence = fill(template, filler.field_words(fields))
        return sentence[:1].upper() + sentence[1:] if sentence else sentence

    def field_words(self, fields: Mapping) -> dict:
        """Each field of an event or action in words: a character by its name, a provision
        kind or a card (with its ``kind``) as "the Water", a navigation card by its name, a
        list of them joined; a card the reader may not know is "a card"."""
        kind = fields.get("kind")
        out: dict = {}
        for name, value in fields.items():
            out[name] = self.value_words(name, value, kind)
        if "who" not in out:
            who = fields.get("character", fields.get("by"))
            if isinstance(who, str):
                out["who"] = self.who(who)
        return out

    def value_words(self, name: str, value: Any, kind: Any = None) -> str:
        if isinstance(value, bool) or value is None:
            return str(value).lower()
        if isinstance(value, (int, float)):
            return str(value)
        if isinstance(value, (list, tuple)):
            return self.join([self.value_words(name, v) for v in value])
        if isinstance(value, Mapping):
            if "all_except" in value:
                return self.names(value)
            return text("something", self.lang)
        if not isinstance(value, str):
            return text("something", self.lang)
        if value in self.characters:
            return self.who(value)
        if value in self.provisions:
            return self.kind_card(value)
        if value in self.navigation:
            return self.nav(value)
        if name == "card":
            return self.kind_card(kind) if isinstance(kind, str) else text("a_card", self.lang)
        if value in self.card_ids() or card_id_ok(value):
            # a card's instance id (one it has now, or had: ids change): never shown
            return text("a_card", self.lang)
        return _from_id(value)

    def card_ids(self):
        table = getattr(getattr(getattr(self.game, "state", None), "table", None), "kinds", None)
        return table if isinstance(table, dict) else {}

    def card_text(self, entry: Any) -> str | None:
        """What a card does in words, from its content ``text`` (``{LANG: str}``; a plain
        string is English): the language asked for, else English."""
        found = entry.get("text") if isinstance(entry, Mapping) else None
        if isinstance(found, str):
            return found if found.strip() else None
        if isinstance(found, Mapping):
            for code in (self.lang, DEFAULT_LANG):
                if isinstance(found.get(code), str) and found[code].strip():
                    return found[code]
        return None

    # -- pieces
    def t(self, path: str, n: Any = None, **values: Any) -> str:
        sentence = text(path, self.lang, n=n, **values)
        return sentence[:1].upper() + sentence[1:] if sentence else sentence

    def who(self, character: Any) -> str:
        if type(character) is str:
            known = self._who.get(character)
            if known is None:
                known = self._who[character] = character_name(self.game, character, self.lang)
            return known
        return character_name(self.game, character, self.lang)

    def names(self, characters: Any) -> str:
        if characters == "all":
            return text("everyone", self.lang)
        if isinstance(characters, Mapping) and "all_except" in characters:
            return text("everyone_except", self.lang, names=self.names(characters["all_except"]))
        if not isinstance(characters, (list, tuple)) or not characters:
            return text("nobody", self.lang)
        return self.join([self.who(c) for c in characters])

    def join(self, items: list) -> str:
        style = catalog(self.lang)["list"]
        if len(items) <= 1:
            return "".join(items)
        return style["separator"].join(items[:-1]) + style["last"] + items[-1]

    def kind_card(self, kind: Any) -> str:
        """A provision of a known kind ("the Water"), or "a card"."""
        if isinstance(kind, str) and kind:
            known = self._kind_cards.get(kind)
            if known is None:
                known = self._kind_cards[kind] = text("card", self.lang,
                                                      name=provision_name(self.game, kind, self.lang))
            return known
        return text("a_card", self.lang)

    def nav(self, card: Any) -> str:
        return navigation_name(self.game, card, self.lang)

    def only_kind(self, test) -> str | None:
        """The one provision kind of this content that ``test`` accepts, if exactly one does
        (an action that only takes such cards then says which, without a secret)."""
        kinds = [k for k, data in self.provisions.items() if isinstance(data, dict) and test(data)]
        return kinds[0] if len(kinds) == 1 else None

    def card_of(self, event: Mapping, fallback=None) -> str:
        """The card an event names: by its ``kind``; else the one kind its action allows."""
        kind = event.get("kind")
        if not isinstance(kind, str) and fallback is not None:
            kind = self.only_kind(fallback)
        return self.kind_card(kind)

    def card_ref(self, ref: Any, seen: dict | None) -> str:
        """A card named in an action: a provision kind, a navigation card id, or an instance
        id named by the actor's view (``seen``: id -> kind); anything else is "a card"."""
        if isinstance(ref, Mapping):
            return self.kind_card(ref.get("kind"))
        if not isinstance(ref, str):
            return text("a_card", self.lang)
        if ref in self.provisions:
            return self.kind_card(ref)
        if ref in self.navigation:
            return self.nav(ref)
        if seen and ref in seen:
            kind = seen[ref]
            return self.kind_card(kind) if kind is not None else self.nav(ref)
        return text("a_card", self.lang)

    def place(self, where: Any) -> str:
        if not isinstance(where, str):
            return text("something", self.lang)
        zone, _, owner = where.partition(":")
        if owner and zone in ("hand", "front"):
            return text(f"places.{zone}", self.lang, who=self.who(owner))
        if has_text(f"places.{zone}", self.lang) and zone not in ("hand", "front", "other"):
            return text(f"places.{zone}", self.lang)
        return text("places.other", self.lang, place=_from_id(where))

    def generic(self, kind: Any, who: Any) -> str:
        if isinstance(who, str):
            return self.t("events.generic.who", who=self.who(who), what=_what(kind))
        return self.t("events.generic.plain", what=_what(kind))

    @staticmethod
    def count(value: Any) -> int | None:
        return value if isinstance(value, int) and not isinstance(value, bool) else None

    def offer_parties(self, offer: Any) -> tuple:
        """``(from, to)`` of an offer by its id, from the offer event in the log (offers are
        made in the open; only who made it to whom is read)."""
        for event in reversed(getattr(self.game, "log", None) or []):
            if isinstance(event, Mapping) and event.get("type") == "offer" \
                    and event.get("offer") == offer:
                return event.get("from"), event.get("to")
        return None, None

    # -- events
    def event(self, event: Mapping) -> str:
        kind = event.get("type")
        own = self.own("events", kind, event, self.lang)
        if own is not None:
            return own
        method = getattr(self, f"ev_{kind}", None) if isinstance(kind, str) else None
        if method is None:
            own = self.own("events", kind, event, DEFAULT_LANG)
            if own is not None:
                return own
            return self.generic(kind, event.get("character"))
        return method(event)

    def ev_action(self, e):
        inner = e.get("action")
        if not isinstance(inner, Mapping):
            return self.generic("action", None)
        return self.action(inner, live=False)

    def ev_setup(self, e):
        seats = e.get("seats") if isinstance(e.get("seats"), list) else []
        players = self.count(e.get("players"))
        n = players if players is not None else len(seats)
        if "seed" in e and e["seed"] is not None:
            return self.t("events.setup.seed", n=n, seats=self.names(seats), seed=e["seed"])
        return self.t("events.setup.plain", n=n, seats=self.names(seats))

    def ev_phase(self, e):
        phase = e.get("phase")
        word = catalog(self.lang)["phases"].get(phase) if isinstance(phase, str) else None
        return self.t("events.phase", round=e.get("round", "?"),
                      phase=word if word else _what(phase))

    def ev_move(self, e):
        card_id, source, dest = e.get("card"), e.get("from"), e.get("to")
        zones = [str(z).partition(":") for z in (source, dest)]
        navigation = (isinstance(card_id, str) and card_id in self.navigation) or \
            (card_id is None and "kind" not in e and
             {zones[0][0], zones[1][0]} & {"navigation", "drawn", "rowing_pile", "current"})
        card = self.nav(card_id) if navigation else self.card_of(e)
        (src_zone, _, src_owner), (dst_zone, _, dst_owner) = zones
        if not navigation and dst_zone == "hand" and dst_owner:
            if src_zone in ("hand", "front") and src_owner and src_owner != dst_owner:
                return self.t("events.move.take_from", who=self.who(dst_owner), card=card,
                              other=self.who(src_owner))
            if src_zone not in ("hand", "front"):
                return self.t("events.move.take", who=self.who(dst_owner), card=card)
        if src_zone == "hand" and dst_zone == "front" and src_owner == dst_owner and src_owner:
            return self.t("events.move.play", who=self.who(src_owner), card=card)
        return self.t("events.move.other", card=card, **{"from": self.place(source),
                                                         "to": self.place(dest)})

    def ev_pick(self, e):
        form = "automatic" if e.get("automatic") else "chosen"
        return self.t(f"events.pick.{form}", who=self.who(e.get("character")))

    def ev_turn(self, e):
        return self.t("events.turn", who=self.who(e.get("character")))

    def ev_pass(self, e):
        return self._pass(e.get("character"), e.get("stage"))

    def _pass(self, who, stage):
        form = stage if isinstance(stage, str) and stage != "other" and \
            has_text(f"events.pass.{stage}", self.lang) else "other"
        return self.t(f"events.pass.{form}", who=self.who(who))

    def ev_row(self, e):
        drawn = self.count(e.get("drawn"))
        if drawn is None:
            return self.t("events.row.plain", who=self.who(e.get("character")))
        return self.t("events.row.drew", n=drawn, who=self.who(e.get("character")))

    def ev_place(self, e):
        kept = self.count(e.get("kept"))
        if kept is None:
            return self.t("events.place.plain", who=self.who(e.get("character")))
        return self.t("events.place.kept", n=kept, who=self.who(e.get("character")))

    def ev_swap(self, e):
        return self.t("events.swap", who=self.who(e.get("character")),
                      target=self.who(e.get("target")))

    def ev_rob(self, e):
        card = e.get("card")
        if card != "hand" and isinstance(e.get("kind"), str):
            card = e["kind"]   # a face-up card: everyone sees which
        return self._rob("events.rob", e.get("character"), e.get("target"), card,
                         None, "card" in e)

    def _rob(self, base, who, target, card, seen, has_card):
        values = {"who": self.who(who), "target": self.who(target)}
        if card == "hand":
            return self.t(f"{base}.hand", **values)
        if not has_card:
            return self.t(f"{base}.plain", **values)
        return self.t(f"{base}.front", card=self.card_ref(card, seen), **values)

    def ev_robbed(self, e):
        values = {"who": self.who(e.get("character")), "target": self.who(e.get("target"))}
        if "card" in e and e["card"] is None:
            return self.t("events.robbed.nothing", **values)
        return self.t("events.robbed.card", card=self.card_of(e), **values)

    def ev_respond(self, e):
        answer = e.get("answer")
        form = answer if answer in ("allow", "refuse") else "other"
        return self.t(f"events.respond.{form}", who=self.who(e.get("character")))

    def ev_fight_start(self, e):
        act = e.get("act")
        form = act if act in ("swap", "rob", "object") else "other"
        return self.t(f"events.fight_start.{form}", attackers=self.names(e.get("attackers")),
                      defenders=self.names(e.get("defenders")))

    def ev_join(self, e):
        side = e.get("side")
        form = side if side in ("attacker", "defender") else "other"
        return self.t(f"events.join.{form}", who=self.who(e.get("character")))

    def ev_fight(self, e):
        sides = {"attackers": self.names(e.get("attackers")),
                 "defenders": self.names(e.get("defenders"))}
        winner = e.get("winner")
        if winner not in ("attacker", "defender"):
            return self.t("events.fight.other", **sides)
        strength = e.get("strength") if isinstance(e.get("strength"), Mapping) else {}
        a, d = self.count(strength.get("attacker")), self.count(strength.get("defender"))
        if a is None or d is None:
            return self.t(f"events.fight.{winner}_plain", **sides)
        return self.t(f"events.fight.{winner}", a=a, d=d, **sides)

    def ev_damage(self, e):
        cause, n = e.get("cause"), self.count(e.get("amount"))
        values = {"who": self.who(e.get("character")), "n": n if n is not None else "?"}
        if cause in ("fight", "overboard", "shark", "thirst", "quick"):
            return self.t(f"events.damage.{cause}", **values)
        if isinstance(cause, str) and cause in self.provisions:
            return self.t("events.damage.card", card=self.kind_card(cause), **values)
        return self.t("events.damage.other", **values)

    def ev_heal(self, e):
        cause, n = e.get("cause"), self.count(e.get("amount"))
        values = {"who": self.who(e.get("character")), "n": n if n is not None else "?"}
        if isinstance(cause, str) and cause in self.provisions:
            return self.t("events.heal.card", card=self.kind_card(cause), **values)
        return self.t("events.heal.other", **values)

    def ev_status(self, e):
        status = e.get("status")
        if status in ("awake", "unconscious", "dead", "lost"):
            return self.t(f"events.status.{status}", who=self.who(e.get("character")))
        word = catalog(self.lang)["statuses"].get(status) if isinstance(status, str) else None
        return self.t("events.status.other", who=self.who(e.get("character")),
                      status=word if word else _what(status))

    def ev_lost(self, e):
        cause = e.get("cause")
        form = cause if cause in ("overboard", "eaten") else "other"
        return self.t(f"events.lost.{form}", who=self.who(e.get("character")))

    def ev_seats(self, e):
        return self.t("events.seats", seats=self.names(e.get("seats")))

    def ev_seagulls(self, e):
        count = self.count(e.get("count"))
        return self.t("events.seagulls", n=count if count is not None else 0)

    def ev_navigation(self, e):
        card = self.nav(e.get("card"))
        details = self.card_details(e.get("card"), e.get("data"))
        if details is None:
            return self.t("events.navigation.plain", card=card)
        return self.t("events.navigation.full", card=card, details=details)

    def card_details(self, card: Any, data: Any = None) -> str | None:
        """What a navigation card does, in words: its content ``text``, else its fields
        (``data``, or the content's) told one by one; None when nothing is known of it."""
        said = self.card_text(self.navigation.get(card)) if isinstance(card, str) else None
        if said:   # the card's own words for what it does (a house rule's card)
            return said.rstrip(". 。")
        if not isinstance(data, Mapping):
            data = self.navigation.get(card) if isinstance(card, str) else None
        if not isinstance(data, Mapping):
            return None
        base = "events.navigation"
        parts = []
        seagull = data.get("seagull")
        if seagull == 1:
            parts.append(text(f"{base}.seagull_up", self.lang))
        elif seagull == -1:
            parts.append(text(f"{base}.seagull_down", self.lang))
        for field in ("overboard", "thirst"):
            named = self._on_card(data.get(field))
            if named:
                parts.append(text(f"{base}.{field}", self.lang, names=named))
        for icon in ("oar", "fight"):
            if data.get(icon):
                parts.append(text(f"{base}.{icon}", self.lang))
        return text(f"{base}.separator", self.lang).join(parts) if parts \
            else text(f"{base}.nothing", self.lang)

    def _on_card(self, names) -> str | None:
        """The characters a card field names, among those of the game (others are ignored)."""
        if names == "all" or isinstance(names, Mapping):
            return self.names(names)
        if isinstance(names, (list, tuple)):
            in_game = self._in_game()
            named = [c for c in names if in_game is None or c in in_game]
            return self.names(named) if named else None
        return None

    def _in_game(self):
        for event in getattr(self.game, "log", None) or []:
            if isinstance(event, Mapping) and event.get("type") == "setup":
                seats = event.get("seats")
                return set(seats) if isinstance(seats, list) else None
        return None

    def ev_overboard(self, e):
        fallen = e.get("characters") if isinstance(e.get("characters"), list) else []
        return self.t("events.overboard", n=len(fallen), names=self.names(fallen))

    def ev_chum(self, e):
        return self.t("events.chum", who=self.who(e.get("character")),
                      card=self.card_of(e, lambda d: d.get("chum")))

    def ev_shark(self, e):
        return self.t("events.shark", who=self.who(e.get("ghost", e.get("character"))))

    def ev_thirst(self, e):
        count = self.count(e.get("count"))
        return self.t("events.thirst", n=count if count is not None else 1,
                      who=self.who(e.get("character")))

    def ev_water(self, e):
        return self._to("events.water", e.get("character"), e.get("target"),
                        self.card_of(e, lambda d: d.get("quenches")))

    def _to(self, path, who, target, card):
        """A card given to someone: to oneself, or to another."""
        form = "self" if who == target and isinstance(who, str) else "other"
        return self.t(f"{path}.{form}", who=self.who(who), target=self.who(target), card=card)

    def ev_quench(self, e):
        source, amount = e.get("source"), self.count(e.get("amount"))
        values = {"n": amount if amount is not None else 1, "target": self.who(e.get("target")),
                  "who": self.who(e.get("character"))}
        if isinstance(source, str) and source in self.provisions:
            return self.t("events.quench.card", card=self.kind_card(source), **values)
        if source == "shared_water":   # Madame Wong's share of another's water (R-WONG-1)
            return self.t("events.quench.shared_water", **values)
        if source == "water":   # the rule's word, whatever the water card is called
            kind = self.only_kind(lambda d: d.get("quenches"))
            if kind:
                return self.t("events.quench.card", card=self.kind_card(kind), **values)
        return self.t("events.quench.other", **values)

    def ev_use(self, e):
        return self._use(e.get("character"), e.get("target"), self.card_of(e), e.get("kind"))

    def _use(self, who, target, card: str, kind) -> str:
        """A card used: with what it does when its content says (a house rule's card)."""
        said = self.card_text(self.provisions.get(kind)) if isinstance(kind, str) else None
        values = {"who": self.who(who), "card": card}
        if said:
            values["text"] = said.rstrip(". 。")
        form = "_text" if said else ""
        if isinstance(target, str):
            return self.t(f"events.use.target{form}", target=self.who(target), **values)
        return self.t(f"events.use.plain{form}", **values)

    def ev_play(self, e):
        return self.t("events.play", who=self.who(e.get("character")), card=self.card_of(e))

    def ev_drink(self, e):
        if e.get("shared") is True:
            return self.t("events.drink.shared", who=self.who(e.get("character")))
        return self.t("events.drink.card", who=self.who(e.get("character")),
                      card=self.card_of(e))

    def ev_preserve(self, e):
        return self._to("events.preserve", e.get("character"), e.get("target"),
                        self.card_of(e, lambda d: d.get("preserver")))

    def ev_flare(self, e):
        values = {"who": self.who(e.get("character")),
                  "card": self.card_of(e, lambda d: (d.get("special") or {}).get("effect") == "flare")}
        cards = e.get("cards")
        if isinstance(cards, list) and cards:
            return self.t("events.flare.cards", cards=self.join([self.nav(c) for c in cards]),
                          **values)
        return self.t("events.flare.plain", **values)

    def ev_cannibalism(self, e):
        return self.t("events.cannibalism", who=self.who(e.get("character")),
                      target=self.who(e.get("target")))

    def ev_object(self, e):
        return self.t("events.object", who=self.who(e.get("character")),
                      target=self.who(e.get("target")))

    def ev_objections(self, e):
        objectors = e.get("objectors") if isinstance(e.get("objectors"), list) else []
        return self.t("events.objections", n=len(objectors), names=self.names(objectors),
                      who=self.who(e.get("character")), target=self.who(e.get("target")))

    def ev_eaten(self, e):
        return self.t("events.eaten", who=self.who(e.get("character")), eater=self.who(e.get("by")))

    def ev_kept(self, e):
        return self.t("events.kept", who=self.who(e.get("character")), card=self.card_of(e))

    def ev_offer(self, e, seen=None):
        giver = e.get("from", e.get("by"))
        values = {"from": self.who(giver), "to": self.who(e.get("to"))}
        give, take = e.get("give"), e.get("take")
        if give is None and take is None:
            return self.t("events.offer.plain", **values)
        some = text("something", self.lang)
        give_words = self.join([self.card_ref(c, seen) for c in give]) \
            if isinstance(give, list) else some
        take_words = self.join([self.card_ref(c, None) for c in take]) \
            if isinstance(take, list) else some
        if isinstance(take, list) and not take:
            return self.t("events.offer.gift", give=give_words, **values)
        if isinstance(give, list) and not give:
            return self.t("events.offer.ask", take=take_words, **values)
        return self.t("events.offer.trade", give=give_words, take=take_words, **values)

    def _parties(self, e):
        giver, taker = e.get("from"), e.get("to")
        if giver is None and taker is None:
            giver, taker = self.offer_parties(e.get("offer"))
        return giver, taker

    def ev_trade(self, e):
        giver, taker = self._parties(e)
        return self.t("events.trade", **{"from": self.who(giver), "to": self.who(taker)})

    def ev_decline(self, e):
        giver, taker = self._parties(e)
        return self.t("events.decline", **{"from": self.who(giver), "to": self.who(taker)})

    def ev_offer_void(self, e):
        giver, taker = self._parties(e)
        reason = e.get("reason")
        said = catalog(self.lang)["events"]["reasons"].get(reason) if isinstance(reason, str) \
            else None
        if said is None and self.lang == DEFAULT_LANG and isinstance(reason, str):
            said = reason   # the engine's own words are English
        parties = giver is not None and taker is not None
        values = {"from": self.who(giver), "to": self.who(taker), "reason": said}
        form = ("parties" if parties else "") + ("_reason" if said else "")
        return self.t(f"events.offer_void.{form.strip('_') or 'plain'}", **values)

    def ev_navigator(self, e):
        cards = self.count(e.get("cards"))
        if cards is None:
            return self.t("events.navigator.plain", who=self.who(e.get("character")))
        return self.t("events.navigator.cards", n=cards, who=self.who(e.get("character")))

    def ev_navigate(self, e):
        return self.t("events.navigate", who=self.who(e.get("character")),
                      card=self.nav(e.get("card")))

    def ev_marker(self, e):
        marker = e.get("marker")
        if marker == "parasol":   # an open parasol (R-PARASOL)
            card = self.card_of(e, lambda d: (d.get("special") or {}).get("effect") == "parasol")
            form = "active" if e.get("value") else "inactive"
            return self.t(f"events.parasol.{form}", who=self.who(e.get("character")), card=card)
        if marker in ("rowed", "fought"):
            form = f"{marker}_{'on' if e.get('value') else 'off'}"
        else:
            form = "other"
        return self.t(f"events.marker.{form}", who=self.who(e.get("character")))

    def ev_game_over(self, e):
        base = "events.game_over"
        end = e.get("end")
        ends = catalog(self.lang)["events"]["game_over"]["ends"]
        end_words = ends.get(end) if isinstance(end, str) and end != "other" else None
        end_words = end_words or ends["other"]
        scores = e.get("scores")
        if not isinstance(scores, Mapping):
            return self.t(f"{base}.plain", end=end_words)
        ranked = sorted(scores.items(), key=lambda item: -item[1] if isinstance(item[1], int) else 0)
        listed = self.join([text(f"{base}.score", self.lang, who=self.who(c), n=s)
                            for c, s in ranked])
        winners = e.get("winners") if isinstance(e.get("winners"), list) else []
        return self.t(f"{base}.full", end=end_words, scores=listed,
                      winners=text(f"{base}.winners", self.lang, n=len(winners),
                                   names=self.names(winners)))

    # -- actions
    def action(self, action: Mapping, live: bool, seen: dict | None = None) -> str:
        """An action's sentence; ``live``: its cards named by the viewer's view now, else
        by ``seen`` (id -> kind) alone."""
        kind, by = action.get("type"), action.get("by")
        if live:
            seen = self._seen(by, action)
        own = self._own_action(action, seen, self.lang)
        if own is not None:
            return own
        method = getattr(self, f"act_{kind}", None) if isinstance(kind, str) else None
        if method is not None:
            return method(action, by, seen, live)
        own = self._own_action(action, seen, DEFAULT_LANG)
        if own is not None:
            return own
        return self.t("actions.generic", who=self.who(by), what=_what(kind))

    def _own_action(self, action: Mapping, seen: dict | None, lang: str) -> str | None:
        """The content's own words for ``action`` in ``lang`` (``own``), its fields made only
        when the content has words at all."""
        if not self.words:
            return None
        return self.own("actions", action.get("type"), self._own_fields(action, seen), lang)

    @staticmethod
    def _own_fields(action: Mapping, seen: dict | None) -> Mapping:
        """An action's fields for a content template: its card's kind where it is known."""
        card = action.get("card")
        if seen and isinstance(card, str) and seen.get(card) is not None and "kind" not in action:
            return {**action, "kind": seen[card]}
        return action

    def _seen(self, by, action) -> dict | None:
        """id -> kind of the cards the viewer (``ACTOR``: ``by``) sees now (None: navigation
        card), looked up only when the action names an instance id."""
        refs = [action.get("card")] + list(action.get("give") or []) + list(action.get("pile") or [])
        viewer = by if self.viewer is ACTOR else self.viewer
        if not any(isinstance(r, str) and r != "hand" and r not in self.provisions
                   and r not in self.navigation for r in refs) \
                or not (viewer is None or isinstance(viewer, str)):
            return None
        if self._view is not None and viewer == self.viewer:
            if self._cards is None:
                self._cards = _cards_seen(self._view)
            return self._cards
        return _cards_seen(_view_of(self.game, viewer))

    def act_pick(self, a, by, seen, live):
        return self.t("actions.pick", who=self.who(by), card=self.card_ref(a.get("card"), seen))

    def act_pass(self, a, by, seen, live):
        stage = None
        if live:
            stage = next((d.kind for d in getattr(self.game, "pending", []) if d.by == by), None)
        return self._pass(by, stage)

    # (these action types are told with the event sentence of the same name)
    def act_swap(self, a, by, seen, live):
        return self.t("events.swap", who=self.who(by), target=self.who(a.get("target")))

    def act_join(self, a, by, seen, live):
        return self.ev_join({"character": by, "side": a.get("side")})

    def act_play(self, a, by, seen, live):
        return self.t("events.play", who=self.who(by), card=self.card_ref(a.get("card"), seen))

    def act_use(self, a, by, seen, live):
        ref = a.get("card")
        kind = ref if isinstance(ref, str) and ref in self.provisions else \
            (seen or {}).get(ref) if isinstance(ref, str) else None
        return self._use(by, a.get("target"), self.card_ref(ref, seen), kind)

    def act_preserve(self, a, by, seen, live):
        return self.ev_preserve({"character": by, "target": a.get("target")})

    def act_chum(self, a, by, seen, live):
        card = self.card_ref(a["card"], seen) if "card" in a \
            else self.kind_card(self.only_kind(lambda d: d.get("chum")))
        return self.t("events.chum", who=self.who(by), card=card)

    def act_shark(self, a, by, seen, live):
        return self.ev_shark({"ghost": by})

    def act_water(self, a, by, seen, live):
        card = self.card_ref(a["card"], seen) if "card" in a \
            else self.kind_card(self.only_kind(lambda d: d.get("quenches")))
        return self._to("events.water", by, a.get("target"), card)

    def act_navigate(self, a, by, seen, live):
        return self.t("events.navigate", who=self.who(by), card=self.nav(a.get("card")))

    def act_row(self, a, by, seen, live):
        return self.t("actions.row", who=self.who(by))

    def act_place(self, a, by, seen, live):
        pile = a.get("pile")
        if not isinstance(pile, list):
            return self.t("actions.place.plain", who=self.who(by))
        if not pile:
            return self.t("actions.place.bottom", who=self.who(by))
        return self.t("actions.place.pile", n=len(pile), who=self.who(by),
                      cards=self.join([self.nav(c) for c in pile]))

    def act_rob(self, a, by, seen, live):
        return self._rob("actions.rob", by, a.get("target"), a.get("card"), seen, "card" in a)

    def act_allow(self, a, by, seen, live):
        return self.t("actions.allow", who=self.who(by))

    def act_refuse(self, a, by, seen, live):
        return self.t("actions.refuse", who=self.who(by))

    def act_object(self, a, by, seen, live):
        return self.t("actions.object", who=self.who(by))

    def act_drink(self, a, by, seen, live):
        if "card" in a:
            return self.t("actions.drink.card", who=self.who(by),
                          card=self.card_ref(a.get("card"), seen))
        return self.t("actions.drink.shared", who=self.who(by))

    def act_offer(self, a, by, seen, live):
        return self.ev_offer({**a, "from": by}, seen)

    def _answer(self, base, a, by):
        giver = None
        if "offer" in a:
            giver, _ = self.offer_parties(a.get("offer"))
        if giver is None:
            return self.t(f"{base}.plain", who=self.who(by))
        return self.t(f"{base}.from", who=self.who(by), **{"from": self.who(giver)})

    def act_accept_offer(self, a, by, seen, live):
        return self._answer("actions.accept_offer", a, by)

    def act_decline_offer(self, a, by, seen, live):
        return self._answer("actions.decline_offer", a, by)



# --------------------------------------------------------------------------- the feed

# For each action type, the events that merely carry it out, folded into its one sentence:
# (types that may come before its echo, the echo's type, types that may come after it).
_CARRIERS = {
    "pick": ({"move"}, "pick", frozenset()),
    "row": ({"move"}, "row", frozenset()),
    "place": ({"move"}, "place", {"marker"}),
    "swap": ((), "swap", {"seats"}),
    "rob": ((), "rob", {"move", "robbed"}),
    "allow": ((), "respond", {"seats", "move", "robbed"}),
    "refuse": ((), "respond", {"fight_start"}),
    "join": ((), "join", frozenset()),
    "play": ({"move"}, "play", frozenset()),
    "use": ((), "use", {"heal", "move", "marker", "card_marker", "flare"}),
    "water": ({"move"}, "water", {"quench"}),
    "chum": ({"move"}, "chum", frozenset()),
    "preserve": ({"move"}, "preserve", frozenset()),
    "navigate": ((), "navigate", {"move"}),
    "drink": ({"move"}, "drink", {"card_marker", "marker"}),
    "shark": ((), "shark", frozenset()),
    "offer": ((), "offer", frozenset()),
    "accept_offer": ({"move"}, "trade", frozenset()),
    "decline_offer": ((), "decline", frozenset()),
    "object": ((), "object", frozenset()),
}
# events a sentence already told, or bookkeeping nobody reads: left out of the feed
_UNTOLD = frozenset({"turn", "marker", "card_marker", "action"})
# events after which what the feed remembers of a turn (the request, the fight) is over
_FRESH = frozenset({"turn", "phase", "setup"})


def feed(game, viewer: Any, since: Any = 0, lang: Any = DEFAULT_LANG) -> list:
    """What ``viewer``'s player (None: a spectator) is told of the game from log index
    ``since`` on: ``[{"index", "text"}]``, one sentence per move, built on
    ``game.events_for(viewer)`` alone (docs/api.md, The feed).

    Each entry starts at a log index; the events that merely carry a move out are folded into
    its sentence, bookkeeping (cards moving between zones, markers) is left out, and the
    private facts the viewer may see (the card it picked, drew, was given or robbed) are
    kept. Entries are stable: a later call lists the same entries, then new ones, so
    ``since=entries[-1]["index"] + 1`` polls."""
    if type(since) is not int or since < 0:
        raise ValueError(f"since is a log index (0 or more), not {since!r}")
    log = game.log
    if since >= len(log):
        game.events_for(viewer, len(log))   # (checks the viewer)
        return []
    start = _context_start(log, since)
    events = game.events_for(viewer, start)
    told = _Feed(game, lang).entries(events, start)
    return [entry for entry in told if entry["index"] >= since]


def _context_start(log: list, since: int) -> int:
    """A log index at or before ``since`` from which the feed reads the same entries: the
    action before the turn or phase that came before the one ``since`` falls in. An entry
    begins at an action (passes in a row: at the first) or at an event between moves, and
    none reaches across a turn or a phase; what the feed remembers (the fight going on) lasts
    a turn, and an entry is worded knowing the one before it."""
    index = min(since, len(log) - 1)
    for back in (True, False):
        while index > 0 and log[index]["type"] not in _FRESH:
            index -= 1
        if back and index > 0:
            index -= 1
    while index > 0 and log[index]["type"] != "action":
        index -= 1
    return index


class FeedReader:
    """``game.feed(viewer, lang=lang)`` read as the game goes on, for a front end that tells
    every move as it happens: each ``read()`` gives the entries told since the last read, as
    ``game.feed(viewer, since)`` would, but reads only the new events (``game.feed`` reads the
    log again from the turn before ``since`` to know what the feed remembers; a reader keeps
    that memory). Read it between moves (never during ``apply``), with the game it was made
    for."""

    def __init__(self, game, viewer: Any, lang: Any = DEFAULT_LANG):
        game.events_for(viewer, len(game.log))    # (checks the viewer)
        self.game = game
        self.viewer = viewer
        self.upto = 0                 # the log's length at the last read
        self._feed = _Feed(game, lang)
        self._last: str | None = None

    def read(self) -> list:
        """The new entries: ``[{"index", "text"}]``."""
        if self.upto >= len(self.game.log):
            return []
        return self._tell(self.game.events_for(self.viewer, self.upto))

    def _tell(self, events: list) -> list:
        start = self.upto
        told = self._feed.entries(events, start, self._last)
        self.upto = self._feed.stopped    # passes the log ends on are read again next time
        if told:
            self._last = told[-1]["text"]
        return told

    def _memory(self) -> tuple:
        """What the reader remembers: where it is, the last entry it told, and the turn's
        request and fight as the feed follows them. Its words are made from this and the
        events it reads, and from nothing else of its viewer's. (The request and the sides are
        never changed once made, only replaced: readers that remember alike share them, and
        comparing two memories mostly finds the very same objects.)"""
        feed = self._feed
        return (self.upto, self._last, feed.request, feed.sides, feed.won)

    def _recall(self, memory: tuple) -> None:
        feed = self._feed
        self.upto, self._last, feed.request, feed.sides, feed.won = memory

    @staticmethod
    def read_all(readers: list, shared: bool = False) -> list:
        """``[reader.read() for reader in readers]``, each stretch of new events worded once
        for the readers of one game and language that remember the same (``_memory``) and are
        shown the same events (``events_for``: a reader shown a field another is not words
        its own). Those readers' entries are the same by construction, so a front end that
        reads every seat's feed after each move words a public move once, not once a seat.
        With ``shared``, the readers worded alike get the very same list of entries (read
        them only), not copies."""
        out: list = []
        worded: list = []    # (game, lang, memory before, events, entries, memory after)
        by_game: dict = {}   # id(game) -> its readers with events to read
        for reader in readers:
            if reader.upto < len(reader.game.log):
                by_game.setdefault(id(reader.game), []).append(reader)
        shown: dict = {}     # id(reader) -> its events: one list for the readers shown alike
        for mine in by_game.values():
            for reader, events in zip(mine, events_alike(mine[0].game, [(r.viewer, r.upto) for r in mine])):
                shown[id(reader)] = events
        for reader in readers:
            game = reader.game
            if reader.upto >= len(game.log):
                out.append([])
                continue
            events = shown[id(reader)]
            lang = reader._feed.lang
            before = reader._memory()
            for other in worded:
                if other[0] is game and other[1] == lang and other[2] == before and (
                        other[3] is events or other[3] == events):
                    reader._recall(other[5])
                    out.append(other[4] if shared else [dict(entry) for entry in other[4]])
                    break
            else:
                told = reader._tell(events)
                worded.append((game, lang, before, events, told, reader._memory()))
                out.append(told if shared else [dict(entry) for entry in told])
        return out


class _Feed(_Words):
    """The feed's sentences for one viewer's events (``events_for``)."""

    def __init__(self, game, lang: Any):
        super().__init__(game, lang, viewer=None)
        # (both replaced, never changed in place: readers share them, FeedReader._memory)
        self.request: dict = {}     # this turn's swap, robbery or cannibalism
        self.sides: dict = {}       # the fight going on: side -> (characters)
        self.won: str | None = None  # which side won this turn's fight
        self.stopped = 0            # where the last ``entries`` stopped telling (log index)

    def entries(self, events: list, start: int, last: str | None = None) -> list:
        """The entries of ``events`` (log index ``start`` on); ``last``: the text of the entry
        told just before them, if any."""
        out: list = []
        i, count = 0, len(events)
        self.stopped = start + count      # the log index of the first event not told
        while i < count:
            event = events[i]
            kind = event.get("type")
            if kind == "action" and self.passing(events, i):
                j, sentence = self.pass_run(events, i)
                if j is None:   # passes the log ends on: told once they are all known
                    self.stopped = start + i
                    break
            elif kind == "action":
                end = i + 1
                while end < count and events[end].get("type") != "action":
                    end += 1
                j, sentence = self.move(event.get("action") or {}, events, i + 1, end)
            else:
                j, sentence = self.standalone(events, i)
            if sentence:
                if (out[-1]["text"] if out else last) == sentence:   # the same again (two cash cards)
                    sentence = self.t("feed.again", sentence=sentence.rstrip(".。"))
                out.append({"index": start + i, "text": sentence})
            i = j
        return out

    # -- passes in a row: one sentence
    @staticmethod
    def passing(events: list, i: int) -> bool:
        """A pass, with its event right after it (a window's or a turn's)."""
        action = events[i].get("action")
        return isinstance(action, Mapping) and action.get("type") == "pass" \
            and i + 1 < len(events) and events[i + 1].get("type") == "pass"

    def pass_run(self, events: list, i: int) -> tuple:
        """``(next index, sentence)`` for passes in a row at one stage with nothing else
        between them (in a window, one after the other), told as one sentence; ``(None,
        None)`` when the log ends on them, since more may follow (entries never change once
        told). What comes after the last pass (the window closing) is told next."""
        stage = events[i + 1].get("stage")
        members: list = []
        g = i
        while True:
            members.append(events[g]["action"].get("by"))
            after = g + 2
            if after >= len(events):
                return None, None
            if events[after].get("type") != "action":
                return after, self.tell_passes(members, stage)
            if not self.passing(events, after) or events[after + 1].get("stage") != stage:
                return after, self.tell_passes(members, stage)
            g = after

    def tell_passes(self, members: list, stage: Any) -> str:
        forms: dict = {}
        for who in members:
            if stage == "fight" and any(who in side for side in self.sides.values()):
                form = "fight_in"
            elif isinstance(stage, str) and stage != "other" and \
                    has_text(f"feed.passes.{stage}", self.lang):
                form = stage
            else:
                form = "other"
            forms.setdefault(form, []).append(who)
        style = catalog(self.lang)["feed"]["clauses"]
        clauses = [text(f"feed.passes.{form}", self.lang, n=len(who), names=self.names(who))
                   .rstrip(".。") for form, who in forms.items()]
        sentence = style["separator"].join(clauses) + style["end"]
        return sentence[:1].upper() + sentence[1:]

    # -- a move: its action and the events that carry it out
    def move(self, action: Mapping, events: list, first: int, end: int) -> tuple:
        kind: Any = action.get("type")
        before, echo_type, after = _CARRIERS.get(kind, ({"move"}, kind, frozenset()))
        j = first
        while j < end and events[j].get("type") in before:
            j += 1
        echo = None
        if j < end and events[j].get("type") == echo_type:
            echo = events[j]
            j += 1
            while j < end and events[j].get("type") in after:
                j += 1
        else:
            j = first
        group = events[first:j]
        return j, self.tell(action, echo or {}, group)

    @staticmethod
    def kinds(group: list) -> dict:
        """id -> kind of the cards the viewer sees move in ``group``."""
        return {e["card"]: e["kind"] for e in group
                if isinstance(e.get("card"), str) and isinstance(e.get("kind"), str)}

    def card(self, event: Mapping, group: list) -> str:
        """The card an event names, as the viewer knows it (its kind, or one that moved)."""
        kind = event.get("kind")
        if not isinstance(kind, str):
            kind = self.kinds(group).get(event.get("card"))
        return self.kind_card(kind)

    def tell(self, action: Mapping, echo: Mapping, group: list) -> str:
        kind, by = action.get("type"), action.get("by")
        seen = self.kinds(group)
        for code in (self.lang, DEFAULT_LANG):
            own = self._own_action(action, seen, code)
            if own is not None:
                return own
        teller = getattr(self, f"tell_{kind}", None) if isinstance(kind, str) else None
        if teller is not None and echo:
            return teller(action, by, echo, group)
        if echo and kind not in _CARRIERS:
            # a plugin's move: its event in the content's words, else the action's
            event = dict(echo)
            if "kind" not in event and isinstance(event.get("card"), str) \
                    and event["card"] in seen:
                event["kind"] = seen[event["card"]]
            if any(self.own("events", echo.get("type"), event, code) is not None
                   for code in (self.lang, DEFAULT_LANG)):
                return self.event(event)
        return self.action(action, live=False, seen=seen)

    def tell_pick(self, a, by, echo, group):
        kinds = [k for k in self.kinds(group).values()]
        if kinds:
            return self.t("actions.pick", who=self.who(by), card=self.kind_card(kinds[0]))
        return self.t("events.pick.chosen", who=self.who(by))

    def tell_row(self, a, by, echo, group):
        drawn = [e["card"] for e in group if e.get("type") == "move" and e.get("to") == "drawn"
                 and isinstance(e.get("card"), str)]
        if drawn:
            return self.t("feed.row_seen", who=self.who(by),
                          cards=self.join([self.nav(c) for c in drawn]))
        return self.ev_row(echo)

    def tell_place(self, a, by, echo, group):
        if isinstance(a.get("pile"), list):
            return self.act_place(a, by, None, False)
        return self.ev_place(echo)

    def tell_swap(self, a, by, echo, group):
        self.request = {"act": "swap", "by": by, "target": echo.get("target")}
        if any(e.get("type") == "seats" for e in group):
            return self.t("feed.swap_done", who=self.who(by), target=self.who(echo.get("target")))
        return self.ev_swap(echo)

    def tell_rob(self, a, by, echo, group):
        self.request = {"act": "rob", "by": by, "target": echo.get("target"),
                        "card": echo.get("card"), "kind": echo.get("kind")}
        robbed = next((e for e in group if e.get("type") == "robbed"), None)
        if robbed is None:
            return self.ev_rob(echo)
        values = {"who": self.who(by), "target": self.who(echo.get("target"))}
        if "card" in robbed and robbed["card"] is None:
            return self.t("feed.rob_nothing", **values)
        return self.t("feed.rob_done", card=self.card(robbed, group), **values)

    def tell_allow(self, a, by, echo, group):
        robbed = next((e for e in group if e.get("type") == "robbed"), None)
        if robbed is not None:
            other = self.who(robbed.get("character"))
            if "card" in robbed and robbed["card"] is None:
                return self.t("feed.allow_rob_nothing", who=self.who(by), other=other)
            return self.t("feed.allow_rob", who=self.who(by), other=other,
                          card=self.card(robbed, group))
        if any(e.get("type") == "seats" for e in group) and self.request.get("act") == "swap":
            return self.t("feed.allow_swap", who=self.who(by),
                          other=self.who(self.request.get("by")))
        return self.ev_respond(echo)

    def tell_refuse(self, a, by, echo, group):
        start = next((e for e in group if e.get("type") == "fight_start"), None)
        if start is None:
            return self.ev_respond(echo)
        return self.fight_start(start, refused_by=by)

    def fight_start(self, e, refused_by=None) -> str:
        attackers = tuple(e.get("attackers") or ()) if isinstance(e.get("attackers"), list) else ()
        defenders = tuple(e.get("defenders") or ()) if isinstance(e.get("defenders"), list) else ()
        self.sides = {"attacker": attackers, "defender": defenders}
        self.won = None
        act, request = e.get("act"), self.request
        if act == "swap":
            over = text("feed.over.swap", self.lang)
        elif act == "rob" and request.get("card") == "hand":
            over = text("feed.over.rob_hand", self.lang, target=self.who(request.get("target")))
        elif act == "rob" and isinstance(request.get("kind"), str):
            over = text("feed.over.rob_card", self.lang, card=self.kind_card(request["kind"]))
        elif act == "object" and isinstance(request.get("target"), str):
            over = text("feed.over.object", self.lang, target=self.who(request["target"]))
        else:
            over = text("feed.over.other", self.lang)
        values = {"attackers": self.names(attackers), "defenders": self.names(defenders),
                  "over": over}
        if refused_by is not None:
            return self.t("feed.refuse", who=self.who(refused_by), **values)
        return self.t("feed.fight_start", **values)

    def tell_join(self, a, by, echo, group):
        side = echo.get("side")
        members = self.sides.get(side) if isinstance(side, str) else None
        if not members:
            return self.ev_join(echo)
        leader = members[0]
        if by not in members:
            self.sides = {**self.sides, side: (*members, by)}
        return self.t(f"feed.join.{side}", who=self.who(by), leader=self.who(leader))

    def tell_play(self, a, by, echo, group):
        kind = echo.get("kind")
        if not isinstance(kind, str):
            kind = self.kinds(group).get(echo.get("card"))
        side = next((s for s, members in self.sides.items() if by in members), None)
        data = self.provisions.get(kind) if isinstance(kind, str) else None
        weapon = data.get("weapon") if isinstance(data, dict) else None
        if side is not None and self.won is None and isinstance(weapon, int) and weapon > 0:
            return self.t("feed.play_fight", who=self.who(by), card=self.kind_card(kind),
                          n=weapon, side=text(f"feed.sides.{side}", self.lang))
        return self.t("events.play", who=self.who(by), card=self.kind_card(kind))

    def tell_use(self, a, by, echo, group):
        flare = next((e for e in group if e.get("type") == "flare"), None)
        if flare is not None:
            return self.ev_flare({**flare, "kind": flare.get("kind", echo.get("kind"))})
        return self.ev_use(echo)

    def tell_water(self, a, by, echo, group):
        return self.ev_water(echo)

    def tell_chum(self, a, by, echo, group):
        return self.ev_chum(echo)

    def tell_preserve(self, a, by, echo, group):
        return self.ev_preserve(echo)

    def tell_navigate(self, a, by, echo, group):
        return self.ev_navigate(echo)

    def tell_drink(self, a, by, echo, group):
        return self.ev_drink(echo)

    def tell_shark(self, a, by, echo, group):
        return self.ev_shark(echo)

    def tell_offer(self, a, by, echo, group):
        return self.ev_offer(echo)

    def tell_accept_offer(self, a, by, echo, group):
        moves = [e for e in group if e.get("type") == "move" and isinstance(e.get("kind"), str)
                 and str(e.get("to", "")).startswith("hand:")]
        giver, taker = self._parties(echo)
        if not moves:
            return self.ev_trade(echo)
        listed = self.join([text("feed.trade_move", self.lang, card=self.kind_card(e["kind"]),
                                 who=self.who(str(e["to"]).partition(":")[2]))
                            for e in moves])
        return self.t("feed.trade", moves=listed,
                      **{"from": self.who(giver), "to": self.who(taker)})

    def tell_decline_offer(self, a, by, echo, group):
        return self.ev_decline(echo)

    def tell_object(self, a, by, echo, group):
        return self.ev_object(echo)

    # -- what the game does between moves
    def standalone(self, events: list, i: int) -> tuple:
        """``(next index, sentence or None)`` for the event at ``i`` and those it merges."""
        event = events[i]
        kind = event.get("type")
        following = events[i + 1] if i + 1 < len(events) else {}
        if kind in _FRESH:
            self.request, self.sides, self.won = {}, {}, None
        if kind == "move":
            return self.standalone_move(events, i)
        if kind in _UNTOLD:
            return i + 1, None
        if kind == "fight_start":
            return i + 1, self.fight_start(event)
        if kind == "fight":
            self.won = event.get("winner") if isinstance(event.get("winner"), str) else ""
            return i + 1, self.fight_result(event)
        if kind == "damage":
            return self.damage_run(events, i)
        if kind == "thirst" and following.get("type") == "thirst":
            return self.thirst_run(events, i)
        if kind == "offer_void" and following.get("type") == "offer_void":
            return self.lapsed_run(events, i)
        if kind == "seats" and following.get("type") == "lost":
            return i + 1, None    # who leaves the boat says it
        if kind == "status" and event.get("status") == "lost" and i > 0 \
                and events[i - 1].get("type") == "lost" \
                and events[i - 1].get("character") == event.get("character"):
            return i + 1, None    # "is lost at sea" said it
        if kind == "seats" and self.request.get("act") == "swap" and self.won == "attacker":
            self.won = ""
            return i + 1, self.t("feed.swap_done", who=self.who(self.request.get("by")),
                                 target=self.who(self.request.get("target")))
        if kind == "cannibalism":
            self.request = {"act": "object", "by": event.get("character"),
                            "target": event.get("target")}
        return i + 1, self.event(event)

    def standalone_move(self, events: list, i: int) -> tuple:
        move = events[i]
        following = events[i + 1] if i + 1 < len(events) else {}
        if move.get("from") == "supply" and move.get("to") == "passing":
            j = i
            kinds = []
            while j < len(events) and events[j].get("type") == "move" \
                    and events[j].get("from") == "supply" and events[j].get("to") == "passing":
                if isinstance(events[j].get("kind"), str):
                    kinds.append(events[j]["kind"])
                j += 1
            if not kinds:
                return j, None
            return j, self.t("feed.supply_seen", cards=self.join([self.kind_card(k) for k in kinds]))
        if following.get("type") == "pick" and following.get("automatic"):
            who = following.get("character")
            if isinstance(move.get("kind"), str):
                return i + 2, self.t("feed.pick_last", who=self.who(who),
                                     card=self.kind_card(move["kind"]))
            return i + 2, self.ev_pick(following)
        if following.get("type") == "robbed" and following.get("card") == move.get("card"):
            return i + 2, self.ev_robbed({**following,
                                          "kind": following.get("kind", move.get("kind"))})
        return i + 1, None

    def fight_result(self, e) -> str:
        attackers = e.get("attackers") if isinstance(e.get("attackers"), list) else []
        defenders = e.get("defenders") if isinstance(e.get("defenders"), list) else []
        winner = e.get("winner")
        if winner not in ("attacker", "defender"):
            return self.ev_fight(e)
        strength = e.get("strength") if isinstance(e.get("strength"), Mapping) else {}
        a, d = self.count(strength.get("attacker")), self.count(strength.get("defender"))
        winners = attackers if winner == "attacker" else defenders
        values = {"attackers": self.names(attackers), "defenders": self.names(defenders)}
        if a is None or d is None:
            return self.t(f"feed.fight.{winner}_plain", n=len(winners), **values)
        return self.t(f"feed.fight.{winner}", n=len(winners), a=a, d=d, **values)

    def damage_run(self, events: list, i: int) -> tuple:
        """Damage of one cause and amount to several in a row: one sentence."""
        first = events[i]
        j = i + 1
        while j < len(events) and events[j].get("type") == "damage" \
                and events[j].get("cause") == first.get("cause") \
                and events[j].get("amount") == first.get("amount") \
                and events[j].get("character") != first.get("character"):
            j += 1
        if j == i + 1:
            return j, self.event(first)
        cause, n = first.get("cause"), self.count(first.get("amount"))
        values = {"names": self.names([e.get("character") for e in events[i:j]]),
                  "n": n if n is not None else "?"}
        if cause in ("fight", "overboard", "shark", "thirst", "quick"):
            return j, self.t(f"feed.damage_many.{cause}", **values)
        if isinstance(cause, str) and cause in self.provisions:
            return j, self.t("feed.damage_many.card", card=self.kind_card(cause), **values)
        return j, self.t("feed.damage_many.other", **values)

    def thirst_run(self, events: list, i: int) -> tuple:
        """Who is thirsty after a navigation card: one sentence."""
        j = i
        listed = []
        while j < len(events) and events[j].get("type") == "thirst":
            e = events[j]
            count = self.count(e.get("count"))
            who = self.who(e.get("character"))
            listed.append(text("feed.thirsty_times", self.lang, who=who, n=count)
                          if count is not None and count > 1 else who)
            j += 1
        return j, self.t("feed.thirsty", list=self.join(listed))

    def lapsed_run(self, events: list, i: int) -> tuple:
        """Offers that lapse together (at the end of the action phase): one sentence."""
        j = i
        pairs = []
        reason = events[i].get("reason")
        while j < len(events) and events[j].get("type") == "offer_void" \
                and events[j].get("reason") == reason:
            giver, taker = self._parties(events[j])
            pairs.append(text("feed.offer_pair", self.lang,
                              **{"from": self.who(giver), "to": self.who(taker)}))
            j += 1
        said = catalog(self.lang)["events"]["reasons"].get(reason) \
            if isinstance(reason, str) else None
        if said is None and self.lang == DEFAULT_LANG and isinstance(reason, str):
            said = reason   # the engine's own words are English
        if said:
            return j, self.t("feed.offers_void", reason=said, list=self.join(pairs))
        return j, self.t("feed.offers_void_plain", list=self.join(pairs))
