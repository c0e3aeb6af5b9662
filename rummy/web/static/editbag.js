// The position editor's table as a bag (tile presets; docs/formats.md "A tile table as a bag"):
// the table's tiles without their plays, one tap each, which the reader lays out in whole plays
// itself, as rummikub-solver and other solvers take a table. The draft holds the bag as
// `draft.bag` (null: the table is given as plays) and writes it as one string. Here: the switch
// between the two forms and the bag drawn. The reader's own lines on the bag (tiles that fit in
// no play, a fixed joker without its stand-in) come beside it from the editor's live check, as for
// every other part of the position.
import {api} from "./api.js";
import {el} from "./dom.js";

// The switch, shown on the table zone in either form.
export function bagSwitch(draft, onSwitch) {
  return el("label", {class: "ed-check-box"}, el("input", {type: "checkbox", id: "ed-bag-mode", "data-key": "bag-mode",
    checked: draft.bag !== null, onchange: (e) => onSwitch(e.target.checked)}),
  el("span", {text: "Table as a bag (rummy lays out the plays)"}));
}

// Plays into a bag: their tiles, in order.
export function intoBag(draft) {
  draft.bag = draft.table.flatMap((play) => play.cards);
  draft.table = [];
}

// A bag into plays: the reader's own arrangement of it, asked of /api/show with the bag alone (so a
// problem elsewhere in the draft does not stand in the way). A bag the reader cannot lay out gives
// its tiles back (returned) to be built into plays by hand; so does one changed while asking.
// `data`: the draft written (draftToData).
export async function outOfBag(draft, data) {
  const bag = draft.bag, asked = bag.join(" ");
  let arranged = null;
  try {
    const alone = {rules: data.rules, to_move: "ann", phase: "play", players: {ann: {hand: "", melded: true}}, table: asked};
    arranged = (await api("/api/show", {position: JSON.stringify(alone), format: "json"})).table;
  } catch {
    arranged = null;
  }
  if (draft.bag !== bag || bag.join(" ") !== asked) arranged = null;
  draft.bag = null;
  draft.table = (arranged || []).map((play) => ({cards: play.split(/\s+/).filter(Boolean), layoffs: []}));
  return arranged ? [] : bag;
}

// The table zone as a bag. `tools`: the editor's own zone, cardsEl and takeOff (a tap takes a tile
// off, as everywhere), and what a change calls. Under fixed jokers a bare joker asks what it stands for.
export function bagZone(draft, shape, tools, switchEl) {
  const bag = draft.bag;
  const title = "Table, as a bag: " + bag.length + " tile" + (bag.length === 1 ? "" : "s");
  return tools.zone("bag", title, tools.cardsEl(bag, (k) => tools.takeOff(bag, k), "bag"), "table",
    [switchEl, standInEl(bag, shape, tools.changed)]);
}

// Under fixed jokers the reader needs each joker of a bag to say what it stands for: the first bare
// one is asked for here (any tile of the deck), the next after it.
function standInEl(bag, shape, changed) {
  const bare = bag.indexOf("*");
  if (!shape.fixed_jokers || bare < 0) return null;
  const tiles = shape.cards.filter((c) => c.card !== "*").map((c) => c.card);
  return el("label", {class: "ed-field"}, el("span", {text: "The joker in the bag stands for"}),
    el("select", {id: "ed-bag-stand-in", "data-key": "bag-stand-in", onchange: (e) => {
      if (!e.target.value) return;
      bag[bare] = "*=" + e.target.value;
      changed();
    }}, el("option", {value: "", text: "choose…"}), ...tiles.map((tile) => el("option", {value: tile, text: tile}))));
}
