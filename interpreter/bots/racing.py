"""Racing the actions over dealt worlds: as many worlds as a decision needs, spent on its contenders.

``flat`` judges every legal action on the same fixed number of dealt worlds (``rollouts``, fewer
with many actions).  A decision with one clearly best action is settled by two worlds, a close one
needs many; so the race deals worlds one at a time, judges only the actions still in the race on
each (every action in the race has been judged on every world so far: common random numbers, so
its per-world differences to the leader are paired), and after each world drops the actions that
are clearly behind the leader or clearly no more than ``tie`` ahead of it (then either will do)::

    mean(d) + tie > z * se,    se = sqrt((sum((d - mean(d))**2) + PRIOR_SD**2) / k) / sqrt(k)

over the k worlds judged so far, with ``d`` the leader's value minus the action's on each world.
The prior (one pseudo-observation of spread ``PRIOR_SD``) keeps two agreeing worlds from counting as
certainty and lets a large deficit on the first world drop an action at once.  The race ends when
one action is left, after ``most_worlds`` worlds, or when the next world would take its cost past
``allowance`` (at least one world is always dealt); the leader among the actions left wins, at
random among equals.  Cost is counted in playouts: a world costs ``deal`` (dealing it and loading
it) plus ``playouts`` for each action it judges.
"""
from __future__ import annotations

import math

PRIOR_SD = 0.25  # the spread of a per-world difference assumed before any is seen (values are 0..1)


def race(bot, state, make_judge, z: float, tie: float, most_worlds: int, allowance: float, deal: float = 0.0,
         playouts: int = 1, extra=None) -> tuple:
    """``(action, cost)``: the action ``bot`` chooses in ``state`` by racing its legal actions (the
    module's rule) and what the race cost; worlds dealt by :meth:`Bot.judge_world` with
    ``make_judge`` as for :meth:`Bot.best_by_samples`."""
    actions = state.legal_actions()
    values: list = [[] for _ in actions]
    totals = [0.0] * len(actions)
    alive = list(range(len(actions)))
    worlds, cost = 0, 0.0
    while True:
        row = [0.0] * len(actions)
        dealt = bot.judge_world(state, actions, alive, row, make_judge)
        worlds += 1
        cost += deal + playouts * len(alive)
        spent = cost + (extra() if extra is not None else 0.0)
        if dealt:  # a dealing the rules cannot go on from judges nothing
            for i in alive:
                values[i].append(row[i])
                totals[i] += row[i]
            alive = contenders(values, totals, alive, z, tie)
        if len(alive) == 1 or worlds >= most_worlds or spent + deal + playouts * len(alive) > allowance:
            break
    best = max(totals[i] for i in alive)
    return actions[bot.rng.choice([i for i in alive if totals[i] == best])], spent


def contenders(values: list, totals: list, alive: list, z: float, tie: float) -> list:
    """The indices among ``alive`` (each judged on the same worlds: ``values[i]``, summing to
    ``totals[i]``) not yet dropped by the module's rule, the leader (the highest total) first."""
    leader = max(alive, key=totals.__getitem__)
    k = len(values[leader])
    surely_kept = z * PRIOR_SD / k - tie  # the least standard error, with no spread seen
    kept = [leader]
    for i in alive:
        if i != leader and ((totals[leader] - totals[i]) / k <= surely_kept
                            or not clearly_behind(values[leader], values[i], z, tie)):
            kept.append(i)
    return kept


def clearly_behind(lead: list, other: list, z: float, tie: float) -> bool:
    """Whether ``other``'s per-world values fall clearly short of ``lead``'s on the same worlds, or are
    clearly no more than ``tie`` above them: the mean difference plus ``tie`` exceeds ``z`` standard
    errors (with the prior spread)."""
    k = len(lead)
    diffs = [a - b for a, b in zip(lead, other)]
    mean = sum(diffs) / k
    spread = sum((d - mean) ** 2 for d in diffs) + PRIOR_SD ** 2
    return mean + tie > z * math.sqrt(spread / k) / math.sqrt(k)
