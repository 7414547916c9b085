"""Action ids: a fixed, finite numbering of what actions mean, per game and player count.

An id names an option and the meaning of its parameters, never internal component ids: a component
is numbered by its name (interchangeable components share it) or, on a grid, by its cell; a cell by
itself; a player by the seat; an int by its offset in the parameter's range (inferred by
:mod:`dsl.ranges`, from declared ``min``/``max`` where it reads variables); a string by its index in
the ruleset's vocabulary (every string the rules spell out); a bool as 0/1.  A list parameter is not
numbered: the other parameters must tell such actions apart.  So identical cards give the same id in
every determinization.  Two legal actions can still mean the same by these rules when same-named
components differ in what the decider sees (their zone or marks): ordered by zone and marks, the
first keeps the id and the others take ids from a small reserve at the end of the space (``COPIES``;
in a staged space each takes one more stage, ``copy k``).

When the flat numbering (every option times the sizes of its parameters) would exceed
``FLAT_LIMIT`` ids, the space is *staged*: an action is a sequence of ids, one per stage (the
option's name, then each numbered parameter in the order of the staged decisions of
:mod:`interpreter.runtime.staging`), all drawn from one shared vocabulary; the
caller keeps the ids chosen so far (the prefix) and asks for the ids legal next.
"""
from __future__ import annotations

from dsl import ast
from dsl.errors import RulesRuntimeError
from dsl.ranges import element_range, statements

from .instructions import CHOOSE
from .staging import stage_order

FLAT_LIMIT = 10_000
KNOWN_IDS = 100_000  # how many ids of values an action space remembers (see ActionSpace._keys)
KNOWN_SETS = 4_096  # how many legal sets an action space remembers the numbering of (see legal_numbering)
COPIES = 32  # ids reserved for actions whose meaning repeats another's (see above)
KINDS = ("component", "cell", "player", "int", "str", "bool")  # numbered parameter kinds, in vocabulary order


class ActionSpace:
    """The numbering of one game's actions (``game.action_space()``)."""

    def __init__(self, game):
        self.game = game
        self.num_names = max(game.name_index, default=-1) + 1
        self.num_cells = len(game.cell_zone)
        self.strings = _vocabulary(game.ruleset)
        self.string_index = {s: i for i, s in enumerate(self.strings)}
        self.options: list = []  # (key, name, [(kind, low)] per parameter, sizes)
        self._option_of: dict = {}  # OptionSpec -> index in self.options
        domains = _domain_nodes(game.ruleset)
        copies: dict = {}  # (place, name) -> the compiled copies of the option (one per inlined call)
        self.prompts: dict = {}  # OptionSpec -> the prompt of its decision
        for spec, prompt in _option_specs(game):
            copies.setdefault((_where(spec.position), spec.name), []).append(spec)
            self.prompts[spec] = prompt
        for key in _option_order(game.ruleset):
            if key not in copies:
                continue
            spec = copies[key][0]
            params = [self._parameter(spec, i, domains.get(key)) for i in range(len(spec.param_names))]
            for copy in copies[key]:
                self._option_of[copy] = len(self.options)
            self.options.append((key, spec.name, params, [self._size(k, lo, hi) for k, lo, hi in params]))
        self.flat_offsets = []
        total = 0
        for _, _, _, sizes in self.options:
            self.flat_offsets.append(total)
            block = 1
            for size in sizes:
                block *= size
            total += block
        self.flat_size = total
        self.staged = total > FLAT_LIMIT
        self.option_names = list(dict.fromkeys(o[1] for o in self.options))
        self.option_name_index = {n: i for i, n in enumerate(self.option_names)}
        self.int_low = min((lo for o in self.options for k, lo, _ in o[2] if k == "int"), default=0)
        int_high = max((hi for o in self.options for k, _, hi in o[2] if k == "int"), default=-1)
        sizes = {"component": self.num_names + self.num_cells, "cell": self.num_cells,
                 "player": game.num_players, "int": max(0, int_high - self.int_low + 1),
                 "str": len(self.strings), "bool": 2}
        self.stage_base = {}
        base = len(self.option_names)
        for kind in KINDS:
            self.stage_base[kind] = base
            base += sizes[kind]
        self.copy_base = base if self.staged else total
        self.size = self.copy_base + COPIES
        self._cache = (None, None, None)  # the legal actions last numbered, their table, its sorted ids
        self._constant_id = {} if self.staged else {  # OptionSpec -> its one flat id (no numbered parameter)
            spec: self.flat_offsets[index] for spec, index in self._option_of.items()
            if all(kind == "other" for kind, _, _ in self.options[index][2])}
        self._known_ids: dict = {}  # {OptionSpec: {values: flat id}} of ids that need nothing of the state
        self._known_count = 0
        self._known_sets: dict = {}  # {ids (or options) of legal actions in their order: (sorted ids, {id: position})}
        # every option of a flat space is parameterless: a legal set is named by its options alone
        self._by_option = bool(self._constant_id) and len(self._constant_id) == len(self._option_of)
        self._plans = {} if self.staged else {  # OptionSpec -> how to number it quickly (see _plan)
            spec: self._plan(index) for spec, index in self._option_of.items()
            if spec not in self._constant_id and self._plan(index) is not None}

    def _plan(self, index):
        """``(flat offset, ((parameter, low, size, names or None), ...))`` for an option whose
        numbered parameters are ints, cells, players or (in a game without grids) components, whose
        keys need nothing of the state (a component's is its name's index in ``names``); else None."""
        _, _, params, sizes = self.options[index]
        steps = []
        for position, ((kind, low, _), size) in enumerate(zip(params, sizes)):
            if kind in ("int", "cell", "player"):
                steps.append((position, low, size, None))
            elif kind == "component" and not self.num_cells:
                steps.append((position, 0, size, self.game.name_index))
            elif kind != "other":  # a text or a truth value: flat_id
                return None
        return self.flat_offsets[index], tuple(steps)

    # ---- layout ----------------------------------------------------------------------------------
    def _parameter(self, spec, i, domain_nodes) -> tuple:
        kind = spec.param_kinds[i]
        if kind not in KINDS:
            return ("other", 0, 0)
        if kind != "int":
            return (kind, 0, 0)
        node = domain_nodes[i] if domain_nodes else None
        low, high = element_range(self.game.ruleset, node, self.game.num_components) if node else (None, None)
        if low is None or high is None:
            raise RulesRuntimeError(
                f"the int parameter '{spec.param_names[i]}' of option '{spec.name}' has no known range, "
                "so its actions cannot be numbered",
                spec.position, "write its domain as range(a, b) of bounded values, or declare 'min' and "
                "'max' on the variables it depends on")
        return ("int", low, high)

    def _size(self, kind, low, high) -> int:
        return {"component": self.num_names + self.num_cells, "cell": self.num_cells,
                "player": self.game.num_players, "int": high - low + 1, "str": len(self.strings),
                "bool": 2}.get(kind, 1)

    # ---- meaning of one action ----------------------------------------------------------------
    def _value_key(self, state, kind, low, value, action) -> int:
        if kind == "component":
            cell = state.cell_of[value] if self.num_cells and value is not None else None
            if value is None:
                raise RulesRuntimeError(f"'{action}' names no component, so it has no id")
            return self.num_names + cell if cell is not None else self.game.name_index[value]
        if kind in ("cell", "player"):
            return value
        if kind == "int":
            return value - low
        if kind == "str":
            if value not in self.string_index:
                raise RulesRuntimeError(f"'{action}' names the text {value!r}, which the ruleset never spells "
                                        "out, so it has no id", hint="use texts written in the rules")
            return self.string_index[value]
        if kind == "bool":
            return int(bool(value))
        return 0

    def flat_id(self, state, action) -> int:
        index = self._option_of[action.option]
        _, _, params, sizes = self.options[index]
        number = 0
        for (kind, low, high), size, value in zip(params, sizes, action.values):
            if kind == "int" and type(value) is int:
                key = value - low
            elif kind == "cell" or kind == "player":
                key = value
            else:
                key = self._value_key(state, kind, low, value, action)
            if not 0 <= key < size:
                raise RulesRuntimeError(f"'{action}' lies outside the numbered range {low} .. {high}",
                                        hint="declare a wider 'min'/'max'")
            number = number * size + key
        return self.flat_offsets[index] + number

    def stage_ids(self, state, action) -> tuple:
        _, name, params, _ = self.options[self._option_of[action.option]]
        ids = [self.option_name_index[name]]
        for i in stage_order(self.game, action.option):
            kind, value = params[i][0], action.values[i]
            if kind == "other":
                continue
            key = self._value_key(state, kind, self.int_low if kind == "int" else 0, value, action)
            ids.append(self.stage_base[kind] + key)
        return tuple(ids)

    def action_id(self, state, action):
        """The action's id (flat), or its ids stage by stage (staged)."""
        for key, legal in self.legal_table(state).items():
            if legal is action or legal == action:
                return key
        raise RulesRuntimeError(f"'{action}' is not a legal action now, so it has no id")

    def legal_table(self, state) -> dict:
        """Every legal action of ``state`` by its id (flat) or stage ids (staged)."""
        legal = state.legal_actions()
        if self._cache[0] is legal:
            return self._cache[1]
        keys = None
        if not self.staged:
            known = self._known_ids
            try:  # the usual case: every action's id is known from an earlier decision
                keys = [known[action.option][action.values] for action in legal]
            except (KeyError, TypeError):  # an id not seen yet, or values that are no key (a list)
                pass
        if keys is None:
            keys = self._keys(state, legal)
        table = dict(zip(keys, legal))
        if len(table) == len(legal):  # the usual case: no two actions mean the same
            self._cache = (legal, table, sorted(table) if not self.staged else None)
            return table
        groups: dict = {}
        for key, action in zip(keys, legal):
            groups.setdefault(key, []).append(action)
        table, copies = {}, 0
        for key in sorted(groups, key=repr):
            group = groups[key]
            if len(group) == 1:
                table[key] = group[0]
                continue
            group.sort(key=lambda a: _seen_key(state, a))
            for k, action in enumerate(group):
                if copies + k >= COPIES:
                    raise RulesRuntimeError(f"more than {COPIES} legal actions repeat the meaning of '{action}'",
                                            action.option.position, "give the actions a parameter that tells "
                                            "them apart")
                if self.staged:
                    table[key + (self.copy_base + k,)] = action
                elif k == 0:
                    table[key] = action
                else:
                    table[self.copy_base + copies + k - 1] = action
            copies += len(group) - (0 if self.staged else 1)
        self._cache = (legal, table, sorted(table) if not self.staged else None)
        return table

    def _keys(self, state, legal) -> list:
        """The id (flat) or stage ids (staged) of each legal action; ids that need nothing of the
        state (a constant option's, or a plan's) are remembered in ``_known_ids``."""
        meaning, constant, plans, known = (self.stage_ids if self.staged else self.flat_id), \
            self._constant_id, self._plans, self._known_ids
        keys = []
        for action in legal:  # flat_id, in line where a plan says how (it is run for every legal action)
            option = action.option
            key = constant.get(option)
            if key is None:
                plan = plans.get(option)
                if plan is not None:
                    number, values = 0, action.values
                    for position, low, size, names in plan[1]:
                        value = values[position]
                        if type(value) is not int:
                            break
                        part = value - low if names is None else names[value]
                        if not 0 <= part < size:
                            break
                        number = number * size + part
                    else:
                        key = plan[0] + number
            if key is None:
                keys.append(meaning(state, action))
                continue
            keys.append(key)
            if self._known_count < KNOWN_IDS:
                try:
                    known.setdefault(option, {})[action.values] = key
                    self._known_count += 1
                except TypeError:  # values that are no key (a list)
                    pass
        return keys

    def legal_numbering(self, state) -> tuple:
        """``(ids, where, legal)`` of a flat space: the legal ids, sorted; ``{id: its action's
        position in legal}``; ``state.legal_actions()``.  ``ids`` and ``where`` are the space's own,
        shared by every decision whose legal actions have the same ids in the same order (the
        usual case: one lookup per action and one for the set; in a space of parameterless options
        the set is named by the options, with no lookup per action): to be read, never changed."""
        legal = state.legal_actions()
        if self._by_option:  # one attribute an action, no lookup: its option decides its id
            size = len(legal)  # (two or three: most decisions of the small games, without a loop)
            keys = (legal[0].option, legal[1].option) if size == 2 else \
                (legal[0].option, legal[1].option, legal[2].option) if size == 3 else \
                tuple([action.option for action in legal])
        else:
            known = self._known_ids
            try:
                keys = tuple([known[action.option][action.values] for action in legal])
            except (KeyError, TypeError):  # an id not seen yet, or values that are no key (a list)
                keys = None
        if keys is not None:
            found = self._known_sets.get(keys)
            if found is not None:
                return found[0], found[1], legal
        table = self.legal_table(state)
        position = {id(action): n for n, action in enumerate(legal)}
        found = (self._cache[2], {key: position[id(action)] for key, action in table.items()})
        if keys is not None and len(table) == len(legal) and len(self._known_sets) < KNOWN_SETS:
            self._known_sets[keys] = found  # no two actions share an id: the ids alone decide it
        return found[0], found[1], legal

    def legal_ids(self, state, prefix=()) -> list:
        """The ids legal now (flat), or legal at the next stage after ``prefix`` (staged)."""
        table = self.legal_table(state)
        if not self.staged:
            return list(self._cache[2])
        prefix = tuple(prefix)
        n = len(prefix)
        return sorted({ids[n] for ids in table if len(ids) > n and ids[:n] == prefix})

    def action_from_id(self, state, ids):
        """The legal action of an id (flat) or a complete tuple of stage ids (staged)."""
        key = tuple(ids) if self.staged and not isinstance(ids, int) else ids
        action = self.legal_table(state).get(key)
        if action is None:
            raise RulesRuntimeError(f"no legal action has the id {ids!r} now",
                                    hint="choose one of state.legal_action_ids()")
        return action

    def is_complete(self, state, prefix) -> bool:
        """Whether a staged prefix names a whole action."""
        return tuple(prefix) in self.legal_table(state)

    def describe_id(self, i: int) -> str:
        """A readable name of a flat id or a stage id, for logs and debugging."""
        if i >= self.copy_base:
            return f"copy {i - self.copy_base}"
        if self.staged:
            if i < len(self.option_names):
                return self.option_names[i]
            kind = [k for k in KINDS if self.stage_base[k] <= i][-1]  # an empty kind shares the next one's base
            return self._key_text(kind, self.int_low, i - self.stage_base[kind])
        index = max(j for j, offset in enumerate(self.flat_offsets) if offset <= i)
        _, name, params, sizes = self.options[index]
        rest, keys = i - self.flat_offsets[index], []
        for size in reversed(sizes):
            keys.append(rest % size)
            rest //= size
        parts = [self._key_text(kind, low, key) for (kind, low, _), key in zip(params, reversed(keys))
                 if kind != "other"]
        return " ".join([name] + parts)

    def _key_text(self, kind, low, key) -> str:
        game = self.game
        if kind == "component":
            if key >= self.num_names:
                return game.cell_text(key - self.num_names)
            return game.names[game.name_index.index(key)]
        if kind == "cell":
            return game.cell_text(key)
        if kind == "player":
            return game.player_names[key]
        if kind == "int":
            return str(low + key)
        if kind == "str":
            return repr(self.strings[key])
        return "yes" if key else "no"


def _seen_key(state, action) -> tuple:
    """What tells apart same-named components of actions that mean the same: zone and marks."""
    key = []
    for value, is_component in zip(action.values, action.option.component_params):
        if is_component and value is not None:
            key.append((state.loc[value],) + tuple(repr(m[value]) for m in state.marks.values()))
    return tuple(key)


def _option_specs(game):
    """``(option, its decision's prompt)`` of every option of every decision of the compiled rules,
    in code order."""
    for proc in game.procs:
        for instruction in proc.code:
            if instruction is not None and instruction[0] == CHOOSE:
                for option in instruction[1].options:
                    yield option, instruction[1].prompt


def _option_order(rs) -> list:
    """``(place, name)`` of every option of the rules in a fixed order that does not depend on how
    calls are compiled (:mod:`interpreter.compile.inlining`): procedure by procedure, each as the rules
    first call it (setup, flow, triggers, a callee after its caller), the decisions of each in the
    order written.  Ids stay the same whichever calls are compiled in place."""
    from dsl import ir

    order, seen = [], set()

    def visit(body) -> None:
        order.append(body)
        for stmt in ir.walk(body):
            if isinstance(stmt, ir.CallProc) and stmt.proc not in seen and stmt.proc in rs.procedures:
                seen.add(stmt.proc)
                visit(rs.procedures[stmt.proc].body)

    for body in [rs.setup, rs.flow] + [trigger.body for trigger in rs.triggers]:
        visit(body)
    keys = []
    for body in order:
        for stmt in ir.walk(body):
            if isinstance(stmt, ir.Choose):
                keys += [(_where(option.position), option.name) for option in stmt.options]
    return list(dict.fromkeys(keys))


def _where(position) -> tuple:
    return (getattr(position, "file", None), getattr(position, "line", None), getattr(position, "column", None))


def _domain_nodes(rs) -> dict:
    """The domain expressions of each option's parameters, by the option's place and name."""
    from dsl import ir

    found = {}
    for stmt in statements(rs):
        if isinstance(stmt, ir.Choose):
            for option in stmt.options:
                found[(_where(option.position), option.name)] = [domain for _, domain in option.params]
    return found


def _vocabulary(rs) -> list:
    """Every string the ruleset spells out: texts in its expressions and printed attribute values."""
    words = set()
    for node in rs.types:
        if isinstance(node, ast.Literal) and isinstance(node.value, str):
            words.add(node.value)
    for kind in rs.kinds.values():
        for row in kind.rows:
            words.update(v for v in row["values"].values() if isinstance(v, str))
    for values in (rs.params, {n: v.initial for n, v in list(rs.vars.items()) + list(rs.player_vars.items())}):
        words.update(v for v in values.values() if isinstance(v, str))
    return sorted(words)
