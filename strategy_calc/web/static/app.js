"use strict";
// The page asks the JSON API (/api/COMMAND: the CLI's --json objects) and draws them.
const COLOURS = {H: "#ffffff", S: "#ffe066", Dh: "#69db7c", Ds: "#b2f2bb", P: "#74c0fc",
  Ph: "#a5d8ff", Ps: "#a5d8ff", Rh: "#ff8787", Rs: "#ffc9c9", Rp: "#ffc9c9", E: "#e599f7"};
const UPS = ["2", "3", "4", "5", "6", "7", "8", "9", "T", "A"];
const $ = (id) => document.getElementById(id);

// The ruleset's fields as `rules NAME --json` gives them; an edited value is an override.
let fields = {};

// A field's value as --set takes it (a bonus table's rows as "suited 6-7-8=3; 7-7-7=3").
const fieldText = (value) => (Array.isArray(value) && value.length && typeof value[0] === "object"
  ? value.map(rowSetText).join("; ") : String(value));
function rowSetText(row) {
  return [row.suited ? "suited" : "", `${row.cards}=${row.pays}`, row.settles ? "" : "plays-on",
    row.split_hands ? "" : "not-split"].filter(Boolean).join(" ");
}

function fieldOverrides() {
  const out = [];
  for (const input of document.querySelectorAll("#fields input")) {
    const was = fieldText(fields[input.name].value).toLowerCase();
    if (input.value.trim() && input.value.trim().toLowerCase() !== was) out.push(`${input.name}=${input.value.trim()}`);
  }
  return out;
}

function gameParams() {
  const q = new URLSearchParams();
  q.set("rules", $("rules").value);
  if ($("decks").value) q.set("decks", $("decks").value);
  for (const s of fieldOverrides()) q.append("set", s);
  for (const s of $("sets").value.split(",").map((x) => x.trim()).filter(Boolean)) q.append("set", s);
  return q;
}

let fieldsAsked = 0;  // a ruleset picked while another's fields load: keep the last only

async function loadFields() {
  const q = new URLSearchParams();
  q.set("name", $("rules").value);
  const mine = ++fieldsAsked;
  const data = await ask("rules", q, $("fields-status"));
  if (mine !== fieldsAsked) return;
  const table = $("fields");
  table.textContent = "";
  if (!data) return;
  fields = data.fields;
  bonusRows = data.bonus_table || [];  // (the ruleset's own; any pending ask was another's)
  bonusAsked += 1;
  clearTimeout(bonusTimer);
  const head = el("tr");
  for (const h of ["field", "value", "allowed"]) head.append(el("th", h));
  table.append(head);
  for (const [name, f] of Object.entries(fields)) {
    const tr = el("tr", undefined, {"title": f.meaning});
    const input = el("input", undefined, {"name": name, "size": "10", "value": fieldText(f.value).toLowerCase()});
    const cell = el("td");
    cell.append(input);
    tr.append(el("td", name), cell, el("td", f.allowed));
    table.append(tr);
  }
  $("fields-status").textContent = `${data.ruleset} (hover a field for its meaning)`;
  showSuits();
  if ($("sets").value.trim() || $("decks").value) loadBonusRows();  // (the rows under them)
}
$("rules").addEventListener("change", loadFields);
loadFields();

// A request's progress: the server keeps its command's progress bar under a key the
// page makes (?progress=KEY) and answers /api/progress?key=KEY while it computes.
function showProgress(status, state, seconds) {
  status.textContent = "";
  const text = state.total
    ? `computing: ${state.label} ${state.done} of ${state.total}, ${seconds} s `
    : `computing... ${seconds} s `;
  status.append(text);
  if (state.total) status.append(el("progress", undefined, {"max": String(state.total), "value": String(state.done)}));
}

async function ask(endpoint, params, status) {
  status.className = "status";
  status.textContent = "computing...";
  const started = Date.now();
  const key = Math.random().toString(36).slice(2, 14);
  const query = new URLSearchParams(params);
  query.set("progress", key);
  let polling = false;
  const timer = setInterval(async () => {
    if (polling) return;
    polling = true;
    try {
      const state = await (await fetch(`/api/progress?key=${key}`)).json();
      if (!state.finished) showProgress(status, state, ((Date.now() - started) / 1000).toFixed(0));
    } catch (e) {
      // (progress is a courtesy: the answer itself reports any error)
    } finally {
      polling = false;
    }
  }, 500);
  try {
    const response = await fetch(`/api/${endpoint}?${query}`);
    const data = await response.json();
    if (!response.ok) {
      status.className = "status error";
      status.textContent = `error: ${data.error}`;
      return null;
    }
    status.textContent = `done in ${((Date.now() - started) / 1000).toFixed(1)} s`;
    return data;
  } catch (e) {
    status.className = "status error";
    status.textContent = `error: ${e}`;
    return null;
  } finally {
    clearInterval(timer);
  }
}

function el(tag, text, attrs = {}) {
  const e = document.createElement(tag);
  if (text !== undefined) e.textContent = text;
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  return e;
}

function pct(x) { return x === null || x === undefined ? "-" : (100 * x).toFixed(4) + "%"; }
function num(x) { return x === null || x === undefined ? "-" : x.toFixed(6); }

function chartTable(title, rows, labelOf, exceptions) {
  const t = el("table");
  const head = el("tr");
  head.append(el("th", title));
  for (const u of UPS) head.append(el("th", u));
  t.append(head);
  for (const [row, cells] of Object.entries(rows)) {
    const tr = el("tr");
    const label = labelOf(row);
    tr.append(el("th", label));
    for (const u of UPS) {
      const code = cells[u];
      const td = el("td", code, {"class": "code", "data-row": label, "data-up": u});
      td.style.background = COLOURS[code] || "#fff";
      if (exceptions.has(`${label}|${u}`)) td.classList.add("exc");
      td.addEventListener("click", () => showCell(td, label, u));
      tr.append(td);
    }
    t.append(tr);
  }
  return t;
}

// A chart row's label to the two cards the hand calculator evaluates for it.
function cardsOf(label) {
  if (label.includes(",")) return label;  // A,7 or 8,8
  const total = Number(label);
  const first = total >= 12 ? "T" : String(Math.max(2, total - 2));
  const second = String(total - (first === "T" ? 10 : Number(first)));
  return `${first},${second}`;
}

async function showCell(td, label, up) {
  document.querySelectorAll("td.picked").forEach((x) => x.classList.remove("picked"));
  td.classList.add("picked");
  const out = $("cell-out");
  const q = gameParams();
  q.set("cards", cardsOf(label));
  q.set("vs", up);
  out.textContent = "";
  const status = el("p", "", {"class": "status"});
  out.append(status);
  const data = await ask("hand", q, status);
  if (data) out.append(handTable(data, `${label} (${data.hand.join(",")}) vs ${up}`));
}

function handTable(data, title) {
  const wrap = el("div");
  wrap.append(el("h3", title));
  const t = el("table", undefined, {"class": "hand"});
  const head = el("tr");
  for (const h of ["action", "EV", "P(win)", "P(push)", "P(lose)", "best"]) head.append(el("th", h));
  t.append(head);
  for (const [action, ev] of Object.entries(data.ev)) {
    const o = (data.outcomes || {})[action];
    const tr = el("tr");
    tr.append(el("td", action.replace("_", " ")), el("td", num(ev)),
      el("td", o ? o.win.toFixed(4) : ""), el("td", o ? o.push.toFixed(4) : ""),
      el("td", o ? o.lose.toFixed(4) : ""), el("td", data.best === action ? "<-" : ""));
    t.append(tr);
  }
  wrap.append(t);
  const dealer = el("table");
  const dh = el("tr"), dv = el("tr");
  for (const [k, v] of Object.entries(data.dealer)) { dh.append(el("th", k)); dv.append(el("td", v.toFixed(6))); }
  dealer.append(dh, dv);
  wrap.append(el("p", `dealer's outcomes with ${data.up} up`), dealer);
  for (const n of data.notes || []) wrap.append(el("p", `note: ${n}`));
  wrap.append(el("p", data.conditioned_on_no_dealer_blackjack
    ? "EV per unit initial bet, given the dealer has no blackjack (he checked)."
    : "EV per unit initial bet, the risk of a dealer blackjack included (no hole card)."));
  return wrap;
}

$("chart-go").addEventListener("click", async () => {
  const params = gameParams();
  const data = await ask("chart", params, $("chart-status"));
  const out = $("chart-out");
  out.textContent = "";
  $("downloads").hidden = !data;
  if (!data) return;
  $("dl-pdf").href = `/download/chart.pdf?${params}`;
  $("dl-csv").href = `/download/chart.csv?${params}`;
  const value = (c) => (c === "A" ? 1 : c === "T" ? 10 : Number(c));
  const exc = new Set(data.exceptions.filter((d) => d.hand.length === 2).map((d) => {
    const [a, b] = d.hand;
    const other = a === "A" ? b : a;
    const label = a === b ? `${a},${b}` : (a === "A" || b === "A") ? `A,${other}`
      : String(value(a) + value(b));
    return `${label}|${d.up}`;
  }));
  out.append(el("p", `${data.ruleset}: house edge ${pct(data.house_edge)} under this chart,`
    + ` ${pct(data.house_edge_optimal)} under optimal play. Click a cell for every action's EV.`));
  out.append(chartTable("hard", data.hard, (r) => r, exc));
  out.append(chartTable("soft", data.soft, (r) => (Number(r) === 21 ? "A,T" : `A,${Number(r) - 11}`), exc));
  out.append(chartTable("pairs", data.pairs, (r) => `${r},${r}`, exc));
  const legend = el("p");
  legend.textContent = Object.entries(data.legend).map(([c, m]) => `${c} ${m}`).join("; ");
  out.append(legend);
  const list = el("ul");
  for (const d of data.exceptions) {
    const item = el("li", `${d.hand.join(",")}${d.suited ? " suited" : ""} vs ${d.up}: ${d.best}`
      + ` (chart ${d.chart}, +${d.gain.toFixed(5)})`, {"class": "exc-item", "title": "open in the hand calculator"});
    item.addEventListener("click", () => openHand(d));
    list.append(item);
  }
  out.append(el("h3", `Composition-dependent exceptions (${data.exceptions.length}; click one for its EVs)`), list);
});

// Macau's suited plays (rule 9): a hand of exactly three cards 6-7-8 of one suit, or
// 7-7-7, is paid at once. Suits are typed as on the command line (6s,7s); the pickers
// below the cards rewrite them, and a 6-7-8 hand is valued suited and not side by side.
const SUITS = [["", "?", "suit not given: the bonus is averaged over the possible suits"],
  ["s", "\u2660", "spades"], ["h", "\u2665", "hearts"], ["d", "\u2666", "diamonds"], ["c", "\u2663", "clubs"]];
const CARD = /^(10|[2-9atjqk])([shdc]?)$/i;

// "T,6s" -> [{rank: "T", suit: ""}, {rank: "6", suit: "s"}] (null if a card is not one).
function parseCards(text) {
  const out = [];
  for (const token of text.split(/[,\s]+/).filter(Boolean)) {
    const m = CARD.exec(token);
    if (!m) return null;
    const r = m[1].toUpperCase();
    out.push({rank: ["10", "J", "Q", "K"].includes(r) ? "T" : r, face: r, suit: m[2].toLowerCase()});
  }
  return out;
}
const cardText = (cards) => cards.map((c) => c.face + c.suit).join(",");

// The bonus rows that pay under the ruleset as the requests will have it (its fields with
// the edits and overrides): `rules NAME --set ... --json`'s bonus_table, the shorthands'
// rows (bonus_suited_678, bonus_777) and bonus_hands' alike. Asked again, a moment after
// the last edit, whenever a field, an override or the decks change.
let bonusRows = [];
let bonusAsked = 0, bonusTimer = null;
const rowRanks = (row) => row.cards.split("-");
const suitedRank = (c) => bonusRows.some((r) => r.suited && rowRanks(r).includes(c.rank));
const anyBonusRank = (c) => bonusRows.some((r) => rowRanks(r).includes(c.rank));
async function loadBonusRows() {
  const q = gameParams();
  q.set("name", q.get("rules"));
  q.delete("rules");
  const mine = ++bonusAsked;
  let rows = [];
  try {
    const response = await fetch(`/api/rules?${q}`);
    const data = await response.json();
    if (response.ok) rows = data.bonus_table;  // (a bad override: the request says so)
  } catch (e) {
    // (the hand's own request reports what is wrong)
  }
  if (mine !== bonusAsked) return;
  bonusRows = rows;
  showSuits();
}
function loadBonusRowsSoon() {
  clearTimeout(bonusTimer);
  bonusTimer = setTimeout(loadBonusRows, 300);
}
// "3x the bet for 6-7-8 of one suit", "... then also stands on its total, not on split hands"
function rowText(row) {
  return `${row.pays}\u00d7 the bet for exactly ${row.cards} ${row.suited ? "of one suit" : "of any suits"}`
    + (row.settles ? "" : ", then also stands as its total") + (row.split_hands ? "" : ", not on split hands");
}

function setCards(id, cards) { $(id).value = cardText(cards); showSuits(); }

function picker(label, card, onPick) {
  const box = el("span", undefined, {"class": "picker", "role": "group", "aria-label": `suit of ${label}`});
  box.append(el("b", label));
  for (const [suit, glyph, name] of SUITS) {
    const b = el("button", glyph, {"type": "button", "data-suit": suit, "title": name,
      "aria-pressed": String(card.suit === suit)});
    if (suit === "h" || suit === "d") b.classList.add("red");
    b.addEventListener("click", () => onPick(suit));
    box.append(b);
  }
  return box;
}

// The help line (every bonus row that pays) when the hand holds a rank of one, and a suit
// picker for each card (hand and up card) of a suited row's ranks.
function showSuits() {
  const box = $("suits-box"), pickers = $("suit-pickers");
  const cards = parseCards($("hand-cards").value), up = parseCards($("hand-vs").value);
  const suited = bonusRows.some((r) => r.suited);
  box.hidden = !(cards && cards.some(anyBonusRank));
  pickers.textContent = "";
  if (box.hidden) return;
  $("bonus-help").textContent = `${$("rules").value} pays ${bonusRows.map(rowText).join("; ")};`
    + " at once, even against an ace, and the paid hand is settled unless said (never a doubled hand)."
    + (suited ? " Pick the suit of each card of a suited hand's ranks (or type 6s,7s; removed cards"
      + " too: 8s); a card without one is averaged over the suits the shoe may hold." : "");
  if (!suited) return;
  cards.forEach((card, i) => {
    if (!suitedRank(card)) return;
    pickers.append(picker(`${card.face}`, card, (suit) => {
      const now = parseCards($("hand-cards").value);
      if (now && now[i]) { now[i].suit = suit; setCards("hand-cards", now); }
    }));
  });
  if (up && up.length === 1 && suitedRank(up[0])) {
    pickers.append(picker(`up ${up[0].face}`, up[0], (suit) => {
      const now = parseCards($("hand-vs").value);
      if (now && now.length === 1) { now[0].suit = suit; setCards("hand-vs", now); }
    }));
  }
  if (cards.filter(suitedRank).length >= 2) {
    for (const [id, text, how] of [["suits-one", "one suit", "same"], ["suits-mixed", "mixed suits", "mixed"],
      ["suits-none", "no suits", "none"]]) {
      const b = el("button", text, {"type": "button", "id": id});
      b.addEventListener("click", () => setCards("hand-cards", withSuits(parseCards($("hand-cards").value), how, knownCards())));
      pickers.append(b, " ");
    }
  }
}
for (const id of ["hand-cards", "hand-vs"]) $(id).addEventListener("input", showSuits);
for (const id of ["sets", "fields"]) $(id).addEventListener("input", loadBonusRowsSoon);
$("decks").addEventListener("change", loadBonusRowsSoon);

// The hand's cards of a suited row's ranks (6s, 7s and 8s) all of one suit (the first given, else the suit the fewest
// known cards of those ranks (removed, up card) have left), of mixed suits (the first keeps
// its suit, the others take the next ones in that order), or without suits.
function withSuits(cards, how, known = []) {
  const ranks = new Set(cards.filter(suitedRank).map((c) => c.rank));
  const gone = (suit) => known.filter((c) => c.suit === suit && ranks.has(c.rank)).length;
  const order = ["s", "h", "d", "c"].sort((a, b) => gone(a) - gone(b));
  const first = (cards.find((c) => suitedRank(c) && c.suit) || {suit: order[0]}).suit;
  const others = order.filter((s) => s !== first);
  let k = 0;
  return cards.map((c) => {
    if (!suitedRank(c)) return c;
    const suit = how === "none" ? "" : how === "same" || k === 0 ? first : others[(k - 1) % 3];
    k += 1;
    return {...c, suit};
  });
}
// The cards typed as out of the shoe: removed, and the up card.
const knownCards = () => [...(parseCards($("hand-removed").value) || []), ...(parseCards($("hand-vs").value) || [])];

function handQuery(cards) {
  const q = gameParams();
  q.set("cards", cards);
  q.set("vs", $("hand-vs").value);
  if ($("hand-removed").value.trim()) q.append("removed", $("hand-removed").value.trim());
  if ($("hand-shoe").value.trim()) { q.delete("decks"); q.set("shoe", $("hand-shoe").value.trim()); }
  q.set("split_strategy", $("hand-split").value);
  return q;
}

// A 6-7-8 hand (two or three of those ranks, no two alike) under a suited bonus: its EVs
// with the cards of one suit, of mixed suits and without suits, side by side.
async function compareSuits() {
  const out = $("suits-out"), status = $("suits-status");
  out.textContent = "";
  status.textContent = "";
  const cards = parseCards($("hand-cards").value);
  const ranks = cards ? cards.map((c) => c.rank) : [];
  if (!cards || cards.length < 2 || cards.length > 3
      || !cards.every(suitedRank) || new Set(ranks).size !== ranks.length) return;
  const known = knownCards();
  const variants = [["one suit", withSuits(cards, "same", known)], ["mixed suits", withSuits(cards, "mixed", known)],
    ["suits not given", withSuits(cards, "none")]];
  status.className = "status";
  status.textContent = "valuing the hand's suits...";
  const answers = await Promise.all(variants.map(async ([, v]) => {
    try {
      const response = await fetch(`/api/hand?${handQuery(cardText(v))}`);
      const data = await response.json();
      return response.ok ? data : {error: data.error};
    } catch (e) {
      return {error: String(e)};
    }
  }));
  status.textContent = "";
  const t = el("table", undefined, {"class": "suits"});
  const head = el("tr");
  head.append(el("th", "action"));
  variants.forEach(([name, v], i) => head.append(el("th", `${name} (${cardText(v)})`,
    answers[i].error ? {"title": `error: ${answers[i].error}`} : {})));
  head.append(el("th", "one suit \u2212 mixed"));
  t.append(head);
  const ok = answers.filter((a) => !a.error);
  if (!ok.length) {
    status.className = "status error";
    status.textContent = `error: ${answers[0].error}`;
    return;
  }
  for (const action of Object.keys(ok[0].ev)) {
    if (ok.every((a) => a.ev[action] === null)) continue;
    const tr = el("tr", undefined, {"data-action": action});
    tr.append(el("td", action.replace("_", " ")));
    for (const a of answers) {
      const td = el("td", a.error ? "-" : num(a.ev[action]));
      if (!a.error && a.best === action) td.classList.add("best");
      tr.append(td);
    }
    const [one, mixed] = answers;
    const diff = one.error || mixed.error || one.ev[action] === null || mixed.ev[action] === null
      ? null : one.ev[action] - mixed.ev[action];
    tr.append(el("td", diff === null ? "-" : (diff >= 0 ? "+" : "") + diff.toFixed(6)));
    t.append(tr);
  }
  out.append(el("h3", "Suited or not (EV per unit initial bet; bold: the best play)"), t);
  const errors = answers.map((a, i) => (a.error ? `${variants[i][0]}: ${a.error}` : "")).filter(Boolean);
  for (const e of errors) out.append(el("p", `error: ${e}`, {"class": "status error"}));
}

// A chart exception in the hand calculator: its cards (a suited one's 6s, 7s and 8s of one
// suit) against its up card, from the chart's full shoe.
function openHand(exception) {
  const cards = exception.hand.map((r) => ({rank: r, face: r, suit: ""}));
  $("hand-cards").value = cardText(exception.suited ? withSuits(cards, "same") : cards);
  $("hand-vs").value = exception.up;
  $("hand-removed").value = "";
  $("hand-shoe").value = "";
  document.querySelector("nav button[data-tab='hand']").click();
  showSuits();
  $("hand-go").click();
}

$("hand-go").addEventListener("click", async () => {
  $("suits-out").textContent = "";  // (the last hand's suits go with its answer)
  $("suits-status").textContent = "";
  const data = await ask("hand", handQuery($("hand-cards").value), $("hand-status"));
  const out = $("hand-out");
  out.textContent = "";
  if (data) out.append(handTable(data, `${data.hand.join(",")} vs ${data.up}: ${data.ruleset}`));
  if (data) await compareSuits();
});

$("effects-go").addEventListener("click", async () => {
  const q = gameParams();  // (sweep has no --decks: the decks go in as an override)
  if (q.has("decks")) { q.append("set", `decks=${q.get("decks")}`); q.delete("decks"); }
  for (const v of $("vary").value.split(";").map((x) => x.trim()).filter(Boolean)) q.append("vary", v);
  const data = await ask("sweep", q, $("effects-status"));
  const out = $("effects-out");
  out.textContent = "";
  if (!data) return;
  const rows = data.rows.slice().sort((a, b) => (a.effect ?? 0) - (b.effect ?? 0));
  const most = Math.max(1e-9, ...rows.map((r) => Math.abs(r.effect ?? 0)));
  const t = el("table");
  const head = el("tr");
  for (const h of ["overrides", "house edge", "effect (points)", ""]) head.append(el("th", h));
  t.append(head);
  for (const r of rows) {
    const tr = el("tr");
    const bar = el("span", "", {"class": "bar" + ((r.effect ?? 0) < 0 ? " neg" : "")});
    bar.style.width = `${(100 * Math.abs(r.effect ?? 0)) / most}px`;
    const cell = el("td");
    cell.append(bar);
    tr.append(el("td", Object.entries(r.overrides).map(([k, v]) => `${k}=${v}`).join(" ") || "(base)"),
      el("td", pct(r.house_edge)), el("td", r.effect === null ? "base" : r.effect.toFixed(4)), cell);
    t.append(tr);
  }
  out.append(el("p", `base: ${data.base}`), t);
});

$("bac-go").addEventListener("click", async () => {
  const q = new URLSearchParams();
  q.set("rules", "macau-baccarat");
  if ($("decks").value) q.set("decks", $("decks").value);
  if ($("bac-removed").value.trim()) q.append("removed", $("bac-removed").value.trim());
  const data = await ask("baccarat", q, $("bac-status"));
  const out = $("bac-out");
  out.textContent = "";
  if (!data) return;
  const t = el("table");
  const head = el("tr");
  for (const h of ["bet", "EV per unit"]) head.append(el("th", h));
  t.append(head);
  for (const [bet, ev] of Object.entries(data.ev)) {
    const tr = el("tr");
    tr.append(el("td", bet.replace("_", " ")), el("td", pct(ev)));
    t.append(tr);
  }
  out.append(el("p", data.ruleset), t);
});

// Side bets: the bets and their pay tables (sidebet --list), then one bet's lines and EV
// for the game's shoe less the removed cards (sidebet NAME); a face button removes one
// card of that face (suit unknown) and prices the bet again.
let sidebets = {};

async function loadSidebets() {
  const q = new URLSearchParams();
  q.set("list", "true");
  const data = await ask("sidebets", q, $("sb-status"));
  if (!data) return;
  sidebets = data;
  $("sb-name").textContent = "";
  for (const name of Object.keys(data)) $("sb-name").append(el("option", name, {"value": name}));
  showPaytables();
  $("sb-status").textContent = "";
}

function showPaytables() {
  const bet = sidebets[$("sb-name").value];
  $("sb-paytable").textContent = "";
  if (!bet) return;
  for (const table of Object.keys(bet.paytables)) {
    const option = el("option", table, {"value": table});
    if (table === bet.default) option.selected = true;
    $("sb-paytable").append(option);
  }
}

async function priceSidebet() {
  // a baccarat bet is priced under the baccarat ruleset (as the Baccarat tab is), the
  // page's decks; a blackjack bet under the page's ruleset
  const baccarat = (sidebets[$("sb-name").value] || {}).game === "baccarat";
  const q = baccarat ? new URLSearchParams() : gameParams();
  if (baccarat) {
    q.set("rules", "macau-baccarat");
    if ($("decks").value) q.set("decks", $("decks").value);
  }
  q.set("name", $("sb-name").value);
  if ($("sb-paytable").value) q.set("paytable", $("sb-paytable").value);
  if ($("sb-removed").value.trim()) q.append("removed", $("sb-removed").value.trim());
  const data = await ask("sidebet", q, $("sb-status"));
  const out = $("sb-out");
  out.textContent = "";
  if (!data) return;
  const t = el("table", undefined, {"class": "sidebet"});
  const head = el("tr");
  for (const h of ["line", "pays", "probability", "EV share"]) head.append(el("th", h));
  t.append(head);
  for (const [line, l] of Object.entries(data.lines)) {
    const tr = el("tr");
    tr.append(el("td", line.replaceAll("_", " ")), el("td", l.pays < 0 ? "loses" : `${l.pays}:1`),
      el("td", l.probability.toFixed(8)), el("td", num(l.probability * l.pays)));
    t.append(tr);
  }
  out.append(el("p", `${data.bet}, pay table ${data.paytable}: ${data.cards_left} cards left`
    + ` (removed: ${data.removed || "none"})`), t,
  el("p", `EV ${num(data.ev)} per unit (house edge ${pct(data.house_edge)}), SD ${data.sd.toFixed(4)}`,
    {"id": "sb-ev"}));
}

for (const face of ["A", "2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K"]) {
  const b = el("button", face, {"data-face": face});
  b.addEventListener("click", () => {
    const now = $("sb-removed").value.trim();
    $("sb-removed").value = now ? `${now},${face}` : face;
    priceSidebet();
  });
  $("sb-faces").append(b);
}
$("sb-clear").addEventListener("click", () => { $("sb-removed").value = ""; priceSidebet(); });
$("sb-name").addEventListener("change", showPaytables);
$("sb-go").addEventListener("click", priceSidebet);
loadSidebets();

for (const b of document.querySelectorAll("nav button")) {
  b.addEventListener("click", () => {
    document.querySelectorAll("nav button").forEach((x) => x.classList.toggle("active", x === b));
    document.querySelectorAll(".tab").forEach((s) => { s.hidden = s.id !== `tab-${b.dataset.tab}`; });
  });
}
