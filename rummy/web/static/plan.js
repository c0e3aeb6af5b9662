// Best move and draw advice: ask /api/best, show the plan and the gain, and play the plan
// through step by step (the table drawn after each step, the cards it moved highlighted).
import {apiLines} from "./api.js";
import {seatView} from "./game.js";
import {allCards, counts, inlineCardEl} from "./cards.js";
import {$, el, say, showError, shownIf} from "./dom.js";
import {state} from "./state.js";
import {drawTable} from "./table.js";
import {drawLonger, timeLimit} from "./timelimit.js";

// `seconds`: the time limit to ask for (Search longer's); else the time-limit control's.
// The answer comes as lines (the API's "progress": true): each better turn found is drawn as it
// arrives, with the bound, until the last line, the answer; Stop ends the search and keeps the best
// turn so far. A server that answers in one piece (plain JSON) is read as before.
export async function askBest(seconds) {
  const shown = seconds === undefined ? null : state.best;  // Search longer keeps the better of the two
  // the button pressed is turned off (or hidden) while the search runs: the keyboard's focus goes to Stop
  const pressed = [$("best-button"), $("longer-button")].includes(document.activeElement);
  const panel = $("best-panel");
  panel.hidden = false;
  $("best-error").hidden = true;
  $("longer-row").hidden = true;
  $("draw-valued").hidden = true;
  let limit;
  try {
    limit = seconds === undefined ? timeLimit() : seconds;
  } catch (error) {
    showError($("best-error"), error);
    return;
  }
  if (!shown) clearAnswer();
  $("best-status").textContent = "Thinking… (searching up to " + limit + " s)";
  const asked = state.text;
  // told: the last progress line; drawn: a turn of this search's is drawn
  const search = {controller: new AbortController(), asked: asked, shown: shown, told: null, drawn: false};
  searching(search.controller);
  if (pressed) $("stop-button").focus();
  try {
    // In a game against rummy the user's best turn is searched on the user's own view (seatView).
    const best = await bestAnswer(search, {position: seatView() || asked, time_limit: limit});
    if (asked !== state.text) return;  // another position was loaded meanwhile
    // A longer search is not always a better one (CP-SAT's parallel search differs run to run):
    // a turn found before that scores more stays, with the longer search's answer said beside it.
    const worse = shown && best.status !== "optimal" && gainOf(shown) > gainOf(best);
    state.searched = limit;
    if (!worse) Object.assign(state, {best: best, bestLimit: limit});
    $("draw-valued").hidden = true;
    drawBest(worse ? best : null, !search.drawn);
  } catch (error) {
    if (asked !== state.text) return;
    if (error.aborted) { drawStopped(search, "stopped"); return; }
    showError($("best-error"), error);
    if (search.told) drawStopped(search, "stopped by the error above");
    else $("best-status").textContent = "";
  } finally {
    searching(null);
  }
}

// /api/best's answer, its progress lines drawn as they come. A server without the lines refuses the
// unknown "progress" (a 400 naming it alone): asked again without it, the answer comes in one piece.
async function bestAnswer(search, body) {
  const signal = search.controller.signal;
  try {
    return await apiLines("/api/best", {...body, progress: true}, (line) => drawProgress(search, line.progress), signal);
  } catch (error) {
    const refused = Array.isArray(error.errors) && error.errors.length === 1 && /^progress: /.test(error.errors[0]);
    if (!refused) throw error;
    return apiLines("/api/best", body, () => {}, signal);
  }
}

// Stop: the search running ends (its request aborted: the server stops the work); the best turn so
// far stays. Nothing running: nothing to do.
export function stopBest() {
  if (state.searching) state.searching.abort();
}

// The Best move and Stop buttons while a search runs (`controller`) and after (null). Stop is off
// when nothing runs; where it had the keyboard's focus, the focus goes on to what the answer offers.
function searching(controller) {
  state.searching = controller;
  const stop = $("stop-button"), running = controller !== null;
  const focused = document.activeElement;
  $("best-button").disabled = running;
  stop.disabled = !running;
  if (!running && focused === stop) {
    const play = $("play-best-button");
    (play.hidden ? $("best-button") : play).focus({preventScroll: true});
  }
}

function clearAnswer() {
  for (const id of ["best-status", "best-gain", "best-verified", "best-lines"]) $(id).textContent = "";
  $("play-best-button").hidden = true;
  for (const id of ["best-steps", "draw-options"]) $(id).replaceChildren();
  $("draw-options").hidden = true;
  $("best-bag").hidden = true;
  $("viewer").hidden = true;
}

// A progress line: the best turn so far (its answer as /api/best gives it, status "feasible"), drawn
// as an answer is, under "best so far G, at most B, T s"; in the draw phase the options valued so far.
// Search longer's search draws its turns only where they beat the one shown before it.
function drawProgress(search, progress) {
  if (search.asked !== state.text) { search.controller.abort(); return; }  // not this position's any more
  search.told = progress;
  const answer = answerSoFar(progress);
  if (!search.shown || gainOf(answer) > gainOf(state.best)) {
    state.best = answer;
    drawAnswer(!search.drawn);
    if (!search.drawn) $("best-panel").scrollIntoView({block: "start"});  // once: the user may scroll away
    search.drawn = true;
  }
  $("best-status").textContent = soFarWords(search);
  const valued = $("draw-valued");
  valued.hidden = !progress.total;
  valued.textContent = progress.total ? progress.valued + " of " + progress.total + " valued" : "";
}

// The turn a progress line gives, as an answer to draw: its own answer where it has one; in the
// draw phase before any draw's turn is certain, the options valued so far alone.
function answerSoFar(progress) {
  if (progress.answer) return progress.answer;
  return {status: "feasible", gain: progress.gain, bound: progress.bound, options: progress.options || [],
    turn: null, after: null, view: {}};
}

// The lowest bound known: the search's, and the one of the answer shown before it (Search longer);
// each is proven, so the lower holds. Null: none given.
function boundSoFar(search) {
  const bounds = [search.told && search.told.bound, search.shown && search.shown.bound]
    .filter((b) => typeof b === "number");
  return bounds.length ? Math.min(...bounds) : null;
}

// "best so far 142, at most 160, 1.2 s": the best gain (this search's, or the one shown before it),
// the lowest bound known, and when this search found its best.
function soFarWords(search) {
  const bound = boundSoFar(search);
  return "best so far " + number(gainOf(state.best)) + (bound === null ? "" : ", at most " + number(bound)) +
    ", " + secondsWords(search.told.seconds);
}

// Stopped (by the user, or by an error after turns were found): the best turn so far stays, said
// feasible with its bound ("stopped: feasible, at most 160"). A Search longer stopped before it found
// anything leaves the answer before it as it was.
function drawStopped(search, why) {
  if (!search.told && search.shown) {
    drawBest(null, false);
    $("best-status").textContent = why + " before the longer search found a turn; " + $("best-status").textContent;
    return;
  }
  if (!search.told) {
    clearAnswer();
    $("best-status").textContent = why + ": no turn found yet";
    say((state.view.phase === "draw" ? "Draw advice " : "Best move ") + why + ": no turn found yet");
    return;
  }
  const bound = boundSoFar(search), words = why + ": feasible" + (bound === null ? "" : ", at most " + number(bound));
  state.searched = null;  // no limit ran out: Search longer is not offered, Best move asks again
  $("best-status").textContent = words + " (the best found in " + secondsWords(search.told.seconds) +
    ", gain " + number(gainOf(state.best)) + "; perhaps not the best)";
  say((state.view.phase === "draw" ? "Draw advice " : "Best move ") + words + ", gain " + number(gainOf(state.best)));
}

function number(x) { return String(Math.round(x * 100) / 100); }

// "1.2 s", kept on one line (a no-break space: a narrow screen does not leave the "s" alone on the next).
function secondsWords(seconds) { return Number(seconds).toFixed(1) + "\u00a0s"; }

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
// `scroll`: bring the panel into view (not where the search drew its turns there already).
function drawBest(passed, scroll = true) {
  const b = state.best, drawing = state.view.phase === "draw";
  drawAnswer(true);
  $("best-status").textContent = "Status: " + statusWords(b);
  drawLonger(b.status, state.searched, state.bestLimit, passed);
  if (scroll) $("best-panel").scrollIntoView({block: "start"});
  say((drawing ? "Draw advice: " : "Best move: ") + b.status.replace(/[-_]/g, " ") +
    (b.gain !== undefined && b.gain !== null ? ", gain " + b.gain : ""));
}

// The answer held (state.best): its gain, options, steps, check and the step player. `fresh`: the
// player starts before the turn; else (a better turn while the search runs) it stays on the step
// it shows, where the new turn has that step.
function drawAnswer(fresh) {
  const b = state.best, drawing = state.view.phase === "draw";
  $("best-title").textContent = drawing ? "Draw advice" : "Best move";
  const gain = b.gain !== undefined && b.gain !== null;
  // the command line's own words: "= table points won 25 + hand penalty avoided 34"
  $("best-gain").textContent = gain ? (b.view.gain_name || "gain") + " " + b.gain +
    (b.view.breakdown ? " " + b.view.breakdown : "") : "";
  shownIf($("best-bag"), b.view.table_bag_words);  // the answer's table was laid out from a bag
  drawOptions(b);
  const steps = b.view.steps || [], pieces = b.view.step_pieces || [];
  $("best-steps").replaceChildren(...steps.map((words, i) =>
    el("li", {"data-step": i + 1, onclick: () => showFrame(i + 1)}, ...stepContent(words, pieces[i]))));
  $("play-best-button").hidden = !b.after;  // a turn to play (not a random draw alone, nor none found)
  if (b.verified === true) $("best-verified").textContent = "✔ verified by the checker";
  else if (b.verified === false) $("best-verified").textContent = "✘ the checker does not agree: " +
    (b.verify_breaches || []).map((x) => x.message).join("; ");
  else $("best-verified").textContent = "";
  $("best-lines").textContent = (b.view.lines || []).join("\n");
  $("viewer").hidden = !(steps.length || b.view.after);
  $("frame-slider").max = String(steps.length);
  showFrame(fresh ? 0 : state.frame);
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
    const where = words[i] || optionWords(option);
    const chosen = b.draw && b.draw.from === option.from && (b.draw.take || 0) === (option.take || 0);
    return el("li", {class: chosen ? "chosen" : null},
      // an option the search could not value in time has no value (formats.md): said so, not as a number
      el("span", {class: "value", text: typeof option.value === "number" ? number(option.value) : "–"}),
      " " + where + (typeof option.value === "number" ? "" : " (not valued in time)") + (chosen ? "  ← take this" : ""));
  }));
}

// An option in the command line's words (rummy.words.option_words), for a progress line that has
// the options valued so far but no answer's view to word them yet.
function optionWords(option) {
  const cards = (option.cards || []).join(" ");
  switch (option.from) {
    case "stock": return cards ? "the stock (its top card is known: " + cards + ")" : "the stock (expected over the unseen cards)";
    case "discard": return "the discard pile, " + (option.take > 1 ? "the top " + option.take + " cards" : "its top card") + ": " + cards;
    case "pile": return "the whole discard pile (" + cards + "), its top card melded at once";
    case "open": return "open the stock, taking its face-up card " + cards;
    case "pass": return "pass (the turn ends, gain 0)";
    case "demand": return "demand " + option.card + " from " + option.player + (typeof option.probability === "number"
      ? " (succeeds with " + Math.round(option.probability * 100) + "%)" : "");
    default: return option.from + (cards ? ": " + cards : "");
  }
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
    $("frame-label").textContent = "Before the turn" + (steps.length ? " (" + steps.length + (steps.length === 1 ? " step)" : " steps)") : "");
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
