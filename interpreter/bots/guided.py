"""Guided flat Monte Carlo: ``flat``'s worlds and judge, with playouts that follow the evaluation.

``flat`` judges each action on a dealt world by one uniformly random round of play, so most of a
decision's time goes to dealing worlds (``State.determinize``) while the playouts, in the native
kernel, cost almost nothing.  This bot plays ``playouts`` rounds from every action on each world
(the same seeds for every action: common random numbers) and, with ``policy=greedy``, has every seat
in them play the kernel's greedy policy: the action after which its own evaluation is highest one
step ahead, a uniform one with chance ``epsilon`` (:func:`interpreter.native.reference.greedy_pick`
is the same policy in Python).  So an action is judged by what a seat that follows the ruleset's
``evaluation`` makes of it, averaged over several playouts, instead of by one random one.
"""
from __future__ import annotations

from dsl.errors import ParameterError

from .base import register_bot
from .flat import RoundBot

POLICIES = ("greedy", "uniform")


@register_bot
class GuidedBot(RoundBot):
    """Flat Monte Carlo with several evaluation-guided one-round playouts per action and world."""

    name = "guided"
    description = ("flat Monte Carlo with guided playouts: on copies with the hidden cards dealt anew, every "
                   "action is played out `playouts` times for one round of the table, each seat playing "
                   "greedily by the ruleset's evaluation (`policy=greedy`, uniform with chance `epsilon`) "
                   "or at random (`policy=uniform`), judged like `flat`; `budget` playouts or `seconds` of "
                   "CPU per decision")
    options = {"playouts": 4, "rounds": 1, "policy": "greedy", "epsilon": 0.25, "budget": 128, "depth": 20, "shared": 0.5,
               "seconds": 0.0, "engine": "auto"}
    limits = {"playouts": (1, 10**4), "rounds": (1, 10**4), "epsilon": (0, 1), "budget": (1, 10**7), "depth": (0, 10**6),
              "shared": (0, 1), "seconds": (0, 86400)}
    strength = ("budget",)

    def __init__(self, seat: int, seed: int, **options):
        super().__init__(seat, seed, **options)
        if self.settings["policy"] not in POLICIES:
            raise ParameterError(f"option 'policy' of bot '{self.name}' is one of {', '.join(POLICIES)}, "
                                 f"not '{self.settings['policy']}'")

    def choose(self, state):
        actions = state.legal_actions()
        if len(actions) == 1:
            return actions[0]
        settings = self.settings
        worlds = max(1, settings["budget"] // (len(actions) * settings["playouts"]))

        def make_judge():  # one playout seed per world: every action meets the same luck
            return self.round_judge(state, self.rng.getrandbits(64))

        return self.best_by_samples(state, worlds, make_judge, settings["seconds"])
