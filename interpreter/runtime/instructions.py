"""The compiled form of procedures: the VM's instructions and the specs of decisions.

A procedure is a list of instruction tuples; the first element of each is its opcode, the last its
rule position.  Control flow is jumps, so a running game is only a stack of ``[procedure, pc,
locals]`` frames: plain data that serializes to JSON.
"""
from __future__ import annotations

from dsl.types import ANY


# Opcodes: the first element of every instruction tuple; the last element is its Position.
EXEC, JUMP, JUMPF, FORINIT, FORNEXT, CHOOSE, CALL, RET = range(8)
OPCODE_NAMES = ["EXEC", "JUMP", "JUMPF", "FORINIT", "FORNEXT", "CHOOSE", "CALL", "RET"]
# Generated blocks (interpreter/codegen/blocks.py) stand in for runs of instructions:
EXECN = 8  # (EXECN, function, positions by generated line, pc after the block, position)
BRANCHN = 9  # (BRANCHN, function returning the pc to go on at, positions by generated line, pc after, position)
BLOCKS = (EXECN, BRANCHN)


class OptionSpec:
    """One option of a decision, compiled: its parameters' domains, its condition, its branch."""

    __slots__ = ("index", "name", "text", "param_names", "domains", "param_kinds", "component_params",
                 "checks", "levels", "start", "block", "position", "decline", "public", "context")

    def __init__(self, index, name, text, param_names, domains, param_kinds, checks, position):
        self.index = index
        self.name = name
        self.text = text
        self.param_names = param_names
        self.domains = domains
        self.param_kinds = param_kinds
        self.component_params = tuple(kind == "component" for kind in param_kinds)
        self.checks = checks  # checks[0] before any parameter is bound, checks[i + 1] after parameter i
        last = len(param_names) - 1
        self.levels = tuple((name, self.component_params[i], checks[i + 1], domains[i], i == last)
                            for i, name in enumerate(param_names))  # what binding parameter i needs
        self.start = None
        self.block = None  # the generated block (BRANCHN) at start, run at once when the option is taken
        self.position = position
        self.decline = False
        self.public = False
        self.context = ()  # (field, compiled expression, type) of the text's fields that are no parameters


class ChoiceSpec:
    __slots__ = ("player", "prompt", "options", "if_none", "end", "position", "prompt_parts", "enumerate",
                 "with_context", "player_var", "direct", "skips")

    def __init__(self, player, prompt, options, if_none, position, prompt_parts=()):
        self.player = player
        self.prompt = prompt
        self.options = options
        self.if_none = if_none
        self.end = None
        self.position = position
        self.prompt_parts = prompt_parts  # (literal, compiled field or None, the field's type name)
        self.enumerate = None  # generated enumeration of the legal actions (interpreter.codegen.actions)
        self.with_context = tuple(option for option in options if option.context)  # texts with other fields
        self.player_var = None  # the variable naming who decides, where that is all 'player' reads
        self.direct = None  # ``enumerate`` where the VM calls it alone (see ``finish``)
        self.skips = if_none == "skip"

    def finish(self) -> None:
        """Once ``enumerate`` and ``player_var`` are set: ``direct``, the generated enumerator where
        who decides is a variable (read only when someone can decide) and no option's text has
        other fields (nothing to add to what it makes)."""
        if self.enumerate is not None and self.player_var is not None and not self.with_context:
            self.direct = self.enumerate


class Proc:
    """A compiled procedure: its name, its parameters, its instructions, and which of its locals
    may hold components: ``holding`` by their static type, ``untyped`` where the type is not known."""

    def __init__(self, name, params, position):
        self.name = name
        self.params = params
        self.code: list = []
        self.position = position
        self.holding: set = set()
        self.untyped: set = set()
        self.sources = Sources()  # the statements behind the instructions, for generated blocks
        self._typed: set = set()

    def declare(self, name, type_) -> None:
        """Note a type a local (or a loop's list, under its slot) is given; a name is untyped until
        some declaration or assignment gives it a known type."""
        found = component_content(type_)
        if found == "any":
            if name not in self._typed:
                self.untyped.add(name)
            return
        self._typed.add(name)
        self.untyped.discard(name)
        if found == "component":
            self.holding.add(name)

    def kind(self, name) -> str | None:
        """The kind of value local ``name`` holds, as declared so far: 'component', 'any' (no type
        known), None (no components), or 'absent' (not declared)."""
        if name in self.holding:
            return "component"
        return "any" if name in self.untyped else None if name in self._typed else "absent"


def component_content(type_) -> str | None:
    """'component' if values of the type hold components, 'any' if they may, else None."""
    if type_ is None or type_ == ANY:
        return "any"
    if type_.name == "component":
        return "component"
    if type_.name == "list":
        return component_content(type_.arg or ANY)
    return None

class Sources:
    """What the compiler noted about a procedure's instructions: the statement of each generated
    EXEC, and for each ``if`` its condition and where its branches end."""

    def __init__(self):
        self.statements: dict = {}  # pc -> ast statement node
        self.ifs: dict = {}  # pc of the JUMPF -> (condition node, pc of the JUMP over 'else' or None)
        self.loops: dict = {}  # pc of a for loop's FORINIT -> its variable
        self.always: set = set()  # pcs of the tests of loops that always go on (while: true)
        self.whiles: dict = {}  # pc of a while loop's test (JUMPF) -> its condition node

def where(ins, exc):
    """The position of the statement that failed inside the block ``ins``."""
    code = ins[1].__code__
    tb = exc.__traceback__
    line = None
    while tb is not None:
        if tb.tb_frame.f_code is code:
            line = tb.tb_lineno
        tb = tb.tb_next
    positions = ins[2]
    if line is None or not 0 < line < len(positions):
        return ins[-1]
    found = positions[line]
    return where(found, exc) if type(found) is tuple else found  # a call of another block: where it failed
