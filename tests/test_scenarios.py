"""Every scenario under tests/scenarios/ is one test (see tests/scenario_runner.py for the format)."""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from scenario_runner import collect, run  # noqa: E402

SCENARIOS = collect()


@pytest.mark.parametrize("scenario", SCENARIOS, ids=[s.id for s in SCENARIOS])
def test_scenario(scenario):
    run(scenario)
