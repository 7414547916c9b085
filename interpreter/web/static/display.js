"use strict";
// How a game looks: the ruleset's `display:` section (static data sent with every state) turned
// into words, colours, faces, tracks and counters.  Nothing here knows any game: a ruleset without
// the section is drawn from its view alone, as before.

let display = {};  // the ruleset's display section, or {}

// The built-in symbols (dsl/display.py's SYMBOLS), as characters of the fonts every system has.
const SYMBOL_CHARS = {knight: "♞", die: "⚄", chip: "⛁", coin: "◉", money: "$", card: "▭", tile: "▦", gun: "⚔",
  bullet: "•", house: "⌂", star: "★", crown: "♛", flag: "⚑", heart: "♥", skull: "☠", person: "♟", key: "⚷",
  hat: "⛃", newspaper: "▤", medkit: "✚", bottle: "⚱", cigar: "♨", dog: "⚘", badge: "✦"};
const SHORT_NAME = 22;  // longer names are shortened on a card, the whole name on hover
const SHORT_TEXT = 40;  // and a face's longer text (the whole of it in the card's explanation)

function setDisplay(section) {
  display = section || {};
  const lang = display.lang || "en";
  if (document.documentElement.lang !== lang) document.documentElement.lang = lang;
}

function label(name) {
  const labels = display.labels || {};
  if (Object.prototype.hasOwnProperty.call(labels, name)) return labels[name];
  const words = titleCase(name);
  return words.charAt(0).toUpperCase() + words.slice(1);
}

function valueWords(value) {
  const values = display.values || {};
  if (typeof value === "string" && Object.prototype.hasOwnProperty.call(values, value)) return values[value];
  return formatValue(value);
}

function isTopFirst(zone) {
  // a zone drawn from the top down: the next component taken, the newest one first
  return (display.top_first || []).includes(zone);
}

function isHidden(name) {
  return (display.hide || []).includes(name);
}

function faceOf(comp) {
  return (display.faces || {})[comp.kind] || null;
}

function colourWord(word) {
  const colours = display.colours || {};
  if (Object.prototype.hasOwnProperty.call(colours, word)) return colours[word];
  const lower = String(word).toLowerCase();
  return COLOUR_WORDS[lower] || hueOf(word);
}

function colourOf(comp) {
  const face = faceOf(comp);
  if (face && face.colour && comp[face.colour] !== undefined) return colourWord(comp[face.colour]);
  return componentColour(comp);
}

function seatColour(seat) {
  const colours = display.player_colours || [];
  return colours[seat] ? colourWord(colours[seat]) : null;
}

function symbolOf(comp) {
  const face = faceOf(comp);
  if (!face) return null;
  if (face.symbol_of && comp[face.symbol_of] !== undefined) {
    const name = (display.symbols || {})[comp[face.symbol_of]];
    if (name) return {char: SYMBOL_CHARS[name], title: String(comp[face.symbol_of])};
  }
  return face.symbol ? {char: SYMBOL_CHARS[face.symbol], title: label(face.symbol)} : null;
}

function explanation(comp) {
  const face = faceOf(comp);
  if (!face || !face.explain) return null;
  return face.explain.replace(/\{(\w+)\}/g, (whole, key) => comp[key] === undefined ? "?" : valueWords(comp[key]));
}

function shortened(text, limit) {
  // whole words only: never a word cut in the middle
  text = String(text);
  if (text.length <= limit) return text;
  const words = text.split(" ");
  let out = "";
  for (const word of words) {
    if ((out ? out.length + 1 : 0) + word.length > limit - 1) break;
    out = out ? `${out} ${word}` : word;
  }
  return (out || words[0]) + "…";
}

// The face of a card: its name (shortened, whole on hover), a symbol, a large value, a short label.
function decorateCard(card, comp) {
  const face = faceOf(comp);
  const name = comp.name === undefined ? "" : String(comp.name);
  const nameNode = el("span", "card-name", shortened(name, SHORT_NAME));
  if (face) {
    const head = el("div", "face");
    const symbol = symbolOf(comp);
    if (symbol && symbol.char) {
      const mark = el("span", "face-symbol", symbol.char);
      mark.title = symbol.title;
      mark.setAttribute("aria-hidden", "true");
      head.appendChild(mark);
    }
    if (face.value && comp[face.value] !== undefined) head.appendChild(el("span", "face-value", valueWords(comp[face.value])));
    if (face.label && comp[face.label] !== undefined) head.appendChild(el("span", "face-label", valueWords(comp[face.label])));
    card.appendChild(head);
  }
  card.appendChild(nameNode);
  if (face && face.text && comp[face.text] !== undefined) card.appendChild(el("span", "face-text", shortened(valueWords(comp[face.text]), SHORT_TEXT)));
  if (face && face.corner && comp[face.corner] !== undefined) {
    card.appendChild(el("span", "face-corner", `${label(face.corner)} ${valueWords(comp[face.corner])}`));
  }
  const explained = explanation(comp);
  const details = Object.entries(comp).filter(([k]) => !["id", "name", "kind"].includes(k))
    .map(([k, v]) => `${label(k)}: ${valueWords(v)}`);
  card.title = [name, explained].concat(explained ? [] : details).filter(Boolean).join("\n");
  if (explained) card.dataset.explain = explained;
}

function visibleText(node) {
  // the text a person sees in a node (what its accessible name must start with)
  const copy = node.cloneNode(true);
  for (const hidden of copy.querySelectorAll("[aria-hidden=true]")) hidden.remove();
  return copy.textContent.replace(/\s+/g, " ").trim();
}

function nameCard(card) {
  // a card's accessible name: what it shows, then its one-line explanation
  const shown = visibleText(card);
  card.setAttribute("aria-label", card.dataset.explain ? `${shown}: ${card.dataset.explain}` : shown);
}

// ---- tracks and counters -------------------------------------------------------------------------
function trackMarkers(track, view) {
  // [label, position, colour] for each marker the track draws, from what the view carries
  if (track.zone) {
    const content = view.zones[track.zone];
    if (!Array.isArray(content)) return [];
    return content.filter(c => typeof c[track.attribute] === "number")
      .map(c => ({name: String(c.name), at: c[track.attribute], colour: colourOf(c), id: c.id}));
  }
  if (track.player_variable) {
    return view.players.map((p, seat) => ({name: p.name, at: p[track.player_variable], colour: seatColour(seat) || hueOf(p.name)}))
      .filter(m => typeof m.at === "number");
  }
  const value = view.vars[track.variable];
  return typeof value === "number" ? [{name: label(track.variable), at: value, colour: "#1d4ed8"}] : [];
}

function trackNode(track, view) {
  const box = el("div", "zone track-zone");
  const name = track.label || label(track.zone || track.variable || track.player_variable);
  box.appendChild(el("h3", null, name));
  const start = track.start || 0;
  const end = Math.max(track.fields || 0, start + 1);
  const finish = track.finish === undefined || track.finish === null ? null : track.finish;
  const span = end - start;
  const lanes = el("div", "track");
  lanes.setAttribute("role", "list");
  lanes.setAttribute("aria-label", `${name}: fields ${start} to ${end}` + (finish !== null ? `, finish at ${finish}` : ""));
  const where = at => `${Math.max(0, Math.min(100, (Math.min(at, end) - start) / span * 100))}%`;
  const symbol = track.symbol ? SYMBOL_CHARS[track.symbol] : "●";
  for (const marker of trackMarkers(track, view)) {
    const lane = el("div", "lane");
    lane.setAttribute("role", "listitem");
    lane.setAttribute("aria-label", `${marker.name}: field ${marker.at}` + (finish !== null && marker.at >= finish ? ", finished" : ""));
    const title = el("span", "lane-name", shortened(marker.name, 16));
    title.title = marker.name;
    lane.appendChild(title);
    const path = el("div", "lane-path");
    for (let tick = start; tick <= end; tick += Math.max(1, Math.round(span / 6 / 5) * 5 || 1)) {
      const mark = el("span", "tick", String(tick));
      mark.style.left = where(tick);
      path.appendChild(mark);
    }
    if (finish !== null) {
      const line = el("span", "finish");
      line.style.left = where(finish);
      line.title = `finish: field ${finish}`;
      path.appendChild(line);
    }
    const token = el("span", "token", `${symbol} ${marker.at}`);
    token.style.left = where(marker.at);
    token.style.setProperty("--token", marker.colour);
    if (marker.id !== undefined) token.dataset.id = String(marker.id);
    if (finish !== null && marker.at >= finish) token.classList.add("finished");
    path.appendChild(token);
    lane.appendChild(path);
    lanes.appendChild(lane);
  }
  box.appendChild(lanes);
  if (finish !== null) box.appendChild(el("p", "track-legend", `⚑ finish line at field ${finish}`));
  return box;
}

function counterValue(counter, value) {
  const text = typeof value === "number" ? value.toLocaleString("en") : valueWords(value);
  return counter.unit ? `${text} ${counter.unit}` : text;
}

function counterChip(counter, value) {
  const chip = el("span", "var counter");
  const symbol = counter.symbol ? SYMBOL_CHARS[counter.symbol] + " " : "";
  chip.appendChild(el("span", "var-name", symbol + (counter.label || label(counter.variable || counter.player_variable))));
  chip.appendChild(el("span", "var-value", counterValue(counter, value)));
  return chip;
}

function countersFor(names) {
  // the counters (by the variable they show) among `names`
  const out = {};
  for (const counter of display.counters || []) {
    const name = counter.variable || counter.player_variable;
    if (names.includes(name)) out[name] = counter;
  }
  return out;
}

// Shared zones in the order the ruleset places them: top, middle, then any other, then bottom.
function placeOf(zone) {
  const layout = display.layout || {};
  for (const [i, place] of ["top", "middle", "bottom"].entries()) {
    const at = (layout[place] || []).indexOf(zone);
    if (at >= 0) return [i === 2 ? 3 : i, at];
  }
  return [2, 0];
}

// ---- what the seat knows but cannot see (the view's `known`: shown it by `show()`, or saw it go
// where it cannot see) -------------------------------------------------------------------------------
// Each such card is drawn face up, marked "you know", on the face-down pile of the zone it lies in
// (view.known names the zone in full: "hand[P2]", "deck", "loot[Card #5]"); one whose zone is not
// drawn is listed apart, with where it lies.
let knownByZone = {};   // the zone's full name -> the known cards lying there
let knownDrawn = null;  // ids drawn so far in this drawing

function setKnown(view) {
  knownByZone = {};
  knownDrawn = new Set();
  for (const comp of view.known || []) (knownByZone[comp.zone] = knownByZone[comp.zone] || []).push(comp);
}

function knownIn(zone) {
  return zone === undefined ? [] : knownByZone[zone] || [];
}

function knownCard(comp, targets) {
  knownDrawn.add(comp.id);
  const shown = Object.fromEntries(Object.entries(comp).filter(([k]) => k !== "zone"));
  const card = cardNode(shown, targets);
  card.classList.add("known");
  card.appendChild(el("span", "tag known-tag", "you know"));
  card.title = `You know this card; the others see it face down.\n${card.title}`;
  return card;
}

function knownNotDrawn() {
  return Object.values(knownByZone).flat().filter(comp => !knownDrawn.has(comp.id));
}

function knownElsewhereNode(comps, targets) {
  const box = el("div", "zone known-zone");
  box.appendChild(el("h3", null, "You know"));
  const row = el("div", "cards");
  for (const comp of comps) {
    const card = knownCard(comp, targets);
    card.appendChild(el("span", "known-where", `in ${comp.zone}`));
    row.appendChild(card);
  }
  box.appendChild(row);
  return box;
}
