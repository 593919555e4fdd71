// The table page: one seat's view (or a spectator's, or a hot-seat host's), pushed over a
// WebSocket. The link's secret is the address's fragment (#...), which browsers never send
// in requests or referrers; the page presents it in its first WebSocket message.
"use strict";
(function () {
  const token = location.hash.slice(1);
  const $ = (id) => document.getElementById(id);
  const FATAL = new Set([4001, 4002, 4004, 4005]);
  let ui = null, state = null, socket = null, fatal = false, retries = 0;
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
  const names = (ids) => (ids && ids.length ? ids.map(name).join(lang === "zh" ? "、" : ", ") : word("nobody"));
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
    if (!token) { showRefusal("No link: open the address your host sent you."); return; }
    $("connection").textContent = retries ? word("reconnecting") : word("connecting");
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    socket = new WebSocket(scheme + "//" + location.host + "/ws");
    socket.onopen = () => {
      const hello = {type: "hello", token: token};
      if (lang) hello.lang = lang;
      const seat = sessionStorage.getItem(seatKey);
      if (seat) hello.seat = seat;
      socket.send(JSON.stringify(hello));
    };
    socket.onmessage = (event) => {
      const message = JSON.parse(event.data);
      if (message.type === "refused") showRefusal(message.message);
      else if (message.type === "state") { retries = 0; render(message); }
    };
    socket.onclose = (event) => {
      socket = null;
      if (FATAL.has(event.code)) {
        fatal = true;
        for (const id of ["table", "host-panel", "hotseat", "curtain"]) $(id).hidden = true;
        $("connection").textContent = "";
        return;
      }
      if (fatal) return;
      retries += 1;
      $("connection").textContent = ui ? word("reconnecting") : "…";
      setTimeout(connect, Math.min(250 * 2 ** retries, 4000));
    };
  }

  function send(message) {
    if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message));
  }

  // ---------------------------------------------------------------- rendering
  function render(message) {
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
    renderDecision(view);
    renderMine(view);
    renderBoat(view);
    renderResult(view);
    renderHost();
    renderFeed();
    applyCurtain();
    document.body.dataset.version = String(version);
    document.body.dataset.logSize = String(state.log_size);
    document.body.dataset.over = view.over ? "1" : "0";
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
    const parts = [word("nav_overboard") + ": " + who(card.overboard), word("nav_thirst") + ": " + who(card.thirst)];
    if (card.oar) parts.push(word("nav_oar"));
    if (card.fight) parts.push(word("nav_fight"));
    if (card.seagull) parts.push(word("nav_seagull") + " " + (card.seagull > 0 ? "+" : "") + card.seagull);
    return parts.join(" · ");
  }

  function renderDecision(view) {
    $("decide").hidden = !state.seat || view.over;
    $("now").hidden = !state.stage_text && !$("waiting").textContent;
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
    $("loyalty").textContent = view.love ? word("love") + ": " + name(view.love) + " · " + word("hate") + ": " + name(view.hate) : "";
    const hand = $("hand");
    hand.replaceChildren();
    for (const card of me.hand || []) hand.append(el("li", name(card.kind)));
    if (!(me.hand || []).length) hand.append(el("li", word("empty"), "empty"));
  }

  function renderBoat(view) {
    const head = $("boat").tHead, body = $("boat").tBodies[0];
    const row = el("tr");
    for (const key of ["col_character", "col_size", "col_survival", "col_damage", "col_status", "col_front", "col_hand", ""])
      row.append(el("th", key ? word(key) : ""));
    head.replaceChildren(row);
    body.replaceChildren();
    const order = view.seats.concat(Object.keys(view.characters).filter((c) => !view.seats.includes(c)));
    for (const id of order) {
      const c = view.characters[id];
      const tr = el("tr");
      tr.dataset.seat = id;
      if (id === state.seat) tr.className = "you";
      if (!view.seats.includes(id)) tr.classList.add("off-board");
      const label = name(id) + (id === state.seat ? " ★" : "") + (state.waiting.includes(id) && !view.over ? " ⚑" : "");
      const marks = [];
      if (c.rowed) marks.push(word("rowed"));
      if (c.fought) marks.push(word("fought"));
      if (c.parasol_active) marks.push(word("parasol"));
      if (c.ghost) marks.push(word("ghost"));
      for (const value of [label, c.size, c.survival, c.damage, word("status_" + c.status),
                           c.front.map((f) => name(f.kind)).join(", "), c.hand_size, marks.join(", ")])
        tr.append(el("td", String(value)));
      body.append(tr);
    }
  }

  function renderResult(view) {
    const result = view.result;
    $("result").hidden = !result;
    if (!result) return;
    $("end").textContent = word("end_" + result.end);
    const parts = ["survival", "treasure", "love", "hate"];
    const head = el("tr");
    head.append(el("th", word("col_character")));
    for (const p of parts) head.append(el("th", word("part_" + p)));
    head.append(el("th", word("total")));
    $("scores").tHead.replaceChildren(head);
    const body = $("scores").tBodies[0];
    body.replaceChildren();
    const ranked = Object.keys(result.scores).sort((a, b) => result.scores[b] - result.scores[a]);
    for (const c of ranked) {
      const tr = el("tr");
      tr.dataset.seat = c;
      tr.append(el("td", name(c)));
      for (const p of parts) tr.append(el("td", String((result.breakdown[c] || {})[p] ?? 0)));
      tr.append(el("td", String(result.scores[c])));
      body.append(tr);
    }
    $("winners").textContent = word("winners", {names: names(result.winners)});
  }

  function linkCell(secret) {
    const td = el("td");
    if (!secret) return td;
    const url = location.origin + "/table#" + secret;
    const a = el("a", url, "link");
    a.href = url;
    td.append(a);
    return td;
  }

  function renderHost() {
    const panel = $("host-panel");
    panel.hidden = state.role !== "host";
    if (panel.hidden) return;
    const body = $("links").tBodies[0];
    body.replaceChildren();
    for (const [seat, entry] of Object.entries(state.table.seats)) {
      const tr = el("tr");
      tr.dataset.seat = seat;
      tr.dataset.controller = entry.controller;
      tr.append(el("td", name(seat)));
      tr.append(el("td", entry.controller === "bot" ? word("ctl_bot", {name: entry.bot})
        : word("ctl_" + entry.controller)));
      tr.append(linkCell(entry.link));
      const actions = el("td");
      if (!state.view.over) {
        if (entry.controller !== "bot") {
          const b = el("button", word("give_to_bot"), "give-to-bot");
          b.type = "button";
          b.onclick = () => send({type: "manage", op: "bot", seat: seat, bot: state.table.bots[0]});
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
      tr.append(actions);
      body.append(tr);
    }
    const tr = el("tr");
    tr.dataset.spectator = "1";
    tr.append(el("td", word("spectator_link")), el("td"), linkCell(state.table.spectator), el("td"));
    body.append(tr);
  }

  function renderFeed() {
    const feed = $("feed");
    if (state.feed_from === 0) feed.replaceChildren();
    for (const entry of state.feed) {
      const li = el("li", entry.text);
      li.dataset.i = String(entry.i);
      feed.append(li);
    }
    feed.scrollTop = feed.scrollHeight;
  }

  $("curtain-show").onclick = () => { revealed = state.seat; applyCurtain(); };
  $("lang-toggle").onclick = () => {
    lang = lang === "zh" ? "en" : "zh";
    localStorage.setItem("lifeboat.lang", lang);
    send({type: "lang", lang: lang});
  };
  window.addEventListener("hashchange", () => location.reload());
  connect();
})();
