"""The uniformly random bot."""
from __future__ import annotations

from .base import Bot, register_bot


@register_bot
class RandomBot(Bot):
    """Chooses uniformly among the legal actions."""

    name = "random"
    description = "chooses uniformly at random among the legal actions"

    def choose(self, state):
        actions = state.legal_actions()
        return actions[self.rng.randrange(len(actions))]
