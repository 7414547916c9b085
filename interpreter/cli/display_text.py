"""The ruleset's ``display:`` section in the terminal: the same words, hidden bookkeeping and
tracks as the web table (docs/language.md, "Display")."""
from __future__ import annotations

from rich.table import Table
from rich.text import Text

TRACK_WIDTH = 30  # characters of a track's path at most (a shorter track: one character per field)


class Words:
    """Labels and hidden names of one game (names stand for themselves without a display section)."""

    def __init__(self, game):
        self.display = getattr(game.ruleset, "display", None) or {}
        self.labels = self.display.get("labels") or {}
        self.hidden = set(self.display.get("hide") or [])

    def label(self, name: str) -> str:
        return self.labels.get(name, name)

    def visible(self, mapping: dict) -> dict:
        """``mapping`` (zones or variables) without the hidden names, keyed by their words."""
        return {self.label(name): value for name, value in mapping.items() if name not in self.hidden}

    def top_first(self, zones: dict) -> dict:
        """``zones`` with each zone the section lists under ``top_first`` (and each of its zones per
        player) from the top down: the next component taken, the newest one first."""
        first = set(self.display.get("top_first") or [])
        return {name: _from_the_top(content) if name in first else content for name, content in zones.items()}

    def tracks(self, view: dict) -> list:
        """(label, renderable) per track of the display section, drawn from the view."""
        return [(track.get("label") or self.label(track.get("zone") or track.get("variable")
                                                   or track.get("player_variable")), self._track(track, view))
                for track in self.display.get("tracks") or []]

    def _track(self, track: dict, view: dict) -> Table:
        start, end = track.get("start") or 0, max(track.get("fields") or 0, (track.get("start") or 0) + 1)
        finish = track.get("finish")
        table = Table.grid(padding=(0, 1))
        table.add_column(no_wrap=True)
        table.add_column(no_wrap=True)
        table.add_column(no_wrap=True, justify="right")
        width = min(TRACK_WIDTH, end - start)
        for name, at in _markers(track, view):
            cells = ["·"] * (width + 1)
            if finish is not None:
                cells[_cell(finish, start, end, width)] = "|"
            cells[_cell(at, start, end, width)] = "●"
            done = " finished" if finish is not None and at >= finish else ""
            table.add_row(Text(name), Text("".join(cells)), Text(f"{at}/{finish if finish is not None else end}{done}"))
        return table


def _from_the_top(content):
    """A zone's components (or a group of zones' components) in reverse: its last one is its top."""
    if isinstance(content, list):
        return content[::-1]
    if isinstance(content, dict) and "grid" not in content and "count" not in content:
        return {key: _from_the_top(sub) for key, sub in content.items()}
    return content


def _cell(at: int, start: int, end: int, width: int) -> int:
    return round((min(max(at, start), end) - start) / (end - start) * width)


def _markers(track: dict, view: dict) -> list:
    """(name, position) of every marker a track draws, from what the view shows."""
    if track.get("zone"):
        content = view["zones"].get(track["zone"])
        return [(c["name"], c[track["attribute"]]) for c in content or []
                if isinstance(content, list) and isinstance(c.get(track["attribute"]), int)]
    if track.get("player_variable"):
        return [(p["name"], p[track["player_variable"]]) for p in view["players"]
                if isinstance(p.get(track["player_variable"]), int)]
    value = view["vars"].get(track.get("variable"))
    return [(track["variable"], value)] if isinstance(value, int) else []
