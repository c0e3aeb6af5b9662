// The game kept in the browser (issue 27): Play this turn moves the board to the next position
// (POST /api/play), Undo takes the last turn back, and the game (several, named) is kept in
// localStorage in the game record's JSON form (docs/formats.md "Game records"), downloaded as a
// game file or opened from one (POST /api/game reads and replays it). The page never carries a
// turn out itself: the server plays it and writes its text for the record.
import {api} from "./api.js";
import {allCards} from "./cards.js";
import {buildPicker, updatePicker} from "./deckpicker.js";
import {$, el, fillSelect, say, showError} from "./dom.js";
import {showPosition} from "./position.js";
import {state} from "./state.js";
import {timeLimit} from "./timelimit.js";

const GAMES = "rummy-games";           // name -> a game record's data
const CURRENT = "rummy-game-current";  // the name of the game open when the page was left
const SEATS = "rummy-versus-seats";    // game name -> the user's seat, in games against rummy

// What game.js calls once a game's position is on the board (versus.js: rummy's turns).
export const gameHooks = {shown: () => {}};

// The game open (state.game): {name, record, positions}, positions the last hand's, one before
// each of its turns and the one after the last ({position, code}).

export function storedGames() {
  try {
    const games = JSON.parse(localStorage.getItem(GAMES) || "{}");
    return games && typeof games === "object" && !Array.isArray(games) ? games : {};
  } catch {
    return {};
  }
}

function keep() {
  const games = storedGames();
  if (state.game) games[state.game.name] = state.game.record;
  try {
    localStorage.setItem(GAMES, JSON.stringify(games));
    if (state.game) localStorage.setItem(CURRENT, state.game.name);
  } catch (error) {  // the browser's storage is full (a few MB), or switched off
    showError($("game-error"), {error: "the game could not be kept in this browser (" + error.name + "): " +
      "download it as a game file, or delete a game kept"});
  }
  drawGame();
}

function lastHand(record) { return record.hands[record.hands.length - 1]; }
function lastPosition() { return state.game.positions[state.game.positions.length - 1]; }

// The position's data as show answers it, without what show adds (formats.md positions).
function positionData(shown) {
  const data = {...shown};
  for (const key of ["code", "toml", "warnings", "view"]) delete data[key];
  return data;
}

function freshName(base) {
  const games = storedGames();
  let name = base, n = 2;
  while (name in games) name = base + " (" + n++ + ")";
  return name;
}

// A new game whose first hand starts from the position shown.
export function newGame(name) {
  if (state.shown) newGameFrom(positionData(state.shown), state.shown.code, name, {});
}

// A new game from `start` (a position's data, its `code`); `hand` adds to its first hand (`deal`),
// `seat` makes it a game against rummy, played from that seat.
export function newGameFrom(start, code, name, hand, seat) {
  const record = {game: {format: 1, rules: start.rules, players: Object.keys(start.players || {})},
    hands: [{...hand, start: start, turns: []}]};
  state.game = {name: freshName(name || "Game " + new Date().toISOString().slice(0, 16).replace("T", " ")),
    record: record, positions: [{position: start, code: code}], seat: seat || null};
  const seats = storedSeats();
  if (seat) seats[state.game.name] = seat;
  localStorage.setItem(SEATS, JSON.stringify(seats));
  keep();
}

// The user's seat in each game against rummy (name -> player): the record has no place for it.
function storedSeats() {
  try {
    const seats = JSON.parse(localStorage.getItem(SEATS) || "{}");
    return seats && typeof seats === "object" && !Array.isArray(seats) ? seats : {};
  } catch {
    return {};
  }
}

// The position shown is the open game's latest: a turn played from it goes into that game.
function atGameEnd() {
  return state.game && state.shown && lastPosition().code === state.shown.code;
}

// Play `turn` (steps, draw words, best's answer, "best") from the position shown; a legal turn is
// added to the open game (a new one, from the position shown, when that is not the game's latest).
// `box`: where an error or check's breaches go.
export async function playTurn(turn, box, fromGame = false) {
  box.hidden = true;
  if (!state.text) { showError(box, {error: "load a position first"}); return false; }
  let limit;
  try { limit = timeLimit(); } catch (error) { showError(box, error); return false; }
  if ((fromGame || atGameEnd()) && handOver()) {
    showError(box, {error: "the hand is over: " + (state.game.ending ? state.game.ending.summary : "its result is written") +
      "; Undo turn takes its last turn back"});
    return false;
  }
  const shown = state.text;
  // fromGame: the turn is played from the open game's latest position (the editor's after-position)
  const before = fromGame ? JSON.stringify(lastPosition().position) : shown;
  let data;
  say("Playing the turn…");
  try {
    data = await api("/api/play", {position: before, turn: turn, time_limit: limit});
  } catch (error) {
    if (shown === state.text) showError(box, error);
    return false;
  }
  if (shown !== state.text) return false;  // another position was loaded meanwhile
  if (data.legal !== true) {
    const error = data.legal === null ? {error: "nothing to play: " + data.nothing_to_judge, errors: []}
      : {error: "✘ illegal: the turn was not played", errors: ["", ...data.view.breaches.map((b) => b.code + ": " + b.message)]};
    showError(box, error);
    return false;
  }
  if (!fromGame && !atGameEnd()) newGame();
  addTurn(data.player, data.turn, data.position, data.code, data.ending);
  await showGamePosition();
  say("Played " + data.player + "'s turn: " + data.turn + ". " +
    (data.ending ? "The hand is over: " + data.ending.summary + "." : data.position.to_move + " to move."));
  return true;
}

// The open game's latest position on the board.
async function showGamePosition() {
  const position = lastPosition().position, seat = state.game.seat;
  state.concealed = seat ? {code: lastPosition().code,
    names: new Set(Object.keys(position.players || {}).filter((name) => name !== seat))} : null;
  const text = JSON.stringify(position);
  $("paste").value = seat ? "" : text;  // a game against rummy keeps its hands out of sight
  await showPosition(text, null);
  if (state.game && lastPosition().position === position) gameHooks.shown();
}

// A turn played elsewhere (rummy's, in versus.js) added to the open game.
// `ending`: the hand's end the turn made (rummy.hand_end, /api/play's), or null; its scores are
// the hand's `result` in the record.
export function addTurn(player, turn, position, code, ending) {
  const hand = lastHand(state.game.record);
  hand.turns.push({player: player, turn: turn});
  state.game.positions.push({position: position, code: code});
  state.game.ending = ending || null;
  if (ending && ending.scores) hand.result = ending.scores;
  keep();
}

// The next hand of a game rummy deals (its hands have a `deal`): dealt by the server for the hand's
// number (who moves first goes round), begun in the record, shown.
export async function dealNextHand() {
  const g = state.game, box = $("game-error");
  box.hidden = true;
  if (!g || !handOver()) return;
  let data;
  try {
    data = await api("/api/deal", {rules: g.record.game.rules, players: g.record.game.players, hand: g.record.hands.length + 1});
  } catch (error) {
    showError(box, error);  // House's seventh hand, say: the game is over
    return;
  }
  if (state.game !== g) return;
  g.record.hands.push({deal: data.seed, start: data.position, turns: []});
  g.positions = [{position: data.position, code: data.code}];
  g.ending = null;
  keep();
  await showGamePosition();
  say("Hand " + g.record.hands.length + " is dealt: " + data.position.to_move + " to move.");
}

// Each player's total over the hands scored (their `result`s), or null where none is.
function totals(record) {
  const scored = record.hands.filter((h) => h.result);
  if (!scored.length) return null;
  const sum = {};
  for (const hand of scored) for (const [name, points] of Object.entries(hand.result)) sum[name] = (sum[name] || 0) + points;
  return sum;
}

// The hand is over: its end as the last turn made it, or its result as the record keeps it.
export function handOver() {
  const hand = state.game ? lastHand(state.game.record) : null;
  return Boolean(hand && (state.game.ending || hand.result));
}

export {showGamePosition};

// Undo: the open game's last turn taken back, the board back to the position before it.
export async function undoTurn() {
  const box = $("game-error");
  box.hidden = true;
  if (!state.game) return;
  const record = state.game.record;
  if (!lastHand(record).turns.length) {
    if (record.hands.length < 2) { showError(box, {error: "no turn to take back"}); return; }
    // A hand not begun goes, and the result of the one before with it (as rummy game undo does):
    // the server replays the game to its last position.
    record.hands.pop();
    delete lastHand(record).result;
    await openGame(state.game.name, JSON.stringify(record));
    return;
  }
  // Against rummy: rummy's turns since the user's last one go too, then the user's own.
  const turns = lastHand(state.game.record).turns, seat = state.game.seat;
  while (seat && turns.length > 1 && turns[turns.length - 1].player !== seat) { turns.pop(); state.game.positions.pop(); }
  turns.pop();
  state.game.positions.pop();
  delete lastHand(state.game.record).result;  // the hand goes on again
  state.game.ending = null;
  keep();
  await showGamePosition();
  say("Took back the last turn: " + lastPosition().position.to_move + " to move.");
}

// Open a game record (its text, TOML or JSON) under `name`: the server reads and replays it.
export async function openGame(name, text) {
  const box = $("game-error");
  box.hidden = true;
  let data;
  try {
    data = await api("/api/game", {game: text});
  } catch (error) {
    showError(box, error);
    return false;
  }
  for (const hand of data.game.hands) hand.turns = hand.turns || [];  // rummy writes no `turns` for a hand without any
  state.game = {name: name, record: data.game, positions: data.hands[data.hands.length - 1].positions,
    seat: storedSeats()[name] || null};
  keep();
  await showGamePosition();
  return true;
}

// The game as a file: its JSON form (rummy game show reads it; rummy writes TOML or JSON alike).
function download() {
  if (!state.game) return;
  const text = JSON.stringify(state.game.record, null, 2) + "\n";
  const url = URL.createObjectURL(new Blob([text], {type: "application/json"}));
  const link = el("a", {href: url, download: state.game.name.replace(/[^\w.-]+/g, "-") + ".json"});
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 0);
  say("The game is saved as " + link.download + ".");
}

function openFile(event) {
  const file = event.target.files[0];
  if (!file) return;
  const reader = new FileReader();
  reader.onload = () => openGame(freshName(file.name.replace(/\.(toml|json)$/i, "")), String(reader.result));
  reader.onerror = () => showError($("game-error"), {error: "could not read " + file.name});
  reader.readAsText(file);
  event.target.value = "";
}

// rummy's turn as the user may see it: the card it drew from the stock is its own.
// A turn of rummy's seat as the user may see it: its draw from the stock unnamed.
export function unseen(turn) { return turn.replace(/^draw \S+/, "draw (a card from the stock)"); }

export function drawGame() {
  const names = Object.keys(storedGames());
  fillSelect($("game-select"), [["", names.length ? "choose a game…" : "no game kept yet"],
    ...names.map((n) => [n, n])], state.game ? state.game.name : "");
  const g = state.game;
  for (const id of ["game-undo-button", "game-download-button", "game-delete-button", "review-button", "game-edited-button"]) $(id).disabled = !g;
  $("game-status").textContent = g ? "“" + g.name + "”: " + g.record.game.players.join(", ") + "; hand " +
    g.record.hands.length + ", " + lastHand(g.record).turns.length + " turns; " + (handOver() ? "the hand is over: " +
      (g.ending ? g.ending.summary : Object.entries(lastHand(g.record).result).map(([p, n]) => p + " " + n).join(", "))
      : lastPosition().position.to_move + " to move.")
    : "No game open: Play this turn starts one from the position shown.";
  const sums = g ? totals(g.record) : null;
  if (sums && g.record.hands.length > 1) {
    $("game-status").textContent += " Totals: " + Object.entries(sums).map(([p, n]) => p + " " + n).join(", ") + ".";
  }
  // the next hand is dealt where rummy dealt this one (its rules a preset's name)
  $("next-hand-button").hidden = !(g && handOver() && lastHand(g.record).deal !== undefined && typeof g.record.game.rules === "string");
  const turns = g ? lastHand(g.record).turns : [];
  $("game-turns").replaceChildren(...turns.map((t) => el("li", {}, el("strong", {text: t.player + ": "}),
    el("code", {text: g.seat && t.player !== g.seat ? unseen(t.turn) : t.turn}))));
  $("game-undo-button").disabled = !turns.length && !(g && g.record.hands.length > 1);
  drawTurnHelp(Boolean(g && g.seat));
}

// Against rummy the turn box is the user's own: the draw is the stock's top card (a card picked
// from the deck would be one the user chose), so the picker goes and the hidden draw says so.
function drawTurnHelp(versus) {
  $("turn-help-text").textContent = versus ? "Your turn as steps, or a draw in words (take 2, pass). Draw:"
    : "Another player's turn as steps, or a draw in words. Draw:";
  $("draw-hidden-button").textContent = versus ? "from the stock" : "a hidden card";
  $("draw-pick-button").hidden = versus;
  if (versus) $("draw-picker").hidden = true;
}

// The turn box under the table: a turn typed (another player's steps, or draw words), and the
// deck picker for the card drawn.
let shapes = null;

// The cards of the deck not seen on the board (the known hands, the plays, the piles): those that can be drawn.
function freeCards(shape, view) {
  const free = new Map(shape.cards.map((c) => [c.card, c.copies]));
  const seen = [...view.players.flatMap((p) => p.hand || []), ...view.plays.flatMap(allCards), ...view.discard,
    ...(view.upcard ? [view.upcard] : [])];
  for (const card of seen) {
    const plain = card.split("=")[0];  // a fixed joker's stand-in (*=K7) is a joker of the deck
    free.set(plain, (free.get(plain) || 0) - 1);
  }
  return free;
}

async function toggleDrawPicker() {
  const box = $("draw-picker");
  if (!box.hidden) { box.hidden = true; return; }
  if (!state.view) return;
  try {
    shapes = shapes || new Map((await api("/api/presets")).presets.map((p) => [p.name, p]));
  } catch (error) {
    showError($("turn-error"), error);
    return;
  }
  const shape = shapes.get(state.view.rules);
  if (!shape) { showError($("turn-error"), {error: "no deck known for the rules " + state.view.rules + ": type the draw"}); return; }
  buildPicker(box, shape, (card) => { box.hidden = true; playTurn("draw " + card, $("turn-error")); });
  updatePicker(box, freeCards(shape, state.view));
  box.hidden = false;
}

// The position shown as the user's seat sees it, in a game against rummy where it is the user's
// turn, as text (else null).
export function seatView() {
  if (!state.game || !state.game.seat || !atGameEnd()) return null;
  const position = lastPosition().position;
  return position.to_move === state.game.seat ? JSON.stringify(viewOf(position, state.game.seat)) : null;
}

// A position's data as `seat` sees it: the other hands as counts (their hot and warm cards
// forgotten), the stock as a count; as /api/rummy-turn's seat view and rummy review's.
export function viewOf(position, seat) {
  const count = (cards) => (cards.trim() ? cards.trim().split(/\s+/).length : 0);
  const players = {};
  for (const [name, player] of Object.entries(position.players || {})) {
    if (name === seat || typeof player.hand !== "string") { players[name] = player; continue; }
    const seen = {...player};
    for (const key of ["hand", "hot", "warm"]) delete seen[key];
    seen.hand_count = count(player.hand);
    players[name] = seen;
  }
  const piles = {...(position.piles || {})};
  if (typeof piles.stock === "string") piles.stock = count(piles.stock);
  return {...position, players: players, piles: piles};
}

// A card drawn unseen: "draw" (a hidden hand's draw); in a game against rummy the server knows the
// stock, so it is the stock's top card, which the user sees once it is drawn.
export function hiddenDraw() {
  const stock = state.game && state.game.seat && atGameEnd() ? (lastPosition().position.piles || {}).stock : null;
  const top = typeof stock === "string" ? stock.trim().split(/\s+/)[0] : "";
  return top ? "draw " + top : "draw";
}

export function wireGame() {
  $("game-open-button").addEventListener("click", () => {
    const name = $("game-select").value, games = storedGames();
    if (name && games[name]) openGame(name, JSON.stringify(games[name]));
  });
  $("game-delete-button").addEventListener("click", () => {
    if (!state.game) return;
    const games = storedGames();
    delete games[state.game.name];
    localStorage.setItem(GAMES, JSON.stringify(games));
    localStorage.removeItem(CURRENT);
    say("Deleted the game “" + state.game.name + "” from this browser.");
    state.game = null;
    state.concealed = null;
    drawGame();
  });
  $("game-rename-button").addEventListener("click", () => {
    const name = $("game-name").value.trim();
    if (!state.game || !name || name === state.game.name) return;
    const games = storedGames();
    delete games[state.game.name];
    localStorage.setItem(GAMES, JSON.stringify(games));
    const seats = storedSeats(), seat = seats[state.game.name];
    delete seats[state.game.name];
    state.game.name = freshName(name);
    state.game.record.game.title = name;
    if (seat) seats[state.game.name] = seat;
    localStorage.setItem(SEATS, JSON.stringify(seats));
    keep();
  });
  $("game-new-button").addEventListener("click", () => {
    if (!state.shown) { showError($("game-error"), {error: "load a position first: the game starts from it"}); return; }
    newGame($("game-name").value.trim());
    say("A new game starts from the position shown: “" + state.game.name + "”.");
  });
  $("game-download-button").addEventListener("click", download);
  $("game-file").addEventListener("change", openFile);
  $("game-undo-button").addEventListener("click", undoTurn);
  $("next-hand-button").addEventListener("click", dealNextHand);
  const typed = () => {
    const turn = $("turn-input").value.trim();
    if (!turn) { showError($("turn-error"), {error: "type a turn first: steps, or draw words (draw 7H, take 2, pass)"}); return; }
    playTurn(turn, $("turn-error")).then((done) => { if (done) $("turn-input").value = ""; });
  };
  $("turn-play-button").addEventListener("click", typed);
  $("turn-input").addEventListener("keydown", (e) => { if (e.key === "Enter") typed(); });
  $("draw-pick-button").addEventListener("click", toggleDrawPicker);
  // A turn built in the editor: the position shown (Edit, then Open) is the turn's end state.
  $("game-edited-button").addEventListener("click", () => {
    if (!state.game || atGameEnd()) {
      showError($("game-error"), {error: "edit the game's latest position (Edit, then Open) into the position after the turn first"});
      return;
    }
    playTurn(state.text, $("game-error"), true);
  });
  $("draw-hidden-button").addEventListener("click", () => playTurn(hiddenDraw(), $("turn-error")));
  $("draw-open-button").addEventListener("click", () => playTurn("open", $("turn-error")));
  $("draw-pass-button").addEventListener("click", () => playTurn("pass", $("turn-error")));
  drawGame();
}

// When the page opens: the game open when it was left, at its latest position (a link to a
// position, #p=CODE, opens that position instead; the game stays listed).
export function reopenGame() {
  const name = localStorage.getItem(CURRENT), games = storedGames();
  if (!name || !games[name] || location.hash.startsWith("#p=")) return;
  openGame(name, JSON.stringify(games[name]));
}
