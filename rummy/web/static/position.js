// Loading a position (a shipped one chosen in the list of shiplist.js, pasted text, a file) and drawing
// what show says of it.
import {api} from "./api.js";
import {$, el, say, showError, shownIf} from "./dom.js";
import {setMovingButton} from "./mymove.js";
import {linkFailed, positionShown} from "./share.js";
import {state} from "./state.js";
import {drawMain} from "./table.js";

export async function loadShipped() {
  const id = $("load-select").value;
  if (!id) { showError($("load-error"), {error: "choose a position from the list first"}); return; }
  let entry;
  try {
    entry = await api("/api/positions/" + id.split("/").map(encodeURIComponent).join("/"));
  } catch (error) {
    failedLoad(error);
    return;
  }
  $("paste").value = entry.text;
  await showPosition(entry.text, id);
}

export function loadFile(event) {
  const file = event.target.files[0];
  if (!file) return;
  const reader = new FileReader();
  reader.onload = () => { $("paste").value = reader.result; showPosition(String(reader.result), null); };
  reader.onerror = () => failedLoad({error: "could not read " + file.name});
  reader.readAsText(file);
}

// Loads in flight: only the last one asked for is shown (a slow answer does not replace a newer one).
let loads = 0;

// What the panels held of the position before: gone with it, whether the next one loads or fails.
const NO_ANSWERS = {best: null, bestLimit: null, searched: null, frame: 0, move: null, moving: false};

export async function showPosition(text, id) {
  $("load-error").hidden = true;
  const mine = ++loads;
  let data;
  try {
    data = await api("/api/show", {position: text});
  } catch (error) {
    if (mine === loads) failedLoad(error, linkFailed(text));
    return;
  }
  if (mine !== loads) return;
  stopSearch();
  Object.assign(state, {text: text, id: id, view: data.view, shown: data}, NO_ANSWERS);
  // a turn refused on the position before (its breaches) says nothing of this one
  for (const panel of ["best-panel", "move-panel", "turn-error", "draw-picker"]) $(panel).hidden = true;
  // House's first turns: while the upcard lies face up the draw is open or pass (rules.md §5), one click each
  const upcard = data.phase === "draw" && Boolean(data.piles && data.piles.upcard);
  for (const button of ["draw-open-button", "draw-pass-button"]) $(button).hidden = !upcard;
  $("hints").replaceChildren();
  drawPosition();
  positionShown(data, text);
  drawWarnings(data.warnings || []);
  say("Loaded " + (id || "the position") + ": " + data.view.rules + ", " + data.view.to_move + " to move.");
}

// A Best move search of the position before: its request aborted, so the server stops its work.
function stopSearch() {
  if (state.searching) state.searching.abort();
}

// A position asked for could not be loaded: the one before goes too (its table, its answers), so
// nothing on the page answers a position other than the one the error is about.
function failedLoad(error, fromLink = false) {
  loads++;  // a load still on its way is not shown either
  stopSearch();
  Object.assign(state, {text: null, id: null, view: null, shown: null}, NO_ANSWERS);
  for (const panel of ["position", "best-panel", "move-panel", "hint-panel"]) $(panel).hidden = true;
  $("table").replaceChildren();
  $("hints").replaceChildren();
  $("load-select").value = "";  // nor does the list name it
  showError($("load-error"), error);
  // What to do, where the text came from a link: its code was cut or changed on the way.
  if (fromLink) $("load-error").append(el("p", {text: LINK_ADVICE}));
}

const LINK_ADVICE = "This came from the page's address (a shared link): copy the whole link again, up to its last " +
  "character, or ask for the position's code.";

// The position panel: the puzzle's task, the summary, whose turn, the buttons the phase allows.
function drawPosition() {
  const v = state.view;
  $("position").hidden = false;
  const puzzle = $("puzzle");
  puzzle.hidden = !v.puzzle;
  if (v.puzzle) drawStatement(puzzle, v.puzzle);
  $("summary").textContent = v.rules + ": " + v.summary + (v.facts.length ? " · " + v.facts.join(", ") : "");
  $("turn-line").textContent = v.to_move + " to move, " + v.phase + " phase";
  shownIf($("table-bag"), v.table_bag_words);  // "table arranged by rummy from a bag of N tiles"
  const drawing = v.phase === "draw";
  $("best-button").textContent = drawing ? "Draw advice" : "Best move";
  $("my-move-button").hidden = drawing;  // a turn as steps starts in the play phase
  setMovingButton();
  $("hint-button").hidden = !v.puzzle;
  $("hint-panel").hidden = !v.puzzle;
  drawMain();
}

// What rummy warns of in the position (legal, probably not meant): the lines the command line prints.
function drawWarnings(lines) {
  const box = $("position-warnings");
  box.replaceChildren(...lines.map((line) => el("li", {text: "warning: " + line})));
  box.hidden = !lines.length;
}

// A puzzle's statement, where a player reads the task: the task, its tier and kind, the themes it
// is tagged with (their titles; the idea behind a theme is hint level 1's), and the rule that
// decides it (rules_note), when it names one.
function drawStatement(box, puzzle) {
  const facts = [puzzle.tier, puzzle.kind ? "kind " + puzzle.kind : null,
    puzzle.target !== undefined && puzzle.target !== null ? "target " + puzzle.target : null].filter(Boolean);
  box.replaceChildren(el("p", {class: "task"},
    el("strong", {text: "Puzzle: " + capital(puzzle.task || "find the best turn") + "."}),
    el("span", {class: "facts", text: " " + facts.join(", ")})));
  const themes = puzzle.themes || [];
  if (themes.length) {
    box.append(el("p", {class: "themes", id: "puzzle-themes"}, el("span", {text: themes.length > 1 ? "Themes: " : "Theme: "}),
      ...themes.map((t) => el("span", {class: "theme", "data-theme": t.name, text: t.title}))));
  }
  if (puzzle.rules_note) box.append(el("p", {class: "rules-note", id: "puzzle-rules-note", text: "Rule: " + puzzle.rules_note}));
}

function capital(text) { return text.charAt(0).toUpperCase() + text.slice(1); }
