// The time-limit control: how long Best move, Check and Hint let the solver search. Its bounds are
// the server's (GET /api/limits: the default a request gets, the most any request is granted), so
// the page never asks for more than it would get. "Search longer" doubles the limit, up to that most.
import {api} from "./api.js";
import {$} from "./dom.js";

const SMALLEST = 0.1;  // seconds; rummy serve --time-limit takes no less either
export const limits = {standard: 10, most: 30};  // until the server says otherwise

export async function loadLimits() {
  try {
    const data = await api("/api/limits");
    limits.standard = data.time_limit;
    limits.most = data.max_time_limit;
  } catch { /* an older server: the defaults above are its own */ }
  const input = $("time-limit");
  input.min = String(Math.min(SMALLEST, limits.most));
  input.max = String(limits.most);
  input.value = String(limits.standard);
  $("time-limit-most").textContent = "at most " + limits.most + " s";
}

// The seconds asked, from the control: a number within the bounds. Out of bounds it is set to the
// nearest bound (the control shows what is sent); no number at all throws an error object (api.js's shape).
export function timeLimit() {
  const input = $("time-limit");
  const seconds = Number(input.value);
  if (input.value.trim() === "" || !Number.isFinite(seconds)) {
    throw {error: "time limit: give a number of seconds, " + SMALLEST + " to " + limits.most, errors: []};
  }
  const kept = Math.min(limits.most, Math.max(Math.min(SMALLEST, limits.most), seconds));
  if (kept !== seconds) input.value = String(kept);
  return kept;
}

// The limit "Search longer" asks for after `seconds`: twice as long, at most the server's most (null: no longer).
export function longerLimit(seconds) {
  return seconds < limits.most ? Math.min(limits.most, Math.round(seconds * 2 * 10) / 10) : null;
}

// Search longer sets the control to the limit it used, so the next Best move or Check asks the same.
export function setTimeLimit(seconds) { $("time-limit").value = String(seconds); }

// Under an answer the time limit cut short (feasible, or no turn found at all): Search longer, with
// the limit it would ask for; at the server's most, the button is off and says why. `seconds`: the
// last search's limit; `found`: the shown answer's; `passed`: the last search's answer when it found
// less than the one shown (kept).
export function drawLonger(status, seconds, found, passed) {
  const short = status === "feasible" || status === "unknown";
  $("longer-row").hidden = !short;
  if (!short) return;
  const next = longerLimit(seconds);
  const button = $("longer-button");
  button.disabled = next === null;
  button.dataset.seconds = next === null ? "" : String(next);
  button.textContent = next === null ? "Search longer" : "Search longer (" + next + " s)";
  $("longer-note").textContent = "searched " + seconds + " s" +
    (next === null ? ", the most this server allows (rummy serve --time-limit)" : "") +
    (passed ? "; that search found " + (passed.status === "unknown" ? "no turn" : "gain " + passed.gain +
      " (bound " + passed.bound + ")") + ", less than this answer, found in " + found + " s, which stays" : "");
}
