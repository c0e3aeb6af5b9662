// The shipped list (GET /api/positions): its Find box and its filters by theme, tier, kind and
// family, the count of matches, and the filter kept in the page's address (?theme=…&tier=…), so a
// filtered list can be shared as a link. The list is asked once; it is narrowed here, as the API's
// own filter narrows it (GET /api/positions?theme=…), whose refusal line the page shows for a value
// the list does not know.
import {api} from "./api.js";
import {$, el, showError} from "./dom.js";

// The shipped examples and puzzles, kept to be filtered, and every theme ({name, title, idea}).
let collections = [];
let themes = [];

// The filters, by their key in the address and the API's query: what each reads of an entry.
const FILTERS = {
  theme: (p) => p.themes || [],
  tier: (p) => (p.tier ? [p.tier] : []),
  kind: (p) => (p.kind ? [p.kind] : []),
  family: (p) => (p.family ? [p.family] : []),
};
const TIERS = ["easy", "medium", "hard", "expert"];  // easiest first, as rummy grades
const FIND = "find";  // the Find box's words in the address

export async function loadList() {
  try {
    const listing = await api("/api/positions");
    collections = listing.collections;
    themes = listing.themes || [];
  } catch (error) {
    $("load-select").replaceChildren(el("option", {value: "", text: "no list"}));
    showError($("load-error"), error);
    return;
  }
  await fromAddress();
  filterList(location.search !== "");  // the address rewritten as the list reads it (a value refused is gone)
}

// Wire the Find box and the filter selects; Show all clears every filter.
export function wireList(open) {
  $("load-filter").addEventListener("input", () => filterList(true));
  $("load-filter").addEventListener("keydown", (e) => {
    if (e.key === "Enter") { e.preventDefault(); open(); }
    else if (e.key === "Escape" && $("load-filter").value) { $("load-filter").value = ""; filterList(true); }
    else if (e.key === "ArrowDown") { e.preventDefault(); $("load-select").focus(); }
  });
  for (const key of Object.keys(FILTERS)) $("filter-" + key).addEventListener("change", () => filterList(true));
  $("filter-clear").addEventListener("click", () => {
    $("load-filter").value = "";
    for (const key of Object.keys(FILTERS)) $("filter-" + key).value = "";
    filterList(true);
    $("load-filter").focus();  // the button hides itself: the focus goes on to the Find box, not the page's top
  });
}

// The filters named in the address (?theme=steal-chain&tier=hard&find=robber). A value the list does
// not offer is asked of the API, which refuses it with its line (an unknown theme), or takes it (a kind
// no shipped puzzle has: then nothing matches); a refused one is dropped, its line shown.
async function fromAddress() {
  const query = new URLSearchParams(location.search);
  $("load-filter").value = (query.get(FIND) || "").slice(0, 200);
  for (const key of Object.keys(FILTERS)) {
    const value = query.get(key);
    if (value === null) continue;
    if (!offered(key).has(value)) {
      try {
        await api("/api/positions?" + new URLSearchParams({[key]: value}));
      } catch (error) {
        showError($("load-error"), error);
        continue;
      }
    }
    $("filter-" + key).dataset.asked = value;  // filterList offers it and chooses it
  }
}

// Every value of a filter the list holds.
function offered(key) {
  return new Set(collections.flatMap((c) => c.positions.flatMap(FILTERS[key])));
}

// What the Find box matches an entry against (besides its name and collection), and what the list
// says of it: its game, kind, tier, phase and the titles of its themes.
function entryFacts(p) {
  return [p.rules, p.kind, p.tier, p.phase === "draw" ? "draw phase" : null].filter(Boolean);
}

function themeTitle(name) {
  const theme = themes.find((t) => t.name === name);
  return theme ? theme.title : name;
}

function entryLabel(p) {
  const titles = (p.themes || []).map(themeTitle);
  return p.name + "  (" + entryFacts(p).join(", ") + ")" + (titles.length ? "  · " + titles.join(", ") : "");
}

// The list narrowed to the entries holding every word of the Find box (in any order, any case) and
// the value chosen in each filter, one group per collection. The choice is kept if it still
// matches, else the first match is chosen (Load, or Enter in the Find box, opens it); no filter
// at all chooses nothing. Each filter's options count the entries they would leave, the other
// filters as they are. `keep` writes the filters into the address.
export function filterList(keep = false) {
  const select = $("load-select"), chosen = select.value;
  const typed = $("load-filter").value;
  const words = typed.toLowerCase().split(/\s+/).filter(Boolean);
  const asked = Object.fromEntries(Object.keys(FILTERS).map((key) => {
    const box = $("filter-" + key);
    const value = box.dataset.asked !== undefined ? box.dataset.asked : box.value;
    delete box.dataset.asked;
    return [key, value];
  }));
  const byWords = (p, collection) => {
    const haystack = [p.name, collection.name, collection.title, ...entryFacts(p), ...(p.themes || []),
      ...(p.themes || []).map(themeTitle)].join(" ").toLowerCase();
    return words.every((word) => haystack.includes(word));
  };
  const passes = (p, except) => Object.entries(asked).every(([key, value]) =>
    key === except || !value || FILTERS[key](p).includes(value));
  drawFilters(asked, byWords, passes);
  const options = [el("option", {value: "", text: filtered(words, asked) ? "matches…" : "choose a position…"})];
  let shown = 0, total = 0;
  for (const collection of collections) {
    total += collection.positions.length;
    const found = collection.positions.filter((p) => byWords(p, collection) && passes(p, null));
    if (!found.length) continue;
    shown += found.length;
    options.push(el("optgroup", {label: collection.title + " (" + found.length + ")"},
      ...found.map((p) => el("option", {value: p.id, text: entryLabel(p)}))));
  }
  select.replaceChildren(...options);
  const ids = [...select.querySelectorAll("option")].map((o) => o.value).filter(Boolean);
  // A name typed whole ("house-classic", or "house classic") chooses that entry, not the first
  // match listed before it (house-classic-4p).
  const exact = ids.find((id) => [words.join(" "), words.join("-")].includes(id.split("/").pop().toLowerCase()));
  const any = filtered(words, asked);
  select.value = exact || (ids.includes(chosen) ? chosen : any && ids.length ? ids[0] : "");
  $("load-count").textContent = any ? shown + " of " + total + " positions" + (shown ? "" : ": none match")
    : total + " positions";
  $("filter-clear").hidden = !any;
  if (keep) keepInAddress(typed, asked);
}

function filtered(words, asked) { return words.length > 0 || Object.values(asked).some(Boolean); }

// Each filter's options: "any …", then every value the list holds, counted among the entries the
// Find box and the other filters leave ("hard (12)"); a value chosen is offered even where none is left.
function drawFilters(asked, byWords, passes) {
  for (const key of Object.keys(FILTERS)) {
    const counts = new Map();
    for (const collection of collections) {
      for (const p of collection.positions) {
        if (!byWords(p, collection) || !passes(p, key)) continue;
        for (const value of FILTERS[key](p)) counts.set(value, (counts.get(value) || 0) + 1);
      }
    }
    const values = [...offered(key)];
    if (asked[key] && !values.includes(asked[key])) values.push(asked[key]);
    const order = key === "theme" ? themes.map((t) => t.name) : key === "tier" ? TIERS : [];
    const rank = (v) => (order.includes(v) ? order.indexOf(v) : order.length);
    values.sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
    const box = $("filter-" + key);
    box.replaceChildren(el("option", {value: "", text: "any " + key}),
      ...values.map((v) => el("option", {value: v, text: (key === "theme" ? themeTitle(v) : v) + " (" + (counts.get(v) || 0) + ")"})));
    box.value = asked[key] || "";
  }
}

// The filters in the address, as the API's query names them (the position's #p=CODE stays): a
// reload keeps the list as it was, and the address can be shared. No history entry is added.
function keepInAddress(typed, asked) {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(asked)) if (value) query.set(key, value);
  if (typed.trim()) query.set(FIND, typed.trim());
  const search = query.toString();
  history.replaceState(null, "", location.pathname + (search ? "?" + search : "") + location.hash);
}
