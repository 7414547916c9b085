"""``rulebook replay FILE --show``: step through a recorded game, from one seat's view or a spectator's.

Commands: Enter or ``n`` (next move), ``b`` (back), a number (jump to after that move), ``end``,
``start``, ``q``.  Once the game is over every seat's final view is shown, as the rules reveal it.
"""
from __future__ import annotations

from rich.console import Console
from rich.text import Text

from dsl.errors import ParameterError, RulebookError

from ..analysis.match_log import read_logs
from ..game import load_game
from ..runtime.views import seen_components, told_action, told_in_full
from .play import told_line
from .safe import safe_text
from .render import render_view, result_text


def recorded_states(game, log: dict) -> list:
    """The state at the start and after every step of a recorded game."""
    state = game.new_initial_state(log["seed"])
    states = [state.clone()]
    for number, step in enumerate(log["steps"], 1):
        try:
            state.apply_action(step["action"])
        except RulebookError as exc:
            raise ParameterError(f"step {number} ('{step['action']}') does not replay: {exc}") from None
        states.append(state.clone())
    return states


def show_replay(path, seat, game_number: int, console: Console, read=input) -> int:
    logs = read_logs(path)
    if not 1 <= game_number <= len(logs):
        raise ParameterError(f"{path} holds {len(logs)} game(s), not a game {game_number}")
    log = logs[game_number - 1]
    game = load_game(log["ruleset"], params=log["params"], players=log["players"])
    viewer = None if seat is None else seat - 1
    if viewer is not None and not 0 <= viewer < game.num_players:
        raise ParameterError(f"--seat {seat}: this game has seats 1 to {game.num_players}")
    states = recorded_states(game, log)
    steps = log["steps"]
    at, shown = 0, None
    while True:
        if at != shown:
            _show(console, game, states, steps, at, viewer)
            shown = at
        try:
            line = read(f"move {at}/{len(steps)} (Enter next · b back · number · end · q)> ").strip().lower()
        except EOFError:
            return 0
        if line in ("q", "quit"):
            return 0
        if line in ("", "n", "next"):
            at = min(at + 1, len(steps))
        elif line in ("b", "back"):
            at = max(at - 1, 0)
        elif line == "end":
            at = len(steps)
        elif line == "start":
            at = 0
        elif line.isdigit():
            at = min(int(line), len(steps))
        else:
            console.print(Text(f"'{line}': type Enter, b, a move number, end or q", style="red"))


def _show(console, game, states, steps, at, viewer) -> None:
    state = states[at]
    console.print()
    if at:
        step = steps[at - 1]
        before = states[at - 1]
        text = _action_text(step, before, state, viewer)
        console.print(Text(safe_text(f"move {at}: {game.player_names[step['seat']]} — {text}"), style="bold"))
        told = len(before.narration(viewer))
        for message in state.narration(viewer, told):
            console.print(told_line(message))
    viewers = range(game.num_players) if state.is_terminal() else [viewer]
    seen: list = []
    for who in viewers:
        view = state.view(who)
        table = {k: v for k, v in view.items() if k != "viewer"}
        if table in seen:  # at the end, every seat's view; one that shows the same only once
            console.print(Text(f"{game.player_names[who]} sees the same.", style="dim"))
            continue
        seen.append(table)
        console.print(render_view(view, game, menu=False))
    if state.is_terminal():
        reason = f" ({state.end_reason})" if state.end_reason else ""
        console.print(result_text(game, state.returns(), state.winners()) + Text(reason))


def _action_text(step, before, after, viewer) -> str:
    """The step's action as the viewer may know it."""
    action = before.parse_action(step["action"])
    told = action.public or viewer == step["seat"] or told_in_full(
        action, seen_components(before, viewer) | seen_components(after, viewer))
    return told_action(action, told)
