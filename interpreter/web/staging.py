"""The engine's staged decisions (``State.staged_choices(prefix)``) as a seat's browser is sent them.

Choices go to a browser as *indexes* with a label and, where the seat can see it, what on the table
the choice points at (a component it sees, a cell, a seat).  The browser sends back indexes only,
so no value it sends is ever trusted as a component, a cell or a path.
"""
from __future__ import annotations

from ..runtime.views import component_visible


def choices(state, prefix: tuple) -> list:
    """The engine's choices of the stage after ``prefix``."""
    return state.staged_choices(tuple(prefix))


def action_for(state, prefix: tuple):
    """The legal action a complete prefix names."""
    return state.staged_action(tuple(prefix))


def _kind(state, prefix, choice):
    """What a choice's value is: 'option' at stage 0, else the kind of the parameter it fills."""
    if choice.stage is None:
        return "option"
    option = choice.action.option if choice.action is not None else \
        next((a.option for a in state.legal_actions() if a.option.name == prefix[0]), None)
    if option is None or choice.stage not in option.param_names:
        return None
    return option.param_kinds[option.param_names.index(choice.stage)]


def choice_payload(state, seat, prefix: tuple, choice_list: list) -> list:
    """The choices as a seat may see them: an index, a label, and the thing on the table it names.

    A component the seat cannot see is not sent by its id (so it points at nothing on the table);
    its label is the engine's text of the seat's own legal action, which the rules show the seat
    (as ``State.view`` does in the decision's actions)."""
    game = state.game
    out = []
    for index, choice in enumerate(choice_list):
        kind = _kind(state, prefix, choice)
        label = choice.label.replace("_", " ") if kind == "option" else choice.label
        item = {"i": index, "label": label, "complete": bool(choice.complete)}
        value = choice.value
        if kind == "component" and isinstance(value, int):
            if component_visible(state, value, seat):
                item["component"] = value
        elif kind == "cell" and isinstance(value, int):
            zone = game.cell_zone[value]
            first, _, columns = game.zone_grid[zone]
            item["cell"] = [game.zone_family[zone], (value - first) // columns, (value - first) % columns]
        elif kind == "player" and isinstance(value, int):
            item["seat"] = value
        out.append(item)
    return out


def offers_payload(state, seat, specs: list) -> list:
    """The offers among the seat's legal actions, as the ruleset's ``display: offers`` names them:
    who offers (a seat, or None) and what (a component's name and kind, as the action's text names
    it to this seat; its id only where the seat sees the component)."""
    if not specs:
        return []
    game = state.game
    wanted = {spec["option"]: spec for spec in specs}
    out, seen = [], set()
    for action in state.legal_actions():
        spec = wanted.get(action.option.name)
        if spec is None:
            continue
        names = action.option.param_names
        what = action.values[names.index(spec["what"])] if spec["what"] in names else None
        if not isinstance(what, int):
            continue
        item = {"name": game.names[what], "kind": game.kinds[what], "to": seat}
        offerer = action.values[names.index(spec["from"])] if spec.get("from") in names else None
        item["from"] = offerer if isinstance(offerer, int) else None
        if (what, item["from"]) in seen:
            continue
        seen.add((what, item["from"]))
        if component_visible(state, what, seat):
            item["id"] = what
        out.append(item)
    return out
