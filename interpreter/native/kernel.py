"""Building a game's kernel (C through cffi, cached on disk) and running it.

:func:`kernel_for` gives a :class:`Kernel`, or raises :class:`NativeUnavailable` with the reason
(cffi or a C compiler missing, or a construct not translated yet, with its place).  The C source
is a function of the effective ruleset (its typed IR and layout, see :mod:`.emit`), so its SHA-256
keys the compiled module in the user's cache folder: a second build of the same game is an import.
"""
from __future__ import annotations

import hashlib
import importlib.machinery
import importlib.util
import os
import tempfile
import time
from pathlib import Path

from dsl import cache
from dsl.errors import RulesRuntimeError

from ..runtime.limits import MAX_CALL_DEPTH, MAX_STEPS
from ..runtime.state import State
from .emit import LCAP, MAXLOG, Emitter, struct_text
from .expressions import SCALARS, Unsupported
from .prelude import ERRORS

MAX_SOURCE = 4_000_000  # characters of C: a bound on the compiler's work for one ruleset
_LOADED: dict = {}  # SHA-256 of a source -> its compiled module


class NativeUnavailable(Exception):
    """Why a game runs in Python: no cffi or compiler, or a construct the kernel lacks."""


def kernel_folder() -> Path:
    """Where compiled kernels are kept: ``native/`` in the user's cache folder (a temporary folder
    when the cache is off)."""
    folder = cache.cache_folder()
    base = Path(folder) / "native" if folder is not None else Path(tempfile.gettempdir()) / "rulebook-native"
    base.mkdir(parents=True, exist_ok=True)
    return base


def kernel_for(game) -> "Kernel":
    """The native kernel of a loaded game, built (or found in the cache) now."""
    kernel = getattr(game, "_native_kernel", None)
    if kernel is not None:
        return kernel
    try:
        import cffi
    except ImportError:
        raise NativeUnavailable("the native extra is not installed (pip install 'rulebook[native]')") from None
    emitter = Emitter(game)
    try:
        source = emitter.source()
    except Unsupported as exc:
        where = f" at {exc.where.file}:{exc.where.line}" if exc.where is not None else ""
        raise NativeUnavailable(f"native: {exc.what}{where} not supported yet; using Python") from None
    if len(source) > MAX_SOURCE:
        raise NativeUnavailable(f"native: the kernel's C source would be {len(source) // 1000:,} kB, more than "
                                f"{MAX_SOURCE // 1000:,} kB (definitions expand where they are used); using Python")
    started = time.perf_counter()
    module, cached = _compiled(cffi, source, struct_text(game, len(emitter.tables.vars), len(emitter.tables.player_vars),
                                                        emitter.max_params, len(emitter.sites.flow_names)))
    kernel = Kernel(game, module, emitter.tables, time.perf_counter() - started, cached)
    kernel.sites = emitter.sites
    game._native_kernel = kernel
    return kernel


def _compiled(cffi, source, struct):
    key = hashlib.sha256(f"{cffi.__version__}\0{source}".encode()).hexdigest()[:24]
    if key in _LOADED:
        return _LOADED[key], True
    name = f"_rulebook_kernel_{key}"
    folder = kernel_folder()
    found = [str(folder / (name + suffix)) for suffix in importlib.machinery.EXTENSION_SUFFIXES
             if (folder / (name + suffix)).is_file()]  # built for this Python (the folder may serve several)
    cached = bool(found)
    if not found:
        ffi = cffi.FFI()
        ffi.cdef(struct + "\nint64_t k_play(KS *s);\nint64_t k_resume(KS *s);\n"
                 "int64_t k_play_many(const KS *start, int64_t n, uint64_t seed0, uint64_t policy0, "
                 "int64_t *totals, KS *work);\nvoid k_copy_game(KS *to, const KS *from);")
        ffi.set_source(name, source, extra_compile_args=["-O2", "-std=gnu11", "-fwrapv", "-w", "-Wno-misleading-indentation"])
        with tempfile.TemporaryDirectory(dir=folder) as work:
            try:
                built = ffi.compile(tmpdir=work, verbose=False)
            except Exception as exc:  # no compiler, or one that fails: the game runs in Python
                raise NativeUnavailable(f"native: the C compiler failed ({type(exc).__name__}); using Python") from None
            final = folder / Path(built).name
            os.replace(built, final)
            found = [str(final)]
    spec = importlib.util.spec_from_file_location(name, found[0])
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    _LOADED[key] = module
    return module, cached


class Kernel:
    """A game's compiled kernel: plays whole games from the start with a uniform random policy."""

    def __init__(self, game, module, tables, build_seconds, cached):
        self.game = game
        self.ffi = module.ffi
        self.lib = module.lib
        self.tables = tables
        self.build_seconds = build_seconds
        self.cached = cached
        self._start = self._initial()
        self._work = None
        self._head = self.ffi.offsetof("KS", "n_log")  # the state; the log and candidates after it are scratch

    def _initial(self):
        """The state before setup (``Game.state_before_setup``) as the kernel's arrays."""
        return self.arrays(self.game.state_before_setup())

    def arrays(self, s, ks=None):
        """The kernel's arrays of a state's data (zones, places, cells, what each seat knows, marks,
        variables, the generator), written into ``ks`` (a new buffer if None): everything but the
        flow's stack (see :mod:`.playout`).  ``state(arrays(s))`` gives back that data exactly."""
        game = self.game
        ks = self.ffi.new("KS *") if ks is None else ks
        if s.chance is not None:
            raise NativeUnavailable("native: a state in explicit chance mode; using Python")
        zitems = ks.zitems
        for z, cards in enumerate(s.zones):
            ks.zlen[z] = len(cards)
            if cards:
                zitems[z][0:len(cards)] = cards
        n = game.num_components
        if n:
            ks.loc[0:n] = s.loc
            ks.cell_of[0:n] = [-1 if c is None else c for c in s.cell_of]
            ks.known[0:n] = s.known
        if s.cells:
            ks.cells[0:len(s.cells)] = [-1 if c is None else c for c in s.cells]
        ks.blind_to[0:len(s.blind_to)] = s.blind_to
        for m, name in enumerate(game.mark_names):
            values = s.marks[name]
            if values:
                ks.marks[m][0:n] = [0 if v is None else v for v in values]
                ks.has_mark[m][0:n] = [v is not None for v in values]
        for i, name in enumerate(self.tables.vars):
            self._store(ks.vars, ks.lvars, i, s.vars[name])
        for i, name in enumerate(self.tables.player_vars):
            for p in range(game.num_players):
                self._store(ks.pvars[i], ks.lpvars[i], p, s.pvars[name][p])
        ks.rng = s.rng
        ks.n_log = s.moves
        ks.decider = -1 if s.decider is None else s.decider
        ks.end_reason = -1 if s.end_reason is None else self.tables.text(s.end_reason)
        ks.over = s.over
        ks.cap = 100_000
        ks.site = ks.force = ks.stop_seat = ks.greedy_ppm = -1  # from the start, the policy uniform (resume.py)
        return ks

    def _store(self, numbers, lists, i, value) -> None:
        """Put a variable's value into the kernel: a number into ``numbers[i]``, a list into the
        buffer ``lists[i]`` (its length first)."""
        if isinstance(value, list):
            if len(value) > LCAP:
                raise NativeUnavailable(f"native: a list variable starts with more than {LCAP} items; using Python")
            lists[i][0] = len(value)
            for j, item in enumerate(value):
                lists[i][1 + j] = self._encode(item)
        else:
            numbers[i] = self._encode(value)

    def _encode(self, value) -> int:
        if value is None:
            return -1
        if isinstance(value, str):
            number = self.tables.text(value)
            built = self.tables.compiled_texts
            if built is not None and number >= built:  # the C tables of texts have no row for it
                raise NativeUnavailable(f"native: the state holds the text {value[:40]!r}, which the kernel was not "
                                        "built with; using Python")
            return number
        return int(value)

    def play(self, seed: int, policy_seed: int, max_decisions: int = 100_000):
        """One game from seed ``seed`` with every seat uniformly random (the policy's own splitmix
        stream from ``policy_seed``): ``(actions, state)``, each action ``(option name, values)``
        (the first MAXLOG of them), the state a finished :class:`State`, or None when the game
        reached ``max_decisions`` unfinished.  A rule that fails raises its RulesRuntimeError."""
        ks = self._run(seed, policy_seed, max_decisions)
        return self.actions(ks), self.state(ks) if not ks.err and ks.over else None

    def outcome(self, seed: int, policy_seed: int, max_decisions: int = 100_000):
        """``play`` without the actions: ``(decisions taken, finished State or None)``."""
        ks = self._run(seed, policy_seed, max_decisions)
        return ks.n_log, self.state(ks) if ks.over else None

    def _run(self, seed, policy_seed, max_decisions):
        """Play one game in the kernel's work arrays (reused: a copy of the start state each time)."""
        ks = self._work
        if ks is None:
            ks = self._work = self.ffi.new("KS *")
        self.ffi.memmove(ks, self._start, self._head)
        ks.rng = seed & ((1 << 64) - 1)
        ks.policy_rng = policy_seed & ((1 << 64) - 1)
        ks.cap = max(0, max_decisions)
        ks.over = 0
        if self.lib.k_play(ks) == 1:
            raise self.error(ks)
        return ks

    def play_many(self, count: int, seed: int = 0, policy_seed: int = 0) -> list:
        """``count`` games from seeds ``seed``, ``seed + 1``, ...: the sums of each seat's returns."""
        totals = self.ffi.new("int64_t[]", self.game.num_players)
        work = self.ffi.new("KS *")
        done = self.lib.k_play_many(self._start, count, seed, policy_seed, totals, work)
        if done < count:
            if work.err:
                raise self.error(work)
            raise RulesRuntimeError(f"game {seed + done} went past {work.cap:,} decisions in the native kernel",
                                    hint="a game that does not end: check the flow")
        return list(totals)

    def actions(self, ks) -> list:
        """The actions the kernel took, each ``(option name, parameter values)``, a value that is a
        list as None (the kernel keeps no lists once the game is over)."""
        out = []
        for i in range(min(ks.n_log, MAXLOG)):
            row = ks.log[i]
            option = self.tables.options[row[0]]
            kinds = self.tables.param_kinds[row[0]]
            out.append((option.name, tuple(self._decode(row[1 + j], kinds[j]) for j in range(len(option.params)))))
        return out

    def state(self, ks) -> State:
        """The kernel's arrays as a :class:`State`: a finished game (narration muted: none is kept),
        or, from :meth:`arrays`, a state's data without its stack."""
        game = self.game
        s = State(game)
        s.zones = [[ks.zitems[z][i] for i in range(ks.zlen[z])] for z in range(len(game.zone_names))]
        s.loc = [ks.loc[c] for c in range(game.num_components)]
        s.cell_of = [None if ks.cell_of[c] < 0 else ks.cell_of[c] for c in range(game.num_components)]
        s.cells = [None if ks.cells[i] < 0 else ks.cells[i] for i in range(len(game.cell_zone))]
        s.known = [ks.known[c] for c in range(game.num_components)]
        s.blind_to = [ks.blind_to[z] for z in range(len(game.zone_names))]
        s.marks = {name: [self._mark(name, ks.marks[m][c]) if ks.has_mark[m][c] else None
                          for c in range(game.num_components)] for m, name in enumerate(game.mark_names)}
        rs = game.ruleset
        s.vars = {name: self._value(ks.vars[i], ks.lvars[i], rs.vars[name].type)
                  for i, name in enumerate(self.tables.vars)}
        s.pvars = {name: [self._value(ks.pvars[i][p], ks.lpvars[i][p], rs.player_vars[name].type)
                          for p in range(game.num_players)] for i, name in enumerate(self.tables.player_vars)}
        s.rng = int(ks.rng)
        s.stack = []
        s.moves = ks.n_log
        s.end_reason = None if ks.end_reason < 0 else self.tables.texts[ks.end_reason]
        if ks.over:
            s.finish()
        else:
            s.decider = None if ks.decider < 0 else ks.decider
        return s

    def _mark(self, name, value):
        """A mark's value: a boolean where the mark's starting values are, else a whole number."""
        return bool(value) if any(type(v) is bool for v in self.game.initial_marks[name]) else int(value)

    def _value(self, number, buffer, type_):
        """A variable's value from the kernel: a number, or the list in its buffer."""
        if type_.name == "list":
            return [self._decode(buffer[1 + j], type_.arg.name) for j in range(buffer[0])]
        return self._decode(number, type_.name)

    def _decode(self, value, type_name):
        """A kernel's number as the value of a type (a list as None: lists do not outlive the kernel)."""
        if type_name not in SCALARS:
            return None
        if type_name == "bool":
            return bool(value)
        if type_name == "str":
            return self.tables.texts[value] if 0 <= value < len(self.tables.texts) else None
        if type_name in ("player", "component", "cell", "zone") and value < 0:
            return None
        return int(value)

    def error(self, ks) -> RulesRuntimeError:
        """The RulesRuntimeError of a failure in the kernel, at the rule that failed, as Python says it."""
        code, a, b = ks.err, ks.err_a, ks.err_b
        where = self.tables.positions[ks.err_pos] if 0 <= ks.err_pos < len(self.tables.positions) else None
        game = self.game
        name = ERRORS[code - 1] if 1 <= code <= len(ERRORS) else "memory"
        limits = "docs/language.md, Bounded execution"
        triggers = game.ruleset.triggers
        texts = {
            "no_kind": (f"components(): no component kind '{_name(self.tables.texts, a)}'", None),
            "no_mark": (f"native: {_name(game.names, a)} has no mark '{_name(game.mark_names, b)}'",
                        "run it with --engine python"),
            "no_attribute": (f"{_name(game.names, a)} (a {_name(game.kinds, a)}) has no attribute "
                             f"'{_name(self.tables.attributes, b)}'", None),
            "holds": (f"{_name(game.names, a)} cannot go into zone '{_name(game.zone_names, b)}': it does not meet "
                      "the zone's 'holds' condition", "offer only components the zone holds"),
            "inside_itself": (f"{_name(game.names, a)} cannot go into zone '{_name(game.zone_names, b)}', which it "
                              "holds itself", "a component cannot lie inside itself"),
            "no_zone": (f"{_name(game.names, a)} is a {_name(game.kinds, a)}; it has no such zone", None),
            "trigger_depth": (f"trigger '{triggers[a].name if 0 <= a < len(triggers) else a}' set off more than 50 "
                              "triggers in a row",
                              "a trigger moves components that set it off again; add a 'when' condition"),
            "overflow": ("a whole number went out of range: whole numbers lie within ±2^63",
                         f"keep numbers small ({limits})"),
            "index": ("an index is out of range", "check the values this statement uses"),
            "division": ("division by zero", "check the values this statement uses"),
            "top_empty": (f"top(): zone '{_name(game.zone_names, a)}' is empty", "check size(zone) > 0 first"),
            "bottom_empty": (f"bottom(): zone '{_name(game.zone_names, a)}' is empty", "check size(zone) > 0 first"),
            "last_empty": ("last(): the list is empty", None),
            "first_empty": ("first(): the list is empty", None),
            "cell_taken": (f"cell {game.cell_text(a) if 0 <= a < len(game.cell_zone) else a} is taken by "
                           f"{_name(game.names, b)}", "check at(cell) == none first"),
            "steps": (f"the rules ran {MAX_STEPS} steps without asking anyone for a decision "
                      f"(in '{_name(self.tables.frames, a)}')",
                      "a loop here never ends: check that its condition becomes false, or add a 'break'"),
            "no_option": (f"{_name(game.player_names, a)} must decide here but has no legal option",
                          "add an option that is always possible (such as a pass), or 'if_none: skip'"),
            "range": ("range(): more than 10000 numbers", None),
            "place_none": ("place(): the component or the cell is none", None),
            "grid_needs_cell": (f"zone '{_name(game.zone_names, a)}' is a grid: components go onto a cell",
                                "use place(component, cell)"),
            "list_long": ("a list grew past 100,000 items", limits),
            "iterations": ("one statement ran more than 1,000,000 comprehension iterations",
                           f"iterate over fewer items, or split the work over several statements ({limits})"),
            "repeat": (f"repeat {a}: a repeat count is at most 1,000,000", limits),
            "die": (f"roll({a}): a die has 1 to 1000000 sides", None),
            "seat_none": ("seat(): the player is none", None),
            "no_element": (f"there is no element {a} in a list of {b}",
                           "elements are numbered from 0 to size(list) - 1"),
            "show_to_none": ("show(): 'to' is none (no seat to show to)", None),
            "show_none": ("show(): there is nothing to show (the value is none)", None),
            "no_seat": ("no seat meets the condition", "check that some player is still in"),
            "call_depth": (f"procedures call each other more than {MAX_CALL_DEPTH} deep", "a procedure calls itself without end"),
        }
        message, hint = texts.get(name, ("the native kernel ran out of its memory for this game",
                                         "run it with --engine python"))
        return RulesRuntimeError(message, where, hint)


def _name(names, i) -> str:
    return names[i] if 0 <= i < len(names) else str(i)
