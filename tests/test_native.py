"""The native playout kernel (interpreter/native/): seeded games played in the kernel and in the
Python engine are the same games; what it does not cover falls back with the reason; a failing rule
is the same located error."""
from __future__ import annotations

import json
import os

import pytest

from dsl.errors import RulesRuntimeError
from interpreter.cli import main
from interpreter.game import load_game
from tests.conftest import require_extra, require_program

require_extra("cffi", "native")
require_program("gcc")

from interpreter.native import NativeUnavailable, kernel_for  # noqa: E402
from interpreter.native.reference import comparable, play_python  # noqa: E402

COVERED = [("tic-tac-toe", None, None), ("connect-four", None, None), ("kuhn-poker", None, None),
           ("leduc-poker", None, None), ("leduc-poker", {"raises_per_round": 4}, None), ("liars-dice", None, None),
           ("liars-dice", {"dice_per_player": 3}, None), ("goofspiel", None, None),
           ("goofspiel", {"points_order": "random", "num_cards": 6}, None), ("pig", None, 3),
           ("gangster", None, 2), ("gangster", None, 4), ("gangster-cancel-all-ties", None, None),
           ("la-famiglia", None, None), ("la-famiglia-lasting-reduction", None, None),
           ("pferderennen-mafia", None, None), ("mafiadollar", None, 3)]
SEED_GAMES = {"gangster", "gangster-cancel-all-ties", "la-famiglia", "la-famiglia-lasting-reduction",
              "pferderennen-mafia", "mafiadollar"}  # longer games: fewer in CI


def _same_games(name, params, players, seeds) -> None:
    game = load_game(name, params=params, players=players)
    kernel = kernel_for(game)
    for seed in seeds:
        policy = seed * 7919 + 3
        native_actions, native_state = kernel.play(seed, policy)
        python_actions, python_state = play_python(game, seed, policy)
        assert native_actions == python_actions, (name, seed)
        assert comparable(native_state) == comparable(python_state), (name, seed)
        assert native_state.returns() == python_state.returns(), (name, seed)


@pytest.mark.parametrize("name, params, players", COVERED)
def test_kernel_plays_the_games_python_plays(name, params, players):
    _same_games(name, params, players, range(5 if name in SEED_GAMES else 60))


@pytest.mark.slow
@pytest.mark.skipif(not os.environ.get("RULEBOOK_SLOW"), reason="a slow test: run with RULEBOOK_SLOW=1")
@pytest.mark.parametrize("name, params, players", COVERED)
def test_kernel_plays_the_games_python_plays_many(name, params, players):
    _same_games(name, params, players, range(1000, 1300 if name in SEED_GAMES else 3000))


def test_many_games_sum_the_returns_of_single_games():
    kernel = kernel_for(load_game("connect-four"))
    totals = kernel.play_many(40, seed=100, policy_seed=500)
    singles = [kernel.play(100 + i, 500 + i)[1].returns() for i in range(40)]
    assert totals == [sum(r[p] for r in singles) for p in range(2)]
    assert any(any(r) for r in singles)  # somebody won some of them


JOINED = """
game: {name: Joined, players: 2}
vars:
  name: "x"
flow:
  - choose:
      options:
        go:
          effects: ["name = name + 'y'"]
"""


def test_unsupported_construct_falls_back_with_its_place(tmp_path):
    path = tmp_path / "joined.yaml"
    with pytest.raises(NativeUnavailable) as caught:
        kernel_for(load_game(path, text=JOINED))
    assert str(caught.value) == f"native: '+' on values of type str at {path}:9 not supported yet; using Python"


def test_native_check_names_what_the_kernel_lacks_and_compares_games(tmp_path, capsys):
    path = tmp_path / "joined.yaml"
    path.write_text(JOINED)
    assert main(["native-check", str(path), "pig", "--games", "3"]) == 1
    out = capsys.readouterr().out
    assert f"{path}: not covered: '+' on values of type str at {path}:9" in out
    assert "pig.yaml: covered; 3 games the same" in out
    assert "1 of 2 rulesets covered by the native kernel" in out


def test_simulate_says_which_engine_ran(capsys):
    assert main(["simulate", "tic-tac-toe", "-n", "30", "--seats", "random,random", "--engine", "native",
                 "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["engine"] == "native" and result["finished"] == 30 and sum(result["wins"]) >= 20
    assert main(["simulate", "tic-tac-toe", "-n", "2", "--seats", "flat,flat", "--engine", "native"]) == 0  # Python games
    captured = capsys.readouterr()
    assert ("engine: python (games), rollouts of flat in the native kernel (native: only random seats play whole "
            "games in the kernel, not flat: the games run in Python)") in captured.err
    assert main(["compare", "pig", "pig", "-n", "2", "--seats", "flat,mcts:iterations=3", "--engine", "python",
                 "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["engine"] == "python" and result["rollouts"] == "python"
    assert main(["tournament", "pig", "--bots", "flat,random", "-n", "1", "--engine", "native", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["rollouts"] == "native"
    assert main(["sweep", "pig", "--set", "target=20,30", "-n", "1", "--seats", "random,random", "--engine", "native",
                 "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["engine"] == "python" and "rollouts" not in result  # no search bot


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


BOUNCING = """
game: {name: Bouncing, players: 2}
components:
  ball:
    in: left
    table:
      - {count: 1}
zones:
  left: {visibility: all}
  right: {visibility: all}
triggers:
  - name: back to the left
    on: enter(right)
    effects: ["move(component, left)"]
  - name: back to the right
    on: enter(left)
    effects: ["move(component, right)"]
flow:
  - choose:
      options:
        throw:
          effects: ["move(top(left), right)"]
"""


RUNAWAY = """
game: {name: Runaway, players: 2}
vars:
  n: 0
flow:
  - choose:
      options:
        go:
          effects:
            - while: true
              do:
                - n += 1
"""


RUNAWAY_RECURSION = """
game: {name: Runaway recursion, players: 2}
vars:
  n: 0
procedures:
  "deeper(k)":
    - n += 1
    - deeper(k + 1)
flow:
  - choose:
      options:
        go:
          effects: ["deeper(0)"]
"""


@pytest.mark.parametrize("text, message, line", [(OVERFLOW, "out of range", 12),
                                                  (BOUNCING, "set off more than 50 triggers in a row", 12),
                                                  (RUNAWAY, "200000 steps without asking anyone", 10),
                                                  (RUNAWAY_RECURSION, "procedures call each other more than 200 deep",
                                                   8)])
def test_a_failing_rule_is_the_located_error_python_gives(tmp_path, text, message, line):
    path = tmp_path / "failing.yaml"
    game = load_game(path, text=text)
    with pytest.raises(RulesRuntimeError) as native:
        kernel_for(game).play(1, 2)
    with pytest.raises(RulesRuntimeError) as python:
        play_python(game, 1, 2)
    assert str(native.value) == str(python.value)
    assert message in str(native.value) and native.value.position.line == line


@pytest.mark.parametrize("name, players", [("la-famiglia", None), ("pferderennen-mafia", None), ("mafiadollar", 3),
                                           ("gangster", 3), ("liars-dice", None)])
def test_states_convert_to_the_kernels_arrays_and_back_exactly(name, players):
    game = load_game(name, players=players)
    kernel = kernel_for(game)
    s, checked = game.new_initial_state(4), 0
    for step in range(400):
        if step % 3 == 0:
            again = kernel.state(kernel.arrays(s))
            data, expected = comparable(again), comparable(s)
            assert data.pop("stack") == [] and expected.pop("stack")
            assert data == expected, (name, step)
            checked += 1
        s.apply_action(s.legal_actions()[(step * 5) % len(s.legal_actions())])
        if s.is_terminal():
            break
    assert checked >= 2
