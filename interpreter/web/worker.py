"""What runs in a table's own process: its game, its bots and every message it sends, under the
table's limits (:mod:`.processes` starts it and talks to it).

The process gets requests (JSON) over a pipe and answers each with JSON: a summary of the table
(what the server needs to pace bots, list the table and refuse commands), its record when it changed,
and the messages of the viewers the server asked for, as JSON texts the server sends unchanged.
Before each request the process's CPU-time limit (RLIMIT_CPU) is moved to what it has used so far
plus one decision's allowance, never past the table's allowance; its address space (RLIMIT_AS) is
capped once.  The kernel ends a process that goes past its CPU time; the server's watchdog ends one
that goes past its wall-clock time; a process that runs out of memory says so and exits.
"""
from __future__ import annotations

import json
import math
import os
import signal
import time

from dsl.errors import RulebookError

from .catalog import Catalog
from .tables import Table

MEMORY_EXIT = 3  # the exit status of a table's process that ran out of memory
MAX_REQUEST = 1 << 20  # bytes of one request from the server
LONG_SECONDS = 0.25  # CPU seconds of one request after which the process yields to all others


def cpu_seconds() -> float:
    return time.process_time()


def set_limits(memory: int, table_seconds: float) -> None:
    """The table's whole limits: its address space, its CPU time in all, no core files."""
    try:
        import resource
    except ImportError:  # no resource limits on this system: the server's watchdog only
        return
    for which, value in ((resource.RLIMIT_AS, memory), (resource.RLIMIT_CORE, 0),
                         (resource.RLIMIT_CPU, math.ceil(table_seconds) + 2)):
        _, hard = resource.getrlimit(which)
        value = value if hard == resource.RLIM_INFINITY else min(value, hard)
        try:
            resource.setrlimit(which, (value, value))
        except (ValueError, OSError):
            pass


def allow_one_decision(decision_seconds: float, table_seconds: float) -> None:
    """The soft CPU-time limit at one decision's allowance from now (SIGXCPU ends the process)."""
    try:
        import resource
    except ImportError:
        return
    _, hard = resource.getrlimit(resource.RLIMIT_CPU)
    soft = math.ceil(min(cpu_seconds() + decision_seconds, table_seconds))
    if hard != resource.RLIM_INFINITY:
        soft = min(soft, hard)
    try:
        resource.setrlimit(resource.RLIMIT_CPU, (soft, hard))
    except (ValueError, OSError):
        pass


def lower_priority_when_long(seconds: float) -> None:
    """After ``seconds`` of CPU time in one request, this process yields to every other (nice 19):
    a long decision never slows the server or the quick moves of other tables.  Once lowered, it
    stays low (a process may not raise its priority again)."""
    if hasattr(signal, "setitimer"):
        signal.setitimer(signal.ITIMER_PROF, seconds)


def _yield_to_others(signum, frame) -> None:
    try:
        os.nice(19)
        with open("/proc/self/autogroup", "w") as group:  # Linux: the session's share of the CPU too
            group.write("19")
    except OSError:
        pass


class TableWork:
    """The table of this process and the requests the server makes of it."""

    def __init__(self):
        self.table = None

    # ---- requests ----------------------------------------------------------------------------------
    def open(self, folder, path, params, players, record, viewers) -> dict:
        """The table of a saved record (its actions replayed)."""
        self.table = Table(record, Catalog(folder).load_path(path, params, players))
        return self.answer(viewers, record=True)

    def create(self, folder, path, params, players, source, seats, seed, pace, actions) -> dict:
        game = Catalog(folder).load_path(path, params, players)
        self.table, tokens = Table.create(game, source, seats, seed, pace, actions)
        return {**self.answer([], record=True), "tokens": {str(seat): token for seat, token in tokens.items()},
                "game": game.name, "player_names": list(game.player_names)}

    def messages(self, viewers) -> dict:
        return self.answer(viewers)

    def command(self, seat, kind, value, viewers) -> dict:
        """A seat's command (pick, back, undo, undo_answer, pace); a notice when it is refused."""
        table = self.table
        try:
            if kind == "pick":
                table.pick(seat, value)
            elif kind == "back":
                table.back(seat)
            elif kind == "undo":
                table.request_undo(seat)
            elif kind == "undo_answer":
                table.answer_undo(seat, bool(value))
            elif kind == "pace":
                table.record["pace"] = value
                table.version += 1
            else:
                return self.answer([])
        except RulebookError as exc:
            if exc.stage == "illegal action":
                return {**self.answer([]), "notice": exc.message}
            table.error = f"the game stopped: {exc}"
        return self.answer(viewers, record=True)

    def bot(self, viewers) -> dict:
        """The move of the bot on turn."""
        table = self.table
        seat = table.bot_to_move()
        if seat is None or table.error:
            return self.answer([])
        try:
            action, version = table.bot_move(seat, table.version)
            if not table.apply_bot(seat, action, version):
                return self.answer([])
        except RulebookError as exc:
            table.error = f"the game stopped: {exc}"
        return self.answer(viewers, record=True)

    def stop(self, reason, viewers) -> dict:
        """The game ends here with ``reason`` (kept in the record as ``ended``)."""
        self.table.error = self.table.record["ended"] = reason
        return self.answer(viewers, record=True)

    def travel(self, move, seat) -> dict:
        try:
            return {**self.answer([]), "text": json.dumps(self.table.travel(move, seat), ensure_ascii=False)}
        except RulebookError as exc:
            return {**self.answer([]), "notice": exc.message}

    def game_record(self, seat) -> dict:
        try:
            return {**self.answer([]), "game_record": self.table.game_record(seat)}
        except PermissionError as exc:
            return {**self.answer([]), "refused": str(exc)}

    # ---- answers -----------------------------------------------------------------------------------
    def answer(self, viewers, record: bool = False) -> dict:
        """The table's summary, its record (when asked) and the messages of ``viewers`` as JSON texts."""
        table = self.table
        state = table.state
        out = {"summary": {"version": table.version, "moves": state.moves, "over": state.is_terminal(),
                           "error": table.error, "bot": table.bot_to_move(), "cpu": cpu_seconds()},
               "messages": [[viewer, json.dumps(table.message(viewer), ensure_ascii=False)] for viewer in viewers]}
        if record:
            out["record"] = table.record
        return out


REQUESTS = ("open", "create", "messages", "command", "bot", "stop", "travel", "game_record")


def handle(work: TableWork, request: dict) -> dict:
    """One request's answer; an error of the rules or of the request as ``{"error": …}``."""
    name = request.get("op")
    if name not in REQUESTS:
        return {"error": {"kind": "request", "message": f"no such request {name!r}"}}
    try:
        return getattr(work, name)(*request.get("args", []))
    except RulebookError as exc:
        return {"error": {"kind": "rules", "message": str(exc)}}
    except (KeyError, ValueError, TypeError, IndexError, RecursionError) as exc:
        return {"error": {"kind": "broken", "message": f"{type(exc).__name__}: {exc}"[:500]}}


LOADING = ("open", "create")  # requests that load the game (and replay a saved table's actions)


def main(connection, decision_seconds: float, load_seconds: float, table_seconds: float, memory: int) -> None:
    """The table's process: requests until the server closes the pipe (or kills the process).  A
    request that loads the game has ``load_seconds`` of CPU time and keeps its priority; any other
    has ``decision_seconds`` and yields to all others after ``LONG_SECONDS``."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C reaches the whole group: the server ends us
    if hasattr(os, "setsid"):
        os.setsid()  # a session of its own: where the kernel groups sessions, a burning table is its own group
    if hasattr(signal, "SIGPROF"):
        signal.signal(signal.SIGPROF, _yield_to_others)
    set_limits(memory, table_seconds)
    work = TableWork()
    while True:
        try:
            request = json.loads(connection.recv_bytes(MAX_REQUEST))
        except (EOFError, OSError):
            return
        loading = request.get("op") in LOADING
        allow_one_decision(load_seconds if loading else decision_seconds, table_seconds)
        if not loading:
            lower_priority_when_long(LONG_SECONDS)
        try:
            answer = json.dumps(handle(work, request), ensure_ascii=False).encode()
        except MemoryError:
            work = None
            os._exit(MEMORY_EXIT)
        lower_priority_when_long(0)  # (0 stops the timer)
        connection.send_bytes(answer)
