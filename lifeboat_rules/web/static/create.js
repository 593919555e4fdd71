// The page where a host creates a game: rules, players, language, and who sits in each seat.
"use strict";
(function () {
  let setup = null;
  let lang = localStorage.getItem("lifeboat.lang") ||
    ((navigator.language || "").toLowerCase().startsWith("zh") ? "zh" : "en");
  const $ = (id) => document.getElementById(id);

  function ui(key, values) {
    let text = (setup.ui[lang] || setup.ui.en)[key] || key;
    for (const [k, v] of Object.entries(values || {})) text = text.split("{" + k + "}").join(v);
    return text;
  }

  function option(value, label) {
    const o = document.createElement("option");
    o.value = value; o.textContent = label;
    return o;
  }

  function renderSeats() {
    const fieldset = $("seats");
    const previous = Array.from(fieldset.querySelectorAll("select")).map((s) => s.value);
    fieldset.replaceChildren();
    const count = Number($("players").value);
    for (let n = 0; n < count; n++) {
      const label = document.createElement("label");
      const span = document.createElement("span");
      span.textContent = ui("seat_n", {n: n + 1});
      const select = document.createElement("select");
      select.name = "seat"; select.dataset.seat = String(n);
      select.append(option("link", ui("ctl_link")), option("host", ui("ctl_host")));
      for (const bot of setup.bots) select.append(option("bot:" + bot, ui("bot_" + bot)));
      select.value = previous[n] || (n === 0 ? "host" : "link");
      label.append(span, " ", select);
      fieldset.append(label);
    }
  }

  function renderPlayers() {
    const [low, high] = setup.rulesets[$("ruleset").value];
    const select = $("players");
    const before = Number(select.value) || high;
    select.replaceChildren();
    for (let n = low; n <= high; n++) select.append(option(String(n), String(n)));
    select.value = String(Math.min(Math.max(before, low), high));
    renderSeats();
  }

  function renderRulesets() {
    const select = $("ruleset");
    const chosen = select.value;
    select.replaceChildren();
    for (const name of Object.keys(setup.rulesets)) select.append(option(name, ui("ruleset_" + name)));
    select.value = chosen || ("classic" in setup.rulesets ? "classic" : Object.keys(setup.rulesets)[0]);
    $("ruleset-about").textContent = ui("about_" + select.value);
  }

  function renderTimers() {
    const select = $("timer-choice");
    const chosen = select.value || "0";
    select.replaceChildren();
    for (const n of setup.timers)
      select.append(option(String(n), n === 0 ? ui("timer_off") : n < 60 ? ui("timer_seconds", {n: n})
        : ui("timer_minutes", {n: n / 60})));
    select.value = chosen;
  }

  // The create button is off while the server cannot be reached.
  function setOnline(online) {
    $("create-button").disabled = !online;
    $("offline").hidden = online;
    if (!online) $("offline").textContent = setup ? ui("offline")
      : (navigator.language || "").startsWith("zh") ? "无法连接服务器。" : "No connection to the server.";
  }

  // After a failed request: ask again every two seconds until the server answers.
  function watchServer() {
    setTimeout(async () => {
      try { await fetch("/api/setup", {cache: "no-store"}); setOnline(true); } catch (error) { watchServer(); }
    }, 2000);
  }

  function renderWords() {
    document.documentElement.lang = lang === "zh" ? "zh-Hans" : "en";
    document.title = ui("title");
    $("title").textContent = ui("title");
    $("new-game").textContent = ui("new_game");
    $("create-button").textContent = ui("create");
    $("lang-toggle").textContent = ui("lang_other");
    for (const el of document.querySelectorAll("[data-ui]")) el.textContent = ui(el.dataset.ui);
    renderRulesets();
    renderTimers();
    renderSeats();
  }

  async function create(event) {
    event.preventDefault();
    const body = {
      ruleset: $("ruleset").value,
      players: Number($("players").value),
      lang: $("lang").value,
      seats: Array.from($("seats").querySelectorAll("select")).map((s) => s.value),
      timer: Number($("timer-choice").value),
    };
    let response;
    try {
      response = await fetch("/api/games", {
        method: "POST", headers: {"content-type": "application/json"}, body: JSON.stringify(body),
      });
    } catch (error) {
      setOnline(false);
      watchServer();
      return;
    }
    const answer = await response.json();
    if (!response.ok) {
      $("refusal").textContent = answer.message;
      $("refusal").hidden = false;
      return;
    }
    localStorage.setItem("lifeboat.lang", body.lang);
    location.href = answer.url;
  }

  async function start() {
    try {
      setup = await (await fetch("/api/setup")).json();
    } catch (error) {
      setOnline(false);
      setTimeout(start, 2000);
      return;
    }
    renderRulesets();
    $("lang").value = lang;
    $("ruleset").addEventListener("change", () => { $("ruleset-about").textContent = ui("about_" + $("ruleset").value); renderPlayers(); });
    window.addEventListener("offline", () => setOnline(false));
    window.addEventListener("online", () => setOnline(true));
    $("players").addEventListener("change", renderSeats);
    $("lang").addEventListener("change", () => { lang = $("lang").value; renderWords(); });
    $("lang-toggle").addEventListener("click", () => {
      lang = lang === "zh" ? "en" : "zh"; $("lang").value = lang;
      localStorage.setItem("lifeboat.lang", lang); renderWords();
    });
    $("create").addEventListener("submit", create);
    renderPlayers();
    renderWords();
    setOnline(navigator.onLine !== false);
    document.body.dataset.ready = "1";
  }
  start();
})();
