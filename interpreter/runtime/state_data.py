"""A game state as plain JSON data, the form it is saved and compared in (``State.to_dict``,
``State.to_json``; reading it back is :mod:`interpreter.store.saved_state`), and the copy of a
frame's locals that ``State.clone`` shares with it."""
from __future__ import annotations

import json

from . import chance, lazy_pile

# 2: calls compiled in place (interpreter/compile/inlining.py) have no frame on the stack, so the stack of
# a state of format 1 does not fit the compiled rules any more
FORMAT = 2


def as_data(state, copied) -> dict:
    """``state``'s fields as JSON data; ``copied`` copies the nested values (vars, stack, narrative)
    (:func:`json_copy`) or, for ``to_json``, which only writes them out, leaves them as they are
    (:func:`as_is`)."""
    return {"format": FORMAT, "game": state.game.name, "players": state.game.num_players,
            "params": dict(state.game.params),
            "zones": [z[:] for z in state.zones] if state.chance is None else lazy_pile.raw_zones(state),
            "cells": {str(c): cell for c, cell in enumerate(state.cell_of) if cell is not None},
            "known": state.known[:],
            "marks": {k: v[:] for k, v in state.marks.items()}, "vars": copied(state.vars),
            "pvars": {k: v[:] for k, v in state.pvars.items()}, "rng": state.rng,
            "stack": copied(state.stack), "decider": state.decider, "over": state.over,
            "moves": state.moves, "narrative": copied(state.narrative),
            "end_reason": state.end_reason,
            **({} if state.chance is None else {"chance": chance.to_dict(state)})}


def json_copy(value):
    return json.loads(json.dumps(value))


def as_is(value):
    return value


def copy_env(env: dict) -> dict:
    """A frame's locals for a copy of the state: a ``$`` entry (a ``for`` loop's slot: its items and
    its position) is a pair that the copy changes on its own."""
    new = dict(env)
    for key, value in env.items():
        if key[0] == "$":
            new[key] = [value[0], value[1]]
    return new
