"""Decisions asked one step at a time (the option, then each parameter), and what a seat may be told.

The engine's staged decisions (``State.staged_choices(prefix)``) are used when the engine has them;
otherwise the stages are read off ``legal_actions()`` (the option's name, then each parameter value in
order), which gives the same contract: every complete prefix is exactly one legal action.

Choices go to a browser as *indexes* with a label and, where the seat can see it, what on the table
the choice points at (a component it sees, a cell, a seat).  The browser sends back indexes only,
so no value it sends is ever trusted as a component or a path.
"""
from __future__ import annotations

from ..views import component_visible


class Choice:
    """One value of the next stage: ``value`` (as in the action), ``label``, ``complete``."""

    __slots__ = ("value", "label", "complete", "kind")

    def __init__(self, value, label, complete, kind=None):
        self.value = value
        self.label = label
        self.complete = complete
        self.kind = kind


def choices(state, prefix: tuple) -> list:
    """The choices of the stage after ``prefix``: the engine's, or derived from the legal actions."""
    staged = getattr(state, "staged_choices", None)
    if staged is not None:
        return [Choice(c.value, c.label, c.complete, _kind_at(state, prefix, c.value)) for c in staged(tuple(prefix))]
    return _derived_choices(state, tuple(prefix))


def action_for(state, prefix: tuple):
    """The legal action a complete prefix names."""
    staged = getattr(state, "staged_action", None)
    if staged is not None:
        return staged(tuple(prefix))
    for action in state.legal_actions():
        if (action.name,) + tuple(action.values) == tuple(prefix):
            return action
    raise KeyError("no legal action has this prefix")


def _derived_choices(state, prefix: tuple) -> list:
    game = state.game
    stage = len(prefix)
    found: dict = {}
    for action in state.legal_actions():
        path = (action.name,) + tuple(action.values)
        if len(path) <= stage or path[:stage] != prefix:
            continue
        value = path[stage]
        key = repr(value)
        if key in found:
            continue
        complete = len(path) == stage + 1
        if stage == 0:
            label = str(action) if complete else action.name.replace("_", " ")
            kind = "option"
        else:
            kind = action.option.param_kinds[stage - 1]
            label = game._render(value, kind)
        found[key] = Choice(value, label, complete, kind)
    return list(found.values())


def _kind_at(state, prefix, value) -> str:
    if not prefix:
        return "option"
    for action in state.legal_actions():
        if action.name == prefix[0]:
            kinds = action.option.param_kinds
            return kinds[len(prefix) - 1] if len(prefix) - 1 < len(kinds) else None
    return None


def choice_payload(state, seat, choice_list: list) -> list:
    """The choices as a seat may see them: an index, a label, and the thing on the table it names.

    A component the seat cannot see is not sent by its id (so it points at nothing on the table);
    its label is the engine's text of the seat's own legal action, which the rules show the seat
    (as ``State.view`` does in the decision's actions)."""
    game = state.game
    out = []
    for index, choice in enumerate(choice_list):
        item = {"i": index, "label": choice.label, "complete": bool(choice.complete)}
        value = choice.value
        if choice.kind == "component" and isinstance(value, int):
            if component_visible(state, value, seat):
                item["component"] = value
        elif choice.kind == "cell" and isinstance(value, int):
            zone = game.cell_zone[value]
            first, _, columns = game.zone_grid[zone]
            item["cell"] = [game.zone_family[zone], (value - first) // columns, (value - first) % columns]
        elif choice.kind == "player" and isinstance(value, int):
            item["seat"] = value
        out.append(item)
    return out
