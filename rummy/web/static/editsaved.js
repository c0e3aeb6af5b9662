// The position editor's named positions, kept in this browser (localStorage): saved as the
// position data the editor writes, loaded back into the editor as a draft.
import {$, el, fillSelect, say} from "./dom.js";
import {draftFromData} from "./editdraft.js";

const STORE = "rummy-editor-positions";  // localStorage: {name: position data}

// The row of controls. `editor`: current() the draft written (draftToData), known(preset) whether
// the server has those rules, open(draft) starts the editor on a draft.
export function savedControls(editor) {
  return el("div", {class: "row ed-saved"},
    el("label", {for: "ed-save-name", text: "Name"}),
    el("input", {id: "ed-save-name", type: "text", maxlength: "60", autocomplete: "off"}),
    el("button", {type: "button", id: "ed-save", text: "Save in this browser", onclick: () => saveDraft(editor)}),
    el("label", {for: "ed-saved", class: "sr-only", text: "Saved positions"}),
    el("select", {id: "ed-saved"}),
    el("button", {type: "button", id: "ed-load-saved", text: "Load", onclick: () => loadSaved(editor)}),
    el("button", {type: "button", id: "ed-delete-saved", text: "Delete", onclick: deleteSaved}));
}

function stored() {
  try { return JSON.parse(localStorage.getItem(STORE) || "{}") || {}; } catch { return {}; }
}

export function refreshSaved() {
  const names = Object.keys(stored()).sort();
  fillSelect($("ed-saved"), names.length ? names.map((n) => [n, n]) : [["", "none saved"]], $("ed-saved").value);
}

function saveDraft(editor) {
  const name = $("ed-save-name").value.trim();
  if (!name) { say("Give the position a name first."); return; }
  const all = stored();
  all[name] = editor.current();
  try { localStorage.setItem(STORE, JSON.stringify(all)); } catch (error) { say("Not saved: " + error.message); return; }
  refreshSaved();
  $("ed-saved").value = name;
  say("Saved " + name + " in this browser.");
}

function loadSaved(editor) {
  const data = stored()[$("ed-saved").value];
  if (!data) return;
  const draft = draftFromData(data);
  if (!editor.known(draft.preset)) { say("Unknown rules " + draft.preset); return; }
  editor.open(draft);
}

function deleteSaved() {
  const all = stored();
  delete all[$("ed-saved").value];
  localStorage.setItem(STORE, JSON.stringify(all));
  refreshSaved();
}
