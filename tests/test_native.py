"""The native playout kernel (interpreter/native/): seeded games played in the kernel and in the
Python engine are the same games; what it does not cover falls back with the reason; a failing rule
is the same located error."""
from __future__ import annotations

import pytest

from dsl.errors import RulesRuntimeError
from interpreter.game import load_game
from tests.conftest import require_extra, require_program

require_extra("cffi", "native")
require_program("gcc")

from interpreter.native import NativeUnavailable, kernel_for  # noqa: E402
from interpreter.native.reference import comparable, play_python  # noqa: E402

COVERED = ["tic-tac-toe", "connect-four", "kuhn-poker", "leduc-poker"]


def _same_games(name, seeds) -> None:
    game = load_game(name)
    kernel = kernel_for(game)
    for seed in seeds:
        policy = seed * 7919 + 3
        native_actions, native_state = kernel.play(seed, policy)
        python_actions, python_state = play_python(game, seed, policy)
        assert native_actions == python_actions, (name, seed)
        assert comparable(native_state) == comparable(python_state), (name, seed)
        assert native_state.returns() == python_state.returns(), (name, seed)


@pytest.mark.parametrize("name", COVERED)
def test_kernel_plays_the_games_python_plays(name):
    _same_games(name, range(150))


@pytest.mark.slow
@pytest.mark.parametrize("name", COVERED)
def test_kernel_plays_the_games_python_plays_many(name):
    _same_games(name, range(1000, 4000))


def test_many_games_sum_the_returns_of_single_games():
    kernel = kernel_for(load_game("connect-four"))
    totals = kernel.play_many(40, seed=100, policy_seed=500)
    singles = [kernel.play(100 + i, 500 + i)[1].returns() for i in range(40)]
    assert totals == [sum(r[p] for r in singles) for p in range(2)]
    assert any(any(r) for r in singles)  # somebody won some of them


def test_unsupported_construct_falls_back_with_its_place():
    with pytest.raises(NativeUnavailable) as caught:
        kernel_for(load_game("goofspiel"))
    text = str(caught.value)
    assert text.startswith("native: the statement Simultaneous at ")
    assert "goofspiel.yaml:" in text and text.endswith("not supported yet; using Python")


def test_a_second_build_comes_from_the_cache():
    first = kernel_for(load_game("tic-tac-toe", cache=False))
    again = kernel_for(load_game("tic-tac-toe", cache=False))
    assert again.cached and again.lib is first.lib


OVERFLOW = """
game: {name: Overflow, players: 2}
vars:
  total: {type: int, initial: 1}
flow:
  - while: true
    do:
      - choose:
          options:
            double:
              effects:
                - total = total * 1000
"""


def test_a_failing_rule_is_the_located_error_python_gives(tmp_path):
    path = tmp_path / "overflow.yaml"
    path.write_text(OVERFLOW)
    game = load_game(path, text=OVERFLOW)
    with pytest.raises(RulesRuntimeError) as native:
        kernel_for(game).play(1, 2)
    with pytest.raises(RulesRuntimeError) as python:
        play_python(game, 1, 2)
    assert str(native.value) == str(python.value)
    assert "out of range" in str(native.value) and native.value.position.line == 12
