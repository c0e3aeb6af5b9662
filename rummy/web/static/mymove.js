// My move: the user builds a turn on the table (select cards, tap or drag them onto a play, a new
// play zone or the discard pile, or type steps) and the page writes it as steps.
import {api} from "./api.js";
import {isJoker, parseKey, selectionKey} from "./cards.js";
import {$, el, say, showError} from "./dom.js";
import {state} from "./state.js";
import {drawMain} from "./table.js";

// The turn being built: its steps as text, and the table they leave as the server reads them
// (POST /api/steps, the checker's own reading: plays keep their names from before the turn, new
// plays are new/1, new/2, ...). The page never applies a step itself: it sends the whole list and
// draws the answer; a step the server refuses is not added.
function newMove() {
  // flagged: the last check's breaches, marked on the table (check.js) until the steps change
  return {steps: [], layout: state.view, selected: new Set(), queue: Promise.resolve(), pending: 0, flagged: null};
}

export function toggleMoving() {
  state.moving = !state.moving;
  if (state.moving && !state.move) state.move = newMove();
  $("move-panel").hidden = !state.moving;
  setMovingButton();
  drawMain();
  drawSteps();
  if (state.moving) say("My move: select cards, then a play, a new play zone or the discard pile.");
}

export function setMovingButton() {
  $("my-move-button").setAttribute("aria-pressed", String(state.moving));
  $("my-move-button").textContent = state.moving ? "Done moving" : "My move";
}

// Runs `work(m)` after the move's earlier requests, while that move is still the page's.
function queued(work) {
  const m = state.move;
  const busy = (n) => { m.pending += n; $("table").setAttribute("aria-busy", String(m.pending > 0 && state.move === m)); };
  busy(1);
  m.queue = m.queue.then(() => (state.move === m ? work(m) : null)).catch((error) => say(String(error)))
    .finally(() => busy(-1));
  return m.queue;
}

// Ask the server for the table after `list`; true when it took them (the move now holds them).
async function sendSteps(m, list) {
  let data;
  try {
    data = await api("/api/steps", {before: state.text, steps: list.join("; ")});
  } catch (error) {
    if (state.move === m) showError($("steps-error"), error);
    return false;
  }
  if (state.move !== m) return false;
  m.steps = list;
  m.layout = data.view;
  $("steps-error").hidden = true;
  $("check-result").hidden = true;  // it was about other steps
  m.flagged = null;
  pruneSelection(m);
  drawMain();
  drawSteps();
  return true;
}

// Steps to add, in order: text, or a function of the move making the text when its turn comes
// (a new play's name depends on the steps before it). The first one refused stops the rest;
// `refused(m, rest)` runs then, with the texts not added (the refused one first).
export function addSteps(steps, refused) {
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
export function keepSteps(count) {
  return queued(async (m) => {
    if (await sendSteps(m, m.steps.slice(0, Math.max(0, count(m))))) say(m.steps.length ? "Steps now: " + m.steps.length + "." : "No steps.");
  });
}

function drawSteps() {
  if (!state.move) return;
  $("steps-list").replaceChildren(...state.move.steps.map((step) => el("li", {}, el("code", {text: step}))));
  $("undo-button").disabled = !state.move.steps.length;
  $("reset-button").disabled = !state.move.steps.length;
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

// The cards at a place of a layout: the mover's hand or a play's own cards (null: no such play).
function cardsAt(layout, where) {
  if (where === "hand") {
    const mover = layout.players.find((p) => p.to_move);
    return (mover && mover.hand) || [];
  }
  const play = layout.plays.find((p) => p.name === where);
  return play ? play.cards : null;
}

// The selection: cards from the hand or from one play, in the order they were picked (keys of
// selectionKey in cards.js), or null.
function selectedCards() {
  const keys = [...state.move.selected].map(parseKey);
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
  return where === "hand" || state.move.layout.plays.some((p) => p.name === where);
}

function toggleCard(where, card, nth) {
  const m = state.move, key = selectionKey(where, card, nth);
  const current = selectedCards();
  if (current && current.where !== where) m.selected.clear();
  if (m.selected.has(key)) m.selected.delete(key); else m.selected.add(key);
  drawMain();
  const now = selectedCards();
  say(now ? "Selected " + now.cards.join(" ") + ": now tap a play, a new play zone" +
    (state.view.game.discards && now.where === "hand" ? " or the discard pile." : ".") : "Nothing selected.");
}

// Put the selection on a target: {play, card?} | {space} | {discard: true}. One hand card on a joker
// is a replacement; anything else is a play or a move, named as the checker reads steps.
function dropOn(target) {
  const chosen = selectedCards();
  if (!chosen) { say("Select cards first."); return; }
  const m = state.move, cards = chosen.cards.join(" ");
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
    const away = target.space && target.space !== state.view.to_move ? " in " + target.space : "";
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

export function onTableClick(event) {
  if (!state.moving || dragState.justDropped) return;
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

export function onTableKey(event) {
  if (event.key !== "Enter" && event.key !== " ") return;
  if (!event.target.matches(".card, .drop")) return;
  event.preventDefault();
  onTableClick(event);
}

// Drag and drop with pointer events: one path for the mouse, a pen and a finger.
const dragState = {start: null, ghost: null, justDropped: false};

export function onPointerDown(event) {
  if (!state.moving || event.button > 0) return;
  const card = event.target.closest(".card");
  if (!card || !isMovable(card.dataset.where)) return;
  dragState.start = {x: event.clientX, y: event.clientY, card: card, id: event.pointerId};
}

export function onPointerMove(event) {
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
  if (!state.move.selected.has(key)) { state.move.selected = new Set([key]); drawMain(); }
  const chosen = selectedCards();
  dragState.ghost = el("div", {class: "ghost", "aria-hidden": "true", text: chosen.cards.join(" ")});
  document.body.append(dragState.ghost);
}

export function onPointerUp(event) {
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
