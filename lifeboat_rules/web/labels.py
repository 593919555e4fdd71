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


def describe(item, game, lang: str) -> str:
    """One sentence for an action dict, an event or a decision (the library's words)."""
    import lifeboat_rules as lr
    return lr.describe(item, game, lang)


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
        "copy": "Copy",
        "give_to_bot": "Let a bot play this seat",
        "new_link": "New link (the old one stops working)",
        "play_here": "Play this seat here",
        "you_are": "You are {name}",
        "spectating": "You are watching",
        "host_of": "You host this game",
        "round": "Round {n}",
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
        "copy": "复制",
        "give_to_bot": "让机器人来玩这个座位",
        "new_link": "新链接（旧链接作废）",
        "play_here": "在本机玩这个座位",
        "you_are": "你是{name}",
        "spectating": "你在观战",
        "host_of": "你是本局房主",
        "round": "第 {n} 轮",
        "phase_supply": "补给", "phase_action": "行动", "phase_navigation": "航行",
        "phase_over": "游戏结束",
        "seagulls": "海鸥：{n}",
        "supply_left": "补给牌：{n}", "navigation_left": "航行牌堆：{n}",
        "rowing_pile": "划桨牌堆：{n}",
        "boat": "救生艇（从船头到船尾）",
        "overboard_list": "落水者",
        "col_character": "角色", "col_size": "体型", "col_survival": "生存",
        "col_damage": "伤害", "col_status": "状态", "col_front": "明牌", "col_hand": "手牌",
        "status_awake": "清醒", "status_unconscious": "昏迷", "status_dead": "死亡",
        "status_lost": "葬身大海",
        "rowed": "已划桨", "fought": "已打斗", "parasol": "阳伞已打开", "ghost": "鬼魂",
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
        "stage_fight": "打斗！{attackers}（力量 {a}）对 {defenders}（力量 {d}）",
        "stage_overboard": "落水：{who}",
        "stage_thirst": "口渴：{who}",
        "stage_place": "{who} 划桨后挑选放入划桨牌堆的牌",
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
    },
}


def ui(lang: str) -> dict:
    return UI[lang_of(lang)]


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
    if kind == "respond":
        return words["stage_respond"].format(who=name(stage.get("by")), target=name(stage.get("target")))
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
