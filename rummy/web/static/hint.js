// Hints for puzzles, one level at a time (as `rummy hint --level N`).
import {api} from "./api.js";
import {$, el, say} from "./dom.js";
import {state} from "./state.js";
import {timeLimit} from "./timelimit.js";

// The level after those shown (the Hint button asks for one more each time).
export function nextHintLevel() { return Math.min(4, $("hints").children.length + 1); }

export async function askHint(level) {
  $("hint-panel").hidden = false;
  const body = state.id ? {id: state.id, level: level} : {puzzle: state.text, level: level};
  const list = $("hints");
  list.replaceChildren(el("li", {text: "Thinking…"}));
  try {
    const data = await api("/api/hint", {...body, time_limit: timeLimit()});
    list.replaceChildren(...data.hints.map((h) =>
      el("li", {"data-level": h.level}, el("strong", {text: "Level " + h.level + ": "}), h.text)));
    if (data.none) list.append(el("li", {text: data.none}));
    say("Hint level " + level + ": " + data.hints.map((h) => h.text).join(" "));
  } catch (error) {
    list.replaceChildren(el("li", {class: "error", text: error.error || String(error)}));
    say(error.error || String(error));
  }
}
