// The position editor: a position built from nothing or from the one loaded, with a deck picker,
// plays built one at a time and checked live (/api/play-check), the reader's own messages
// beside the part they concern (/api/show, as the user edits), named positions kept in the
// browser. "Open" hands the position's JSON to the page's load path (showPosition), so Best
// move and the rest work on it as on any loaded position.
import {api} from "./api.js";
import {cardEl, inlineCardEl} from "./cards.js";
import {bagSwitch, bagZone, intoBag, outOfBag} from "./editbag.js";
import {buildPicker, focusPick, updatePicker} from "./deckpicker.js";
import {$, el, fillSelect, say, showError} from "./dom.js";
import {addPlayer, draftFromData, draftToData, dropMarks, freeCounts, handCount, namedPlays, newDraft, removePlayer,
  renamePlayer, setMover, sidesShown} from "./editdraft.js";
import {refreshSaved, savedControls} from "./editsaved.js";
import {showPosition} from "./position.js";
import {state} from "./state.js";

const ed = {
  shapes: null,      // GET /api/presets: name -> shape
  draft: null,       // editdraft.js
  target: "build",   // where a picked card goes: "hand:I", "build", "discard", "upcard", "bag"
  tap: "remove",     // what a tap on a placed card does: remove, hot, warm
  build: [],         // the play being built
  layoffOn: null,    // lay-offs: the play laid on
  by: 0,             // and the player laying off
  check: null,       // /api/play-check's answer for `build`
  opened: null,      // the text last opened, so Edit returns to this draft
  focusNext: null,   // the data-key the keyboard goes on from after the next redraw
};
let validating = null, checking = null;

function shape() { return ed.shapes.get(ed.draft.preset); }

export function wireEditor() {
  $("editor-new").addEventListener("click", () => startEditor(null));
  $("editor-edit").addEventListener("click", editLoaded);
  buildStatic();
}

async function presets() {
  if (!ed.shapes) {
    const data = await api("/api/presets");
    ed.shapes = new Map(data.presets.map((p) => [p.name, p]));
  }
  return ed.shapes;
}

async function startEditor(draft) {
  try { await presets(); } catch (error) { say(error.error || String(error)); return; }
  const select = $("ed-preset");
  if (!select.options.length) for (const name of ed.shapes.keys()) select.append(el("option", {value: name, text: name}));
  ed.draft = draft || newDraft(ed.shapes.values().next().value);
  Object.assign(ed, {target: "build", build: [], check: null});
  if (!draft) ed.target = "hand:0";
  select.value = ed.draft.preset;
  buildPicker($("ed-picker"), shape(), pick);
  refreshSaved();  // once here, and on Save and Delete: not on every tap's redraw (it reads all of localStorage)
  $("editor").hidden = false;
  changed();  // drawn, and read by the server: its messages from the start
  $("ed-preset").focus();
  say("Editing a position: pick cards into the place marked ●, build plays, then Open.");
}

// Edit the position shown: the draft it came from, or the position as the server read it.
async function editLoaded() {
  if (!state.text) return;
  if (ed.draft && ed.opened === state.text) { startEditor(ed.draft); return; }
  try {
    // The answer /api/show gave when the position was shown: not asked for again.
    const {view, ...data} = state.shown;
    const fromBag = view.table_bag_words;  // a table rummy laid out from a bag is edited as that bag
    await presets();
    const draft = draftFromData(data);
    if (fromBag) intoBag(draft);
    startEditor(draft);
  } catch (error) {
    say(error.error || String(error));
  }
}

// ------------------------------------------------------------------ the parts built once
function buildStatic() {
  const box = $("editor");
  const control = (label, id, node) => el("label", {class: "ed-field", for: id}, el("span", {text: label}), node);
  const preset = el("select", {id: "ed-preset", onchange: () => changePreset($("ed-preset").value)});
  const hand = el("select", {id: "ed-hand-number", "data-place": "hand_number",
    onchange: (e) => { ed.draft.handNumber = Number(e.target.value); changed(); }});
  const toMove = el("select", {id: "ed-to-move", "data-place": "to_move",
    onchange: (e) => { moverChanged(e.target.value); }});
  const phase = el("select", {id: "ed-phase", onchange: (e) => { ed.draft.phase = e.target.value; changed(); }});
  const target = el("select", {id: "ed-target", onchange: (e) => { ed.target = e.target.value; render(); }});
  const tap = el("select", {id: "ed-tap", onchange: (e) => { ed.tap = e.target.value; }},
    el("option", {value: "remove", text: "takes it off"}), el("option", {value: "hot", text: "marks it hot"}),
    el("option", {value: "warm", text: "marks it warm"}), el("option", {value: "build", text: "moves it into New play"}));
  const typed = el("input", {id: "ed-type", type: "text", spellcheck: "false", autocomplete: "off",
    placeholder: "7h 10s r10 *", onkeydown: (e) => { if (e.key === "Enter") typeCards(); }});
  box.replaceChildren(
    el("h2", {id: "editor-title", text: "Position editor"}),
    el("div", {class: "row"}, control("Rules", "ed-preset", preset), control("Hand", "ed-hand-number", hand),
      control("To move", "ed-to-move", toMove), control("Phase", "ed-phase", phase)),
    el("div", {id: "ed-msg-top", class: "ed-msgs", "data-place": "rules"}),
    el("div", {class: "ed-body"},
      el("div", {class: "ed-draft"},
        el("div", {id: "ed-players"}),
        el("div", {class: "row"}, el("button", {type: "button", id: "ed-add-player", text: "Add player",
          onclick: () => { addPlayer(ed.draft); changed(); }})),
        el("div", {id: "ed-table"}),
        el("div", {id: "ed-piles"})),
      el("div", {class: "ed-entry"},
        el("div", {id: "ed-build", class: "ed-build"}),
        el("div", {class: "row"}, control("Cards go to", "ed-target", target), control("A tap on a placed card", "ed-tap", tap)),
        el("p", {id: "ed-now", class: "ed-now", role: "status", hidden: true}),
        el("div", {class: "row"}, el("label", {for: "ed-type", text: "Type cards"}), typed,
          el("button", {type: "button", id: "ed-type-add", text: "Add", onclick: typeCards})),
        el("div", {id: "ed-type-error", class: "error", role: "alert", hidden: true}),
        el("p", {id: "ed-type-note", class: "note", role: "status"}),
        el("div", {id: "ed-picker", class: "picker", role: "group", "aria-label": "Deck: tap a card to place it"}))),
    el("div", {id: "ed-msg-other", class: "ed-msgs", role: "status"}),
    el("div", {class: "row"},
      el("button", {type: "button", id: "ed-open", class: "primary", text: "Open", onclick: openDraft}),
      el("button", {type: "button", id: "ed-close", text: "Close editor", onclick: () => { $("editor").hidden = true; }})),
    savedControls({current: () => draftToData(ed.draft, shape()), known: (name) => ed.shapes.has(name), open: startEditor}));
}

// Cards going to a hand follow the new mover's hand: the one a user enters at a real table.
function moverChanged(name) {
  setMover(ed.draft, name);
  if (ed.target.startsWith("hand:")) ed.target = "hand:" + ed.draft.players.findIndex((p) => p.name === name);
  changed();
}

function changePreset(name) {
  const old = ed.draft;
  ed.draft = newDraft(ed.shapes.get(name));
  // Same players, nothing placed: cards do not carry over between decks.
  ed.draft.players = old.players.map((p) => ({...p, hand: [], hot: [], warm: [], plays: []}));
  ed.draft.toMove = old.toMove;
  if (old.bag && shape().plays_key === "table") ed.draft.bag = [];  // a bag stays a bag
  Object.assign(ed, {build: [], check: null});
  buildPicker($("ed-picker"), shape(), pick);
  changed();
}

// ------------------------------------------------------------------ picking and typing
function pick(card) {
  const d = ed.draft;
  if (ed.target === "build") { ed.build.push(card); buildChanged(); return; }
  if (ed.target === "bag") d.bag.push(card);
  else if (ed.target === "discard") d.discard.push(card);
  else if (ed.target === "upcard") d.upcard = card;
  else if (ed.target === "stock") d.stockCards.push(card);
  else {
    const player = d.players[Number(ed.target.split(":")[1])];
    if (!player) return;
    player.known = true;
    player.hand.push(card);
  }
  changed();
}

async function typeCards() {
  const box = $("ed-type"), error = $("ed-type-error");
  if (!box.value.trim()) return;
  try {
    const typed = box.value;
    const answer = await api("/api/play-check", {rules: ed.draft.preset, cards: typed});
    error.hidden = true;
    box.value = "";
    for (const card of answer.cards) pick(card);
    // What the reader made of it, where that is not what was typed: a shorthand spelt out, and
    // above all the other game's notation read silently (7h is R7 in a tile game, r10 is 10H).
    const said = typed.trim().toUpperCase().split(/[\s,]+/).join(" ");
    $("ed-type-note").textContent = said === answer.cards.join(" ") ? "" : "Read as " + answer.cards.join(" ") + ".";
  } catch (problem) {
    $("ed-type-note").textContent = "";
    showError(error, problem);
  }
}

// ------------------------------------------------------------------ the play being built
function buildChanged() {
  ed.check = null;
  clearTimeout(checking);
  if (ed.build.length) {
    const cards = ed.build.join(" ");
    checking = setTimeout(async () => {
      try {
        const answer = await api("/api/play-check", {rules: ed.draft.preset, cards: cards});
        if (ed.build.join(" ") === cards) { ed.check = answer; keepingFocus(drawBuild); }
      } catch (error) {
        ed.check = {error: error.error || String(error)};
        keepingFocus(drawBuild);
      }
    }, 200);
  }
  changed();
}

// Where a built play may go: a new play (in a space, owned, on the table), or a lay-off on a play.
// Each place a button named by its player alone after one label ("Place in the space of: ann bob
// cat"), its full name spoken: four long buttons took four rows of a phone's screen.
function newPlaces() {
  const s = shape();
  if (s.plays_key === "table") {
    const words = ed.draft.bag ? "Place in the bag" : "Place on the table";  // a bag's tiles join it
    return {label: null, places: [["table", words, words]]};
  }
  const owned = s.plays_key === "plays";
  return {label: owned ? "Place it, owned by" : "Place it in the space of",
    places: ed.draft.players.map((p, i) => ["space:" + i, p.name, owned ? "Place, owned by " + p.name : "Place in " + p.name + "'s space"])};
}

function placeBuilt(where) {
  if (!ed.build.length) return;
  const d = ed.draft;
  const play = {cards: ed.build.slice(), layoffs: []};
  if (where === "table" && d.bag) d.bag.push(...play.cards);
  else if (where === "table") d.table.push(play);
  else if (where.startsWith("space:")) d.players[Number(where.slice(6))].plays.push(play);
  else {
    const on = namedPlays(d).find((n) => n.name === where.slice(7));
    const by = d.players[ed.by] || d.players[0];
    if (on) on.play.layoffs.push({by: by.name, cards: play.cards});
  }
  ed.build = [];
  buildChanged();
}

function standIn(choice) {
  const stands = choice.split(" ");
  let j = 0;
  ed.build = ed.build.map((card) => card.startsWith("*") ? "*=" + (stands[j++] || card.slice(2)) : card);
  buildChanged();
}

// The table as a bag (taps go into it) or as plays (the reader's arrangement of the bag; tiles it
// cannot lay out go into New play).
async function switchBag(on) {
  const d = ed.draft;
  if (on) { intoBag(d); ed.target = "bag"; changed(); return; }
  const loose = await outOfBag(d, draftToData(d, shape()));
  if (loose.length) { ed.build.push(...loose); ed.target = "build"; say("The bag cannot be laid out: its tiles are in New play."); buildChanged(); } else changed();
}

// ------------------------------------------------------------------ drawing the draft
function changed() { render(); validateSoon(); }

// Redrawing replaces elements: a keyboard user keeps their place (the element with the same data-key).
// Where that place is gone or switched off (a play placed, cleared, taken back by Edit, deleted; the
// last free copy of a card picked), the keyboard goes on from the next card of the deck or from the
// Type cards box, not from the top of the page. Only after a keyboard action (:focus-visible): a
// tap on a phone must not open its keyboard.
function keepingFocus(draw) {
  const active = document.activeElement;
  const byKeyboard = active && $("editor").contains(active) && active.matches(":focus-visible");
  const focus = ed.focusNext || (active && active.dataset ? active.dataset.key : null);
  ed.focusNext = null;
  draw();
  const again = focus && $("editor").querySelector('[data-key="' + CSS.escape(focus) + '"]');
  if (again && !again.disabled) again.focus();
  else if (byKeyboard && (active.disabled || !active.isConnected)) keyboardGoesOn(active);
}

function keyboardGoesOn(lost) {
  const picks = [...$("ed-picker").querySelectorAll(".pick")];
  const at = picks.indexOf(lost);
  const next = at >= 0 && picks.slice(at + 1).concat(picks.slice(0, at)).find((b) => !b.disabled);
  if (next) focusPick($("ed-picker"), next); else $("ed-type").focus();
}

// Only the play being built: its check came back (the rest, a box being typed in, stays as it is).
function drawBuild() { $("ed-build").replaceChildren(...buildEl()); }

function render() { keepingFocus(drawAll); }

function drawAll() {
  const d = ed.draft, s = shape();
  fillSelect($("ed-hand-number"), s.hands_in_game ? range(1, s.hands_in_game).map((n) => [String(n), String(n)]) : [], String(d.handNumber));
  $("ed-hand-number").parentElement.hidden = !s.hands_in_game;
  fillSelect($("ed-to-move"), d.players.map((p) => [p.name, p.name]), d.toMove);
  fillSelect($("ed-phase"), [["play", "play"], ...(s.draw_phase ? [["draw", "draw"]] : [])], d.phase);
  $("ed-tap").querySelectorAll('option[value="hot"], option[value="warm"]').forEach((o) => { o.hidden = !s.discard; });
  $("ed-players").replaceChildren(...d.players.map((p, i) => playerEl(p, i)));
  $("ed-add-player").disabled = d.players.length >= s.max_players;
  $("ed-table").replaceChildren(...(s.plays_key !== "table" ? [] : d.bag
    ? [bagZone(d, s, {zone, cardsEl, takeOff, changed}, bagSwitch(d, switchBag))]
    : [el("div", {class: "ed-zone", "data-place": "table"}, el("h3", {class: "ed-heading", text: "Table"}), bagSwitch(d, switchBag), playsEl(d.table, "table"))]));
  $("ed-piles").replaceChildren(pilesEl());
  drawBuild();
  const targets = [...d.players.map((p, i) => ["hand:" + i, p.name + "'s hand"]), ["build", "the play being built"]];
  if (d.bag) targets.push(["bag", "the table (a bag)"]);
  if (s.discard) targets.push(["discard", "the discard pile"]);
  if (s.upcard) targets.push(["upcard", "the upcard"]);
  targets.push(["stock", "the stock (listed)"]);
  if (!targets.some(([v]) => v === ed.target)) ed.target = "build";
  fillSelect($("ed-target"), targets, ed.target);
  $("ed-type").placeholder = s.deck === "tiles" ? "r10 k1-5 kro10 2xr5 *" : "7h 10s 7h-10h 7hsd *";
  drawTargetNow();
  updatePicker($("ed-picker"), freeCounts(d, s, ed.build));
}

// The place cards go to, repeated beside the deck with what it holds now (its last cards): on a
// phone that place is screens above the deck, and each tap is seen to land. Not for New play,
// which stands just above.
function drawTargetNow() {
  const d = ed.draft, t = ed.target, box = $("ed-now");
  const player = t.startsWith("hand:") ? d.players[Number(t.slice(5))] : null;
  const cards = t === "discard" ? d.discard : t === "bag" ? d.bag : t === "upcard" ? (d.upcard ? [d.upcard] : [])
    : t === "stock" ? d.stockCards : player ? player.hand : null;
  box.hidden = cards === null;
  if (cards === null) return;
  const shown = cards.slice(-10);
  box.replaceChildren(el("span", {text: "Now in " + $("ed-target").selectedOptions[0].text + ": " + cards.length + " "
    + (cards.length === 1 ? shape().unit.replace(/s$/, "") : shape().unit) + (cards.length > shown.length ? ", the last " + shown.length : "")}),
  ...shown.map((card) => inlineCardEl(card, shape().deck)));
}

function playerEl(p, i) {
  const d = ed.draft, s = shape(), place = "players." + p.name;
  const head = el("div", {class: "row ed-player-head"},
    labelled("Name", el("input", {type: "text", value: p.name, maxlength: "32", "data-key": "name" + i, class: "ed-name",
      onchange: (e) => { renamePlayer(d, p, e.target.value.trim()); changed(); }})),
    sidesShown(d, s) ? labelled("Side", el("input", {type: "text", value: p.side || (i % 2 === 0 ? "A" : "B"), maxlength: "32",
      class: "ed-side", "data-key": "side" + i, onchange: (e) => { p.side = e.target.value.trim(); changed(); }})) : null,
    s.melding_matters || p.melded ? checkbox("melded", p.melded, "melded" + i, (v) => { p.melded = v; }) : null,
    checkbox("hand known", p.known, "known" + i, (v) => { p.known = v; if (!v) awayFromHand(i); }),
    d.players.length > s.min_players ? el("button", {type: "button", class: "small", text: "Remove " + p.name, "data-key": "rm" + i,
      onclick: () => { removePlayer(d, p); changed(); }}) : null);
  const marks = [p.hot.length ? el("span", {class: "fact hot-note", text: "hot " + p.hot.join(" ")}) : null,
    p.warm.length ? el("span", {class: "fact warm-note", text: "warm " + p.warm.join(" ")}) : null];
  const hand = p.known
    ? zone("hand:" + i, p.name + "'s hand", cardsEl(p.hand, (k) => tapHand(p, k), "hand" + i, p), place + ".hand", marks)
    : el("div", {class: "row", "data-place": place + ".hand_count"}, labelled(p.name + "'s hand: cards held",
      el("input", {type: "number", min: "0", max: "256", value: String(handCount(d, s, p)), class: "ed-count", "data-key": "count" + i,
        onchange: (e) => { p.count = Math.max(0, Number(e.target.value) || 0); changed(); }})));
  const parts = [head, hand];
  if (s.plays_key !== "table") parts.push(playsEl(p.plays, p.name, place + "." + s.plays_key));
  return el("div", {class: "ed-player" + (d.toMove === p.name ? " to-move" : ""), "data-place": place}, ...parts);
}

// A hand made unknown is no place for cards: they go to the mover's hand, or into New play.
function awayFromHand(i) {
  if (ed.target !== "hand:" + i) return;
  const mover = ed.draft.players.findIndex((p) => p.name === ed.draft.toMove && p.known);
  ed.target = mover >= 0 ? "hand:" + mover : "build";
}

function tapHand(p, k) {
  if (ed.tap === "hot" || ed.tap === "warm") {
    const card = p.hand[k], marks = p[ed.tap], other = ed.tap === "hot" ? p.warm : p.hot;
    const at = marks.indexOf(card);
    if (at >= 0) marks.splice(at, 1); else marks.push(card);
    if (at < 0 && other.includes(card)) other.splice(other.indexOf(card), 1);
    changed();
    return;
  }
  takeOff(p.hand, k, () => dropMarks(p));
}

// A placed card tapped: off the position (back to the deck), or into New play (a play split, a card
// moved from a hand into a play) when that is what a tap does.
function takeOff(cards, k, then) {
  const [card] = cards.splice(k, 1);
  if (then) then();
  if (ed.tap === "build") { ed.build.push(card); buildChanged(); } else changed();
}

// A place cards can go: a button that makes it the target, then its cards.
function zone(value, title, content, place, notes) {
  const on = ed.target === value;
  return el("div", {class: "ed-zone" + (on ? " target" : ""), "data-place": place || null},
    el("button", {type: "button", class: "ed-target", "aria-pressed": on ? "true" : "false", "data-key": "t-" + value,
      text: (on ? "● " : "") + title, onclick: () => { ed.target = value; render(); }}), content, ...(notes || []));
}

// Cards as buttons: a tap takes one off (or marks it, in a hand).
function cardsEl(cards, tap, key, player) {
  const box = el("span", {class: "cards"});
  cards.forEach((card, k) => {
    const classes = player && player.hot.includes(card) ? ["hot"] : player && player.warm.includes(card) ? ["warm"] : [];
    const face = cardEl(card, shape().deck, "editor", k, classes);
    face.removeAttribute("role");
    box.append(el("button", {type: "button", class: "ed-card", "aria-label": face.getAttribute("aria-label"),
      "data-key": key + "-" + k, onclick: () => tap(k)}, face));
  });
  if (!cards.length) box.append(el("span", {class: "unknown", text: "(none)"}));
  return box;
}

function playsEl(plays, owner, place) {
  const box = el("div", {class: "plays"});
  plays.forEach((play, i) => {
    const name = owner + "/" + (i + 1);
    const where = (place || owner) + "[" + (i + 1) + "]";
    const node = el("div", {class: "play ed-play", "data-place": where, "data-play": name},
      el("div", {class: "play-name"}, el("span", {text: name}),
        el("button", {type: "button", class: "small", text: "Edit", "aria-label": "edit " + name, "data-key": "edit-" + name,
          onclick: () => { plays.splice(i, 1); ed.build.push(...play.cards); ed.target = "build"; buildChanged(); }}),
        moveSelect(play, plays, i, name),
        el("button", {type: "button", class: "small", text: "✕", "aria-label": "delete " + name, "data-key": "del-" + name,
          onclick: () => { plays.splice(i, 1); changed(); }})),
      cardsEl(play.cards, (k) => { if (play.cards.length === 1) plays.splice(i, 1); takeOff(play.cards, k); }, name));
    for (const layoff of play.layoffs) {  // under the play they were laid on
      node.append(el("div", {class: "layoffs"}, el("span", {class: "by", text: "laid off by " + layoff.by}),
        cardsEl(layoff.cards, (k) => { if (layoff.cards.length === 1) play.layoffs.splice(play.layoffs.indexOf(layoff), 1); takeOff(layoff.cards, k); }, name + "-by-" + layoff.by)));
    }
    box.append(node);
  });
  return box;
}

// Move a play to another space (House, lay-off rummy) or owner (Robber): the select shows whose it
// is. An arrow key on a closed select changes it at once, so the focus follows the play to its new
// place and the next arrow moves the same play on (it used to land on the play that took its name,
// and moved that one).
function moveSelect(play, plays, i, name) {
  const d = ed.draft;
  if (shape().plays_key === "table" || d.players.length < 2) return null;
  const select = el("select", {class: "small", "aria-label": "move " + name + " to", title: "move it to another player",
    "data-key": "move-" + name,
    onchange: (e) => {
      const to = d.players[Number(e.target.value)];
      if (!to || to.plays === plays) return;
      plays.splice(i, 1);
      to.plays.push(play);
      ed.focusNext = "move-" + to.name + "/" + to.plays.length;
      changed();
    }});
  d.players.forEach((p, k) => select.append(el("option", {value: String(k), text: (p.plays === plays ? "in " : "→ ") + p.name,
    selected: p.plays === plays})));
  return select;
}

function pilesEl() {
  const d = ed.draft, s = shape(), box = el("div", {class: "ed-piles", "data-place": "piles"});
  if (s.discard) {
    box.append(zone("discard", "Discard pile (bottom to top)",
      cardsEl(d.discard, (k) => takeOff(d.discard, k), "discard"), "piles.discard"));
  }
  if (s.upcard) {
    box.append(zone("upcard", "Upcard", cardsEl(d.upcard ? [d.upcard] : [], () => { const card = [d.upcard]; d.upcard = null; takeOff(card, 0); }, "upcard"), "piles.upcard"));
  }
  box.append(zone("stock", "Stock, listed (top first)", cardsEl(d.stockCards, (k) => takeOff(d.stockCards, k), "stock"),
    "piles.stock"));
  if (!d.stockCards.length) {
    box.append(el("div", {class: "row", "data-place": "piles.stock"}, labelled("or its count (" + s.unit + " left; empty: not given)",
      el("input", {type: "number", id: "ed-stock", min: "0", max: "256", "data-key": "stock", value: d.stock === null ? "" : String(d.stock),
        onchange: (e) => { d.stock = e.target.value === "" ? null : Math.max(0, Number(e.target.value) || 0); changed(); }}))));
  }
  return box;
}

function buildEl() {
  const c = ed.check;
  const verdict = !ed.build.length ? "tap cards into it, then place it"
    : !c ? "checking…" : c.error ? c.error
      : c.whole ? "whole" + (c.score !== null ? " · " + c.score + " points" : "")
        + (c.meld_value !== null && c.score === null ? " · counts " + c.meld_value + " to a first meld" : "")
        : "not whole";
  const open = c && c.stand_in_needed ? " · say what the joker stands for" : "";
  const parts = [zone("build", "New play", cardsEl(ed.build, (k) => { ed.build.splice(k, 1); buildChanged(); }, "build")),
    el("p", {id: "ed-check", class: "ed-check" + (c && c.whole ? " whole" : c ? " broken" : ""), role: "status", text: verdict + open})];
  if (c && c.stand_in_needed) {
    parts.push(labelled("The joker stands for", el("select", {id: "ed-stand-in", "data-key": "stand-in",
      onchange: (e) => { if (e.target.value) standIn(e.target.value); }},
    el("option", {value: "", text: "choose…"}), ...c.stand_ins.map((s) => el("option", {value: s, text: s})))));
  }
  // One tap places it: a button for each place a new play may go.
  const {label, places} = newPlaces();
  parts.push(el("div", {class: "row ed-places", role: "group", "aria-label": label || "Place it"},
    label ? el("span", {class: "ed-place-label", text: label}) : null,
    ...places.map(([where, words, spoken]) => el("button", {type: "button",
      class: "ed-place", "data-place-to": where, "data-key": "place-" + where, text: words, "aria-label": spoken,
      disabled: !ed.build.length, onclick: () => placeBuilt(where)})),
  el("button", {type: "button", class: "ed-clear", text: "Clear", "data-key": "clear-build", disabled: !ed.build.length,
    onclick: () => { ed.build = []; buildChanged(); }})));
  const plays = namedPlays(ed.draft);
  if (shape().layoffs && plays.length) {  // lay-off rummy: cards laid off on a play, by a player
    if (!plays.some((n) => n.name === ed.layoffOn)) ed.layoffOn = plays[0].name;
    parts.push(el("div", {class: "row"},
      labelled("Lay off on", el("select", {id: "ed-layoff-on", "data-key": "layoff-on", onchange: (e) => { ed.layoffOn = e.target.value; }},
        ...plays.map((n) => el("option", {value: n.name, text: n.name, selected: n.name === ed.layoffOn})))),
      labelled("by", el("select", {id: "ed-by", "data-key": "by", onchange: (e) => { ed.by = Number(e.target.value); }},
        ...ed.draft.players.map((p, i) => el("option", {value: String(i), text: p.name, selected: i === ed.by})))),
      el("button", {type: "button", id: "ed-layoff", "data-key": "layoff", text: "Lay off", disabled: !ed.build.length,
        onclick: () => placeBuilt("layoff:" + ed.layoffOn)})));
  }
  return parts;
}

// ------------------------------------------------------------------ the reader's messages
function validateSoon() {
  clearTimeout(validating);
  validating = setTimeout(validate, 350);
}

async function validate() {
  const text = draftText();
  for (const box of $("editor").querySelectorAll(".ed-msg")) box.remove();
  $("ed-msg-other").replaceChildren();
  try {
    await api("/api/show", {position: text, format: "json"});
    if (draftText() === text) $("ed-msg-other").replaceChildren(el("p", {class: "ed-ok", text: "The reader takes this position."}));
  } catch (error) {
    if (draftText() !== text) return;
    for (const line of error.errors && error.errors.length ? error.errors : [error.error]) showMessage(line);
  }
}

// "position: players.ann.hand: ..." goes beside the part whose data-place is the longest prefix of its place.
function showMessage(line) {
  const text = String(line).replace(/^position: /, "");
  const place = text.split(": ")[0];
  let best = null;
  for (const node of $("editor").querySelectorAll("[data-place]")) {
    const p = node.dataset.place;
    if ((place === p || place.startsWith(p + ".") || place.startsWith(p + "[")) && (!best || p.length > best.dataset.place.length)) best = node;
  }
  const message = el("p", {class: "ed-msg error", role: "alert", text: text});
  if (!best) $("ed-msg-other").append(message);
  else if (best.tagName === "SELECT") best.parentElement.after(message);
  else best.append(message);
}

function draftText() { return JSON.stringify(draftToData(ed.draft, shape()), null, 2); }

async function openDraft() {
  const text = draftText();
  $("paste").value = text;
  await showPosition(text, null);
  if (state.text === text) {
    ed.opened = text;
    $("editor").hidden = true;
    $("position").scrollIntoView({block: "start"});
  } else {
    // Refused: the reader's line stands beside the part it concerns, often screens above Open.
    const first = $("editor").querySelector(".ed-msg");
    if (first) first.scrollIntoView({block: "center"});
  }
}

// ------------------------------------------------------------------ small helpers
function labelled(text, control) { return el("label", {class: "ed-field"}, el("span", {text: text}), control); }

function checkbox(text, on, key, set) {
  return el("label", {class: "ed-check-box"}, el("input", {type: "checkbox", checked: on, "data-key": key,
    onchange: (e) => { set(e.target.checked); changed(); }}), el("span", {text: text}));
}

function range(from, to) { return Array.from({length: to - from + 1}, (_, i) => from + i); }
