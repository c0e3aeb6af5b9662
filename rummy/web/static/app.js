// The page of `rummy serve`: load a position, draw it, ask for the best move, build and check a
// turn, ask for hints. Everything it knows about a game comes from the API's `view` objects
// (view.game says whether the table is shared, whether the game discards...): no game names here.
"use strict";

const $ = (id) => document.getElementById(id);

// What the page holds: the position as loaded, and what the panels show.
const S = {
  text: null,     // the position's text, as sent to the API
  id: null,       // the shipped id when loaded from the list (hints use its stored answer)
  view: null,     // /api/show's view
  best: null,     // /api/best's answer
  frame: 0,       // the viewer's frame: 0 before the turn, k after step k
  move: null,     // the turn being built (My move), see newMove()
  moving: false,  // My move mode is on
};

// ------------------------------------------------------------------ API
async function api(path, body) {
  const init = body === undefined ? {} : {
    method: "POST", headers: {"Content-Type": "application/json"}, body: JSON.stringify(body)};
  let response;
  try {
    response = await fetch(path, init);
  } catch (error) {
    throw {error: "the server did not answer (" + error.message + ")", errors: []};
  }
  let data = null;
  try { data = await response.json(); } catch (_) { /* not JSON: told below */ }
  if (!response.ok) {
    throw data && data.error ? data : {error: "HTTP " + response.status, errors: []};
  }
  return data;
}

function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "class") node.className = value;
    else if (key === "text") node.textContent = value;
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value === true ? "" : value);
  }
  for (const child of children) {
    if (child !== null && child !== undefined) node.append(child);  // strings become text nodes
  }
  return node;
}

function say(text) { $("result").textContent = text; }

function showError(box, error) {
  box.replaceChildren(el("strong", {text: error.error || String(error)}));
  const more = (error.errors || []).slice(1);
  if (more.length) box.append(el("ul", {}, ...more.map((line) => el("li", {text: line}))));
  box.hidden = false;
  say(error.error || String(error));
}

// ---------------------------------------------------------------- cards
const SUITS = {S: ["♠", "spades"], H: ["♥", "hearts"], D: ["♦", "diamonds"], C: ["♣", "clubs"]};
const COLOURS = {K: "black", B: "blue", R: "red", O: "orange"};
const RANKS = {A: "ace", J: "jack", Q: "queen", K: "king"};

function isJoker(card) { return card.startsWith("*"); }

// A card as the page reads it: what to print on it, its colour class and its spoken name.
function cardFace(card, deck) {
  if (isJoker(card)) {
    const stands = card.includes("=") ? card.slice(card.indexOf("=") + 1) : null;
    const as = stands ? cardFace(stands, deck) : null;
    return {text: "★", small: as ? as.text : "", cls: "joker", label: as ? "joker as " + as.label : "joker"};
  }
  if (deck === "tiles") {
    const colour = COLOURS[card[0]] || "";
    return {text: card.slice(1), small: "", cls: "tile-" + colour, label: colour + " " + card.slice(1)};
  }
  const rank = card.slice(0, -1), suit = SUITS[card.slice(-1)] || ["?", "?"];
  const red = suit[1] === "hearts" || suit[1] === "diamonds";
  return {text: rank + suit[0], small: "", cls: red ? "red" : "black", label: (RANKS[rank] || rank) + " of " + suit[1]};
}

// One card element. `where` is "hand", a play's name or "discard"; `index` its place there and
// `nth` which of the equal cards there it is (the selection's key: it outlives a redrawn table).
function cardEl(card, deck, where, index, classes, nth) {
  const face = cardFace(card, deck);
  const node = el("span", {class: "card " + face.cls + " " + (classes || []).join(" "),
    "data-card": card, "data-where": where, "data-index": index, "data-nth": nth || 0, role: "img", "aria-label": face.label},
  el("span", {class: "face", text: face.text, "aria-hidden": "true"}));
  if (face.small) node.append(el("span", {class: "stands", text: face.small, "aria-hidden": "true"}));
  return node;
}

// How many of each card a list holds (cards repeat in two-pack games).
function counts(cards) {
  const found = new Map();
  for (const card of cards) found.set(card, (found.get(card) || 0) + 1);
  return found;
}

// Every play's cards with those laid off on it.
function allCards(play) {
  return play.cards.concat(...(play.layoffs || []).map((layoff) => layoff.cards));
}

// The equal cards before each one: the `nth` of cardEl.
function nths(cards) {
  const seen = new Map();
  return cards.map((card) => { const n = seen.get(card) || 0; seen.set(card, n + 1); return n; });
}

// --------------------------------------------------------------- layout
// Every table the page draws is a "layout" made by the server: show's view, the table after the
// steps so far (/api/steps), check's end state, best's end state; or a frame of best's plan
// (frameLayout).

// The mover holding another hand: hot and warm cards are those still held, the count is redone.
function moverWith(player, hand) {
  const held = counts(hand);
  const still = (cards) => cards.filter((card) => held.get(card));
  const facts = (player.facts || []).map((fact) => (/^\d+ in hand$/.test(fact) ? hand.length + " in hand" : fact));
  return {...player, hand: hand, hand_count: null, hot: still(player.hot || []), warm: still(player.warm || []), facts: facts};
}

// Draw a layout into `box`. Options: marks {play: {card: [kinds]}}, touched {play: Set of cards},
// flagged {play: Set of cards} (breaches, "*" for every card), move (the My move state).
function drawTable(box, layout, options) {
  const o = options || {};
  box.replaceChildren();
  const spaced = !layout.game.shared_table;
  const shown = new Set();
  const groups = el("div", {class: "groups"});
  for (const player of layout.players) {
    const group = el("div", {class: "player" + (player.to_move ? " to-move" : ""), "data-player": player.name});
    group.append(playerHead(player), handEl(player, layout, o));
    if (spaced) {
      const mine = layout.plays.filter((p) => p.space === player.name);
      mine.forEach((p) => shown.add(p.name));
      // New plays go in the mover's space, or in any space where the game allows it (House Rummy).
      const open = player.to_move || layout.game.plays_in_any_space;
      group.append(playsEl(mine, layout, o, open ? player.name : null));
    }
    groups.append(group);
  }
  box.append(groups);
  const rest = layout.plays.filter((p) => !shown.has(p.name));
  if (!spaced || rest.length) {
    box.append(el("div", {class: "shared"}, el("h3", {text: spaced ? "Other plays" : "Table"}),
      playsEl(rest, layout, o, spaced ? null : "")));  // a shared table: one new-play zone
  }
  box.append(pilesEl(layout, o));
  if (o.move) {  // the cards the mover may pick up take the keyboard focus too
    box.querySelectorAll(".card").forEach((card) => {
      const where = card.dataset.where;
      if (where === "hand" || layout.plays.some((p) => p.name === where)) {
        card.setAttribute("tabindex", "0");
        card.setAttribute("role", "button");
      }
    });
  }
}

function playerHead(player) {
  const head = el("div", {class: "player-head"}, el("strong", {text: player.name}));
  if (player.side && player.side !== player.name) head.append(el("span", {class: "fact", text: "side " + player.side}));
  if (player.to_move) head.append(el("span", {class: "badge", text: "to move"}));
  for (const fact of player.facts || []) head.append(el("span", {class: "fact", text: fact}));
  return head;
}

function handEl(player, layout, o) {
  const row = el("div", {class: "hand", "data-hand": player.name}, el("span", {class: "label", text: "hand"}));
  if (player.hand === null || player.hand === undefined) {
    row.append(el("span", {class: "unknown", text: player.hand_count + " " + unitWord(layout, player.hand_count) + ", not known"}));
    return row;
  }
  const hot = counts(player.hot || []), warm = counts(player.warm || []);
  const cards = el("span", {class: "cards"});
  const nth = nths(player.hand);
  player.hand.forEach((card, i) => {
    const classes = [hot.get(card) ? "hot" : warm.get(card) ? "warm" : ""];
    if (o.move && player.to_move && o.move.selected.has(selectionKey("hand", card, nth[i]))) classes.push("selected");
    if (player.to_move && o.flagged && o.flagged.hand && o.flagged.hand.has(card)) classes.push("breach");
    cards.append(cardEl(card, layout.deck, player.to_move ? "hand" : "hand-of-" + player.name, i, classes, nth[i]));
  });
  if (!player.hand.length) cards.append(el("span", {class: "unknown", text: "(empty)"}));
  row.append(cards);
  if ((player.hot || []).length) row.append(el("span", {class: "fact hot-note", text: "hot " + player.hot.join(" ") + ": must be played"}));
  if ((player.warm || []).length) row.append(el("span", {class: "fact warm-note", text: "warm " + player.warm.join(" ")}));
  return row;
}

// The plays of one space (or of the shared table), and in My move the zone for a new play there.
function playsEl(plays, layout, o, space) {
  const list = el("div", {class: "plays"});
  for (const play of plays) list.append(playEl(play, layout, o));
  if (o.move && space !== null) {
    const label = space ? "new play in " + space + "'s space" : "new play";
    list.append(el("div", {class: "new-play drop", "data-space": space, role: "button", tabindex: "0",
      "aria-label": label}, el("span", {text: "+ " + label})));
  }
  return list;
}

function playEl(play, layout, o) {
  const marks = (o.marks || {})[play.name] || {};
  const touched = (o.touched || {})[play.name] || new Set();
  const flagged = (o.flagged || {})[play.name] || new Set();
  const node = el("div", {class: "play" + (o.move ? " drop" : "") + (flagged.has("*") ? " breach" : ""),
    "data-play": play.name, role: o.move ? "button" : null, tabindex: o.move ? "0" : null,
    "aria-label": o.move ? "play " + play.name : null});
  const label = el("div", {class: "play-name"}, el("span", {text: play.name}));
  if (play.score !== null && play.score !== undefined) label.append(el("span", {class: "score", text: play.score + " pts"}));
  if (play.whole === false) label.append(el("span", {class: "not-whole", text: "not whole"}));
  const cards = el("div", {class: "cards"});
  // How a card got there (marks), whether the step touched it, whether a breach names it.
  const looks = (card) => {
    const classes = (marks[card] || []).map((kind) => "mark-" + kind);
    if (touched.has(card)) classes.push("touched");
    if (flagged.has(card) || flagged.has("*")) classes.push("breach");
    return classes;
  };
  const nth = nths(play.cards);
  play.cards.forEach((card, i) => {
    const classes = looks(card);
    if (o.move && o.move.selected.has(selectionKey(play.name, card, nth[i]))) classes.push("selected");
    cards.append(cardEl(card, layout.deck, play.name, i, classes, nth[i]));
  });
  // Cards laid off stay their layer's (they are not moved): drawn after the play, with whose they are.
  for (const layoff of play.layoffs || []) {
    const group = el("span", {class: "layoffs", "data-by": layoff.by});
    layoff.cards.forEach((card, i) => group.append(cardEl(card, layout.deck, "layoff", i, ["layoff", ...looks(card)])));
    group.append(el("span", {class: "by", text: "laid off by " + layoff.by}));
    cards.append(group);
  }
  node.append(label, cards);
  return node;
}

function pilesEl(layout, o) {
  const piles = el("div", {class: "piles"});
  if (layout.game.discards || layout.discard.length) {
    const pile = el("div", {class: "pile discard" + (o.move && layout.game.discards ? " drop discard-zone" : ""),
      role: o.move ? "button" : null, tabindex: o.move ? "0" : null, "aria-label": o.move ? "discard" : null},
    el("span", {class: "label", text: "discard (bottom to top)"}));
    const cards = el("span", {class: "cards"});
    layout.discard.forEach((card, i) => cards.append(cardEl(card, layout.deck, "discard", i,
      i === layout.discard.length - 1 && o.topTouched ? ["touched"] : [])));
    if (!layout.discard.length) cards.append(el("span", {class: "unknown", text: "empty"}));
    pile.append(cards);
    piles.append(pile);
  }
  if (layout.stock !== null && layout.stock !== undefined) {
    piles.append(el("div", {class: "pile"}, el("span", {class: "label", text: "stock"}),
      el("span", {text: layout.stock + " " + unitWord(layout, layout.stock)})));
  }
  if (layout.upcard) {
    piles.append(el("div", {class: "pile"}, el("span", {class: "label", text: "upcard"}),
      cardEl(layout.upcard, layout.deck, "upcard", 0, [])));
  }
  return piles;
}

// ------------------------------------------------------------- loading
async function loadList() {
  const select = $("load-select");
  try {
    const data = await api("/api/positions");
    select.replaceChildren(el("option", {value: "", text: "choose a position…"}));
    for (const collection of data.collections) {
      const group = el("optgroup", {label: collection.title});
      for (const p of collection.positions) {
        const facts = [p.rules, p.kind, p.tier, p.phase === "draw" ? "draw phase" : null].filter(Boolean);
        group.append(el("option", {value: p.id, text: p.name + "  (" + facts.join(", ") + ")"}));
      }
      select.append(group);
    }
  } catch (error) {
    select.replaceChildren(el("option", {value: "", text: "no list"}));
    showError($("load-error"), error);
  }
}

async function loadShipped() {
  const id = $("load-select").value;
  if (!id) { showError($("load-error"), {error: "choose a position from the list first"}); return; }
  try {
    const entry = await api("/api/positions/" + id.split("/").map(encodeURIComponent).join("/"));
    $("paste").value = entry.text;
    await showPosition(entry.text, id);
  } catch (error) {
    showError($("load-error"), error);
  }
}

function loadFile(event) {
  const file = event.target.files[0];
  if (!file) return;
  const reader = new FileReader();
  reader.onload = () => { $("paste").value = reader.result; showPosition(String(reader.result), null); };
  reader.onerror = () => showError($("load-error"), {error: "could not read " + file.name});
  reader.readAsText(file);
}

async function showPosition(text, id) {
  $("load-error").hidden = true;
  let data;
  try {
    data = await api("/api/show", {position: text});
  } catch (error) {
    showError($("load-error"), error);
    return;
  }
  Object.assign(S, {text: text, id: id, view: data.view, best: null, frame: 0, move: null, moving: false});
  for (const panel of ["best-panel", "move-panel"]) $(panel).hidden = true;
  $("hints").replaceChildren();
  drawPosition();
  say("Loaded " + (id || "the position") + ": " + data.view.rules + ", " + data.view.to_move + " to move.");
}

function drawPosition() {
  const v = S.view;
  $("position").hidden = false;
  const puzzle = $("puzzle");
  puzzle.hidden = !v.puzzle;
  if (v.puzzle) {
    const facts = [v.puzzle.tier, v.puzzle.kind ? "kind " + v.puzzle.kind : null,
      v.puzzle.target !== undefined && v.puzzle.target !== null ? "target " + v.puzzle.target : null].filter(Boolean);
    puzzle.replaceChildren(el("strong", {text: "Puzzle: " + capital(v.puzzle.task || "find the best turn") + "."}),
      el("span", {text: " " + facts.join(", ")}));
  }
  $("summary").textContent = v.rules + ": " + v.summary + (v.facts.length ? " · " + v.facts.join(", ") : "");
  $("turn-line").textContent = v.to_move + " to move, " + v.phase + " phase";
  const drawing = v.phase === "draw";
  $("best-button").textContent = drawing ? "Draw advice" : "Best move";
  $("my-move-button").hidden = drawing;  // a turn as steps starts in the play phase
  setMovingButton();
  $("hint-button").hidden = !v.puzzle;
  $("hint-panel").hidden = !v.puzzle;
  drawMain();
}

function capital(text) { return text.charAt(0).toUpperCase() + text.slice(1); }

function drawMain() {
  const focus = focusKey(document.activeElement);
  if (S.moving) drawTable($("table"), S.move.layout, {move: S.move});
  else drawTable($("table"), S.view, {});
  // Redrawing replaces the elements: a keyboard user keeps their place.
  const again = focus && $("table").querySelector(focus);
  if (again) again.focus();
}

function focusKey(node) {
  if (!node || !$("table").contains(node)) return null;
  const d = node.dataset;
  if (node.matches(".card")) return '.card[data-where="' + CSS.escape(d.where) + '"][data-index="' + d.index + '"]';
  if (node.matches(".play")) return '.play[data-play="' + CSS.escape(d.play) + '"]';
  if (node.matches(".new-play")) return '.new-play[data-space="' + CSS.escape(d.space) + '"]';
  if (node.matches(".discard-zone")) return ".discard-zone";
  return null;
}

// ------------------------------------------------------------ best move
async function askBest() {
  const panel = $("best-panel");
  panel.hidden = false;
  $("best-error").hidden = true;
  $("best-status").textContent = "Thinking…";
  for (const id of ["best-gain", "best-verified", "best-lines"]) $(id).textContent = "";
  for (const id of ["best-steps", "draw-options"]) $(id).replaceChildren();
  $("viewer").hidden = true;
  const button = $("best-button");
  button.disabled = true;
  const asked = S.text;
  try {
    const best = await api("/api/best", {position: asked});
    if (asked !== S.text) return;  // another position was loaded meanwhile
    S.best = best;
    drawBest();
  } catch (error) {
    $("best-status").textContent = "";
    showError($("best-error"), error);
  } finally {
    button.disabled = false;
  }
}

const STATUS_WORDS = {
  optimal: "optimal: no turn scores more",
  feasible: "feasible: the time limit ran out; a good turn, perhaps not the best",
  no_legal_turn: "no legal turn",
};

function drawBest() {
  const b = S.best, drawing = S.view.phase === "draw";
  $("best-title").textContent = drawing ? "Draw advice" : "Best move";
  $("best-status").textContent = "Status: " + (STATUS_WORDS[b.status] || b.status.replace(/_/g, " "));
  if (b.gain !== undefined && b.gain !== null) {
    // the command line's own words: "= table points won 25 + hand penalty avoided 34"
    $("best-gain").textContent = (b.view.gain_name || "gain") + " " + b.gain + (b.view.breakdown ? " " + b.view.breakdown : "");
  }
  drawOptions(b);
  const steps = b.view.steps || [];
  $("best-steps").replaceChildren(...steps.map((words, i) =>
    el("li", {"data-step": i + 1, onclick: () => showFrame(i + 1)}, words)));
  if (b.verified === true) $("best-verified").textContent = "✔ verified by the checker";
  else if (b.verified === false) $("best-verified").textContent = "✘ the checker does not agree: " +
    (b.verify_breaches || []).map((x) => x.message).join("; ");
  $("best-lines").textContent = (b.view.lines || []).join("\n");
  $("viewer").hidden = !(steps.length || b.view.after);
  const slider = $("frame-slider");
  slider.max = String(steps.length);
  showFrame(0);
  $("best-panel").scrollIntoView({block: "start"});
  say((drawing ? "Draw advice: " : "Best move: ") + b.status.replace(/_/g, " ") +
    (b.gain !== undefined && b.gain !== null ? ", gain " + b.gain : ""));
}

// The draw phase: every way to draw, ranked by the best turn it leads to.
function drawOptions(b) {
  const list = $("draw-options");
  const options = b.options || [];
  list.hidden = !options.length;
  const words = b.view.options || [];
  list.replaceChildren(...options.map((option, i) => {
    const where = words[i] || option.from + (option.cards ? ": " + option.cards.join(" ") : "");
    const chosen = b.draw && b.draw.from === option.from && (b.draw.take || 0) === (option.take || 0);
    return el("li", {class: chosen ? "chosen" : null},
      el("span", {class: "value", text: String(Math.round(option.value * 100) / 100)}), " " + where + (chosen ? "  ← take this" : ""));
  }));
}

// Frame 0 is the table before the turn, frame k the table after step k; the last shows the
// table after the turn with every card marked by how it got there.
function showFrame(k) {
  const b = S.best, steps = b.view.steps || [], frames = b.view.frames || [];
  k = Math.max(0, Math.min(k, steps.length));
  S.frame = k;
  $("frame-slider").value = String(k);
  $("prev-button").disabled = k === 0;
  $("next-button").disabled = k === steps.length;
  document.querySelectorAll("#best-steps li").forEach((li, i) => {
    li.classList.toggle("current", i + 1 === k);
    if (i + 1 === k) li.setAttribute("aria-current", "step"); else li.removeAttribute("aria-current");
  });
  const last = k === steps.length && b.view.after;
  $("legend").hidden = !last;
  if (last) {
    drawTable($("frame-table"), b.view.after, {marks: b.view.after.marks});
    $("frame-label").textContent = "After the turn (step " + k + " of " + steps.length + ")";
  } else if (k > 0 && frames[k - 1]) {
    const before = k > 1 ? frames[k - 2] : null;
    const frame = frameLayout(frames[k - 1]);
    drawTable($("frame-table"), frame, {touched: touchedBy(before ? before.plays : S.view.plays, frames[k - 1].plays),
      topTouched: !!frames[k - 1].discard});
    $("frame-label").textContent = "Step " + k + " of " + steps.length + ": " + steps[k - 1];
  } else if (k > 0) {  // no table for this step (the answer gave none): the words alone
    drawTable($("frame-table"), S.view, {});
    $("frame-label").textContent = "Step " + k + " of " + steps.length + ": " + steps[k - 1] + " (table before the turn)";
  } else {
    drawTable($("frame-table"), S.view, {});
    $("frame-label").textContent = "Before the turn" + (steps.length ? " (" + steps.length + " steps)" : "");
  }
}

// A frame of the plan drawn as the server gives it: each play with every card on it, those laid
// off included; the lay-offs the tables before and after the turn know are drawn as lay-offs
// again (with whose they are), any other card as it comes. Nothing more is claimed of a frame's
// plays (whether whole, their score): the frame does not say.
function frameLayout(frame) {
  // A draw from the discard pile took its top cards before the first step.
  const draw = S.best.draw;
  const pile = draw && draw.from === "discard" ? S.view.discard.slice(0, S.view.discard.length - (draw.take || 1))
    : S.view.discard.slice();
  const known = knownLayoffs([S.view, S.best.view.after]);
  return {...S.view,
    plays: frame.plays.map((p) => splitLayoffs(p, known.get(p.name) || [])),
    players: S.view.players.map((p) => (p.to_move && frame.hand ? moverWith(p, frame.hand) : p)),
    discard: frame.discard ? pile.concat([frame.discard]) : pile};
}

// Per play name, the lay-offs the given layouts show on it: [{by, cards}], each card once.
function knownLayoffs(layouts) {
  const known = new Map();
  for (const layout of layouts) {
    for (const play of (layout && layout.plays) || []) {
      for (const layoff of play.layoffs || []) {
        const list = known.get(play.name) || [];
        let entry = list.find((l) => l.by === layoff.by);
        if (!entry) { entry = {by: layoff.by, cards: []}; list.push(entry); }
        const have = counts(entry.cards);
        for (const card of layoff.cards) {
          if (have.get(card)) have.set(card, have.get(card) - 1); else entry.cards.push(card);
        }
        known.set(play.name, list);
      }
    }
  }
  return known;
}

// A frame's play: its cards less the lay-offs found among them, and those lay-offs.
function splitLayoffs(play, layoffs) {
  const cards = play.cards.slice(), found = [];
  for (const layoff of layoffs) {
    const taken = [];
    for (const card of layoff.cards) {
      const i = cards.lastIndexOf(card);
      if (i >= 0) { cards.splice(i, 1); taken.push(card); }
    }
    if (taken.length) found.push({by: layoff.by, cards: taken});
  }
  return {name: play.name, space: play.space, cards: cards, layoffs: found};
}

// The mover holding the frame's hand: hot and warm cards are those still held, the count is redone.
function moverWith(player, hand) {
  const held = counts(hand);
  const still = (cards) => cards.filter((card) => held.get(card));
  const facts = (player.facts || []).map((fact) => (/^\d+ in hand$/.test(fact) ? hand.length + " in hand" : fact));
  return {...player, hand: hand, hand_count: null, hot: still(player.hot || []), warm: still(player.warm || []), facts: facts};
}

// The cards each play gained from one table to the next (lay-offs included): what a step touched.
function touchedBy(beforePlays, afterPlays) {
  const had = new Map(beforePlays.map((p) => [p.name, counts(allCards(p))]));
  const touched = {};
  for (const play of afterPlays) {
    const left = new Map(had.get(play.name) || []);
    const gained = new Set();
    for (const card of allCards(play)) {
      if (left.get(card)) left.set(card, left.get(card) - 1); else gained.add(card);
    }
    touched[play.name] = gained;
  }
  return touched;
}

// -------------------------------------------------------------- my move
// The turn being built: its steps as text, and the table they leave as the server reads them
// (POST /api/steps, the checker's own reading: plays keep their names from before the turn, new
// plays are new/1, new/2, ...). The page never applies a step itself: it sends the whole list and
// draws the answer; a step the server refuses is not added.
function newMove() {
  return {steps: [], layout: S.view, selected: new Set(), queue: Promise.resolve(), pending: 0};
}

function toggleMoving() {
  S.moving = !S.moving;
  if (S.moving && !S.move) S.move = newMove();
  $("move-panel").hidden = !S.moving;
  setMovingButton();
  drawMain();
  drawSteps();
  if (S.moving) say("My move: select cards, then a play, a new play zone or the discard pile.");
}

function setMovingButton() {
  $("my-move-button").setAttribute("aria-pressed", String(S.moving));
  $("my-move-button").textContent = S.moving ? "Done moving" : "My move";
}

// Runs `work(m)` after the move's earlier requests, while that move is still the page's.
function queued(work) {
  const m = S.move;
  const busy = (n) => { m.pending += n; $("table").setAttribute("aria-busy", String(m.pending > 0 && S.move === m)); };
  busy(1);
  m.queue = m.queue.then(() => (S.move === m ? work(m) : null)).catch((error) => say(String(error)))
    .finally(() => busy(-1));
  return m.queue;
}

// Ask the server for the table after `list`; true when it took them (the move now holds them).
async function sendSteps(m, list) {
  let data;
  try {
    data = await api("/api/steps", {before: S.text, steps: list.join("; ")});
  } catch (error) {
    if (S.move === m) showError($("steps-error"), error);
    return false;
  }
  if (S.move !== m) return false;
  m.steps = list;
  m.layout = data.view;
  $("steps-error").hidden = true;
  $("check-result").hidden = true;  // it was about other steps
  pruneSelection(m);
  drawMain();
  drawSteps();
  return true;
}

// Steps to add, in order: text, or a function of the move making the text when its turn comes
// (a new play's name depends on the steps before it). The first one refused stops the rest;
// `refused(m, rest)` runs then, with the texts not added (the refused one first).
function addSteps(steps, refused) {
  return queued(async (m) => {
    for (const [i, step] of steps.entries()) {
      const text = (typeof step === "function" ? step(m) : step).trim();
      if (!text) continue;
      if (!(await sendSteps(m, m.steps.concat([text])))) {
        if (refused) refused(m, [text].concat(steps.slice(i + 1).filter((s) => typeof s === "string")));
        return;
      }
      say("Step " + m.steps.length + ": " + text);
    }
  });
}

// Undo and Reset send the steps kept (`count(m)` of them), from the table before the turn.
function keepSteps(count) {
  return queued(async (m) => {
    if (await sendSteps(m, m.steps.slice(0, Math.max(0, count(m))))) say(m.steps.length ? "Steps now: " + m.steps.length + "." : "No steps.");
  });
}

function drawSteps() {
  if (!S.move) return;
  $("steps-list").replaceChildren(...S.move.steps.map((step) => el("li", {}, el("code", {text: step}))));
  $("undo-button").disabled = !S.move.steps.length;
  $("reset-button").disabled = !S.move.steps.length;
}

// The next new play's name: one past every new play the table or the steps name.
function newPlayName(m) {
  let last = 0;
  for (const play of m.layout.plays) {
    const found = /^new\/(\d+)$/.exec(play.name);
    if (found) last = Math.max(last, Number(found[1]));
  }
  for (const step of m.steps) {
    for (const found of step.matchAll(/\bnew\/(\d+)\b/gi)) last = Math.max(last, Number(found[1]));
  }
  return "new/" + (last + 1);
}

// The selection: cards from the hand or from one play, in the order they were picked, as keys
// "where|card|n" (the n-th equal card there), which stay true when the table is redrawn.
function selectionKey(where, card, nth) { return where + "|" + card + "|" + nth; }

function parseKey(key) {
  const [where, card, nth] = key.split("|");
  return {where: where, card: card, nth: Number(nth)};
}

function cardsAt(layout, where) {
  if (where === "hand") {
    const mover = layout.players.find((p) => p.to_move);
    return (mover && mover.hand) || [];
  }
  const play = layout.plays.find((p) => p.name === where);
  return play ? play.cards : null;
}

function selectedCards() {
  const keys = [...S.move.selected].map(parseKey);
  return keys.length ? {where: keys[0].where, cards: keys.map((k) => k.card)} : null;
}

// Forget selected cards the table no longer has where they were.
function pruneSelection(m) {
  for (const key of [...m.selected]) {
    const k = parseKey(key), list = cardsAt(m.layout, k.where);
    if (!list || list.filter((card) => card === k.card).length <= k.nth) m.selected.delete(key);
  }
}

function isMovable(where) {
  return where === "hand" || S.move.layout.plays.some((p) => p.name === where);
}

function toggleCard(where, card, nth) {
  const m = S.move, key = selectionKey(where, card, nth);
  const current = selectedCards();
  if (current && current.where !== where) m.selected.clear();
  if (m.selected.has(key)) m.selected.delete(key); else m.selected.add(key);
  drawMain();
  const now = selectedCards();
  say(now ? "Selected " + now.cards.join(" ") + ": now tap a play, a new play zone" +
    (S.view.game.discards && now.where === "hand" ? " or the discard pile." : ".") : "Nothing selected.");
}

// Put the selection on a target: {play, card?} | {space} | {discard: true}. One hand card on a joker
// is a replacement; anything else is a play or a move, named as the checker reads steps.
function dropOn(target) {
  const chosen = selectedCards();
  if (!chosen) { say("Select cards first."); return; }
  const m = S.move, cards = chosen.cards.join(" ");
  const fromHand = chosen.where === "hand";
  const what = fromHand ? "play " + cards : "move " + cards + " from " + chosen.where;
  let step = null;
  if (target.discard) {
    if (!fromHand || chosen.cards.length !== 1) { say("Discard one card from the hand."); return; }
    step = "discard " + cards;
  } else if (target.play) {
    if (target.play === chosen.where) { m.selected.clear(); drawMain(); return; }
    if (fromHand && chosen.cards.length === 1 && target.card && isJoker(target.card) && !isJoker(chosen.cards[0])) {
      step = "replace " + target.play + " * with " + cards;
    } else {
      step = what + " to " + target.play;
    }
  } else if ("space" in target) {
    const away = target.space && target.space !== S.view.to_move ? " in " + target.space : "";
    step = (now) => what + " to " + newPlayName(now) + away;
  }
  if (!step) return;
  // The selection goes with the step; a refused step gives it back.
  const kept = [...m.selected];
  m.selected.clear();
  drawMain();
  addSteps([step], (now) => { now.selected = new Set(kept); pruneSelection(now); drawMain(); });
}

// Where a click, a tap or a drop landed, read from the element under it.
function targetAt(node) {
  if (!node || !node.closest) return null;
  const card = node.closest(".card"), play = node.closest(".play"), zone = node.closest(".new-play");
  if (play) return {play: play.dataset.play, card: card ? card.dataset.card : null};
  if (zone) return {space: zone.dataset.space};
  if (node.closest(".discard-zone")) return {discard: true};
  return null;
}

function onTableClick(event) {
  if (!S.moving || dragState.justDropped) return;
  const card = event.target.closest(".card");
  const where = card ? card.dataset.where : null;
  const chosen = selectedCards();
  // A card from the hand or a play is selected, unless a selection from elsewhere waits for a target.
  if (card && isMovable(where) && (!chosen || chosen.where === where || where === "hand")) {
    toggleCard(where, card.dataset.card, Number(card.dataset.nth));
    return;
  }
  const target = targetAt(event.target);
  if (target && chosen) dropOn(target);
}

function onTableKey(event) {
  if (event.key !== "Enter" && event.key !== " ") return;
  if (!event.target.matches(".card, .drop")) return;
  event.preventDefault();
  onTableClick(event);
}

// Drag and drop with pointer events: one path for the mouse, a pen and a finger.
const dragState = {start: null, ghost: null, justDropped: false};

function onPointerDown(event) {
  if (!S.moving || event.button > 0) return;
  const card = event.target.closest(".card");
  if (!card || !isMovable(card.dataset.where)) return;
  dragState.start = {x: event.clientX, y: event.clientY, card: card, id: event.pointerId};
}

function onPointerMove(event) {
  const start = dragState.start;
  if (!start || start.id !== event.pointerId) return;
  if (!dragState.ghost) {
    if (Math.hypot(event.clientX - start.x, event.clientY - start.y) < 8) return;
    beginDrag(start.card);
  }
  dragState.ghost.style.left = event.clientX + 6 + "px";
  dragState.ghost.style.top = event.clientY + 6 + "px";
  document.querySelectorAll(".drop-over").forEach((n) => n.classList.remove("drop-over"));
  const over = document.elementFromPoint(event.clientX, event.clientY);
  const zone = over && over.closest && over.closest(".drop");
  if (zone) zone.classList.add("drop-over");
  event.preventDefault();
}

function beginDrag(card) {
  // Dragging a card outside the selection drags that card alone.
  const key = selectionKey(card.dataset.where, card.dataset.card, Number(card.dataset.nth));
  if (!S.move.selected.has(key)) { S.move.selected = new Set([key]); drawMain(); }
  const chosen = selectedCards();
  dragState.ghost = el("div", {class: "ghost", "aria-hidden": "true", text: chosen.cards.join(" ")});
  document.body.append(dragState.ghost);
}

function onPointerUp(event) {
  const start = dragState.start;
  if (!start || start.id !== event.pointerId) return;
  dragState.start = null;
  if (!dragState.ghost) return;  // no drag: the click handles it
  dragState.ghost.remove();
  dragState.ghost = null;
  document.querySelectorAll(".drop-over").forEach((n) => n.classList.remove("drop-over"));
  const target = targetAt(document.elementFromPoint(event.clientX, event.clientY));
  // The click that follows a drag is not a tap.
  dragState.justDropped = true;
  setTimeout(() => { dragState.justDropped = false; }, 0);
  if (target) dropOn(target); else say("Dropped outside any play.");
}

// ---------------------------------------------------------------- check
async function check() {
  const m = S.move;
  $("check-error").hidden = true;
  $("check-result").hidden = true;
  if (m) await m.queue;  // the steps still on their way count
  if (!m || !m.steps.length) { showError($("check-error"), {error: "no steps yet: move some cards first"}); return; }
  const asked = m.steps.join("; ");  // steps change after this: the answer is about these
  const button = $("check-button");
  button.disabled = true;
  $("check-verdict").textContent = "Checking…";
  try {
    const data = await api("/api/check", {before: S.text, after: asked, best: true});
    if (m === S.move && asked === m.steps.join("; ")) drawCheck(data);  // else the position or the turn changed
  } catch (error) {
    if (m === S.move && asked === m.steps.join("; ")) showError($("check-error"), error);
  } finally {
    button.disabled = false;
  }
}

function drawCheck(data) {
  $("check-result").hidden = false;
  const verdict = $("check-verdict");
  verdict.className = "verdict " + (data.legal ? "legal" : "illegal");
  const gain = data.reading && data.reading.gain !== undefined ? ", gain " + data.reading.gain : "";
  verdict.textContent = data.legal ? "✔ legal" + gain
    : "✘ illegal: " + data.breaches.length + (data.breaches.length === 1 ? " breach" : " breaches");
  // view.breaches word the plays as the drawn table names them (data.breaches: as the end state does)
  $("breaches").replaceChildren(...data.view.breaches.map((b) =>
    el("li", {"data-code": b.code}, el("code", {text: b.code}), " " + b.message)));
  $("check-best").textContent = bestWords(data);
  const after = data.view && data.view.after;
  if (after) drawTable($("check-table"), after, {flagged: flagged(data, after)});
  else $("check-table").replaceChildren();
  say(verdict.textContent + ". " + $("check-best").textContent);
}

function bestWords(data) {
  const parts = [];
  if (data.puzzle) parts.push(data.puzzle.solved ? "Puzzle solved." : "Puzzle not solved yet (target " + data.puzzle.target + ").");
  const best = data.best;
  if (best && data.legal) {
    const short = best.short_of_best;
    parts.push(short === undefined || short === null ? "The best turn scores " + best.gain + "."
      : short > 0 ? short + " short of the best (" + best.gain + (best.status === "optimal" ? "" : ", " + best.status) + ")."
        : "As good as the best turn (" + best.gain + ").");
  } else if (best) {
    parts.push("The best legal turn scores " + best.gain + ".");
  }
  return parts.join(" ");
}

// The breaches' cards on the drawn end state: a breach names plays as the end state names them
// (data.names renames them as drawn), or a space; cards without a play are looked for everywhere.
function flagged(data, after) {
  const names = data.names || {};
  const marks = {};
  const mark = (play, card) => { (marks[play] = marks[play] || new Set()).add(card); };
  for (const b of data.breaches) {
    const plays = (b.plays || []).flatMap((name) => {
      const shown = names[name] || name;
      const found = after.plays.filter((p) => p.name === shown);
      return found.length ? found : after.plays.filter((p) => p.space === name);
    });
    const within = plays.length ? plays : after.plays;
    for (const play of within) {
      const cards = (b.cards || []).filter((card) => play.cards.includes(card) ||
        (play.layoffs || []).some((l) => l.cards.includes(card)));
      cards.forEach((card) => mark(play.name, card));
      if (!(b.cards || []).length && plays.length) mark(play.name, "*");
    }
    // A breach naming no play is about the mover's hand (a hot card kept, say): mark it there too.
    if (!plays.length) (b.cards || []).forEach((card) => mark("hand", card));
  }
  return marks;
}

// ---------------------------------------------------------------- hints
function nextHintLevel() { return Math.min(4, $("hints").children.length + 1); }

async function askHint(level) {
  $("hint-panel").hidden = false;
  const body = S.id ? {id: S.id, level: level} : {puzzle: S.text, level: level};
  const list = $("hints");
  list.replaceChildren(el("li", {text: "Thinking…"}));
  try {
    const data = await api("/api/hint", body);
    list.replaceChildren(...data.hints.map((h) =>
      el("li", {"data-level": h.level}, el("strong", {text: "Level " + h.level + ": "}), h.text)));
    if (data.none) list.append(el("li", {text: data.none}));
    say("Hint level " + level + ": " + data.hints.map((h) => h.text).join(" "));
  } catch (error) {
    list.replaceChildren(el("li", {class: "error", text: error.error || String(error)}));
    say(error.error || String(error));
  }
}

// ---------------------------------------------------------------- wiring
function wire() {
  $("load-button").addEventListener("click", loadShipped);
  $("load-select").addEventListener("change", () => { if ($("load-select").value) loadShipped(); });
  $("show-button").addEventListener("click", () => showPosition($("paste").value, null));
  $("file-input").addEventListener("change", loadFile);
  $("best-button").addEventListener("click", askBest);
  $("my-move-button").addEventListener("click", toggleMoving);
  $("hint-button").addEventListener("click", () => askHint(nextHintLevel()));
  document.querySelectorAll(".hint-level").forEach((b) =>
    b.addEventListener("click", () => askHint(Number(b.dataset.level))));
  $("prev-button").addEventListener("click", () => showFrame(S.frame - 1));
  $("next-button").addEventListener("click", () => showFrame(S.frame + 1));
  $("frame-slider").addEventListener("input", (e) => showFrame(Number(e.target.value)));
  $("undo-button").addEventListener("click", () => keepSteps((m) => m.steps.length - 1));
  $("reset-button").addEventListener("click", () => keepSteps(() => 0));
  $("check-button").addEventListener("click", check);
  // Typed steps: those the server refuses go back to the box, to be mended.
  const typed = () => {
    const texts = $("steps-input").value.split(/[;\n]/);
    $("steps-input").value = "";
    addSteps(texts, (_, rest) => { $("steps-input").value = rest.map((t) => t.trim()).filter(Boolean).join("; "); });
  };
  $("steps-add-button").addEventListener("click", typed);
  $("steps-input").addEventListener("keydown", (e) => { if (e.key === "Enter") typed(); });
  const table = $("table");
  table.addEventListener("click", onTableClick);
  table.addEventListener("keydown", onTableKey);
  table.addEventListener("pointerdown", onPointerDown);
  document.addEventListener("pointermove", onPointerMove);
  document.addEventListener("pointerup", onPointerUp);
  document.addEventListener("pointercancel", onPointerUp);
  document.addEventListener("keydown", (e) => {
    if (e.key === "Escape" && S.move && S.move.selected.size) { S.move.selected.clear(); drawMain(); }
  });
  loadList();
}

document.addEventListener("DOMContentLoaded", wire);

// "cards" or "tiles" (the game's own word), singular for one.
function unitWord(layout, count) {
  const word = layout.unit || "cards";
  return count === 1 ? word.replace(/s$/, "") : word;
}
