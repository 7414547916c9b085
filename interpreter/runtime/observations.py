"""Observations for learning and search tools, made from ``state.view(seat)`` only (so they cannot
show what the seat may not see).

* ``canonical_view(view)``: the view without internal component ids: ids dropped from components,
  per-component zones keyed by the component's name (those of same-named components listed in a
  sorted order), the decider's action texts without ``[#id]`` distinctions and sorted.  Two states
  that differ only in what the seat cannot see, or in which of two identical cards is which, give
  the same canonical view.
* ``Observer(game)``: a fixed-length numeric vector per seat (``observer.size``); see ``encode``
  for the layout, and ``observer.layout`` for what each slice means.
* ``observation_string`` and, with the actions so far, ``information_state_string``.
"""
from __future__ import annotations

import json
import re

_DISTINCTION = re.compile(r" \[#\d+(?:, #\d+)*\]")
_HOST_KEY = re.compile(r"^(.*) #(\d+)$")


def canonical_view(view: dict) -> dict:
    out = {k: v for k, v in view.items() if k not in ("zones", "vars", "players", "decision", "known")}
    if "known" in view:  # what the seat was shown: by name and place, in no order of ids
        out["known"] = sorted(_without_ids(view["known"]), key=_text)
    zones = {}
    for family, content in view["zones"].items():
        if isinstance(content, dict) and content and all(_HOST_KEY.match(k) for k in content):
            by_name: dict = {}
            for key, zone in content.items():
                by_name.setdefault(_HOST_KEY.match(key).group(1), []).append(_without_ids(zone))
            zones[family] = {name: sorted(zs, key=_text) for name, zs in sorted(by_name.items())}
        else:
            zones[family] = _without_ids(content)
    out["zones"] = zones
    out["vars"] = _without_ids(view["vars"])
    out["players"] = _without_ids(view["players"])
    if "decision" in view:
        decision = dict(view["decision"])
        if "actions" in decision:
            decision["actions"] = sorted(_DISTINCTION.sub("", a) for a in decision["actions"])
        out["decision"] = decision
    return out


def _without_ids(value):
    if isinstance(value, dict):
        return {k: _without_ids(v) for k, v in value.items() if k != "id"}
    if isinstance(value, list):
        return [_without_ids(v) for v in value]
    return value


def _text(value) -> str:
    return json.dumps(value, sort_keys=True, ensure_ascii=False, separators=(",", ":"))


def action_text(action) -> str:
    """An action's text as anyone who sees it reads it (no internal ids)."""
    return _DISTINCTION.sub("", str(action))


def observation_string(state, seat) -> str:
    """The seat's canonical view as compact JSON (keys sorted)."""
    return _text(canonical_view(state.view(seat)))


def seen_action(entry, seat) -> str:
    """What ``seat`` sees of a taken action, from a history entry ``(actor, public, text or action,
    prompt, ...)``: the text if the seat took it or the option is public, else only who chose at which
    prompt."""
    actor, public, text, prompt = entry[:4]
    if not isinstance(text, str):
        text = action_text(text)  # the action itself, kept until its text is needed
    if public or actor == seat:
        return f"{actor}: {text}"
    return f"{actor}: (a hidden choice) {prompt or ''}".rstrip()


def information_state_string(view_text: str, seat, history, extra: str = "") -> str:
    """Perfect recall for ``seat``: its view now (``observation_string``) plus the actions so far
    as it saw them (``history``: entries for :func:`seen_action`), plus ``extra``."""
    lines = [view_text] + [seen_action(entry, seat) for entry in history]
    return "\n".join(lines + ([extra] if extra else []))


class Observer:
    """The numeric observation of a seat as a fixed-length list of floats.

    Layout, in this order (``layout`` lists ``(what, start, length)``):

    * per zone without a host: the number of components, then counts per component name (when its
      contents are visible), the top component's name one-hot (when it is visible), and the
      sum of each mark over the visible components; a grid zone instead has one-hot names per cell;
    * per family of per-component zones: counts per name over all visible such zones, and the
      number of components in the zone of each host component;
    * visible shared variables, then each player's visible variables, by type: int (scaled to
      [0, 1] by a declared ``min``/``max``, else the raw value), bool 0/1, str one-hot in the
      ruleset's vocabulary, player one-hot, cell one-hot, component one-hot of its name (zero when
      hidden or none), list of components as counts per name, other lists as their length;
    * whose turn (one-hot over seats), game over (0/1), the viewer (one-hot), the move number.
    """

    def __init__(self, game, vocabulary=None):
        self.game = game
        self.num_names = max(game.name_index, default=-1) + 1
        self.name_of = {}
        for c, i in enumerate(game.name_index):
            self.name_of.setdefault((game.kinds[c], game.names[c]), i)
        self.strings = list(vocabulary or [])
        self.string_index = {s: i for i, s in enumerate(self.strings)}
        self.cell_index: dict = {}
        for cell in range(len(game.cell_zone)):
            self.cell_index.setdefault(game.cell_text(cell), cell)
        self.marks = [m for m in game.mark_names
                      if all(isinstance(v, (int, bool)) or v is None for v in game.initial_marks[m])]
        self.layout = []
        self.size = 0
        self._zone_start = {}
        for zone, family in enumerate(game.zone_family):
            if game.zone_host[zone] is not None:
                continue
            grid = game.zone_grid[zone]
            length = 1 + (grid[1] * grid[2] * self.num_names if grid else 2 * self.num_names + len(self.marks))
            self._zone_start[zone] = self._add(f"zone {game.zone_names[zone]}", length)
        self._host_start = {}
        for family, spec in game.ruleset.zones.items():
            if spec.per_kind:
                hosts = game.components_by_kind[spec.per_kind]
                start = self._add(f"zones {family} of each {spec.per_kind}", self.num_names + len(hosts))
                self._host_start[family] = (start, {c: i for i, c in enumerate(hosts)})
        self._var_start = {}
        for name, (type_, visibility) in game.var_info.items():
            if visibility == "all":
                self._var_start[name] = self._add(f"var {name}", self._type_size(type_))
        self._pvar_start = {}
        for name, (type_, visibility) in game.player_var_info.items():
            if visibility != "none":
                for p in range(game.num_players):
                    self._pvar_start[(name, p)] = self._add(f"{game.player_names[p]}.{name}", self._type_size(type_))
        n = game.num_players
        self._turn = self._add("turn", n + 1)
        self._viewer = self._add("viewer", n)
        self._moves = self._add("moves", 1)

    def _add(self, what, length) -> int:
        start = self.size
        self.layout.append((what, start, length))
        self.size += length
        return start

    def _type_size(self, type_) -> int:
        name = type_.name
        if name == "str":
            return len(self.strings)
        if name == "player":
            return self.game.num_players
        if name == "cell":
            return len(self.game.cell_zone)
        if name == "component" or (name == "list" and type_.arg is not None and type_.arg.name == "component"):
            return self.num_names
        return 1

    # ---- encoding ---------------------------------------------------------------------------------
    def encode(self, state, seat) -> list:
        """The observation vector of ``seat`` (a list of floats), from ``state.view(seat)``."""
        view = state.view(seat)
        game = self.game
        out = [0.0] * self.size
        zones = view["zones"]
        for zone, start in self._zone_start.items():
            content = zones.get(game.zone_family[zone])
            owner = game.zone_owner[zone]
            if owner is not None and isinstance(content, dict):
                content = content.get(game.player_names[owner])
            self._zone(out, start, zone, content)
        for family, (start, hosts) in self._host_start.items():
            for key, content in (zones.get(family) or {}).items():
                match = _HOST_KEY.match(key)
                host = int(match.group(2)) if match else None
                if host not in hosts:
                    continue
                cards = content if isinstance(content, list) else []
                count = len(cards) if isinstance(content, list) else (content or {}).get("count", 0)
                out[start + self.num_names + hosts[host]] = float(count)
                for card in cards:
                    out[start + self._name(card)] += 1.0
        for name, start in self._var_start.items():
            if name in view["vars"]:
                self._value(out, start, game.var_info[name], view["vars"][name], name, False)
        for (name, p), start in self._pvar_start.items():
            own = view["players"][p]
            if name in own:
                self._value(out, start, game.player_var_info[name], own[name], name, True)
        decider = state.current_player()
        out[self._turn + (decider if decider is not None else game.num_players)] = 1.0
        if seat is not None:
            out[self._viewer + seat] = 1.0
        out[self._moves] = float(view["moves"])
        return out

    def _name(self, card) -> int:
        return self.name_of[(card["kind"], card["name"])]

    def _zone(self, out, start, zone, content) -> None:
        n = self.num_names
        if isinstance(content, dict) and "grid" in content:
            cells = [c for row in content["grid"] for c in row]
            out[start] = float(sum(c is not None for c in cells))
            for i, card in enumerate(cells):
                if card is not None:
                    out[start + 1 + i * n + self._name(card)] = 1.0
            return
        if isinstance(content, list):
            out[start] = float(len(content))
            if content:
                out[start + 1 + n + self._name(content[-1])] = 1.0
            for card in content:
                out[start + 1 + self._name(card)] += 1.0
                for j, mark in enumerate(self.marks):
                    out[start + 1 + 2 * n + j] += float(card.get(mark) or 0)
            return
        if isinstance(content, dict):
            out[start] = float(content.get("count", 0))
            top = content.get("top")
            if top:
                out[start + 1 + n + self._name(top)] = 1.0
                for j, mark in enumerate(self.marks):
                    out[start + 1 + 2 * n + j] += float(top.get(mark) or 0)

    def _value(self, out, start, info, value, name, per_player) -> None:
        type_ = info[0]
        kind = type_.name
        if value is None or value == "hidden":
            return
        if kind == "int" and isinstance(value, (int, float)):
            variable = (self.game.ruleset.player_vars if per_player else self.game.ruleset.vars)[name]
            low, high = variable.low, variable.high
            if low is not None and high is not None and high > low:
                value = (min(max(value, low), high) - low) / (high - low)
            out[start] = float(value)
        elif kind == "bool":
            out[start] = 1.0 if value else 0.0
        elif kind == "str" and value in self.string_index:
            out[start + self.string_index[value]] = 1.0
        elif kind == "player" and value in self.game.player_names:
            out[start + self.game.player_names.index(value)] = 1.0
        elif kind == "cell" and value in self.cell_index:
            out[start + self.cell_index[value]] = 1.0
        elif kind == "component" and isinstance(value, dict):
            out[start + self._name(value)] = 1.0
        elif kind == "list" and isinstance(value, list):
            if type_.arg is not None and type_.arg.name == "component":
                for item in value:
                    if isinstance(item, dict):
                        out[start + self._name(item)] += 1.0
            else:
                out[start] = float(len(value))
