"use strict";
// The page asks the JSON API (/api/COMMAND: the CLI's --json objects) and draws them.
const COLOURS = {H: "#ffffff", S: "#ffe066", Dh: "#69db7c", Ds: "#b2f2bb", P: "#74c0fc",
  Ph: "#a5d8ff", Ps: "#a5d8ff", Rh: "#ff8787", Rs: "#ffc9c9", Rp: "#ffc9c9", E: "#e599f7"};
const UPS = ["2", "3", "4", "5", "6", "7", "8", "9", "T", "A"];
const $ = (id) => document.getElementById(id);

// The ruleset's fields as `rules NAME --json` gives them; an edited value is an override.
let fields = {};

function fieldOverrides() {
  const out = [];
  for (const input of document.querySelectorAll("#fields input")) {
    const was = String(fields[input.name].value).toLowerCase();
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
  const head = el("tr");
  for (const h of ["field", "value", "allowed"]) head.append(el("th", h));
  table.append(head);
  for (const [name, f] of Object.entries(fields)) {
    const tr = el("tr", undefined, {"title": f.meaning});
    const input = el("input", undefined, {"name": name, "size": "10", "value": String(f.value).toLowerCase()});
    const cell = el("td");
    cell.append(input);
    tr.append(el("td", name), cell, el("td", f.allowed));
    table.append(tr);
  }
  $("fields-status").textContent = `${data.ruleset} (hover a field for its meaning)`;
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
    list.append(el("li", `${d.hand.join(",")}${d.suited ? " suited" : ""} vs ${d.up}: ${d.best}`
      + ` (chart ${d.chart}, +${d.gain.toFixed(5)})`));
  }
  out.append(el("h3", `Composition-dependent exceptions (${data.exceptions.length})`), list);
});

$("hand-go").addEventListener("click", async () => {
  const q = gameParams();
  q.set("cards", $("hand-cards").value);
  q.set("vs", $("hand-vs").value);
  if ($("hand-removed").value.trim()) q.append("removed", $("hand-removed").value.trim());
  if ($("hand-shoe").value.trim()) { q.delete("decks"); q.set("shoe", $("hand-shoe").value.trim()); }
  q.set("split_strategy", $("hand-split").value);
  const data = await ask("hand", q, $("hand-status"));
  const out = $("hand-out");
  out.textContent = "";
  if (data) out.append(handTable(data, `${data.hand.join(",")} vs ${data.up}: ${data.ruleset}`));
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

for (const b of document.querySelectorAll("nav button")) {
  b.addEventListener("click", () => {
    document.querySelectorAll("nav button").forEach((x) => x.classList.toggle("active", x === b));
    document.querySelectorAll(".tab").forEach((s) => { s.hidden = s.id !== `tab-${b.dataset.tab}`; });
  });
}
