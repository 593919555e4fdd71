"""Every word the web table shows, in one place.

Game words (moves, events, decisions, names of characters and cards) come from the library
(``lifeboat_rules.describe`` and the content's display names), so rulesets and plugins bring
their own; this module adds only the page's own labels (``UI``) in English and Chinese.
"""

from __future__ import annotations

LANGS = ("en", "zh")


def lang_of(value) -> str:
    """A supported language for any client value (unknown: English)."""
    return value if value in LANGS else "en"


def describe(item, game, lang: str, viewer) -> str:
    """One sentence for an action dict or a decision, as ``viewer``'s player may read it (the
    library's words: cards named only as that player sees them)."""
    import lifeboat_rules as lr
    return lr.describe(item, game, lang, viewer=viewer)


def menu_words(game, lang: str, viewer, view):
    """``describe`` for the actions of ``viewer``'s menu now, its view ``view`` (that
    player's ``game.view``) read once for all of them (``words.action_words``)."""
    from lifeboat_rules import words
    return words.action_words(game, lang, viewer, view)


def names(game, lang: str) -> dict:
    """{id: display name in ``lang``} of every character and provision kind of the game's
    content (the library's names: ``name``, ``names: {zh: ...}``)."""
    from lifeboat_rules import words
    content = words.content(game)
    out = {c: words.character_name(game, c, lang) for c in content.get("characters", {})}
    out.update((k, words.provision_name(game, k, lang)) for k in content.get("provisions", {}))
    return out


# The page's own labels. Both languages have exactly the same keys (tests/test_web.py).
UI = {
    "en": {
        "title": "Lifeboat",
        "new_game": "New game",
        "ruleset": "Rules",
        "players": "Players",
        "language": "Language",
        "seat_n": "Seat {n}",
        "ctl_link": "a player with their own link",
        "ctl_host": "played here (hot-seat)",
        "ctl_bot": "bot: {name}",
        "create": "Create the game",
        "created_note": "Send each player their own link; keep this page's address: it is your host link.",
        "links": "Links",
        "spectator_link": "Spectator link",
        "host_link": "Your host link (keep it: it is this page's address)",
        "copy": "Copy",
        "give_to_bot": "Let a bot play this seat",
        "new_link": "New link (the old one stops working)",
        "play_here": "Play this seat here",
        "you_are": "You are {name}",
        "spectating": "You are watching",
        "host_of": "You host this game",
        "round": "Round {n}", "setup_round": "The deal",
        "phase_supply": "supply", "phase_action": "actions", "phase_navigation": "navigation",
        "phase_over": "game over",
        "seagulls": "Seagulls: {n}",
        "supply_left": "Supply: {n}", "navigation_left": "Navigation deck: {n}",
        "rowing_pile": "Rowing pile: {n}",
        "boat": "The boat (bow to stern)",
        "overboard_list": "In the water",
        "col_character": "Character", "col_size": "Size", "col_survival": "Survival",
        "col_damage": "Damage", "col_status": "Status", "col_front": "Face up", "col_hand": "Hand",
        "status_awake": "awake", "status_unconscious": "unconscious", "status_dead": "dead",
        "status_lost": "lost at sea",
        "rowed": "rowed", "fought": "fought", "parasol": "parasol open", "ghost": "ghost",
        "your_hand": "Your hand",
        "empty": "nothing",
        "love": "You love", "hate": "You hate",
        "decide": "Your decision",
        "waiting_for": "Waiting for {names}",
        "no_moves": "Nothing to do now.",
        "any_time": "Any time",
        "feed": "What happened",
        "scores": "Scores",
        "winners": "Winners: {names}",
        "end_landed": "The boat reached land.", "end_all_dead": "Everyone died.",
        "end_adrift": "The boat drifts: nobody can change anything any more.",
        "part_survival": "survival", "part_treasure": "treasure", "part_love": "love",
        "part_hate": "hate", "total": "total",
        "stage": "Now",
        "stage_supply": "{who} picks from the supply ({n} cards passing)",
        "stage_turn": "{who}'s turn",
        "stage_respond": "{target} answers {who}'s request",
        "stage_respond_swap": "{who} asks {target} to swap seats; {target} allows it or refuses and fights",
        "stage_respond_rob_hand": "{who} wants to rob {target} of a random card from their hand; {target} allows it or resists and fights",
        "stage_respond_rob_card": "{who} wants to rob {target} of the {card} in front of them; {target} allows it or resists and fights",
        "stage_fight": "Fight! {attackers} (strength {a}) against {defenders} (strength {d})",
        "stage_overboard": "Overboard: {who}",
        "stage_thirst": "Thirst: {who}",
        "stage_place": "{who} rowed and keeps cards for the rowing pile",
        "stage_navigate": "{who} navigates ({n} cards)",
        "stage_object": "{who} wants to eat {body}; objecting: {objectors}",
        "stage_other": "{kind}",
        "nav_overboard": "overboard", "nav_thirst": "thirsty", "nav_oar": "oar",
        "nav_fight": "fight", "nav_seagull": "seagull", "nav_all": "everyone",
        "nav_all_except": "everyone but {names}", "nav_none": "nobody",
        "cards_seen": "Cards you see",
        "pass_device": "Hand the device to {name}, then press Show.",
        "show": "Show",
        "must_decide": "must decide",
        "connecting": "Connecting…",
        "reconnecting": "Connection lost; reconnecting…",
        "refused": "Refused",
        "err_bad_token": "This link is not valid.",
        "err_revoked": "This link was replaced by the host and no longer works.",
        "err_not_your_seat": "That is not your seat.",
        "err_stale": "The table changed before your move arrived; look again and choose.",
        "err_illegal": "That move is not allowed",
        "err_malformed": "The message could not be understood.",
        "err_too_large": "The message is too large.",
        "err_limit": "The server is full.",
        "err_over": "The game is over.",
        "err_not_host": "Only the host may do that.",
        "err_bad_request": "The request was not valid.",
        "err_hello_first": "Send the link first.",
        "err_internal": "The server failed to handle that; nothing changed.",
        "err_too_fast": "Too many messages; wait a moment.",
        "err_not_saved": "Your move could not be saved, so it did not happen; here is the table as it is.",
        "err_too_slow": "This page fell behind the table and was disconnected; it reconnects by itself.",
        "err_bad_origin": "Requests from other sites are not accepted.",
        "nobody": "nobody",
        "lang_other": "中文",
        # --- the table at a glance (issue 16): the create page, fights, the end, chat, timer
        "ruleset_classic": "Classic", "about_classic": "The base game for 4 to 6 players.",
        "ruleset_cannibalism": "Cannibalism",
        "about_cannibalism": "Adds Dr. Harter and eating the dead; others may object and fight (4 to 7 players).",
        "ruleset_liquid_courage": "Liquid Courage",
        "about_liquid_courage": "Adds Madame Wong and rum: a drink gives +3 strength and one more thirst (4 to 7 players).",
        "ruleset_shark": "Shark",
        "about_shark": "Every character is one size bigger; the lost become ghosts who may call the shark.",
        "ruleset_quick": "Quick",
        "about_quick": "A shorter game: everyone starts with 1 damage and a seagull is already on the table.",
        "ruleset_single_card_rowing": "Single-card rowing",
        "about_single_card_rowing": "Rowing draws one navigation card instead of two.",
        "ruleset_all_in_one": "All-in-one edition",
        "about_all_in_one": "Cannibalism and Liquid Courage together, 4 to 8 players; a swapped character acts next, rowers keep one card and are always thirsty.",
        "bot_random": "Random bot (any legal move)",
        "bot_heuristic": "Sensible bot (rules of thumb)",
        "bot_search": "Thinking bot (searches ahead; slower)",
        "timer": "Turn timer",
        "timer_off": "none",
        "timer_seconds": "{n} seconds",
        "timer_minutes": "{n} minutes",
        "timer_left": "{name}: {n} s left, then a bot plays the seat",
        "offline": "No connection to the server: buttons are off until it is back.",
        "share": "Share",
        "copied": "Copied",
        "fight_swap": "{actor} wants to swap seats with {target}, who refuses: a fight.",
        "fight_rob_hand": "{actor} wants to rob {target} of a card from their hand, and {target} resists: a fight.",
        "fight_rob_card": "{actor} wants to rob {target} of the {card} in front of them, and {target} resists: a fight.",
        "fight_rob_front": "{actor} wants to rob {target} of a card in front of them, and {target} resists: a fight.",
        "fight_eat": "{actor} wants to eat {target}, and {defenders} object: a fight.",
        "fight_other": "{actor} against {target}: a fight.",
        "fight_sides": "Attacking: {attackers}, strength {a}. Defending: {defenders}, strength {d}.",
        "fight_stakes": "If the attackers win, it happens; a tie goes to the defenders. Every loser takes 1 damage.",
        "fight_you_attack": "You attack (strength {a} against {d}).",
        "fight_you_defend": "You defend (strength {d} against {a}).",
        "fight_you_outside": "You are not in this fight: you may join a side or stay out.",
        "decide_fight_in": "You are in the fight: play a weapon to add to your side's strength, or play no more for now.",
        "decide_fight_out": "Join the attackers or the defenders, or stay out of the fight.",
        "btn_fight_done": "Play no more weapons for now",
        "btn_fight_stay_out": "Stay out of the fight",
        "btn_join_attackers": "Join the attackers: your size {n} adds to their strength ({a} → {to})",
        "btn_join_defenders": "Join the defenders: your size {n} adds to their strength ({d} → {to})",
        "btn_weapon": "Play the {card}: +{n} to your side's strength ({s} → {to})",
        "btn_weapon_outside": "Play the {card} face up (+{n} in a fight you take part in)",
        "loves": "loves", "hates": "hates",
        "col_loves": "Loves", "col_hates": "Hates", "col_why": "Why",
        "why_survived": "survived: survival {n}",
        "why_survived_twice": "survived and loves themself: survival {n}, counted again as love",
        "why_dead": "did not survive: no survival",
        "why_misanthrope": "hates themself: their own survival does not count (they score the size of every other character who died)",
        "why_misanthrope_loves_self": "hates and loves themself: their survival counts once, as love",
        "why_treasure": "treasure in hand and face up: {n}",
        "why_no_treasure": "left the game: no treasure",
        "why_love_alive": "loves {name}, who survived: {n}",
        "why_love_dead": "loves {name}, who did not survive: nothing",
        "why_hate_dead": "hates {name}, who died: their size {n}",
        "why_hate_alive": "hates {name}, who survived: nothing",
        "why_hate_all": "hates themself: the sizes of the others who died, {n}",
        "chat": "Table talk",
        "chat_placeholder": "Say something to the table",
        "chat_send": "Send",
        "chat_host": "the host",
        "err_chat": "The message was not sent",
        "autopass": "Pass for me when I have nothing to play",
        "autopass_note": "After a random moment, the same whatever your hand, so the others learn nothing from the timing.",
        "timed_out": "Your time ran out: a bot plays your seat.",
        "take_back": "Take my seat back",
    },
    "zh": {
        "title": "救生艇",
        "new_game": "新游戏",
        "ruleset": "规则",
        "players": "玩家人数",
        "language": "语言",
        "seat_n": "座位 {n}",
        "ctl_link": "玩家（发给他专属链接）",
        "ctl_host": "在本机轮流玩",
        "ctl_bot": "机器人：{name}",
        "create": "创建游戏",
        "created_note": "把各自的链接发给每位玩家；请保存本页地址：这是你的房主链接。",
        "links": "链接",
        "spectator_link": "观战链接",
        "host_link": "你的房主链接（请保存：就是本页的地址）",
        "copy": "复制",
        "give_to_bot": "让机器人来玩这个座位",
        "new_link": "新链接（旧链接作废）",
        "play_here": "在本机玩这个座位",
        "you_are": "你是{name}",
        "spectating": "你在观战",
        "host_of": "你是本局房主",
        "round": "第 {n} 轮", "setup_round": "发牌",
        "phase_supply": "补给", "phase_action": "行动", "phase_navigation": "航行",
        "phase_over": "游戏结束",
        "seagulls": "海鸥：{n}",
        "supply_left": "补给卡：{n}", "navigation_left": "航行卡牌堆：{n}",
        "rowing_pile": "划船牌堆：{n}",
        "boat": "救生艇（从船头到船尾）",
        "overboard_list": "落水者",
        "col_character": "角色", "col_size": "体型", "col_survival": "生存",
        "col_damage": "伤害", "col_status": "状态", "col_front": "明牌", "col_hand": "手牌",
        "status_awake": "清醒", "status_unconscious": "昏迷", "status_dead": "死亡",
        "status_lost": "葬身大海",
        "rowed": "已划船", "fought": "已打斗", "parasol": "阳伞已打开", "ghost": "鬼魂",
        "your_hand": "你的手牌",
        "empty": "无",
        "love": "你爱", "hate": "你恨",
        "decide": "你的决定",
        "waiting_for": "等待 {names}",
        "no_moves": "现在没有可做的事。",
        "any_time": "随时可做",
        "feed": "发生了什么",
        "scores": "得分",
        "winners": "获胜者：{names}",
        "end_landed": "救生艇靠岸了。", "end_all_dead": "所有人都死了。",
        "end_adrift": "救生艇漂流：再也没有人能改变什么。",
        "part_survival": "生存", "part_treasure": "财宝", "part_love": "爱", "part_hate": "恨",
        "total": "总分",
        "stage": "现在",
        "stage_supply": "{who} 从补给中选牌（传递 {n} 张）",
        "stage_turn": "轮到 {who}",
        "stage_respond": "{target} 回应 {who} 的要求",
        "stage_respond_swap": "{who} 要求和 {target} 换座位；{target} 同意，或拒绝并打斗",
        "stage_respond_rob_hand": "{who} 想随机抢 {target} 的一张手牌；{target} 同意，或反抗并打斗",
        "stage_respond_rob_card": "{who} 想抢 {target} 面前的{card}；{target} 同意，或反抗并打斗",
        "stage_fight": "打斗！{attackers}（力量 {a}）对 {defenders}（力量 {d}）",
        "stage_overboard": "落水：{who}",
        "stage_thirst": "口渴：{who}",
        "stage_place": "{who} 划船后挑选放入划船牌堆的牌",
        "stage_navigate": "{who} 导航（{n} 张牌）",
        "stage_object": "{who} 想吃掉 {body}；反对者：{objectors}",
        "stage_other": "{kind}",
        "nav_overboard": "落水", "nav_thirst": "口渴", "nav_oar": "桨",
        "nav_fight": "打斗", "nav_seagull": "海鸥", "nav_all": "所有人",
        "nav_all_except": "除 {names} 外所有人", "nav_none": "无人",
        "cards_seen": "你看到的牌",
        "pass_device": "把设备交给{name}，然后按“显示”。",
        "show": "显示",
        "must_decide": "需要决定",
        "connecting": "连接中…",
        "reconnecting": "连接断开，正在重连…",
        "refused": "被拒绝",
        "err_bad_token": "此链接无效。",
        "err_revoked": "房主已更换此链接，旧链接不再有效。",
        "err_not_your_seat": "那不是你的座位。",
        "err_stale": "你的操作到达前牌桌已变化；请重新查看后再选择。",
        "err_illegal": "不允许这一步",
        "err_malformed": "无法理解这条消息。",
        "err_too_large": "消息太大。",
        "err_limit": "服务器已满。",
        "err_over": "游戏已结束。",
        "err_not_host": "只有房主可以这样做。",
        "err_bad_request": "请求无效。",
        "err_hello_first": "请先发送链接。",
        "err_internal": "服务器处理失败；什么都没有改变。",
        "err_too_fast": "消息太频繁；请稍等。",
        "err_not_saved": "你的操作未能保存，因此没有生效；这是牌桌现在的样子。",
        "err_too_slow": "此页面跟不上牌桌，已断开连接；它会自动重新连接。",
        "err_bad_origin": "不接受来自其他网站的请求。",
        "nobody": "无人",
        "lang_other": "English",
        # --- 一目了然的牌桌（issue 16）
        "ruleset_classic": "经典", "about_classic": "基础游戏，4 到 6 人。",
        "ruleset_cannibalism": "食人",
        "about_cannibalism": "加入哈特医生和吃掉死者；其他人可以反对并打斗（4 到 7 人）。",
        "ruleset_liquid_courage": "烈酒壮胆",
        "about_liquid_courage": "加入黄夫人和朗姆酒：喝酒力量 +3，并多口渴一次（4 到 7 人）。",
        "ruleset_shark": "鲨鱼",
        "about_shark": "每个角色体型大 1；葬身大海者成为鬼魂，可以召唤鲨鱼。",
        "ruleset_quick": "快速",
        "about_quick": "更短的一局：每人开局有 1 点伤害，桌上已有一只海鸥。",
        "ruleset_single_card_rowing": "单牌划船",
        "about_single_card_rowing": "划船时只抽一张航行牌，而不是两张。",
        "ruleset_all_in_one": "骇浪求生合集版",
        "about_all_in_one": "食人与烈酒壮胆合在一起，4 到 8 人；被换座的角色接着行动，划船者留一张牌并且总会口渴。",
        "bot_random": "随机机器人（任意合法行动）",
        "bot_heuristic": "稳健机器人（凭经验规则）",
        "bot_search": "思考机器人（向前搜索；较慢）",
        "timer": "回合计时",
        "timer_off": "不限时",
        "timer_seconds": "{n} 秒",
        "timer_minutes": "{n} 分钟",
        "timer_left": "{name}：还剩 {n} 秒，之后由机器人代玩",
        "offline": "与服务器的连接断开：恢复前按钮不可用。",
        "share": "分享",
        "copied": "已复制",
        "fight_swap": "{actor} 想和 {target} 换座位，{target} 拒绝：打斗。",
        "fight_rob_hand": "{actor} 想抢 {target} 的一张手牌，{target} 反抗：打斗。",
        "fight_rob_card": "{actor} 想抢 {target} 面前的{card}，{target} 反抗：打斗。",
        "fight_rob_front": "{actor} 想抢 {target} 面前的一张牌，{target} 反抗：打斗。",
        "fight_eat": "{actor} 想吃掉 {target}，{defenders} 反对：打斗。",
        "fight_other": "{actor} 对 {target}：打斗。",
        "fight_sides": "进攻方：{attackers}，力量 {a}。防守方：{defenders}，力量 {d}。",
        "fight_stakes": "进攻方获胜则行动生效；平局防守方胜。输的一方每人受 1 点伤害。",
        "fight_you_attack": "你在进攻（力量 {a} 对 {d}）。",
        "fight_you_defend": "你在防守（力量 {d} 对 {a}）。",
        "fight_you_outside": "你不在这场打斗中：可以加入一方，或置身事外。",
        "decide_fight_in": "你在打斗中：打出武器为你这一方增加力量，或暂时不再出牌。",
        "decide_fight_out": "加入进攻方或防守方，或置身事外。",
        "btn_fight_done": "暂时不再出武器",
        "btn_fight_stay_out": "置身事外",
        "btn_join_attackers": "加入进攻方：你的体型 {n} 加到他们的力量上（{a} → {to}）",
        "btn_join_defenders": "加入防守方：你的体型 {n} 加到他们的力量上（{d} → {to}）",
        "btn_weapon": "打出{card}：你这一方力量 +{n}（{s} → {to}）",
        "btn_weapon_outside": "把{card}明置（参加打斗时力量 +{n}）",
        "loves": "爱", "hates": "恨",
        "col_loves": "爱", "col_hates": "恨", "col_why": "原因",
        "why_survived": "存活：生存值 {n}",
        "why_survived_twice": "存活且爱自己：生存值 {n}，作为爱再计一次",
        "why_dead": "没有存活：没有生存分",
        "why_misanthrope": "恨自己：自己的生存值不计分（改为计算其他每个死去角色的体型）",
        "why_misanthrope_loves_self": "既恨又爱自己：生存值只计一次，算在爱里",
        "why_treasure": "手牌和明牌中的财宝：{n}",
        "why_no_treasure": "已离开游戏：没有财宝分",
        "why_love_alive": "爱 {name}，其存活：{n}",
        "why_love_dead": "爱 {name}，其没有存活：0",
        "why_hate_dead": "恨 {name}，其死去：体型 {n}",
        "why_hate_alive": "恨 {name}，其存活：0",
        "why_hate_all": "恨自己：其他死去角色的体型之和 {n}",
        "chat": "牌桌聊天",
        "chat_placeholder": "对全桌说点什么",
        "chat_send": "发送",
        "chat_host": "房主",
        "err_chat": "消息未发送",
        "autopass": "我无牌可出时替我放弃",
        "autopass_note": "会等待一个随机的时间，与手牌无关，其他人无法从时间上看出什么。",
        "timed_out": "你的时间用完了：机器人在代玩你的座位。",
        "take_back": "收回我的座位",
    },
}


def ui(lang: str) -> dict:
    return UI[lang_of(lang)]


def ruleset_words(name: str, lang: str, description: str | None = None) -> dict:
    """{"name", "about"} of a built-in ruleset in words (its id and the ruleset file's own
    description for one the page has no words for)."""
    words = ui(lang)
    return {"name": words.get("ruleset_" + name, name),
            "about": words.get("about_" + name, description or "")}


def bot_words(name: str, lang: str) -> str:
    return ui(lang).get("bot_" + name, name)


def _list(ids, names_: dict, lang: str) -> str:
    sep = "、" if lang == "zh" else ", "
    return sep.join(names_.get(i, i) for i in ids) if ids else ui(lang)["nobody"]


def stage_words(stage: dict | None, names_: dict, lang: str) -> str | None:
    """The window or fight open now (the view's ``stage``) in words, or None."""
    if not stage:
        return None
    words = ui(lang)
    kind = stage.get("kind")

    def name(c):
        return names_.get(c, c)
    if kind == "supply":
        return words["stage_supply"].format(who=name(stage.get("picker")), n=stage.get("cards_passing"))
    if kind == "turn":
        return words["stage_turn"].format(who=name(stage.get("actor")))
    if kind == "respond":       # what is asked is public (R-SWAP-1, R-ROB-1, R-ROB-2)
        who, target, act, card = name(stage.get("by")), name(stage.get("target")), stage.get("act"), stage.get("card")
        if act == "swap":
            return words["stage_respond_swap"].format(who=who, target=target)
        if act == "rob" and card == "hand":
            return words["stage_respond_rob_hand"].format(who=who, target=target)
        if act == "rob" and type(card) is dict and type(card.get("kind")) is str:
            return words["stage_respond_rob_card"].format(who=who, target=target, card=name(card["kind"]))
        return words["stage_respond"].format(who=who, target=target)
    if kind == "fight":
        strength = stage.get("strength") or {}
        return words["stage_fight"].format(
            attackers=_list(stage.get("attackers"), names_, lang), a=strength.get("attacker", "?"),
            defenders=_list(stage.get("defenders"), names_, lang), d=strength.get("defender", "?"))
    if kind == "overboard":
        return words["stage_overboard"].format(who=_list(stage.get("fallen"), names_, lang))
    if kind == "thirst":
        thirst = stage.get("thirst") or {}
        return words["stage_thirst"].format(
            who=(", " if lang == "en" else "、").join(f"{name(c)} ×{n}" for c, n in thirst.items()))
    if kind == "place":
        return words["stage_place"].format(who=name(stage.get("actor")))
    if kind == "navigate":
        return words["stage_navigate"].format(who=name(stage.get("navigator")), n=stage.get("cards"))
    if kind == "object":
        return words["stage_object"].format(who=name(stage.get("user")), body=name(stage.get("body")),
                                            objectors=_list(stage.get("objectors"), names_, lang))
    return words["stage_other"].format(kind=kind)


# ---------------------------------------------------------------------- fights (R-FIGHT-1..4)

def fight_words(stage: dict, view: dict, seat: str | None, names_: dict, lang: str,
                robbed: str | None = None) -> str:
    """The fight open now, in words: who attacks whom over what (a swap, the card robbed), both
    sides with their strengths, what winning means, and where ``seat`` stands. ``robbed``:
    the card the robbery is over ("hand", a face-up card's id, or None when not known)."""
    return "\n".join(fight_lines(stage, view, names_, lang, robbed) + fight_you(stage, view, seat, lang))


def fight_lines(stage: dict, view: dict, names_: dict, lang: str, robbed: str | None = None) -> list:
    """``fight_words`` but for where its reader stands: what every page shown the fight reads
    alike (its stage and the cards face up are public)."""
    words = ui(lang)
    stake = stage.get("stake") or {}
    actor, target = names_.get(stake.get("actor"), stake.get("actor")), names_.get(stake.get("target"), stake.get("target"))
    act = stake.get("act")
    if act == "swap":
        about = words["fight_swap"].format(actor=actor, target=target)
    elif act == "rob" and robbed == "hand":
        about = words["fight_rob_hand"].format(actor=actor, target=target)
    elif act == "rob" and robbed:
        kind = _front_kind(view, stake.get("target"), robbed)
        about = (words["fight_rob_card"].format(actor=actor, target=target, card=names_.get(kind, kind))
                 if kind else words["fight_rob_front"].format(actor=actor, target=target))
    elif act == "object":                                                   # R-CANN-2
        about = words["fight_eat"].format(actor=actor, target=target,
                                          defenders=_list(stage.get("defenders"), names_, lang))
    else:
        about = words["fight_other"].format(actor=actor, target=target)
    strength = stage.get("strength") or {}
    a, d = strength.get("attacker", "?"), strength.get("defender", "?")
    return [about,
            words["fight_sides"].format(attackers=_list(stage.get("attackers"), names_, lang), a=a,
                                        defenders=_list(stage.get("defenders"), names_, lang), d=d),
            words["fight_stakes"]]


def fight_you(stage: dict, view: dict, seat: str | None, lang: str) -> list:
    """The line of ``fight_words`` that says where ``seat`` stands, if any: attacking,
    defending, or awake and outside (read from the public stage and seats)."""
    if seat is None or seat not in view.get("seats", ()):
        return []
    words = ui(lang)
    strength = stage.get("strength") or {}
    a, d = strength.get("attacker", "?"), strength.get("defender", "?")
    if seat in stage.get("attackers", ()):
        return [words["fight_you_attack"].format(a=a, d=d)]
    if seat in stage.get("defenders", ()):
        return [words["fight_you_defend"].format(a=a, d=d)]
    if (view.get("characters", {}).get(seat) or {}).get("status") == "awake":
        return [words["fight_you_outside"]]
    return []


def fight_decision(stage: dict, seat: str, lang: str) -> str:
    """What ``seat`` decides in the fight, worded for where it stands (R-FIGHT-2)."""
    inside = seat in stage.get("attackers", ()) or seat in stage.get("defenders", ())
    return ui(lang)["decide_fight_in" if inside else "decide_fight_out"]


def _front_kind(view: dict, who, card: str):
    for entry in (view.get("characters", {}).get(who) or {}).get("front", ()):
        if entry.get("id") == card:
            return entry.get("kind")
    return None


def fight_label(action: dict, stage: dict, after: dict | None, view: dict, weapons: dict,
                names_: dict, lang: str) -> str | None:
    """The button of ``action`` during a fight, as its player reads it: an attacker or a
    defender is never told it "stays out"; joining says what it adds to which side, a weapon
    what it adds to the player's side. ``after``: the sides' strengths once the move is made
    (the engine's own count, R-FIGHT-3), None when the move ends the fight; ``weapons``:
    {provision kind: its bonus} from the content. None: the library's own words fit."""
    words = ui(lang)
    by = action.get("by")
    before = stage.get("strength") or {}
    side = ("attacker" if by in stage.get("attackers", ()) else
            "defender" if by in stage.get("defenders", ()) else None)
    kind = action.get("type")
    if kind == "pass":
        return words["btn_fight_done"] if side else words["btn_fight_stay_out"]
    if kind == "join" and after is not None:
        joined = action.get("side")
        was, now = before.get(joined, 0), after.get(joined, 0)
        key = "btn_join_attackers" if joined == "attacker" else "btn_join_defenders"
        return words[key].format(n=now - was, a=was, d=was, to=now)
    if kind == "play":
        me = (view.get("characters", {}).get(by) or {})
        card_kind = next((c.get("kind") for c in me.get("hand", ()) if c.get("id") == action.get("card")), None)
        card = names_.get(card_kind, card_kind)
        if side is not None and after is not None and after.get(side, 0) > before.get(side, 0):
            was, now = before.get(side, 0), after.get(side, 0)
            return words["btn_weapon"].format(card=card, n=now - was, s=was, to=now)
        if side is None and weapons.get(card_kind):
            return words["btn_weapon_outside"].format(card=card, n=weapons[card_kind])
    return None


# ---------------------------------------------------------------------- the end (R-SCORE)

def reveal(view: dict, names_: dict, lang: str) -> dict:
    """At the game's end, every player's love and hate (the view's ``result.reveal``: public
    once the game is over) and why each part of its score is what it is: ``{character:
    {"love", "hate", "why": {part: text}}}``. A reason is given only where the base rules
    (R-SCORE-1..7) account for the part's number; a house rule that scores otherwise keeps
    its number without one."""
    words = ui(lang)
    result = view.get("result") or {}
    chars = view.get("characters", {})
    loyalties = {c: (r.get("love"), r.get("hate")) for c, r in (result.get("reveal") or {}).items()}

    def name(c):
        return names_.get(c, c)

    def survives(c):      # R-SCORE-1: on board and not dead
        entry = chars.get(c) or {}
        return bool(entry.get("on_board", True)) and entry.get("status") not in ("dead", "lost")

    out = {}
    for who, parts in (result.get("breakdown") or {}).items():
        love, hate = loyalties.get(who, (None, None))
        me = chars.get(who) or {}
        why: dict = {}
        misanthrope = hate == who                                           # R-SCORE-6
        if misanthrope:
            expected, text = 0, words["why_misanthrope"]
            if love == who:
                text = words["why_misanthrope_loves_self"]
        elif survives(who):
            expected = me.get("survival", 0)
            text = (words["why_survived_twice"] if love == who else words["why_survived"]).format(n=expected)
        else:
            expected, text = 0, words["why_dead"]
        if parts.get("survival") == expected:
            why["survival"] = text
        if me.get("on_board", True):                                        # R-SCORE-3
            why["treasure"] = words["why_treasure"].format(n=parts.get("treasure", 0))
        elif parts.get("treasure") == 0:
            why["treasure"] = words["why_no_treasure"]
        if love is not None:                                                # R-SCORE-4, -5, -7
            alive = survives(love)
            expected = (chars.get(love) or {}).get("survival", 0) if alive else 0
            text = (words["why_love_alive"] if alive else words["why_love_dead"]).format(name=name(love), n=expected)
            if parts.get("love") == expected:
                why["love"] = text
        if hate is not None:
            if misanthrope:
                expected = sum((e or {}).get("size", 0) for c, e in chars.items()
                               if c != who and not survives(c))
                text = words["why_hate_all"].format(n=expected)
            elif survives(hate):
                expected, text = 0, words["why_hate_alive"].format(name=name(hate))
            else:
                expected = (chars.get(hate) or {}).get("size", 0)
                text = words["why_hate_dead"].format(name=name(hate), n=expected)
            if parts.get("hate") == expected:
                why["hate"] = text
        out[who] = {"love": love, "hate": hate, "why": why}
    return out
