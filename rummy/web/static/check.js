// Check: the turn built in My move judged by the server (/api/check with the best turn), its
// breaches listed and marked on the end state. The end state is the My move table itself (the
// table after the steps, which the server draws as check reads them): the marks go there, and the
// result draws no copy of it (on a phone the page showed the same table twice, three times with
// Best move's).
import {api} from "./api.js";
import {$, el, say, showError} from "./dom.js";
import {state} from "./state.js";
import {drawMain} from "./table.js";
import {timeLimit} from "./timelimit.js";

export async function check() {
  const m = state.move;
  $("check-error").hidden = true;
  $("check-result").hidden = true;
  if (m && m.flagged) { m.flagged = null; drawMain(); }
  if (m) await m.queue;  // the steps still on their way count
  if (!m || !m.steps.length) { showError($("check-error"), {error: "no steps yet: move some cards first"}); return; }
  let limit;
  try { limit = timeLimit(); } catch (error) { showError($("check-error"), error); return; }
  const asked = m.steps.join("; ");  // steps change after this: the answer is about these
  const button = $("check-button");
  button.disabled = true;
  $("check-verdict").textContent = "Checking… (the best turn: searching up to " + limit + " s)";
  try {
    const data = await api("/api/check", {before: state.text, after: asked, best: true, time_limit: limit});
    if (m === state.move && asked === m.steps.join("; ")) drawCheck(m, data);  // else the position or the turn changed
  } catch (error) {
    if (m === state.move && asked === m.steps.join("; ")) showError($("check-error"), error);
  } finally {
    button.disabled = false;
  }
}

function drawCheck(m, data) {
  $("check-result").hidden = false;
  const verdict = $("check-verdict");
  verdict.className = "verdict " + (data.legal ? "legal" : "illegal");
  const gain = data.reading && data.reading.gain !== undefined ? ", gain " + data.reading.gain : "";
  verdict.textContent = data.legal ? "✔ legal" + gain
    : "✘ illegal: " + data.breaches.length + (data.breaches.length === 1 ? " breach" : " breaches");
  // view.breaches word the plays as the drawn table names them (data.breaches: as the end state does)
  $("breaches").replaceChildren(...data.view.breaches.map((b) =>
    el("li", {"data-code": b.code}, el("code", {text: b.code}), " " + b.message)));
  $("check-best").textContent = bestWords(data);
  const after = data.view && data.view.after;
  m.flagged = after ? flagged(data, after) : null;
  $("check-marked").hidden = !(m.flagged && Object.keys(m.flagged).length);
  drawMain();
  say(verdict.textContent + ". " + $("check-best").textContent);
}

function bestWords(data) {
  const parts = [];
  if (data.puzzle) parts.push(data.puzzle.solved ? "Puzzle solved." : "Puzzle not solved yet (target " + data.puzzle.target + ").");
  const best = data.best;
  if (best && best.status !== "optimal" && best.status !== "feasible") {
    parts.push("The best turn: " + best.status.replace(/[-_]/g, " ") + (best.status === "unknown" ? " (none found within the time limit)." : "."));
  } else if (best && data.legal) {
    // short_of_best is null unless the best is proven: a feasible best is only "at least"
    const short = best.short_of_best;
    parts.push(short === undefined || short === null ? "The best turn scores " + bestScore(best) + "."
      : short > 0 ? short + " short of the best (" + best.gain + ")."
        : "As good as the best turn (" + best.gain + ").");
  } else if (best) {
    parts.push("The best legal turn scores " + bestScore(best) + ".");
  }
  return parts.join(" ");
}

// The best turn's score as the command line words it: a feasible one is a range (a longer time limit may find more).
function bestScore(best) {
  return best.status === "optimal" ? String(best.gain)
    : "at least " + best.gain + " (at most " + best.bound + ": the time limit ran out)";
}

// The breaches' cards on the drawn end state: a breach names plays as the end state names them
// (data.names renames them as drawn), or a space; cards without a play are looked for everywhere.
function flagged(data, after) {
  const names = data.names || {};
  const marks = {};
  const mark = (play, card) => { (marks[play] = marks[play] || new Set()).add(card); };
  for (const b of data.breaches) {
    const plays = (b.plays || []).flatMap((name) => {
      const shown = names[name] || name;
      const found = after.plays.filter((p) => p.name === shown);
      return found.length ? found : after.plays.filter((p) => p.space === name);
    });
    const within = plays.length ? plays : after.plays;
    for (const play of within) {
      const cards = (b.cards || []).filter((card) => play.cards.includes(card) ||
        (play.layoffs || []).some((l) => l.cards.includes(card)));
      cards.forEach((card) => mark(play.name, card));
      if (!(b.cards || []).length && plays.length) mark(play.name, "*");
    }
    // A breach naming no play is about the mover's hand (a hot card kept, say): mark it there too.
    if (!plays.length) (b.cards || []).forEach((card) => mark("hand", card));
  }
  return marks;
}
