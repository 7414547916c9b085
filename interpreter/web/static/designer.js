"use strict";
// The designer: edit a ruleset or variant, see the real pipeline's diagnostics at line:col as you
// type, read the explain text, simulate bot games with the balance charts, play this version.

let editor = null;
let marked = [];
let timer = null;
let sequence = 0;
let lastCheck = null;

function showDiagnostics(result) {
  for (const line of marked) {
    editor.removeLineClass(line, "background", "diag-line");
    editor.removeLineClass(line, "background", "note-line");
  }
  marked = [];
  const list = clear(document.getElementById("diagnostics"));
  if (result.ok) {
    list.appendChild(el("li", "ok", `No errors: ${result.name}, ${result.min_players}–${result.max_players} players.`));
  }
  for (const error of result.errors.concat(result.notes || [])) {  // errors, then notes (names hiding built-ins)
    const where = error.line ? `${error.line}:${error.column}` : (error.where || "");
    const note = error.stage === "note";  // a name of the ruleset that hides a built-in: not an error
    const item = el("li", note ? "diagnostic note" : "diagnostic");
    item.appendChild(el("strong", "where", where));
    item.appendChild(document.createTextNode(` ${error.stage || "error"}: ${error.message}`));
    if (error.hint) item.appendChild(el("div", "dim", error.hint));
    item.dataset.line = String(error.line || 0);
    if (error.line) {
      const handle = editor.addLineClass(error.line - 1, "background", note ? "note-line" : "diag-line");
      marked.push(handle);
      item.addEventListener("click", () => { editor.setCursor({line: error.line - 1, ch: Math.max(0, error.column - 1)}); editor.focus(); });
    }
    list.appendChild(item);
  }
  if (result.ok) document.getElementById("explain").textContent = result.explain;  // else the last valid one
  if (result.ok) {
    const players = document.getElementById("players");
    const keep = players.value;
    clear(players);
    for (let n = result.min_players; n <= result.max_players; n++) {
      const option = el("option", null, String(n));
      option.value = String(n);
      players.appendChild(option);
    }
    players.value = keep && Number(keep) >= result.min_players && Number(keep) <= result.max_players ? keep : String(result.players);
  }
}

async function check() {
  const mine = ++sequence;
  document.getElementById("check-state").textContent = "checking…";
  try {
    const result = await api("/api/designer/check", {text: editor.getValue()});
    if (mine !== sequence) return;
    lastCheck = result;
    showDiagnostics(result);
    const notes = result.ok && result.notes && result.notes.length ? `, ${result.notes.length} note(s)` : "";
    document.getElementById("check-state").textContent = result.ok ? `valid${notes}` : `${result.errors.length} error(s)`;
  } catch (e) {
    document.getElementById("check-state").textContent = e.message;
  }
}

function scheduleCheck() {
  clearTimeout(timer);
  timer = setTimeout(check, 500);
}

function seatsFor(players, first) {
  const bot = document.getElementById("bot").value || "random";
  return Array.from({length: players}, (_, i) => i === 0 && first ? first : bot);
}

async function play() {
  const error = document.getElementById("try-error");
  error.textContent = "";
  const players = Number(document.getElementById("players").value) || undefined;
  try {
    const table = await api("/api/tables", {source: editor.getValue(), players, seats: seatsFor(players || 2, "human"), pace: 0.6});
    location.href = table.seats[0].link;
  } catch (e) {
    error.textContent = e.message;
  }
}

async function simulate() {
  const error = document.getElementById("try-error");
  const summary = clear(document.getElementById("sim-summary"));
  error.textContent = "";
  summary.appendChild(el("p", "dim", "playing…"));
  const players = Number(document.getElementById("players").value) || 2;
  try {
    const result = await api("/api/designer/simulate", {text: editor.getValue(), players,
      games: Number(document.getElementById("games").value), seats: seatsFor(players, null)});
    clear(summary);
    if (!result.ok) { error.textContent = result.errors.map(e => e.message).join("; "); return; }
    const table = el("table", "sim");
    const head = el("tr");
    for (const h of ["seat", "win rate", "mean score"]) head.appendChild(el("th", null, h));
    table.appendChild(head);
    result.win_rates.forEach((rate, seat) => {
      const row = el("tr");
      row.appendChild(el("td", null, String(seat + 1)));
      row.appendChild(el("td", null, `${(100 * rate).toFixed(1)}%`));
      row.appendChild(el("td", null, String(result.mean_scores[seat])));
      table.appendChild(row);
    });
    summary.appendChild(el("p", null, `${result.games} games, ${result.mean_decisions} decisions on average.`));
    summary.appendChild(table);
    const frame = document.getElementById("report");
    frame.hidden = false;
    frame.src = result.report;
  } catch (e) {
    clear(summary);
    error.textContent = e.message;
  }
}

async function loadSource(key) {
  const data = await api(`/api/source?key=${encodeURIComponent(key)}`);
  editor.setValue(data.text);
  check();
}

async function start() {
  editor = CodeMirror.fromTextArea(document.getElementById("editor"), {mode: "yaml", lineNumbers: true, indentUnit: 2,
    tabSize: 2, extraKeys: {Tab: cm => cm.replaceSelection("  ")}});
  editor.on("change", scheduleCheck);
  const catalog = await api("/api/rulesets");
  const select = document.getElementById("start-from");
  for (const entry of catalog.rulesets) {
    const option = el("option", null, entry.key);
    option.value = entry.key;
    select.appendChild(option);
  }
  const bot = document.getElementById("bot");
  for (const b of catalog.bots) { const o = el("option", null, `bots: ${b.name}`); o.value = b.name; bot.appendChild(o); }
  bot.value = catalog.bots.some(b => b.name === "random") ? "random" : catalog.bots[0].name;
  const wanted = new URLSearchParams(location.search).get("from");  // else the catalogue's first ruleset
  if (wanted && catalog.rulesets.some(r => r.key === wanted)) select.value = wanted;
  select.addEventListener("change", () => loadSource(select.value));
  document.getElementById("play").addEventListener("click", play);
  document.getElementById("simulate").addEventListener("click", simulate);
  loadSource(select.value);
}

document.addEventListener("DOMContentLoaded", start);
