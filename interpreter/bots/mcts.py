"""Information-set Monte Carlo tree search (single-observer ISMCTS, Cowling et al. 2012).

Each iteration deals the hidden part of the game anew from what the searching seat knows
(``State.determinize``), walks one shared tree with UCB, counting how often each action was
available, plays the rest of the game at random (up to a depth, then the ruleset's evaluation
decides), and backs up every seat's share of the result.  The searching seat never reads hidden
state: its choice depends only on its own view, its knowledge and its random seed.  The playouts
run in the native kernel where it is available (``engine``, see :mod:`interpreter.bots.rollouts`),
with the same decisions.
"""
from __future__ import annotations

import math

from dsl.errors import RulebookError

from ..runtime.narration import mute
from .base import Bot, action_key, cpu_clock, register_bot
from .outcomes import rewards
from .rollouts import checked_engine, rollout, rollout_kernel


class Node:
    __slots__ = ("children", "visits", "available", "reward")

    def __init__(self, seats: int):
        self.children: dict = {}
        self.visits = 0
        self.available = 0
        self.reward = [0.0] * seats


def outcome(state, seats: int, shared: float = 0.5) -> list:
    """Every seat's reward for a finished or cut-off game: 1 for a sole winning side; a win shared by
    k sides gives each ``shared / k``, so the search prefers winning alone to sharing (see
    :mod:`interpreter.bots.outcomes`: teams win together, a cooperative table scores together)."""
    return rewards(state, shared)


def split_children(children: dict, keyed) -> tuple:
    """``(untried, tried)`` at a tree node for the ``(key, action)`` pairs legal in this world: the
    pairs without a child yet, and ``(action, child)`` for the others, each child counted available
    once more (the availability count of single-observer ISMCTS)."""
    untried, tried = [], []
    for key, action in keyed:
        child = children.get(key)
        if child is None:
            untried.append((key, action))
        else:
            child.available += 1
            tried.append((action, child))
    return untried, tried


class Search:
    def __init__(self, seat: int, rng, iterations: int = 200, seconds: float | None = None,
                 exploration: float = 0.7, rollout_depth: int = 200, shared: float = 0.5, engine: str = "python"):
        self.seat = seat
        self.rng = rng
        self.iterations = iterations
        self.seconds = seconds
        self.exploration = exploration
        self.rollout_depth = rollout_depth
        self.shared = shared
        self.engine = engine
        self.kernel = None  # the game's native kernel for the playouts, if it has one (see best_action)
        self.iterations_done = 0
        self.failed_samples = 0

    def best_action(self, state):
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        seats = state.game.num_players
        self.kernel = rollout_kernel(state.game, self.engine)
        root = Node(seats)
        deadline = cpu_clock() + self.seconds if self.seconds else None
        done = 0
        while done < self.iterations if deadline is None else cpu_clock() < deadline:
            try:
                self.iterate(root, state.determinize(self.seat, self.rng), seats)
            except RulebookError:
                self.failed_samples += 1  # a dealing the rules cannot go on from (see determinize)
            done += 1
        self.iterations_done += done
        by_key = {action_key(a): a for a in legal}
        ranked = sorted(((child.visits, key) for key, child in root.children.items() if key in by_key),
                        key=lambda pair: pair[0], reverse=True)
        return by_key[ranked[0][1]] if ranked else self.rng.choice(legal)

    def iterate(self, root, s, seats):
        """One iteration on the determinized copy ``s``: down the tree, one new node, a playout,
        and the result backed up along the path.  ``s`` is muted (its narration is never read)."""
        mute(s)
        path = [root]
        node = root
        while not s.is_terminal():
            mover = s.current_player()
            children = node.children
            untried, tried = split_children(children, ((action_key(a), a) for a in s.legal_actions()))
            if untried:
                key, action = self.rng.choice(untried)
                node = children[key] = Node(seats)
                node.available = 1
                s.apply_action(action)
                path.append(node)
                break
            action, node = self.select(tried, mover)
            s.apply_action(action)
            path.append(node)
        result = outcome(self.rollout(s), seats, self.shared)
        for visited in path:
            visited.visits += 1
            reward = visited.reward
            for p in range(seats):
                reward[p] += result[p]

    def select(self, tried, mover):
        """The (action, child) of ``tried`` with the highest UCB value for ``mover``."""
        best, best_value = None, -1.0
        c = self.exploration
        log, sqrt = math.log, math.sqrt
        for action, child in tried:
            if child.visits == 0:  # added by an iteration whose dealing failed: try it first
                return action, child
            value = child.reward[mover] / child.visits + c * sqrt(log(child.available) / child.visits)
            if value > best_value:
                best, best_value = (action, child), value
        return best

    def rollout(self, s):
        """``s`` played on at random (see :func:`interpreter.bots.rollouts.rollout`): what to score."""
        return rollout(self.kernel, s, self.rng.getrandbits(64), self.rollout_depth)


@register_bot
class MctsBot(Bot):
    """Information-set Monte Carlo tree search (:class:`Search`)."""

    name = "mcts"
    description = ("information-set Monte Carlo tree search over determinized states; strength by "
                   "iterations per move or seconds per move; a shared win is worth `shared` split "
                   "among the sharers, a sole win 1; `engine`: auto (playouts in the native kernel where "
                   "available), python")
    options = {"iterations": 200, "seconds": 0.0, "c": 0.7, "depth": 200, "shared": 0.5, "engine": "auto"}
    limits = {"iterations": (1, 10**7), "seconds": (0, 86400), "c": (0, 100), "depth": (0, 10**6),
              "shared": (0, 1)}
    strength = ("iterations",)

    def __init__(self, seat: int, seed: int, **options):
        super().__init__(seat, seed, **options)
        settings = self.settings
        self.search = Search(seat, self.rng, iterations=settings["iterations"],
                             seconds=settings["seconds"] or None, exploration=settings["c"],
                             rollout_depth=settings["depth"], shared=settings["shared"],
                             engine=checked_engine(self.name, settings["engine"]))

    def choose(self, state):
        return self.search.best_action(state)
