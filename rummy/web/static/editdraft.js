// The position editor's draft: a position as plain data the editor changes, made from nothing
// (newDraft) or from a position the server has read (draftFromData, /api/show's answer), and
// written back as the position JSON of docs/formats.md (draftToData). No game rules here: the
// preset's shape (GET /api/presets) says where plays lie and what the piles hold; the server
// judges the rest.

export const NAMES = ["ann", "bob", "cat", "dan", "eve", "fay", "gus", "hal"];

// A card as the deck counts it: a joker's stand-in (`*=R7`) is no part of the card.
export function plain(card) { return card.startsWith("*") ? "*" : card; }

function cardList(value) {
  if (value === undefined || value === null) return [];
  return Array.isArray(value) ? value.slice() : String(value).split(/[\s,]+/).filter(Boolean);
}

function newPlayer(name, known) {
  // count: an unknown hand's size as given; null: the deal (handCount), as the command line assumes.
  return {name: name, side: "", melded: false, known: known, hand: [], count: null, hot: [], warm: [], plays: []};
}

// A play: its cards and what was laid off on it ({by: player name, cards}).
function newPlay(cards) { return {cards: cards, layoffs: []}; }

export function newDraft(shape) {
  const players = [newPlayer(NAMES[0], true), newPlayer(NAMES[1], false)];
  return {
    preset: shape.name, rules: shape.name, handNumber: shape.hands_in_game ? 1 : null, toMove: NAMES[0],
    // bag: the shared table given as a bag of tiles (editbag.js), which the reader lays out; null: as plays
    phase: "play", players: players, table: [], bag: null, discard: [], stock: null, stockCards: [], upcard: null, extra: {},
  };
}

export function addPlayer(draft) {
  const taken = new Set(draft.players.map((p) => p.name));
  const name = NAMES.find((n) => !taken.has(n)) || "p" + (draft.players.length + 1);
  draft.players.push(newPlayer(name, false));
}

// Sides matter in a four-player House game: A and B in turn unless given.
export function sidesShown(draft, shape) { return shape.sides && draft.players.length === 4; }

// Every play of the draft with its name as the reader gives it (OWNER/INDEX, table/INDEX).
export function namedPlays(draft) {
  const found = [];
  for (const player of draft.players) {
    player.plays.forEach((play, i) => found.push({name: player.name + "/" + (i + 1), play: play, owner: player}));
  }
  draft.table.forEach((play, i) => found.push({name: "table/" + (i + 1), play: play, owner: null}));
  return found;
}

// Every card placed anywhere (hands, plays, lay-offs, piles), for the picker's free counts.
export function placedCards(draft) {
  const cards = [];
  for (const player of draft.players) if (player.known) cards.push(...player.hand);
  for (const {play} of namedPlays(draft)) {
    cards.push(...play.cards);
    for (const layoff of play.layoffs) cards.push(...layoff.cards);
  }
  cards.push(...(draft.bag || []), ...draft.discard, ...draft.stockCards);
  if (draft.upcard) cards.push(draft.upcard);
  return cards.map(plain);
}

// `building`: the cards of the play being built, taken from the deck too.
export function freeCounts(draft, shape, building) {
  const free = new Map(shape.cards.map((c) => [c.card, c.copies]));
  for (const card of placedCards(draft).concat((building || []).map(plain))) free.set(card, (free.get(card) || 0) - 1);
  return free;
}

// A player renamed: their plays' owner, the lay-offs they made and to_move follow.
export function renamePlayer(draft, player, name) {
  for (const {play} of namedPlays(draft)) {
    for (const layoff of play.layoffs) if (layoff.by === player.name) layoff.by = name;
  }
  if (draft.toMove === player.name) draft.toMove = name;
  player.name = name;
}

// A new mover: the mover's hand must be known (the reader refuses a hand_count for it), so it is
// made known; the player who was to move, with no card entered yet, goes back to a hand size
// (at a real table the opponents' hands are unknown). Cards entered stay.
export function setMover(draft, name) {
  const before = draft.players.find((p) => p.name === draft.toMove);
  const mover = draft.players.find((p) => p.name === name);
  draft.toMove = name;
  if (!mover || mover === before) return;
  mover.known = true;
  if (before && before.known && !before.hand.length) before.known = false;
}

export function removePlayer(draft, player) {
  for (const {play} of namedPlays(draft)) play.layoffs = play.layoffs.filter((l) => l.by !== player.name);
  draft.players = draft.players.filter((p) => p !== player);
  if (draft.toMove === player.name) draft.toMove = draft.players.length ? draft.players[0].name : "";
}

// Hot and warm cards are hand cards: one dropped from the hand loses its mark.
export function dropMarks(player) {
  const left = new Map();
  for (const card of player.hand) left.set(card, (left.get(card) || 0) + 1);
  const keep = (cards) => cards.filter((card) => {
    const n = left.get(card) || 0;
    if (n > 0) left.set(card, n - 1);
    return n > 0;
  });
  player.hot = keep(player.hot);
  player.warm = keep(player.warm);
}

// An unknown hand's size: as given, else what the preset deals each of this many players (GET
// /api/presets' `deal`), not 0, which is a player who has gone out.
export function handCount(draft, shape, player) {
  if (player.count !== null) return player.count;
  return ((shape.deal || {})[String(draft.players.length)]) || 0;
}

// ---------------------------------------------------------------- from and to position data
// `data` is /api/show's answer without its view: the position as the reader normalised it.
export function draftFromData(data) {
  const rules = data.rules;
  const preset = typeof rules === "string" ? rules : rules.preset;
  const players = Object.entries(data.players || {}).map(([name, p]) => ({
    name: name, side: p.side && p.side !== name ? p.side : "", melded: Boolean(p.melded),
    known: p.hand !== undefined, hand: cardList(p.hand), count: typeof p.hand_count === "number" ? p.hand_count : null,
    hot: cardList(p.hot), warm: cardList(p.warm),
    plays: cardList2(p.space || p.plays).map(newPlay),
  }));
  const draft = {
    preset: preset, rules: rules, handNumber: data.hand_number === undefined ? null : data.hand_number,
    toMove: data.to_move || "", phase: data.phase || "play", players: players,
    // A table written as one string is a bag (a saved draft's; the server writes the plays it laid out).
    table: typeof data.table === "string" ? [] : cardList2(data.table).map(newPlay),
    bag: typeof data.table === "string" ? cardList(data.table) : null,
    discard: cardList((data.piles || {}).discard),
    // The stock: a count, or its cards listed (top first).
    stock: typeof (data.piles || {}).stock === "number" ? data.piles.stock : null,
    stockCards: typeof (data.piles || {}).stock === "number" ? [] : cardList((data.piles || {}).stock),
    upcard: (data.piles || {}).upcard || null,
    extra: {},
  };
  // What the editor does not change travels as it came.
  for (const key of ["first_out", "turn", "puzzle"]) if (data[key] !== undefined) draft.extra[key] = data[key];
  for (const [name, p] of Object.entries(data.players || {})) {
    for (const layoff of p.layoffs || []) {
      const [on, ...cards] = layoff.split(/\s+/);
      const target = namedPlays(draft).find((n) => n.name === on);
      if (target) target.play.layoffs.push({by: name, cards: cards});
    }
  }
  return draft;
}

function cardList2(plays) { return (plays || []).map(cardList); }

export function draftToData(draft, shape) {
  // A loaded position's [rules] overrides stay while its preset does.
  const data = {rules: typeof draft.rules === "object" && draft.rules.preset === draft.preset ? draft.rules : draft.preset};
  if (shape.hands_in_game) data.hand_number = draft.handNumber;
  data.to_move = draft.toMove;
  data.phase = draft.phase;
  if (draft.extra.first_out !== undefined) data.first_out = draft.extra.first_out;
  if (shape.plays_key === "table") data.table = draft.bag && draft.bag.length ? draft.bag.join(" ") : draft.table.map((play) => play.cards.join(" "));
  const layoffs = new Map(draft.players.map((p) => [p.name, []]));
  for (const {name, play} of namedPlays(draft)) {
    for (const layoff of play.layoffs) (layoffs.get(layoff.by) || []).push(name + " " + layoff.cards.join(" "));
  }
  const sides = sidesShown(draft, shape);
  data.players = {};
  draft.players.forEach((player, i) => {
    const p = {};
    if (sides) p.side = player.side || (i % 2 === 0 ? "A" : "B");
    else if (player.side && player.side !== player.name) p.side = player.side;
    p.melded = player.melded;
    if (player.known) p.hand = player.hand.join(" ");
    else p.hand_count = handCount(draft, shape, player);
    if (player.known && player.hot.length) p.hot = player.hot.join(" ");
    if (player.known && player.warm.length) p.warm = player.warm.join(" ");
    if (shape.plays_key !== "table" && player.plays.length) p[shape.plays_key] = player.plays.map((play) => play.cards.join(" "));
    if ((layoffs.get(player.name) || []).length) p.layoffs = layoffs.get(player.name);
    data.players[player.name] = p;
  });
  const piles = {};
  if (draft.discard.length) piles.discard = draft.discard.join(" ");
  if (draft.stockCards.length) piles.stock = draft.stockCards.join(" ");
  else if (draft.stock !== null) piles.stock = draft.stock;
  if (shape.upcard && draft.upcard) piles.upcard = draft.upcard;
  if (Object.keys(piles).length) data.piles = piles;
  for (const key of ["turn", "puzzle"]) if (draft.extra[key] !== undefined) data[key] = draft.extra[key];
  return data;
}
