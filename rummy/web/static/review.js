// Review (issue 27): step through the open game's hand, turn by turn, the turn played beside the
// best turn from the same position, as the player saw it. The played turn is judged by /api/check (its gain, the table
// after it), the best by /api/best on the position before the turn (its steps, its gain, the
// table after it); answers are kept while the page is open, so stepping back asks nothing again.
import {api} from "./api.js";
import {$, el, say, showError} from "./dom.js";
import {viewOf} from "./game.js";
import {state} from "./state.js";
import {drawTable} from "./table.js";
import {timeLimit} from "./timelimit.js";

const review = {at: 0, answers: new Map()};  // answers: "code\nturn" -> [check's, best's]

function turns() {
  const hands = state.game ? state.game.record.hands : [];
  return hands.length ? hands[hands.length - 1].turns : [];
}

export function openReview() {
  $("review-error").hidden = true;
  if (!turns().length) { showError($("game-error"), {error: "no turn to review yet: play one first"}); return; }
  $("review-panel").hidden = false;
  showTurn(0);
  $("review-panel").scrollIntoView({block: "start"});
}

// The loss words, as chess tools mark moves: ?! a few points given away, ? ten or more, ?? twenty-five or more.
function mark(short) {
  return short >= 25 ? " ??" : short >= 10 ? " ?" : short > 0 ? " ?!" : "";
}

// check's answer on the turn played and best's on the position before it, as the player saw it (the
// others' hands and the stock as counts, as rummy review judges); kept while the page is open.
async function answersFor(turn, before) {
  const key = before.code + "\n" + turn.turn;
  if (!review.answers.has(key)) {
    const limit = timeLimit();  // throws the error object of a bad time limit
    const text = JSON.stringify(before.position), seen = JSON.stringify(viewOf(before.position, turn.player));
    review.answers.set(key, await Promise.all([api("/api/check", {before: text, after: turn.turn}),
      api("/api/best", {position: seen, time_limit: limit})]));
  }
  return review.answers.get(key);
}

// The turn played against the best: the points lost where the best is proven (null: not known).
function judged(checked, best) {
  const played = checked.reading && typeof checked.reading.gain === "number" ? checked.reading.gain : null;
  const bestGain = typeof best.gain === "number" ? best.gain : null;
  const short = played !== null && bestGain !== null && best.status === "optimal" ? Math.max(0, bestGain - played) : null;
  return {played: played, bestGain: bestGain, short: short};
}

// Every turn of the hand reviewed, then a line a player: turns reviewed, points lost, turns played best.
async function reviewAll() {
  const list = turns(), game = state.game, rows = new Map();
  const button = $("review-all");
  button.disabled = true;
  try {
    for (const [k, turn] of list.entries()) {
      $("review-summary").replaceChildren(el("li", {text: "Reviewing turn " + (k + 1) + " of " + list.length + "…"}));
      let answers;
      try {
        answers = await answersFor(turn, game.positions[k]);
      } catch (error) {
        showError($("review-error"), error);
        continue;  // a turn that cannot be reviewed (a hidden mover) is left out
      }
      if (state.game !== game) return;
      const {short} = judged(answers[0], answers[1]);
      const row = rows.get(turn.player) || {turns: 0, known: 0, lost: 0, best: 0};
      row.turns++;
      if (short !== null) { row.known++; row.lost += short; if (short === 0) row.best++; }
      rows.set(turn.player, row);
    }
    $("review-summary").replaceChildren(...[...rows].map(([player, r]) => el("li", {text: player + ": " + r.turns +
      " turns reviewed; " + (r.known ? r.lost + " points lost (" + (r.lost / r.known).toFixed(1) + " a turn), " +
      r.best + " of " + r.known + " played best" : "no best proven") +
      (r.known < r.turns ? " (" + (r.turns - r.known) + " where the best was not proven in time)" : "")})));
  } finally {
    button.disabled = false;
  }
}

async function showTurn(k) {
  const list = turns();
  if (!list.length) return;
  k = Math.max(0, Math.min(list.length - 1, k));
  review.at = k;
  const turn = list[k], before = state.game.positions[k];
  $("review-label").textContent = "Turn " + (k + 1) + " of " + list.length + ": " + turn.player;
  $("review-prev").disabled = k === 0;
  $("review-next").disabled = k === list.length - 1;
  $("review-error").hidden = true;
  $("review-played").textContent = turn.player + " played: " + turn.turn;
  $("review-best").textContent = "Searching for the best turn…";
  for (const id of ["review-best-steps", "review-played-table", "review-best-table"]) $(id).replaceChildren();
  let answers;
  try {
    answers = await answersFor(turn, before);
  } catch (error) {
    if (review.at === k) { $("review-best").textContent = ""; showError($("review-error"), error); }
    return;
  }
  if (review.at !== k || state.game.positions[k] !== before) return;  // stepped on, or the game changed
  drawTurn(turn, answers[0], answers[1]);
}

function drawTurn(turn, checked, best) {
  const {played, bestGain, short} = judged(checked, best);
  const proven = best.status === "optimal";
  $("review-played").textContent = turn.player + " played: " + turn.turn +
    (played !== null ? " (gain " + played + (short !== null ? mark(short) : "") + ")" : "");
  // a tile game's "draw" is best's answer that nothing is to be played, not a search cut short
  const gain = best.status === "draw" ? "draw (nothing to play found)"
    : bestGain === null ? best.status.replace(/[-_]/g, " ")
      : "gain " + bestGain + (proven ? "" : " at least (the time limit ran out)");
  $("review-best").textContent = "Best: " + gain + (short === null ? "" : short > 0 ? ", " + short + " more than played" : ": the turn played is as good");
  const steps = best.view.steps && best.view.steps.length ? best.view.steps : best.view.options || [];
  $("review-best-steps").replaceChildren(...steps.map((words) => el("li", {text: words})));
  if (checked.view.after) drawTable($("review-played-table"), checked.view.after, {});
  if (best.view.after) drawTable($("review-best-table"), best.view.after, {marks: best.view.after.marks});
  say("Turn " + (review.at + 1) + ": " + $("review-played").textContent + ". " + $("review-best").textContent + ".");
}

export function wireReview() {
  $("review-button").addEventListener("click", openReview);
  $("review-prev").addEventListener("click", () => showTurn(review.at - 1));
  $("review-next").addEventListener("click", () => showTurn(review.at + 1));
  $("review-close").addEventListener("click", () => { $("review-panel").hidden = true; });
  $("review-all").addEventListener("click", reviewAll);
}
