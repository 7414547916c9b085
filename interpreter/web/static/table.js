"use strict";
// A table: draws any ruleset from its view, offers the staged choices of the seat, narrates.
// The page never decides anything: it sends the index of a choice, the server checks and applies it.

const tableId = decodeURIComponent(location.pathname.split("/").pop());
const token = new URLSearchParams(location.hash.slice(1)).get("seat");
let socket = null;
let last = null;        // the last state message
let travelling = null;  // the last travel message while replaying
let retry = 500;
let hosted = {};         // component id -> the zones it holds, as [zone, content, zone's full name]
let renders = 0;
let previous = null;     // the view drawn before the last one, and who was to move then
let lastMove = null;     // what the last move changed on the table: {who, moved: [{id, name, from, to}]}
const expanded = new Set(); // long rows the person opened
const LONG_ROW = 16, SHOWN_OF_LONG_ROW = 10;  // a row of more cards shows its last ones (the top)         // counts drawings (tests wait on it)

function send(command) {
  if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(command));
}

function connect() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  socket = new WebSocket(`${scheme}://${location.host}/ws/${encodeURIComponent(tableId)}`);
  socket.addEventListener("open", () => { retry = 500; socket.send(JSON.stringify({type: "hello", token})); });
  socket.addEventListener("message", event => receive(JSON.parse(event.data)));
  socket.addEventListener("close", () => {
    if (document.body.dataset.refused) return;
    setStatus("connection lost, reconnecting…");
    setTimeout(connect, retry);
    retry = Math.min(retry * 2, 8000);
  });
}

function setStatus(text, className) {
  const status = document.getElementById("status");
  status.textContent = text;
  status.className = "status " + (className || "");
}

function receive(message) {
  if (message.type === "refused") {
    document.body.dataset.refused = "1";
    setStatus(message.message, "bad");
  } else if (message.type === "notice") {
    document.getElementById("notice").textContent = message.message;
  } else if (message.type === "state") {
    last = message;
    if (!message.over) travelling = null;
    render();
  } else if (message.type === "travel") {
    travelling = message;
    render();
  }
}

// ---- drawing the view ----------------------------------------------------------------------------
function isGroup(content) {
  return content !== null && typeof content === "object" && !Array.isArray(content) &&
         !("grid" in content) && typeof content.count !== "number";
}

function cardNode(comp, targets) {
  const card = el("div", "card");
  card.dataset.id = String(comp.id);
  card.style.setProperty("--stripe", colourOf(comp));
  decorateCard(card, comp);
  const tags = Object.entries(comp).filter(([k, v]) => !["id", "name", "kind"].includes(k) && v === true);
  for (const [key] of tags) card.appendChild(el("span", "tag", label(key)));
  if (lastMove && lastMove.moved.some(m => m.id === comp.id)) card.classList.add("moved");
  for (const [zone, content, instance] of hosted[comp.id] || []) {
    if (isEmpty(content)) continue;
    const held = el("div", "held");
    held.appendChild(el("span", "held-zone", label(zone)));
    if (Array.isArray(content)) {
      for (const inner of content) held.appendChild(cardNode(inner, targets));
    } else {
      held.appendChild(el("span", "held-count", `${content.count} face down`));
      for (const inner of knownIn(instance)) held.appendChild(knownCard(inner, targets));
      if (content.top) held.appendChild(cardNode(content.top, targets));
    }
    card.appendChild(held);
  }
  if (card.dataset.explain) card.setAttribute("role", "group");
  if (card.dataset.explain) nameCard(card);
  const choice = targets.components[comp.id];
  if (choice !== undefined) makeTarget(card, choice);
  return card;
}

function makeTarget(node, choice) {
  node.classList.add("target");
  node.tabIndex = 0;
  node.setAttribute("role", "button");
  const shown = visibleText(node);
  const explained = node.dataset.explain ? ` (${node.dataset.explain})` : "";
  node.setAttribute("aria-label", shown ? `${shown}${explained}: ${choice.label}` : choice.label);
  const pick = () => send({type: "pick", index: choice.i});
  node.addEventListener("click", pick);
  node.addEventListener("keydown", e => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); pick(); } });
}

function pileNode(content, targets, instance) {  // instance: the zone's full name, as view.known gives it
  const pile = el("div", "pile");
  const back = el("div", "card back");
  back.appendChild(el("span", "count", String(content.count)));
  back.title = `${content.count} face down`;
  if (content.count === 0) back.classList.add("empty");
  pile.appendChild(back);
  for (const comp of knownIn(instance)) pile.appendChild(knownCard(comp, targets));
  if (content.top) {
    pile.appendChild(cardNode(content.top, targets));
  }
  return pile;
}

function gridNode(zoneName, rows, targets) {
  const table = el("table", "board");
  const head = el("tr");
  head.appendChild(el("th"));
  for (let c = 0; c < (rows[0] || []).length; c++) head.appendChild(el("th", null, `c${c + 1}`));
  table.appendChild(head);
  rows.forEach((row, r) => {
    const tr = el("tr");
    tr.appendChild(el("th", null, `r${r + 1}`));
    row.forEach((comp, c) => {
      const td = el("td", "cell");
      td.dataset.cell = `${zoneName}:${r}:${c}`;
      if (comp) td.appendChild(cardNode(comp, targets));
      const choice = targets.cells[`${zoneName}:${r}:${c}`];
      if (choice !== undefined) makeTarget(td, choice);
      tr.appendChild(td);
    });
    table.appendChild(tr);
  });
  return table;
}

function zoneContent(zoneName, content, targets, instance) {
  if (Array.isArray(content)) {
    // the view lists a zone from the bottom; the cards nearest the top stay shown in a long row
    const row = el("div", "cards");
    if (!content.length) row.appendChild(el("span", "dim", "empty"));
    const topFirst = isTopFirst(zoneName);
    const folded = content.length > LONG_ROW && !expanded.has(zoneName) ? content.length - SHOWN_OF_LONG_ROW : 0;
    let hidden = 0;
    (topFirst ? content.slice().reverse() : content).forEach((comp, i) => {
      const far = topFirst ? i >= content.length - folded : i < folded;
      if (far && targets.components[comp.id] === undefined) { hidden++; return; }
      row.appendChild(cardNode(comp, targets));
    });
    if (hidden) {
      const more = el("button", "more", `+${hidden} more`);
      more.addEventListener("click", () => { expanded.add(zoneName); render(); });
      row.insertBefore(more, topFirst ? null : row.firstChild);
    }
    return row;
  }
  if (content && typeof content === "object" && "grid" in content) return gridNode(zoneName, content.grid, targets);
  if (content && typeof content.count === "number") return pileNode(content, targets, instance);
  return el("span", "dim", formatValue(content));
}

function zoneNode(zoneName, label, content, targets, instance) {  // label: the zone's words
  const box = el("div", "zone");
  box.dataset.zone = zoneName;
  const count = Array.isArray(content) ? content.length : (content && typeof content.count === "number" ? content.count : null);
  const title = el("h3", null, label);
  if (count !== null) title.appendChild(el("span", "zone-count", ` ${count}`));
  box.appendChild(title);
  box.appendChild(zoneContent(zoneName, content, targets, instance));
  return box;
}

function varsNode(vars) {
  const list = el("div", "vars");
  const counters = countersFor(Object.keys(vars));
  for (const [name, value] of Object.entries(vars)) {
    if (isHidden(name)) continue;
    if (counters[name]) { list.appendChild(counterChip(counters[name], value)); continue; }
    const chip = el("span", "var");
    chip.appendChild(el("span", "var-name", label(name)));
    chip.appendChild(el("span", "var-value", valueWords(value)));
    list.appendChild(chip);
  }
  return list;
}

function targetsOf(message) {
  const targets = {components: {}, cells: {}, seats: {}};
  for (const choice of (message && message.choices) || []) {
    if (choice.component !== undefined) targets.components[choice.component] = choice;
    if (choice.cell) targets.cells[choice.cell.join(":")] = choice;
    if (choice.seat !== undefined) targets.seats[choice.seat] = choice;
  }
  return targets;
}

function isEmpty(content) {
  if (Array.isArray(content)) return content.length === 0;
  return content !== null && typeof content === "object" && content.count === 0 && !content.top && !("grid" in content);
}

// Zones that belong to a component (a key ending in "#id") are drawn on that component's card.
const HOSTED = /#(\d+)$/;

function zonesInto(container, entries, targets) {
  const empty = [];
  for (const [zone, words, content, instance] of entries) {
    if (isHidden(zone)) continue;
    if (isEmpty(content)) empty.push(words);
    else container.appendChild(zoneNode(zone, words, content, targets, instance));
  }
  if (empty.length) container.appendChild(el("div", "empty-zones", `empty: ${empty.join(", ")}`));
}

function drawView(view, seats, targets, scores, offers) {
  const shared = clear(document.getElementById("shared"));
  const names = view.players.map(p => p.name);
  const perPlayer = Object.fromEntries(names.map(n => [n, []]));
  const sharedEntries = [];
  hosted = {};
  setKnown(view);
  for (const [zone, content] of Object.entries(view.zones)) {
    if (!isGroup(content)) { sharedEntries.push([zone, label(zone), content, zone]); continue; }
    for (const [key, sub] of Object.entries(content)) {
      const host = HOSTED.exec(key), instance = `${zone}[${key}]`;
      if (key in perPlayer) perPlayer[key].push([zone, label(zone), sub, instance]);
      else if (host) (hosted[host[1]] = hosted[host[1]] || []).push([zone, sub, instance]);
      else sharedEntries.push([zone, `${label(zone)} · ${valueWords(key)}`, sub, instance]);
    }
  }
  sharedEntries.sort((a, b) => { const [pa, ia] = placeOf(a[0]), [pb, ib] = placeOf(b[0]); return pa - pb || ia - ib; });
  if (lastMove) shared.appendChild(lastMoveNode(lastMove));
  if (offers && offers.length) shared.appendChild(offersNode(offers, names));
  for (const track of display.tracks || []) shared.appendChild(trackNode(track, view));
  zonesInto(shared, sharedEntries, targets);
  if (Object.keys(view.vars).some(name => !isHidden(name))) {
    const box = el("div", "zone vars-zone");
    box.appendChild(el("h3", null, "Table"));
    box.appendChild(varsNode(view.vars));
    shared.appendChild(box);
  }
  const players = clear(document.getElementById("players"));
  const deciding = view.decision ? view.decision.player : null;
  view.players.forEach((player, seat) => {
    const box = el("section", "player");
    box.dataset.seat = String(seat);
    const colour = seatColour(seat);
    if (colour) box.style.setProperty("--seat", colour);
    if (colour) box.classList.add("coloured");
    if (player.name === view.viewer) box.classList.add("me");
    if (player.name === deciding) box.classList.add("turn");
    const head = el("h2");
    head.appendChild(el("span", "player-name", valueWords(player.name)));
    if (seats && seats[seat]) head.appendChild(el("span", "seat-kind", seats[seat].spec === "human" ? "person" : `bot ${seats[seat].spec}`));
    if (player.name === view.viewer) head.appendChild(el("span", "you", "you"));
    if (player.name === deciding) head.appendChild(el("span", "turn-badge", "to move"));
    if (scores) head.appendChild(el("span", "score", `score ${scores[seat]}`));
    box.appendChild(head);
    const choice = targets.seats[seat];
    if (choice !== undefined) makeTarget(head, choice);
    const own = Object.fromEntries(Object.entries(player).filter(([k]) => k !== "name"));
    if (Object.keys(own).length) box.appendChild(varsNode(own));
    zonesInto(box, perPlayer[player.name], targets);
    players.appendChild(box);
  });
  const elsewhere = knownNotDrawn();
  if (elsewhere.length) shared.appendChild(knownElsewhereNode(elsewhere, targets));
}

// ---- the last move and the offers ----------------------------------------------------------------
function locations(view) {
  // component id -> {place, name}: where each component the view shows lies
  const where = {};
  const put = (comp, place) => { if (comp && typeof comp.id === "number") where[comp.id] = {place, name: comp.name}; };
  const walk = (content, place) => {
    if (Array.isArray(content)) content.forEach(c => put(c, place));
    else if (content && content.grid) content.grid.forEach((row, r) => row.forEach((c, col) => put(c, `${place} r${r + 1}c${col + 1}`)));
    else if (content && typeof content.count === "number" && content.top) put(content.top, place);
  };
  for (const [zone, content] of Object.entries(view.zones)) {
    if (isHidden(zone)) continue;
    if (!isGroup(content)) { walk(content, label(zone)); continue; }
    for (const [key, sub] of Object.entries(content)) {
      const owner = HOSTED.test(key) ? key.replace(HOSTED, "").trim() : valueWords(key);
      walk(sub, `${label(zone)} of ${owner}`);
    }
  }
  return where;
}

function trackPositions(view) {
  const out = {};
  for (const track of display.tracks || []) {
    for (const marker of trackMarkers(track, view)) out[`${track.label || ""}:${marker.name}`] = marker;
  }
  return out;
}

function noteLastMove(message) {
  const now = {moves: message.moves, view: message.view, who: message.view.decision ? message.view.decision.player : null};
  if (previous && message.moves < previous.moves) lastMove = null;
  if (previous && message.moves > previous.moves) {
    const before = locations(previous.view), after = locations(message.view);
    const moved = [];
    for (const [id, there] of Object.entries(after)) {
      const was = before[id];
      if (!was || was.place !== there.place) moved.push({id: Number(id), name: there.name, from: was ? was.place : "unseen", to: there.place});
    }
    for (const [id, was] of Object.entries(before)) {
      if (!after[id]) moved.push({id: Number(id), name: was.name, from: was.place, to: "unseen"});
    }
    const beforeTrack = trackPositions(previous.view);
    for (const [key, marker] of Object.entries(trackPositions(message.view))) {
      const was = beforeTrack[key];
      if (was && was.at !== marker.at) moved.push({id: marker.id, name: marker.name, from: `field ${was.at}`, to: `field ${marker.at}`});
    }
    lastMove = {who: message.moves === previous.moves + 1 ? previous.who : null, moved: moved.slice(0, 8)};
  }
  previous = now;
}

function lastMoveNode(move) {
  const box = el("div", "zone last-move");
  box.setAttribute("aria-live", "polite");
  box.appendChild(el("h3", null, move.who ? `Last move: ${valueWords(move.who)}` : "Last moves"));
  const list = el("ul", "moves-list");
  if (!move.moved.length) list.appendChild(el("li", "dim", "nothing moved on the table"));
  for (const m of move.moved) {
    const item = el("li");
    item.appendChild(el("strong", null, m.name));
    item.appendChild(document.createTextNode(` ${m.from} → ${m.to}`));
    list.appendChild(item);
  }
  box.appendChild(list);
  return box;
}

function offersNode(offers, names) {
  const box = el("div", "zone offers");
  box.appendChild(el("h3", null, "Trade offers"));
  const list = el("ul", "offer-list");
  for (const offer of offers) {
    const item = el("li", "offer");
    const who = offer.from === null || offer.from === undefined ? "An offer" : `${valueWords(names[offer.from])} offers`;
    item.appendChild(document.createTextNode(`${who} `));
    item.appendChild(el("strong", null, offer.name));
    item.appendChild(document.createTextNode(` to ${offer.to === last.you ? "you" : valueWords(names[offer.to])}`));
    list.appendChild(item);
  }
  box.appendChild(list);
  return box;
}

const feed = {lines: [], fresh: 0, drawn: false}; // drawn: a first message came (its lines are not new)
function freshLines(message) {
  const lines = message.narration;
  if (!(lines.length === feed.lines.length && lines.every((line, i) => line === feed.lines[i]))) {
    // the feed is the last lines of the game: find where the lines seen before end in it
    const seen = feed.lines;
    let kept = 0;
    for (let drop = 0; drop < seen.length; drop++) {
      const rest = seen.length - drop;
      if (rest <= lines.length && seen.slice(drop).every((line, i) => line === lines[i])) { kept = rest; break; }
    }
    feed.fresh = feed.drawn ? lines.length - kept : 0;
    feed.lines = lines.slice();
  }
  feed.drawn = true;  // also when the first message had no lines: the next ones are new
  return feed.fresh;
}

// ---- the panels ----------------------------------------------------------------------------------
function drawDecision(message) {
  document.getElementById("decision-panel").hidden = message.over;
  const choices = clear(document.getElementById("choices"));
  const chosen = clear(document.getElementById("chosen"));
  const title = document.getElementById("decision-title");
  const back = document.getElementById("back");
  const decision = message.view.decision;
  back.hidden = !message.can_go_back;
  if (message.over) {
    title.textContent = "Game over";
    return;
  }
  if (!message.choices) {
    title.textContent = decision ? `Waiting for ${decision.player}` : "Waiting";
    return;
  }
  title.textContent = decision && decision.prompt ? decision.prompt : "Your move";
  for (const label of message.chosen || []) chosen.appendChild(el("span", "crumb", label));
  if (message.stage) chosen.appendChild(el("span", "stage-question", `${label(message.stage)}?`));
  for (const choice of message.choices) {
    const button = el("button", "choice" + (choice.complete ? " complete" : ""), choice.label);
    button.dataset.index = String(choice.i);
    button.addEventListener("click", () => send({type: "pick", index: choice.i}));
    choices.appendChild(button);
  }
}

function drawResult(message) {
  const box = clear(document.getElementById("result"));
  box.hidden = !message.over;
  if (!message.over) return;
  const names = message.view.players.map(p => p.name);
  const winners = message.result.winners.map(w => names[w]);
  box.appendChild(el("h2", null, winners.length === 1 ? `${winners[0]} wins` : `Shared win: ${winners.join(", ")}`));
  const list = el("ul", "scores");
  names.forEach((name, seat) => list.appendChild(el("li", message.result.winners.includes(seat) ? "winner" : "", `${name}: ${message.result.scores[seat]}`)));
  box.appendChild(list);
  if (message.end_reason) box.appendChild(el("p", "dim", message.end_reason));
}

function drawUndo(message) {
  const panel = document.getElementById("undo-panel");
  const undo = message.undo;
  const mine = message.you !== null && message.seats[message.you].spec === "human";
  document.getElementById("undo").hidden = !(mine && message.can_undo && !undo);
  panel.hidden = !undo;
  if (!undo) return;
  const names = message.view.players.map(p => p.name);
  const asker = undo.by === message.you;
  document.getElementById("undo-text").textContent = asker ? "You asked to take back your last move; waiting for the others to agree."
    : `${names[undo.by]} asks to take back their last move.`;
  const answer = !asker && mine && !undo.agreed.includes(message.you);
  document.getElementById("undo-agree").hidden = !answer;
  document.getElementById("undo-decline").hidden = !answer;
}

function drawNarration(lines, fresh) {
  // the lines of the newest step stand out
  const list = clear(document.getElementById("narration"));
  lines.forEach((line, i) => list.appendChild(el("li", i >= lines.length - fresh ? "new" : null, line)));
  list.scrollTop = list.scrollHeight;
}

function drawTravel(message) {
  const panel = document.getElementById("travel");
  panel.hidden = !message.over;
  if (!message.over) return;
  const slider = document.getElementById("travel-move");
  slider.max = String(message.moves);
  const seat = document.getElementById("travel-seat");
  if (!seat.options.length) {
    const spectator = el("option", null, "spectator");
    spectator.value = "";
    seat.appendChild(spectator);
    message.view.players.forEach((p, i) => { const o = el("option", null, p.name); o.value = String(i); seat.appendChild(o); });
    seat.value = message.you === null ? "" : String(message.you);
  }
  if (!travelling) slider.value = String(message.moves);
}

function travelTo(move) {
  if (!last || !last.over) return;
  const seatText = document.getElementById("travel-seat").value;
  move = Math.max(0, Math.min(last.moves, move));
  document.getElementById("travel-move").value = String(move);
  send({type: "travel", move, seat: seatText === "" ? null : Number(seatText)});
}

function render() {
  if (!last) return;
  const message = last;
  setDisplay(message.display);
  noteLastMove(message);
  document.title = (message.choices && !message.over ? "● Your turn · " : "") + `${message.game} · rulebook`;
  document.getElementById("game-title").textContent = message.game;
  const names = message.view.players.map(p => p.name);
  document.getElementById("who").textContent = message.you === null ? "spectator" : `playing ${names[message.you]}`;
  const banner = document.getElementById("replay-banner");
  if (travelling) {
    const who = travelling.seat === null ? "a spectator" : names[travelling.seat];
    banner.hidden = false;
    banner.textContent = `Replay: after move ${travelling.move} of ${travelling.moves}, as ${who} saw it`;
    document.getElementById("travel-where").textContent = `move ${travelling.move} / ${travelling.moves}`;
    drawView(travelling.view, message.seats, targetsOf(null), null, null);
    drawNarration(travelling.narration, 0);
  } else {
    banner.hidden = true;
    drawView(message.view, message.seats, targetsOf(message), message.over ? message.result.scores : null, message.offers);
    drawNarration(message.narration, freshLines(message));
  }
  drawDecision(message);
  drawResult(message);
  drawUndo(message);
  drawTravel(message);
  const mine = message.you !== null;
  document.getElementById("pace-field").hidden = !mine || !message.seats.some(s => s.spec !== "human") || message.over;
  const alone = mine && message.seats.filter(s => s.spec === "human").length === 1;
  document.getElementById("save-record").hidden = !(message.over || alone);
  document.getElementById("controls").hidden = document.getElementById("pace-field").hidden
    && document.getElementById("undo").hidden && document.getElementById("save-record").hidden;
  const pace = document.getElementById("pace");
  if (![...pace.options].some(o => Number(o.value) === message.pace)) {
    const option = el("option", null, `${message.pace} s`);
    option.value = String(message.pace);
    pace.appendChild(option);
  }
  pace.value = [...pace.options].find(o => Number(o.value) === message.pace).value;
  if (message.error) setStatus(message.error, "bad");
  else if (message.over) setStatus("The game is over.", "over");
  else if (message.choices) setStatus("Your move.", "mine");
  else setStatus(message.view.decision ? `${message.view.decision.player} to move` : "", "");
  document.getElementById("notice").textContent = "";
  document.body.dataset.moves = String(message.moves);
  document.body.dataset.renders = String(++renders);
  document.body.dataset.state = message.over ? "over" : (message.choices ? "mine" : "waiting");
}

async function saveRecord() {
  // the game record (the `rulebook play --log` format) as a file: POST with the seat token (kept out of URLs)
  const response = await fetch(`/api/tables/${encodeURIComponent(tableId)}/record`, {
    method: "POST", headers: {"content-type": "application/json"}, body: JSON.stringify({token})});
  if (!response.ok) {
    const problem = await response.json().catch(() => ({}));
    document.getElementById("notice").textContent = problem.error || "the game record cannot be saved now";
    return;
  }
  const name = (response.headers.get("content-disposition") || "").match(/filename="([^"]+)"/);
  const link = document.createElement("a");
  link.href = URL.createObjectURL(await response.blob());
  link.download = name ? name[1] : "game.json";
  document.body.appendChild(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(link.href), 1000);
}

function start() {
  document.getElementById("save-record").addEventListener("click", saveRecord);
  document.getElementById("back").addEventListener("click", () => send({type: "back"}));
  document.getElementById("undo").addEventListener("click", () => send({type: "undo"}));
  document.getElementById("undo-agree").addEventListener("click", () => send({type: "undo_answer", agree: true}));
  document.getElementById("undo-decline").addEventListener("click", () => send({type: "undo_answer", agree: false}));
  document.getElementById("pace").addEventListener("change", e => send({type: "pace", seconds: Number(e.target.value)}));
  const slider = document.getElementById("travel-move");
  slider.addEventListener("input", () => travelTo(Number(slider.value)));
  document.getElementById("travel-first").addEventListener("click", () => travelTo(0));
  document.getElementById("travel-prev").addEventListener("click", () => travelTo(Number(slider.value) - 1));
  document.getElementById("travel-next").addEventListener("click", () => travelTo(Number(slider.value) + 1));
  document.getElementById("travel-last").addEventListener("click", () => { travelling = null; render(); });
  document.getElementById("travel-seat").addEventListener("change", () => travelTo(Number(slider.value)));
  connect();
}

document.addEventListener("DOMContentLoaded", start);
