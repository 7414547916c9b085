"""Every example of docs/patterns.md is a whole game: it loads, and random play reaches its end."""
from __future__ import annotations

import random
import re

import pytest

from conftest import ROOT
from interpreter import load_game

PATTERNS = ROOT / "docs" / "patterns.md"
EXAMPLES = [block for block in re.findall(r"```yaml\n(.*?)```", PATTERNS.read_text(encoding="utf-8"), re.S)
            if block.startswith("game:")]


def test_every_pattern_has_its_example():
    assert len(EXAMPLES) >= 9


@pytest.mark.parametrize("index", range(len(EXAMPLES)))
def test_the_example_plays_to_the_end(tmp_path, index):
    path = tmp_path / "pattern.yaml"
    path.write_text(EXAMPLES[index], encoding="utf-8")
    game = load_game(path)
    for seed in range(3):
        state = game.new_initial_state(seed)
        rng = random.Random(seed)
        for _ in range(500):
            if state.is_terminal():
                break
            state.apply_action(rng.choice(state.legal_actions()))
        assert state.is_terminal() and len(state.returns()) == game.num_players
