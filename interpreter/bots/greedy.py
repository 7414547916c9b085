"""The greedy bot: one action ahead by the ruleset's evaluation."""
from __future__ import annotations

from .base import Bot, register_bot


def lead(state, seat: int) -> float:
    """How far ``seat`` is ahead of the best other seat: by the result once the game is over, else by
    the ruleset's evaluation."""
    if state.is_terminal():
        winners = state.winners()
        return 0.0 if seat in winners and len(winners) > 1 else (1e9 if seat in winners else -1e9)
    values = [state.evaluate(p) for p in range(state.game.num_players)]
    others = [v for p, v in enumerate(values) if p != seat]
    return values[seat] - (max(others) if others else 0)


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
