"""--backend ray: the same results as --jobs, on a local Ray started (and shut down) by the test."""
import os

import pytest

from interpreter import load_game
from interpreter.analysis.executor import LocalExecutor, RayExecutor
from interpreter.analysis.simulation import RunSpec, run

try:
    import ray  # noqa: F401
except ImportError:
    if os.environ.get("CI"):
        raise
    pytest.skip("Ray is not installed (pip install 'rulebook[ray]')", allow_module_level=True)


def _key(results):
    return [(r.seed, r.winners, r.returns, r.decisions, r.end_reason, r.plain_choices) for r in results]


def test_ray_backend_gives_the_results_of_jobs_2():
    game = load_game("la-famiglia")
    spec = RunSpec(game.path, dict(game.params), 2, ["greedy", "random"], 5)
    with LocalExecutor(2) as local:
        expected = run(game, spec, 12, executor=local)
    executor = RayExecutor(jobs=2, num_cpus=2)
    try:
        got = run(game, spec, 12, executor=executor)
        later = run(game, spec, 4, executor=executor, start=8)
    finally:
        executor.close()
    assert not ray.is_initialized()
    assert _key(got) == _key(expected)
    assert _key(later) == _key(expected[8:])
