"""The web table in a real browser: headless Chromium driven by Playwright, against
``lifeboat-rules serve`` started as its own process on 127.0.0.1.

Whole games with several seats in separate browser contexts (a host playing two seats
hot-seat, a player with a link, a spectator, a bot), a reload mid-game, a server restart
mid-game (the game goes on from SQLite), a forged link, a replaced link and a move sent for
another seat. Screenshots go to a temporary folder (printed; LIFEBOAT_SCREENSHOTS names
another). Without Playwright or Chromium these tests are skipped with the reason; CI sets
LIFEBOAT_REQUIRE_BROWSER=1, which makes that a failure.
"""

from __future__ import annotations

import json
import os
import random
import re
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request

import pytest

from web_support import CHROMIUM, CHROMIUM_FLAGS, missing_browser, missing_cjk_font, require

pytestmark = pytest.mark.slow

require(missing_browser())

from playwright.sync_api import expect, sync_playwright  # noqa: E402

from lifeboat_rules.web.labels import UI  # noqa: E402

WAIT = 20_000          # ms: what a page may take to show a pushed state


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class LiveServer:
    """``lifeboat-rules serve`` in its own process, stopped and started again at will."""

    def __init__(self, db: str, log: str):
        self.db = db
        self.log = log
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.process = None

    def start(self) -> None:
        with open(self.log, "ab") as out:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "lifeboat_rules.cli", "serve", "--port", str(self.port),
                 "--db", self.db], stdout=out, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 30
        while True:
            try:
                with urllib.request.urlopen(self.url + "/api/setup", timeout=2):
                    return
            except OSError:
                if self.process.poll() is not None or time.monotonic() > deadline:
                    with open(self.log, encoding="utf-8", errors="replace") as log:
                        raise RuntimeError("the server did not start:\n" + log.read())
                time.sleep(0.1)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(timeout=20)
        self.process = None


@pytest.fixture(scope="module")
def shots():
    folder = os.environ.get("LIFEBOAT_SCREENSHOTS") or tempfile.mkdtemp(prefix="lifeboat-screens-")
    os.makedirs(folder, exist_ok=True)
    print(f"\nscreenshots: {folder}")
    return folder


@pytest.fixture
def server(tmp_path):
    live = LiveServer(str(tmp_path / "tables.sqlite3"), str(tmp_path / "server.log"))
    live.start()
    yield live
    live.stop()


@pytest.fixture(scope="module")
def browser():
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_FLAGS)
        yield chromium
        chromium.close()


PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True,
         "device_scale_factor": 1}


def open_page(browser, url, phone: bool = False):
    """A page in a browser context of its own (its own storage: another player's machine);
    ``phone``: a 390x844 touch screen."""
    context = (browser.new_context(**PHONE) if phone
               else browser.new_context(viewport={"width": 1200, "height": 900}))
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.errors = errors
    page.goto(url)
    return page


def version(page) -> int:
    return int(page.evaluate("Number(document.body.dataset.version || 0)"))


def log_size(page) -> int:
    return int(page.evaluate("Number(document.body.dataset.logSize || -1)"))


def wait_state(page, after: int = 0) -> None:
    """Until the page has shown a state newer than its version ``after``."""
    page.wait_for_function("v => Number(document.body.dataset.version || 0) > v", arg=after, timeout=WAIT)


def wait_any_state(pages, versions: list) -> None:
    """Until one of the pages has shown a state newer than its version in ``versions``."""
    deadline = time.monotonic() + WAIT / 1000
    while not any(version(page) > v for page, v in zip(pages, versions)):
        assert time.monotonic() < deadline, "no page was sent a new state"
        pages[0].wait_for_timeout(50)


def wait_synced(pages, size: int) -> None:
    """Until every page shows the same table, at log size ``size`` or later: the server's
    bots answer a person's move after it, in pushes of their own, so the pages agree once
    they have all stopped changing."""
    for page in pages:
        page.wait_for_function("n => Number(document.body.dataset.logSize) >= n", arg=size, timeout=WAIT)
    deadline = time.monotonic() + WAIT / 1000
    last = None
    while True:
        sizes = [log_size(page) for page in pages]
        if len(set(sizes)) == 1 and sizes == last:
            return
        assert time.monotonic() < deadline, f"the pages never came to one table: log sizes {sizes}"
        last = sizes
        time.sleep(0.2)


def create_game(browser, server, seats, lang="en", shots=None, phone=False):
    """The host creates a game on the page at /; returns the host's page."""
    page = open_page(browser, server.url + "/", phone=phone)
    page.wait_for_selector("body[data-ready='1']")
    page.select_option("#ruleset", "classic")
    page.select_option("#players", str(len(seats)))
    page.select_option("#lang", lang)
    for number, controller in enumerate(seats):
        page.select_option(f"select[data-seat='{number}']", controller)
    if shots:
        page.screenshot(path=os.path.join(shots, f"create-{lang}.png"))
    page.click("#create-button")
    page.wait_for_url(re.compile(r"/table#"))
    wait_state(page)
    return page


def links(host_page) -> dict:
    """{character: link} of the seats played through links, and "spectator"."""
    out = {}
    for row in host_page.query_selector_all("#links li.link-row"):
        anchor = row.query_selector("a.link")
        key = row.get_attribute("data-seat") or ("spectator" if row.get_attribute("data-spectator") else None)
        if anchor and key:
            out[key] = anchor.get_attribute("href")
    return out


def uncover(page) -> None:
    """Hot-seat: bring up the seat that must decide and press Show."""
    if page.query_selector("#hotseat:not([hidden])") is None:
        return
    current = page.get_attribute("body", "data-seat")
    deciding = [b.get_attribute("data-seat") for b in page.query_selector_all("#hotseat button[data-deciding]")]
    if deciding and current not in deciding:
        before = version(page)
        page.click(f"#hotseat button[data-seat='{deciding[0]}']")
        wait_state(page, before)
    if page.is_visible("#curtain"):
        page.click("#curtain-show")


def no_sideways_scrolling(page) -> None:
    width, inner = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
    assert width <= inner, f"the page is {width} px wide on a {inner} px screen"


def in_a_fight(page) -> bool:
    return "fight" in page.inner_text("#stage") and page.locator("#choices button.choice").count() > 0


def scores(page) -> dict:
    """{character: (its parts' points, its total)} as the end shows them."""
    out = {}
    for card in page.query_selector_all("#scores li.score"):
        points = [int(p.inner_text()) for p in card.query_selector_all(".part .points")]
        total = int(card.query_selector(".total").inner_text().split()[-1])
        out[card.get_attribute("data-seat")] = (points, total)
    return out


def choose(page, rng) -> bool:
    """Click one of the page's decision buttons at random; False when it has none."""
    uncover(page)
    buttons = page.locator("#choices button.choice")
    count = buttons.count()
    if count == 0:
        return False
    before = version(page)
    buttons.nth(rng.randrange(count)).click()
    wait_state(page, before)
    assert page.is_hidden("#refusal"), page.inner_text("#refusal")
    return True


def play(players, watchers, rng, moves: int, between=None) -> int:
    """Up to ``moves`` decisions by the players' pages (bots play theirs on the server);
    ``between(n)`` runs after the n-th. Returns the number of decisions made."""
    everyone = players + watchers
    made = 0
    idle = 0
    while made < moves:
        if players[0].get_attribute("body", "data-over") == "1":
            break
        acted = False
        seen = [version(page) for page in players]
        for page in players:
            if choose(page, rng):
                made += 1
                acted = True
                wait_synced(everyone, log_size(page))
                if between:
                    between(made)
                break
        if not acted:
            # a move is answered before the bots it woke have moved: their states follow
            idle += 1
            assert idle < 100, "a game not over where no page offers a decision"
            wait_any_state(players, seen)
        else:
            idle = 0
    return made


def test_whole_game_with_hot_seat_link_spectator_reload_and_restart(browser, server, shots):
    rng = random.Random(5)
    host = create_game(browser, server, ["host", "host", "link", "bot:random"], shots=shots)
    assert host.is_visible("#hotseat")
    found = links(host)
    seat_links = {k: v for k, v in found.items() if k != "spectator"}
    assert len(seat_links) == 1 and "spectator" in found
    (link_seat, link), = seat_links.items()
    player = open_page(browser, link)
    spectator = open_page(browser, found["spectator"])
    for page in (player, spectator):
        wait_state(page)
    assert player.get_attribute("body", "data-seat") == link_seat
    assert spectator.inner_text("#who") == UI["en"]["spectating"]
    assert spectator.query_selector_all("#hand li") == [] and spectator.is_hidden("#mine")
    host.screenshot(path=os.path.join(shots, "host-start.png"), full_page=True)

    pictured = []

    def faults(made: int) -> None:
        if not pictured and in_a_fight(player):      # the picture of README and docs/web.md
            player.screenshot(path=os.path.join(shots, "web-table.png"), full_page=True)
            pictured.append(made)
        if made == 12:              # a player reloads the page: the same seat, the whole feed
            feed = player.locator("#feed li").count()
            player.reload()
            wait_state(player)
            assert player.get_attribute("body", "data-seat") == link_seat
            assert player.locator("#feed li").count() == feed
            # it opens at the newest entry, in the current round's group, earlier rounds folded
            at_end = player.evaluate("(f => f.scrollTop + f.clientHeight >= f.scrollHeight - 2)(document.getElementById('feed'))")
            assert at_end
            groups = player.locator("#feed details.round")
            assert groups.last.get_attribute("open") is not None
            assert groups.last.get_attribute("data-round") == str(player.evaluate("Number(document.body.dataset.round)"))
            assert all(g.get_attribute("open") is None for g in groups.all()[:-1])
            player.screenshot(path=os.path.join(shots, "player-after-reload.png"), full_page=True)
        if made == 25:              # the server stops and starts again on the same file
            size = log_size(host)
            server.stop()
            expect(player.locator("#connection")).to_have_text(UI["en"]["reconnecting"], timeout=WAIT)
            # while the server is away every control is off, and the page says why
            expect(player.locator("#offline")).to_have_text(UI["en"]["offline"], timeout=WAIT)
            assert all(b.is_disabled() for b in player.query_selector_all("#table button, #table input"))
            server.start()
            for page in (host, player, spectator):
                expect(page.locator("#connection")).to_have_text("", timeout=WAIT)
            wait_synced([host, player, spectator], size)
            assert player.is_hidden("#offline")

    made = play([host, player], [spectator], rng, 3000, between=faults)
    assert made > 25, "the game ended before the reload and the restart were tried"
    for page in (host, player, spectator):
        expect(page.locator("body")).to_have_attribute("data-over", "1", timeout=WAIT)
        expect(page.locator("#result")).to_be_visible()
        assert page.locator("#scores li.score").count() == 4
        assert page.inner_text("#winners").startswith(UI["en"]["winners"].split("{")[0])
        assert page.errors == []
    for parts, total in scores(spectator).values():     # survival + treasure + love + hate = total
        assert len(parts) == 4 and sum(parts) == total
    # every player's love and hate, and a reason beside every part
    assert spectator.locator("#scores .loyalties").count() == 4
    assert spectator.locator("#scores .part .why").count() == 16
    assert pictured, "no fight was shown to the player in the whole game"
    spectator.screenshot(path=os.path.join(shots, "spectator-end.png"), full_page=True)
    player.screenshot(path=os.path.join(shots, "player-end.png"), full_page=True)


def test_forged_replaced_and_foreign_moves_are_refused_in_the_browser(browser, server, shots):
    host = create_game(browser, server, ["link", "link", "bot:random", "bot:random"])
    seat_links = {k: v for k, v in links(host).items() if k != "spectator"}
    (seat_a, link_a), (seat_b, link_b) = seat_links.items()
    page_a = open_page(browser, link_a)
    wait_state(page_a)
    size = log_size(page_a)

    # no link at all: the page says so in the browser's language (no words from the server yet)
    for locale, words in (("en-US", "No link: open the address your host sent you."),
                          ("zh-CN", "没有链接：请打开房主发给你的地址。")):
        context = browser.new_context(locale=locale)
        bare = context.new_page()
        bare.goto(server.url + "/table")
        expect(bare.locator("#refusal")).to_have_text(words, timeout=WAIT)
        context.close()

    forged = open_page(browser, server.url + "/table#" + "F" * 43)
    expect(forged.locator("#refusal")).to_have_text(UI["en"]["err_bad_token"], timeout=WAIT)
    assert forged.is_hidden("#table")
    forged.screenshot(path=os.path.join(shots, "forged-link.png"))

    # from A's page, a hand-made socket with A's link sends a move for B's seat
    answers = page_a.evaluate("""([token, other]) => new Promise((resolve) => {
        const got = [];
        const ws = new WebSocket("ws://" + location.host + "/ws");
        ws.onopen = () => ws.send(JSON.stringify({type: "hello", token}));
        ws.onmessage = (event) => {
            const message = JSON.parse(event.data);
            got.push(message.type === "state" ? {type: "state", offer: message.offer} : message);
            if (got.length === 1)
                ws.send(JSON.stringify({type: "move", seat: other, offer: message.offer,
                                        action: {by: other, type: "pass"}}));
            else { ws.close(); resolve(got); }
        };
    })""", [link_a.split("#", 1)[1], seat_b])
    assert answers[0]["type"] == "state"
    assert answers[1]["code"] == "not_your_seat"
    assert log_size(page_a) == size

    # the host replaces A's link: A's open page is cut off with the reason
    before = version(host)
    host.click(f"#links li[data-seat='{seat_a}'] button.new-link")
    wait_state(host, before)
    expect(page_a.locator("#refusal")).to_have_text(UI["en"]["err_revoked"], timeout=WAIT)
    assert links(host)[seat_a] != link_a
    again = open_page(browser, link_a)
    expect(again.locator("#refusal")).to_have_text(UI["en"]["err_revoked"], timeout=WAIT)
    fresh = open_page(browser, links(host)[seat_a])
    wait_state(fresh)
    assert fresh.get_attribute("body", "data-seat") == seat_a
    assert log_size(fresh) == size


def test_a_game_in_chinese_from_creation_to_scores(browser, server, shots):
    require(missing_cjk_font())          # the screenshots must be readable
    rng = random.Random(8)
    host = create_game(browser, server, ["host", "bot:random", "bot:random", "bot:random"],
                       lang="zh", shots=shots)
    assert host.inner_text("#title") == UI["zh"]["title"]
    assert host.evaluate("document.documentElement.lang") == "zh-Hans"
    labels = host.locator("#choices button.choice").all_inner_texts()
    assert labels and all(re.search(r"[\u4e00-\u9fff]", label) for label in labels)
    # Chinese marks between a label and what it labels, never the English ": "
    loyalty = host.inner_text("#loyalty")
    assert loyalty.startswith(UI["zh"]["love"] + "：") and UI["zh"]["hate"] + "：" in loyalty
    assert ": " not in loyalty
    host.screenshot(path=os.path.join(shots, "web-table-zh.png"), full_page=True)
    play([host], [], rng, 3000)
    expect(host.locator("#result")).to_be_visible()
    assert host.inner_text("#winners").startswith("获胜者")
    # the language button switches the page to English and back
    before = version(host)
    host.click("#lang-toggle")
    wait_state(host, before)
    assert host.inner_text("#title") == UI["en"]["title"]
    assert host.errors == []


def test_a_phone_plays_a_whole_game_without_scrolling_sideways(browser, server, shots):
    """390x844, the size of a common phone: the creation page, the table mid-game and in a
    fight, the host's links with Copy and Share, and the end all fit the screen's width."""
    rng = random.Random(11)
    page = open_page(browser, server.url + "/", phone=True)
    page.wait_for_selector("body[data-ready='1']")
    no_sideways_scrolling(page)
    about = page.inner_text("#ruleset-about")
    assert about == UI["en"]["about_classic"]
    page.select_option("#ruleset", "shark")
    assert page.inner_text("#ruleset-about") == UI["en"]["about_shark"]
    assert page.locator("#ruleset option").all_inner_texts()[:1] != ["classic"]
    page.close()
    host = create_game(browser, server, ["host", "link", "bot:heuristic", "bot:random"], phone=True)
    host.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=server.url)
    no_sideways_scrolling(host)
    found = links(host)
    (link_seat, link), = [(k, v) for k, v in found.items() if k != "spectator"]
    for key in (link_seat, "spectator"):
        row = host.locator(f"#links li[data-seat='{key}']" if key != "spectator" else "#links li[data-spectator]")
        assert row.locator("button.copy").is_visible() and row.locator("button.share").is_visible()
    host.click(f"#links li[data-seat='{link_seat}'] button.copy")
    expect(host.locator(f"#links li[data-seat='{link_seat}'] button.copy")).to_have_text(UI["en"]["copied"], timeout=WAIT)
    assert host.evaluate("navigator.clipboard.readText()") == link
    assert host.locator(".link-row .controller").all_inner_texts()[2].strip() == UI["en"]["bot_heuristic"]
    player = open_page(browser, link, phone=True)
    wait_state(player)
    fight = []

    def look(made: int) -> None:
        for page in (host, player):
            no_sideways_scrolling(page)
        if not fight and in_a_fight(player):      # the phone's picture in docs/web.md
            player.screenshot(path=os.path.join(shots, "web-phone.png"), full_page=True)
            fight.append(made)

    play([host, player], [], rng, 3000, between=look)
    for page in (host, player):
        expect(page.locator("#result")).to_be_visible()
        no_sideways_scrolling(page)
        assert page.errors == []
    player.screenshot(path=os.path.join(shots, "web-end.png"), full_page=True)


def test_table_talk_shows_as_text_on_every_page(browser, server, shots):
    host = create_game(browser, server, ["link", "link", "bot:random", "bot:random"])
    found = links(host)
    seats = [k for k in found if k != "spectator"]
    speaker = open_page(browser, found[seats[0]])
    listener = open_page(browser, found[seats[1]])
    spectator = open_page(browser, found["spectator"])
    for page in (speaker, listener, spectator):
        wait_state(page)
    dialogs = []
    for page in (speaker, listener, spectator, host):
        page.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
    attack = '<img src=x onerror="alert(1)"><b>bold</b> deal?'
    speaker.fill("#chat-text", attack)
    speaker.press("#chat-text", "Enter")
    for page in (speaker, listener, spectator, host):
        expect(page.locator("#chat li.said .text").last).to_have_text(attack, timeout=WAIT)
        assert page.locator("#chat img, #chat b").count() == 0
    assert spectator.is_hidden("#chat-form") and speaker.is_visible("#chat-form")
    assert dialogs == []
    listener.reload()                 # kept with the game
    wait_state(listener)
    expect(listener.locator("#chat li.said .text")).to_have_text([attack], timeout=WAIT)


def test_a_refused_move_leaves_its_buttons_working(browser, server, shots):
    """A click turns the choice buttons off until the answer comes. A refusal that comes with no
    new state (``too_fast``: a page that sent more than its rate) must turn them on again, or
    the player is stuck until a reload. The page's socket is routed here: its first move is
    answered with that refusal and never reaches the server, and the move after goes through."""
    host = create_game(browser, server, ["link", "bot:random", "bot:random", "bot:random"])
    seat, link = next((k, v) for k, v in links(host).items() if k != "spectator")
    held = {"moves": 0}

    def route(ws):
        table = ws.connect_to_server()

        def from_page(message):
            data = json.loads(message)
            if data.get("type") == "move":
                held["moves"] += 1
                if held["moves"] == 1:
                    ws.send(json.dumps({"type": "refused", "code": "too_fast",
                                        "message": UI["en"]["err_too_fast"]}))
                    return
            table.send(message)
        ws.on_message(from_page)
        table.on_message(lambda message: ws.send(message))

    context = browser.new_context(viewport={"width": 1200, "height": 900})
    page = context.new_page()
    page.route_web_socket(re.compile(r".*/ws$"), route)
    page.goto(link)
    wait_state(page)
    buttons = page.locator("#choices button.choice")
    expect(buttons.first).to_be_visible(timeout=WAIT)      # the bots play until the person decides
    size = log_size(page)
    buttons.first.click()
    expect(page.locator("#refusal")).to_have_text(UI["en"]["err_too_fast"], timeout=WAIT)
    expect(buttons.first).to_be_enabled(timeout=WAIT)
    assert log_size(page) == size and held["moves"] == 1
    page.screenshot(path=os.path.join(shots, "refused-move.png"))
    before = version(page)
    buttons.first.click()                                    # now it goes through
    wait_state(page, before)
    assert held["moves"] == 2
    page.wait_for_function("n => Number(document.body.dataset.logSize) > n", arg=size, timeout=WAIT)
    context.close()
