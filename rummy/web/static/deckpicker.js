// The deck picker of the position editor: every card or tile of the preset's deck, one row a
// suit or colour (13 columns that shrink to the screen: no sideways scrolling on a phone), each
// a button with how many of it are still free. A tap (or Enter, Space) hands the card to onPick.
import {cardEl} from "./cards.js";
import {el} from "./dom.js";

const ROW = 13;

// With the keyboard the deck is one stop of Tab (a grid: the arrow keys move from card to card,
// Home and End to the row's ends), not 53 to 106 stops between the Type box and Open.
const STEPS = {ArrowRight: 1, ArrowLeft: -1, ArrowDown: ROW, ArrowUp: -ROW};

// Build the picker for a preset (its shape from GET /api/presets) into `box`.
export function buildPicker(box, shape, onPick) {
  box.replaceChildren();
  box.dataset.deck = shape.deck;
  box.onkeydown = (e) => arrowKey(box, e);
  box.onfocusin = (e) => { if (e.target.classList.contains("pick")) rove(box, e.target); };
  const naturals = shape.cards.filter((c) => c.card !== "*");
  const jokers = shape.cards.filter((c) => c.card === "*");
  for (let start = 0; start < naturals.length; start += ROW) {
    const row = el("div", {class: "pick-row", role: "group"});
    for (const entry of naturals.slice(start, start + ROW)) row.append(pickButton(entry, shape, onPick));
    box.append(row);
  }
  if (jokers.length) box.append(el("div", {class: "pick-row jokers", role: "group"}, pickButton(jokers[0], shape, onPick)));
  rove(box, box.querySelector(".pick"));
}

// The one card of the deck Tab stops at.
function rove(box, button) {
  for (const other of box.querySelectorAll('.pick[tabindex="0"]')) other.tabIndex = -1;
  if (button) button.tabIndex = 0;
}

function arrowKey(box, e) {
  const picks = [...box.querySelectorAll(".pick")], at = picks.indexOf(e.target);
  if (at < 0) return;
  const rowStart = at - (at % ROW);
  let to;
  if (e.key === "Home") to = rowStart;
  else if (e.key === "End") to = Math.min(rowStart + ROW, picks.length) - 1;
  else if (STEPS[e.key]) to = Math.max(0, Math.min(picks.length - 1, at + STEPS[e.key]));
  else return;
  e.preventDefault();
  const step = to >= at ? 1 : -1;
  while (to >= 0 && to < picks.length && picks[to].disabled) to += step;  // a used-up card is passed over
  if (to >= 0 && to < picks.length) focusPick(box, picks[to]);
}

export function focusPick(box, button) { rove(box, button); button.focus(); }

function pickButton(entry, shape, onPick) {
  const face = cardEl(entry.card, shape.deck, "picker", 0, []);
  face.removeAttribute("role");  // the button names the card
  const button = el("button", {type: "button", class: "pick", tabindex: "-1", "data-card": entry.card, "data-name": face.getAttribute("aria-label"),
    onclick: () => onPick(entry.card)}, face, el("span", {class: "free", "aria-hidden": "true"}));
  face.removeAttribute("aria-label");
  return button;
}

// The free counts: a card with none left is shown used and cannot be picked.
export function updatePicker(box, free) {
  for (const button of box.querySelectorAll(".pick")) {
    const left = free.get(button.dataset.card) || 0;
    button.querySelector(".free").textContent = String(left);
    button.disabled = left <= 0;
    button.classList.toggle("used", left <= 0);
    button.setAttribute("aria-label", button.dataset.name + ", " + left + " free");
  }
  // Tab's stop stays on a card that can be picked.
  const stop = box.querySelector('.pick[tabindex="0"]');
  if (stop && stop.disabled) rove(box, box.querySelector(".pick:not(:disabled)"));
}
