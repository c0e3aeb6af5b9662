// The page of `rummy serve`: load a position, draw it, ask for the best move, build and check a
// turn, ask for hints. Everything it knows about a game comes from the API's `view` objects
// (view.game says whether the table is shared, whether the game discards...): no game names here.
//
// The page is ES modules the browser loads as they are (no build step): this one wires the
// buttons and the table to the others.
//   state.js     what the page holds (one shared object)
//   api.js       the API client          dom.js    elements and messages
//   cards.js     cards and their keys    table.js  drawing a table
//   position.js  loading a position      plan.js   best move / draw advice and the plan player
//   shiplist.js  the shipped list, its filters (by theme, tier…) kept in the address
//   mymove.js    My move: selection, taps, drags, steps
//   check.js     checking My move        hint.js   puzzle hints
//   timelimit.js the time-limit control and Search longer
//   share.js     the position's code, its link (/#p=CODE) and its TOML
//   editor.js    the position editor (editdraft.js its data, deckpicker.js the deck)
//   game.js      the game kept in the browser: Play this turn, Undo, game files
//   review.js    Review: each turn of the game played beside the best turn
//   versus.js    Play against rummy: rummy deals and plays the other seats
import {check} from "./check.js";
import {$, showError} from "./dom.js";
import {wireEditor} from "./editor.js";
import {hiddenDraw, playTurn, reopenGame, wireGame} from "./game.js";
import {askHint, nextHintLevel} from "./hint.js";
import {addSteps, keepSteps, onPointerDown, onPointerMove, onPointerUp, onTableClick, onTableKey,
  toggleMoving} from "./mymove.js";
import {askBest, showFrame, stopBest} from "./plan.js";
import {wireReview} from "./review.js";
import {loadFile, loadShipped, showPosition} from "./position.js";
import {wireShare} from "./share.js";
import {loadList, wireList} from "./shiplist.js";
import {state} from "./state.js";
import {drawMain} from "./table.js";
import {loadLimits, setTimeLimit} from "./timelimit.js";
import {wireVersus} from "./versus.js";

function wire() {
  $("load-button").addEventListener("click", loadShipped);
  $("load-select").addEventListener("change", () => { if ($("load-select").value) loadShipped(); });
  // The Find box and the filters narrow the list; Enter in the box opens the chosen match, Escape
  // empties it, the down arrow goes on to the list (shiplist.js).
  wireList(loadShipped);
  $("show-button").addEventListener("click", () => showPosition($("paste").value, null));
  $("paste").addEventListener("keydown", (e) => {  // Enter makes a new line; Ctrl+Enter shows it
    if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) { e.preventDefault(); showPosition($("paste").value, null); }
  });
  $("file-input").addEventListener("change", loadFile);
  $("best-button").addEventListener("click", () => askBest());
  $("stop-button").addEventListener("click", stopBest);
  $("longer-button").addEventListener("click", () => {
    const seconds = Number($("longer-button").dataset.seconds);
    if (!seconds) return;
    setTimeLimit(seconds);  // the control shows the limit the answer below was searched with
    askBest(seconds);
  });
  $("my-move-button").addEventListener("click", toggleMoving);
  $("hint-button").addEventListener("click", () => askHint(nextHintLevel()));
  document.querySelectorAll(".hint-level").forEach((b) =>
    b.addEventListener("click", () => askHint(Number(b.dataset.level))));
  $("prev-button").addEventListener("click", () => showFrame(state.frame - 1));
  $("next-button").addEventListener("click", () => showFrame(state.frame + 1));
  $("frame-slider").addEventListener("input", (e) => showFrame(Number(e.target.value)));
  $("undo-button").addEventListener("click", () => keepSteps((m) => m.steps.length - 1));
  $("reset-button").addEventListener("click", () => keepSteps(() => 0));
  $("check-button").addEventListener("click", check);
  $("check-show-table").addEventListener("click", () => $("table").scrollIntoView({block: "start"}));
  // Typed steps: those the server refuses go back to the box, to be mended.
  const typed = () => {
    const texts = $("steps-input").value.split(/[;\n]/);
    $("steps-input").value = "";
    addSteps(texts, (_, rest) => { $("steps-input").value = rest.map((t) => t.trim()).filter(Boolean).join("; "); });
  };
  $("steps-add-button").addEventListener("click", typed);
  $("steps-input").addEventListener("keydown", (e) => { if (e.key === "Enter") typed(); });
  const table = $("table");
  table.addEventListener("click", onTableClick);
  table.addEventListener("keydown", onTableKey);
  table.addEventListener("pointerdown", onPointerDown);
  document.addEventListener("pointermove", onPointerMove);
  document.addEventListener("pointerup", onPointerUp);
  document.addEventListener("pointercancel", onPointerUp);
  document.addEventListener("keydown", (e) => {
    if (e.key === "Escape" && state.move && state.move.selected.size) { state.move.selected.clear(); drawMain(); }
  });
  // Play this turn: best's turn as one text (its answer, as best --json writes it, where it has none), or
  // My move's steps.
  $("play-best-button").addEventListener("click", () => {
    if (!state.best) return;
    if (state.best.turn) { playTurn(state.best.turn, $("best-error")); return; }  // the turn as one text
    // a tile game's "draw" (nothing to play): its after-position is the seat's view, which a draw does
    // not reach (the pool a count), so the draw itself is played
    if (state.best.status === "draw") { playTurn(hiddenDraw(), $("best-error")); return; }
    const answer = {...state.best};
    for (const key of ["view", "warnings", "verified"]) delete answer[key];
    playTurn(JSON.stringify(answer), $("best-error"));
  });
  $("play-move-button").addEventListener("click", async () => {
    const m = state.move;
    if (!m) return;
    await m.queue;  // the steps still on their way count
    if (m !== state.move) return;
    if (!m.steps.length) { showError($("check-error"), {error: "no steps yet: move some cards first"}); return; }
    playTurn(m.steps.join("; "), $("check-error"));
  });
  wireEditor();
  wireGame();
  wireReview();
  wireVersus();
  loadList();
  loadLimits();
  wireShare((text) => showPosition(text, null));
  reopenGame();
}

// A module runs once the document is parsed, before DOMContentLoaded (as a deferred script did).
document.addEventListener("DOMContentLoaded", wire);
