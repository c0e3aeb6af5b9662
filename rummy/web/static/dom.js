// Small helpers for the page's elements: built from parts (never from HTML text), and the lines
// that tell the user what happened.

export const $ = (id) => document.getElementById(id);

// An element: attrs sets its class, text, event listeners (on...) and attributes; children are
// elements or strings (text nodes).
export function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "class") node.className = value;
    else if (key === "text") node.textContent = value;
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value === true ? "" : value);
  }
  for (const child of children) {
    if (child !== null && child !== undefined) node.append(child);  // strings become text nodes
  }
  return node;
}

export function say(text) { $("result").textContent = text; }

export function showError(box, error) {
  box.replaceChildren(el("strong", {text: error.error || String(error)}));
  const more = (error.errors || []).slice(1);
  if (more.length) box.append(el("ul", {}, ...more.map((line) => el("li", {text: line}))));
  box.hidden = false;
  say(error.error || String(error));
}

// A line that says `words` when there are any, and is hidden when there are none.
export function shownIf(node, words) {
  node.textContent = words || "";
  node.hidden = !words;
}

// A select's options ([value, text] pairs), keeping `value` chosen where it is still offered.
export function fillSelect(select, options, value) {
  select.replaceChildren(...options.map(([v, t]) => el("option", {value: v, text: t})));
  if (options.some(([v]) => v === value)) select.value = value;
}
