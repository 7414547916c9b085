"""Each live table in a process of its own, with a CPU-time and memory limit per decision and per table.

The server's event loop never runs a table's game or bots: it sends a request to the table's process
(:mod:`.worker`) and awaits the answer on an asyncio stream.  Processes are forked from a server of
forks that has imported the engine once (multiprocessing's ``forkserver``), so one starts in a few
milliseconds and shares the engine's memory with the others.

A process that goes past a limit is ended and its table stopped with the reason
(:class:`TableStopped`): more CPU time than ``decision_seconds`` for one request (the kernel sends
SIGXCPU), more than ``table_seconds`` in all, more than ``memory`` bytes of address space, or more
wall-clock time than ``wall_seconds`` for one request (the server's watchdog kills it).  Nothing else
of the server shares that process: other tables keep playing.
"""
from __future__ import annotations

import asyncio
import json
import multiprocessing
import os
import signal
import socket
import struct
import time
from dataclasses import dataclass

from . import worker

MAX_ANSWER = 32 * 1024 * 1024  # bytes of one answer of a table's process
PARSED_ON_THE_LOOP = 256 * 1024  # a larger answer is parsed in a thread (the loop never waits on it)
_CONTEXT = None


@dataclass(frozen=True)
class WorkLimits:
    """What one table may use: CPU seconds per request (a decision: a pick, a bot's move, a message;
    loading its game and replaying its actions has ``load_seconds``) and in all, wall-clock seconds
    per request (a backstop: a long request runs at the lowest priority, so on a busy machine its
    CPU time may come slowly), bytes of address space."""
    decision_seconds: float = 10.0
    load_seconds: float = 60.0
    table_seconds: float = 600.0
    wall_seconds: float = 120.0
    memory: int = 1 << 30


class TableStopped(Exception):
    """A table's process went past a limit (or died): the table is stopped with ``reason``."""

    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason


class TableUnloaded(Exception):
    """A request to a table unloaded meanwhile (its process ended; its save holds it)."""


class TableFailed(Exception):
    """A request the table's rules or record refused (``kind``: rules, broken, request)."""

    def __init__(self, kind: str, message: str):
        super().__init__(message)
        self.kind = kind
        self.message = message


def context():
    """The multiprocessing context of table processes: forks of a process that imported the engine."""
    global _CONTEXT
    if _CONTEXT is None:
        if "forkserver" in multiprocessing.get_all_start_methods():
            _CONTEXT = multiprocessing.get_context("forkserver")
            _CONTEXT.set_forkserver_preload([worker.__name__])
        else:  # pragma: no cover - Windows: a fresh interpreter per table
            _CONTEXT = multiprocessing.get_context("spawn")
    return _CONTEXT


def warm_up() -> None:
    """Start the server of forks now (a blocking call: run it in a thread), not at the first table."""
    ctx = context()
    if hasattr(ctx, "get_start_method") and ctx.get_start_method() == "forkserver":
        from multiprocessing import forkserver
        forkserver.ensure_running()


class TableProcess:
    """The server's end of one table's process: requests and answers, one at a time."""

    def __init__(self, table_id: str, limits: WorkLimits):
        self.id = table_id
        self.limits = limits
        self.process = None
        self.reader = self.writer = None
        self.lock = asyncio.Lock()
        self.cpu = 0.0
        self.stopped = None

    async def start(self) -> None:
        ctx = context()
        ours, theirs = ctx.Pipe()
        limits = self.limits
        self.process = ctx.Process(target=worker.main, daemon=True, name=f"table {self.id}",
                                   args=(theirs, limits.decision_seconds, limits.load_seconds,
                                         limits.table_seconds, limits.memory))
        await asyncio.to_thread(self.process.start)
        theirs.close()
        sock = socket.socket(fileno=os.dup(ours.fileno()))
        ours.close()
        self.reader, self.writer = await asyncio.open_connection(sock=sock, limit=1 << 16)

    async def request(self, op: str, *args) -> dict:
        """The answer of the table's process to ``op``; TableStopped when it went past a limit,
        TableFailed when the rules or the record refused the request."""
        async with self.lock:
            if self.stopped is not None:
                raise TableStopped(self.stopped)
            if self.process is None:
                await self.start()
            elif self.writer is None:
                raise TableUnloaded(self.id)
            data = json.dumps({"op": op, "args": list(args)}).encode()
            started = time.monotonic()
            loading = op in worker.LOADING
            wall = max(self.limits.wall_seconds, self.limits.load_seconds) if loading else self.limits.wall_seconds
            try:
                self.writer.write(struct.pack("!i", len(data)) + data)
                await self.writer.drain()
                answer = await asyncio.wait_for(self._read(), wall)
            except asyncio.TimeoutError:
                await self._end()
                raise self._stop(f"this ruleset took more than {wall:g} s "
                                 + ("to load its table" if loading else "between two decisions")) from None
            except (asyncio.IncompleteReadError, ConnectionError, OSError):
                raise self._stop(await self._why_it_ended(time.monotonic() - started, loading)) from None
            except ValueError as exc:  # an answer too large
                await self._end()
                raise self._stop(str(exc)) from None
        if "error" in answer:
            raise TableFailed(answer["error"]["kind"], answer["error"]["message"])
        self.cpu = answer["summary"]["cpu"]
        return answer

    async def _read(self) -> dict:
        size = struct.unpack("!i", await self.reader.readexactly(4))[0]
        if not 0 <= size <= MAX_ANSWER:
            raise ValueError(f"this ruleset's table answered more than {MAX_ANSWER // 1_000_000} MB at once")
        data = await self.reader.readexactly(size)
        return json.loads(data) if size < PARSED_ON_THE_LOOP else await asyncio.to_thread(json.loads, data)

    async def _why_it_ended(self, seconds: float, loading: bool) -> str:
        """Why the process ended (its exit status, once the kernel has it)."""
        for _ in range(100):
            if self.process.exitcode is not None:
                break
            await asyncio.sleep(0.01)
        code = self.process.exitcode
        limits = self.limits
        if code == -getattr(signal, "SIGXCPU", 0) or code == -signal.SIGKILL:
            if loading:
                return f"this ruleset used more than {limits.load_seconds:g} s of computing to load its table"
            if self.cpu + limits.decision_seconds >= limits.table_seconds:
                return f"this table used more than {limits.table_seconds:g} s of computing in all"
            return f"this ruleset used more than {limits.decision_seconds:g} s of computing between two decisions"
        if code == worker.MEMORY_EXIT:
            return f"this ruleset used more than {limits.memory // 1_000_000:,} MB of memory"
        await self._end()
        return f"the table's process stopped (exit status {code}, after {seconds:.1f} s)"

    def _stop(self, reason: str) -> TableStopped:
        self.stopped = reason
        self.close()
        return TableStopped(reason)

    async def _end(self) -> None:
        self.close()
        for _ in range(100):
            if self.process is None or self.process.exitcode is not None:
                return
            await asyncio.sleep(0.01)

    def close(self) -> None:
        """End the process (its table is saved: nothing is lost) and reap ended ones."""
        if self.writer is not None:
            self.writer.close()
            self.writer = None
        if self.process is not None and self.process.exitcode is None:
            self.process.kill()
        multiprocessing.active_children()  # reaps the processes that have ended
