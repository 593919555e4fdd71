"""``lr.describe``: a sentence for every event, action and decision, in English and Chinese
(lifeboat_rules/words.py, lifeboat_rules/data/words/*.yaml)."""

from __future__ import annotations

import json
import re
from importlib import resources
from pathlib import Path

import jsonschema

import pytest
import yaml

import lifeboat_rules as lr
from lifeboat_rules import words
from lifeboat_rules.bots import RandomPlayer

SCHEMAS = Path(__file__).resolve().parent.parent / "schemas"

ALL_IN_ONE = {"name": "everything", "expansions": ["cannibalism"],
              "variants": ["shark", "quick", "single_card_rowing"]}
RULESETS = ["classic", "cannibalism", "shark", "quick", "single_card_rowing", ALL_IN_ONE,
            "all_in_one"]
GAMES_PER_RULESET = 40
GAMES_LISTING_ACTIONS = 10     # of those, the games whose legal actions are all looked at
#                                (and the first decision of each kind in the others)

ENGLISH = {"lady_lauren": "Lady Lauren", "sir_stephen": "Sir Stephen",
           "the_captain": "The Captain", "first_mate": "First Mate", "frenchy": "Frenchy",
           "the_kid": "The Kid", "dr_harter": "Dr. Harter", "madame_wong": "Madame Wong"}
CHINESE = {"lady_lauren": "罗伦小姐", "sir_stephen": "史蒂芬先生", "the_captain": "船长",
           "first_mate": "大副", "frenchy": "法国佬", "the_kid": "小孩", "dr_harter": "哈特医生",
           "madame_wong": "黄夫人"}
# fields that name one character
CHARACTER_FIELDS = ("character", "target", "by", "ghost", "from", "to")

INSTANCE_ID = re.compile(r"(?<![A-Za-z0-9])[po]\d+")
REPR = re.compile(r"[{}\[\]]|None|True|False")
CJK = re.compile(r"[\u4e00-\u9fff]")


MARKS = ("cause", "stage", "status", "answer", "side", "act", "source", "marker", "value",
         "phase", "end", "automatic", "winner", "active")


def _variant(item: dict) -> tuple:
    """What makes two items of one type read differently."""
    marks = tuple(item[k] for k in MARKS if k in item and isinstance(item[k], (str, bool)))
    card = item.get("card")
    sizes = tuple(min(len(v), 2) for v in item.values() if type(v) is list)
    zones = (str(item.get("from")).split(":")[0], str(item.get("to")).split(":")[0]) \
        if item["type"] == "move" else ()
    return (item["type"], tuple(item), marks, card == "hand", type(card), sizes, zones)


@pytest.fixture(scope="module")
def played():
    """Random games of every built-in ruleset: one example of every kind of event, action
    (as listed by ``legal_actions``) and decision, each with the game it came from."""
    events, actions, decisions = {}, {}, {}
    listed_for = set()   # decision kinds whose actions were listed
    for ruleset in RULESETS:
        loaded = lr.load_ruleset(ruleset)
        counts = list(loaded.players)
        for seed in range(GAMES_PER_RULESET):
            game = lr.new_game(loaded, players=counts[seed % len(counts)], seed=seed)
            bot = RandomPlayer(seed, free_rate=0.2)
            while not game.over:
                for decision in game.pending:
                    if decision.kind not in decisions:
                        decisions[decision.kind] = (decision, game.clone())
                first = game.pending[0]
                if seed < GAMES_LISTING_ACTIONS or first.kind not in listed_for:
                    listed_for.add(first.kind)
                    fresh = [a for a in game.legal_actions(first.by)
                             if _variant(a) not in actions]
                    if fresh:
                        snapshot = game.clone()
                        for action in fresh:
                            actions.setdefault(_variant(action), (action, snapshot))
                game.apply(bot.act(game))
            for event in game.log:
                events.setdefault(_variant(event), (event, game))
    return events, actions, decisions


def check_sentence(sentence: str, item, lang: str) -> None:
    assert isinstance(sentence, str) and sentence.strip(), (item, sentence)
    assert not INSTANCE_ID.search(sentence), (item, sentence)
    assert not REPR.search(sentence), (item, sentence)
    assert "_" not in sentence, (item, sentence)
    if lang == "zh":
        assert CJK.search(sentence), (item, sentence)


def named(item) -> set:
    found = set()
    source = item.get("action", item) if isinstance(item, dict) else {"by": item.by}
    for field in CHARACTER_FIELDS:
        if isinstance(source.get(field), str) and source[field] in ENGLISH:
            found.add(source[field])
    return found


# --------------------------------------------------------------------------- coverage

EVENT_TYPES = {
    "action", "cannibalism", "chum", "damage", "decline", "drink", "eaten", "fight", "fight_start",
    "flare", "game_over", "heal", "join", "kept", "lost", "marker", "move", "navigate",
    "navigation", "navigator", "object", "objections", "offer", "offer_void", "overboard",
    "pass", "phase", "pick", "place", "play", "preserve", "quench", "respond", "rob",
    "robbed", "row", "seagulls", "seats", "setup", "shark", "status", "swap", "thirst", "trade",
    "turn", "use", "water"}
ACTION_TYPES = {"accept_offer", "allow", "chum", "decline_offer", "drink", "join", "navigate", "object",
                "offer", "pass", "pick", "place", "play", "preserve", "refuse", "rob", "row",
                "shark", "swap", "use", "water"}


def test_the_random_games_reach_every_type(played):
    events, actions, decisions = played
    assert {v[0] for v in events} >= EVENT_TYPES
    assert {v[0] for v in actions} >= ACTION_TYPES
    assert set(decisions) == {"pick", "turn", "place", "respond", "fight", "navigate",
                              "overboard", "thirst", "object"}


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_every_event_has_a_sentence_of_its_own(played, lang):
    events, _, _ = played
    for event, game in events.values():
        sentence = lr.describe(event, game, lang)
        check_sentence(sentence, event, lang)
        # a sentence of its own, not the fallback for unknown types
        assert sentence != words.describe_event({**event, "type": "no_such_type"}, game, lang)
        names = CHINESE if lang == "zh" else ENGLISH
        for character in named(event):
            assert names[character] in sentence, (event, sentence)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_every_listed_action_has_a_sentence_of_its_own(played, lang):
    _, actions, _ = played
    for action, game in actions.values():
        sentence = lr.describe(action, game, lang)
        check_sentence(sentence, action, lang)
        assert sentence != words.describe_action({**action, "type": "no_such_type"}, game, lang)
        names = CHINESE if lang == "zh" else ENGLISH
        for character in named(action):
            assert names[character] in sentence, (action, sentence)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_menu_worded_at_once_reads_as_each_action_worded_alone(lang):
    """``words.action_words`` (a player's menu: the content and its view read once) words every
    action as ``describe`` does for that player, with the view given or read from the game,
    and for a viewer other than the actor (a spectator's copy names no hidden card)."""
    compared = 0
    for ruleset in RULESETS:
        loaded = lr.load_ruleset(ruleset)
        game = lr.new_game(loaded, players=max(loaded.players), seed=11)
        bot = RandomPlayer(11, free_rate=0.3)
        while not game.over:
            for seat in game.view(None)["seats"]:
                actions = game.legal_actions(seat)
                given = words.action_words(game, lang, seat, game.view(seat))
                read = words.action_words(game, lang, seat)
                public = words.action_words(game, lang, None, game.view(None))
                for action in actions:
                    alone = lr.describe(action, game, lang, viewer=seat)
                    assert given(action) == read(action) == alone, (action, alone)
                    assert public(action) == lr.describe(action, game, lang, viewer=None)
                    compared += 1
            game.apply(bot.act(game))
    assert compared > 5000, compared


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_every_decision_has_a_sentence_of_its_own(played, lang):
    _, _, decisions = played
    for kind, (decision, game) in decisions.items():
        for item in (decision, {"by": decision.by, "kind": decision.kind}):
            sentence = lr.describe(item, game, lang)
            check_sentence(sentence, kind, lang)
            assert sentence != lr.describe({"by": decision.by, "kind": "no_such_kind"}, game, lang)
            assert (CHINESE if lang == "zh" else ENGLISH)[decision.by] in sentence


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_redacted_events_are_described(played, lang):
    """An event redacted for a player lacks the fields it may not see: each field, and all
    of them, removed in turn (and from the action an `action` event holds)."""
    events, _, _ = played
    for event, game in events.values():
        fields = [k for k in event if k != "type"]
        cuts = [{k: v for k, v in event.items() if k != field} for field in fields]
        cuts.append({"type": event["type"]})
        if isinstance(event.get("action"), dict):
            inner = event["action"]
            cuts += [{"type": "action", "action": {k: v for k, v in inner.items() if k != field}}
                     for field in inner if field not in ("by", "type")]
        for cut in cuts:
            check_sentence(lr.describe(cut, game, lang), cut, lang)


# --------------------------------------------------------------------------- sentences by hand

@pytest.fixture(scope="module")
def six():
    """A classic game with all six base characters (nothing applied)."""
    return lr.new_game("classic", players=6, seed=1)


EXPECTED = [
    ({"type": "move", "card": "p18", "kind": "cash", "from": "passing", "to": "hand:lady_lauren"},
     "Lady Lauren takes the Bundle of Cash.", "罗伦小姐拿到「现金」。"),
    # the same move as another player sees it: the kind is redacted
    ({"type": "move", "card": "p18", "from": "passing", "to": "hand:lady_lauren"},
     "Lady Lauren takes a card.", "罗伦小姐拿到一张牌。"),
    ({"type": "move", "card": "p3", "kind": "knife", "from": "front:the_kid", "to": "hand:frenchy"},
     "Frenchy takes the Knife from The Kid.", "法国佬从小孩处拿到「小刀」。"),
    ({"type": "fight", "attackers": ["lady_lauren"], "defenders": ["the_captain", "sir_stephen"],
      "winner": "defender", "strength": {"attacker": 4, "defender": 12}},
     "The defenders win the fight, 12 to 4: Lady Lauren against The Captain and Sir Stephen.",
     "防守方以12比4获胜：罗伦小姐对船长和史蒂芬先生。"),
    ({"type": "navigation", "card": "nav-39", "data": {"id": "nav-39", "overboard": ["first_mate"],
      "thirst": ["the_kid"], "oar": False, "fight": True, "seagull": 1}},
     "Navigation card 39 is resolved: a seagull; First Mate overboard; The Kid thirsty; "
     "fighters thirsty.",
     "结算航行卡 39：出现海鸥；大副落水；小孩口渴；参加战斗者口渴。"),
    ({"type": "damage", "character": "the_kid", "amount": 2, "cause": "thirst"},
     "The Kid takes 2 damage from thirst.", "小孩因口渴受到2点伤害。"),
    ({"type": "thirst", "character": "frenchy", "count": 2},
     "Frenchy is thirsty 2 times.", "法国佬口渴2次。"),
    ({"type": "quench", "character": "the_captain", "target": "first_mate", "source": "water",
      "amount": 1},
     "The Water of The Captain cancels one thirst of First Mate.", "船长的「水」为大副解除1次口渴。"),
    ({"type": "rob", "character": "the_captain", "target": "sir_stephen",
      "card": {"id": "p12", "kind": "chum"}},
     "The Captain tries to rob the Bucket of Chum from in front of Sir Stephen.",
     "船长要抢夺史蒂芬先生面前的「一桶诱饵」。"),
    ({"type": "setup", "seats": ["lady_lauren", "the_kid"], "players": 2},
     "A new game for 2 players, seated from bow to stern: Lady Lauren and The Kid.",
     "新游戏：2名玩家，从船头到船尾依次坐着罗伦小姐和小孩。"),
    ({"type": "offer", "offer": "o1", "from": "the_kid", "to": "first_mate", "give": ["chum"],
      "take": []},
     "The Kid offers the Bucket of Chum to First Mate as a gift.", "小孩提议把「一桶诱饵」送给大副。"),
    ({"type": "offer", "offer": "o1", "from": "the_kid", "to": "first_mate"},
     "The Kid makes First Mate an offer.", "小孩向大副提出交易。"),
    ({"type": "action", "action": {"by": "the_captain", "type": "place"}},
     "The Captain places the drawn navigation cards.", "船长放置抽到的航行卡。"),
    ({"type": "game_over", "scores": {"lady_lauren": 9, "the_kid": 12}, "winners": ["the_kid"],
      "end": "landed"},
     "Game over, the boat reaches land. Scores: The Kid 12 and Lady Lauren 9. The Kid wins.",
     "游戏结束，救生艇抵达陆地。得分：小孩12分和罗伦小姐9分。小孩获胜。"),
    ({"type": "preserve", "character": "sir_stephen", "target": "sir_stephen", "card": "p30"},
     "Sir Stephen puts the Life Preserver in front of their own seat.",
     "史蒂芬先生把「救生圈」放在自己面前。"),
    ({"by": "the_kid", "type": "rob", "target": "the_captain", "card": "hand"},
     "The Kid robs a random card from The Captain's hand.", "小孩从船长的手牌中随机抢夺一张。"),
    ({"by": "first_mate", "type": "water", "target": "frenchy", "card": "water"},
     "First Mate gives the Water to Frenchy.", "大副把「水」给了法国佬。"),
    ({"by": "first_mate", "kind": "thirst"},
     "First Mate may give water to the thirsty.", "大副可以给口渴的人水。"),
]


@pytest.mark.parametrize("item, english, chinese", EXPECTED)
def test_sentences_worked_out_by_hand(six, item, english, chinese):
    assert lr.describe(item, six, "en") == english
    assert lr.describe(item, six, "zh") == chinese


def test_an_action_names_its_cards_as_its_player_sees_them():
    game = lr.new_game("classic", players=6, seed=1)
    picker = game.pending[0].by
    seen = {c["id"]: c["kind"] for c in game.view(picker)["decision"]["cards"]}
    by_id = [a for a in game.legal_actions(picker) if a["type"] == "pick" and a["card"] in seen]
    assert by_id
    for action in by_id:
        name = game.ruleset.content.raw["provisions"][seen[action["card"]]]["name"]
        assert lr.describe(action, game) == f"{ENGLISH[picker]} picks the {name}."
    # the same action in the log, read by anyone: the instance id is not looked up
    assert lr.describe({"type": "action", "action": by_id[0]}, game) == \
        f"{ENGLISH[picker]} picks a card."


# --------------------------------------------------------------------------- languages, types

def test_an_unknown_language_falls_back_to_english(six):
    event = {"type": "damage", "character": "the_kid", "amount": 1, "cause": "fight"}
    english = lr.describe(event, six, "en")
    assert english == "The Kid takes 1 damage in the fight."
    for lang in ("fr", "", None, "../../en", "EN", "xx-YY"):
        assert lr.describe(event, six, lang) == english
    assert lr.describe(event, six) == english
    # a regional code reads its language's catalog
    assert lr.describe(event, six, "zh-CN") == lr.describe(event, six, "zh") == \
        "小孩在战斗中受到1点伤害。"


def test_unknown_types_get_a_generic_sentence(six):
    assert lr.describe({"type": "storm_warning", "character": "the_kid"}, six) == \
        "The Kid: storm warning."
    assert lr.describe({"type": "storm_warning"}, six) == "Event: storm warning."
    assert lr.describe({"by": "frenchy", "type": "dance"}, six, "zh") == "法国佬：dance。"
    assert lr.describe({"by": "frenchy", "kind": "vote"}, six) == "Frenchy must decide (vote)."


def test_describe_refuses_what_is_no_event_action_or_decision(six):
    for item in (None, 3, "damage", {}, {"character": "the_kid"}):
        with pytest.raises(TypeError):
            lr.describe(item, six)


# --------------------------------------------------------------------------- names from content

def test_a_ruleset_brings_its_own_names():
    ruleset = lr.load_ruleset({
        "name": "renamed",
        "overrides": {
            "characters": {"the_kid": {"names": {"zh": "孩子"}}},
            "provisions": {"knife": {"names": {"zh": "匕首"}},
                           "spyglass": {"name": "Spyglass", "count": 1}},
            "navigation": {"nav-19": {"name": "The Storm", "names": {"zh": "风暴"}}}}})
    game = lr.new_game(ruleset, players=6, seed=1)
    play = {"type": "play", "character": "the_kid", "card": "p1", "kind": "knife"}
    assert lr.describe(play, game, "zh") == "孩子把「匕首」面朝上打出。"
    assert lr.describe(play, game, "en") == "The Kid plays the Knife face up."
    # a card with only an English name keeps it in every language
    new = {"type": "play", "character": "frenchy", "card": "p2", "kind": "spyglass"}
    assert lr.describe(new, game, "zh") == "法国佬把「Spyglass」面朝上打出。"
    chosen = {"type": "navigate", "character": "frenchy", "card": "nav-19"}
    assert lr.describe(chosen, game, "en") == "Frenchy chooses The Storm."
    assert lr.describe(chosen, game, "zh") == "法国佬选择了「风暴」。"
    # the built-in names are unchanged elsewhere
    classic = lr.new_game("classic", players=6, seed=1)
    assert lr.describe(play, classic, "zh") == "小孩把「小刀」面朝上打出。"


def test_display_names_must_be_a_language_mapping():
    for names in ({"Chinese!": "匕首"}, {"zh": ""}, {"zh": 3}, ["匕首"]):
        with pytest.raises(lr.ContentError):
            lr.load_ruleset({"overrides": {"provisions": {"knife": {"names": names}}}})


def test_the_base_content_has_every_chinese_name():
    game = lr.new_game("all_in_one", players=8, seed=1)
    content = game.ruleset.content.raw
    for cid, chinese in CHINESE.items():
        assert content["characters"][cid]["names"]["zh"] == chinese
        assert words.character_name(game, cid, "zh") == chinese
    for kind, data in content["provisions"].items():
        assert CJK.search(data["names"]["zh"]), kind


# --------------------------------------------------------------------------- the catalogs

def _paths(node, prefix=""):
    if isinstance(node, dict) and not set(node) <= {"zero", "one", "other"}:
        for key, value in node.items():
            yield from _paths(value, f"{prefix}{key}.")
    else:
        yield prefix[:-1], node


def _placeholders(node) -> set:
    texts = node.values() if isinstance(node, dict) else [node]
    return {name for t in texts for name in re.findall(r"\{(\w+)\}", str(t))}


def test_the_chinese_catalog_has_the_keys_and_placeholders_of_the_english_one():
    root = resources.files("lifeboat_rules.data").joinpath("words")
    english = dict(_paths(yaml.safe_load(root.joinpath("en.yaml").read_text(encoding="utf-8"))))
    chinese = dict(_paths(yaml.safe_load(root.joinpath("zh.yaml").read_text(encoding="utf-8"))))
    assert set(chinese) <= set(english), set(chinese) - set(english)
    missing = {p for p in english if p not in chinese}
    assert not missing, missing   # a full translation: nothing falls back to English
    for path, node in chinese.items():
        assert _placeholders(node) <= _placeholders(english[path]), path
    assert words.languages() == ("en", "zh")


def test_content_words_come_first_then_the_catalog_then_english_then_generic():
    """``words:`` of a ruleset: its sentence in the language asked for, else the catalog's
    sentence of a built-in type, else its English sentence, else the generic one."""
    ruleset = lr.load_ruleset({"words": {
        "en": {"events": {"rum": "{character} drinks the rum with {target}.",
                          "damage": "{character} suffers {amount}."},
               "actions": {"toast": "{by} raises a toast to {target}."},
               "decisions": {"toast": "{who} may raise a toast."}},
        "zh": {"events": {"damage": "{character}受伤{amount}。"}}}})
    game = lr.new_game(ruleset, players=4, seed=1)
    rum = {"type": "rum", "character": "the_kid", "target": "lady_lauren"}
    assert lr.describe(rum, game) == "The Kid drinks the rum with Lady Lauren."
    assert lr.describe(rum, game, "zh") == "The Kid drinks the rum with Lady Lauren."
    damage = {"type": "damage", "character": "the_kid", "amount": 2, "cause": "thirst"}
    assert lr.describe(damage, game) == "The Kid suffers 2."
    assert lr.describe(damage, game, "zh") == "小孩受伤2。"
    swap = {"type": "swap", "character": "the_kid", "target": "lady_lauren"}
    assert lr.describe(swap, game, "zh") == lr.describe(swap, lr.new_game("classic", players=4, seed=1), "zh")
    toast = {"by": "the_kid", "type": "toast", "target": "first_mate"}
    assert lr.describe(toast, game) == "The Kid raises a toast to First Mate."
    assert lr.describe({"by": "the_kid", "kind": "toast"}, game, "zh") == "The Kid may raise a toast."
    plain = lr.new_game("classic", players=4, seed=1)
    assert lr.describe(rum, plain, "zh") == words.describe_event({**rum, "type": "rum"}, plain, "zh")
    assert "rum" in lr.describe(rum, plain, "zh")


def test_a_content_template_never_shows_a_card_id():
    ruleset = lr.load_ruleset({"words": {"en": {"events": {"gift": "{character} hides {gift}."}}}})
    game = lr.new_game(ruleset, players=4, seed=1)
    card = game.view("lady_lauren")["characters"]["lady_lauren"]["hand"][0]
    said = lr.describe({"type": "gift", "character": "lady_lauren", "gift": card["id"]}, game)
    assert said == "Lady Lauren hides a card."
    said = lr.describe({"type": "gift", "character": "lady_lauren", "gift": card["kind"]}, game)
    assert said == f"Lady Lauren hides the {words.provision_name(game, card['kind'])}."


def test_a_provisions_text_says_what_using_it_does():
    ruleset = lr.load_ruleset({"overrides": {"provisions": {"medical_kit": {"text": {
        "en": "heals 1 damage", "zh": "恢复1点伤害"}}}}})
    game = lr.new_game(ruleset, players=4, seed=1)
    used = {"type": "use", "character": "the_kid", "target": "lady_lauren", "card": "p1",
            "kind": "medical_kit"}
    assert lr.describe(used, game) == "The Kid uses the Medical Kit on Lady Lauren: heals 1 damage."
    assert lr.describe(used, game, "zh").endswith("：恢复1点伤害。")
    action = {"by": "the_kid", "type": "use", "card": "medical_kit", "target": "lady_lauren"}
    assert lr.describe(action, game).endswith(": heals 1 damage.")
    plain = lr.new_game("classic", players=4, seed=1)
    assert lr.describe(used, plain) == "The Kid uses the Medical Kit on Lady Lauren."


def test_a_provisions_text_is_in_the_views_that_show_the_card():
    # a house rule's card says what it does wherever a view shows it (hand, front, a pick)
    said = {"en": "heals 1 damage", "zh": "恢复1点伤害"}
    ruleset = lr.load_ruleset({"overrides": {"provisions": {"medical_kit": {"text": said}}}})
    game = lr.new_game(ruleset, setup={
        "seats": ["lady_lauren", "sir_stephen", "the_captain"],
        "hand": {"lady_lauren": ["medical_kit", "water"]}, "front": {"sir_stephen": ["medical_kit"]},
        "supply": ["medical_kit", "cash", "water"], "phase": "supply"})
    mine = game.view("lady_lauren")
    kit = [c for c in mine["characters"]["lady_lauren"]["hand"] if c["kind"] == "medical_kit"]
    assert kit and kit[0]["text"] == said
    assert all("text" not in c for c in mine["characters"]["lady_lauren"]["hand"]
               if c["kind"] != "medical_kit")
    front = game.view(None)["characters"]["sir_stephen"]["front"]
    assert front[0]["text"] == said
    shown = mine["decision"]["cards"]
    assert [c.get("text") for c in shown if c["kind"] == "medical_kit"] == [said]
    # the view is still valid against its schema, and the base game's views carry no text
    jsonschema.validate(mine, json.loads((SCHEMAS / "view.schema.json").read_text()))
    plain = lr.new_game("classic", players=4, seed=1).view("lady_lauren")
    assert not any("text" in c for c in plain["characters"]["lady_lauren"]["hand"])
