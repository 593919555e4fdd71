"""The shapes of the JSON the API hands out and takes (docs/api.md, Typing), for type checkers.

Actions, events, views, results, decisions and saved games are plain ``dict`` objects at run
time; the ``TypedDict`` classes here say which keys each one has and what they hold, so that a
front end checked with ``mypy --strict`` knows, e.g., that ``game.view(c)["characters"][c]
["damage"]`` is an ``int``. Nothing here is needed at run time: the engine never builds these
classes (a ``TypedDict`` is a ``dict``), and the modules of the package import this one only
for type checking.

Keys a value may lack are in a ``total=False`` class (the second class of a pair): a field
``events_for`` leaves out for a reader who may not see it (a card's kind moving between hands,
the cards of an offer), a view's entries that only some viewers get (``hand``, ``love``,
``decision``), fields only some moves give (``target`` of ``use``). A union (``Action``,
``Event``) is tagged by ``type``: ``if action["type"] == "rob":`` narrows it to ``RobAction``.
A house rule's plugin may add action types, event types, decision kinds and event fields of
its own; they are not in these unions (a front end shows what it does not know with
``describe``, and ignores fields it does not know).
"""

from __future__ import annotations

from typing import Dict, List, Literal, TypedDict, Union

# --------------------------------------------------------------------------- words

StatusName = Literal["awake", "unconscious", "dead", "lost"]
PhaseName = Literal["supply", "action", "navigation", "over"]
SideName = Literal["attacker", "defender"]
EndName = Literal["landed", "all_dead", "adrift"]
DecisionKind = Literal["pick", "turn", "place", "respond", "fight", "navigate", "overboard",
                       "thirst", "object"]


# --------------------------------------------------------------------------- cards

class _CardRef(TypedDict):
    id: str
    kind: str


class CardRef(_CardRef, total=False):
    """A provision card as a viewer sees it: its instance id and its kind; in views, ``text``:
    what the card does in words, by language, when its content gives it."""
    text: Dict[str, str]


class MarkedSelection(TypedDict):
    """A navigation card's characters named by a marker they carry."""
    marked: str


class AllExcept(TypedDict):
    """Every character but these."""
    all_except: List[str]


# which characters a navigation card names: a list of ids, "all", or the two forms above
Selection = Union[List[str], Literal["all"], AllExcept, MarkedSelection]


class _NavigationCardData(TypedDict):
    id: str
    overboard: Selection
    thirst: Selection
    oar: bool
    fight: bool
    seagull: int


class NavigationCardData(_NavigationCardData, total=False):
    """A navigation card as content data (views, ``navigation`` events, decisions); in views,
    ``text``: what the card does in words, by language, when its content gives it."""
    text: Dict[str, str]


# --------------------------------------------------------------------------- actions

class _ActionBase(TypedDict):
    by: str


class _PickAction(_ActionBase):
    type: Literal["pick"]


class PickAction(_PickAction, total=False):
    """``card`` is always given, except in an ``action`` event shown to another player (the
    card kept is secret, R-SUPPLY-1)."""
    card: str


class PassAction(_ActionBase):
    type: Literal["pass"]


class RowAction(_ActionBase):
    type: Literal["row"]


class _PlaceAction(_ActionBase):
    type: Literal["place"]


class PlaceAction(_PlaceAction, total=False):
    """``pile`` is always given, except in an ``action`` event shown to another player."""
    pile: List[str]


class SwapAction(_ActionBase):
    type: Literal["swap"]
    target: str


class RobAction(_ActionBase):
    """``card``: ``"hand"`` (a random hand card) or a card face up in front of the target."""
    type: Literal["rob"]
    target: str
    card: str


class _UseAction(_ActionBase):
    type: Literal["use"]
    card: str


class UseAction(_UseAction, total=False):
    """``target`` for the medical kit and the cannibalism card, left out otherwise."""
    target: str


class AllowAction(_ActionBase):
    type: Literal["allow"]


class RefuseAction(_ActionBase):
    type: Literal["refuse"]


class JoinAction(_ActionBase):
    type: Literal["join"]
    side: SideName


class PlayAction(_ActionBase):
    type: Literal["play"]
    card: str


class NavigateAction(_ActionBase):
    type: Literal["navigate"]
    card: str


class PreserveAction(_ActionBase):
    type: Literal["preserve"]
    target: str


class _ChumAction(_ActionBase):
    type: Literal["chum"]


class ChumAction(_ChumAction, total=False):
    """``card`` is always listed; ``apply`` takes it left out (your first chum)."""
    card: str


class SharkAction(_ActionBase):
    type: Literal["shark"]


class _WaterAction(_ActionBase):
    type: Literal["water"]
    target: str


class WaterAction(_WaterAction, total=False):
    """``card`` is always listed; ``apply`` takes it left out (your first water)."""
    card: str


class ObjectAction(_ActionBase):
    type: Literal["object"]


class _DrinkAction(_ActionBase):
    type: Literal["drink"]


class DrinkAction(_DrinkAction, total=False):
    """``card``: a Liquid Courage; left out for Madame Wong's shared drink (R-WONG-2)."""
    card: str


class _OfferAction(_ActionBase):
    type: Literal["offer"]
    to: str


class OfferAction(_OfferAction, total=False):
    """``give`` and ``take`` are always given, except in an ``action`` event shown to a
    player the offer is not between."""
    give: List[str]
    take: List[str]


class _AcceptOfferAction(_ActionBase):
    type: Literal["accept_offer"]


class AcceptOfferAction(_AcceptOfferAction, total=False):
    """``offer`` is always listed; ``apply`` takes it left out when one offer is open to you."""
    offer: str


class _DeclineOfferAction(_ActionBase):
    type: Literal["decline_offer"]


class DeclineOfferAction(_DeclineOfferAction, total=False):
    offer: str


Action = Union[PickAction, PassAction, RowAction, PlaceAction, SwapAction, RobAction, UseAction,
               AllowAction, RefuseAction, JoinAction, PlayAction, NavigateAction,
               PreserveAction, ChumAction, SharkAction, WaterAction, ObjectAction, DrinkAction,
               OfferAction, AcceptOfferAction, DeclineOfferAction]


# --------------------------------------------------------------------------- events

class _SetupEvent(TypedDict):
    type: Literal["setup"]
    seats: List[str]
    players: int
    dealt: bool


class SetupEvent(_SetupEvent, total=False):
    """``seed`` only in the unredacted log (``apply``, ``game.events``): it would tell every
    deck."""
    seed: int


class PhaseEvent(TypedDict):
    type: Literal["phase"]
    phase: PhaseName
    round: int


class TurnEvent(TypedDict):
    type: Literal["turn"]
    character: str


class ActionEvent(TypedDict):
    """The action as applied, logged before the events it causes."""
    type: Literal["action"]
    action: Action


class PassEvent(TypedDict):
    type: Literal["pass"]
    character: str
    stage: str


class PickEvent(TypedDict):
    type: Literal["pick"]
    character: str
    automatic: bool


class RowEvent(TypedDict):
    type: Literal["row"]
    character: str
    drawn: int


class PlaceEvent(TypedDict):
    type: Literal["place"]
    character: str
    kept: int


class SwapEvent(TypedDict):
    type: Literal["swap"]
    character: str
    target: str


class _RobEvent(TypedDict):
    type: Literal["rob"]
    character: str
    target: str
    card: str


class RobEvent(_RobEvent, total=False):
    """``kind`` when a face-up card is robbed (``card`` is then its id, else ``"hand"``)."""
    kind: str


class RespondEvent(TypedDict):
    type: Literal["respond"]
    character: str
    answer: Literal["allow", "refuse"]


class _RobbedEvent(TypedDict):
    type: Literal["robbed"]
    character: str
    target: str


class RobbedEvent(_RobbedEvent, total=False):
    """``card`` None: nothing was there; else the card's new id, for the robber only (a card's
    id is a secret like its kind). ``kind`` for whoever may see the card."""
    card: Union[str, None]
    kind: str


class FightStartEvent(TypedDict):
    type: Literal["fight_start"]
    attackers: List[str]
    defenders: List[str]
    act: str


class JoinEvent(TypedDict):
    type: Literal["join"]
    character: str
    side: SideName


class Strength(TypedDict):
    attacker: int
    defender: int


class FightEvent(TypedDict):
    type: Literal["fight"]
    attackers: List[str]
    defenders: List[str]
    winner: SideName
    strength: Strength


class UseEvent(TypedDict):
    type: Literal["use"]
    character: str
    card: str
    kind: str
    target: Union[str, None]


class HealEvent(TypedDict):
    type: Literal["heal"]
    character: str
    amount: int
    cause: str


class KeptEvent(TypedDict):
    type: Literal["kept"]
    character: str
    card: str
    kind: str


class FlareEvent(TypedDict):
    type: Literal["flare"]
    character: str
    cards: List[str]


class PlayEvent(TypedDict):
    type: Literal["play"]
    character: str
    card: str
    kind: str


class PreserveEvent(TypedDict):
    type: Literal["preserve"]
    character: str
    target: str
    card: str
    kind: str


class NavigatorEvent(TypedDict):
    type: Literal["navigator"]
    character: str
    cards: int


class NavigateEvent(TypedDict):
    type: Literal["navigate"]
    character: str
    card: str


class NavigationEvent(TypedDict):
    type: Literal["navigation"]
    card: str
    data: NavigationCardData


class SeagullsEvent(TypedDict):
    type: Literal["seagulls"]
    count: int


class OverboardEvent(TypedDict):
    type: Literal["overboard"]
    characters: List[str]


class ChumEvent(TypedDict):
    type: Literal["chum"]
    character: str
    card: str
    kind: str


class SharkEvent(TypedDict):
    type: Literal["shark"]
    ghost: str


class ThirstEvent(TypedDict):
    type: Literal["thirst"]
    character: str
    count: int


class QuenchEvent(TypedDict):
    type: Literal["quench"]
    character: str
    target: str
    source: str
    amount: int


class WaterEvent(TypedDict):
    type: Literal["water"]
    character: str
    target: str
    card: str
    kind: str


class DamageEvent(TypedDict):
    type: Literal["damage"]
    character: str
    amount: int
    cause: str


class StatusEvent(TypedDict):
    type: Literal["status"]
    character: str
    status: StatusName


class LostEvent(TypedDict):
    type: Literal["lost"]
    character: str
    cause: str


class SeatsEvent(TypedDict):
    type: Literal["seats"]
    seats: List[str]


class MarkerEvent(TypedDict):
    type: Literal["marker"]
    character: str
    marker: str
    value: bool


class _CardMarkerEvent(TypedDict):
    type: Literal["card_marker"]
    marker: str
    value: bool


class CardMarkerEvent(_CardMarkerEvent, total=False):
    """``card``: left out for all but the owner when the card is in a hand."""
    card: str


# ``from`` is a Python keyword: these classes are made the functional way
_MoveEvent = TypedDict("_MoveEvent", {"type": Literal["move"], "from": str, "to": str})


class MoveEvent(_MoveEvent, total=False):
    """A card between zones (``hand:<c>``, ``front:<c>``, ``supply``, ``passing``,
    ``discard``, ``removed``) or a navigation card between places (``navigation``, ``drawn``,
    ``rowing_pile``, ``current``). ``kind`` and ``card`` only for whoever may see them (a
    provision going into a hand: its new id for its new owner only, docs/api.md)."""
    card: str
    kind: str


_OfferEvent = TypedDict("_OfferEvent", {"type": Literal["offer"], "offer": str, "from": str,
                                        "to": str})


class OfferEvent(_OfferEvent, total=False):
    """``give`` (the kinds of the cards given, never their ids), ``take`` and
    ``give_markers`` (the markers of each card given, when one carries any) only for the two
    players of the offer."""
    give: List[str]
    take: List[str]
    give_markers: List[List[str]]


TradeEvent = TypedDict("TradeEvent", {"type": Literal["trade"], "offer": str, "from": str,
                                      "to": str})
DeclineEvent = TypedDict("DeclineEvent", {"type": Literal["decline"], "offer": str,
                                          "from": str, "to": str})
OfferVoidEvent = TypedDict("OfferVoidEvent", {"type": Literal["offer_void"], "offer": str,
                                              "from": str, "to": str, "reason": str})


class CannibalismEvent(TypedDict):
    type: Literal["cannibalism"]
    character: str
    target: str


class ObjectEvent(TypedDict):
    type: Literal["object"]
    character: str
    target: str


class ObjectionsEvent(TypedDict):
    type: Literal["objections"]
    character: str
    target: str
    objectors: List[str]


EatenEvent = TypedDict("EatenEvent", {"type": Literal["eaten"], "character": str, "by": str})


class _DrinkEvent(TypedDict):
    type: Literal["drink"]
    character: str
    shared: bool


class DrinkEvent(_DrinkEvent, total=False):
    """``card`` and ``kind`` for a drink of a card (not Madame Wong's shared drink)."""
    card: str
    kind: str


class AdriftEvent(TypedDict):
    type: Literal["adrift"]
    round: int
    since: int


class GameOverEvent(TypedDict):
    type: Literal["game_over"]
    scores: Dict[str, int]
    winners: List[str]
    end: EndName


Event = Union[SetupEvent, PhaseEvent, TurnEvent, ActionEvent, PassEvent, PickEvent, RowEvent,
              PlaceEvent, SwapEvent, RobEvent, RespondEvent, RobbedEvent, FightStartEvent,
              JoinEvent, FightEvent, UseEvent, HealEvent, KeptEvent, FlareEvent, PlayEvent,
              PreserveEvent, NavigatorEvent, NavigateEvent, NavigationEvent, SeagullsEvent,
              OverboardEvent, ChumEvent, SharkEvent, ThirstEvent, QuenchEvent, WaterEvent,
              DamageEvent, StatusEvent, LostEvent, SeatsEvent, MarkerEvent, CardMarkerEvent,
              MoveEvent, OfferEvent, TradeEvent, DeclineEvent, OfferVoidEvent, CannibalismEvent,
              ObjectEvent, ObjectionsEvent, EatenEvent, DrinkEvent, AdriftEvent, GameOverEvent]


# --------------------------------------------------------------------------- results

class Result(TypedDict):
    """``game.result`` once the game is over: every player's score, the winners, each
    player's parts (survival, treasure, love, hate, and a plugin's own), how it ended."""
    scores: Dict[str, int]
    winners: List[str]
    breakdown: Dict[str, Dict[str, int]]
    end: EndName


class Reveal(TypedDict):
    """A player's love and hate, shown to everyone once the game is over."""
    love: Union[str, None]
    hate: Union[str, None]


class ViewResult(Result):
    """The result as views show it once over: with every player's love and hate."""
    reveal: Dict[str, Reveal]


# --------------------------------------------------------------------------- views

class DecisionData(TypedDict):
    """A pending decision as views list it (``Decision.data()``)."""
    by: str
    kind: str


class _CharacterView(TypedDict):
    size: int
    survival: int
    damage: int
    status: StatusName
    front: List[CardRef]
    hand_size: int
    rowed: bool
    fought: bool
    parasol_active: bool
    markers: List[str]
    on_board: bool


class CharacterView(_CharacterView, total=False):
    """``hand`` only in its owner's view; ``ghost`` only for a lost character."""
    hand: List[CardRef]
    ghost: bool


_OfferData = TypedDict("_OfferData", {"id": str, "from": str, "to": str, "give": List[str],
                                      "take": List[str]})


class OfferData(_OfferData, total=False):
    """An open offer: ``give`` holds the kinds of the cards given (an offer shows them, not
    their ids); ``give_markers`` the markers of each, when one carries any (R-LC-1)."""
    give_markers: List[List[str]]


class _PickDecision(TypedDict):
    kind: Literal["pick"]


class PickDecision(_PickDecision, total=False):
    """The supply cards passed to you."""
    cards: List[CardRef]


class _CardsDecision(TypedDict):
    kind: Literal["place", "navigate"]


class CardsDecision(_CardsDecision, total=False):
    """The navigation cards you drew (``place``) or must choose from (``navigate``)."""
    cards: List[NavigationCardData]


class _RespondDecision(TypedDict):
    kind: Literal["respond"]
    act: str
    by: str
    target: str


class RespondDecision(_RespondDecision, total=False):
    """A swap or robbery asked of you; ``card``: ``"hand"`` or the face-up card asked for."""
    card: Union[str, CardRef]


class PlainDecision(TypedDict):
    """A decision with nothing private to show."""
    kind: Literal["turn", "fight", "overboard", "thirst", "object"]


DecisionView = Union[PickDecision, CardsDecision, RespondDecision, PlainDecision]


class StakeView(TypedDict):
    """What a fight is about: the act (``swap``, ``rob``...), who did it, to whom."""
    act: str
    actor: str
    target: str


class SupplyStage(TypedDict):
    kind: Literal["supply"]
    picker: Union[str, None]
    cards_passing: int


class ActionStage(TypedDict):
    kind: Literal["action"]
    order: List[str]
    acted: List[str]


class TurnStage(TypedDict):
    kind: Literal["turn"]
    actor: str


class PlaceStage(TypedDict):
    kind: Literal["place"]
    actor: str
    cards_drawn: int


class FightStage(TypedDict):
    kind: Literal["fight"]
    attackers: List[str]
    defenders: List[str]
    stake: StakeView
    strength: Strength


class NavigationStage(TypedDict):
    kind: Literal["navigation"]
    step: str


class NavigateStage(TypedDict):
    kind: Literal["navigate"]
    navigator: str
    cards: int


class OverboardStage(TypedDict):
    kind: Literal["overboard"]
    fallen: List[str]
    chum: bool
    shark: bool


class ThirstStage(TypedDict):
    kind: Literal["thirst"]
    thirst: Dict[str, int]


class ObjectStage(TypedDict):
    kind: Literal["object"]
    user: str
    body: str
    objectors: List[str]


StageView = Union[SupplyStage, ActionStage, TurnStage, PlaceStage, RespondDecision, FightStage,
                  NavigationStage, NavigateStage, OverboardStage, ThirstStage, ObjectStage]


class _View(TypedDict):
    you: Union[str, None]
    ruleset: str
    round: int
    phase: PhaseName
    seagulls: int
    over: bool
    seats: List[str]
    characters: Dict[str, CharacterView]
    supply_size: int
    navigation_size: int
    rowing_pile_size: int
    discard: List[str]
    removed_size: int
    pending: List[DecisionData]


class View(_View, total=False):
    """``game.view(c)``. ``love``, ``hate`` and ``offers`` only in a player's own view (not
    the public one); ``decision`` only for a viewer who is deciding; ``stage`` while a stage
    waits; ``navigation_card`` while one is resolved; ``card_markers`` while a card carries a
    marker; ``result`` once over (with the reveal)."""
    love: Union[str, None]
    hate: Union[str, None]
    decision: DecisionView
    offers: List[OfferData]
    stage: StageView
    navigation_card: NavigationCardData
    card_markers: Dict[str, List[str]]
    result: ViewResult


# --------------------------------------------------------------------------- the feed

class FeedEntry(TypedDict):
    """One sentence of ``game.feed(c)``: ``index`` is the log entry it starts at."""
    index: int
    text: str


# --------------------------------------------------------------------------- saved games

class RulesetData(TypedDict):
    """A ruleset as a saved game records it (flattened)."""
    name: str
    expansions: List[str]
    variants: List[str]
    options: Dict[str, str]
    plugins: List[str]
    overrides: Dict[str, object]


class TableData(TypedDict):
    kinds: Dict[str, str]
    navcards: Dict[str, Dict[str, object]]


class SavedGame(TypedDict):
    """``game.to_dict()``: JSON-safe; ``Game.from_dict`` continues it identically.
    ``secrets``: ``[log index, audience, hidden fields]`` per secret."""
    format: str
    version: int
    ruleset: RulesetData
    table: TableData
    state: Dict[str, object]
    log: List[Event]
    secrets: List[List[Union[int, List[str]]]]
