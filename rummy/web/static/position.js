// Loading a position (the shipped list, pasted text, a file) and drawing what show says of it.
import {api} from "./api.js";
import {$, el, say, showError} from "./dom.js";
import {setMovingButton} from "./mymove.js";
import {state} from "./state.js";
import {drawMain} from "./table.js";

// The shipped examples and puzzles, grouped by collection, into the select box.
export async function loadList() {
  const select = $("load-select");
  try {
    const data = await api("/api/positions");
    select.replaceChildren(el("option", {value: "", text: "choose a position…"}));
    for (const collection of data.collections) {
      const group = el("optgroup", {label: collection.title});
      for (const p of collection.positions) {
        const facts = [p.rules, p.kind, p.tier, p.phase === "draw" ? "draw phase" : null].filter(Boolean);
        group.append(el("option", {value: p.id, text: p.name + "  (" + facts.join(", ") + ")"}));
      }
      select.append(group);
    }
  } catch (error) {
    select.replaceChildren(el("option", {value: "", text: "no list"}));
    showError($("load-error"), error);
  }
}

export async function loadShipped() {
  const id = $("load-select").value;
  if (!id) { showError($("load-error"), {error: "choose a position from the list first"}); return; }
  try {
    const entry = await api("/api/positions/" + id.split("/").map(encodeURIComponent).join("/"));
    $("paste").value = entry.text;
    await showPosition(entry.text, id);
  } catch (error) {
    showError($("load-error"), error);
  }
}

export function loadFile(event) {
  const file = event.target.files[0];
  if (!file) return;
  const reader = new FileReader();
  reader.onload = () => { $("paste").value = reader.result; showPosition(String(reader.result), null); };
  reader.onerror = () => showError($("load-error"), {error: "could not read " + file.name});
  reader.readAsText(file);
}

export async function showPosition(text, id) {
  $("load-error").hidden = true;
  let data;
  try {
    data = await api("/api/show", {position: text});
  } catch (error) {
    showError($("load-error"), error);
    return;
  }
  Object.assign(state, {text: text, id: id, view: data.view, best: null, frame: 0, move: null, moving: false});
  for (const panel of ["best-panel", "move-panel"]) $(panel).hidden = true;
  $("hints").replaceChildren();
  drawPosition();
  drawWarnings(data.warnings || []);
  say("Loaded " + (id || "the position") + ": " + data.view.rules + ", " + data.view.to_move + " to move.");
}

// The position panel: the puzzle's task, the summary, whose turn, the buttons the phase allows.
function drawPosition() {
  const v = state.view;
  $("position").hidden = false;
  const puzzle = $("puzzle");
  puzzle.hidden = !v.puzzle;
  if (v.puzzle) {
    const facts = [v.puzzle.tier, v.puzzle.kind ? "kind " + v.puzzle.kind : null,
      v.puzzle.target !== undefined && v.puzzle.target !== null ? "target " + v.puzzle.target : null].filter(Boolean);
    puzzle.replaceChildren(el("strong", {text: "Puzzle: " + capital(v.puzzle.task || "find the best turn") + "."}),
      el("span", {text: " " + facts.join(", ")}));
  }
  $("summary").textContent = v.rules + ": " + v.summary + (v.facts.length ? " · " + v.facts.join(", ") : "");
  $("turn-line").textContent = v.to_move + " to move, " + v.phase + " phase";
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

function capital(text) { return text.charAt(0).toUpperCase() + text.slice(1); }
