"""A compiled game: the component tables, the zone layout, the compiled rules.

``load_game`` runs the whole pipeline; ``Game.new_initial_state(seed)`` starts a game.
"""
from __future__ import annotations

import difflib
import gc
import operator
import os
import string
from pathlib import Path

from dsl.errors import CheckError, ErrorList, ParameterError, Position, RulebookError, RulesRuntimeError
from dsl.ir import Ruleset
from dsl.loader import load_ruleset
from dsl.registry import EFFECTS, FUNCTIONS

from . import effects as _effects  # noqa: F401  (fills the effect registry)
from . import functions as _functions  # noqa: F401  (fills the function registry)
from . import chance, views, vm
from .chance import ChanceRecord
from .compiler import Compiler, component_content
from .codegen_ranges import mark_ranges
from .effects import GameOver
from .load_cache import Store
from .saved_state import state_from_data
from .state import State

RULESETS_DIR = Path(os.environ.get("RULEBOOK_RULESETS", Path(__file__).resolve().parent.parent / "rulesets"))


def find_ruleset(name_or_path: str | os.PathLike) -> Path:
    """A ruleset file from a path, or from the name of a ruleset, a shipped variant or an example
    (a file anywhere under ``rulesets/``: ``pig``, ``kuhn-poker``, a variant's file name)."""
    if not isinstance(name_or_path, (str, os.PathLike)) or not str(name_or_path).strip():
        raise ErrorList([ParameterError(f"a ruleset is named by a text or a path, not {name_or_path!r}")])
    path = Path(name_or_path)
    try:
        if path.suffix in (".yaml", ".yml") or path.exists():
            return path
        found = named_ruleset(str(name_or_path))
    except (OSError, ValueError):  # a name the file system refuses (too long, a NUL byte)
        found = None
    if found is not None:
        return found
    names = sorted({p.stem for p in shipped_rulesets()})
    close = difflib.get_close_matches(str(name_or_path), names, n=3)
    hint = (f"did you mean {' or '.join(repr(c) for c in close)}?" if close else
            f"known rulesets: {', '.join(p.stem for p in sorted(RULESETS_DIR.glob('*.yaml'))) or 'none'}; "
            "`rulebook variants GAME` lists a game's variants")
    shown = repr(str(name_or_path)) if len(str(name_or_path)) <= 80 else repr(str(name_or_path)[:80]) + "..."
    raise ErrorList([ParameterError(f"no ruleset named {shown}", hint=hint)])


def shipped_rulesets() -> list:
    """Every ruleset and variant file under ``rulesets/``."""
    return sorted(p for p in RULESETS_DIR.rglob("*") if p.suffix in (".yaml", ".yml") and p.is_file())


def named_ruleset(name: str):
    """The file under ``rulesets/`` that a name means: ``NAME.yaml`` there, or in one of its folders."""
    for candidate in (RULESETS_DIR / f"{name}.yaml", RULESETS_DIR / f"{name}.yml"):
        if candidate.is_file():
            return candidate
    for path in shipped_rulesets():
        if name in (path.stem, path.relative_to(RULESETS_DIR).with_suffix("").as_posix()):
            return path
    return None


def find_base(name: str, folder: Path):
    """The file a variant's ``extends:`` names: a path relative to the variant, or a ruleset name."""
    for candidate in (folder / name, folder / f"{name}.yaml", RULESETS_DIR / f"{name}.yaml",
                      RULESETS_DIR / name):
        if candidate.is_file():
            return candidate
    return named_ruleset(name)


def load_game(name_or_path, params=None, players=None, text=None, cache: bool = True, find=None) -> "Game":
    """Load, check and compile a ruleset or variant (a name under ``rulesets/`` or a path; with
    ``text``, that text as the file at the path).  A game loaded from a file is kept in the user's
    cache folder and read from there the next time (:mod:`interpreter.load_cache`; ``cache=False``
    or ``RULEBOOK_NO_CACHE=1`` turn that off).  ``find(name, folder)`` locates the file an
    ``extends:`` names (default :func:`find_base`; the web table's catalog keeps to its folder)."""
    path = find_ruleset(name_or_path) if text is None else Path(name_or_path)
    _check_arguments(params, players)
    find_file = find_base if find is None else find
    store = Store.open(path, params, players, cache) if text is None else None
    if store is not None:
        game = store.get(find_file)
        if game is not None:
            return game
    collecting = gc.isenabled()
    gc.disable()  # the pipeline makes tens of thousands of objects that live until it ends: no collections
    try:
        finder = find_file if store is None else store.recording(find_file)
        ruleset = load_ruleset(path, FUNCTIONS, EFFECTS, params, players, find=finder, text=text)
        game = Game(ruleset, path)
        if store is not None:
            store.put(game)
        return game
    except CheckError as exc:  # what only the laid-out components show (see Game._zone_conditions)
        raise ErrorList([exc]) from None
    except RecursionError:  # a last guard: every stage bounds nesting well below Python's limit
        raise ErrorList([CheckError("the rules are nested too deeply", Position(str(path), 1, 1),
                                    "split deep expressions with 'let' or definitions")]) from None
    finally:
        if collecting:
            gc.enable()


def _check_arguments(params, players) -> None:
    if players is not None and (isinstance(players, bool) or not isinstance(players, int)):
        raise ErrorList([ParameterError(f"players is a whole number, not {players!r}")])
    if params is not None and (not isinstance(params, dict) or not all(isinstance(k, str) for k in params)):
        raise ErrorList([ParameterError(f"params maps parameter names to values, not {params!r}",
                                        hint="for example params={'hand_size': 5}")])


class Game:
    def __init__(self, ruleset: Ruleset, path=None, codegen: bool = True, inline: bool = True):
        """``codegen=False`` compiles with the closure compiler alone: the reference the tests
        compare the generated code with (interpreter/codegen*.py, which enforces the same work
        budget of interpreter/limits.py).  ``inline=False`` compiles every call as a call (see
        interpreter/inlining.py), the reference for inlined calls."""
        self.ruleset = ruleset
        self._codegen = codegen
        self._inline = inline
        self.path = str(path) if path else ruleset.file
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
        self._compile()

    # ---- layout ------------------------------------------------------------------------------
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

    # ---- compilation -------------------------------------------------------------------------
    def _compile(self):
        rs = self.ruleset
        compiler = Compiler(rs, self, codegen=self._codegen, inline=self._inline)
        mark_ranges(compiler, self)  # before any code is generated: its arithmetic checks read them
        self.setup_proc = compiler.procedure("setup", [], rs.setup, None)
        self.flow_proc = compiler.procedure("flow", [], rs.flow, None, decides=True)
        per_zone = [None] * len(self.zone_names)
        events = ("enter", "leave", "empty")
        for trigger in rs.triggers:
            proc = compiler.procedure(f"trigger '{trigger.name}'", [], trigger.body, trigger.position)
            when = compiler.expr(trigger.when) if trigger.when is not None else None
            for zone in (z for z, family in enumerate(self.zone_family) if family == trigger.zone):
                if per_zone[zone] is None:
                    per_zone[zone] = ([], [], [])
                per_zone[zone][events.index(trigger.event)].append((proc, when))
        self.zone_triggers = per_zone
        self.procs = compiler.procs
        self.codes = [proc.code for proc in self.procs]
        self.openings = vm.opening_decisions(self.codes)
        self.straight = vm.straight_bodies(self.codes)
        self._score = compiler.expr(rs.score) if rs.score is not None else None
        self._tiebreaks = [compiler.expr(t) for t in rs.tiebreaks]
        self._evaluation = compiler.expr(rs.evaluation) if rs.evaluation is not None else None
        self.zone_holds = self._zone_conditions(compiler)
        # per zone, what State.move_component reads of a move into it: whether the move checks more
        # than the common case (State._enter), who sees its whole contents always (None: it depends
        # on the state), who sees its top, the triggers entering it sets off (None: none); and of a
        # move out of it: who sees it always, its top, the triggers of leaving it, of its emptying
        checked = [host is not None or holds is not None or self.has_grids
                   for host, holds in zip(self.zone_host, self.zone_holds)]
        fired = [[(z and z[event]) or None for z in per_zone] for event in range(3)]  # enter, leave, empty
        self.arrivals = [(checked[z], self.zone_mask[z], self.top_mask[z], fired[0][z])
                         for z in range(len(self.zone_names))]
        self.departures = [(self.zone_mask[z], self.top_mask[z], fired[1][z], fired[2][z])
                           for z in range(len(self.zone_names))]
        compiler.finish()

    def _zone_conditions(self, compiler) -> list:
        """Per zone, which components it may hold (``mask[c]``), or None if it holds any."""
        masks = {}
        for name, family in self.ruleset.zones.items():
            if family.holds is None:
                continue
            test = compiler.expr(family.holds)
            masks[name] = [_meets(test, c) for c in range(self.num_components)]
        per_zone = [masks.get(family) for family in self.zone_family]
        for zone, cards in enumerate(self.initial_zones):
            for c in cards:
                if per_zone[zone] is not None and not per_zone[zone][c]:
                    raise CheckError(f"{self.names[c]} starts in zone '{self.zone_names[zone]}', whose "
                                     "'holds' condition it does not meet",
                                     self.ruleset.zones[self.zone_family[zone]].holds.pos,
                                     "start it in another zone ('in:'), or widen the condition")
        return per_zone

    # ---- states ------------------------------------------------------------------------------
    def new_initial_state(self, seed: int = 0, arrange=None, explicit_chance: bool = False) -> State:
        """A new game: components created, ``setup`` run, the flow advanced to the first decision.

        ``arrange``, if given, is called with the state after setup and before the flow starts; tests
        use it (through :func:`interpreter.positions.arrange`) to set up a position.  With
        ``explicit_chance`` every random event is a chance node (see :mod:`interpreter.chance`)."""
        try:
            seed = operator.index(seed)
        except TypeError:
            raise ParameterError(f"the seed is a whole number, not {seed!r}") from None
        s = State(self)
        s.zones = [z[:] for z in self.initial_zones]
        s.loc = self.initial_loc[:]
        s.cell_of = [None] * self.num_components
        s.cells = [None] * len(self.cell_zone)
        s.known = [self.all_seats] * self.num_components
        s.marks = {m: v[:] for m, v in self.initial_marks.items()}
        s.vars = {n: v.initial for n, v in self.ruleset.vars.items()}
        s.pvars = {n: [v.initial] * self.num_players for n, v in self.ruleset.player_vars.items()}
        s.rng = int(seed) & ((1 << 64) - 1)
        if explicit_chance:
            s.chance = ChanceRecord()
            chance.start(s, lambda work: self.start_state(work, arrange))
        else:
            self.start_state(s, arrange)
        return s

    def start_state(self, s: State, arrange=None) -> None:
        """Run ``setup`` on a new state and the flow to its first decision (or the end)."""
        try:
            vm.execute(s, [[self.setup_proc, 0, {}]], False)
            if arrange is not None:
                arrange(s)
            s.stack = [[self.flow_proc, 0, {}]]
            vm.run(s)
        except GameOver:
            s.stack = []
            s.finish()
        except RulebookError as exc:
            s.failure = exc
            raise

    def state_from_json(self, data) -> State:
        """Rebuild a state from ``State.to_json()`` text (or its dict), checked against the state
        format and this game first (see :mod:`interpreter.saved_state`)."""
        return state_from_data(self, data)

    # ---- action ids (see interpreter/action_ids.py) ---------------------------------------------
    def action_space(self):
        """The fixed numbering of this game's actions (made on first use)."""
        if getattr(self, "_action_space", None) is None:
            from .action_ids import ActionSpace
            self._action_space = ActionSpace(self)
        return self._action_space

    def num_distinct_actions(self) -> int:
        """How many action ids there are (stage ids, when the action space is staged)."""
        return self.action_space().size

    # ---- scoring and naming --------------------------------------------------------------------
    def score(self, s: State, player: int) -> int:
        if self._score is None:
            return 0
        return self._score(s, {"player": player})

    def rank_key(self, s: State, player: int) -> tuple:
        env = {"player": player}
        return (self.score(s, player),) + tuple(t(s, env) for t in self._tiebreaks)

    def evaluate(self, s: State, player: int) -> int:
        """The ruleset's evaluation of a position for a player (its score when none is declared)."""
        if self._evaluation is None:
            return self.score(s, player)
        return self._evaluation(s, {"player": player})

    def action_text(self, option, values, context=None) -> str:
        """An action's text: the option's text with its parameters' values (and, in ``context``, the
        other fields as they were when the decision was asked)."""
        texts = {}
        for name, value, kind in zip(option.param_names, values, option.param_kinds):
            texts[name] = self._render(value, kind)
        if option.text and context:
            return "".join(literal + (context[field] if field in context else
                                      format(texts[field], spec or "") if field is not None else "")
                           for literal, field, spec, _ in string.Formatter().parse(option.text))
        if option.text:
            return option.text.format(**texts)
        return " ".join([option.name] + list(texts.values()))

    def _render(self, value, kind) -> str:
        if kind == "component" and isinstance(value, int):
            return self.names[value]
        if kind == "player" and isinstance(value, int):
            return self.player_names[value]
        if kind == "cell" and isinstance(value, int):
            return self.cell_text(value)
        if kind == "zone" and isinstance(value, int):
            return self.zone_names[value]
        if isinstance(value, bool):
            return "yes" if value else "no"
        if isinstance(value, list):
            return "[" + ", ".join(self._render(v, None) for v in value) + "]"
        if value is None:
            return "none"
        return str(value)


def _meets(test, c) -> bool:
    """Whether component ``c`` meets a condition on its printed attributes (one it lacks: no)."""
    try:
        return bool(test(None, {"component": c}))
    except RulesRuntimeError:
        return False


ORTHOGONAL = ((-1, 0), (0, -1), (0, 1), (1, 0))
DIAGONAL = ((-1, -1), (-1, 1), (1, -1), (1, 1))


def _around(first, rows, columns, r, c, steps):
    """The cells one step away from row r, column c of a grid, in cell order."""
    return sorted(first + (r + dr) * columns + c + dc for dr, dc in steps
                  if 0 <= r + dr < rows and 0 <= c + dc < columns)
