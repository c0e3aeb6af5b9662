// Keeping and sharing the position shown: its code, a link that opens the page on it, its TOML.
//
// A link is `/#p=CODE` (docs/formats.md "Position codes"): the code lives in the address's
// fragment, which the browser never sends to the server; the page posts it to /api/show as the
// position's text, as a pasted code. The address holds `#p=CODE` exactly while that position is
// the one shown: opened from a link (or a link pasted into the address bar later, "hashchange"),
// or after Copy link, which puts it there (history.replaceState: no new history entry). Loading
// any other position takes the fragment away, so a reload or a bookmark never opens a position
// that is not the one on the screen.
import {$} from "./dom.js";

const LINK = "#p=";
let shown = null;  // /api/show's answer for the position on the screen: its code and its TOML
let linked = null; // the code the address's fragment asked for, until its position is shown

// The code in the address (`#p=CODE`), or null.
function codeInAddress() {
  if (!location.hash.startsWith(LINK)) return null;
  const raw = location.hash.slice(LINK.length);
  try { return decodeURIComponent(raw).trim(); } catch { return raw.trim(); }
}

// Wire the buttons, and open the address's position now and whenever the fragment changes.
// `open(text)` loads a position's text as a paste does (position.js's showPosition).
export function wireShare(open) {
  $("copy-code-button").addEventListener("click", () => offer(shown && shown.code, "code"));
  $("copy-link-button").addEventListener("click", () => {
    if (!shown) return;
    history.replaceState(null, "", location.pathname + location.search + LINK + shown.code);
    offer(location.origin + "/" + LINK + shown.code, "link");
  });
  $("download-toml-button").addEventListener("click", download);
  const fromAddress = () => {
    const code = codeInAddress();
    if (!code || (shown && shown.code === code)) return;
    linked = code;
    $("paste").value = code;
    open(code);
  };
  window.addEventListener("hashchange", fromAddress);
  fromAddress();
}

// Whether text that could not be loaded was the address's code (the page then says what to do);
// the address keeps it, so the link can be read and copied again.
export function linkFailed(text) {
  const fromLink = linked !== null && text === linked;
  if (fromLink) linked = null;
  return fromLink;
}

// Called with /api/show's answer whenever a position is shown (position.js), and the text it was
// shown from: the address's code is kept (as the code rummy writes) for the position it asked for,
// and taken away for any other.
export function positionShown(data, text) {
  shown = {code: data.code, toml: data.toml};
  const fromLink = linked !== null && text === linked;
  linked = null;
  const bare = location.pathname + location.search;
  if (fromLink) history.replaceState(null, "", bare + LINK + data.code);
  else if (location.hash.startsWith(LINK)) history.replaceState(null, "", bare);
  $("share").hidden = false;
  $("share-text").hidden = true;
  $("share-note").textContent = "";
}

// The text in a box of its own, selected, and on the clipboard where the browser allows it
// (a page served over plain http from another machine may not write to it): copied or not, it
// can be copied from the box.
async function offer(value, what) {
  if (!value) return;
  const box = $("share-text");
  box.value = value;
  box.hidden = false;
  box.select();
  try {
    await navigator.clipboard.writeText(value);
    $("share-note").textContent = "The " + what + " is copied.";
  } catch {
    $("share-note").textContent = "Copy the " + what + " from the box.";
  }
}

function download() {
  if (!shown) return;
  const url = URL.createObjectURL(new Blob([shown.toml], {type: "application/toml"}));
  const link = document.createElement("a");
  link.href = url;
  link.download = "position.toml";
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 0);
  $("share-note").textContent = "The position is saved as position.toml.";
}
