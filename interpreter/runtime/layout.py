"""A ruleset laid out as tables: what the compiler compiles against and a running game reads."""
from __future__ import annotations

import string

from dsl.errors import RulesRuntimeError

from . import views
from .instructions import component_content


class Layout:
    """The tables of a ruleset laid out: components (names, kinds, printed attributes, starting marks
    and places), zones (instances of each family, owners, hosts, visibility, grids and their cells)
    and the variables' types.  The compiler reads them; a running game reads them through
    ``state.game``."""

    def __init__(self, ruleset):
        self.ruleset = ruleset
        self.name = ruleset.name
        self.num_players = ruleset.players
        self.player_names = ruleset.player_names
        self.params = dict(ruleset.params)
        self._make_components()
        self._layout_zones()
        self.var_info = {n: (v.type, v.visibility) for n, v in ruleset.vars.items()}
        self.player_var_info = {n: (v.type, v.visibility) for n, v in ruleset.player_vars.items()}
        # variables by what they may hold: components ('component'), perhaps components ('any')
        self.component_vars = [n for n, v in ruleset.vars.items() if component_content(v.type) == "component"]
        self.component_player_vars = [n for n, v in ruleset.player_vars.items()
                                      if component_content(v.type) == "component"]
        self.untyped_vars = [n for n, v in ruleset.vars.items() if component_content(v.type) == "any"]
        self.untyped_player_vars = [n for n, v in ruleset.player_vars.items()
                                    if component_content(v.type) == "any"]
        # a ruleset that shows components to seats (show()) lists in each view what the seat knows
        # but does not see now; other rulesets' views hold only what the seat sees
        self.lists_known = any(symbol == ("effect", "show") for symbol in ruleset.symbols.values())
        self.mark_ranges: dict = {}  # per mark, the values its rules can give it (the compiler finds them)

    def _make_components(self):
        self.names: list = []
        self.kinds: list = []
        self.kind_index: list = []  # position of each component among the components of its kind
        self.attr_tables: dict = {}
        self.components_by_kind: dict = {}
        self.starts: list = []  # (zone family, owner) each component starts in
        mark_names = []
        for kind in self.ruleset.kinds.values():
            for attr in kind.attributes:
                self.attr_tables.setdefault(attr, [])
            mark_names += [m for m in kind.marks if m not in mark_names]
        self.initial_marks = {m: [] for m in mark_names}
        formatter = string.Formatter()
        for kind in self.ruleset.kinds.values():
            ids = self.components_by_kind.setdefault(kind.name, [])
            for row in kind.rows:
                owners = range(self.num_players) if row["each_player"] else [None]
                label = formatter.vformat(kind.template, (), row["values"])
                for owner in owners:
                    for _ in range(row["count"]):
                        c = len(self.names)
                        self.kind_index.append(len(ids))
                        ids.append(c)
                        self.names.append(label)
                        self.kinds.append(kind.name)
                        self.starts.append((row["zone"], owner))
                        for attr, table in self.attr_tables.items():
                            table.append(row["values"].get(attr))
                        for mark, values in self.initial_marks.items():
                            values.append(kind.marks.get(mark))
        self.num_components = len(self.names)
        self.partial_attributes = {a for a, t in self.attr_tables.items() if None in t}
        self.mark_names = list(self.initial_marks)
        name_ids: dict = {}
        self.name_index = [name_ids.setdefault((k, n), len(name_ids)) for k, n in zip(self.kinds, self.names)]

    def _layout_zones(self):
        self.family_base: dict = {}
        self.zone_names: list = []
        self.zone_family: list = []
        self.zone_owner: list = []  # the owning seat of a per-player zone, else None
        self.zone_host: list = []  # the component a per-component zone belongs to, else None
        self.zone_visibility: list = []
        self.zone_grid: list = []  # (first cell, rows, columns) of a grid zone, else None
        self.cell_zone: list = []
        self.cell_row: list = []
        self.cell_column: list = []
        self.cell_neighbors: list = []  # per cell: the orthogonal neighbours, in cell order
        self.cell_all_neighbors: list = []  # the same with the diagonal ones
        self.cell_lines: list = []  # per cell: its row and its column
        for name, family in self.ruleset.zones.items():
            self.family_base[name] = len(self.zone_names)
            if family.per_player:
                instances = [(f"{name}[{p}]", i, None) for i, p in enumerate(self.player_names)]
            elif family.per_kind:
                instances = [(f"{name}[{self.names[c]} #{c}]", None, c)
                             for c in self.components_by_kind[family.per_kind]]
            else:
                instances = [(name, None, None)]
            for label, owner, host in instances:
                zone = len(self.zone_names)
                self.zone_names.append(label)
                self.zone_family.append(name)
                self.zone_owner.append(owner)
                self.zone_host.append(host)
                self.zone_visibility.append(family.visibility)
                self.zone_grid.append(self._add_cells(zone, family.grid) if family.grid else None)
        self.has_grids = any(self.zone_grid)
        self.all_seats = (1 << self.num_players) - 1
        self.zone_mask = [self._static_mask(z) for z in range(len(self.zone_names))]
        self.top_mask = [self.all_seats if v == "top" else 0 for v in self.zone_visibility]
        # the zones of which a seat may see a position (explicit chance fixes those: chance.settle)
        self.seen_zones = tuple(z for z, mask in enumerate(self.zone_mask) if mask != 0 or self.top_mask[z])
        self.initial_zones = [[] for _ in self.zone_names]
        for c, (family, owner) in enumerate(self.starts):
            self.initial_zones[self.family_base[family] + (owner or 0)].append(c)
        self.initial_loc = [0] * self.num_components
        for zone, cards in enumerate(self.initial_zones):
            for c in cards:
                self.initial_loc[c] = zone

    def _add_cells(self, zone, grid):
        rows, columns = grid
        first = len(self.cell_zone)
        for r in range(rows):
            for col in range(columns):
                self.cell_zone.append(zone)
                self.cell_row.append(r)
                self.cell_column.append(col)
                self.cell_neighbors.append(tuple(_around(first, rows, columns, r, col, ORTHOGONAL)))
                self.cell_all_neighbors.append(tuple(_around(first, rows, columns, r, col, ORTHOGONAL + DIAGONAL)))
                self.cell_lines.append((tuple(range(first + r * columns, first + (r + 1) * columns)),
                                        tuple(first + i * columns + col for i in range(rows))))
        return (first, rows, columns)

    def _static_mask(self, zone):
        """The seats that see a zone's whole contents, or None when it depends on the state."""
        if self.zone_host[zone] is not None:
            return None
        visibility = self.zone_visibility[zone]
        if visibility == "all":
            return self.all_seats
        if visibility == "owner" and self.zone_owner[zone] is not None:
            return 1 << self.zone_owner[zone]
        if visibility == "others" and self.zone_owner[zone] is not None:
            return self.all_seats & ~(1 << self.zone_owner[zone])
        return 0

    def visible_mask(self, s, zone) -> int:
        """A bit per seat that sees the whole contents of ``zone`` now."""
        mask = self.zone_mask[zone]
        if mask is not None:
            return mask
        return views.zone_mask(s, zone)

    def zone_owner_now(self, s, zone):
        """The seat a zone belongs to now: per-player zones are fixed; a per-component zone belongs
        to whoever owns the zone its component lies in."""
        for _ in range(16):
            host = self.zone_host[zone]
            if host is None:
                return self.zone_owner[zone]
            zone = s.loc[host]
        return None

    def missing_attribute(self, c, name) -> RulesRuntimeError:
        """The error of reading an attribute that component ``c`` lacks."""
        return RulesRuntimeError(f"{self.names[c]} (a {self.kinds[c]}) has no attribute '{name}'")

    def cell_text(self, cell) -> str:
        return f"r{self.cell_row[cell] + 1}c{self.cell_column[cell] + 1}"

    def attributes_of(self, c: int) -> dict:
        return {attr: table[c] for attr, table in self.attr_tables.items() if table[c] is not None}


ORTHOGONAL = ((-1, 0), (0, -1), (0, 1), (1, 0))
DIAGONAL = ((-1, -1), (-1, 1), (1, -1), (1, 1))


def _around(first, rows, columns, r, c, steps):
    """The cells one step away from row r, column c of a grid, in cell order."""
    return sorted(first + (r + dr) * columns + c + dc for dr, dc in steps
                  if 0 <= r + dr < rows and 0 <= c + dc < columns)
