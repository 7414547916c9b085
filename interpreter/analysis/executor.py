"""Where the games of a run are played: this process, a local process pool, or a Ray cluster.

Every executor takes the same work, a :class:`~interpreter.analysis.simulation.RunSpec` and the
indexes of the games to play, and returns the results in game order.  A game's result depends only
on the spec and its index (game i uses seed ``seed + i`` and bot seeds derived from it), so every
executor gives the same results for the same run: one process, ``--jobs N`` or ``--backend ray``.
"""
from __future__ import annotations

import multiprocessing
from pathlib import Path

from dsl.errors import ParameterError

from .playing import loaded_game, play_one

CHUNK_MAX = 50


def chunks_of(games: int, jobs: int) -> list:
    """The games 0..games-1 in chunks: about four chunks per worker, at most CHUNK_MAX games each."""
    size = max(1, min(CHUNK_MAX, games // (jobs * 4) or 1))
    return [range(i, min(i + size, games)) for i in range(0, games, size)]


def play_chunk(spec, indexes) -> list:
    """Play the games ``indexes`` of a run (in a worker: the game is loaded once per worker)."""
    game = loaded_game(spec)
    return [play_one(game, spec, i) for i in indexes]


class Executor:
    """Plays chunks of games; ``run`` yields each chunk's results in game order."""

    name = "executor"

    def run(self, spec, games: int, start: int = 0):
        raise NotImplementedError

    def close(self) -> None:
        """Release workers (a pool or a cluster connection)."""

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        self.close()


class LocalExecutor(Executor):
    """This process for ``jobs=1``, else a pool of ``jobs`` forked processes (kept for the command)."""

    name = "local"

    def __init__(self, jobs: int = 1):
        self.jobs = jobs
        self.pool = None

    def run(self, spec, games: int, start: int = 0):
        if self.jobs <= 1 or games < 2:
            for index in range(start, start + games):
                yield play_chunk(spec, [index])
            return
        if self.pool is None:
            self.pool = multiprocessing.get_context("fork").Pool(self.jobs)
        parts = [range(start + c.start, start + c.stop) for c in chunks_of(games, self.jobs)]
        yield from self.pool.imap(_play_chunk_args, [(spec, part) for part in parts])

    def close(self) -> None:
        if self.pool is not None:
            self.pool.terminate()
            self.pool.join()
            self.pool = None


def _play_chunk_args(args) -> list:
    return play_chunk(*args)


class RayExecutor(Executor):
    """Chunks of games as Ray tasks, on the cluster at ``address`` (None: a local Ray started here).

    Needs the ``[ray]`` extra; every node must see the ruleset files at the same paths."""

    name = "ray"

    def __init__(self, address: str | None = None, jobs: int = 2, num_cpus: int | None = None):
        ray = require_ray()
        self.ray = ray
        self.jobs = jobs
        self.started_here = not ray.is_initialized()
        if self.started_here:
            options = {"address": address} if address else {"num_cpus": num_cpus or jobs, "include_dashboard": False}
            # workers import this checkout (the same path on every node of a cluster)
            root = str(Path(__file__).resolve().parents[2])
            ray.init(log_to_driver=False, logging_level="ERROR",
                     runtime_env={"env_vars": {"PYTHONPATH": root}}, **options)
        self.task = ray.remote(play_chunk)

    def run(self, spec, games: int, start: int = 0):
        ray = self.ray
        spec_ref = ray.put(spec)
        parts = [range(start + c.start, start + c.stop) for c in chunks_of(games, self.jobs)]
        pending = [self.task.remote(spec_ref, list(part)) for part in parts]
        for ref in pending:  # in order: results come back in game order
            yield ray.get(ref)

    def close(self) -> None:
        if self.started_here and self.ray.is_initialized():
            self.ray.shutdown()


def require_ray():
    try:
        import ray
    except ImportError:
        raise ParameterError("--backend ray needs Ray", hint="pip install 'rulebook[ray]'") from None
    return ray


def make_executor(backend: str = "local", jobs: int = 1, address: str | None = None) -> Executor:
    """The executor a command line asks for (``--backend``, ``--jobs``, ``--address``)."""
    if backend == "ray":
        return RayExecutor(address, jobs)
    if address:
        raise ParameterError("--address is for --backend ray", hint="add --backend ray, or drop --address")
    return LocalExecutor(jobs)
