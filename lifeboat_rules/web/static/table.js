// The table page: one seat's view (or a spectator's, or a hot-seat host's), pushed over a
// WebSocket. The link's secret is the address's fragment (#...), which browsers never send
// in requests or referrers; the page presents it in its first WebSocket message.
"use strict";
(function () {
  let token = location.hash.slice(1);
  const $ = (id) => document.getElementById(id);
  const FATAL = new Set([4001, 4002, 4004, 4005]);
  let ui = null, state = null, socket = null, fatal = false, retries = 0;
  let held = null;                  // the last state as the server sent it (diffs apply to it)
  let lang = localStorage.getItem("lifeboat.lang");
  let revealed = null;              // hot-seat: the seat uncovered on this device
  const seatKey = "lifeboat.seat." + token;
  let version = 0;

  function word(key, values) {
    let text = (ui && ui[key]) || key;
    for (const [k, v] of Object.entries(values || {})) text = text.split("{" + k + "}").join(v);
    return text;
  }
  const name = (id) => (state && state.names[id]) || id;
  // a label and what it labels, items of a list: with the marks of the page's language
  const colon = () => (lang === "zh" ? "：" : ": ");
  const listed = (items) => items.join(lang === "zh" ? "、" : ", ");
  const names = (ids) => (ids && ids.length ? listed(ids.map(name)) : word("nobody"));
  function el(tag, text, cls) {
    const e = document.createElement(tag);
    if (text !== undefined && text !== null) e.textContent = text;
    if (cls) e.className = cls;
    return e;
  }

  function showRefusal(text) {
    $("refusal").textContent = text;
    $("refusal").hidden = !text;
  }

  // ---------------------------------------------------------------- connection
  function connect() {
    if (!token) {         // (no words from the server without a link: the browser's language)
      showRefusal((navigator.language || "").startsWith("zh") ? "没有链接：请打开房主发给你的地址。"
                                                                : "No link: open the address your host sent you.");
      return;
    }
    $("connection").textContent = retries ? word("reconnecting") : word("connecting");
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    socket = new WebSocket(scheme + "//" + location.host + "/ws");
    socket.onopen = () => {
      const hello = {type: "hello", token: token, changes: true};
      held = null;
      if (lang) hello.lang = lang;
      const seat = sessionStorage.getItem(seatKey);
      if (seat) hello.seat = seat;
      socket.send(JSON.stringify(hello));
    };
    socket.onmessage = (event) => {
      const message = JSON.parse(event.data);
      if (message.type === "refused") {
        showRefusal(message.message);
        // a refused move changed nothing: its buttons work again (a refusal that comes with
        // a fresh state, as a stale move's does, draws them anew anyway)
        for (const b of document.querySelectorAll("button.choice")) if (!b.dataset.offline) b.disabled = false;
      }
      else if (message.type === "state") { held = message; retries = 0; render(Object.assign({}, held)); setOnline(true); }
      else if (message.type === "diff") {
        // the state as changes to the one this page holds; one it does not hold: ask again
        if (!held || held.v !== message.base) {
          if (held) send({type: "resync"});       // once: the whole state comes next
          held = null;
          return;
        }
        held = applyChanges(held, message);
        render(Object.assign({}, held));
      }
    };
    socket.onclose = (event) => {
      socket = null;
      setOnline(false);
      if (FATAL.has(event.code)) {
        fatal = true;
        for (const id of ["table", "host-panel", "hotseat", "curtain", "offline"]) $(id).hidden = true;
        $("connection").textContent = "";
        return;
      }
      if (fatal) return;
      retries += 1;
      $("connection").textContent = ui ? word("reconnecting") : "…";
      setTimeout(connect, Math.min(250 * 2 ** retries, 4000));
    };
  }

  // A diff: keys dropped and values set, each at a path of keys into the state.
  function applyChanges(old, diff) {
    const out = structuredClone(old);
    const at = (path) => { let node = out; for (const key of path.slice(0, -1)) node = node[key]; return node; };
    for (const path of diff.del) delete at(path)[path[path.length - 1]];
    for (const [path, value] of diff.set) at(path)[path[path.length - 1]] = value;
    return out;
  }

  function send(message) {
    if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message));
  }

  // While the server is unreachable every control is off (a click would be lost), and a
  // banner says why; the next state from the server turns them on again.
  function setOnline(online) {
    document.body.dataset.online = online ? "1" : "0";
    $("offline").hidden = online;
    if (!online) $("offline").textContent = ui ? word("offline") : "…";
    for (const control of document.querySelectorAll("#table button, #table input, #host-panel button, #curtain button, #hotseat button")) {
      if (!online && !control.disabled) { control.disabled = true; control.dataset.offline = "1"; }
      else if (online && control.dataset.offline) { control.disabled = false; delete control.dataset.offline; }
    }
  }

  // ---------------------------------------------------------------- rendering
  function render(message) {
    if (!message.names && state) message.names = state.names;   // sent with a full state only
    if (message.table && message.table.host && message.table.host !== token) {
      token = message.table.host;          // the host replaced its own link: this page goes on with it
      history.replaceState(null, "", "#" + token);
    }
    if (message.ui) ui = message.ui;
    lang = message.lang;
    state = message;
    version += 1;
    const view = state.view;
    document.documentElement.lang = lang === "zh" ? "zh-Hans" : "en";
    document.title = word("title");
    $("title").textContent = word("title");
    $("connection").textContent = "";
    $("lang-toggle").textContent = word("lang_other");
    $("lang-toggle").hidden = false;
    for (const e of document.querySelectorAll("[data-ui]")) e.textContent = word(e.dataset.ui);
    if (state.seat) sessionStorage.setItem(seatKey, state.seat);
    $("who").textContent = state.seat ? word("you_are", {name: name(state.seat)})
      : state.role === "host" ? word("host_of") : word("spectating");

    renderHotseat();
    renderStatus(view);
    $("stage").textContent = state.stage_text || "";
    const waiting = state.waiting.filter((c) => c !== state.seat);
    $("waiting").textContent = waiting.length && !view.over ? word("waiting_for", {names: names(waiting)}) : "";
    startTimer();
    renderDecision(view);
    renderMine(view);
    renderBoat(view);
    renderResult(view);
    renderHost();
    renderFeed();
    renderChat();
    applyCurtain();
    // the newest entries in view, once the table is shown (a hidden list has no height)
    if (state.feed.length || state.feed_from === 0) $("feed").scrollTop = $("feed").scrollHeight;
    if (state.chat.length) $("chat").scrollTop = $("chat").scrollHeight;
    document.body.dataset.version = String(version);
    document.body.dataset.logSize = String(state.log_size);
    document.body.dataset.over = view.over ? "1" : "0";
    document.body.dataset.round = String(view.round);
    document.body.dataset.seat = state.seat || "";
  }

  // Hot-seat: when the host's browser shows another seat, the table is covered until the
  // player of that seat presses Show.
  function applyCurtain() {
    const covered = state.role === "host" && state.held.length > 1 && !!state.seat && revealed !== state.seat;
    $("curtain").hidden = !covered;
    $("table").hidden = covered;
    if (covered) {
      $("curtain-text").textContent = word("pass_device", {name: name(state.seat)});
      $("curtain-show").textContent = word("show");
    }
  }

  function renderHotseat() {
    const nav = $("hotseat");
    nav.replaceChildren();
    nav.hidden = !(state.role === "host" && state.held.length > 0);
    if (nav.hidden) return;
    for (const seat of state.held) {
      const deciding = state.waiting.includes(seat);
      const b = el("button", name(seat) + (deciding ? " ⚑ " + word("must_decide") : ""), "seat-tab");
      b.type = "button";
      b.dataset.seat = seat;
      if (deciding) b.dataset.deciding = "1";
      if (seat === state.seat) b.setAttribute("aria-current", "true");
      b.onclick = () => { revealed = null; showRefusal(""); send({type: "look", seat: seat}); };
      nav.append(b);
    }
  }

  function renderStatus(view) {
    const bar = $("status-bar");
    bar.replaceChildren(
      el("span", word("ruleset_" + view.ruleset), "ruleset"),
      el("span", word("round", {n: view.round})),
      el("span", word("phase_" + view.phase)),
      el("span", word("seagulls", {n: view.seagulls})),
      el("span", word("supply_left", {n: view.supply_size})),
      el("span", word("navigation_left", {n: view.navigation_size})),
      el("span", word("rowing_pile", {n: view.rowing_pile_size})));
  }

  function navCard(card) {
    const who = (v) => v === "all" ? word("nav_all")
      : (v && v.all_except) ? word("nav_all_except", {names: names(v.all_except)})
      : (v && v.length) ? names(v) : word("nav_none");
    const parts = [word("nav_overboard") + colon() + who(card.overboard), word("nav_thirst") + colon() + who(card.thirst)];
    if (card.oar) parts.push(word("nav_oar"));
    if (card.fight) parts.push(word("nav_fight"));
    if (card.seagull) parts.push(word("nav_seagull") + " " + (card.seagull > 0 ? "+" : "") + card.seagull);
    return parts.join(" · ");
  }

  function renderDecision(view) {
    $("decide").hidden = !state.seat || view.over;
    $("now").hidden = !state.stage_text && !$("waiting").textContent && !state.timer;
    $("take-back").hidden = !state.timed_out;
    $("autopass-label").hidden = !state.seat || view.over;
    $("autopass").checked = !!state.autopass;
    $("decision").textContent = state.decision_text || (state.seat && !view.over && !state.choices.length ? word("no_moves") : "");
    const seen = $("cards-seen");
    seen.replaceChildren();
    const cards = view.decision && view.decision.cards;
    if (cards && cards.length) {
      seen.append(el("h3", word("cards_seen")));
      const list = el("ul");
      for (const card of cards) list.append(el("li", "kind" in card ? name(card.kind) : navCard(card)));
      seen.append(list);
    }
    const main = $("choices"), extra = $("any-time");
    main.replaceChildren(); extra.replaceChildren();
    const anyTime = state.choices.filter((c) => c.any_time);
    if (anyTime.length) extra.append(el("h3", word("any_time")));
    state.choices.forEach((choice) => {
      const b = el("button", choice.label, "choice");
      b.type = "button";
      if (choice.any_time) b.dataset.anyTime = "1";
      b.onclick = () => {
        for (const other of document.querySelectorAll("button.choice")) other.disabled = true;
        showRefusal("");
        send({type: "move", seat: state.seat, offer: state.offer, action: choice.action});
      };
      (choice.any_time ? extra : main).append(b);
    });
  }

  function renderMine(view) {
    const me = state.seat && view.characters[state.seat];
    $("mine").hidden = !me;
    if (!me) return;
    $("loyalty").textContent = view.love ? word("love") + colon() + name(view.love) + " · " + word("hate") + colon() + name(view.hate) : "";
    const hand = $("hand");
    hand.replaceChildren();
    for (const card of me.hand || []) hand.append(el("li", name(card.kind)));
    if (!(me.hand || []).length) hand.append(el("li", word("empty"), "empty"));
  }

  // The boat, bow to stern, one card per seat that wraps to the screen's width; the
  // characters in the water (lost) below it.
  function renderBoat(view) {
    const boat = $("boat");
    boat.replaceChildren();
    for (const id of view.seats) boat.append(seatCard(view, id));
    const off = Object.keys(view.characters).filter((c) => !view.seats.includes(c));
    $("in-water").textContent = off.length ? word("overboard_list") + colon() + names(off) : "";
  }

  function seatCard(view, id) {
    const c = view.characters[id];
    const li = el("li", null, "seat-card status-" + c.status);
    li.dataset.seat = id;
    if (id === state.seat) li.classList.add("you");
    if (state.waiting.includes(id) && !view.over) li.classList.add("deciding");
    li.append(el("strong", name(id) + (id === state.seat ? " ★" : "") + (state.waiting.includes(id) && !view.over ? " ⚑" : "")));
    const stats = [word("col_size") + " " + c.size, word("col_survival") + " " + c.survival,
                   word("col_damage") + " " + c.damage, word("status_" + c.status),
                   word("col_hand") + " " + c.hand_size];
    li.append(el("span", stats.join(" · "), "stats"));
    if (c.front.length) li.append(el("span", word("col_front") + colon() + listed(c.front.map((f) => name(f.kind))), "front"));
    const marks = [];
    if (c.rowed) marks.push(word("rowed"));
    if (c.fought) marks.push(word("fought"));
    if (c.parasol_active) marks.push(word("parasol"));
    if (c.ghost) marks.push(word("ghost"));
    if (marks.length) li.append(el("span", listed(marks), "marks"));
    return li;
  }

  // The end: every player's love and hate, each part of the score with its reason.
  function renderResult(view) {
    const result = view.result;
    $("result").hidden = !result;
    if (!result) return;
    $("end").textContent = word("end_" + result.end);
    const list = $("scores");
    list.replaceChildren();
    const reveal = state.reveal || {};
    const ranked = Object.keys(result.scores).sort((a, b) => result.scores[b] - result.scores[a]);
    for (const c of ranked) {
      const li = el("li", null, "score");
      li.dataset.seat = c;
      if (result.winners.includes(c)) li.classList.add("winner");
      const head = el("div", null, "score-head");
      head.append(el("strong", name(c)), el("span", word("total") + " " + result.scores[c], "total"));
      li.append(head);
      const mine = reveal[c] || {why: {}};
      li.append(el("div", word("loves") + " " + (mine.love ? name(mine.love) : "?") + " · "
                          + word("hates") + " " + (mine.hate ? name(mine.hate) : "?"), "loyalties"));
      const parts = el("ul", null, "parts");
      for (const [part, points] of Object.entries(result.breakdown[c] || {})) {
        const row = el("li", null, "part");
        row.dataset.part = part;
        row.append(el("span", word("part_" + part), "part-name"), el("span", String(points), "points"));
        if (mine.why[part]) row.append(el("span", mine.why[part], "why"));
        parts.append(row);
      }
      li.append(parts);
      list.append(li);
    }
    $("winners").textContent = word("winners", {names: names(result.winners)});
  }

  function linkBox(label, secret) {
    const box = el("div", null, "link-box");
    if (!secret) return box;
    const url = location.origin + "/table#" + secret;
    const a = el("a", url, "link");
    a.href = url;
    const copy = el("button", word("copy"), "copy");
    copy.type = "button";
    copy.onclick = () => copyText(url, copy);
    const share = el("button", word("share"), "share");
    share.type = "button";
    share.onclick = () => {
      if (navigator.share) navigator.share({title: word("title") + colon() + label, url: url}).catch(() => {});
      else copyText(url, share);
    };
    box.append(a, el("span", null, "link-buttons"));
    box.lastChild.append(copy, share);
    return box;
  }

  function copyText(text, button) {
    const done = () => { button.textContent = word("copied"); setTimeout(() => { button.textContent = word(button.className === "copy" ? "copy" : "share"); }, 1500); };
    if (navigator.clipboard && window.isSecureContext) navigator.clipboard.writeText(text).then(done, () => fallbackCopy(text, done));
    else fallbackCopy(text, done);
  }

  function fallbackCopy(text, done) {
    const area = el("textarea");
    area.value = text;
    document.body.append(area);
    area.select();
    try { document.execCommand("copy"); done(); } catch (e) { /* the link stays selectable */ }
    area.remove();
  }

  function controllerWords(entry) {
    return entry.controller === "bot" ? word("bot_" + entry.bot) : word("ctl_" + entry.controller);
  }

  function renderHost() {
    const panel = $("host-panel");
    panel.hidden = state.role !== "host";
    if (panel.hidden) return;
    const list = $("links");
    list.replaceChildren();
    for (const [seat, entry] of Object.entries(state.table.seats)) {
      const li = el("li", null, "link-row");
      li.dataset.seat = seat;
      li.dataset.controller = entry.controller;
      li.append(el("strong", name(seat)), el("span", " " + controllerWords(entry), "controller"));
      li.append(linkBox(name(seat), entry.link));
      const actions = el("div", null, "seat-actions");
      if (!state.view.over) {
        if (entry.controller !== "bot") {
          const b = el("button", word("give_to_bot"), "give-to-bot");
          b.type = "button";
          b.onclick = () => send({type: "manage", op: "bot", seat: seat, bot: state.table.bots.includes("heuristic") ? "heuristic" : state.table.bots[0]});
          actions.append(b);
        }
        if (entry.controller !== "host") {
          const h = el("button", word("play_here"), "play-here");
          h.type = "button";
          h.onclick = () => send({type: "manage", op: "here", seat: seat});
          actions.append(h);
        }
        const n = el("button", word("new_link"), "new-link");
        n.type = "button";
        n.onclick = () => send({type: "manage", op: "link", seat: seat});
        actions.append(n);
      }
      li.append(actions);
      list.append(li);
    }
    const li = el("li", null, "link-row");
    li.dataset.spectator = "1";
    li.append(el("strong", word("spectator_link")), linkBox(word("spectator_link"), state.table.spectator));
    li.append(newLinkButton("spectator_link"));
    list.append(li);
    const own = el("li", null, "link-row");
    own.dataset.hostLink = "1";
    own.append(el("strong", word("host_link")), linkBox(word("host_link"), state.table.host));
    own.append(newLinkButton("host_link"));
    list.append(own);
  }

  // The spectator link or the host's own, replaced: the old one stops working at once.
  function newLinkButton(op) {
    const actions = el("div", null, "seat-actions");
    const n = el("button", word("new_link"), "new-link");
    n.type = "button";
    n.onclick = () => send({type: "manage", op: op});
    actions.append(n);
    return actions;
  }

  // The feed, one group per round (earlier rounds folded), opened at the newest entry.
  function renderFeed() {
    const feed = $("feed");
    if (state.feed_from === 0) feed.replaceChildren();
    for (const entry of state.feed) {
      let group = feed.lastElementChild;
      if (!group || group.dataset.round !== String(entry.round)) {
        if (group) group.open = false;
        group = el("details", null, "round");
        group.dataset.round = String(entry.round);
        group.open = true;
        group.append(el("summary", entry.round ? word("round", {n: entry.round}) : word("setup_round")), el("ol"));
        feed.append(group);
      }
      const li = el("li", entry.text);
      li.dataset.i = String(entry.i);
      group.lastElementChild.append(li);
    }
  }

  // Table talk: put in the page as text, never as HTML.
  function renderChat() {
    const chat = $("chat");
    if (state.chat_from === 0) chat.replaceChildren();
    for (const said of state.chat) {
      const li = el("li", null, "said");
      li.dataset.n = String(said.n);
      li.append(el("strong", (said.by === "host" ? word("chat_host") : name(said.by)) + colon()), el("span", said.text, "text"));
      chat.append(li);
    }
    $("chat-form").hidden = !state.can_chat;
    $("chat-send").textContent = word("chat_send");
    $("chat-text").placeholder = word("chat_placeholder");
  }

  // The turn timer: the seconds each person the game waits for has left, counted down here
  // between two states.
  let ticking = null;
  function startTimer() {
    if (ticking) clearInterval(ticking);
    ticking = null;
    const timer = state.timer;
    const started = Date.now();
    const show = () => {
      if (!timer || !Object.keys(timer.left).length) { $("timer").textContent = ""; return; }
      const gone = Math.floor((Date.now() - started) / 1000);
      $("timer").textContent = Object.entries(timer.left)
        .map(([seat, n]) => word("timer_left", {name: name(seat), n: Math.max(0, n - gone)})).join(" · ");
    };
    show();
    if (timer) ticking = setInterval(show, 1000);
  }

  $("curtain-show").onclick = () => { revealed = state.seat; applyCurtain(); };
  $("lang-toggle").onclick = () => {
    lang = lang === "zh" ? "en" : "zh";
    localStorage.setItem("lifeboat.lang", lang);
    send({type: "lang", lang: lang});
  };
  $("chat-form").onsubmit = (event) => {
    event.preventDefault();
    const text = $("chat-text").value.trim();
    if (!text) return;
    send({type: "say", text: text});
    $("chat-text").value = "";
  };
  $("autopass").onchange = () => send({type: "autopass", seat: state.seat, on: $("autopass").checked});
  $("take-back-button").onclick = () => send({type: "take_back"});
  window.addEventListener("hashchange", () => location.reload());
  connect();
})();
