// Drawing a table. Every table the page draws is a "layout" made by the server: show's view, the
// table after the steps so far (/api/steps), check's end state, best's end state; or a frame of
// best's plan (frameLayout in plan.js).
import {cardEl, counts, nths, selectionKey, unitWord} from "./cards.js";
import {$, el} from "./dom.js";
import {state} from "./state.js";

// Draw a layout into `box`. Options: marks {play: {card: [kinds]}}, touched {play: Set of cards},
// flagged {play: Set of cards} (breaches, "*" for every card), move (the My move state).
export function drawTable(box, layout, options) {
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
  const side = "side " + player.side;  // the server's facts may say it already: "ann side A side A" was drawn
  if (player.side && player.side !== player.name && !(player.facts || []).includes(side)) head.append(el("span", {class: "fact", text: side}));
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
  const hidden = state.concealed;  // rummy's seats in a game against it, while its position is shown
  if (hidden && state.shown && state.shown.code === hidden.code && hidden.names.has(player.name)) {
    const count = player.hand.length;
    row.append(el("span", {class: "unknown", text: count + " " + unitWord(layout, count) + ", hidden"}));
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

// The position's table at the top: as loaded, or in My move the table after the steps so far.
export function drawMain() {
  const focus = focusKey(document.activeElement);
  if (state.moving) drawTable($("table"), state.move.layout, {move: state.move, flagged: state.move.flagged});
  else drawTable($("table"), state.view, {});
  // Redrawing replaces the elements: a keyboard user keeps their place.
  const again = focus && $("table").querySelector(focus);
  if (again) again.focus();
}

// A selector finding `node` again in the redrawn table (null: not a place on it).
function focusKey(node) {
  if (!node || !$("table").contains(node)) return null;
  const d = node.dataset;
  if (node.matches(".card")) return '.card[data-where="' + CSS.escape(d.where) + '"][data-index="' + d.index + '"]';
  if (node.matches(".play")) return '.play[data-play="' + CSS.escape(d.play) + '"]';
  if (node.matches(".new-play")) return '.new-play[data-space="' + CSS.escape(d.space) + '"]';
  if (node.matches(".discard-zone")) return ".discard-zone";
  return null;
}
