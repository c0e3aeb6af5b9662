// Check: the turn built in My move judged by the server (/api/check with the best turn), its
// breaches listed and marked on the end state.
import {api} from "./api.js";
import {$, el, say, showError} from "./dom.js";
import {state} from "./state.js";
import {drawTable} from "./table.js";

export async function check() {
  const m = state.move;
  $("check-error").hidden = true;
  $("check-result").hidden = true;
  if (m) await m.queue;  // the steps still on their way count
  if (!m || !m.steps.length) { showError($("check-error"), {error: "no steps yet: move some cards first"}); return; }
  const asked = m.steps.join("; ");  // steps change after this: the answer is about these
  const button = $("check-button");
  button.disabled = true;
  $("check-verdict").textContent = "Checking…";
  try {
    const data = await api("/api/check", {before: state.text, after: asked, best: true});
    if (m === state.move && asked === m.steps.join("; ")) drawCheck(data);  // else the position or the turn changed
  } catch (error) {
    if (m === state.move && asked === m.steps.join("; ")) showError($("check-error"), error);
  } finally {
    button.disabled = false;
  }
}

function drawCheck(data) {
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
  if (after) drawTable($("check-table"), after, {flagged: flagged(data, after)});
  else $("check-table").replaceChildren();
  say(verdict.textContent + ". " + $("check-best").textContent);
}

function bestWords(data) {
  const parts = [];
  if (data.puzzle) parts.push(data.puzzle.solved ? "Puzzle solved." : "Puzzle not solved yet (target " + data.puzzle.target + ").");
  const best = data.best;
  if (best && data.legal) {
    const short = best.short_of_best;
    parts.push(short === undefined || short === null ? "The best turn scores " + best.gain + "."
      : short > 0 ? short + " short of the best (" + best.gain + (best.status === "optimal" ? "" : ", " + best.status) + ")."
        : "As good as the best turn (" + best.gain + ").");
  } else if (best) {
    parts.push("The best legal turn scores " + best.gain + ".");
  }
  return parts.join(" ");
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
