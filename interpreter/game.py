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

from dsl.errors import CheckError, ErrorList, ParameterError, Position, RulebookError
from dsl.ir import Ruleset
from dsl.loader import load_ruleset
from dsl.registry import EFFECTS, FUNCTIONS

from .runtime import effects as _effects  # noqa: F401  (fills the effect registry)
from .runtime import functions as _functions  # noqa: F401  (fills the function registry)
from .codegen import tellers
from .runtime import chance, vm
from .runtime.chance import ChanceRecord
from .runtime.chance_points import ChancePoints
from .compile.program import Program, compile_program
from .runtime.effects import GameOver
from .store import search_path
from .store.load_cache import Store
from .store.saved_state import state_from_data
from .runtime.layout import Layout
from .runtime.state import State

tellers.install()  # narration writes its tellers with the code generator


RULESETS_DIR = search_path.SHIPPED  # the shipped rulesets


def find_ruleset(name_or_path: str | os.PathLike) -> Path:
    """A ruleset file from a path, or from the name of a ruleset, a variant or an example in the
    search path of :mod:`interpreter.store.search_path` (``rulesets/`` here, the user's folder, the shipped
    ones: ``pig``, ``kuhn-poker``, a variant's file name)."""
    if not isinstance(name_or_path, (str, os.PathLike)) or not str(name_or_path).strip():
        raise ErrorList([ParameterError(f"a ruleset is named by a text or a path, not {name_or_path!r}")])
    path = Path(name_or_path)
    try:
        if path.suffix in (".yaml", ".yml") or path.exists():
            return path
        found = search_path.find_named(str(name_or_path))
    except (OSError, ValueError):  # a name the file system refuses (too long, a NUL byte)
        found = None
    if found is not None:
        return found
    close = difflib.get_close_matches(str(name_or_path), search_path.all_names(), n=3)
    hint = (f"did you mean {' or '.join(repr(c) for c in close)}?" if close else
            f"known rulesets: {', '.join(search_path.known_names()) or 'none'}; "
            "`rulebook variants GAME` lists a game's variants, `rulebook where` the folders searched")
    shown = repr(str(name_or_path)) if len(str(name_or_path)) <= 80 else repr(str(name_or_path)[:80]) + "..."
    raise ErrorList([ParameterError(f"no ruleset named {shown}", hint=hint)])


def find_base(name: str, folder: Path):
    """The file a variant's ``extends:`` names: a path relative to the variant, or a ruleset name."""
    for candidate in (folder / name, folder / f"{name}.yaml"):
        if candidate.is_file():
            return candidate
    return search_path.find_named(name)


def load_game(name_or_path, params=None, players=None, text=None, cache: bool = True, find=None) -> "Game":
    """Load, check and compile a ruleset or variant (a name in the search path or a path; with
    ``text``, that text as the file at the path).  A game loaded from a file is kept in the user's
    cache folder and read from there the next time (:mod:`interpreter.store.load_cache`; ``cache=False``
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
    except CheckError as exc:  # what only the laid-out components show (see interpreter/compile/program.py)
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


class Game(Layout):
    """A loaded game: the ruleset's layout (:class:`~interpreter.runtime.layout.Layout`) and its
    compiled program (:func:`~interpreter.compile.program.compile_program`), with the public API:
    new states, saved states, action ids, scores."""

    def __init__(self, ruleset: Ruleset, path=None, codegen: bool = True, inline: bool = True):
        """``codegen=False`` compiles with the closure compiler alone: the reference the tests
        compare the generated code with (interpreter/codegen/, which enforces the same work budget
        of interpreter/runtime/limits.py).  ``inline=False`` compiles every call as a call (see
        interpreter/compile/inlining.py), the reference for inlined calls."""
        Layout.__init__(self, ruleset)
        self.path = str(path) if path else ruleset.file
        program = compile_program(ruleset, self, codegen=codegen, inline=inline)
        for field in Program.FIELDS:
            setattr(self, field if field not in _PRIVATE else "_" + field, getattr(program, field))

    # ---- states ------------------------------------------------------------------------------
    def new_initial_state(self, seed: int = 0, arrange=None, explicit_chance: bool = False) -> State:
        """A new game: components created, ``setup`` run, the flow advanced to the first decision.

        ``arrange``, if given, is called with the state after setup and before the flow starts; tests
        use it (through :func:`interpreter.runtime.positions.arrange`) to set up a position.  With
        ``explicit_chance`` every random event is a chance node (see :mod:`interpreter.runtime.chance`)."""
        try:
            seed = operator.index(seed)
        except TypeError:
            raise ParameterError(f"the seed is a whole number, not {seed!r}") from None
        s = self.state_before_setup()
        s.rng = int(seed) & ((1 << 64) - 1)
        if explicit_chance:
            s.chance = ChanceRecord()
            chance.start(s, lambda work: self.start_state(work, arrange))
        else:
            self.start_state(s, arrange)
        return s

    def state_before_setup(self) -> State:
        """A new state with the components where the tables put them and the variables at their
        initial values, before ``setup`` runs (generator state 0)."""
        s = State(self)
        s.zones = [z[:] for z in self.initial_zones]
        s.loc = self.initial_loc[:]
        s.cell_of = [None] * self.num_components
        s.cells = [None] * len(self.cell_zone)
        s.known = [self.all_seats] * self.num_components
        s.marks = {m: v[:] for m, v in self.initial_marks.items()}
        s.vars = {n: v.initial for n, v in self.ruleset.vars.items()}
        s.pvars = {n: [v.initial] * self.num_players for n, v in self.ruleset.player_vars.items()}
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
        format and this game first (see :mod:`interpreter.store.saved_state`)."""
        return state_from_data(self, data)

    def chance_points(self) -> ChancePoints:
        """Where a step of explicit chance may stop (made on first use; see
        :mod:`interpreter.runtime.chance_points`)."""
        try:
            return self._chance_points
        except AttributeError:
            self._chance_points = ChancePoints(self)
            return self._chance_points

    # ---- action ids (see interpreter/runtime/action_ids.py) ---------------------------------------------
    def action_space(self):
        """The fixed numbering of this game's actions (made on first use)."""
        if getattr(self, "_action_space", None) is None:
            from .runtime.action_ids import ActionSpace
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

    def side_of(self, s: State, player: int):
        """The side a seat plays for: its team (``scoring: team:``), everyone's one side in a
        cooperative game, else the seat alone."""
        if self.ruleset.cooperative:
            return "all"
        if self._team is None:
            return player
        return ("team", self._team(s, {"player": player}))

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
        if option.text:  # the fields are names and expressions, never str.format's indexes: not formatted
            context = context or {}
            return "".join(literal + ("" if field is None else texts[field] if field in texts else
                                      context.get(field, "…"))
                           for literal, field, _, _ in string.Formatter().parse(option.text))
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


_PRIVATE = ("score", "tiebreaks", "evaluation", "team")  # kept as _score…: Game.score() is the API
