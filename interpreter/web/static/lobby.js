"use strict";
// The lobby: choose a ruleset or variant, players, parameters and seats; create a table.

let catalog = {rulesets: [], bots: []};
let declaredBot = null;  // the ruleset's bots: default: ("name:key=value,..."), the bot seats start with

function currentEntry() {
  const key = document.getElementById("ruleset").value;
  return catalog.rulesets.find(r => r.key === key);
}

function fillRulesets() {
  const select = clear(document.getElementById("ruleset"));
  const groups = {games: el("optgroup"), variants: el("optgroup")};
  groups.games.label = "Games";
  groups.variants.label = "Variants";
  for (const entry of catalog.rulesets) {
    if (entry.error) continue;
    const option = el("option", null, entry.name);
    option.title = entry.key;
    option.value = entry.key;
    groups[entry.variant ? "variants" : "games"].appendChild(option);
  }
  select.appendChild(groups.games);
  if (groups.variants.children.length) select.appendChild(groups.variants);
  // a game of the top folder (the seed games) first; the classics and examples live in subfolders
  const seed = catalog.rulesets.find(r => !r.error && !r.variant && !r.key.includes("/"));
  if (seed) select.value = seed.key;
  select.addEventListener("change", fillGame);
  fillGame();
}

async function fillGame() {
  const listed = currentEntry();
  if (!listed) return;
  document.getElementById("about").textContent = listed.about || "";
  document.getElementById("create").disabled = true;
  const entry = await api(`/api/ruleset?key=${encodeURIComponent(listed.key)}`);
  if (entry.key !== document.getElementById("ruleset").value) return;
  document.getElementById("create").disabled = !!entry.error;
  document.getElementById("create-error").textContent = entry.error || "";
  if (entry.error) return;
  const players = clear(document.getElementById("players"));
  for (let n = entry.min_players; n <= entry.max_players; n++) {
    const option = el("option", null, String(n));
    option.value = String(n);
    if (n === entry.players) option.selected = true;
    players.appendChild(option);
  }
  players.onchange = fillSeats;
  declaredBot = entry.bot_limit ? null : entry.bot || null;
  if (entry.bot_limit) document.getElementById("create-error").textContent = `bots: default: ${entry.bot_limit}`;
  const params = clear(document.getElementById("params"));
  if (entry.params.length) params.appendChild(el("h2", null, "Parameters"));
  for (const row of entry.params) {
    const field = el("label", "field param");
    field.appendChild(el("span", null, row.name));
    let input;
    if (row.type === "bool") {
      input = el("input");
      input.type = "checkbox";
      input.checked = row.value === true;
    } else if (row.type === "choice") {
      input = el("select");
      for (const choice of row.allowed.split(", ")) {
        const option = el("option", null, choice);
        option.value = choice;
        if (choice === row.value) option.selected = true;
        input.appendChild(option);
      }
    } else {
      input = el("input");
      input.type = row.type === "int" ? "number" : "text";
      input.value = String(row.value);
    }
    input.dataset.param = row.name;
    input.dataset.kind = row.type;
    field.appendChild(input);
    field.appendChild(el("small", "description", row.description));
    params.appendChild(field);
  }
  fillSeats();
}

function fillSeats() {
  const count = Number(document.getElementById("players").value);
  const seats = clear(document.getElementById("seats"));
  for (let seat = 0; seat < count; seat++) {
    const row = el("div", "seat-row");
    row.appendChild(el("span", "seat-label", `Seat ${seat + 1}`));
    const select = el("select");
    select.className = "seat-kind";
    select.setAttribute("aria-label", `Seat ${seat + 1}: a person or a bot`);
    for (const kind of ["human"].concat(catalog.bots.map(b => b.name))) {
      const option = el("option", null, kind === "human" ? "person" : `bot: ${kind}`);
      option.value = kind;
      select.appendChild(option);
    }
    const [botName, ...botOptions] = (declaredBot || "").split(":");
    const declared = catalog.bots.some(b => b.name === botName);
    select.value = seat === 0 ? "human" : declared ? botName
      : (catalog.bots.some(b => b.name === "greedy") ? "greedy" : "random");
    const options = el("input", "seat-options");
    if (seat > 0 && declared) options.value = botOptions.join(":");
    options.placeholder = "bot options, e.g. iterations=200";
    options.setAttribute("aria-label", `Seat ${seat + 1}: bot options`);
    row.appendChild(select);
    row.appendChild(options);
    seats.appendChild(row);
  }
}

function collect() {
  const params = {};
  for (const input of document.querySelectorAll("#params [data-param]")) {
    params[input.dataset.param] = input.dataset.kind === "bool" ? input.checked : input.value;
  }
  const seats = [];
  for (const row of document.querySelectorAll("#seats .seat-row")) {
    const kind = row.querySelector(".seat-kind").value;
    const options = row.querySelector(".seat-options").value.trim();
    seats.push(kind === "human" || !options ? kind : `${kind}:${options}`);
  }
  return {ruleset: document.getElementById("ruleset").value, players: Number(document.getElementById("players").value),
          params, seats, pace: Number(document.getElementById("pace").value)};
}

function showLinks(table) {
  document.getElementById("created").hidden = false;
  const links = clear(document.getElementById("links"));
  for (const seat of table.seats) {
    const item = el("li");
    item.appendChild(el("span", "seat-label", `${seat.name}`));
    if (seat.link) {
      const a = el("a", "seat-link", `seat link for ${seat.name}`);
      a.href = seat.link;
      a.target = "_blank";
      item.appendChild(a);
    } else {
      item.appendChild(el("span", "bot", `bot ${seat.spec}`));
    }
    links.appendChild(item);
  }
  const item = el("li");
  item.appendChild(el("span", "seat-label", "spectators"));
  const a = el("a", "spectator-link", "spectator link");
  a.href = table.spectator;
  a.target = "_blank";
  item.appendChild(a);
  links.appendChild(item);
  const created = document.getElementById("created");
  created.scrollIntoView({block: "start"});
  const first = created.querySelector("a");
  if (first) first.focus({preventScroll: true});
}

async function create() {
  const error = document.getElementById("create-error");
  error.textContent = "";
  try {
    const table = await api("/api/tables", collect());
    showLinks(table);
    listTables();
  } catch (e) {
    error.textContent = e.message;
  }
}

async function continueRecord(event) {
  // a game record (rulebook play --log, or saved from a table) continued at a new table, its seats as recorded
  const error = document.getElementById("record-error");
  error.textContent = "";
  const file = event.target.files[0];
  if (!file) return;
  try {
    let record;
    try { record = JSON.parse(await file.text()); } catch (e) { throw new Error("this file is not a game record (not JSON)"); }
    if (Array.isArray(record)) {
      if (record.length !== 1) throw new Error(`this file holds ${record.length} games; choose the record of one game`);
      record = record[0];
    }
    const seats = record && Array.isArray(record.seats) ? record.seats : [];
    const table = await api("/api/tables", {record, seats, pace: Number(document.getElementById("pace").value)});
    showLinks(table);
    listTables();
  } catch (e) {
    error.textContent = e.message;
  }
  event.target.value = "";
}

async function listTables() {
  const list = clear(document.getElementById("tables"));
  const data = await api("/api/tables");
  if (!data.tables.length) list.appendChild(el("li", "dim", "no tables yet"));
  for (const table of data.tables) {
    const item = el("li");
    if (table.damaged) {  // a save file the server cannot use: listed with the reason, not opened
      item.appendChild(el("span", "dim", `${table.id} · damaged: ${table.damaged}`));
      list.appendChild(item);
      continue;
    }
    const a = el("a", null, `${table.game}`);
    a.href = `/table/${table.id}`;
    item.appendChild(a);
    const ended = table.ended ? ` · ${table.ended}` : "";
    item.appendChild(el("span", "dim", ` · ${table.seats.join(", ")} · ${table.moves} moves${ended}`));
    list.appendChild(item);
  }
}

async function start() {
  catalog = await api("/api/rulesets");
  fillRulesets();
  document.getElementById("create").addEventListener("click", create);
  document.getElementById("record-file").addEventListener("change", continueRecord);
  listTables();
}

document.addEventListener("DOMContentLoaded", start);
