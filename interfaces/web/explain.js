/*
 * The Teen Patti web table's explanations and memory (app.js draws the rest): shown
 * hands with the cards that count and what wild cards became, the hand-end panel's body,
 * the session's end (ranked, crowned, the chip chart, play again), this session's hands
 * and their replays, the variant's rules, limit lines and "How to play".
 * Element ids and classes: see app.js's header.
 */
"use strict";

/**
 * Build the explanations over app.js's helpers: ``ui`` holds ``el``, ``cardNode``,
 * ``signed``, ``winnerText``, ``SUITS``, ``RANKS``, ``REPLAY_MS``, ``openDialog``,
 * ``playAgain`` and the getters ``current()`` and ``about()``.
 */
window.TeenPattiExplain = function (ui) {
  const { el, cardNode, signed, winnerText, SUITS, RANKS } = ui;
  const $ = (id) => document.getElementById(id);
  const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

  function drawFinal(state, settings) {
    const box = $("final");
    box.textContent = "";
    box.hidden = !state.over;
    if (!state.over) return;
    const ranking = state.ranking || [];
    const crowned = ranking.filter((row) => row.winner).map((row) => row.name);
    box.append(el("h2", { text: "Session over" }));
    box.append(el("p", { className: "session-end", text: (state.session_end || "") +
      " Hands played: " + state.hands_played + "." }));
    box.append(el("p", { className: "crowned", text: crowned.length > 1 ?
      "Winners, sharing the biggest stack: " + crowned.join(" and ") + "." :
      (crowned[0] === "you" ? "You win the session!" : crowned[0] + " wins the session.") }));
    const rows = ranking.map((row) => el("tr", {
      className: "final-row" + (row.winner ? " winner-row" : ""), "data-seat": row.seat,
    }, el("td", { className: "place", text: ordinal(row.place) }),
    el("th", { scope: "row" }, row.name, row.winner ?
      el("span", { className: "crown", text: " \u265b winner" }) : null),
    el("td", { className: "final-stack", text: String(row.stack) }),
    el("td", { className: "final-net", text: signed(row.net) })));
    box.append(el("table", { className: "standings" },
      el("thead", {}, el("tr", {}, el("th", { scope: "col", text: "Place" }),
        el("th", { scope: "col", text: "Player" }),
        el("th", { scope: "col", text: "Chips" }), el("th", { scope: "col", text: "Change" }))),
      el("tbody", {}, ...rows)));
    box.append(chipChart(state));
    const again = el("button", { id: "play-again", type: "button", className: "primary",
      text: "Play again with the same settings" });
    again.addEventListener("click", () => ui.playAgain(settings));
    box.append(el("div", { className: "setup-buttons" }, again));
  }

  const ordinal = (n) => n + (n % 10 === 1 && n !== 11 ? "st" : n % 10 === 2 && n !== 12 ?
    "nd" : n % 10 === 3 && n !== 13 ? "rd" : "th");

  const CHART_COLOURS = ["#0b3d26", "#b42318", "#1d4ed8", "#6b2fd0", "#8a5a00", "#0e7490",
    "#be185d"];

  /** Every player's chips after each hand, as lines (SVG drawn here). */
  function chipChart(state) {
    const rows = state.chips || [];
    const ns = "http://www.w3.org/2000/svg";
    const width = 560;
    const height = 220;
    const pad = { left: 44, right: 12, top: 12, bottom: 28 };
    const top = Math.max(1, ...rows.flat());
    const x = (i) => pad.left + (rows.length > 1 ? i * (width - pad.left - pad.right) /
      (rows.length - 1) : 0);
    const y = (v) => height - pad.bottom - v * (height - pad.top - pad.bottom) / top;
    const svg = document.createElementNS(ns, "svg");
    const node = (tag, attrs, text) => {
      const item = document.createElementNS(ns, tag);
      for (const [key, value] of Object.entries(attrs)) item.setAttribute(key, String(value));
      if (text !== undefined) item.textContent = text;
      return item;
    };
    svg.setAttribute("id", "chip-chart");
    svg.setAttribute("viewBox", "0 0 " + width + " " + height);
    svg.setAttribute("role", "img");
    svg.setAttribute("aria-label", "Chips of every player after each hand: " +
      state.players.map((name, seat) => name + " " +
        rows.map((row) => row[seat]).join(", ")).join("; "));
    svg.append(node("line", { x1: pad.left, y1: y(0), x2: width - pad.right, y2: y(0),
      stroke: "#6b6657" }));
    svg.append(node("line", { x1: pad.left, y1: y(0), x2: pad.left, y2: pad.top,
      stroke: "#6b6657" }));
    svg.append(node("text", { x: pad.left - 6, y: y(top) + 4, "text-anchor": "end",
      "font-size": 12, fill: "#1d1d1f" }, String(top)));
    svg.append(node("text", { x: pad.left - 6, y: y(0) + 4, "text-anchor": "end",
      "font-size": 12, fill: "#1d1d1f" }, "0"));
    svg.append(node("text", { x: width - pad.right, y: height - 8, "text-anchor": "end",
      "font-size": 12, fill: "#1d1d1f" }, "hand " + (rows.length - 1)));
    svg.append(node("text", { x: pad.left, y: height - 8, "font-size": 12, fill: "#1d1d1f" },
      "start"));
    state.players.forEach((name, seat) => {
      const colour = CHART_COLOURS[seat % CHART_COLOURS.length];
      const points = rows.map((row, i) => x(i).toFixed(1) + "," + y(row[seat]).toFixed(1));
      svg.append(node("polyline", { points: points.join(" "), fill: "none", stroke: colour,
        "stroke-width": seat === state.seat ? 3.5 : 2, "data-seat": seat }));
    });
    const legend = el("ul", { className: "chart-legend" }, ...state.players.map((name, seat) =>
      el("li", {}, el("span", { className: "swatch swatch-" + (seat % CHART_COLOURS.length) }),
        name)));
    return el("figure", { className: "chart" }, svg,
      el("figcaption", { text: "Chips after each hand" }), legend);
  }

  /** This session's hands, each with its result and a button to replay it. */
  function drawHandList(state) {
    const list = $("hand-list");
    list.textContent = "";
    const hands = state.finished || [];
    $("hand-list-empty").hidden = hands.length > 0;
    for (const hand of hands) {
      const replay = el("button", { type: "button", className: "replay-hand",
        "data-hand": hand.number, text: "Replay", "aria-label": "Replay hand " + hand.number });
      replay.addEventListener("click", () => replayHand(hand, state));
      list.append(el("li", { "data-hand": hand.number },
        el("span", { className: "result", text: "Hand " + hand.number + ": " +
          winnerText(hand.summary, state.players) + " (you " +
          signed(hand.net[state.seat]) + ")" }), replay));
    }
  }

  /** Replay a past hand: its story line by line, then how it ended. */
  async function replayHand(hand, state) {
    const dialog = $("past-hand");
    $("past-hand-title").textContent = "Hand " + hand.number + ": " + hand.summary.end_words;
    const story = $("past-story");
    const body = $("past-hand-body");
    story.textContent = "";
    body.textContent = "";
    if (!dialog.open) dialog.showModal();
    const token = {};
    dialog.token = token;
    for (const line of hand.story) {
      if (dialog.token !== token || !dialog.open) return;
      story.append(el("li", { text: line }));
      await sleep($("replay").checked ? ui.REPLAY_MS / 2 : 0);
    }
    if (dialog.token === token) handEndBody(body, hand.summary, state.players, state.seat);
  }

  /** The variant's rules on the table, the limit lines and the notice of a moved seat. */
  function drawGuide(state) {
    const guide = state.guide || {};
    $("variant-rules").textContent = "";
    $("variant-rules").append(el("b", { text: "Variant: " + (guide.variant_name || "") }),
      " \u2014 " + (guide.variant_words || ""));
    const limits = $("limits");
    limits.textContent = (state.limits || []).join(" ");
    $("table-notice").hidden = !$("table-notice").textContent;
  }

  function openHowTo() {
    const list = $("howto-list");
    list.textContent = "";
    const lines = ui.current() && !$("table").hidden ? ui.current().state.guide.how_to_play :
      ui.about().how_to_play[$("preset").value];
    for (const line of lines) list.append(el("li", { text: line }));
    const guide = ui.current() && !$("table").hidden ? ui.current().state.guide : null;
    $("howto-variant").textContent = guide ? "Variant " + guide.variant_name + ": " +
      guide.variant_words : $("variant-words").textContent;
    ui.openDialog("howto");
  }

  /** A shown hand's cards: the three that count first, in the order they rank, wild and
   * imaginary cards marked with what they became, the others dimmed. */
  function playedNode(hand) {
    const box = el("span", { className: "cards played" });
    for (const entry of hand.played || []) {
      const node = entry.card ? cardNode(entry.card) :
        el("span", { className: "card other imagined", role: "img",
          "aria-label": "imaginary card" }, el("span", { className: "corner", text: "?" }));
      node.classList.add("played-card", entry.counts ? "counts" : "unused");
      if (entry.as) {
        node.dataset.as = entry.as;
        const became = cardWords(entry.as);
        node.setAttribute("aria-label", (node.getAttribute("aria-label") || "") +
          ", wild, counts as " + became);
        box.append(el("span", { className: "wild" }, node,
          el("span", { className: "became", text: "= " + cardLabel(entry.as) })));
      } else box.append(node);
    }
    return box;
  }

  function cardLabel(text) {
    const match = /^([2-9TJQKA])([shdc])$/.exec(text);
    return match ? (match[1] === "T" ? "10" : match[1]) + SUITS[match[2]][0] : text;
  }

  function cardWords(text) {
    const match = /^([2-9TJQKA])([shdc])$/.exec(text);
    return match ? (RANKS[match[1]] || match[1]) + " of " + SUITS[match[2]][1] : text;
  }

  function shownNode(hand, won) {
    return el("li", { className: "shown-hand" + (won ? " won" : ""), "data-seat": hand.seat },
      el("span", { className: "who", text: hand.name }), playedNode(hand),
      el("span", { className: "category", text: hand.category }),
      el("span", { className: "hand-name", text: hand.hand_name }));
  }

  /** What a hand's end panel says (also the replay of a past hand). */
  function handEndBody(body, end, players, me) {
    body.append(el("p", { className: "winner", text: winnerText(end, players) + "." }));
    if (end.reason) {
      body.append(el("p", { className: "reason", text: "Why: " + end.reason + "." }));
    }
    if (end.shown.length) {
      body.append(el("ul", { className: "shown" }, ...end.shown.map((hand) =>
        shownNode(hand, end.winners.includes(hand.seat)))));
    }
    if (end.pots.length) {
      body.append(el("ul", { className: "pots" }, ...end.pots.map((pot, index) => el("li", {
        className: "pot-row",
        text: (end.pots.length === 1 ? "Pot " : index === 0 ? "Main pot " : "Side pot " +
          index + " ") + pot.amount + ": " + pot.winners.map((s) => players[s]).join(", "),
      }))));
    }
    const net = end.net;
    body.append(el("p", { className: "your-net", text: "Your net this hand: " +
      signed(net[me]) + " chips." }));
    body.append(el("ul", { className: "nets" }, ...net.map((value, seat) => el("li", {
      className: "net-row", "data-seat": seat,
    }, players[seat] + " ", el("b", { className: "net", text: signed(value) })))));
    for (const sideshow of end.sideshow_hands || []) {
      body.append(el("section", { className: "sideshow-hands",
        "aria-label": "Sideshow between " + players[sideshow.asker] + " and " +
          players[sideshow.target] },
      el("h3", { text: "Your sideshow with " + players[sideshow.asker === me ?
        sideshow.target : sideshow.asker] + " (only the two of you see these)" }),
      el("ul", { className: "shown" }, ...sideshow.hands.map((hand) =>
        shownNode(hand, hand.seat !== sideshow.packed))),
      el("p", { className: "sideshow-words", text: sideshow.words + "." })));
    }
    for (const text of [...end.sideshows, ...end.hidden]) {
      body.append(el("p", { className: "hint", text }));
    }
  }

  return { drawFinal, drawHandList, drawGuide, openHowTo, playedNode, handEndBody };
};
