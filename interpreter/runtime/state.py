"""A game state: plain data (zones, marks, variables, a seeded generator, the rules' stack).

It serializes to JSON and back exactly, clones cheaply, and is fully determined by the seed and the
actions taken.  The public methods follow OpenSpiel's naming.
"""
from __future__ import annotations

import difflib
import json
import sys
from itertools import repeat
from operator import attrgetter, is_

from dsl.errors import IllegalActionError, RulebookError, RulesRuntimeError

from . import chance, determinize, lazy_pile, narration, staging, state_data, vm
from .actions import Action, ActionBatch, legal_actions_at
from .lazy_pile import raw
from .views import view_of

from .splitmix import GOLDEN_GAMMA, MASK64, mixed, outputs
from .state_data import copy_env

# CPython frees by reference counting, and leaves reference cycles to a slower collector; PyPy's
# tracing collector frees both alike, so there the actions of a decision are not released.
REFCOUNTED = sys.implementation.name == "cpython"


class State:
    __slots__ = ("game", "zones", "loc", "cell_of", "cells", "known", "marks", "vars", "pvars", "rng",
                 "stack", "decider", "over", "moves", "legal_cache", "trigger_depth", "note_entries", "failure",
                 "chance", "narrative", "end_reason", "blind_to",
                 "__weakref__")  # a lazy pile refers to its state weakly (interpreter/runtime/lazy_pile.py)
    FIELDS = __slots__[:-1]  # what a state is made of

    def __init__(self, game):
        self.game = game
        self.zones: list = []
        self.loc: list = []
        self.cell_of: list = []  # the cell of each component on a grid, else None
        self.cells: list = []  # the component on each cell of every grid, else None
        self.known: list = []  # per component, a bit per seat: that seat knows exactly where it is
        self.marks: dict = {}
        self.vars: dict = {}
        self.pvars: dict = {}
        self.rng = 0
        self.stack: list = []
        self.decider = None
        self.over = False
        self.moves = 0
        self.legal_cache = None
        self.trigger_depth = 0
        self.note_entries: list = []  # this move's public notes: texts, or narration entries to render
        self.failure = None
        self.chance = None  # explicit chance mode only (see interpreter/runtime/chance.py)
        self.narrative: list = []  # what happened, as entries of interpreter.runtime.narration
        self.end_reason = None  # the reason end_game() gave, if any
        # per zone, seats that know the place of none of its components (no bit of known[c] for a c
        # there): a move out of the zone need not tell them they lost track of the rest.  Derived,
        # never saved; 0 (nothing promised) wherever components are placed other than by a move
        self.blind_to: list = [0] * len(game.zone_names)

    # ---- randomness ----------------------------------------------------------------------------
    def random_below(self, n: int) -> int:
        """A uniform whole number in [0, n) from the state's splitmix64 generator (in explicit chance
        mode: the next chance outcome)."""
        if self.chance is not None:
            return self.chance.next(n)
        self.rng = z = (self.rng + GOLDEN_GAMMA) & MASK64
        return mixed(z) % n

    def shuffle_zone(self, zone: int) -> None:
        if self.chance is not None and lazy_pile.shuffle_lazily(self, zone):
            return
        cards = self.zones[zone]
        keep = self.game.visible_mask(self, zone)
        known = self.known
        if keep:
            for c in cards:
                known[c] &= keep
        else:  # a face-down pile: no one knows where any of them is now
            for c in cards:
                known[c] = 0
        self.blind_to[zone] |= self.game.all_seats & ~keep
        if self.chance is not None:  # explicit chance, a grid: the top first, one outcome each
            for i in range(len(cards) - 1, 0, -1):
                j = self.chance.next(i + 1)
                cards[i], cards[j] = cards[j], cards[i]
            return
        drawn, self.rng = outputs(self.rng, len(cards) - 1)  # the numbers random_below would give, at once
        i = len(cards) - 1
        for x in drawn:
            j = x % (i + 1)
            cards[i], cards[j] = cards[j], cards[i]
            i -= 1

    # ---- changes used by effects -----------------------------------------------------------------
    def move_component(self, c: int, dest: int, bottom: bool = False, cell=None) -> None:
        game = self.game
        src = self.loc[c]
        checked, there, top_there, entering = game.arrivals[dest]
        if checked:  # a hosted zone, a 'holds' condition, or a game with grids
            self._enter(c, src, dest, cell)
        seen, top_here, leaving, emptying = game.departures[src]
        if seen is None:
            seen = game.visible_mask(self, src)
        cards = self.zones[src]
        if cards[-1] == c if type(cards) is list else cards.top_is(c):  # c lies there: it is not empty
            seen |= top_here
            cards.pop()
        else:
            cards.remove(c)
        target = self.zones[dest]
        if bottom:
            target.insert(0, c)
            if target[-1] == c:
                seen |= top_there
        else:
            target.append(c)
            seen |= top_there
        self.loc[c] = dest
        seen |= there if there is not None else game.visible_mask(self, dest)
        # who knows where things are now: the seats that saw c at either end track it; the others
        # cannot tell which component left, so they lose track of what stays behind (unless they
        # knew the place of nothing there: see blind_to)
        known = self.known
        known[c] = seen
        blind_to = self.blind_to
        blind_to[dest] &= ~seen
        blind = game.all_seats & ~seen
        if blind & ~blind_to[src]:
            keep = ~blind
            for other in (cards if type(cards) is list else raw(cards)):  # in any order: fix none
                known[other] &= keep
            blind_to[src] |= blind
        if leaving or entering or (emptying and not cards):
            self._fire_move(c, src, dest, leaving, entering, emptying)

    def _enter(self, c, src, dest, cell) -> None:
        """What a move into ``dest`` checks first where the zone is hosted or has a 'holds'
        condition, and what it does on a grid (see ``Game.zone_checked``)."""
        game = self.game
        if game.zone_host[dest] is not None:
            self._check_not_inside_itself(c, dest)
        holds = game.zone_holds[dest]
        if holds is not None and not holds[c]:
            raise RulesRuntimeError(f"{game.names[c]} cannot go into zone '{game.zone_names[dest]}': "
                                    "it does not meet the zone's 'holds' condition",
                                    hint="offer only components the zone holds")
        if game.has_grids:
            self._leave_cell(c, src, dest, cell)

    def _check_not_inside_itself(self, c, dest) -> None:
        game = self.game
        host = game.zone_host[dest]
        for _ in range(64):
            if host is None:
                return
            if host == c:
                raise RulesRuntimeError(f"{game.names[c]} cannot go into zone '{game.zone_names[dest]}', "
                                        "which it holds itself", hint="a component cannot lie inside itself")
            host = game.zone_host[self.loc[host]]

    def _leave_cell(self, c, src, dest, cell) -> None:
        game = self.game
        if game.zone_grid[dest] is not None and cell is None:
            raise RulesRuntimeError(f"zone '{game.zone_names[dest]}' is a grid: components go onto a cell",
                                    hint="use place(component, cell)")
        if cell is not None and self.cells[cell] is not None and self.cells[cell] != c:
            raise RulesRuntimeError(f"cell {game.cell_text(cell)} is taken by {game.names[self.cells[cell]]}",
                                    hint="check at(cell) == none first")
        old = self.cell_of[c]
        if old is not None:
            self.cells[old] = None
        self.cell_of[c] = cell
        if cell is not None:
            self.cells[cell] = c

    def _fire_move(self, c, src, dest, leaving, entering, emptying) -> None:
        """Set off the triggers of a move of ``c`` (see ``Game.arrivals`` and ``Game.departures``);
        those of the source's emptying only if it is still empty after the others."""
        game = self.game
        hosted, owners = game.zone_host, game.zone_owner
        if leaving:
            owner = owners[src] if hosted[src] is None else game.zone_owner_now(self, src)
            vm.fire(self, leaving, {"component": c, "owner": owner})
        if entering:
            owner = owners[dest] if hosted[dest] is None else game.zone_owner_now(self, dest)
            vm.fire(self, entering, {"component": c, "owner": owner})
        if emptying and not self.zones[src]:
            owner = owners[src] if hosted[src] is None else game.zone_owner_now(self, src)
            vm.fire(self, emptying, {"owner": owner})

    def note(self, message) -> None:
        """Note a text (or a narration entry, rendered when read) in the public notes of this move."""
        self.note_entries.append(message)

    @property
    def notes(self) -> list:
        """The public texts of what happened during the last move."""
        return [n if isinstance(n, str) else narration.render(self, n, None)["text"] for n in self.note_entries]

    def finish(self) -> None:
        self.over = True
        self.decider = None
        self.legal_cache = None

    def _release_actions(self) -> None:
        """A state dropped at a decision lets go of its legal actions (see ``ActionBatch.release``):
        with CPython's reference counting they are freed with it, not left to the garbage collector."""
        legal = getattr(self, "legal_cache", None)
        if legal:
            legal[0].batch.release()

    if REFCOUNTED:
        __del__ = _release_actions

    # ---- public API -------------------------------------------------------------------------------
    def _check_usable(self) -> None:
        if self.failure is not None:
            raise RulesRuntimeError(f"this state is broken by an earlier error: {self.failure}")

    def current_player(self):
        """The seat that must decide now, ``chance.CHANCE`` (-1) at a chance node, or None when the
        game is over."""
        if self.chance is not None and self.chance.count is not None:
            return chance.CHANCE
        return None if self.over else self.decider

    def is_chance_node(self) -> bool:
        """Whether the game waits for a chance outcome (explicit chance mode only)."""
        return self.chance is not None and self.chance.count is not None

    def chance_outcomes(self) -> list:
        """``(outcome, probability)`` for every outcome of a chance node; empty elsewhere."""
        return chance.outcomes(self) if self.is_chance_node() else []

    def is_terminal(self) -> bool:
        return self.over

    def legal_actions(self) -> list:
        legal = self.legal_cache
        if legal is not None and self.failure is None and (self.chance is None or self.chance.count is None):
            return legal  # the usual case, first (explicit chance: no chance node pending)
        self._check_usable()
        if self.chance is not None and self.chance.count is not None:
            return [outcome for outcome, _ in chance.outcomes(self)]
        if self.over:
            return []
        if self.legal_cache is None:
            frame = self.stack[-1]
            spec = self.game.procs[frame[0]].code[frame[1]][1]
            self.legal_cache = legal_actions_at(self, frame[2], spec, self.decider)
        return self.legal_cache

    def staged_choices(self, prefix: tuple = ()) -> list:
        """The choices of the next stage of the decision, given the values chosen so far
        (see :mod:`interpreter.runtime.staging`)."""
        self._check_usable()
        return staging.staged_choices(self, prefix)

    def staged_action(self, prefix):
        """The legal action a complete prefix of staged choices names."""
        self._check_usable()
        return staging.staged_action(self, prefix)

    def narration(self, seat=None, start: int = 0) -> list:
        """The messages ``seat`` may read (None: the public ones), from its ``start``-th on, each
        ``{"text": str, "parts": [...], "move": int}`` (see :mod:`interpreter.runtime.narration`)."""
        return narration.narration(self, seat, start)

    def parse_action(self, text: str):
        """The legal action whose text is ``text`` (spacing and case do not matter)."""
        wanted = " ".join(str(text).split()).lower()
        actions = self.legal_actions()
        for action in actions:
            if " ".join(str(action).split()).lower() == wanted:
                return action
        texts = [str(a) for a in actions]
        close = difflib.get_close_matches(str(text), texts, n=3)
        hint = f"did you mean: {'; '.join(close)}" if close else f"legal now: {'; '.join(texts[:10])}"
        raise IllegalActionError(f"'{text}' is not a legal action now", hint=hint)

    def apply_action(self, action) -> None:
        """Take an action (an Action or its text).  An illegal one raises IllegalActionError and
        leaves the state as it was.  In explicit chance mode a chance outcome is applied the same way."""
        legal = self.legal_cache  # an action of this very decision (the usual case) is legal at once; a
        batch = action.batch if type(action) is Action else None  # state with legal actions is not broken
        if not (legal is not None and type(batch) is ActionBatch and batch.actions is legal
                and (self.chance is None or not self.chance.explicit)):  # (or a step being run in explicit mode)
            action = self._legal(action)
            if action is None:  # a chance outcome, applied
                return
            batch = self.legal_cache[0].batch  # this decision's (an equal action may come from a copy)
        option = action.option
        frame = self.stack[-1]
        env = frame[2]
        names = option.param_names
        if len(names) == 1:
            env[names[0]] = action.values[0]
        elif names:
            env.update(zip(names, action.values))
        self.decider = None
        if REFCOUNTED:  # this decision's list of actions may now be freed at once (ActionBatch.release)
            batch.release()
        self.legal_cache = None
        self.note_entries = []
        self.moves += 1
        frame[1] = option.start
        block = option.block
        try:  # vm.run in line, from the option's block (see OptionSpec.block) where its effects begin with one
            if block is not None:
                try:
                    pc = block[1](self, env)
                except vm.GameOver:
                    raise
                except Exception as exc:  # as the VM reports a block's error
                    raise vm.fault(exc, block) from None
                if pc < 0:  # it stopped at the next decision itself (interpreter/codegen/blocks.py)
                    frame[1] = ~pc
                    return
                frame[1] = pc
            if vm.execute(self, self.stack, True):
                self.finish()
        except vm.GameOver:
            self.stack.clear()
            self.finish()
        except RulebookError as exc:
            self.failure = exc
            raise

    def resume(self) -> None:
        """Run the rules on from where the stack stands (a resume point of explicit chance, see
        :mod:`interpreter.runtime.chance_points`), as ``apply_action`` does after the option."""
        try:
            vm.run(self)
        except RulebookError as exc:
            self.failure = exc
            raise

    def _legal(self, action):
        """The legal action ``action`` names (an Action of this decision or an equal one, or its
        text), else IllegalActionError; None after applying a chance outcome in explicit chance mode."""
        self._check_usable()
        if self.chance is not None and self.chance.explicit:
            chance.apply(self, action)
            return None
        if self.over:
            raise IllegalActionError("the game is over")
        if type(action) is not Action:
            if isinstance(action, str):
                action = self.parse_action(action)
            elif not isinstance(action, Action):
                raise IllegalActionError(f"{action!r} is no action", hint="choose one of state.legal_actions()")
        legal = self.legal_actions()
        batch = action.batch
        if (type(batch) is not ActionBatch or batch.actions is not legal) and not any(map(is_, legal, repeat(action))) \
                and action not in legal:
            named = isinstance(batch, ActionBatch) and (batch.actions is None or any(a is action for a in batch.actions))
            raise IllegalActionError(f"'{action if named else action.name}' is not a legal action now",
                                     hint="choose one of state.legal_actions()")
        return action

    def returns(self) -> list:
        """The score of every seat (final once the game is over): in a cooperative game the one
        shared score, in a game of teams the sum of its team's scores."""
        game = self.game
        scores = [game.score(self, p) for p in range(game.num_players)]
        if game.ruleset.cooperative:
            return [scores[0]] * len(scores)
        if game.ruleset.team is not None:
            sides = [game.side_of(self, p) for p in range(game.num_players)]
            totals: dict = {}
            for side, score in zip(sides, scores):
                totals[side] = totals.get(side, 0) + score
            return [totals[side] for side in sides]
        return scores

    def evaluate(self, player: int) -> int:
        """The ruleset's evaluation of this position for ``player`` (its score if none is declared).
        It may read hidden state: bots call it on determinized states only."""
        return self.game.evaluate(self, player)

    def winners(self) -> list:
        """The seats that win; several on a shared win.  Empty while the game runs."""
        if not self.over:
            return []
        game = self.game
        if game.ruleset.cooperative:  # one result: the table wins or loses together
            return list(range(game.num_players))
        keys = [game.rank_key(self, p) for p in range(game.num_players)]
        if game.ruleset.team is not None:  # a team's scores and tie-breaks add up
            sides = [game.side_of(self, p) for p in range(game.num_players)]
            totals: dict = {}
            for side, key in zip(sides, keys):
                totals[side] = tuple(a + b for a, b in zip(totals.get(side, (0,) * len(key)), key))
            keys = [totals[side] for side in sides]
        best = max(keys)
        return [p for p, k in enumerate(keys) if k == best]

    def action_id(self, action):
        """The id of a legal action (see ``Game.action_space``): an int, or a tuple of stage ids
        when the game's action space is staged."""
        return self.game.action_space().action_id(self, action)

    def action_from_id(self, action_id):
        """The legal action with this id (or complete tuple of stage ids)."""
        return self.game.action_space().action_from_id(self, action_id)

    def legal_action_ids(self, prefix=()) -> list:
        """The ids of the legal actions, sorted; in a staged space, the ids legal at the stage after
        ``prefix`` (the stage ids chosen so far)."""
        return self.game.action_space().legal_ids(self, prefix)

    def view(self, player: int) -> dict:
        """What ``player`` may see, as JSON-ready data (``None``: a spectator)."""
        if player is not None and (isinstance(player, bool) or not isinstance(player, int)
                                   or not 0 <= player < self.game.num_players):
            raise IllegalActionError(f"there is no seat {player!r}: seats are 0 to {self.game.num_players - 1}",
                                     hint="or None for a spectator")
        return view_of(self, player)

    # ---- copies and serialization ------------------------------------------------------------
    def clone(self) -> "State":
        new = State.__new__(State)
        new.game = self.game
        new.zones = [z[:] for z in self.zones] if self.chance is None else lazy_pile.copy_piles(self.zones, new)
        new.loc = self.loc[:]
        new.cell_of = self.cell_of[:]
        new.cells = self.cells[:]
        new.known = self.known[:]
        new.marks = {k: v[:] for k, v in self.marks.items()}
        new.vars = dict(self.vars)
        new.pvars = {k: v[:] for k, v in self.pvars.items()}
        new.rng = self.rng
        new.stack = [[f[0], f[1], copy_env(f[2])] for f in self.stack]
        new.decider = self.decider
        new.over = self.over
        new.moves = self.moves
        new.legal_cache = self.legal_cache
        new.trigger_depth = 0
        new.note_entries = list(self.note_entries)
        new.failure = self.failure
        new.chance = None if self.chance is None else self.chance.copy()
        new.narrative = self.narrative[:]
        new.end_reason = self.end_reason
        new.blind_to = self.blind_to[:]
        return new

    def take_over(self, other) -> None:
        """Be ``other`` from now on, sharing its parts (explicit chance runs a step on a copy and
        the state takes the result over: :mod:`interpreter.runtime.chance`)."""
        (self.game, self.zones, self.loc, self.cell_of, self.cells, self.known, self.marks, self.vars, self.pvars,
         self.rng, self.stack, self.decider, self.over, self.moves, self.legal_cache, self.trigger_depth,
         self.note_entries, self.failure, self.chance, self.narrative, self.end_reason, self.blind_to) = _fields_of(other)

    def determinize(self, player: int, rng) -> "State":
        """A copy in which everything ``player`` cannot see is dealt anew, consistent with what the
        player knows (see :mod:`interpreter.runtime.determinize`)."""
        return determinize.determinize(self, player, rng)

    def to_dict(self) -> dict:
        """The state as plain JSON data, a copy: changing it leaves the state alone."""
        return state_data.as_data(self, state_data.json_copy)

    def to_json(self) -> str:
        return json.dumps(state_data.as_data(self, state_data.as_is), separators=(",", ":"), sort_keys=True)

    def __eq__(self, other) -> bool:
        return isinstance(other, State) and self.game is other.game and self.to_dict() == other.to_dict()

    def __str__(self) -> str:
        return json.dumps(self.view(None), indent=1, ensure_ascii=False)


_fields_of = attrgetter(*State.FIELDS)
