"""Flat Monte Carlo that looks further: ``flat``'s worlds and judge, with playouts of several rounds.

``flat`` judges each action on a dealt world by one random round of play, to its seat's next turn.
With the playouts in the native kernel, a round costs almost nothing next to dealing the world
(``State.determinize``, in Python), so this bot plays ``rounds`` rounds of the table from every
action (its seat is to decide again after another seat decided, for the ``rounds``-th time; at most
``depth`` decisions) and judges the end as ``flat`` does: a finished game by its outcome, a cut-off
one halfway between the share the evaluation's leaders would get and the fair share.  A trade, a bet
or a race that pays off a few turns later then shows in the judge.  Worlds per decision as for
``flat`` (``rollouts``, fewer with many actions so that a decision costs about ``budget`` playouts;
or ``seconds`` of CPU).  Two more knobs, off by default: ``playouts`` playouts per action and world
(the same seeds for every action: common random numbers), and ``policy=greedy``, where every seat in
the playouts takes the action after which its own evaluation is highest one step ahead (uniform
with chance ``epsilon``; the kernel's greedy policy, :func:`interpreter.native.reference.greedy_pick`
in Python).  ``margin`` (0: off) keeps how far ahead or behind the seat is: a cut-off playout is also
worth ``margin`` times its relative lead by the evaluation (:func:`.outcomes.relative_lead`), where
``flat``'s judge sees little more than who leads, which in a game of four players rarely changes in
a few rounds.  ``rank`` (0: off) adds that weight times the share of the other sides the seat is
ahead of by the evaluation (:func:`.outcomes.rank_share`, ties half): passing or falling behind any
seat counts, not only the leader.
"""
from __future__ import annotations

from dsl.errors import ParameterError

from .base import register_bot
from .flat import FlatBot

POLICIES = ("uniform", "greedy")


@register_bot
class LookaheadBot(FlatBot):
    """Flat Monte Carlo with playouts of several rounds of the table."""

    name = "lookahead"
    description = ("flat Monte Carlo that looks further: like `flat`, but each playout runs `rounds` rounds of "
                   "the table (at most `depth` decisions) before it is judged; `playouts` per action and "
                   "world, `policy` uniform or greedy (by the ruleset's evaluation, uniform with chance "
                   "`epsilon`); `margin`: a cut-off playout also counts that weight times the seat's lead by the "
                   "evaluation relative to its size; `rank`: that weight times the share of the other seats it "
                   "is ahead of; `rollouts`, `budget` or `seconds` per decision as for `flat`")
    options = {**FlatBot.options, "rounds": 4, "playouts": 1, "policy": "uniform", "epsilon": 0.25,
               "margin": 0.0, "rank": 0.0}
    limits = {**FlatBot.limits, "rounds": (1, 10**4), "playouts": (1, 10**4), "epsilon": (0, 1),
              "margin": (0, 100), "rank": (0, 100)}

    def __init__(self, seat: int, seed: int, **options):
        super().__init__(seat, seed, **options)
        if self.settings["policy"] not in POLICIES:
            raise ParameterError(f"option 'policy' of bot '{self.name}' is one of {', '.join(POLICIES)}, "
                                 f"not '{self.settings['policy']}'")
