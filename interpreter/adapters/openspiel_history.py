"""OpenSpiel's history of a Python state, kept up to date only when someone reads it.

OpenSpiel's ``state.apply_action(a)`` is C++: it calls back into Python twice (``current_player``,
then ``_apply_action``) and appends ``(player, a)`` to the C++ history, which ``history()``,
``serialize()`` and the others read.  Those two calls cost a Python state about as much as taking the
action itself.  :class:`DeferredHistory` answers a Python caller's ``apply_action`` (and ``child``) in Python and keeps
what the C++ history still lacks in the state's handle (``handle.unsynced``: ``(player, action)``
pairs); every Python method that reads the C++ history first hands them to C++ (:meth:`sync_history`,
through C++'s own ``apply_action`` with the callbacks told not to apply them again), and so does the
next action taken through C++ (``apply_action_with_legality_check``, C++ algorithms).  A copy (``clone``) copies the pairs
with the C++ history, and the pickled attributes carry them, so a copy or a state saved by the C++
function ``pyspiel.serialize_game_and_state`` (whose ``history=`` line may lack them) is whole again.

The class using it keeps ``self._handle`` with the slots ``unsynced`` (a list, or None) and ``replay``
(the player of the pair being handed over, or None), and implements ``_take_action(action)``.
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


class DeferredHistory:
    """The mixin of a ``pyspiel.State`` subclass (see the module's docstring)."""

    __slots__ = ()

    def apply_action(self, action) -> None:
        """As OpenSpiel's ``apply_action``, taken in Python; the C++ history catches up when read."""
        action = operator.index(action)
        player = self.current_player()
        self._take_action(action)
        handle = self._handle
        if handle.unsynced is None:
            handle.unsynced = [(player, action)]
        else:
            handle.unsynced.append((player, action))

    def child(self, action):
        """As OpenSpiel's ``child``: a clone with the action applied (in Python, as ``apply_action``)."""
        new = self.clone()
        new.apply_action(action)
        return new

    def _apply_action(self, action) -> None:
        """OpenSpiel's callback from C++ ``ApplyAction``: a pair being handed over is applied already."""
        handle = self._handle
        if handle.replay is not None:
            return
        if handle.unsynced:
            self.sync_history()
        self._take_action(action)

    def sync_history(self) -> None:
        """Hand the pairs the C++ history lacks to C++, in order."""
        handle = self._handle
        pending, handle.unsynced = handle.unsynced, None
        if not pending:
            return
        try:
            for player, action in pending:
                handle.replay = player
                pyspiel.State.apply_action(self, action)
        finally:
            handle.replay = None


# OpenSpiel's methods that read the C++ history: each answers once the history caught up
HISTORY_READERS = ("history", "history_str", "full_history", "move_number", "is_initial_state",
                   "is_initial_non_chance_state", "serialize", "__getstate__")
for _name in HISTORY_READERS:
    setattr(DeferredHistory, _name, _synced(_name))
