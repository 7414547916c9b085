"""OpenSpiel's history of a Python state, kept up to date only when someone reads it.

OpenSpiel's ``state.apply_action(a)`` is C++: it calls back into Python twice (``current_player``,
then ``_apply_action``) and appends ``(player, a)`` to the C++ history, which ``history()``,
``serialize()`` and the others read.  Those two calls cost a Python state about as much as taking the
action itself, and ``state.child(a)`` adds a C++ ``Clone`` (a new state, then ``copy.deepcopy`` of its
attributes).  :class:`DeferredHistory` answers a Python caller's ``apply_action`` and ``child`` in
Python.  The state's handle keeps the whole history as a chain shared with the states it came from
(``past``: ``(earlier chain, player, action)`` or None; ``length``) and how much of it the C++ history
holds (``synced``); every Python method that reads the C++ history first hands it the rest
(:meth:`DeferredHistory.sync_history`, through C++'s own ``apply_action`` with the callbacks told not
to apply it again), and so does the next action taken through C++ (``apply_action_with_legality_check``,
C++ algorithms).  A copy (``clone``) copies the C++ history and the chain, the pickled attributes carry
the chain, so a copy or a state saved by the C++ function ``pyspiel.serialize_game_and_state`` (whose
``history=`` line may lack the last actions) is whole again; a ``child`` starts with an empty C++
history and the chain.

The class using it keeps ``self._handle`` with the slots ``past``, ``length``, ``synced`` and ``replay``
(the player of the action being handed over, or None), and implements ``_take_action(action)`` (which
applies it and returns the player who took it) and ``_bare_copy()`` (a copy sharing the position,
with an empty C++ history).
"""
from __future__ import annotations

import operator

import pyspiel


def _synced(name: str):
    """OpenSpiel's method ``name`` (which reads the C++ history), called once the history caught up."""
    base = getattr(pyspiel.State, name)

    def read(self, *args):
        self.sync_history()
        return base(self, *args)

    read.__name__ = read.__qualname__ = name
    read.__doc__ = f"As OpenSpiel's ``{name}``, once the C++ history caught up."
    return read


def chain_of(pairs):
    """The chain of a list of ``(player, action)`` pairs, oldest first."""
    past = None
    for player, action in pairs:
        past = (past, player, action)
    return past


def pairs_of(past, count: int) -> list:
    """The last ``count`` ``(player, action)`` pairs of a chain, oldest first."""
    pairs = []
    for _ in range(count):
        past, player, action = past
        pairs.append((player, action))
    pairs.reverse()
    return pairs


class DeferredHistory:
    """The mixin of a ``pyspiel.State`` subclass (see the module's docstring)."""

    __slots__ = ()

    def apply_action(self, action) -> None:
        """As OpenSpiel's ``apply_action``, taken in Python; the C++ history catches up when read."""
        action = operator.index(action)
        player = self._take_action(action)
        handle = self._handle
        handle.past = (handle.past, player, action)
        handle.length += 1

    def child(self, action):
        """As OpenSpiel's ``child``: a copy with the action applied, made in Python (no C++ ``Clone``)."""
        new = self._bare_copy()
        new.apply_action(action)
        return new

    def _apply_action(self, action) -> None:
        """OpenSpiel's callback from C++ ``ApplyAction``: an action being handed over is applied already."""
        handle = self._handle
        if handle.replay is not None:
            return
        if handle.synced < handle.length:
            self.sync_history()
        player = self._take_action(action)
        handle.past = (handle.past, player, action)
        handle.length += 1
        handle.synced = handle.length  # C++ appends it when this returns

    def sync_history(self) -> None:
        """Hand the actions the C++ history lacks to C++, in order."""
        handle = self._handle
        if handle.synced >= handle.length:
            return
        try:
            for player, action in pairs_of(handle.past, handle.length - handle.synced):
                handle.replay = player
                pyspiel.State.apply_action(self, action)
                handle.synced += 1
        finally:
            handle.replay = None


# OpenSpiel's methods that read the C++ history: each answers once the history caught up
HISTORY_READERS = ("history", "history_str", "full_history", "move_number", "is_initial_state",
                   "is_initial_non_chance_state", "serialize", "__getstate__")
for _name in HISTORY_READERS:
    setattr(DeferredHistory, _name, _synced(_name))
