"""Information-set MCTS with short judged playouts: one tree over many dealt worlds (``ismcts``).

Single-observer ISMCTS (Cowling, Powley & Whitehouse 2012): the searching seat keeps ONE tree
over sequences of actions, for every seat's decisions.  Each iteration deals a fresh world
consistent with what the seat knows (``State.determinize``), walks down the tree choosing among
the children *legal in that world* by UCB, where a child's exploration term counts how often it was
available (``available``) rather than how often its parent was visited, adds one node, plays on a
few rounds of the table in the native kernel (as ``lookahead`` does: ``rounds`` rounds, at most
``depth`` decisions), and judges the end as ``flat`` does: a finished game by its outcome, a cut-off
one halfway between the share its evaluation's leaders would get and the fair share.  Each node
keeps the value of the seat that took the action leading to it, so every seat's choices in the
tree are judged by that seat's own result.

Actions are matched across worlds by their id (:mod:`interpreter.runtime.action_ids`): an option
and the meaning of its parameters, with a component named by its name (or cell), never by its
internal number, so the same card in two dealings is the same edge.  A game whose actions cannot
be numbered falls back to :func:`.base.action_key`.  The bot reads its real state only for its
legal actions and to deal worlds; everything else it learns from the dealt worlds.
"""
from __future__ import annotations

import math

from dsl.errors import ParameterError, RulebookError

from ..runtime.narration import mute
from ..native.reference import play_on
from .base import Bot, action_key, cpu_clock, register_bot
from .flat import TIE_BREAK, _judged
from .mcts import split_children
from .rollouts import checked_engine, rollout_kernel, runner

EXPANSIONS = ("one", "all")


class Node:
    """A tree edge's end: the value that ``mover`` (who took the action) got through it."""

    __slots__ = ("children", "visits", "available", "total", "mover")

    def __init__(self, mover: int):
        self.children: dict = {}
        self.visits = 0
        self.available = 1
        self.total = 0.0
        self.mover = mover


def keyed_actions(state) -> list:
    """``[(key, action)]`` for the legal actions of ``state``, keyed by what they mean to the
    player (their action ids), the same in every dealt world; by :func:`.base.action_key` where
    the game's actions cannot be numbered (the reason is kept on the game as ``action_ids_refused``,
    so the numbering is not tried again)."""
    game = state.game
    if getattr(game, "action_ids_refused", None) is None:
        try:
            return list(game.action_space().legal_table(state).items())
        except RulebookError as exc:
            if getattr(game, "_action_space", None) is None:  # the numbering itself failed
                game.action_ids_refused = str(exc)
    return [(action_key(a), a) for a in state.legal_actions()]


@register_bot
class IsmctsBot(Bot):
    """Information-set MCTS with playouts of a few rounds, judged as ``flat`` judges them."""

    name = "ismcts"
    description = ("information-set MCTS (single observer): one tree over actions, matched across dealt worlds by "
                   "their ids; each of `iterations` (or as many as `seconds` of CPU allow) deals a world from what "
                   "the seat knows, walks down by UCB with availability counts (`c`), adds a node and plays "
                   "`rounds` rounds of the table (at most `depth` decisions), judged as `flat` judges; `engine`: "
                   "auto (the native kernel where available), python")
    options = {"iterations": 200, "seconds": 0.0, "c": 0.7, "rounds": 4, "depth": 40, "shared": 0.5,
               "expand": "all", "engine": "auto"}
    limits = {"iterations": (1, 10**7), "seconds": (0, 86400), "c": (0, 100), "rounds": (1, 10**4),
              "depth": (0, 10**6), "shared": (0, 1)}
    strength = ("iterations",)

    def __init__(self, seat: int, seed: int, **options):
        super().__init__(seat, seed, **options)
        checked_engine(self.name, self.settings["engine"])
        if self.settings["expand"] not in EXPANSIONS:
            raise ParameterError(f"option 'expand' of bot '{self.name}' is one of {', '.join(EXPANSIONS)}, "
                                 f"not '{self.settings['expand']}'")
        self.kernel = None
        self.iterations_done = 0
        self.failed_samples = 0

    def choose(self, state):
        legal = keyed_actions(state)
        if len(legal) == 1:
            return legal[0][1]
        settings = self.settings
        self.kernel = rollout_kernel(state.game, settings["engine"])
        root = Node(self.seat)
        deadline = cpu_clock() + settings["seconds"] if settings["seconds"] else None
        done = 0
        while done < settings["iterations"] if deadline is None else (done == 0 or cpu_clock() < deadline):
            done += 1
            try:
                world = state.determinize(self.seat, self.rng)
            except RulebookError:
                self.failed_samples += 1
                continue
            mute(world)  # a search copy: nobody reads its narration
            self.iterate(root, world)
        self.iterations_done += done
        ranked = [(self.rank(root.children.get(key)), i) for i, (key, _) in enumerate(legal)]
        best = max(rank for rank, _ in ranked)
        return legal[self.rng.choice([i for rank, i in ranked if rank == best])][1]

    @staticmethod
    def rank(child) -> tuple:
        """How good a root action looks after the search: its visits (the robust child), then its
        mean value, which decides among the actions a short search visited equally often."""
        return (-1, 0.0) if child is None else (child.visits, child.total / child.visits)

    def iterate(self, root, world) -> None:
        """One iteration on the dealt ``world``: down the tree, new nodes (one, or with ``expand=all``
        every action untried in this world), their playouts, and the value of each node's mover
        backed up along the path as one visit (with ``expand=all``, the mean over the new nodes).
        A rule that fails on a dealing the rules would never make (see ``State.determinize``) ends
        the iteration without a result."""
        path, node = [], root
        try:
            while not world.is_terminal():
                mover = world.current_player()
                untried, tried = split_children(node.children, keyed_actions(world))
                if untried:
                    results = self.expanded(node, world, mover, untried)
                    break
                action, node = self.select(tried, mover)
                world.apply_action(action)
                path.append(node)
            else:
                results = self.played_out(world, [None])
        except RulebookError:
            self.failed_samples += 1
            return
        if not results:
            return
        for visited in path:  # one visit, worth the mean of the iteration's playouts
            visited.visits += 1
            visited.total += sum(values[visited.mover] for values in results) / len(results)

    def expanded(self, node, world, mover: int, untried) -> list:
        """New children of ``node`` for ``untried`` actions of ``world`` (one at random, or all with
        ``expand=all``, each played out from the same world with one playout seed), each with its
        playout's value for ``mover``; returns every seat's values of each playout."""
        if self.settings["expand"] == "one":
            key, action = self.rng.choice(untried)
            world.apply_action(action)
            untried, results = [(key, action)], self.played_out(world, [None])
        else:
            index = {id(action): i for i, action in enumerate(world.legal_actions())}
            results = self.played_out(world, [index[id(action)] for _, action in untried])
        for (key, _), values in zip(untried, results):
            if values is not None:
                node.children[key] = child = Node(mover)
                child.visits, child.total = 1, values[mover]
        return [values for values in results if values is not None]

    def select(self, tried, mover):
        """The (action, child) of ``tried`` with the highest UCB value for ``mover``."""
        best, best_value = None, -math.inf
        c, log, sqrt = self.settings["c"], math.log, math.sqrt
        for action, child in tried:
            value = child.total / child.visits + c * sqrt(log(child.available) / child.visits)
            if value > best_value:
                best, best_value = (action, child), value
        return best

    def played_out(self, world, firsts) -> list:
        """Every seat's worth of ``world`` played on from each of ``firsts`` (an index into its legal
        actions taken first, or None) for ``rounds`` rounds of the table, with one playout seed (in
        the kernel where it can resume the world, else in Python with the same moves): its outcome,
        or at a cut-off the evaluation's judgement, with the evaluation lead as a tie-break; None
        for a playout whose rules failed.  ``world`` is not changed."""
        settings = self.settings
        game = world.game
        stop = dict(stop_seat=self.seat, rounds=settings["rounds"], partners=game.ruleset.cooperative)
        seed, depth = self.rng.getrandbits(64), settings["depth"]
        found = runner(self.kernel, world) if self.kernel is not None and not world.is_terminal() else None
        results = []
        for first in firsts:
            try:
                if found is not None:
                    end = found.judged(found.run(seed, depth, force=first, values=True, **stop))
                elif world.is_terminal():
                    end = world
                else:
                    end = play_on(world.clone(), seed, depth, first=first, **stop)[1]
            except RulebookError:
                results.append(None)
                continue
            results.append(self.worth(end, game.num_players))
        return results

    def worth(self, end, seats: int) -> list:
        """Every seat's value of a playout's end, as ``flat`` judges it (see ``flat._judged``)."""
        shared, values = self.settings["shared"], []
        for seat in range(seats):
            value, margin = _judged(end, seat, seats, shared)
            values.append(value + TIE_BREAK * margin / (1 + abs(margin)))
        return values
