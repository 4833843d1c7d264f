/*
 * The Teen Patti web table: a person (seat 0) plays a session against bots.
 * Plain JavaScript, no build step, nothing fetched but this server's JSON API
 * (GET /v1, POST /v1/games, GET /v1/games/ID, POST /v1/games/ID/act|timeout|next).
 *
 * Stable element ids and attributes (tests/test_web_e2e.py relies on them):
 *   #setup, #seat-count, #bots select.bot (#bot-1..#bot-6), #preset, #variant, #boot,
 *   #starting-stack, #max-bet, #pot-cap, #sideshow, #turn-seconds, #hands, #seed,
 *   #replay, #start, #error (data-code: the server's error code, or "client")
 *   #new-game        reopens the setup while a game runs; #confirm-new asks before a
 *                    running game is replaced (#confirm-yes / #confirm-no)
 *   #table           data-rev counts full draws, data-game holds the session id
 *   #seats           one li.seat[data-seat=N] with .name, .stack, .chips-in, .badges
 *                    (.badge.dealer/.to-act/.blind/.seen/.packed/.all-in), .last-action
 *                    and .cards (.card[data-card] face up, .card.back face down);
 *                    .acting marks the seat whose move is shown or who is to act
 *   #status          aria-live line: whose turn, the last move, or the session's end
 *   #timer           the turn timer's countdown (data-left: whole seconds left)
 *   #actions         one button[data-type] per move; bets and sideshows one per legal
 *                    size (data-amount); data-cost / data-target on every move
 *   #move-error      an error about a move, next to the moves
 *   #story           this hand's story, one <li> per line, in names
 *   #hand-end        dialog at a hand's end: .winner, .shown-hand[data-seat] (cards and
 *                    .category), .pot-row, .net-row[data-seat] (.net), #next-hand
 *   #sideshow-dialog dialog when a bot asks you for a sideshow (accept / refuse)
 *   #final           the session's end: .session-end (why), .final-row[data-seat] ranked
 *                    (.place, .crown on the winners, .final-stack/.final-net),
 *                    #play-again, #chip-chart (svg, one polyline[data-seat] per player)
 *   #hand-list       this session's hands, li[data-hand] with .result and
 *                    button.replay-hand; #past-hand the dialog that replays one
 *   .played-card     a card of a shown hand: .counts (one of the three that count),
 *                    data-as (what a wild or imaginary card became)
 *   .reason          why a shown hand won; .sideshow-hands the sideshow's two hands
 *   #variant-rules   the variant's rules on the table; #limits a limit that took a move
 *   #table-notice    a default seat given to another bot; #fit-notice the same in the form
 *   #howto           "How to play" dialog (#howto-open); #preset-words, #variant-words
 *   #standings       the standings table, one tr[data-seat] per player
 * <body data-busy="1"> while a request is in flight, data-replaying="1" during a replay.
 */
"use strict";

(function () {
  const REPLAY_MS = 500;
  /** A draw, keep, discard or pass (step.quick): a drawing table takes dozens a hand. */
  const QUICK_REPLAY_MS = 120;
  const SUITS = { s: ["\u2660", "spades"], h: ["\u2665", "hearts"],
    d: ["\u2666", "diamonds"], c: ["\u2663", "clubs"] };
  const RANKS = { A: "Ace", K: "King", Q: "Queen", J: "Jack", T: "10" };
  const RANKING_EXAMPLES = [ // best first, beside the server's category names
    ["three of a rank", ["As", "Ah", "Ad"]],
    ["three in a row, one suit", ["Qh", "Jh", "Th"]],
    ["three in a row", ["9c", "8d", "7s"]],
    ["three of one suit", ["Kd", "9d", "4d"]],
    ["two of a rank", ["Jc", "Js", "5h"]],
    ["none of the above", ["Ad", "9s", "6c"]],
  ];
  const GAME_HASH = /^#game=([0-9a-f]{32})$/;

  const $ = (id) => document.getElementById(id);
  let about = null; // GET /v1: bots, settings limits, presets, keys
  let current = null; // {game, state, settings} last drawn
  let busy = false;
  let timer = null; // {id, deadline} of the running countdown
  let replaying = false;
  let paused = null; // ms left on the turn timer while the setup is open over a game
  let notice = ""; // why a default seat went to another bot, shown on the table
  const PHONE_QUERY = "(max-width: 700px)";
  const phone = () => window.matchMedia(PHONE_QUERY).matches;
  let explain = null; // explain.js's drawing, built once the helpers below exist

  class ApiError extends Error {
    constructor(code, message) {
      super(message);
      this.code = code;
    }
  }

  function el(tag, attrs, ...children) {
    const node = document.createElement(tag);
    for (const [key, value] of Object.entries(attrs || {})) {
      if (value === null || value === undefined || value === false) continue;
      if (key === "className") node.className = value;
      else if (key === "text") node.textContent = value;
      else if (key.startsWith("data-") || key.startsWith("aria-") ||
        ["type", "for", "title", "role", "scope", "tabindex"].includes(key)) {
        node.setAttribute(key, value === true ? "" : String(value));
      } else node[key] = value;
    }
    for (const child of children) {
      if (child === null || child === undefined || child === false) continue;
      node.append(child instanceof Node ? child : document.createTextNode(String(child)));
    }
    return node;
  }

  const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

  async function api(method, path, body) {
    const init = { method, headers: { Accept: "application/json" } };
    // The game routes take only JSON: /timeout and /next an empty object.
    if (body === undefined && method === "POST") body = {};
    if (body !== undefined) {
      init.headers["Content-Type"] = "application/json";
      init.body = JSON.stringify(body);
    }
    let response;
    try {
      response = await fetch(path, init);
    } catch (error) {
      throw new ApiError("network", "The server cannot be reached (" + error.message + ")");
    }
    let data = null;
    try {
      data = await response.json();
    } catch (error) {
      data = null;
    }
    if (data !== null && typeof data === "object") data.receivedAt = Date.now();
    if (!response.ok) {
      const problem = (data && data.error) || {};
      throw new ApiError(problem.code || "http_" + response.status,
        problem.message || "HTTP " + response.status);
    }
    return data;
  }

  function setBusy(value) {
    busy = value;
    document.body.dataset.busy = value ? "1" : "0";
    $("start").disabled = value || !about;
    for (const button of document.querySelectorAll("#actions button, dialog button")) {
      if (!button.hasAttribute("data-close")) button.disabled = value;
    }
  }

  function showError(box, error) {
    if (!error) {
      box.textContent = "";
      delete box.dataset.code;
      return;
    }
    const code = error.code || "client";
    const prefix = code === "illegal_action" ? "Illegal move: " : code === "client" ? "" :
      "Error (" + code + "): ";
    box.dataset.code = code;
    box.textContent = prefix + error.message;
  }

  // ---- cards -------------------------------------------------------------------------

  function cardNode(text) {
    const match = /^([2-9TJQKA])([shdc])$/.exec(text);
    if (!match) {
      return el("span", { className: "card other", "data-card": text, role: "img",
        "aria-label": text }, el("span", { className: "corner", text }));
    }
    const rank = match[1] === "T" ? "10" : match[1];
    const [symbol, suit] = SUITS[match[2]];
    const red = match[2] === "h" || match[2] === "d";
    return el("span", {
      className: "card" + (red ? " red" : ""), "data-card": text, role: "img",
      "aria-label": (RANKS[match[1]] || match[1]) + " of " + suit,
    }, el("span", { className: "corner", "aria-hidden": "true", text: rank + symbol }),
    el("span", { className: "pip", "aria-hidden": "true", text: symbol }));
  }

  function backNode() {
    return el("span", { className: "card back", role: "img", "aria-label": "face-down card" });
  }

  function cardsNode(cards, className) {
    const box = el("span", { className: className || "cards" });
    for (const card of cards) box.append(cardNode(card));
    return box;
  }

  // ---- setup -------------------------------------------------------------------------

  function buildSetup() {
    const box = $("bots");
    box.textContent = "";
    for (let seat = 1; seat <= 6; seat += 1) {
      const select = el("select", { id: "bot-" + seat, className: "bot",
        "aria-label": "Bot at seat " + seat });
      for (const name of about.bots) {
        select.append(el("option", { value: name, text: name,
          title: about.bot_guide[name].words }));
      }
      select.value = about.bots[0];
      // A seat the player picked keeps its bot; a default seat may fall back.
      select.addEventListener("change", () => {
        select.dataset.chosen = "1";
        checkFits();
      });
      box.append(el("label", { className: "bot-choice", "data-seat": seat },
        el("span", { text: "Seat " + seat }), select));
    }
    const count = $("seat-count");
    for (let players = 3; players <= 7; players += 1) {
      count.append(el("option", { value: players, text: players + " players" }));
    }
    count.value = "4";
    count.addEventListener("change", () => { showBotChoices(); checkFits(); });
    showBotChoices();
    for (const name of Object.keys(about.presets)) {
      $("preset").append(el("option", { value: name, text: name }));
    }
    $("preset").value = "classic";
    $("preset").addEventListener("change", () => { fillPreset($("preset").value); checkFits(); });
    for (const name of about.variants) {
      $("variant").append(el("option", { value: name, text: name.replace(/_/g, " ") }));
    }
    $("variant").value = "classic";
    $("variant").addEventListener("change", checkFits);
    fillPreset("classic");
    const order = $("bot-order");
    about.bot_order.forEach((name) => order.append(el("li", {},
      el("b", { text: name }), " \u2014 " + about.bot_guide[name].words)));
    checkFits();
    $("replay").checked = localStorage.getItem("teenpatti.replay") !== "0";
    $("replay-now").checked = $("replay").checked;
    for (const box of [$("replay"), $("replay-now")]) {
      box.addEventListener("change", () => setReplay(box.checked));
    }
    $("start").disabled = false;
  }

  /** Whether ``bot`` can sit at a table of ``players`` under the form's preset and variant. */
  function fits(bot, players) {
    const tables = about.bot_guide[bot] && about.bot_guide[bot].tables;
    if (!tables) return true;
    const preset = $("preset").value;
    const variant = $("variant").value;
    return tables.some(([p, v, n]) => p === preset && v === variant && n === players);
  }

  /** Grey out the bots that cannot sit at the table the form describes, with the reason,
   * and give a default seat whose bot cannot sit there to the strongest bot that can. */
  function checkFits() {
    const players = Number($("seat-count").value);
    const fallback = about.fallback_bot;
    const moved = new Set();
    for (const select of $("bots").querySelectorAll("select.bot")) {
      for (const option of select.options) {
        const ok = fits(option.value, players);
        option.disabled = !ok;
        option.textContent = ok ? option.value : option.value + " (not at this table)";
      }
      if (select.dataset.chosen) continue;
      const wanted = about.bots[0];
      select.value = fits(wanted, players) ? wanted : fallback;
      if (select.value !== wanted && !select.disabled) moved.add(wanted);
    }
    const words = [...moved].map((bot) => bot + " cannot sit at this table (" +
      about.bot_guide[bot].fits + "), so " + fallback +
      ", the strongest bot that can, takes its seats.");
    notice = words.join(" ");
    $("fit-notice").textContent = notice;
    $("preset-words").textContent = about.preset_words[$("preset").value] || "";
    const variantWords = about.variant_words[$("variant").value] || "";
    $("variant-words").textContent = variantWords.charAt(0).toUpperCase() +
      variantWords.slice(1) + ".";
  }

  function setReplay(on) {
    $("replay").checked = on;
    $("replay-now").checked = on;
    localStorage.setItem("teenpatti.replay", on ? "1" : "0");
  }

  function showBotChoices() {
    const bots = Number($("seat-count").value) - 1;
    for (const choice of $("bots").querySelectorAll(".bot-choice")) {
      const shown = Number(choice.dataset.seat) <= bots;
      choice.hidden = !shown;
      choice.querySelector("select").disabled = !shown;
    }
  }

  const NUMBER_FIELDS = [
    ["boot", "boot"], ["starting_stack", "starting-stack"], ["max_bet", "max-bet"],
    ["pot_cap", "pot-cap"], ["turn_seconds", "turn-seconds"], ["hands", "hands"],
  ];

  function fillPreset(name) {
    const values = about.presets[name];
    for (const [key, id] of NUMBER_FIELDS) {
      if (key === "hands") continue;
      $(id).value = values[key] === null || values[key] === undefined ? "" : String(values[key]);
    }
    $("sideshow").checked = !!values.sideshow;
    for (const [key, id] of NUMBER_FIELDS) {
      const limits = about.settings[key];
      $(id).min = String(limits.min);
      $(id).max = String(limits.max);
    }
  }

  function fillForm(settings) {
    $("seat-count").value = String(settings.bots.length + 1);
    showBotChoices();
    settings.bots.forEach((bot, index) => { $("bot-" + (index + 1)).value = bot; });
    $("preset").value = settings.preset;
    $("variant").value = typeof settings.variant === "string" ? settings.variant : "classic";
    for (const [key, id] of NUMBER_FIELDS) {
      $(id).value = settings[key] === null || settings[key] === undefined ? "" :
        String(settings[key]);
    }
    $("sideshow").checked = !!settings.sideshow;
    $("seed").value = settings.seed === undefined ? "" : String(settings.seed);
    // A seat on another bot than the default was picked; a default seat may still fall back.
    for (const select of $("bots").querySelectorAll("select.bot")) {
      if (select.value !== about.bots[0]) select.dataset.chosen = "1";
      else delete select.dataset.chosen;
    }
    checkFits();
  }

  /** The form as the server's options; a value the server would refuse is an ApiError. */
  function readOptions() {
    const players = Number($("seat-count").value);
    const bots = [];
    for (let seat = 1; seat < players; seat += 1) bots.push($("bot-" + seat).value);
    for (const bot of bots) {
      if (!fits(bot, players)) {
        throw new ApiError("client", bot + " cannot sit at this table (" +
          about.bot_guide[bot].fits + "). Pick another bot for its seat.");
      }
    }
    const options = { bots, preset: $("preset").value, variant: $("variant").value,
      sideshow: $("sideshow").checked, pause: true };
    const words = { boot: "The boot", starting_stack: "The starting stack",
      max_bet: "The max bet", pot_cap: "The pot cap", turn_seconds: "The turn timer",
      hands: "Hands" };
    for (const [key, id] of NUMBER_FIELDS) {
      const limits = about.settings[key];
      const text = $(id).value.trim();
      if (text === "" && limits.optional) {
        options[key] = null;
        continue;
      }
      const value = Number(text);
      if (text === "" || !Number.isInteger(value) || value < limits.min || value > limits.max) {
        throw new ApiError("client", words[key] + " must be a whole number from " +
          limits.min + " to " + limits.max + (limits.optional ? " (or blank)" : "") + ".");
      }
      options[key] = value;
    }
    // The server's own rules between settings (interfaces/server.py, table_settings).
    if (options.starting_stack % options.boot) {
      throw new ApiError("client", "The starting stack must be a multiple of the boot (" +
        options.boot + ").");
    }
    if (options.max_bet !== null && options.max_bet < 2 * options.boot) {
      throw new ApiError("client", "The max bet must be at least twice the boot (" +
        2 * options.boot + ").");
    }
    if (options.pot_cap !== null && options.pot_cap < 2 * options.boot * players) {
      throw new ApiError("client", "The pot cap must be at least twice the boots of the " +
        "table (" + 2 * options.boot * players + ").");
    }
    const seedText = $("seed").value.trim();
    if (seedText !== "") {
      const seed = Number(seedText);
      if (!Number.isInteger(seed) || seed < 0) {
        throw new ApiError("client", "The seed must be a whole number (or blank).");
      }
      options.seed = seed;
    }
    return options;
  }

  function onSubmit(event) {
    event.preventDefault();
    if (busy) return;
    let options;
    try {
      options = readOptions();
    } catch (error) {
      showError($("error"), error);
      return;
    }
    if (current && !current.state.over) {
      $("confirm-new").showModal();
      $("confirm-no").focus();
      $("confirm-yes").onclick = () => {
        $("confirm-new").close();
        startGame(options);
      };
      return;
    }
    startGame(options);
  }

  async function startGame(options) {
    setBusy(true);
    try {
      const answer = await api("POST", "/v1/games", options);
      showError($("error"), null);
      history.replaceState(null, "", "#game=" + answer.game);
      paused = null;
      $("table-notice").textContent = notice && options.bots.includes(about.fallback_bot) ?
        notice : "";
      foldSetup(true);
      showYourSeat();
      await play(answer);
    } catch (error) {
      showError($("error"), error);
    } finally {
      setBusy(false);
    }
    if (current) focusMoves();
  }

  /** Fold the setup away (back to the game: its timer goes on from where it paused), or
   * open it over a running game (its timer pauses, its bar steps aside). */
  function foldSetup(folded) {
    $("setup").hidden = folded;
    document.body.dataset.setup = folded ? "0" : "1";
    $("new-game").hidden = !folded || !current;
    $("setup-cancel").hidden = folded || !current;
    if (!folded) {
      if (timer) paused = Math.max(0, timer.deadline - Date.now());
      stopTimer();
      window.scrollTo({ top: 0 });
      $("seat-count").focus({ preventScroll: true });
    } else if (paused !== null && current && current.state.your_turn) {
      startTimer(current.state, Date.now() + paused);
      paused = null;
    }
  }

  /** After Start: the top of the table, your seat in view. */
  function showYourSeat() {
    window.scrollTo({ top: 0 });
    const mine = document.querySelector("#seats .seat.you");
    if (mine) mine.scrollIntoView({ block: "nearest" });
  }

  async function loadGame(game) {
    setBusy(true);
    try {
      const answer = await api("GET", "/v1/games/" + game);
      fillForm(answer.settings);
      foldSetup(true);
      render(answer);
    } catch (error) {
      showError($("error"), error);
      if (error.code === "not_found") {
        current = null;
        $("table").hidden = true;
        foldSetup(false);
        setStatus("Start a new session.", "setup");
      }
    } finally {
      setBusy(false);
    }
    if (current) focusMoves();
  }

  async function send(path, body) {
    if (busy || replaying || !current) return;
    const deadline = stopTimer();
    setBusy(true);
    try {
      const answer = await api("POST", "/v1/games/" + current.game + path, body);
      showError($("move-error"), null);
      await play(answer);
    } catch (error) {
      showError($("move-error"), error); // the table stays as it was drawn
      if (current && current.state.your_turn) startTimer(current.state, deadline);
    } finally {
      setBusy(false);
      focusMoves();
    }
  }

  const sendAction = (action) => send("/act", { action });

  // ---- replay ------------------------------------------------------------------------

  /** Show the steps of an answer one at a time (the bots' moves), then draw it. */
  async function play(answer) {
    const state = answer.state;
    const steps = state.steps || [];
    if ($("hand-end").open) $("hand-end").close();
    if ($("sideshow-dialog").open) $("sideshow-dialog").close();
    if ($("replay").checked && steps.length) {
      replaying = true;
      document.body.dataset.replaying = "1";
      drawActions({ your_turn: false, over: false, moves: [] }, {});
      try {
        for (const step of steps) {
          if (step.seat === null || step.seat === undefined) $("story").textContent = "";
          drawStep(answer, step);
          if (step.seat !== 0) await sleep(step.quick ? QUICK_REPLAY_MS : REPLAY_MS);
        }
      } finally {
        replaying = false;
        document.body.dataset.replaying = "0";
      }
    }
    render(answer);
  }

  function drawStep(answer, step) {
    const state = answer.state;
    $("table").hidden = false;
    $("pot").textContent = $("bar-pot").textContent = String(step.pot);
    $("stake").textContent = $("bar-stake").textContent = String(step.stake);
    $("boot-now").textContent = String((state.view || {}).boot ?? "");
    drawSeats(state, step);
    for (const line of step.lines) $("story").append(el("li", { text: line }));
    setStatus(step.lines.join(". ") + ".", "replay");
  }

  // ---- drawing -----------------------------------------------------------------------

  function setStatus(text, kind) {
    const status = $("status");
    status.textContent = text;
    status.dataset.state = kind;
  }

  function render(answer) {
    current = answer;
    const state = answer.state;
    const view = state.view || {};
    const table = $("table");
    table.hidden = false;
    table.dataset.game = answer.game;
    table.dataset.rev = String(Number(table.dataset.rev || "0") + 1);
    $("new-game").hidden = !$("setup").hidden;

    const number = state.over || state.between_hands ? state.hands_played :
      state.hands_played + 1;
    $("hand-no").textContent = "Hand " + number + (state.max_hands ? " of " +
      state.max_hands : "");
    const pot = state.over ? "\u2014" : String(view.pot ?? "");
    const stake = state.over ? "\u2014" : String(view.stake ?? "");
    $("pot").textContent = $("bar-pot").textContent = pot;
    $("stake").textContent = $("bar-stake").textContent = stake;
    $("boot-now").textContent = String(view.boot ?? "");
    const variant = view.rules && view.rules.variant;
    $("rules-name").textContent = (answer.settings ? answer.settings.preset + " \u00b7 " : "") +
      (typeof variant === "string" ? variant.replace(/_/g, " ") : "custom variant");

    drawCommunity(view);
    drawSeats(state, null);
    drawMine(state, view);
    drawActions(state, view);
    explain.drawGuide(state);
    drawStory(state);
    drawStandings(state);
    explain.drawHandList(state);
    explain.drawFinal(state, answer.settings);
    drawStatus(state, view);
    const missed = (state.steps || []).find((step) => step.missed);
    if (missed) {
      setStatus("Your time ran out: " + missed.lines[0].replace(/^time ran out: /, "") +
        ". " + $("status").textContent, $("status").dataset.state);
    }
    drawHandEnd(state);
    drawSideshow(state, view);
    // The server keeps the turn's deadline: a reload or a look keeps the time left.
    if (state.your_turn) {
      startTimer(state, typeof answer.turn_left === "number" ?
        answer.receivedAt + answer.turn_left * 1000 : null);
    } else stopTimer();
  }

  function drawCommunity(view) {
    const box = $("community");
    box.textContent = "";
    const parts = [];
    if (view.community && view.community.length) {
      parts.push(el("span", {}, "Community ", cardsNode(view.community)));
    }
    if (view.indicators && view.indicators.length) {
      parts.push(el("span", {}, "Indicators ", cardsNode(view.indicators)));
    }
    if (view.wild_ranks && view.wild_ranks.length) {
      parts.push(el("span", { text: "Wild ranks: " + view.wild_ranks.join(" ") }));
    }
    if (view.wild_colours && view.wild_colours.length) {
      parts.push(el("span", { text: "Wild colours: " + view.wild_colours.join(" ") }));
    }
    if (view.burst_rank) parts.push(el("span", { text: "Burst rank: " + view.burst_rank }));
    box.hidden = parts.length === 0;
    for (const part of parts) box.append(part);
  }

  function knownCards(view, seat) {
    if (seat.seat === view.seat && view.cards) return view.cards;
    if (seat.cards) return seat.cards;
    const shown = view.result && view.result.shown;
    if (shown) for (const item of shown) if (item.seat === seat.seat) return item.cards;
    return null;
  }

  /** The seats from the state, or during a replay from a step's numbers and badges. */
  function drawSeats(state, step) {
    const view = state.view || {};
    const box = $("seats");
    box.textContent = "";
    const acting = step ? step.seat : state.over || state.between_hands ? null : view.to_act;
    const toAct = step ? step.to_act : acting;
    const lastActions = step ? step.last_actions : state.last_actions || [];
    state.players.forEach((name, index) => {
      const seat = Object.assign({ seat: index }, (view.seats || [])[index] || {},
        step ? step.seats[index] : {});
      const badges = el("span", { className: "badges" });
      const badge = (cls, text) => badges.append(el("span", { className: "badge " + cls, text }));
      if (!state.over && view.dealer === index) badge("dealer", "Dealer");
      if (!state.over && toAct === index) badge("to-act", "To act");
      if (seat.in_session === false) badge("out", "Out");
      else if (state.over && !step) { /* no hand in play: stacks only */ }
      else if (seat.dealt_in === false) badge("sitting-out", "Not dealt in");
      else {
        if (seat.packed) badge("packed", "Packed");
        if (seat.all_in) badge("all-in", "All-in");
        if (seat.seen) badge("seen", "Seen");
        else badge("blind", seat.blind_bets ? "Blind \u00d7" + seat.blind_bets : "Blind");
      }
      // During a replay only your own cards are face up: the end shows the rest.
      const cards = step && index !== state.seat ? null : knownCards(view, seat);
      const cardBox = cards && (index !== state.seat || seat.seen || !step) ?
        cardsNode(cards) : el("span", { className: "cards" });
      if (!cardBox.childElementCount && seat.dealt_in && !seat.packed && !(state.over && !step)) {
        for (let k = 0; k < 3; k += 1) cardBox.append(backNode());
      }
      const stack = state.over && !step && Array.isArray(state.stacks) ?
        state.stacks[index] : seat.stack;
      const last = lastActions[index];
      box.append(el("li", {
        className: "seat" + (index === state.seat ? " you" : "") +
          (acting === index ? " acting" : "") + (seat.packed ? " is-packed" : "") +
          (seat.in_session === false ? " is-out" : ""),
        "data-seat": index, "aria-current": acting === index ? "true" : null,
      },
      el("div", { className: "seat-head" }, el("span", { className: "name", text: name,
        title: name }), badges),
      cardBox,
      el("div", { className: "numbers" },
        el("span", {}, "Stack ", el("b", { className: "stack", text: String(stack ?? "") })),
        el("span", {}, "In pot ",
          el("b", { className: "chips-in", text: String(seat.chips_in ?? 0) }))),
      el("div", { className: "last-action", text: last ? "Last: " + last : "\u00a0" })));
    });
  }

  function drawMine(state, view) {
    const box = $("mine");
    box.textContent = "";
    if (view.cards && !state.over) {
      // Seen: your cards in the order they rank, the three that count outlined, wild
      // cards marked, and your hand named in full.
      box.append(el("span", { className: "label", text: "Your cards" }),
        state.my_hand ? explain.playedNode(state.my_hand) : cardsNode(view.cards));
      if (state.category_words) {
        box.append(el("span", { className: "category", text: state.category_words }));
      }
      if (state.my_hand) {
        box.append(el("span", { className: "my-hand-name", text: state.my_hand.hand_name }));
      }
    } else if (view.seen === false && !state.over && !state.between_hands) {
      box.append(el("span", { className: "hint", text: "You are playing blind." }));
    }
  }

  function moveText(move, players, amount) {
    const target = move.target === null || move.target === undefined ? "" : players[move.target];
    switch (move.type) {
      case "bet": return move.label + " " + amount;
      case "sideshow": return move.label + " (" + amount + ")";
      case "show": return "Show " + target + " (" + move.cost + ")";
      case "pack": case "look": case "accept": case "refuse": case "keep":
        return move.label;
      default: return move.cost ? move.label + " (" + move.cost + ")" : move.label;
    }
  }

  function drawActions(state, view) {
    const box = $("actions");
    box.textContent = "";
    const moves = state.your_turn && !state.over ? state.moves || [] : [];
    const legal = new Map((view.legal || []).map((entry) => [entry.type, entry]));
    const passEntry = moves.some((m) => m.type === "pass") ? legal.get("pass") : null;
    const passBox = $("pass-cards");
    passBox.textContent = "";
    passBox.hidden = !passEntry;
    if (passEntry) {
      passBox.append(el("span", { className: "label",
        text: "Pick " + (passEntry.count || 3) + " cards to pass " }));
      for (const card of passEntry.cards || []) {
        const check = el("input", { type: "checkbox", "data-card": card, value: card,
          "aria-label": "Pass " + card });
        passBox.append(el("label", { className: "pick" }, check, cardNode(card)));
      }
    }
    const choiceEntry = moves.some((m) => m.type === "choose_variant") ?
      legal.get("choose_variant") : null;
    $("variant-choice-field").hidden = !choiceEntry;
    $("variant-choice").textContent = "";
    for (const name of (choiceEntry && choiceEntry.variants) || []) {
      $("variant-choice").append(el("option", { value: name, text: name }));
    }
    for (const move of moves) {
      for (const button of buttonsFor(move, legal.get(move.type) || {}, state.players)) {
        box.append(button);
      }
    }
    if (!moves.length) {
      box.append(el("span", { className: "hint", text: state.over ?
        "No moves: the session is over." : state.between_hands ? "The hand is over." :
          "The bots are playing\u2026" }));
    }
  }

  function button(move, label, action, extra) {
    const node = el("button", Object.assign({
      type: "button", "data-type": move.type, "data-cost": move.cost,
      "data-target": move.target, "data-key": move.key,
      className: "act act-" + move.type.replace(/_/g, "-"), text: label,
    }, extra || {}));
    node.disabled = busy;
    node.addEventListener("click", () => {
      const built = action();
      if (built) sendAction(built);
    });
    return node;
  }

  function buttonsFor(move, entry, players) {
    const type = move.type;
    if (move.amounts && move.amounts.length > 1 && phone()) return sizedButton(move, players);
    if (move.amounts) {
      return move.amounts.map((amount) => button(move, moveText(move, players, amount),
        () => ({ type, amount }), { "data-amount": amount, "data-cost": amount }));
    }
    if (type === "discard" || type === "buy_joker") {
      return (entry.cards || []).map((card) => button(move,
        (type === "discard" ? "Discard " + card : "Buy a joker for " + card) +
          (move.cost ? " (" + move.cost + ")" : ""),
        () => ({ type, card }), { "data-card": card }));
    }
    if (type === "pass") {
      return [button(move, "Pass cards", () => {
        const cards = [...$("pass-cards").querySelectorAll("input:checked")]
          .map((input) => input.value);
        const count = entry.count || 3;
        if (cards.length !== count) {
          showError($("move-error"), new ApiError("client", "Pick exactly " + count +
            " cards to pass."));
          return null;
        }
        return { type, cards };
      })];
    }
    if (type === "choose_variant") {
      return [button(move, move.label, () => ({ type, variant: $("variant-choice").value }))];
    }
    return [button(move, moveText(move, players), () => ({ type }))];
  }

  /** On a phone: one button for a bet or sideshow, its size picked beside it (every legal
   * size stays reachable). */
  function sizedButton(move, players) {
    const first = move.amounts[0];
    const what = move.type === "bet" ? move.label : "Sideshow";
    const select = el("select", { className: "size-select", "data-type": move.type,
      "aria-label": what + " amount" });
    for (const amount of move.amounts) {
      select.append(el("option", { value: amount, text: String(amount) }));
    }
    let node = null;
    node = button(move, moveText(move, players, first),
      () => ({ type: move.type, amount: Number(select.value) }),
      { "data-amount": first, "data-cost": first, "data-sizes": move.amounts.join(" ") });
    select.addEventListener("change", () => {
      const amount = Number(select.value);
      node.dataset.amount = node.dataset.cost = String(amount);
      node.textContent = moveText(move, players, amount);
    });
    return [el("span", { className: "sized" }, node, select)];
  }

  /** Keep the keyboard on the controls: an open dialog's first button, or the moves. */
  function focusMoves() {
    const scope = document.querySelector("dialog[open]") || $("actions");
    const first = scope.querySelector("button:not(:disabled)");
    (first || scope).focus({ preventScroll: true });
  }

  function drawStory(state) {
    const list = $("story");
    list.textContent = "";
    for (const line of state.story || []) list.append(el("li", { text: line }));
  }

  const signed = (value) => (value > 0 ? "+" : "") + value;

  function drawStandings(state) {
    const body = $("standings").querySelector("tbody");
    body.textContent = "";
    for (const row of state.standings || []) {
      body.append(el("tr", { "data-seat": row.seat },
        el("th", { scope: "row", text: row.name }),
        el("td", { className: "stack", text: String(row.stack) }),
        el("td", { className: "net", text: signed(row.net) })));
    }
  }

  function playAgain(settings) {
    if (busy || !settings) return;
    const options = {};
    for (const key of ["bots", "preset", "variant", "seed", "pause", "boot", "starting_stack",
      "max_bet", "pot_cap", "sideshow", "turn_seconds", "hands"]) {
      if (settings[key] !== undefined) options[key] = settings[key];
    }
    fillForm(settings);
    startGame(options);
  }

  function drawStatus(state, view) {
    const players = state.players;
    const last = (state.story || [])[state.story.length - 1];
    if (state.over) {
      const stacks = (state.standings || []).map((row) => row.name + " " + row.stack);
      setStatus("Session over after " + state.hands_played + " hand" +
        (state.hands_played === 1 ? "" : "s") + ". Final chips: " + stacks.join(", ") +
        ".", "over");
    } else if (state.between_hands) {
      const end = state.hand_end;
      setStatus("Hand " + state.hands_played + " is over: " + winnerText(end, players) +
        ". Next hand when you are ready.", "hand-over");
    } else if (state.your_turn) {
      const ask = view.sideshow;
      if (ask && ask.target === state.seat) {
        setStatus(players[ask.asker] + " asks you for a sideshow: accept or refuse.",
          "sideshow");
      } else {
        setStatus("Your turn, hand " + (state.hands_played + 1) + ". " +
          (last ? sentence(last, players) + ". " : "") +
          "Pot " + view.pot + ", stake " + view.stake + ".", "your-turn");
      }
    } else {
      setStatus("The bots are playing\u2026", "waiting");
    }
  }

  /** A story line as a sentence: "you" gets its capital, a bot's name keeps its own. */
  function sentence(line, players) {
    return players.some((name) => name !== "you" && line.startsWith(name)) ? line :
      line.charAt(0).toUpperCase() + line.slice(1);
  }

  function winnerText(end, players) {
    if (!end) return "";
    if (!end.winners.length) return "nobody wins, every chip goes back";
    const names = end.winners.map((seat) => players[seat]).join(" and ");
    const single = end.winners.length === 1 && end.winners[0] !== 0;
    return names + (single ? " wins " : " win ") + end.pot;
  }

  function drawHandEnd(state) {
    const dialog = $("hand-end");
    const end = state.hand_end;
    if (!end) {
      if (dialog.open) dialog.close();
      return;
    }
    const players = state.players;
    $("hand-end-title").textContent = "Hand " + state.hands_played + ": " + end.end_words;
    const body = $("hand-end-body");
    body.textContent = "";
    explain.handEndBody(body, end, players, state.seat);
    const next = $("next-hand");
    next.textContent = state.over ? "See the standings" : "Next hand";
    if (!dialog.open) dialog.showModal();
  }

  function drawSideshow(state, view) {
    const dialog = $("sideshow-dialog");
    const ask = state.your_turn ? view.sideshow : null;
    if (!ask || ask.target !== state.seat) {
      if (dialog.open) dialog.close();
      return;
    }
    const asker = state.players[ask.asker];
    $("sideshow-text").textContent = asker + " asks you for a sideshow: your hands are " +
      "compared in private and the lower one packs (on a tie, " + asker + " packs). " +
      "Refusing costs nothing.";
    if (!dialog.open) dialog.showModal();
  }

  // ---- turn timer --------------------------------------------------------------------

  /** Count the person's turn down; at zero the server plays it as missed (C4). A turn
   * drawn again (after a refused move) keeps its ``deadline``. */
  function startTimer(state, deadline) {
    stopTimer();
    if (!state.turn_seconds) return;
    deadline = deadline || Date.now() + state.turn_seconds * 1000;
    const box = $("timer");
    box.hidden = false;
    const tick = () => {
      // The deadline allows for the bot moves' replay: never show more than a turn.
      const left = Math.min(state.turn_seconds,
        Math.max(0, Math.ceil((deadline - Date.now()) / 1000)));
      box.dataset.left = String(left);
      box.textContent = left + " s left";
      box.classList.toggle("low", left <= 5);
      if (left <= 0) {
        stopTimer();
        send("/timeout");
      }
    };
    timer = { id: setInterval(tick, 200), deadline };
    tick();
  }

  /** Stop the countdown; returns its deadline (null if none ran). */
  function stopTimer() {
    const deadline = timer && timer.deadline;
    if (timer !== null) clearInterval(timer.id);
    timer = null;
    $("timer").hidden = true;
    return deadline;
  }

  // ---- keys --------------------------------------------------------------------------

  function onKey(event) {
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    const target = event.target;
    if (target && ["INPUT", "SELECT", "TEXTAREA"].includes(target.tagName)) return;
    const key = event.key.toLowerCase();
    if (key === "?") {
      openDialog("help");
      event.preventDefault();
      return;
    }
    const open = document.querySelector("dialog[open]");
    if (open && open.id === "hand-end" && (key === "n" || key === "enter")) {
      // Enter on the focused button clicks it already.
      if (key === "n" || document.activeElement !== $("next-hand")) {
        event.preventDefault();
        $("next-hand").click();
      }
      return;
    }
    const scope = open || $("actions");
    let found = null;
    const sizes = scope.querySelector('select.size-select[data-type="bet"]');
    if (/^[1-9]$/.test(key) && sizes) {
      if (Number(key) > sizes.options.length) return;
      sizes.selectedIndex = Number(key) - 1;
      sizes.dispatchEvent(new Event("change"));
      found = scope.querySelector('button[data-type="bet"]');
    } else if (/^[1-9]$/.test(key)) {
      found = scope.querySelectorAll('button[data-type="bet"]')[Number(key) - 1];
    } else if (/^[a-z]$/.test(key)) {
      found = scope.querySelector('button[data-key="' + key + '"], button[data-type="' +
        ({ a: "accept", r: "refuse" })[key] + '"]');
    }
    if (found && !found.disabled) {
      event.preventDefault();
      found.click();
    }
  }

  function openDialog(id) {
    const dialog = $(id);
    if (!dialog.open) dialog.showModal();
    const close = dialog.querySelector("[data-close]");
    if (close) close.focus();
  }

  function buildHelp() {
    const list = $("rankings");
    RANKING_EXAMPLES.forEach(([words, cards], index) => {
      const name = about.categories[index];
      list.append(el("li", {}, el("b", { text: name }), " \u2014 " + words + " ",
        cardsNode(cards)));
    });
    const keys = $("key-list");
    const names = { pack: "Pack", look: "Look", bet: "Bet (blind or chaal), smallest size",
      show: "Show", sideshow: "Sideshow", accept: "Accept a sideshow",
      refuse: "Refuse a sideshow", all_in: "All-in", draw: "Draw", keep: "Keep",
      discard: "Discard", pass: "Pass cards", buy_joker: "Buy a joker",
      choose_variant: "Choose the variant", vote_end: "Vote to end", continue: "Continue" };
    // Moves only some variants or tables have are listed apart; "n" once.
    const some = ["draw", "keep", "discard", "pass", "buy_joker", "choose_variant", "vote_end"];
    const entries = Object.entries(about.keys).filter(([type]) => type !== "continue");
    const rows = [...entries.filter(([type]) => !some.includes(type))
      .map(([type, key]) => [key, names[type] || type]),
    ["1\u20136", "Bet sizes, smallest first"],
    ["n / Enter", "Next hand (at a vote-to-end table, between hands: continue)"],
    ["?", "Hand rankings"], ["Tab", "Move between the buttons"]];
    for (const [key, what] of rows) keys.append(el("dt", {}, el("kbd", { text: key })),
      el("dd", { text: what }));
    for (const [type, key] of entries.filter(([kind]) => some.includes(kind))) {
      $("variant-key-list").append(el("dt", {}, el("kbd", { text: key })),
        el("dd", { text: names[type] || type }));
    }
    for (const dialog of document.querySelectorAll("dialog")) {
      for (const close of dialog.querySelectorAll("[data-close]")) {
        close.addEventListener("click", () => dialog.close());
      }
    }
  }

  // ---- start -------------------------------------------------------------------------

  async function init() {
    explain = window.TeenPattiExplain({ el, cardNode, signed, winnerText, SUITS, RANKS,
      REPLAY_MS, openDialog, playAgain, current: () => current, about: () => about });
    $("setup").addEventListener("submit", onSubmit);
    $("new-game").addEventListener("click", () => foldSetup(false));
    $("setup-cancel").addEventListener("click", () => { foldSetup(true); focusMoves(); });
    $("confirm-no").addEventListener("click", () => $("confirm-new").close());
    $("help-open").addEventListener("click", () => openDialog("help"));
    $("howto-open").addEventListener("click", () => explain.openHowTo());
    $("keys-open").addEventListener("click", () => openDialog("keys"));
    $("next-hand").addEventListener("click", () => {
      if (current && current.state.over) {
        $("hand-end").close();
        $("final").focus();
      } else send("/next");
    });
    // Escape does not close the hand's end: "Next hand" is the way on.
    $("hand-end").addEventListener("cancel", (event) => event.preventDefault());
    for (const choice of $("sideshow-dialog").querySelectorAll("button[data-type]")) {
      choice.addEventListener("click", () => sendAction({ type: choice.dataset.type }));
    }
    document.addEventListener("keydown", onKey);
    try {
      about = await api("GET", "/v1");
      buildSetup();
      buildHelp();
      setStatus("Pick your opponents and start a session.", "setup");
    } catch (error) {
      setStatus("The server did not answer.", "setup");
      showError($("error"), error);
      return;
    }
    window.addEventListener("hashchange", () => {
      const changed = GAME_HASH.exec(location.hash);
      if (changed && (!current || current.game !== changed[1])) loadGame(changed[1]);
    });
    const match = GAME_HASH.exec(location.hash);
    if (match) await loadGame(match[1]);
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init);
  else init();
})();
