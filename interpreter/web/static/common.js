// Helpers shared by the pages.  Text from the server (and so from rulesets) is only ever set as
// textContent or as attribute values, never parsed as HTML.
"use strict";

function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined && text !== null) node.textContent = String(text);
  return node;
}

function clear(node) {
  while (node.firstChild) node.removeChild(node.firstChild);
  return node;
}

async function api(url, body) {
  const options = body === undefined ? {} : {
    method: "POST", headers: {"Content-Type": "application/json"}, body: JSON.stringify(body)};
  const response = await fetch(url, options);
  let data = {};
  try { data = await response.json(); } catch (e) { data = {error: "the server sent no answer"}; }
  if (!response.ok) throw new Error(data.error || response.statusText);
  return data;
}

// Words that name colours get that colour; any other value a stable hue of its own.
const COLOUR_WORDS = {red: "#c0392b", blue: "#2e6fb7", yellow: "#e0b400", green: "#2e8b57", black: "#2b2b2b",
  white: "#f4f4f4", grey: "#8a8a8a", gray: "#8a8a8a", orange: "#e67e22", purple: "#8e44ad", brown: "#8b5a2b",
  pink: "#e07aa5", rot: "#c0392b", blau: "#2e6fb7", gelb: "#e0b400", "grün": "#2e8b57", schwarz: "#2b2b2b",
  "weiß": "#f4f4f4", grau: "#8a8a8a"};

function hueOf(text) {
  let h = 0;
  for (const ch of String(text)) h = (h * 31 + ch.codePointAt(0)) % 360;
  return `hsl(${h}, 45%, 45%)`;
}

function componentColour(comp) {
  for (const [key, value] of Object.entries(comp)) {
    if (["id", "name", "kind"].includes(key) || typeof value !== "string") continue;
    const word = value.toLowerCase();
    if (COLOUR_WORDS[word]) return COLOUR_WORDS[word];
  }
  for (const [key, value] of Object.entries(comp)) {
    if (!["id", "name", "kind"].includes(key) && typeof value === "string") return hueOf(value);
  }
  return hueOf(comp.kind || "");
}

function formatValue(value) {
  if (value === null || value === undefined) return "none";
  if (value === true) return "yes";
  if (value === false) return "no";
  if (Array.isArray(value)) return "[" + value.map(formatValue).join(", ") + "]";
  if (typeof value === "object") return value.name !== undefined ? String(value.name) : JSON.stringify(value);
  return String(value);
}

function titleCase(name) {
  return String(name).replace(/_/g, " ");
}
