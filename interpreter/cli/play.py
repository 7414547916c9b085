"""Terminal play: staged menus, narration as it happens, undo, hot-seat, resume from a game record.

A :class:`Table` holds the game being played: the seats (people or bots), the state, and the steps
taken so far (each with the state before it, for undo).  People decide one stage at a time
(``state.staged_choices``): the option, then each parameter, picked by number, by a unique prefix
of its label, or by a short token such as a cell (``r3c3``) or a card's name; a whole action text
works too.  Bots are made afresh for every decision, seeded from the game's seed, the seat and the
move number, so a game resumed from its record continues exactly as it would have.
"""
from __future__ import annotations

import time

from rich.columns import Columns
from rich.console import Console
from rich.table import Table as Grid
from rich.text import Text

from dsl.errors import IllegalActionError, ParameterError
from dsl.explain import explain

from ..analysis.match_log import MatchRecorder, log_header, read_logs
from ..bots import bot_seed, make_bot
from ..runtime.views import component_visible, readable_action, seen_components, told_action, told_in_full
from .display_text import Words
from .render import render_view, result_text
from .safe import safe_text

HUMAN = "human"
COMMANDS = ("view", "history", "history all", "undo", "score", "rules", "help", "back", "quit")
MENU_ROOM = 9  # screen lines kept for the menu under the table
CLEARED = 3  # a move that takes this many components out of a person's sight shows the table before it
HISTORY_LINES = 30  # what `history` shows of a long game (`history all`: everything)


class QuitGame(Exception):
    """The person asked to stop (quit, or end of input)."""


class UndoRequest(Exception):
    """The person asked to take back their last decision."""


class Step:
    __slots__ = ("seat", "action", "before")

    def __init__(self, seat, action, before):
        self.seat = seat
        self.action = action
        self.before = before


class Table:
    """One game at the terminal."""

    def __init__(self, game, specs: list, seed: int, console: Console, read=input, auto_single=True,
                 pause: float = 0.0, echo=False, max_decisions=None):
        self.game = game
        self.specs = specs
        self.seed = seed
        self.console = console
        self.read_line = read
        self.auto_single = auto_single
        self.pause = pause
        self.humans = [seat for seat, spec in enumerate(specs) if spec == HUMAN]
        self.state = game.new_initial_state(seed)
        self.steps: list = []
        self.recorder = MatchRecorder(log_header(game, specs), seed)
        self.told = {seat: 0 for seat in self._listeners()}
        self.last_human = None
        self.seen_by: dict = {}  # per person: how much of their narration they had read at their turn
        self.echo = echo
        self.max_decisions = None if self.humans else max_decisions  # a cap for games of bots only
        self.shown = None  # the table as last shown (to not show it again unchanged)
        self.words = Words(game)
        self.typed_ahead = None  # (seat, text): a whole action text of the decision after this one

    # ---- the game loop ---------------------------------------------------------------------------
    def replay_actions(self, texts: list) -> None:
        """Take logged actions (a game record's steps) without asking anyone."""
        for text in texts:
            self._apply(self.state.current_player(), self.state.parse_action(text), quiet=True)
        for seat in self.told:
            self.told[seat] = len(self.state.narration(seat))

    def run(self) -> None:
        """Play until the game is over; QuitGame propagates."""
        self.tell()
        while not self.state.is_terminal():
            if self.max_decisions is not None and self.state.moves >= self.max_decisions:
                raise ParameterError(f"the game did not end within {self.max_decisions} decisions (bots only)",
                                     hint="the rules may never reach an end with these bots; raise "
                                          "--max-decisions if the game is just long")
            seat = self.state.current_player()
            if self.specs[seat] == HUMAN:
                try:
                    action = self.ask(seat)
                except UndoRequest:
                    self.undo(seat)
                    continue
            else:
                bot = make_bot(self.specs[seat], seat, bot_seed(self.seed, self.state.moves, seat))
                action = bot.choose(self.state)
                if self.pause and not self.humans:
                    time.sleep(self.pause)
            self._apply(seat, action)

    def _apply(self, seat, action, quiet=False) -> None:
        before = self.state.clone()
        legal = self.state.legal_actions()
        self.state.apply_action(action)
        self.steps.append(Step(seat, action, before))
        self.recorder.record(seat, legal, action, self.state)
        if not quiet:
            self.announce(seat, action, before)
            self.tell()
            self.show_cleared(seat, before)

    # ---- what people are told --------------------------------------------------------------------
    def _listeners(self) -> list:
        """The seats whose narration is printed as it happens: the one person at the table, or the
        public narration when several people share the screen or only bots play."""
        return self.humans if len(self.humans) == 1 else [None]

    def tell(self) -> None:
        for seat in self.told:
            messages = self.state.narration(seat, self.told[seat])
            self.told[seat] += len(messages)
            for message in messages:
                self.console.print(told_line(message))

    def show_cleared(self, mover, before) -> None:
        """The table as it was before another seat's move that took many things out of sight (a
        round or race cleared away): the person sees the final hands and positions."""
        for viewer in self._listeners():
            if viewer is not None and viewer == mover:
                continue  # the table before the person's own move was just shown to them
            gone = [c for c in range(self.game.num_components)
                    if component_visible(before, c, viewer) and not component_visible(self.state, c, viewer)]
            if len(gone) >= CLEARED:
                self.console.print(Text(f"The table before {self.game.player_names[mover]}'s move cleared it:",
                                        style="bold"))
                self.console.print(render_view(before.view(viewer), self.game, menu=False))
                self.shown = None

    def announce(self, seat, action, before) -> None:
        """Print what a seat did, as far as the people at the table may know it."""
        who = f"{self.game.player_names[seat]} ({self.specs[seat]}): "
        text = self.public_text(action, before, self.state)
        self.console.print(Text.assemble((safe_text(who), "bold"), safe_text(text)))

    def public_text(self, action, before, after) -> str:
        """The action as every person at the table may be told it (bots only: the one watching sees
        every move in full)."""
        told = action.public or all(
            told_in_full(action, seen_components(before, viewer) | seen_components(after, viewer))
            for viewer in self.humans)
        return told_action(action, told)

    # ---- a person decides ------------------------------------------------------------------------
    def ask(self, seat):
        if len(self.humans) > 1 and self.last_human not in (None, seat):
            self.pass_device(seat)
        self.last_human = seat
        self.seen_by[seat] = len(self.state.narration(seat))
        self.show(seat, again=False)
        ahead, self.typed_ahead = self.typed_ahead, None
        if ahead is not None and ahead[0] == seat:
            try:
                return self.state.parse_action(ahead[1])
            except IllegalActionError:
                pass
        prefix = ()
        while True:
            choices = self.state.staged_choices(prefix)
            if self.auto_single and len(choices) == 1 and not self._ends_game(choices[0]):
                choice = choices[0]
                self.console.print(Text(safe_text(f"  → {choice.label}"), style="dim"))
                prefix += (choice.value,)
                if choice.complete:
                    return choice.action
                continue
            self.menu(seat, prefix, choices)
            picked = self.pick(seat, prefix, choices)
            if picked is None:
                prefix = prefix[:-1]
                continue
            if not isinstance(picked, tuple):
                return picked
            prefix += (picked[0].value,)
            if picked[0].complete:
                return picked[0].action

    def _ends_game(self, choice) -> bool:
        """Whether a complete choice would end the game (never taken without the person)."""
        if not choice.complete:
            return False
        after = self.state.clone()
        after.apply_action(choice.action)
        return after.is_terminal()

    def pass_device(self, seat) -> None:
        self.shown = None
        self.clear_screen()
        name = self.game.player_names[seat]
        self.console.print(Text(f"Pass the device to {name}. {name}: press Enter when ready.", style="bold"))
        self.read(seat, "")
        self.clear_screen()
        since = self.state.narration(seat, self.seen_by.get(seat, 0))
        if since:
            self.console.print(Text(f"Since your last turn, {name}:", style="bold"))
        for message in since[-10:]:
            self.console.print(told_line(message))

    def clear_screen(self) -> None:
        """Clear the screen and the terminal's scrollback (the last hand must not be a scroll away)."""
        self.console.clear()
        if self.console.is_terminal:
            self.console.file.write("\033[3J")
            self.console.file.flush()

    def show(self, seat, again=True) -> None:
        """The table as ``seat`` sees it; with ``again=False`` not if it looks as when last shown
        (and terse if it is tall), with ``again=True`` (the `view` command) in full."""
        view = self.state.view(seat)
        table = {k: v for k, v in view.items() if k not in ("moves", "decision", "narration")}
        if not again and table == self.shown:
            return
        self.shown = table
        self.console.print()
        self.console.print(render_view(view, self.game, menu=False) if again else self.board(view))

    def board(self, view):
        """The compact table, terse when it would not leave room for a menu on the screen."""
        board = render_view(view, self.game, menu=False)
        if len(self.console.render_lines(board, pad=False)) > self.console.height - MENU_ROOM:
            board = render_view(view, self.game, menu=False, terse=True)
        return board

    def menu(self, seat, prefix, choices) -> None:
        decision = self.state.view(seat).get("decision") or {}
        stage = choices[0].stage if choices else None
        title = decision.get("prompt") or "Choose"
        if prefix:
            title = f"{title} — {' · '.join(self._labels(prefix))} · {self.words.label(stage)}?"
        self.console.print(Text(title, style="bold"))
        mark = "#" if numbers_offered(choices) else ""
        width = len(str(len(choices))) + len(mark)
        cells = [Text.assemble((f"{mark + str(n):>{width}} ", "bold yellow"), self._label(prefix, c))
                 for n, c in enumerate(choices, 1)]
        self.console.print(Columns(cells, padding=(0, 3), expand=False))
        tail = "back · " if prefix else ""
        number = "#number" if mark else "number"
        self.console.print(Text(f"{number}, name or text · {tail}help · undo · quit", style="dim"))

    def _label(self, prefix, choice) -> str:
        """A choice's label, or for an option that leads to one action only that action's text
        (``swap card 3 for card 7`` rather than ``swap … for …``)."""
        if choice.complete or prefix:
            return choice.label
        prefix += (choice.value,)
        while True:
            following = self.state.staged_choices(prefix)
            if len(following) != 1:
                return choice.label
            prefix += (following[0].value,)
            if following[0].complete:
                return readable_action(following[0].action)

    def _labels(self, prefix) -> list:
        labels = []
        for i in range(len(prefix)):
            for c in self.state.staged_choices(prefix[:i]):
                if c.value == prefix[i]:
                    labels.append(c.label)
        return labels

    def pick(self, seat, prefix, choices):
        """(choice,) picked, an Action typed in full, or None to go back a stage."""
        while True:
            text = self.read(seat, f"{self.game.player_names[seat]}> ")
            word = text.lower()
            if word in ("quit", "exit", "q"):
                if self.read(seat, "Quit this game? (y/n) ").lower() in ("y", "yes"):
                    raise QuitGame
                self.menu(seat, prefix, choices)
                continue
            if word == "back" or word == "..":
                if prefix:
                    return None
                continue
            if word in COMMANDS or word in ("?", "h"):
                self.command(seat, word)
                self.menu(seat, prefix, choices)  # the choices again, under what the command printed
                continue
            if not text:
                continue
            found = match_choice(text, choices)
            if found is not None:
                return (found,)
            try:
                return self.state.parse_action(text)
            except IllegalActionError:
                pass
            leading = self._leading_to(seat, text)
            if len(leading) == 1:
                self.typed_ahead = (seat, text)
                return leading[0]
            if leading:
                first = ", ".join(readable_action(a) for a in leading[:3])
                message = f"'{text}' can follow more than one choice ({first}): choose one of them first"
            else:
                close = [c.label for c in choices if word[:2] and c.label.lower().startswith(word[:2])]
                hint = f" — did you mean {', '.join(close[:4])}?" if close else ""
                message = f"'{text}' is none of the {len(choices)} choices{hint}"
            self.console.print(Text(safe_text(message), style="red"))
            self.menu(seat, prefix, choices)

    def _leading_to(self, seat, text) -> list:
        """The legal actions after which ``seat`` decides again and ``text`` is a legal action there
        (``put red 3 on r3c3`` typed while the option is still to choose); at most two."""
        found = []
        for action in self.state.legal_actions():
            after = self.state.clone()
            after.apply_action(action)
            if after.is_terminal() or after.current_player() != seat:
                continue
            try:
                after.parse_action(text)
            except IllegalActionError:
                continue
            found.append(action)
            if len(found) > 1:
                break
        return found

    def command(self, seat, word) -> None:
        if word in ("help", "?", "h"):
            self.console.print(Text(safe_text(self.game.ruleset.description.strip() or self.game.name)))
            decision = self.state.view(seat).get("decision") or {}
            if decision.get("prompt"):
                self.console.print(Text(safe_text(f"Now: {decision['prompt']}"), style="bold"))
            self.console.print(HELP)
        elif word == "view":
            self.show(seat)
        elif word.startswith("history"):
            lines = self.history_lines(seat)
            if word == "history" and len(lines) > HISTORY_LINES:
                self.console.print(Text(f"… {len(lines) - HISTORY_LINES} earlier lines ('history all' shows "
                                        "them)", style="dim"))
                lines = lines[-HISTORY_LINES:]
            for line in lines:
                self.console.print(line)
        elif word == "score":
            for player in self.state.view(seat)["players"]:
                shown = ", ".join(f"{k} {v}" for k, v in player.items() if k != "name")
                self.console.print(Text(safe_text(f"{player['name']}: {shown or 'nothing shown'}")))
        elif word == "rules":
            self.console.print(Text(safe_text(explain(self.game.ruleset))))
        elif word == "undo":
            raise UndoRequest

    def history_lines(self, seat) -> list:
        """What happened, move by move: who did what (as far as the people here may know it) and
        what ``seat`` was told of it."""
        told: dict = {}
        for message in self.state.narration(seat):
            told.setdefault(message["move"], []).append(message)
        lines = [told_line(message) for message in told.get(0, [])]
        for number, step in enumerate(self.steps, 1):
            after = self.steps[number].before if number < len(self.steps) else self.state
            text = self.public_text(step.action, step.before, after)
            lines.append(Text.assemble((f"{number:>4} ", "dim"), (safe_text(self.game.player_names[step.seat]), "bold"),
                                       " ", safe_text(text)))
            lines += [told_line(message) for message in told.get(number, [])]
        return lines

    # ---- undo ----------------------------------------------------------------------------------------
    def undo(self, seat) -> None:
        """Take back ``seat``'s last decision and everything after it, if the other people agree."""
        mine = [i for i, step in enumerate(self.steps) if step.seat == seat]
        if not mine:
            self.console.print(Text("nothing to undo yet", style="red"))
            return
        for other in self.humans:
            if other != seat:
                answer = self.read(other, f"{self.game.player_names[other]}, allow "
                                          f"{self.game.player_names[seat]} to undo? (y/n) ")
                if answer.lower() not in ("y", "yes"):
                    self.console.print("undo refused")
                    return
        keep = mine[-1]
        taken = self.steps[keep:]
        self.state = self.steps[keep].before
        del self.steps[keep:]
        del self.recorder.steps[keep:]
        for s in self.told:
            self.told[s] = len(self.state.narration(s))
        self.console.print(Text(f"undone: {', '.join(readable_action(step.action) for step in taken if step.seat == seat)}"
                                f" ({len(taken)} step(s) taken back)", style="yellow"))

    def read(self, seat, prompt: str) -> str:
        try:
            line = self.read_line(prompt)
        except EOFError:
            self.console.print()
            raise QuitGame from None
        if self.echo:
            self.console.print(Text(safe_text(line)))
        return line.strip()

    # ---- the end ---------------------------------------------------------------------------------
    def show_end(self) -> None:
        viewer = self.humans[0] if len(self.humans) == 1 else None
        self.console.print()
        self.console.print(render_view(self.state.view(viewer), self.game, menu=False))
        reason = f" ({self.state.end_reason})" if self.state.end_reason else ""
        self.console.print(result_text(self.game, self.state.returns(), self.state.winners()) + Text(reason))


HELP = ("Choose one stage at a time: type its number (#3 where the choices are numbers themselves), the start of its name (enough to tell it from "
        "the others), a cell such as r3c3, or a whole action text.\n"
        "Commands: view (the table again) · history (what happened; 'history all' from the start) · undo (take back your last "
        "decision) · score · rules (the whole rules) · back (one stage back) · quit")


def numbers_offered(choices: list) -> bool:
    """Whether the choices themselves are numbers (then a typed number is a value, ``#3`` a position)."""
    return bool(choices) and all(c.label.strip().lstrip("-").isdigit() for c in choices)


def match_choice(text: str, choices: list):
    """The choice a typed text selects: its number (``#n`` where the choices are numbers themselves,
    and a typed number is then the choice of that value), its label, a unique prefix of its label, or
    a unique label containing the text as a word (a cell, a card's name); None if none or several."""
    position = text[1:] if text.startswith("#") else (None if numbers_offered(choices) else text)
    if position is not None and position.isdigit():
        n = int(position)
        return choices[n - 1] if 1 <= n <= len(choices) else None
    word = " ".join(text.lower().split())
    exact = [c for c in choices if isinstance(c.value, str) and c.value.lower() == word]
    if len(exact) == 1:
        return exact[0]
    labels = [c.label.lower() for c in choices]
    for test in (lambda label: label == word, lambda label: label.startswith(word),
                 lambda label: word in label.replace("[", " ").replace("]", " ").replace(",", " ").split(),
                 lambda label: word in label):
        found = [c for c, label in zip(choices, labels) if test(label)]
        if len(found) == 1:
            return found[0]
        if len(found) > 1:
            return None
    return None


def told_line(message: dict) -> Grid:
    """A narration message as an indented line that wraps under itself."""
    grid = Grid.grid()
    grid.add_column(width=4, style="dim")
    grid.add_column()
    grid.add_row("  » ", narration_text(message))
    return grid


def narration_text(message: dict) -> Text:
    """A narration message with its players and components highlighted."""
    text = Text()
    for part in message["parts"]:
        style = "bold magenta" if "player" in part else ("cyan" if part.get("component") is not None else
                                                       ("bold" if "number" in part else ""))
        text.append(safe_text(part["text"]), style=style)
    return text


def resume_record(path) -> dict:
    """The one game record a file holds (the --log format)."""
    logs = read_logs(path)
    if len(logs) != 1:
        raise ParameterError(f"{path} holds {len(logs)} games; --resume takes a record of one game")
    return logs[0]
