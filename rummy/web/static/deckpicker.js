// The deck picker of the position editor: every card or tile of the preset's deck, one row a
// suit or colour (13 columns that shrink to the screen: no sideways scrolling on a phone), each
// a button with how many of it are still free. A tap (or Enter, Space) hands the card to onPick.
import {cardEl} from "./cards.js";
import {el} from "./dom.js";

const ROW = 13;

// Build the picker for a preset (its shape from GET /api/presets) into `box`.
export function buildPicker(box, shape, onPick) {
  box.replaceChildren();
  box.dataset.deck = shape.deck;
  const naturals = shape.cards.filter((c) => c.card !== "*");
  const jokers = shape.cards.filter((c) => c.card === "*");
  for (let start = 0; start < naturals.length; start += ROW) {
    const row = el("div", {class: "pick-row", role: "group"});
    for (const entry of naturals.slice(start, start + ROW)) row.append(pickButton(entry, shape, onPick));
    box.append(row);
  }
  if (jokers.length) box.append(el("div", {class: "pick-row jokers", role: "group"}, pickButton(jokers[0], shape, onPick)));
}

function pickButton(entry, shape, onPick) {
  const face = cardEl(entry.card, shape.deck, "picker", 0, []);
  face.removeAttribute("role");  // the button names the card
  const button = el("button", {type: "button", class: "pick", "data-card": entry.card, "data-name": face.getAttribute("aria-label"),
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
}
