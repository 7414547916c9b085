"""Focused flat Monte Carlo: ``flat``'s one-round playouts, spent on the actions that still look best.

``flat`` gives every legal action the same number of playouts, so with thirty actions and a few
milliseconds per decision it judges each on one or two dealt worlds.  This bot judges the actions
exactly as ``flat`` does (a playout to its seat's next turn, worth the outcome or, when cut off,
halfway between the share the evaluation's leaders would get and the fair share), on the same kind
of worlds (the hidden cards dealt anew from what its seat knows, one playout seed per world shared by
every action: common random numbers), but it spends them by sequential halving (Karnin et al.
2013): in each of log2(actions) rounds every action still in play is judged on the same new worlds,
then the worse half is dropped.  The first round gets half the budget (every action judged alike,
as by ``flat``, so none is dropped on the evidence of a single playout); the rounds that halve share
the other half, so the best few actions are told apart on many more worlds than ``flat`` gives them.  Every action still in play has been judged on every world so far, so their totals
compare fairly.

Its cost is a number of playouts (``budget``) or ``seconds`` of CPU time per decision (the thread's
CPU clock, so a loaded machine does not change what it buys); with one legal action it plays it at
once.  At least one world is always played.
"""
from __future__ import annotations

import math

from .base import cpu_clock, register_bot
from .flat import RoundBot


@register_bot
class FocusBot(RoundBot):
    """Flat Monte Carlo with sequential halving over the actions and common random numbers."""

    name = "focus"
    description = ("flat Monte Carlo that focuses: one-round playouts on copies with the hidden cards "
                   "dealt anew, judged like `flat`, spent by sequential halving (the worse half of the "
                   "actions dropped after each of log2(actions) rounds); `budget` playouts or `seconds` of CPU per decision; the default for "
                   "simulations")
    options = {"budget": 32, "depth": 20, "shared": 0.5, "seconds": 0.0, "engine": "auto"}
    limits = {"budget": (1, 10**7), "depth": (0, 10**6), "shared": (0, 1), "seconds": (0, 86400)}
    strength = ("budget",)

    def choose(self, state):
        actions = state.legal_actions()
        if len(actions) == 1:
            return actions[0]
        settings = self.settings
        seconds = settings["seconds"]
        started = cpu_clock()
        totals = [0.0] * len(actions)
        order = [self.rng.random() for _ in actions]  # random among equal totals
        alive = list(range(len(actions)))
        rounds = max(1, math.ceil(math.log2(len(actions))))
        budget = settings["budget"]
        for round_index in range(rounds):
            worlds = 0
            while worlds == 0 or worlds * len(alive) < budget * _share(round_index, rounds):
                if seconds and (round_index or worlds) and cpu_clock() - started >= seconds:
                    break
                self.judge_world(state, actions, alive, totals,  # one playout seed per world
                                 lambda: self.round_judge(state, self.rng.getrandbits(64)))
                worlds += 1
                if seconds and round_index == 0 and worlds == 1:  # the playouts the time buys
                    budget = len(actions) * seconds / max(cpu_clock() - started, 1e-6)
            alive.sort(key=lambda i: (totals[i], order[i]), reverse=True)
            alive = alive[:max(1, (len(alive) + 1) // 2)]
        return actions[alive[0]]


def _share(round_index: int, rounds: int) -> float:
    """The part of the budget a round gets: half for the first, where every action is judged on the
    same worlds as by ``flat`` (so no action is dropped on the evidence of one or two playouts), the
    other half split evenly over the rounds that halve."""
    if rounds == 1:
        return 1.0
    return 0.5 if round_index == 0 else 0.5 / (rounds - 1)
