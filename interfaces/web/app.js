/*
 * The Teen Patti web table: a person (seat 0) plays a session against bots.
 * Plain JavaScript, no build step, no network resources beyond this server's JSON API
 * (GET /v1, POST /v1/games, GET /v1/games/ID, POST /v1/games/ID/act).
 *
 * Stable element ids (tests/test_web_e2e.py relies on them):
 *   #setup          the form that starts a session
 *   #bots           container of the bot choices: <select class="bot" id="bot-1".."bot-6">,
 *                   one per seat after yours; the value "" leaves the seat empty
 *   #hands          number of hands (1..1000)
 *   #preset         rules preset: classic, pagat, flash, tabletop
 *   #variant        variant name (classic by default)
 *   #seed           optional seed (blank: the server picks one)
 *   #start          starts a new session (submit button of #setup)
 *   #error          the last error (empty when none); data-code holds the server's
 *                   error code (e.g. "illegal_action") or "client" for the page's own checks
 *   #status         one line: whose turn it is, or "Session over ..."
 *   #table          the table, hidden until a session starts; data-rev counts renders,
 *                   data-game holds the session id
 *   #game           the session id (also kept in the address as #game=ID)
 *   #hand-no        which hand of how many
 *   #pot #stake #boot #dealer #turn   the table's numbers (dealer/turn: seat names)
 *   #community      community cards, indicators and wild cards (variants only)
 *   #seats          one .seat[data-seat=N] per player, holding .name, .stack, .chips-in,
 *                   .badges (.badge.dealer/.to-act/.blind/.seen/.packed/.all-in/...) and
 *                   .cards (.card[data-card="As"] per known card)
 *   #mine           your cards and hand category once you have looked
 *   #amount         number input for bet/sideshow: defaults to the bet's min, bounded by
 *                   min/max attributes (the server checks what is sent)
 *   #pass-cards     checkboxes (input[data-card]) choosing the cards of a "pass"
 *   #variant-choice select for "choose_variant"
 *   #actions        one <button data-type="TYPE"> per legal move; discard and buy_joker
 *                   give one button per card, with data-card
 *   #story          this hand's story, one <li> per line
 *   #last-hand      the last finished hand: its number, story (<li>) and net per seat
 *   #final          shown when the session is over: "Session over" and one
 *                   .final-row[data-seat=N] per player with .final-stack and .final-net
 * <body data-busy="1"> while a request is in flight.
 */
"use strict";

(function () {
  const VARIANTS = [
    "classic", "muflis", "imagine_one", "personal_joker", "all_open", "joker_galore",
    "shared_pair", "ak47", "joker", "seven_joker", "one_open_card", "two_burst",
    "seven_joker_two_burst", "open_joker", "two_cards_open", "middle_jokers",
    "colour_jokers", "four_card", "rotating_jokers", "buy_a_joker", "joker_thresholds",
    "discard_one", "shopping", "passing_cards",
  ];
  const MAX_BOTS = 6;
  const DEFAULT_BOTS = 3;
  const ACTION_ORDER = [
    "look", "bet", "show", "sideshow", "accept", "refuse", "all_in", "draw", "keep",
    "discard", "pass", "buy_joker", "choose_variant", "pack",
  ];
  const SUIT_SYMBOL = { s: "\u2660", h: "\u2665", d: "\u2666", c: "\u2663" };
  const GAME_HASH = /^#game=([0-9a-f]{16})$/;

  const $ = (id) => document.getElementById(id);
  let current = null; // {game, state} last drawn
  let busy = false;

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
      else if (key.startsWith("data-") || key === "type" || key === "for" || key === "title") {
        node.setAttribute(key, value === true ? "" : String(value));
      } else node[key] = value;
    }
    for (const child of children) {
      if (child === null || child === undefined || child === false) continue;
      node.append(child instanceof Node ? child : document.createTextNode(String(child)));
    }
    return node;
  }

  async function api(method, path, body) {
    const init = { method, headers: { Accept: "application/json" } };
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
    $("start").disabled = value;
    for (const button of $("actions").querySelectorAll("button")) button.disabled = value;
  }

  function showError(error) {
    const box = $("error");
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

  function clientError(message) {
    showError(new ApiError("client", message));
  }

  // ---- cards -------------------------------------------------------------------------

  function cardNode(text) {
    const match = /^([2-9TJQKA])([shdc])$/.exec(text);
    if (!match) return el("span", { className: "card other", "data-card": text, text });
    const rank = match[1] === "T" ? "10" : match[1];
    const red = match[2] === "h" || match[2] === "d";
    return el("span", {
      className: "card" + (red ? " red" : ""), "data-card": text, title: text,
      text: rank + SUIT_SYMBOL[match[2]],
    });
  }

  function cardsNode(cards, className) {
    const box = el("span", { className: className || "cards" });
    for (const card of cards) box.append(cardNode(card));
    return box;
  }

  // ---- setup -------------------------------------------------------------------------

  function buildSetup(bots) {
    const box = $("bots");
    box.textContent = "";
    for (let seat = 1; seat <= MAX_BOTS; seat += 1) {
      const select = el("select", { id: "bot-" + seat, className: "bot" });
      select.setAttribute("aria-label", "Bot at seat " + seat);
      select.append(el("option", { value: "", text: "(empty)" }));
      for (const name of bots) select.append(el("option", { value: name, text: name }));
      select.value = seat <= DEFAULT_BOTS ? bots[0] : "";
      box.append(el("label", { className: "bot-choice" },
        el("span", { className: "muted", text: "Seat " + seat + " " }), select));
    }
    const variant = $("variant");
    variant.textContent = "";
    for (const name of VARIANTS) variant.append(el("option", { value: name, text: name }));
    variant.value = "classic";
    $("start").disabled = false;
  }

  function readOptions() {
    const bots = [];
    for (const select of $("bots").querySelectorAll("select.bot")) {
      if (select.value) bots.push(select.value);
    }
    if (bots.length === 0) throw new ApiError("client", "Pick at least two bots.");
    const hands = Number($("hands").value);
    if (!Number.isInteger(hands) || hands < 1 || hands > 1000) {
      throw new ApiError("client", "Hands must be a whole number from 1 to 1000.");
    }
    const options = { bots, hands, preset: $("preset").value, variant: $("variant").value };
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

  async function startGame(event) {
    event.preventDefault();
    if (busy) return;
    let options;
    try {
      options = readOptions();
    } catch (error) {
      showError(error);
      return;
    }
    setBusy(true);
    try {
      const answer = await api("POST", "/v1/games", options);
      showError(null);
      history.replaceState(null, "", "#game=" + answer.game);
      render(answer);
    } catch (error) {
      showError(error);
    } finally {
      setBusy(false);
    }
  }

  async function loadGame(game) {
    setBusy(true);
    try {
      render(await api("GET", "/v1/games/" + game));
    } catch (error) {
      showError(error);
      if (error.code === "not_found") {
        // A game the server no longer has: do not leave another game's table up.
        current = null;
        $("table").hidden = true;
        $("status").textContent = "Start a new session.";
        $("status").dataset.state = "setup";
      }
    } finally {
      setBusy(false);
    }
  }

  async function sendAction(action) {
    if (busy || !current) return;
    const game = current.game;
    setBusy(true);
    try {
      const answer = await api("POST", "/v1/games/" + game + "/act", { action });
      showError(null);
      render(answer);
    } catch (error) {
      showError(error); // the table stays as it was drawn
    } finally {
      setBusy(false);
    }
  }

  // ---- drawing -----------------------------------------------------------------------

  function seatName(state, seat) {
    if (seat === null || seat === undefined) return "\u2014";
    const name = state.players[seat] !== undefined ? state.players[seat] : "?";
    return name + " (seat " + seat + ")";
  }

  function startingStack(view) {
    const rules = view.rules || {};
    return Number.isInteger(rules.boot) && Number.isInteger(rules.starting_boots)
      ? rules.boot * rules.starting_boots : null;
  }

  function variantName(view) {
    const variant = view.rules && view.rules.variant;
    if (!variant) return "";
    return typeof variant === "string" ? variant : variant.name || "custom";
  }

  function render(answer) {
    current = answer;
    const state = answer.state;
    const view = state.view || {};
    const table = $("table");
    table.hidden = false;
    table.dataset.game = answer.game;
    table.dataset.rev = String(Number(table.dataset.rev || "0") + 1);
    table.classList.toggle("over", !!state.over);
    $("game").textContent = answer.game;

    const handNumber = state.over ? state.hands_played : state.hands_played + 1;
    $("hand-no").textContent = "Hand " + handNumber +
      (state.max_hands ? " of " + state.max_hands : "");
    // Once the session is over for you, the hand in the view is not yours to play.
    $("pot").textContent = state.over ? "\u2014" : String(view.pot ?? "");
    $("stake").textContent = state.over ? "\u2014" : String(view.stake ?? "");
    $("boot").textContent = String(view.boot ?? "");
    $("dealer").textContent = seatName(state, view.dealer);
    $("turn").textContent = view.to_act === null || view.to_act === undefined || state.over
      ? "\u2014" : seatName(state, view.to_act);
    $("rules-name").textContent = variantName(view);

    drawCommunity(view);
    drawSeats(state, view);
    drawMine(state, view);
    drawActions(state, view);
    drawStory(state);
    drawLastHand(state);
    drawFinal(state, view);
    drawStatus(state, view);

    if (!state.over && !state.your_turn) {
      // The server plays the bots before it answers, so this should not happen; look again.
      const game = answer.game;
      setTimeout(() => { if (current && current.game === game && !busy) loadGame(game); }, 1000);
    }
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
    if (view.chosen) {
      const chosen = typeof view.chosen === "string" ? view.chosen : JSON.stringify(view.chosen);
      parts.push(el("span", { text: "Variant this hand: " + chosen }));
    }
    box.hidden = parts.length === 0;
    for (const part of parts) box.append(part);
  }

  function knownCards(view, seat) {
    if (seat.seat === view.seat && view.cards) return view.cards;
    if (seat.cards) return seat.cards;
    const shown = view.result && view.result.shown;
    if (shown) {
      for (const item of shown) if (item.seat === seat.seat) return item.cards;
    }
    return null;
  }

  function drawSeats(state, view) {
    const box = $("seats");
    box.textContent = "";
    const seats = view.seats || [];
    state.players.forEach((name, index) => {
      const seat = seats[index] || { seat: index };
      const badges = el("span", { className: "badges" });
      const badge = (cls, text) => badges.append(el("span", { className: "badge " + cls, text }));
      if (!state.over && view.dealer === index) badge("dealer", "dealer");
      if (!state.over && view.to_act === index) badge("to-act", "to act");
      if (seat.in_session === false) badge("out", "out");
      else if (state.over) { /* no hand in play: stacks only */ }
      else if (seat.dealt_in === false) badge("sitting-out", "not dealt in");
      else {
        if (seat.packed) badge("packed", "packed");
        if (seat.all_in) badge("all-in", "all-in");
        if (seat.seen) badge("seen", "seen");
        else badge("blind", seat.blind_bets ? "blind \u00d7" + seat.blind_bets : "blind");
        if (seat.burst) badge("burst", "burst");
      }
      const cards = knownCards(view, seat);
      let cardBox;
      if (cards) cardBox = cardsNode(cards);
      else {
        cardBox = el("span", { className: "cards" });
        if (seat.dealt_in && !seat.packed && !state.over) {
          cardBox.append(el("span", { className: "card back", text: "hidden" }));
        }
      }
      const stack = state.over && Array.isArray(state.stacks) ? state.stacks[index] : seat.stack;
      const node = el("div", {
        className: "seat" + (index === state.seat ? " you" : "") +
          (!state.over && view.to_act === index ? " acting" : "") +
          (seat.packed ? " is-packed" : "") + (seat.in_session === false ? " is-out" : ""),
        "data-seat": index,
      },
      el("div", { className: "seat-head" },
        el("span", { className: "name", text: name }),
        el("span", { className: "muted", text: " seat " + index })),
      el("div", { className: "numbers" },
        el("span", {}, "Stack ", el("b", { className: "stack", text: String(stack ?? "") })),
        state.over ? null : el("span", {}, "In pot ",
          el("b", { className: "chips-in", text: String(seat.chips_in ?? 0) }))),
      badges,
      cardBox);
      box.append(node);
    });
  }

  function drawMine(state, view) {
    const box = $("mine");
    box.textContent = "";
    if (view.cards) {
      box.append("Your cards ", cardsNode(view.cards));
      if (view.category) box.append(el("span", { className: "category", text: view.category }));
    } else if (view.seen === false && !state.over) {
      box.append(el("span", { className: "muted", text: "You are playing blind." }));
    }
  }

  function amountOf(entry) {
    const raw = $("amount").value.trim();
    if (!/^-?\d+$/.test(raw)) {
      clientError("Enter a whole number of chips for " + entry.type + " (" + entry.min +
        " to " + entry.max + ").");
      return null;
    }
    return Number(raw);
  }

  function drawActions(state, view) {
    const box = $("actions");
    box.textContent = "";
    const legal = state.your_turn && !state.over ? view.legal || [] : [];
    const byType = new Map();
    for (const entry of legal) byType.set(entry.type, entry);

    // The amount input serves bet and sideshow.
    const ranged = ["bet", "sideshow"].map((t) => byType.get(t)).filter(Boolean);
    const amountField = $("amount-field");
    const amount = $("amount");
    amountField.hidden = ranged.length === 0;
    if (ranged.length) {
      const low = Math.min(...ranged.map((e) => e.min));
      const high = Math.max(...ranged.map((e) => e.max));
      amount.min = String(low);
      amount.max = String(high);
      amount.step = view.seen ? "2" : "1";
      amount.value = String(ranged[0].min);
      $("amount-range").textContent = ranged.map((e) => e.type + " " + e.min + "\u2013" +
        e.max).join(", ");
    }

    const passEntry = byType.get("pass");
    const passBox = $("pass-cards");
    passBox.textContent = "";
    passBox.hidden = !passEntry;
    if (passEntry) {
      passBox.append(el("span", { className: "label",
        text: "Pick " + (passEntry.count || 3) + " cards to pass " }));
      for (const card of passEntry.cards || []) {
        const check = el("input", { type: "checkbox", "data-card": card, value: card });
        passBox.append(el("label", { className: "pick" }, check, cardNode(card)));
      }
    }

    const choiceEntry = byType.get("choose_variant");
    const choice = $("variant-choice");
    $("variant-choice-field").hidden = !choiceEntry;
    choice.textContent = "";
    if (choiceEntry) {
      for (const name of choiceEntry.variants || []) {
        choice.append(el("option", { value: name, text: name }));
      }
    }

    const ordered = [...legal].sort((a, b) => rank(a.type) - rank(b.type));
    for (const entry of ordered) {
      for (const button of buttonsFor(entry, view)) box.append(button);
    }
    if (!legal.length) {
      box.append(el("span", { className: "muted",
        text: state.over ? "No moves: the session is over." : "Waiting for the bots\u2026" }));
    }
  }

  function rank(type) {
    const index = ACTION_ORDER.indexOf(type);
    return index < 0 ? ACTION_ORDER.length : index;
  }

  function button(entry, label, action, extra) {
    const node = el("button", Object.assign({
      type: "button", "data-type": entry.type,
      className: "act act-" + entry.type.replace(/_/g, "-"), text: label,
    }, extra || {}));
    node.disabled = busy;
    node.addEventListener("click", () => {
      const built = action();
      if (built) sendAction(built);
    });
    return node;
  }

  function buttonsFor(entry, view) {
    const type = entry.type;
    switch (type) {
      case "look": return [button(entry, "Look", () => ({ type }))];
      case "pack": return [button(entry, "Pack", () => ({ type }))];
      case "show": return [button(entry, "Show", () => ({ type }))];
      case "accept": return [button(entry, "Accept sideshow", () => ({ type }))];
      case "refuse": return [button(entry, "Refuse sideshow", () => ({ type }))];
      case "all_in": return [button(entry, "All in", () => ({ type }))];
      case "draw": return [button(entry, "Draw", () => ({ type }))];
      case "keep": return [button(entry, "Keep", () => ({ type }))];
      case "bet":
      case "sideshow": {
        const label = (type === "bet" ? (view.seen ? "Bet (chaal) " : "Bet (blind) ")
          : "Sideshow ") + entry.min + "\u2013" + entry.max;
        return [button(entry, label, () => {
          const amount = amountOf(entry);
          return amount === null ? null : { type, amount };
        })];
      }
      case "discard":
      case "buy_joker":
        return (entry.cards || []).map((card) => button(entry,
          (type === "discard" ? "Discard " : "Buy a joker for ") + card,
          () => ({ type, card }), { "data-card": card }));
      case "pass":
        return [button(entry, "Pass cards", () => {
          const cards = [...$("pass-cards").querySelectorAll("input:checked")]
            .map((input) => input.value);
          const count = entry.count || 3;
          if (cards.length !== count) {
            clientError("Pick exactly " + count + " cards to pass.");
            return null;
          }
          return { type, cards };
        })];
      case "choose_variant":
        return [button(entry, "Choose variant", () => ({ type, variant: $("variant-choice").value }))];
      default: {
        const label = type.replace(/_/g, " ");
        return [button(entry, label.charAt(0).toUpperCase() + label.slice(1), () => ({ type }))];
      }
    }
  }

  function drawStory(state) {
    const list = $("story");
    list.textContent = "";
    for (const line of state.story || []) list.append(el("li", { text: line }));
  }

  function netLine(state, net) {
    return el("ul", { className: "net" }, ...net.map((value, seat) => el("li", {
      "data-seat": seat,
      text: (state.players[seat] ?? "seat " + seat) + ": " + (value > 0 ? "+" : "") + value,
    })));
  }

  function drawLastHand(state) {
    const box = $("last-hand");
    box.textContent = "";
    const finished = state.finished || [];
    const last = finished[finished.length - 1];
    if (!last) {
      box.append(el("p", { className: "muted", text: "None yet." }));
      return;
    }
    box.append(el("p", { className: "hand-title", text: "Hand " + last.number }));
    box.append(el("ol", { className: "story" },
      ...(last.story || []).map((line) => el("li", { text: line }))));
    if (last.net && last.net.length) box.append(netLine(state, last.net));
  }

  function drawFinal(state, view) {
    const box = $("final");
    box.textContent = "";
    box.hidden = !state.over;
    if (!state.over) return;
    const start = startingStack(view);
    box.append(el("h2", { text: "Session over" }));
    box.append(el("p", { text: "Hands played: " + state.hands_played +
      (start !== null ? "; everyone started with " + start + " chips." : ".") }));
    const rows = state.players.map((name, seat) => {
      const stack = state.stacks[seat];
      const net = start === null ? "" : (stack - start > 0 ? "+" : "") + (stack - start);
      return el("tr", { className: "final-row", "data-seat": seat },
        el("td", { text: name + " (seat " + seat + ")" }),
        el("td", { className: "final-stack", text: String(stack) }),
        el("td", { className: "final-net", text: net }));
    });
    box.append(el("table", { className: "standings" },
      el("thead", {}, el("tr", {}, el("th", { text: "Player" }), el("th", { text: "Stack" }),
        el("th", { text: "Change" }))),
      el("tbody", {}, ...rows)));
  }

  function drawStatus(state, view) {
    const status = $("status");
    if (state.over) {
      const stacks = state.players.map((name, seat) => name + " " + state.stacks[seat]);
      status.textContent = "Session over after " + state.hands_played + " hand" +
        (state.hands_played === 1 ? "" : "s") + ". Final stacks: " + stacks.join(", ") + ".";
    } else if (state.your_turn) {
      let text = "Your turn.";
      const ask = view.sideshow;
      if (ask && ask.target === state.seat) {
        text = seatName(state, ask.asker) + " asks you for a sideshow: accept or refuse.";
      }
      status.textContent = text;
    } else {
      status.textContent = "Waiting for the bots\u2026";
    }
    status.dataset.state = state.over ? "over" : state.your_turn ? "your-turn" : "waiting";
  }

  // ---- start -------------------------------------------------------------------------

  async function init() {
    $("setup").addEventListener("submit", startGame);
    try {
      const about = await api("GET", "/v1");
      buildSetup(about.bots || []);
      $("status").textContent = "Pick your opponents and start a session.";
      $("status").dataset.state = "setup";
    } catch (error) {
      $("status").textContent = "The server did not answer.";
      showError(error);
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
