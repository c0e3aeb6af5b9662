// Play against rummy (issue 27): the user takes one seat of a hand rummy deals (/api/deal: every
// hand known to the server, the stock listed), and rummy plays the other seats, each turn chosen
// from that seat's own view (/api/rummy-turn: the other hands and the stock hidden from it) and
// carried out on the whole position. The table hides rummy's hands (state.concealed); the game is
// kept like any other (game.js), with the user's seat beside it.
import {api} from "./api.js";
import {$, fillSelect, say, showError} from "./dom.js";
import {addTurn, gameHooks, handOver, newGameFrom, showGamePosition, unseen} from "./game.js";
import {state} from "./state.js";
import {timeLimit} from "./timelimit.js";

const NAMES = ["ann", "bob", "cat", "dan", "eve", "fay", "gus", "hal"];
let shapes = null;  // GET /api/presets: the presets that deal a hand, by name
let playing = null; // the position rummy is playing from, while it plays

async function openForm() {
  const form = $("versus-form");
  form.hidden = !form.hidden;
  if (form.hidden) return;
  try {
    shapes = shapes || (await api("/api/presets")).presets;
  } catch (error) {
    showError($("game-error"), error);
    return;
  }
  fillRules();
}

// The presets that deal a hand to that many players.
function fillRules() {
  const count = $("versus-count").value;
  const dealing = (shapes || []).filter((p) => p.deal && p.deal[count]);
  fillSelect($("versus-rules"), dealing.map((p) => [p.name, p.name + " (" + p.deal[count] + " each)"]), $("versus-rules").value || "house-classic");
}

async function start() {
  const box = $("game-error");
  box.hidden = true;
  const seat = $("versus-seat").value.trim() || "you", rules = $("versus-rules").value;
  const players = [seat, ...NAMES.filter((name) => name !== seat).slice(0, Number($("versus-count").value) - 1)];
  const typed = $("versus-seed").value.trim();
  let data;
  try {
    data = await api("/api/deal", {rules: rules, players: players, ...(typed ? {seed: Number(typed)} : {})});
  } catch (error) {
    showError(box, error);
    return;
  }
  newGameFrom(data.position, data.code, seat + " against rummy, " + rules, {deal: data.seed}, seat);
  $("versus-form").hidden = true;
  say("Dealt " + rules + " (seed " + data.seed + "): you are " + seat + "; rummy plays " + players.slice(1).join(", ") + ".");
  await showGamePosition();
}

// Called whenever a game position is on the board: rummy plays while a seat of its is to move.
async function rummysTurns() {
  const game = state.game;
  if (!game || !game.seat || playing) return;
  const latest = game.positions[game.positions.length - 1].position;
  if (latest.to_move === game.seat) return;
  if (handOver()) return;  // rummy.hand_end said so when the turn was played
  let limit;
  try { limit = timeLimit(); } catch (error) { showError($("game-error"), error); return; }
  playing = latest;
  say("rummy plays " + latest.to_move + "'s turn…");
  let data;
  try {
    data = await api("/api/rummy-turn", {position: JSON.stringify(latest), time_limit: limit});
  } catch (error) {
    showError($("game-error"), error);
    return;
  } finally {
    playing = null;
  }
  if (state.game !== game || game.positions[game.positions.length - 1].position !== latest) return;  // undone, or another game
  for (const turn of data.turns) addTurn(turn.player, turn.turn, turn.position, turn.code, turn.ending);
  await showGamePosition();  // and the next seat of rummy's, if it is to move
  // the line above the table says what rummy played (showing the position said "Loaded the position")
  if (playing || state.game !== game) return;  // another of rummy's seats is playing, or another game is open
  const last = data.turns[data.turns.length - 1];
  say("rummy played " + data.turns.map((t) => t.player + ": " + unseen(t.turn)).join("; ") + ". " +
    (last && last.ending ? "The hand is over: " + last.ending.summary + "." : game.seat + " to move."));
}

export function wireVersus() {
  gameHooks.shown = rummysTurns;
  $("versus-button").addEventListener("click", openForm);
  $("versus-count").addEventListener("change", fillRules);
  $("versus-start").addEventListener("click", start);
}
