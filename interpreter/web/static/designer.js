"use strict";
// The designer: edit a ruleset or variant, see the real pipeline's diagnostics at line:col as you
// type, read the explain text, simulate bot games with the balance charts, play this version.

let editor = null;
let marked = [];
let timer = null;
let sequence = 0;
let lastCheck = null;
let running = null;  // the simulation under way: {stop: bool}
let simulateBot = null;  // the bot spec a simulation's seats default to (the server's, as rulebook simulate's)
const SIM_SECONDS = 120;   // a simulation stops after this long (the page says so)
const STORE = "rulebook.designer.";  // local storage: the text being edited per starting ruleset, and which one

function storedKey() { return localStorage.getItem(STORE + "from"); }
function keep() {
  // every edit is kept in this browser, so a reload or Back never loses it
  const key = document.getElementById("start-from").value;
  localStorage.setItem(STORE + "from", key);
  localStorage.setItem(STORE + "text:" + key, editor.getValue());
}

function waiting(node, text) {
  // a wait shown with the seconds it has taken so far; returns the function that ends it
  const started = Date.now();
  const tick = () => { node.textContent = `${text} ${Math.round((Date.now() - started) / 1000)} s`; };
  tick();
  const id = setInterval(tick, 1000);
  return () => clearInterval(id);
}

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

let checking = false;  // one check of this page at a time; an edit meanwhile is checked when it ends
let recheck = false;

async function check() {
  if (checking) {
    recheck = true;
    return;
  }
  checking = true;
  try {
    await checkNow();
  } finally {
    checking = false;
    if (recheck) {
      recheck = false;
      check();
    }
  }
}

async function checkNow() {
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
  keep();
  clearTimeout(timer);
  timer = setTimeout(check, 500);
}

function seatsFor(players, first) {
  const bot = document.getElementById("bot").value || simulateBot;
  return Array.from({length: players}, (_, i) => i === 0 && first ? first : bot);
}

async function play() {
  // the table opens in a new tab (opened at the click, so no pop-up blocker stops it); this one keeps the edit
  const error = document.getElementById("try-error");
  error.textContent = "";
  const players = Number(document.getElementById("players").value) || undefined;
  const tab = window.open("", "_blank");
  if (tab) tab.document.title = "rulebook · starting the table…";
  const done = waiting(document.getElementById("play-state"), "starting the table…");
  try {
    const table = await api("/api/tables", {source: editor.getValue(), players, seats: seatsFor(players || 2, "human"), pace: 1});
    done();
    const link = document.getElementById("table-link");
    link.href = table.seats[0].link;
    link.hidden = false;
    document.getElementById("play-state").textContent = "the table is open in a new tab";
    if (tab) tab.location.href = table.seats[0].link;
  } catch (e) {
    done();
    if (tab) tab.close();
    document.getElementById("play-state").textContent = "";
    error.textContent = e.message;
  }
}

function addUp(total, part) {
  // two parts of a run as one: rates and means weighted by their games
  if (!total) return part;
  const n = total.games + part.games;
  const mix = (a, b) => a.map((x, i) => (x * total.games + b[i] * part.games) / n);
  return Object.assign({}, part, {games: n, win_rates: mix(total.win_rates, part.win_rates),
    mean_scores: mix(total.mean_scores, part.mean_scores).map(x => Math.round(x * 100) / 100),
    mean_decisions: Math.round(mix([total.mean_decisions], [part.mean_decisions])[0] * 10) / 10});
}

async function simulate() {
  // in the background, in parts: progress after each part; stops at the games asked, the time limit, or Stop
  const error = document.getElementById("try-error");
  const summary = clear(document.getElementById("sim-summary"));
  const progress = document.getElementById("sim-progress");
  const button = document.getElementById("simulate");
  error.textContent = "";
  if (running) { running.stop = true; return; }
  const wanted = Number(document.getElementById("games").value);
  const players = Number(document.getElementById("players").value) || 2;
  const run = running = {stop: false};
  button.textContent = "Stop";
  progress.hidden = false;
  progress.max = wanted;
  progress.value = 0;
  const started = Date.now();
  let total = null, part = 5, stopped = "";
  try {
    while (!total || total.games < wanted) {
      const elapsed = (Date.now() - started) / 1000;
      if (run.stop) { stopped = "stopped"; break; }
      if (elapsed > SIM_SECONDS) { stopped = `stopped at the ${SIM_SECONDS} s limit`; break; }
      document.getElementById("sim-state").textContent = `${total ? total.games : 0} of ${wanted} games · ${Math.round(elapsed)} s`;
      const asked = Math.min(part, wanted - (total ? total.games : 0));
      const partStarted = Date.now();
      const result = await api("/api/designer/simulate", {text: editor.getValue(), players, games: asked,
        first: total ? total.games : 0, seats: seatsFor(players, null)});
      if (!result.ok) { error.textContent = result.errors.map(e => e.message).join("; "); break; }
      total = addUp(total, result);
      progress.value = total.games;
      if (Date.now() - partStarted < 8000) part = Math.min(part * 2, 50);
    }
  } catch (e) {
    error.textContent = e.message;
  }
  running = null;
  button.textContent = "Run games";
  progress.hidden = true;
  const seconds = Math.round((Date.now() - started) / 1000);
  document.getElementById("sim-state").textContent = total ? `${total.games} of ${wanted} games in ${seconds} s` +
    (stopped ? ` (${stopped})` : "") : (stopped || "");
  if (total) showSimulation(summary, total);
}

function showSimulation(summary, result) {
  clear(summary);
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
  summary.appendChild(el("p", "dim", "The charts below show the last part of the run."));
  const frame = document.getElementById("report");
  frame.hidden = false;
  frame.src = result.report;
}

async function loadSource(key, fresh) {
  // the text kept in this browser for this ruleset, unless the file itself is asked for
  const kept = fresh ? null : localStorage.getItem(STORE + "text:" + key);
  const state = document.getElementById("check-state");
  if (kept !== null) {
    editor.setValue(kept);
    state.textContent = "your edit, kept in this browser";
  } else {
    const done = waiting(state, "loading…");
    try {
      const data = await api(`/api/source?key=${encodeURIComponent(key)}`);
      editor.setValue(data.text);
    } finally { done(); }
  }
  keep();
  check();
}

async function start() {
  editor = CodeMirror.fromTextArea(document.getElementById("editor"), {mode: "yaml", lineNumbers: true, indentUnit: 2,
    tabSize: 2, screenReaderLabel: "the ruleset's YAML text", extraKeys: {Tab: cm => cm.replaceSelection("  ")}});
  editor.getScrollerElement().tabIndex = 0;  // a long text scrolls by keyboard too
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
  // the command line's default bot (rulebook simulate's), a spec that may carry options
  simulateBot = catalog.simulate_bot;
  if (!catalog.bots.some(b => b.name === simulateBot)) {
    const o = el("option", null, `bots: ${simulateBot}`); o.value = simulateBot; bot.prepend(o);
  }
  bot.value = simulateBot;
  const wanted = new URLSearchParams(location.search).get("from") || storedKey();  // else the catalogue's first
  if (wanted && catalog.rulesets.some(r => r.key === wanted)) select.value = wanted;
  select.addEventListener("change", () => loadSource(select.value));
  document.getElementById("revert").addEventListener("click", () => loadSource(select.value, true));
  document.getElementById("play").addEventListener("click", play);
  document.getElementById("simulate").addEventListener("click", simulate);
  loadSource(select.value);
}

document.addEventListener("DOMContentLoaded", start);
