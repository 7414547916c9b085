"""What the bots read of a playout's end, computed in the kernel: every seat's score, tie-breaks,
evaluation and team, so a rollout is judged without turning the kernel's arrays back into a State.

:func:`values_source` makes the C function ``value_of(C, player, which)`` (``which``: 0 the score,
then the tie-breaks, then the evaluation, then the team); ``k_resume`` fills ``s->values`` with them
when ``s->want_values`` is set.  :class:`Judged` stands for the finished or stopped state toward the
bots' judging code (``interpreter/bots/outcomes.py``, ``flat._judged``): it answers
``is_terminal``, ``winners``, ``returns`` and ``evaluate`` with the methods of :class:`State` and
:class:`Game` themselves, reading those numbers instead of the state.
"""
from __future__ import annotations

from ..runtime.state import State
from .expressions import Scope, Unsupported


def value_count(ruleset) -> int:
    return len(ruleset.tiebreaks) + 3


def values_source(emitter) -> str:
    """The C text of ``value_of`` (``VALUES_OK`` 0 where an expression is not translated: then the
    bots read the state instead)."""
    rs, x, tables = emitter.rs, emitter.x, emitter.tables
    nodes = [rs.score, *rs.tiebreaks, rs.evaluation, rs.team]
    cases = []
    try:
        for which, node in enumerate(nodes):
            if node is None:
                continue
            x.check_scalar(node)
            code = x.expr(node, Scope({"player": "player"}))
            cases.append(f"case {which}: C->pos = {tables.position(node.pos)}; return {code};\n")
    except Unsupported:
        return "#define VALUES_OK 0\nstatic int64_t value_of(Ctx *C, int64_t player, int64_t which) { return 0; }\n"
    return (f"#define VALUES_OK 1\nstatic int64_t value_of(Ctx *C, int64_t player, int64_t which) {{\n"
            f"switch (which) {{\n{''.join(cases)}}}\nreturn 0;\n}}\n")


class _Scoring:
    """Stands for the game toward its own scoring methods (those of its class, ``Game``, which
    lives above this package), its expressions replaced by the numbers the kernel computed."""

    def score(self, s, player):
        return self._kind.score(self, s, player)

    def rank_key(self, s, player):
        return self._kind.rank_key(self, s, player)

    def side_of(self, s, player):
        return self._kind.side_of(self, s, player)

    def evaluate(self, s, player):
        return self._kind.evaluate(self, s, player)

    def __init__(self, game, values, team_type, decode):
        rs = game.ruleset
        self._kind = type(game)
        self.ruleset = rs
        self.name = game.name
        self.num_players = game.num_players
        ties = len(rs.tiebreaks)
        self._score = None if rs.score is None else (lambda s, env: values[env["player"]][0])
        self._tiebreaks = [(lambda s, env, i=i: values[env["player"]][1 + i]) for i in range(ties)]
        self._evaluation = None if rs.evaluation is None else (lambda s, env: values[env["player"]][1 + ties])
        self._team = None if rs.team is None else (lambda s, env: decode(values[env["player"]][2 + ties], team_type))


class Judged:
    """A playout's end as the bots judge it (see the module's text).  :meth:`evaluations` reads every
    seat's evaluation straight from the kernel's numbers (the bots' judge reads them for every
    playout); the rest goes through the game's own scoring methods, built when first asked."""

    __slots__ = ("kernel", "rows", "over", "_game", "_evaluations")
    is_terminal, winners, returns, evaluate = State.is_terminal, State.winners, State.returns, State.evaluate

    def __init__(self, kernel, ks):
        self.kernel = kernel
        self.rows = [list(ks.values[p]) for p in range(kernel.game.num_players)]
        self.over = bool(ks.over)
        self._game = self._evaluations = None

    @property
    def game(self):
        if self._game is None:
            game = self.kernel.game
            team = game.ruleset.team
            team_type = None if team is None else game.ruleset.types[team].name
            self._game = _Scoring(game, self.rows, team_type, self.kernel._decode)
        return self._game

    def evaluations(self) -> list:
        """Every seat's evaluation (its score where the ruleset declares none), as
        ``[evaluate(p) for p in seats]`` gives them."""
        if self._evaluations is None:
            rs = self.kernel.game.ruleset
            column = 0 if rs.evaluation is None else 1 + len(rs.tiebreaks)
            self._evaluations = [row[column] for row in self.rows]
        return self._evaluations
