"""The optional ``display:`` section: how a game looks, as data (docs/language.md, "Display").

It names zones, variables, player variables, component kinds and their attributes; the checker makes
sure every name exists and that a track's field counts are load-time numbers.  What it gives the
tools is a plain mapping (JSON data): static ruleset data that a view may carry to every seat,
because it holds nothing of a game being played.
"""
from __future__ import annotations

import re

from .checker import suggest
from .errors import CheckError

# The built-in symbols a face or counter may show (the page and the terminal draw each one).
SYMBOLS = ("knight", "die", "chip", "coin", "money", "card", "tile", "gun", "bullet", "house", "star",
           "crown", "flag", "heart", "skull", "person", "key", "hat", "newspaper", "medkit", "bottle",
           "cigar", "dog", "badge")
PLACES = ("top", "middle", "bottom")
_PLACEHOLDER = re.compile(r"\{(\w+)\}")
MAX_FIELDS = 400


class DisplayChecks:
    """The resolver's checks of the ``display:`` section (a mixin of :class:`dsl.resolver.Resolver`)."""

    def _display(self):
        spec = self.data.get("display")
        if not spec:
            return
        rs = self.rs
        out = {}
        if "lang" in spec:
            out["lang"] = spec["lang"]
        named = {**{z: "zone" for z in rs.zones}, **{v: "variable" for v in rs.vars},
                 **{v: "player variable" for v in rs.player_vars}, **{k: "kind" for k in rs.kinds}}
        attributes = {a for kind in rs.kinds.values() for a in list(kind.attributes) + list(kind.marks)}
        attributes |= {p for options in self._option_specs() for option in options.values()
                       if isinstance(option, dict) for p in (option.get("params") or {})}
        labels = spec.get("labels") or {}
        for name in labels:
            if name not in named and name not in attributes:
                self.error(CheckError(f"'labels' names '{name}', which is no zone, variable, kind, attribute or option parameter",
                                      hint=suggest(name, list(named) + sorted(attributes))), ("display", "labels", name))
        out["labels"] = dict(labels)
        out["values"] = dict(spec.get("values") or {})
        hide = list(spec.get("hide") or [])
        for i, name in enumerate(hide):
            if named.get(name) not in ("zone", "variable", "player variable"):
                self.error(CheckError(f"'hide' names '{name}', which is no zone or variable",
                                      hint=suggest(name, [n for n, what in named.items() if what != "kind"])),
                           ("display", "hide", i))
        out["hide"] = hide
        layout = spec.get("layout") or {}
        for place in layout:
            for i, zone in enumerate(layout[place]):
                if zone not in rs.zones:
                    self.error(CheckError(f"'layout' places unknown zone '{zone}'", hint=suggest(zone, rs.zones)),
                               ("display", "layout", place, i))
        out["layout"] = {place: list(layout.get(place) or []) for place in PLACES}
        top_first = list(spec.get("top_first") or [])
        for i, zone in enumerate(top_first):
            if zone not in rs.zones:
                self.error(CheckError(f"'top_first' names unknown zone '{zone}'", hint=suggest(zone, rs.zones)),
                           ("display", "top_first", i))
        out["top_first"] = top_first
        out["tracks"] = [self._display_track(i, track) for i, track in enumerate(spec.get("tracks") or [])]
        out["counters"] = [self._display_counter(i, c) for i, c in enumerate(spec.get("counters") or [])]
        out["faces"] = {kind: self._display_face(kind, face) for kind, face in (spec.get("faces") or {}).items()}
        out["player_colours"] = list(spec.get("player_colours") or [])
        out["colours"] = dict(spec.get("colours") or {})
        out["symbols"] = dict(spec.get("symbols") or {})
        out["offers"] = [self._display_offer(i, offer) for i, offer in enumerate(spec.get("offers") or [])]
        rs.display = out

    def _display_variable(self, entry, path):
        """A track's or counter's variable: ``variable`` (shared) or ``player_variable`` (one per seat)."""
        for key, table in (("variable", self.rs.vars), ("player_variable", self.rs.player_vars)):
            if key in entry and entry[key] not in table:
                self.error(CheckError(f"unknown {key.replace('_', ' ')} '{entry[key]}'", hint=suggest(entry[key], table)),
                           path + (key,))

    def _display_track(self, i, track):
        path = ("display", "tracks", i)
        out = {k: track[k] for k in ("label", "zone", "attribute", "variable", "player_variable", "symbol") if k in track}
        if "zone" in track:
            if track["zone"] not in self.rs.zones:
                self.error(CheckError(f"unknown zone '{track['zone']}'", hint=suggest(track["zone"], self.rs.zones)),
                           path + ("zone",))
            if not self._is_int_attribute(track.get("attribute")):
                self.error(CheckError(f"a track of a zone draws its components by a whole-number attribute or mark, "
                                      f"and '{track.get('attribute')}' is none",
                                      hint="for example attribute: position (a mark: 0 of the kind)"), path)
        self._display_variable(track, path)
        for key in ("fields", "finish", "start"):
            if key in track:
                value = self.static_value(path + (key,), f"a track's {key}")
                if value is not None and (isinstance(value, bool) or not isinstance(value, int)
                                          or not 0 <= value <= MAX_FIELDS):
                    self.error(CheckError(f"a track's {key} is a whole number from 0 to {MAX_FIELDS}, not {value!r}"),
                               path + (key,))
                    value = None
                out[key] = value
        out.setdefault("start", 0)
        if out.get("fields") is None:
            out["fields"] = 0
        return out

    def _is_int_attribute(self, name) -> bool:
        for kind in self.rs.kinds.values():
            if name in kind.marks and isinstance(kind.marks[name], int) and not isinstance(kind.marks[name], bool):
                return True
            if name in kind.attributes and str(kind.attributes[name]) == "int":
                return True
        return False

    def _display_counter(self, i, counter):
        path = ("display", "counters", i)
        self._display_variable(counter, path)
        return dict(counter)

    def _display_offer(self, i, offer):
        """An option whose actions are offers: ``what`` names its component parameter, ``from`` its
        player parameter (who offers; without it, the offer reads as made to the seat deciding)."""
        path = ("display", "offers", i)
        options = {name: spec for proc in self._option_specs() for name, spec in proc.items() if isinstance(spec, dict)}
        spec = options.get(offer["option"])
        if spec is None:
            self.error(CheckError(f"'offers' names '{offer['option']}', which is no option of a choose",
                                  hint=suggest(offer["option"], options)), path + ("option",))
            return dict(offer)
        params = spec.get("params") or {}
        for key in ("what", "from"):
            if key in offer and offer[key] not in params:
                self.error(CheckError(f"option '{offer['option']}' has no parameter '{offer[key]}'",
                                      hint=suggest(offer[key], params)), path + (key,))
        return dict(offer)

    def _option_specs(self):
        """Every ``options:`` mapping of a ``choose`` anywhere in the document."""
        found, pending = [], [self.data]
        while pending:
            node = pending.pop()
            if isinstance(node, dict):
                if isinstance(node.get("choose"), dict) and isinstance(node["choose"].get("options"), dict):
                    found.append(node["choose"]["options"])
                pending.extend(node.values())
            elif isinstance(node, list):
                pending.extend(node)
        return found

    def _display_face(self, kind, face):
        path = ("display", "faces", kind)
        if kind not in self.rs.kinds:
            self.error(CheckError(f"'faces' names unknown component kind '{kind}'", hint=suggest(kind, self.rs.kinds)),
                       path)
            return dict(face)
        known = set(self.rs.kinds[kind].attributes) | set(self.rs.kinds[kind].marks) | {"name"}
        for key in ("colour", "value", "label", "symbol_of", "text", "corner"):
            if key in face and face[key] not in known:
                self.error(CheckError(f"component kind '{kind}' has no attribute '{face[key]}'",
                                      hint=suggest(face[key], known)), path + (key,))
        if "explain" in face:
            for field in _PLACEHOLDER.findall(face["explain"]):
                if field not in known:
                    self.error(CheckError(f"'{{{field}}}' is no attribute of component kind '{kind}'",
                                          hint=suggest(field, known)), path + ("explain",))
        return dict(face)
