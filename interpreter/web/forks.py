"""What the server of table processes imports once, before it forks any (multiprocessing's
forkserver preload): the engine and the worker, then every object made so far frozen
(``gc.freeze``), so the collector of a forked process never writes to those objects' pages and
they stay shared by all the processes instead of being copied into each."""
import gc

from . import worker  # noqa: F401  (imported for the forks)

gc.freeze()
