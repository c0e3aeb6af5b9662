// Best move and draw advice: ask /api/best, show the plan and the gain, and play the plan
// through step by step (the table drawn after each step, the cards it moved highlighted).
import {api} from "./api.js";
import {seatView} from "./game.js";
import {allCards, counts, inlineCardEl} from "./cards.js";
import {$, el, say, showError, shownIf} from "./dom.js";
import {state} from "./state.js";
import {drawTable} from "./table.js";
import {drawLonger, timeLimit} from "./timelimit.js";

// `seconds`: the time limit to ask for (Search longer's); else the time-limit control's.
export async function askBest(seconds) {
  const shown = seconds === undefined ? null : state.best;  // Search longer keeps the better of the two
  const panel = $("best-panel");
  panel.hidden = false;
  $("best-error").hidden = true;
  $("longer-row").hidden = true;
  for (const id of ["best-status", "best-gain", "best-verified", "best-lines"]) $(id).textContent = "";
  $("play-best-button").hidden = true;
  for (const id of ["best-steps", "draw-options"]) $(id).replaceChildren();
  $("viewer").hidden = true;
  let limit;
  try {
    limit = seconds === undefined ? timeLimit() : seconds;
  } catch (error) {
    showError($("best-error"), error);
    return;
  }
  $("best-status").textContent = "Thinking… (searching up to " + limit + " s)";
  const button = $("best-button");
  button.disabled = true;
  const asked = state.text;
  try {
    // In a game against rummy the user's best turn is searched on the user's own view (seatView).
    const best = await api("/api/best", {position: seatView() || asked, time_limit: limit});
    if (asked !== state.text) return;  // another position was loaded meanwhile
    // A longer search is not always a better one (CP-SAT's parallel search differs run to run):
    // a turn found before that scores more stays, with the longer search's answer said beside it.
    const worse = shown && best.status !== "optimal" && gainOf(shown) > gainOf(best);
    state.searched = limit;
    if (!worse) Object.assign(state, {best: best, bestLimit: limit});
    drawBest(worse ? best : null);
  } catch (error) {
    $("best-status").textContent = "";
    showError($("best-error"), error);
  } finally {
    button.disabled = false;
  }
}

const STATUS_WORDS = {
  optimal: "optimal: no turn scores more",
  feasible: "feasible: the time limit ran out before the search could prove it best; a good turn, perhaps not the best",
  "no-legal-turn": "no legal turn",
  unknown: "no turn found within the time limit",
};

// The status as the command line says it: a feasible answer with its bound (no turn scores more than it).
function statusWords(b) {
  const words = STATUS_WORDS[b.status] || b.status.replace(/[-_]/g, " ");
  return b.status === "feasible" && b.bound !== undefined && b.bound !== null
    ? words.replace(":", ", bound " + b.bound + " (no turn scores more):") : words;
}

function gainOf(answer) { return typeof answer.gain === "number" ? answer.gain : -Infinity; }

// `passed`: the answer of a longer search that found less than the one shown (null: none).
function drawBest(passed) {
  const b = state.best, drawing = state.view.phase === "draw";
  $("best-title").textContent = drawing ? "Draw advice" : "Best move";
  $("best-status").textContent = "Status: " + statusWords(b);
  drawLonger(b.status, state.searched, state.bestLimit, passed);
  if (b.gain !== undefined && b.gain !== null) {
    // the command line's own words: "= table points won 25 + hand penalty avoided 34"
    $("best-gain").textContent = (b.view.gain_name || "gain") + " " + b.gain + (b.view.breakdown ? " " + b.view.breakdown : "");
  }
  shownIf($("best-bag"), b.view.table_bag_words);  // the answer's table was laid out from a bag
  drawOptions(b);
  const steps = b.view.steps || [], pieces = b.view.step_pieces || [];
  $("best-steps").replaceChildren(...steps.map((words, i) =>
    el("li", {"data-step": i + 1, onclick: () => showFrame(i + 1)}, ...stepContent(words, pieces[i]))));
  $("play-best-button").hidden = !b.after;  // a turn to play (not a random draw alone, nor none found)
  if (b.verified === true) $("best-verified").textContent = "✔ verified by the checker";
  else if (b.verified === false) $("best-verified").textContent = "✘ the checker does not agree: " +
    (b.verify_breaches || []).map((x) => x.message).join("; ");
  $("best-lines").textContent = (b.view.lines || []).join("\n");
  $("viewer").hidden = !(steps.length || b.view.after);
  const slider = $("frame-slider");
  slider.max = String(steps.length);
  showFrame(0);
  $("best-panel").scrollIntoView({block: "start"});
  say((drawing ? "Draw advice: " : "Best move: ") + b.status.replace(/[-_]/g, " ") +
    (b.gain !== undefined && b.gain !== null ? ", gain " + b.gain : ""));
}

// A step's words with its cards drawn as the table draws them (suits, colours), each card named
// for a screen reader; the plain words where the answer gives no pieces.
function stepContent(words, pieces) {
  if (!Array.isArray(pieces) || !pieces.length) return [words];
  const deck = state.view.deck;
  return pieces.map((piece) => (Array.isArray(piece)
    ? el("span", {class: "step-cards"}, ...piece.map((card) => inlineCardEl(card, deck)))
    : piece));
}

// The draw phase: every way to draw, ranked by the best turn it leads to.
function drawOptions(b) {
  const list = $("draw-options");
  const options = b.options || [];
  list.hidden = !options.length;
  const words = b.view.options || [];
  list.replaceChildren(...options.map((option, i) => {
    const where = words[i] || option.from + (option.cards ? ": " + option.cards.join(" ") : "");
    const chosen = b.draw && b.draw.from === option.from && (b.draw.take || 0) === (option.take || 0);
    return el("li", {class: chosen ? "chosen" : null},
      el("span", {class: "value", text: String(Math.round(option.value * 100) / 100)}), " " + where + (chosen ? "  ← take this" : ""));
  }));
}

// Frame 0 is the table before the turn, frame k the table after step k; the last shows the
// table after the turn with every card marked by how it got there.
export function showFrame(k) {
  const b = state.best, steps = b.view.steps || [], frames = b.view.frames || [];
  k = Math.max(0, Math.min(k, steps.length));
  state.frame = k;
  $("frame-slider").value = String(k);
  $("prev-button").disabled = k === 0;
  $("next-button").disabled = k === steps.length;
  document.querySelectorAll("#best-steps li").forEach((li, i) => {
    li.classList.toggle("current", i + 1 === k);
    if (i + 1 === k) li.setAttribute("aria-current", "step"); else li.removeAttribute("aria-current");
  });
  const last = k === steps.length && b.view.after;
  $("legend").hidden = !last;
  if (last) {
    drawTable($("frame-table"), b.view.after, {marks: b.view.after.marks});
    $("frame-label").textContent = "After the turn (step " + k + " of " + steps.length + ")";
  } else if (k > 0 && frames[k - 1]) {
    const before = k > 1 ? frames[k - 2] : null;
    const frame = frameLayout(frames[k - 1]);
    drawTable($("frame-table"), frame, {touched: touchedBy(before ? before.plays : state.view.plays, frames[k - 1].plays),
      topTouched: !!frames[k - 1].discard});
    $("frame-label").textContent = "Step " + k + " of " + steps.length + ": " + steps[k - 1];
  } else if (k > 0) {  // no table for this step (the answer gave none): the words alone
    drawTable($("frame-table"), state.view, {});
    $("frame-label").textContent = "Step " + k + " of " + steps.length + ": " + steps[k - 1] + " (table before the turn)";
  } else {
    drawTable($("frame-table"), state.view, {});
    $("frame-label").textContent = "Before the turn" + (steps.length ? " (" + steps.length + " steps)" : "");
  }
}

// A frame of the plan drawn as the server gives it: each play with every card on it, those laid
// off included; the lay-offs the tables before and after the turn know are drawn as lay-offs
// again (with whose they are), any other card as it comes. Nothing more is claimed of a frame's
// plays (whether whole, their score): the frame does not say.
function frameLayout(frame) {
  // A draw from the discard pile took its top cards before the first step.
  const draw = state.best.draw;
  const pile = draw && draw.from === "discard" ? state.view.discard.slice(0, state.view.discard.length - (draw.take || 1))
    : state.view.discard.slice();
  const known = knownLayoffs([state.view, state.best.view.after]);
  return {...state.view,
    plays: frame.plays.map((p) => splitLayoffs(p, known.get(p.name) || [])),
    players: state.view.players.map((p) => (p.to_move && frame.hand ? moverWith(p, frame.hand) : p)),
    discard: frame.discard ? pile.concat([frame.discard]) : pile};
}

// Per play name, the lay-offs the given layouts show on it: [{by, cards}], each card once.
function knownLayoffs(layouts) {
  const known = new Map();
  for (const layout of layouts) {
    for (const play of (layout && layout.plays) || []) {
      for (const layoff of play.layoffs || []) {
        const list = known.get(play.name) || [];
        let entry = list.find((l) => l.by === layoff.by);
        if (!entry) { entry = {by: layoff.by, cards: []}; list.push(entry); }
        const have = counts(entry.cards);
        for (const card of layoff.cards) {
          if (have.get(card)) have.set(card, have.get(card) - 1); else entry.cards.push(card);
        }
        known.set(play.name, list);
      }
    }
  }
  return known;
}

// A frame's play: its cards less the lay-offs found among them, and those lay-offs.
function splitLayoffs(play, layoffs) {
  const cards = play.cards.slice(), found = [];
  for (const layoff of layoffs) {
    const taken = [];
    for (const card of layoff.cards) {
      const i = cards.lastIndexOf(card);
      if (i >= 0) { cards.splice(i, 1); taken.push(card); }
    }
    if (taken.length) found.push({by: layoff.by, cards: taken});
  }
  return {name: play.name, space: play.space, cards: cards, layoffs: found};
}

// The mover holding the frame's hand: hot and warm cards are those still held, the count is redone.
function moverWith(player, hand) {
  const held = counts(hand);
  const still = (cards) => cards.filter((card) => held.get(card));
  const facts = (player.facts || []).map((fact) => (/^\d+ in hand$/.test(fact) ? hand.length + " in hand" : fact));
  return {...player, hand: hand, hand_count: null, hot: still(player.hot || []), warm: still(player.warm || []), facts: facts};
}

// The cards each play gained from one table to the next (lay-offs included): what a step touched.
function touchedBy(beforePlays, afterPlays) {
  const had = new Map(beforePlays.map((p) => [p.name, counts(allCards(p))]));
  const touched = {};
  for (const play of afterPlays) {
    const left = new Map(had.get(play.name) || []);
    const gained = new Set();
    for (const card of allCards(play)) {
      if (left.get(card)) left.set(card, left.get(card) - 1); else gained.add(card);
    }
    touched[play.name] = gained;
  }
  return touched;
}
