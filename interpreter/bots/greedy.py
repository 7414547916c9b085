"""The greedy bot: one action ahead by the ruleset's evaluation."""
from __future__ import annotations

from .base import Bot, register_bot
from .outcomes import open_lead, sole_win


def lead(state, seat: int) -> float:
    """How far ``seat``'s side (itself, or its team) is ahead of the best other side: by the result
    once the game is over, else by the ruleset's evaluation.  In a cooperative game: the shared
    score (or evaluation) itself."""
    if state.game.ruleset.cooperative:
        return float(state.returns()[0] if state.is_terminal() else state.evaluate(0))
    if state.is_terminal():
        if seat not in state.winners():
            return -1e9
        return 1e9 if sole_win(state, seat) else 0.0
    return open_lead(state, seat)[1]


@register_bot
class GreedyBot(Bot):
    """Looks one action ahead on determinized copies and keeps the best lead."""

    name = "greedy"
    description = ("takes the action after which its lead by the ruleset's evaluation (or score) is "
                   "largest, judged on copies with the hidden cards dealt anew; random among equals")
    options = {"samples": 1}
    limits = {"samples": (1, 10**5)}
    strength = ("samples",)

    def choose(self, state):
        actions = state.legal_actions()
        if len(actions) == 1:
            return actions[0]
        judge = lambda after: lead(after, self.seat)  # noqa: E731
        return self.best_by_samples(state, max(1, self.settings["samples"]), lambda: judge)
