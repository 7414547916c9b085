"""What each seat is told about a step: who did what, with details only where that seat may see them.

An action's text names components; another seat is told the text only if the action is declared
public or every component it names was visible to that seat before or after the step; otherwise it
hears only the option's name.  The rules' own narration of the step (``State.narration(seat, start)``:
the ruleset's ``log`` messages, each told as far as that seat may know) follows.
"""
from __future__ import annotations

from ..runtime.views import seen_components, told_action, told_in_full


def viewers(game) -> list:
    """Every seat, then the spectator (None)."""
    return list(range(game.num_players)) + [None]


def visible_sets(state) -> dict:
    """Per viewer, the components it sees now."""
    return {v: seen_components(state, v) for v in viewers(state.game)}


def step_lines(before_seen: dict, heard: dict, seat: int, action, after) -> tuple:
    """Per viewer (seat or None), the lines telling it about ``seat`` taking ``action`` (``after`` is
    the state after the step).  ``heard`` counts the engine messages each viewer was told so far and
    is brought up to date.  Returns (lines per viewer, the components each viewer sees now)."""
    game = after.game
    who = game.player_names[seat]
    now = visible_sets(after)
    lines = {}
    for viewer in viewers(game):
        text = told_action(action, viewer == seat or told_in_full(action, before_seen[viewer] | now[viewer]))
        lines[viewer] = [f"{who}: {text}"] + engine_lines(after, viewer, heard)
    return lines, now


def engine_lines(state, viewer, heard: dict) -> list:
    """The rules' narration for ``viewer`` not yet told (``heard[viewer]`` messages were)."""
    messages = state.narration(viewer, heard.get(viewer, 0))
    heard[viewer] = heard.get(viewer, 0) + len(messages)
    return [m["text"] for m in messages]
