"""The greedy bot: one action ahead by the ruleset's evaluation."""
from __future__ import annotations

from dsl.errors import RulebookError

from .base import Bot, action_key, register_bot


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

    def choose(self, state):
        actions = state.legal_actions()
        if len(actions) == 1:
            return actions[0]
        totals = [0.0] * len(actions)
        for _ in range(max(1, self.settings["samples"])):
            world = state.determinize(self.seat, self.rng)
            by_key = {action_key(a): a for a in world.legal_actions()}
            for i, action in enumerate(actions):
                mirrored = by_key.get(action_key(action))
                if mirrored is None:
                    continue
                after = world.clone()
                try:
                    after.apply_action(mirrored)
                except RulebookError:
                    continue  # a dealing the rules cannot go on from (see State.determinize)
                totals[i] += lead(after, self.seat)
        best = max(totals)
        return self.rng.choice([a for a, t in zip(actions, totals) if t == best])
