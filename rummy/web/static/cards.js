// Cards and tiles: how each is drawn and named, and the counting the tables need.
import {el} from "./dom.js";

const SUITS = {S: ["♠", "spades"], H: ["♥", "hearts"], D: ["♦", "diamonds"], C: ["♣", "clubs"]};
const COLOURS = {K: "black", B: "blue", R: "red", O: "orange"};
const RANKS = {A: "ace", J: "jack", Q: "queen", K: "king"};

export function isJoker(card) { return card.startsWith("*"); }

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
export function cardEl(card, deck, where, index, classes, nth) {
  return faceEl(cardFace(card, deck), classes,
    {"data-card": card, "data-where": where, "data-index": index, "data-nth": nth || 0});
}

// A card drawn among words (a step of a plan): the same face and spoken name, small, inline,
// and nothing that makes it one of the table's cards (no data-where: no selection, no drag).
export function inlineCardEl(card, deck) {
  return faceEl(cardFace(card, deck), ["inline"], {"data-notation": card});
}

function faceEl(face, classes, attrs) {
  const node = el("span", {class: "card " + face.cls + " " + (classes || []).join(" "),
    ...attrs, role: "img", "aria-label": face.label},
  el("span", {class: "face", text: face.text, "aria-hidden": "true"}));
  if (face.small) node.append(el("span", {class: "stands", text: face.small, "aria-hidden": "true"}));
  return node;
}

// How many of each card a list holds (cards repeat in two-pack games).
export function counts(cards) {
  const found = new Map();
  for (const card of cards) found.set(card, (found.get(card) || 0) + 1);
  return found;
}

// Every play's cards with those laid off on it.
export function allCards(play) {
  return play.cards.concat(...(play.layoffs || []).map((layoff) => layoff.cards));
}

// The equal cards before each one: the `nth` of cardEl.
export function nths(cards) {
  const seen = new Map();
  return cards.map((card) => { const n = seen.get(card) || 0; seen.set(card, n + 1); return n; });
}

// "cards" or "tiles" (the game's own word), singular for one.
export function unitWord(layout, count) {
  const word = layout.unit || "cards";
  return count === 1 ? word.replace(/s$/, "") : word;
}

// A card's key on a drawn table, "where|card|n" (the n-th equal card there): it stays true when
// the table is redrawn, so the My move selection is a set of these.
export function selectionKey(where, card, nth) { return where + "|" + card + "|" + nth; }

export function parseKey(key) {
  const [where, card, nth] = key.split("|");
  return {where: where, card: card, nth: Number(nth)};
}
