"""Readable terminal rendering of a view (``State.view(player)``) with rich.

Works from the view's JSON-ready data only, so it shows exactly what the viewer may see, for any
ruleset: shared zones and variables first, then one section per player (its zones and variables),
then the decision with its numbered actions when the viewer is the one to decide.
"""
from __future__ import annotations

import re

from rich.cells import cell_len
from rich.console import Group
from rich.measure import Measurement
from rich.rule import Rule
from rich.table import Table
from rich.text import Text

from .display_text import Words

LABEL_STYLE = "bold cyan"
DIM = "dim"
LONG_PILE = 10  # a shared face-up pile of more cards than this shows only its last ones (terse board)
HOST_KEY = re.compile(r" #(\d+)$")  # a zone kept per component is keyed "its name #its id"


class Items:
    """A list of short texts shown separated, wrapped between items and never inside one."""

    def __init__(self, items: list, separator: str = ", ", style: str = ""):
        self.items = [item if isinstance(item, Text) else Text(item) for item in items]
        self.separator = separator
        self.style = style

    def __rich_measure__(self, console, options) -> Measurement:
        widest = max((item.cell_len for item in self.items), default=0)
        total = sum(item.cell_len for item in self.items) + cell_len(self.separator) * (len(self.items) - 1)
        return Measurement(min(widest, options.max_width), min(max(total, 0), options.max_width))

    def __rich_console__(self, console, options):
        width = options.max_width
        sep = self.separator.rstrip()
        line = Text(style=self.style)
        for i, item in enumerate(self.items):
            last = i == len(self.items) - 1
            piece = item + Text("" if last else sep)
            gap = self.separator[len(sep):] if line.plain else ""
            if line.plain and line.cell_len + cell_len(gap) + piece.cell_len > width:
                yield line
                line, gap = Text(style=self.style), ""
            line.append(gap)
            line.append_text(piece)
        yield line


def render_view(view: dict, game, menu: bool = True, terse: bool = False) -> Group:
    """A rich renderable of ``view``; ``game`` supplies the default marks of each component kind.
    ``menu=False`` leaves out the numbered actions and the outcome (the caller shows them) and
    makes the board compact: empty zones left out, zones kept per component shown after that
    component (``pawn 3 [cargo: crate 1]``).  ``terse=True`` (for a board taller than the
    screen) shows those zones by their size only and long shared face-up piles by their last cards."""
    defaults = {kind.name: kind.marks for kind in game.ruleset.kinds.values()}
    words = Words(game)
    tracks = words.tracks(view)
    view = dict(view, zones=words.visible(words.top_first(view["zones"])),
                vars=words.visible(view["vars"]),
                players=[{("name" if k == "name" else words.label(k)): v for k, v in p.items() if k not in words.hidden}
                         for p in view["players"]])
    top_first = {words.label(zone) for zone in words.display.get("top_first") or []}
    zones = view["zones"] if menu else _attach_hosted(_shorten_piles(view["zones"], top_first) if terse
                                                      else view["zones"], defaults, terse)
    shared, per_player = _split_zones(zones, [p["name"] for p in view["players"]])
    table = Table.grid(padding=(0, 2))
    table.add_column(style=LABEL_STYLE, no_wrap=True)
    table.add_column()
    for label, renderable in tracks:
        table.add_row(Text(label), renderable)
    for label, content in shared:
        if menu or not _is_empty(content):
            table.add_row(Text(label), _zone_renderable(content, defaults))
    if view["vars"]:
        table.add_row("table" if words.display else "vars", _vars_items(view["vars"], defaults))
    for index, player in enumerate(view["players"]):
        if menu or player["name"] == view.get("viewer"):
            _add_player_rows(table, view, index, per_player[player["name"]], defaults, menu)
        else:
            _add_player_line(table, view, index, per_player[player["name"]], defaults)
    parts = [Rule(Text(_title(view)), style="bold"), table]
    if menu:
        parts += _outcome(view) if view.get("over") else _decision(view)
    elif view.get("decision") and "actions" not in view["decision"]:
        parts.append(Text(f"Waiting for {view['decision']['player']}.", style=DIM))
    return Group(*parts)


def _title(view: dict) -> str:
    """The game, the move number and whose turn it is (or that the game is over)."""
    if view.get("over"):
        return f"{view['game']} · game over after {view['moves']} moves"
    decision = view.get("decision")
    whose = f"{decision['player']} to decide" if decision else "waiting"
    return f"{view['game']} · move {view['moves'] + 1} · {whose}"


def _shorten_piles(zones: dict, top_first=frozenset()) -> dict:
    """The zones with each long shared face-up pile (not a player's) cut to its cards nearest the
    top (its last ones; its first ones for a zone in ``top_first``, shown from the top down) and how
    many lie there."""
    def shorten(zone, content):
        if not isinstance(content, list) or len(content) <= LONG_PILE:
            return content
        more, total = {"name": "…"}, {"name": f"{len(content)} in all"}
        if zone in top_first:
            return content[:LONG_PILE // 2] + [more, total]
        return [more] + content[-LONG_PILE // 2:] + [total]
    return {zone: shorten(zone, content) for zone, content in zones.items()}


def _attach_hosted(zones: dict, defaults: dict, terse: bool = False) -> dict:
    """The zones with every zone kept per component moved onto that component where the view
    shows it (as its ``hosted`` texts); zones whose component is not shown stay as they were."""
    hosted: dict = {}
    for zone, content in zones.items():
        if _is_zone_group(content):
            for key, sub in content.items():
                match = HOST_KEY.search(key)
                texts = _zone_texts(sub, defaults)
                if match and texts:
                    text = f"{zone} {_size(sub)}" if terse else f"{zone}: {', '.join(texts)}"
                    hosted.setdefault(int(match.group(1)), []).append(text)
    if not hosted:
        return zones
    placed: set = set()

    def attach(content):
        if isinstance(content, list):
            out = []
            for comp in content:
                if isinstance(comp, dict) and comp.get("id") in hosted:
                    placed.add(comp["id"])
                    comp = dict(comp, hosted=hosted[comp["id"]])
                out.append(comp)
            return out
        if _is_zone_group(content):
            return {key: attach(sub) for key, sub in content.items()}
        return content
    result = {zone: attach(content) for zone, content in zones.items()}
    for zone, content in list(result.items()):
        if _is_zone_group(content):
            kept = {key: sub for key, sub in content.items()
                    if not (HOST_KEY.search(key) and int(HOST_KEY.search(key).group(1)) in placed)}
            if kept:
                result[zone] = {_short_key(key, kept): sub for key, sub in kept.items()}
            else:
                del result[zone]
    return result


def _size(content) -> int:
    """How many components a zone holds."""
    return content["count"] if isinstance(content, dict) else len(content)


def _short_key(key: str, keys) -> str:
    """A per-component zone's key without its id when its name alone tells it from the others."""
    name = HOST_KEY.sub("", key)
    return name if sum(HOST_KEY.sub("", k) == name for k in keys) == 1 else key


def _split_zones(zones: dict, player_names: list) -> tuple[list, dict]:
    """Shared (label, content) rows, and per player name the (zone, content) rows it owns.

    A group of zones kept per component stays one shared row."""
    shared: list = []
    per_player: dict = {name: [] for name in player_names}
    for zone, content in zones.items():
        if not _is_zone_group(content):
            shared.append((zone, content))
            continue
        others = {}
        for key, sub in content.items():
            if key in per_player:
                per_player[key].append((zone, sub))
            else:
                others[key] = sub
        if others:
            shared.append((zone, others))
    return shared, per_player


def _is_zone_group(content) -> bool:
    """Whether a zone entry holds several zones (per player, per component) by label."""
    return isinstance(content, dict) and "grid" not in content and not isinstance(content.get("count"), int)


def _is_empty(content) -> bool:
    """Whether a zone (or a group of zones) holds nothing."""
    if _is_zone_group(content):
        return all(_is_empty(sub) for sub in content.values())
    return not _zone_texts(content, {})


def _add_player_line(table: Table, view: dict, index: int, zones: list, defaults: dict) -> None:
    """Another player on one row: the zones that hold something, then the variables."""
    player = view["players"][index]
    items = [Text(f"{zone}: {', '.join(texts)}") for zone, content in zones
             if not _is_zone_group(content) and (texts := _zone_texts(content, defaults))]
    own_vars = {k: v for k, v in player.items() if k != "name"}
    if view.get("over") and "scores" in view:
        own_vars["score"] = view["scores"][index]
    items += [Text.assemble(f"{name} ", (format_value(value, defaults), "bold")) for name, value in own_vars.items()]
    table.add_row(Text(player["name"], style="bold magenta"), Items(items, separator=" · "))


def _add_player_rows(table: Table, view: dict, index: int, zones: list, defaults: dict, menu=True) -> None:
    player = view["players"][index]
    you = " (you)" if player["name"] == view.get("viewer") else ""
    table.add_row(Text(player["name"] + you, style="bold magenta"), "")
    for zone, content in zones:
        if menu or not _is_empty(content):
            table.add_row(Text(f"  {zone}"), _zone_renderable(content, defaults))
    own_vars = {k: v for k, v in player.items() if k != "name"}
    if view.get("over") and "scores" in view:
        own_vars["score"] = view["scores"][index]
    if own_vars:
        table.add_row("  vars", _vars_items(own_vars, defaults))


def _zone_renderable(content, defaults: dict):
    """One zone (or group of zones): visible components, a grid, or how many lie there hidden."""
    if isinstance(content, dict) and "grid" in content:
        return _grid_table(content["grid"], defaults)
    if _is_zone_group(content):
        items = [f"{key}: {', '.join(texts)}" for key, sub in content.items()
                 if (texts := _zone_texts(sub, defaults))]
        return Items(items, separator="; ") if items else Items(["all empty"], style=DIM)
    texts = _zone_texts(content, defaults)
    return Items(texts) if texts else Items(["empty"], style=DIM)


def _zone_texts(content, defaults: dict) -> list:
    """Short texts for what lies in a zone, [] when it is empty.

    Visible components by name, equal ones once with a count in order of first appearance; hidden
    ones as a count."""
    if isinstance(content, list):
        counts: dict = {}
        for comp in content:
            text = component_text(comp, defaults)
            if comp.get("hosted"):
                text += f" [{'; '.join(comp['hosted'])}]"
            counts[text] = counts.get(text, 0) + 1
        return [text if n == 1 else f"{text} ×{n}" for text, n in counts.items()]
    if isinstance(content, dict) and isinstance(content.get("count"), int):
        count = content["count"]
        if content.get("top") is not None:
            top = component_text(content["top"], defaults)
            return [top] if count == 1 else [f"{top} on top", f"{count} in all"]
        return [f"{count} face down"] if count else []
    return [str(content)]


def _grid_table(rows: list, defaults: dict) -> Table:
    """A grid zone as rows r1.. and columns c1.., empty cells as dots."""
    table = Table.grid(padding=(0, 1))
    columns = max((len(row) for row in rows), default=0)
    table.add_column(style=DIM, no_wrap=True)
    for _ in range(columns):
        table.add_column(justify="center")
    table.add_row("", *(Text(f"c{c + 1}", style=DIM) for c in range(columns)))
    for r, row in enumerate(rows):
        cells = [Text(component_text(comp, defaults)) if comp else Text("·", style=DIM) for comp in row]
        table.add_row(Text(f"r{r + 1}"), *cells)
    return table


def component_text(comp: dict, defaults: dict) -> str:
    """A component's name with its marks that differ from their defaults, e.g. ``tile 4 (damage 2)``."""
    kind_marks = defaults.get(comp.get("kind"), {})
    marks = [_mark_text(m, comp[m], defaults) for m, default in kind_marks.items()
             if m in comp and comp[m] != default]
    return f"{comp['name']} ({', '.join(marks)})" if marks else comp["name"]


def _mark_text(mark: str, value, defaults: dict) -> str:
    """``flipped`` for a true flag, ``not flipped`` for a false one, else ``damage 2``."""
    if isinstance(value, bool):
        return mark if value else f"not {mark}"
    return f"{mark} {format_value(value, defaults)}"


def format_value(value, defaults: dict) -> str:
    """A variable's value as short text."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if value is None:
        return "none"
    if isinstance(value, dict) and "name" in value:
        return component_text(value, defaults)
    if isinstance(value, list):
        return "[" + ", ".join(format_value(v, defaults) for v in value) + "]"
    return str(value)


def _vars_items(variables: dict, defaults: dict) -> Items:
    return Items([Text.assemble(f"{name} ", (format_value(value, defaults), "bold"))
                  for name, value in variables.items()], separator=" · ")


def _decision(view: dict) -> list:
    """The prompt and, for the deciding viewer, the numbered actions."""
    decision = view.get("decision")
    if not decision:
        return []
    actions = decision.get("actions")
    if actions is None:
        return [Text(f"Waiting for {decision['player']}.", style=DIM)]
    lines = [Text(), Text(decision.get("prompt") or f"{decision['player']}, choose an action:", style="bold")]
    width = len(str(len(actions)))
    lines += [Text.assemble((f"  {n:>{width}}  ", "bold yellow"), action)
              for n, action in enumerate(actions, 1)]
    return lines


def _outcome(view: dict) -> list:
    winners = view.get("winners") or []
    if len(winners) == 1:
        return [Text(f"{winners[0]} wins.", style="bold green")]
    return [Text(f"Shared win: {', '.join(winners)}.", style="bold green")] if winners else []


def result_text(game, returns: list, winners: list) -> Text:
    """The result of a finished game: each player's score and the winners."""
    scores = ", ".join(f"{name} {score}" for name, score in zip(game.player_names, returns))
    names = [game.player_names[p] for p in winners]
    verdict = f"{names[0]} wins" if len(names) == 1 else f"shared win: {', '.join(names)}"
    return Text.assemble("Scores: ", (scores, "bold"), " — ", (verdict, "bold green"))
