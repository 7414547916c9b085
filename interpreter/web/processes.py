"""Live tables in worker processes, with a CPU-time and memory limit per decision and per table.

The server's event loop never runs a table's game or bots: it sends a request to the table's process
(:mod:`.worker`) and awaits the answer on an asyncio stream.  A table of a posted ruleset (a design)
has a process of its own; tables of the server's own rulesets share a bounded pool of processes
(:class:`Pool`), each hosting many tables with their compiled games cached.  Processes are forked
from a server of forks that has imported the engine once and frozen its objects (:mod:`.forks`), so
one starts in a few milliseconds and shares the engine's memory with the others.

A table that goes past a limit is stopped with the reason (:class:`TableStopped`): more CPU time
than ``decision_seconds`` for one request, more than ``table_seconds`` in all, more than ``memory``
bytes of address space, or more wall-clock time than ``wall_seconds`` for one request (the server's
watchdog kills its process).  A table's own process is ended (the kernel's CPU-time limit); in a
shared process an interval timer stops the request and the table is dropped there, its neighbours
play on.  When a shared process ends (killed, or its watchdog fired for one table), each of its
other tables is opened again from its last record (its save) in another at its next request.
"""
from __future__ import annotations

import asyncio
import contextlib
import json
import multiprocessing
import os
import secrets
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
    pool: int = 0  # processes shared by tables of the server's rulesets (0: two per CPU core)

    def pool_size(self) -> int:
        return self.pool or 2 * (os.cpu_count() or 1)


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
            _CONTEXT.set_forkserver_preload([__package__ + ".forks"])  # (imported there only)
        else:  # pragma: no cover - Windows: a fresh interpreter per table
            _CONTEXT = multiprocessing.get_context("spawn")
    return _CONTEXT


def warm_up() -> None:
    """Start the server of forks now (a blocking call: run it in a thread), not at the first table."""
    ctx = context()
    if hasattr(ctx, "get_start_method") and ctx.get_start_method() == "forkserver":
        from multiprocessing import forkserver
        forkserver.ensure_running()


class WorkerProcess:
    """One worker process: a table's own (:func:`worker.main`) or one shared by tables
    (:func:`worker.shared_main`); requests and answers one at a time (under ``lock``)."""

    def __init__(self, name: str, limits: WorkLimits, shared: bool = False):
        self.name, self.limits, self.shared = name, limits, shared
        self.process = None
        self.reader = self.writer = None
        self.lock = asyncio.Lock()
        self.tables = 0  # tables placed in a shared process
        self.killed = False  # ended by the server's watchdog
        self.started = False

    async def start(self) -> None:
        ctx = context()
        ours, theirs = ctx.Pipe()
        limits = self.limits
        self.process = ctx.Process(target=worker.shared_main if self.shared else worker.main, daemon=True,
                                   name=self.name, args=(theirs, limits.decision_seconds, limits.load_seconds,
                                                         limits.table_seconds, limits.memory))
        await asyncio.to_thread(self.process.start)
        theirs.close()
        sock = socket.socket(fileno=os.dup(ours.fileno()))
        ours.close()
        self.reader, self.writer = await asyncio.open_connection(sock=sock, limit=1 << 16)
        self.started = True

    @property
    def alive(self) -> bool:
        return self.writer is not None and self.process.exitcode is None

    def send(self, key: str, op: str, args=()) -> None:
        """Write one request (the caller reads its answer, if the request has one)."""
        data = json.dumps({"table": key, "op": op, "args": list(args)}).encode()
        self.writer.write(struct.pack("!i", len(data)) + data)

    async def exchange(self, key: str, op: str, args, wall: float) -> dict:
        """The answer to one request within ``wall`` seconds (asyncio.TimeoutError past them); the
        caller holds ``lock``."""
        self.send(key, op, args)
        await self.writer.drain()
        return await asyncio.wait_for(self._read(), wall)

    async def _read(self) -> dict:
        size = struct.unpack("!i", await self.reader.readexactly(4))[0]
        if not 0 <= size <= MAX_ANSWER:
            raise ValueError(f"this ruleset's table answered more than {MAX_ANSWER // 1_000_000} MB at once")
        data = await self.reader.readexactly(size)
        return json.loads(data) if size < PARSED_ON_THE_LOOP else await asyncio.to_thread(json.loads, data)

    async def exit_code(self):
        """The exit status of the process, once the kernel has it (None if it still runs after 1 s)."""
        for _ in range(100):
            if self.process.exitcode is not None:
                break
            await asyncio.sleep(0.01)
        return self.process.exitcode

    async def end(self) -> None:
        """Kill the process (the watchdog) and wait until it has ended."""
        self.killed = True
        self.close()
        await self.exit_code()

    def close(self) -> None:
        """End the process (its tables are saved: nothing is lost) and reap ended ones."""
        if self.writer is not None:
            self.writer.close()
            self.writer = None
        if self.process is not None and self.process.exitcode is None:
            self.process.kill()
        multiprocessing.active_children()  # reaps the processes that have ended


class Pool:
    """At most ``limits.pool_size()`` shared processes; a table goes to a new one while there are
    fewer than that, else to one not busy with a request (its first answer does not wait), with the
    fewest tables.  A process left without tables for ``IDLE_SECONDS``
    is ended (its memory returns)."""

    IDLE_SECONDS = 30.0

    def __init__(self, limits: WorkLimits):
        self.limits = limits
        self.workers: list = []

    async def place(self) -> WorkerProcess:
        self.workers = [w for w in self.workers if w.alive or not w.started]
        if len(self.workers) < self.limits.pool_size():
            chosen = WorkerProcess(f"tables {len(self.workers) + 1}", self.limits, shared=True)
            self.workers.append(chosen)
            chosen.tables += 1
            async with chosen.lock:  # the first request waits for the start
                try:
                    await chosen.start()
                except BaseException:
                    chosen.close()
                    self.workers.remove(chosen)
                    raise
            return chosen
        chosen = min(self.workers, key=lambda w: (w.lock.locked(), w.tables))
        chosen.tables += 1
        return chosen

    def left(self, process: WorkerProcess) -> None:
        """A table left ``process``."""
        process.tables -= 1
        if process.tables == 0:
            with contextlib.suppress(RuntimeError):  # (no event loop: the server is closing)
                asyncio.get_running_loop().call_later(self.IDLE_SECONDS, self._retire, process)

    def _retire(self, process: WorkerProcess) -> None:
        if process.tables == 0 and process in self.workers and not process.lock.locked():
            self.workers.remove(process)
            process.close()

    def close(self) -> None:
        for process in self.workers:
            process.close()


class TableProcess:
    """The server's end of one table: its process, its own or a place in a shared one (``pool``)."""

    def __init__(self, table_id: str, limits: WorkLimits, pool: Pool = None):
        self.id = table_id
        self.limits = limits
        self.pool = pool
        self.worker = None
        self.key = secrets.token_hex(8)  # the table's name in a shared process
        self.lock = asyncio.Lock()
        self.cpu = 0.0
        self.stopped = None
        self.closed = False
        self.load = None  # the arguments that load its game: folder, path, params, players
        self.record = None  # its record as last answered (its save): where it is opened again from

    async def start(self) -> None:
        """Start a process of its own (ahead of need: the server keeps one spare)."""
        self.worker = WorkerProcess(f"table {self.id}", self.limits)
        await self.worker.start()

    async def request(self, op: str, *args) -> dict:
        """The answer of the table's process to ``op``; TableStopped when it went past a limit,
        TableFailed when the rules or the record refused the request."""
        async with self.lock:
            if self.stopped is not None:
                raise TableStopped(self.stopped)
            if self.closed or (self.worker is not None and self.pool is None and self.worker.writer is None):
                raise TableUnloaded(self.id)
            if op in worker.LOADING:
                self.load = list(args[:4])
                self.record = args[4] if op == "open" else None
            answer = await self._request(op, list(args))
        if "error" in answer:
            raise TableFailed(answer["error"]["kind"], answer["error"]["message"])
        self.cpu = answer["summary"]["cpu"]
        if "record" in answer:
            self.record = answer["record"]
        return answer

    async def _request(self, op: str, args: list) -> dict:
        """The answer to one request; a table whose shared process ended (killed from outside, or
        by the watchdog of another table) is opened again from its record in another, once."""
        if self.worker is None:
            self.worker = await self.pool.place() if self.pool is not None else None
            if self.worker is None:
                await self.start()
        answer = await self._exchange(op, args, may_move=self.pool is not None)
        if answer is None:  # its shared process ended, or lost it: opened again in another, asked again
            await self._move()
            answer = await self._exchange(op, args, may_move=False)
        return answer

    async def _move(self) -> None:
        """Open the table again in another shared process, from its last record."""
        if self.record is None:
            raise self._stop("the table's process stopped while the table was being made")
        self.pool.left(self.worker)
        self.worker = await self.pool.place()
        answer = await self._exchange("open", [*self.load, self.record, []], may_move=False)
        if "error" in answer:
            raise self._stop(f"the table could not be opened again: {answer['error']['message']}")

    async def _exchange(self, op: str, args: list, may_move: bool):
        """The answer of the process; None when a shared process ended, or does not hold the table,
        and ``may_move`` (then the table moves to another)."""
        loading = op in worker.LOADING
        wall = max(self.limits.wall_seconds, self.limits.load_seconds) if loading else self.limits.wall_seconds
        process = self.worker
        started = time.monotonic()
        async with process.lock:
            if not process.alive:
                if may_move:
                    return None
                raise self._stop(f"the table's process stopped (exit status {process.process.exitcode})")
            try:
                answer = await process.exchange(self.key, op, args, wall)
            except asyncio.TimeoutError:
                await process.end()
                raise self._stop(f"this ruleset took more than {wall:g} s "
                                 + ("to load its table" if loading else "between two decisions")) from None
            except (asyncio.IncompleteReadError, ConnectionError, OSError):
                code = await process.exit_code()
                if may_move and not process.killed:
                    process.close()
                    return None
                raise self._stop(await self._why_it_ended(code, time.monotonic() - started, loading)) from None
            except ValueError as exc:  # an answer too large
                await process.end()
                raise self._stop(str(exc)) from None
        error = answer.get("error", {})
        if error.get("kind") == "lost" and may_move:
            return None
        if error.get("kind") == "limit":
            raise self._stop(error["message"])
        return answer

    async def _why_it_ended(self, code, seconds: float, loading: bool) -> str:
        """Why the process ended (its exit status)."""
        limits = self.limits
        if self.pool is None and (code == -getattr(signal, "SIGXCPU", 0) or code == -signal.SIGKILL):
            return worker.over_cpu((limits.decision_seconds, limits.load_seconds, limits.table_seconds),
                                   loading, self.cpu)
        if code == worker.MEMORY_EXIT:
            return worker.over_memory(limits.memory)
        self.worker.close()
        return f"the table's process stopped (exit status {code}, after {seconds:.1f} s)"

    def _stop(self, reason: str) -> TableStopped:
        self.stopped = reason
        self.close()
        return TableStopped(reason)

    def close(self) -> None:
        """The table leaves its process (its table is saved: nothing is lost): its own process is
        ended, a shared one forgets it."""
        if self.closed or self.worker is None:
            self.closed = True
            return
        self.closed = True
        if self.pool is None:
            self.worker.close()
            return
        self.pool.left(self.worker)
        if self.worker.alive:
            self.worker.send(self.key, "drop")
