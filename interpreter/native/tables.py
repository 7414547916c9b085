"""What the C source of a kernel refers to by number: texts, variables, attribute tables,
positions, the options of decisions (kept in Python to read the kernel's results back)."""
from __future__ import annotations

from .expressions import SCALARS, Unsupported


class Tables:
    """What the C source refers to by number: texts, variables, attribute tables, positions."""

    def __init__(self, game):
        self.game = game
        self.texts: list = []
        self.vars = list(game.ruleset.vars)
        self.player_vars = list(game.ruleset.player_vars)
        self.attributes: list = []
        self.attached_families: list = []
        self.kinds_by_text = False  # whether components(kind) is asked of a kind known only when it runs
        self.positions: list = []
        self.frames: list = []  # names of procedures, for the error of a loop that never ends
        self.options: list = []  # every option of every decision, by the number the kernel logs
        self.param_kinds: list = []  # per option, the type of each parameter's values ('list', 'str', ...)
        self.compiled_texts = None  # how many texts the C tables (TEXT_RANK, TEXTKEY) have rows for

    def text(self, value) -> int:
        if value not in self.texts:
            self.texts.append(value)
        return self.texts.index(value)

    def var(self, name, where) -> tuple:
        """``(storage, is_list)``: the C place of a variable, a number or a list's buffer."""
        is_list = self._kind(self.game.ruleset.vars[name], where)
        return f"C->s->{'lvars' if is_list else 'vars'}[{self.vars.index(name)}]", is_list

    def player_var(self, name, player, where) -> tuple:
        """``(storage, is_list)`` of a player variable of the seat ``player`` (a C expression)."""
        is_list = self._kind(self.game.ruleset.player_vars[name], where)
        field = "lpvars" if is_list else "pvars"
        return f"C->s->{field}[{self.player_vars.index(name)}][CK(C, {player}, NP)]", is_list

    @staticmethod
    def _kind(variable, where) -> bool:
        """Whether a variable holds a list (of numbers, seats, components, ...)."""
        type_ = variable.type
        if type_.name in SCALARS:
            return False
        if type_.name == "list" and type_.arg is not None and type_.arg.name in SCALARS:
            return True
        raise Unsupported(f"the variable '{variable.name}' of type {type_.name}", where)

    def attribute(self, name) -> str:
        if name not in self.attributes:
            self.attributes.append(name)
        return f"ATTR{self.attributes.index(name)}"

    def attached(self, family) -> str:
        """The table of each component's zone of the per-component family (-1: it has none)."""
        if family not in self.attached_families:
            self.attached_families.append(family)
        return f"ATTACHED{self.attached_families.index(family)}"

    def position(self, pos) -> int:
        self.positions.append(pos)
        return len(self.positions) - 1
