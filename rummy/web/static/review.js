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
  const key = before.code + "\n" + turn.turn;
  let answers = review.answers.get(key);
  if (!answers) {
    let limit;
    try { limit = timeLimit(); } catch (error) { showError($("review-error"), error); return; }
    // The best turn as the player could see it (the others' hands and the stock as counts), as rummy review judges.
    const text = JSON.stringify(before.position), seen = JSON.stringify(viewOf(before.position, turn.player));
    try {
      answers = await Promise.all([api("/api/check", {before: text, after: turn.turn}),
        api("/api/best", {position: seen, time_limit: limit})]);
    } catch (error) {
      if (review.at === k) { $("review-best").textContent = ""; showError($("review-error"), error); }
      return;
    }
    review.answers.set(key, answers);
  }
  if (review.at !== k || state.game.positions[k] !== before) return;  // stepped on, or the game changed
  drawTurn(turn, answers[0], answers[1]);
}

function drawTurn(turn, checked, best) {
  const played = checked.reading && typeof checked.reading.gain === "number" ? checked.reading.gain : null;
  const bestGain = typeof best.gain === "number" ? best.gain : null;
  const proven = best.status === "optimal";
  const short = played !== null && bestGain !== null && proven ? Math.max(0, bestGain - played) : null;
  $("review-played").textContent = turn.player + " played: " + turn.turn +
    (played !== null ? " (gain " + played + (short !== null ? mark(short) : "") + ")" : "");
  const gain = bestGain === null ? best.status.replace(/[-_]/g, " ")
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
}
