"""Staged decisions: one decision asked one step at a time.

Stage 0 offers the options of the decision (by name); each later stage offers the values of the
option's next parameter, in the declared order or the order the option's ``stages:`` names.  Every
stage lists only values that lead to at least one legal action, because the stages are made by
grouping ``legal_actions()`` by their leading values.  The caller holds the values chosen so far
(the *prefix*, a tuple); the state holds nothing, so a prefix can be kept, dropped or sent over a
network freely.  A complete prefix names exactly one legal action, and every legal action has
exactly one complete prefix.

Values are JSON-ready: an option's name at stage 0, then each parameter's value as it is in the
action (a component's id, a cell's number, a whole number, a seat, a list of these).
"""
from __future__ import annotations

from dsl.errors import IllegalActionError

from .actions import frozen


class Choice:
    """One value offered at a stage: ``value`` (JSON-ready), ``label`` (text for people),
    ``complete`` (the prefix plus this value is a whole action, then ``action`` is it), ``stage``
    (the parameter's name, or None for the option)."""

    __slots__ = ("value", "label", "complete", "action", "stage")

    def __init__(self, value, label, complete, action, stage):
        self.value = value
        self.label = label
        self.complete = complete
        self.action = action
        self.stage = stage

    def to_dict(self) -> dict:
        return {"value": self.value, "label": self.label, "complete": self.complete, "stage": self.stage}

    def __repr__(self) -> str:
        return f"Choice({self.value!r}, {self.label!r}, complete={self.complete})"


def stage_order(game, option) -> tuple:
    """The indices of an option's parameters in the order the stages ask them."""
    names = game.ruleset.stage_orders.get(option.position)
    if not names:
        return tuple(range(len(option.param_names)))
    return tuple(option.param_names.index(n) for n in names)


def staged_key(game, action) -> tuple:
    """An action as the values of its stages: its option's name, then its parameters' values."""
    values = action.values
    return (action.option.name,) + tuple(values[i] for i in stage_order(game, action.option))


_last = (None, None)  # the legal actions last staged and their keys (a menu asks stage after stage)


def _keys(state) -> list:
    global _last
    legal = state.legal_actions()
    cached_for, keys = _last
    if cached_for is not legal:
        keys = [(staged_key(state.game, a), a) for a in legal]
        _last = (legal, keys)
    return keys


def _matching(state, prefix) -> list:
    """The legal actions whose stages begin with ``prefix``, with their staged keys."""
    wanted = frozen(tuple(prefix))
    n = len(wanted)
    found = []
    for key, action in _keys(state):
        if len(key) >= n and frozen(key[:n]) == wanted:
            found.append((key, action))
    return found


def staged_choices(state, prefix=()) -> list:
    """The choices of the stage after ``prefix`` (the values chosen so far), in the order of the
    legal actions.  Empty when the prefix is complete, leads nowhere, or the game is over."""
    prefix = tuple(prefix)
    n = len(prefix)
    seen: dict = {}
    for key, action in _matching(state, prefix):
        if len(key) == n:
            continue
        value = key[n]
        entry = seen.setdefault(frozen(value), [value, None, []])
        if len(key) == n + 1:
            entry[1] = action
        entry[2].append(action)
    choices = []
    labels = _labels(state, n, [(entry[0], entry[2][0]) for entry in seen.values()])
    for (value, action, actions), label in zip(seen.values(), labels):
        option = actions[0].option
        stage = None if n == 0 else option.param_names[stage_order(state.game, option)[n - 1]]
        choices.append(Choice(value, label, action is not None, action, stage))
    return choices


def staged_action(state, prefix):
    """The legal action a complete prefix names; IllegalActionError if it names none."""
    prefix = tuple(prefix)
    for key, action in _matching(state, prefix):
        if len(key) == len(prefix):
            return action
    raise IllegalActionError(f"{list(prefix)!r} is not a complete legal choice now",
                             hint="extend the prefix with one of state.staged_choices(prefix)")


def _labels(state, n, entries) -> list:
    """Text for people for each (value, an action offering it) at stage ``n``; values that would
    read the same are told apart by their cell or id."""
    game = state.game
    if n == 0:
        return [_option_label(game, action) for _, action in entries]
    texts = []
    for value, action in entries:
        option = action.option
        i = stage_order(game, option)[n - 1]
        texts.append(value_text(game, value, option.param_kinds[i]))
    counts: dict = {}
    for t in texts:
        counts[t] = counts.get(t, 0) + 1
    out = []
    for (value, action), text in zip(entries, texts):
        if counts[text] > 1 and isinstance(value, int):
            cell = state.cell_of[value] if game.has_grids and 0 <= value < game.num_components else None
            text = f"{text} [{game.cell_text(cell) if cell is not None else '#' + str(value)}]"
        out.append(text)
    return out


def _option_label(game, action) -> str:
    """An option as people read it: its text with "…" for the values still to choose."""
    option = action.option
    if not option.text:
        return option.name.replace("_", " ")
    return game.action_text(option, ["…"] * len(option.param_names))


def value_text(game, value, kind) -> str:
    """A parameter's value as people read it."""
    if kind == "zone" and isinstance(value, int) and not isinstance(value, bool):
        return game.zone_names[value]
    return game._render(value, kind)
