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

import gc
import json
import math
import os
import signal
import time
from collections import OrderedDict

from dsl.errors import RulebookError

from .catalog import Catalog
from .tables import Table

MEMORY_EXIT = 3  # the exit status of a table's process that ran out of memory
MAX_REQUEST = 1 << 20  # bytes of one request from the server
LONG_SECONDS = 0.25  # CPU seconds of one request after which the process yields to all others


def cpu_seconds() -> float:
    return time.process_time()


def set_limits(memory: int, table_seconds) -> None:
    """The process's limits: its address space, no core files, its CPU time in all (None: none, a
    shared process's tables are limited one by one)."""
    try:
        import resource
    except ImportError:  # no resource limits on this system: the server's watchdog only
        return
    chosen = [(resource.RLIMIT_AS, memory), (resource.RLIMIT_CORE, 0)]
    if table_seconds is not None:
        chosen.append((resource.RLIMIT_CPU, math.ceil(table_seconds) + 2))
    for which, value in chosen:
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


GAMES_KEPT = 16  # compiled games a process keeps: its tables of one ruleset share one
_catalogs: dict = {}
_games: OrderedDict = OrderedDict()


def load(folder: str, path: str, params, players):
    """The game of a table: compiled once per process (kept while the file is unchanged), through
    the catalog of ``folder`` (its ``extends:`` bases stay in that folder)."""
    catalog = _catalogs.get(folder)
    if catalog is None:
        catalog = _catalogs[folder] = Catalog(folder)
    try:
        stamp = os.stat(path).st_mtime_ns
    except OSError:
        stamp = None
    key = (folder, path, json.dumps(params, sort_keys=True), players, stamp)
    game = _games.pop(key, None)
    if game is None:
        game = catalog.load_path(path, params, players)
    _games[key] = game
    while len(_games) > GAMES_KEPT:
        _games.popitem(last=False)
    return game


class TableWork:
    """The table of this process and the requests the server makes of it."""

    def __init__(self):
        self.table = None

    # ---- requests ----------------------------------------------------------------------------------
    def open(self, folder, path, params, players, record, viewers) -> dict:
        """The table of a saved record (its actions replayed)."""
        self.table = Table(record, load(folder, path, params, players))
        return self.answer(viewers, record=True)

    def create(self, folder, path, params, players, source, seats, seed, pace, actions) -> dict:
        game = load(folder, path, params, players)
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


def over_cpu(limits, loading: bool, spent: float) -> str:
    """Why a table went past its CPU time (``limits``: decision, load and table seconds; ``spent``:
    the table's CPU seconds before the request)."""
    decision_seconds, load_seconds, table_seconds = limits
    if loading:
        return f"this ruleset used more than {load_seconds:g} s of computing to load its table"
    if spent + decision_seconds >= table_seconds:
        return f"this table used more than {table_seconds:g} s of computing in all"
    return f"this ruleset used more than {decision_seconds:g} s of computing between two decisions"


def over_memory(memory: int) -> str:
    return f"this ruleset used more than {memory // 1_000_000:,} MB of memory"


def _requests(connection):
    """The requests of the server, until it closes the pipe."""
    while True:
        try:
            yield json.loads(connection.recv_bytes(MAX_REQUEST))
        except (EOFError, OSError):
            return


def _detach() -> None:
    """Leave the server's Ctrl-C to the server (it reaches the whole group; the server ends us) and
    take a session of our own (where the kernel groups sessions, a burning table is its own group)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if hasattr(os, "setsid"):
        os.setsid()


def main(connection, decision_seconds: float, load_seconds: float, table_seconds: float, memory: int) -> None:
    """A table's own process: requests until the server closes the pipe (or kills the process).  A
    request that loads the game has ``load_seconds`` of CPU time and keeps its priority; any other
    has ``decision_seconds`` and yields to all others after ``LONG_SECONDS``."""
    _detach()
    if hasattr(signal, "SIGPROF"):
        signal.signal(signal.SIGPROF, _yield_to_others)
    set_limits(memory, table_seconds)
    work = TableWork()
    for request in _requests(connection):
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


class OverLimit(BaseException):
    """Raised by the CPU-time timer of a shared process in the request past its allowance (a
    BaseException: the engine's handlers of errors do not catch it)."""


def _over_limit(signum, frame) -> None:
    raise OverLimit()


def shared_main(connection, decision_seconds: float, load_seconds: float, table_seconds: float,
                memory: int) -> None:
    """A process shared by many tables (a pool's): each request names its table (``table``), and
    the limits are the table's: an interval timer of CPU time (ITIMER_PROF) raises in a request past
    its allowance (one decision's, or what is left of the table's), a MemoryError is caught the same
    way; either stops that table only (its work here is dropped, an answer says why) while the
    process's other tables play on.  The process's address space is capped as a whole; its priority
    stays (a long decision of one table would slow the others).  ``drop`` forgets a table (no answer)."""
    _detach()
    timed = hasattr(signal, "setitimer")
    if timed:
        signal.signal(signal.SIGPROF, _over_limit)
    set_limits(memory, None)
    limits = (decision_seconds, load_seconds, table_seconds)
    tables: dict = {}  # the server's name of a table -> its work
    spent: dict = {}  # ... -> its CPU seconds so far
    for request in _requests(connection):
        key, op = str(request.get("table")), request.get("op")
        if op == "drop":
            tables.pop(key, None)
            spent.pop(key, None)
            continue
        loading = op in LOADING
        if loading:
            tables[key] = TableWork()
        elif key not in tables:  # not here (this process replaced one that ended): the server opens it again
            connection.send_bytes(b'{"error": {"kind": "lost", "message": "not in this process"}}')
            continue
        before = spent.get(key, 0.0)
        allowance = min(load_seconds if loading else decision_seconds, table_seconds - before)
        started = cpu_seconds()
        try:
            if allowance <= 0:
                raise OverLimit()
            if timed:
                signal.setitimer(signal.ITIMER_PROF, allowance)
            try:
                answer = handle(tables[key], request)
                if "summary" in answer:
                    answer["summary"]["cpu"] = before + cpu_seconds() - started
                data = json.dumps(answer, ensure_ascii=False).encode()
            finally:
                if timed:
                    signal.setitimer(signal.ITIMER_PROF, 0)
        except OverLimit:
            data = _stopped(tables, key, over_cpu(limits, loading, before))
        except MemoryError:
            data = _stopped(tables, key, over_memory(memory))
        spent[key] = before + cpu_seconds() - started
        connection.send_bytes(data)


def _stopped(tables: dict, key: str, reason: str) -> bytes:
    """The answer of a table stopped at its limit, its work dropped (and its memory returned)."""
    tables.pop(key, None)
    gc.collect()
    return json.dumps({"error": {"kind": "limit", "message": reason}}).encode()
