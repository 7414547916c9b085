"""Load-time bounds (issue 35): generated code linear in the rules, one error per aliased node, the
cases that used to end in a traceback.  The single-error cases are data in tests/hostile/load_bounds.json."""
from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

from conftest import MINIMAL
from interpreter import ErrorList, RulebookError, load_game
from test_errors import memory_limit, time_limit
from interpreter.codegen.nodes import N


def _with_procedure(statements: list, tmp_path, name="big.yaml"):
    """The minimal ruleset with a procedure ``big(p)`` whose ``else`` branch holds ``statements``,
    called from the setup and from the flow."""
    body = "".join(f"        - {line}\n" for line in statements)
    text = MINIMAL.read_text(encoding="utf-8")
    text = text.replace("player_vars:", "procedures:\n  big(p):\n    - let x = 0\n    - if: p > 0\n      then:\n"
                        "        - x = 1\n      else:\n" + body + "player_vars:")
    text = text.replace("  - shuffle(pile)\n", "  - shuffle(pile)\n  - big(1)\n")
    text = text.replace("      - active = next_player(active)\nscoring",
                        "      - big(2)\n      - active = next_player(active)\nscoring")
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def _generated_size(path) -> int:
    """The number of Python nodes the code generator made for the game at ``path``."""
    load_game(path, cache=False)
    return N.made


def test_generated_code_grows_linearly_with_a_chain_of_ifs(tmp_path):
    """A run of n ``if`` statements once made a block from each of them to the end of the run (n²/2
    statements); now each is generated once."""
    ifs = lambda n: [f"if: p > {i}\n          then:\n            - active.score += 1" for i in range(n)]
    small = _generated_size(_with_procedure(ifs(50), tmp_path, "small.yaml"))
    large = _generated_size(_with_procedure(ifs(200), tmp_path, "large.yaml"))
    assert large < 4.5 * small, (small, large)
    assert large < 200 * 2 * 80  # about 57 nodes per if (its block and its own function), for each of its two call sites


@pytest.mark.parametrize("bound, value, statements, message", [
    ("interpreter.codegen.nodes.MAX_GENERATED", 2000, 300, "the rules compile to more than 2,000 pieces of code"),
    ("dsl.resolver.MAX_EXPRESSIONS", 40, 60, "the rules hold more than 40 expressions and statements")])
def test_a_ruleset_beyond_a_load_bound_is_a_located_error(bound, value, statements, message, tmp_path, monkeypatch):
    monkeypatch.setattr(bound, value)
    path = _with_procedure([f"x = x + {i}" for i in range(statements)], tmp_path)
    with pytest.raises(ErrorList) as caught:
        load_game(path, cache=False)
    error = caught.value.errors[0]
    assert message in error.message
    assert error.position is not None and error.position.line > 20


def test_a_definition_whose_argument_is_read_many_times_counts_each_reading(tmp_path, monkeypatch):
    """A definition's argument is generated once and stands in the code wherever the body reads
    the parameter: 2,000 readings of a 10-node argument are 20,000 nodes for the compiler (once
    unbounded: a 1 MB ruleset of such uses took minutes and gigabytes)."""
    monkeypatch.setattr("interpreter.codegen.nodes.MAX_GENERATED", 50_000)
    body = "size([" + ", ".join(["y"] * 2000) + "])"
    uses = "".join(f"  - active.score += d(active.score + {i})\n" for i in range(5))
    text = MINIMAL.read_text(encoding="utf-8").replace("player_vars:", f"define:\n  d(y): \"{body}\"\nplayer_vars:")
    path = tmp_path / "define.yaml"
    path.write_text(text.replace("  - shuffle(pile)\n", "  - shuffle(pile)\n" + uses), encoding="utf-8")
    with pytest.raises(ErrorList) as caught:
        load_game(path, cache=False)
    error = caught.value.errors[0]
    assert "the rules compile to more than 50,000 pieces of code" in error.message
    assert 24 <= error.position.line <= 28  # one of the statements using the definition


def test_the_expressions_of_a_ruleset_are_bounded_in_length_together(tmp_path, monkeypatch):
    monkeypatch.setattr("dsl.resolver.MAX_EXPRESSION_TEXT", 3000)
    path = _with_procedure([f"x = x + {i} * {i} + {i}" for i in range(200)], tmp_path)
    with pytest.raises(ErrorList) as caught:
        load_game(path, cache=False)
    error = caught.value.errors[0]
    assert "longer than 3,000 characters together" in error.message
    assert error.position.line > 30


def test_a_chain_of_ifs_plays_as_before(tmp_path):
    """Each ``if`` of a chain is done once, inside the one block of the run."""
    chain = "".join(f"    - if: p > {i}\n      then:\n        - active.score += {i + 1}\n" for i in range(6))
    text = MINIMAL.read_text(encoding="utf-8").replace("player_vars:", "procedures:\n  chain(p):\n" + chain +
                                                       "player_vars:")
    path = tmp_path / "chain.yaml"
    path.write_text(text.replace("  - shuffle(pile)\n", "  - shuffle(pile)\n  - chain(2)\n  - chain(4)\n"),
                    encoding="utf-8")
    state = load_game(path, cache=False).new_initial_state(0)
    assert json.loads(state.to_json())["pvars"]["score"] == [(1 + 2) + (1 + 2 + 3 + 4), 0]


def test_one_aliased_faulty_node_is_reported_once(tmp_path):
    text = MINIMAL.read_text(encoding="utf-8").replace(
        "  score: 0\n", "  score: 0\n  s0: &b {x: [1, 2]}\n" + "".join(f"  s{i}: *b\n" for i in range(1, 3000)))
    path = tmp_path / "alias.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ErrorList) as caught:
        load_game(path, cache=False)
    assert len(caught.value.errors) == 1
    assert caught.value.errors[0].position.line == 22


def test_a_procedure_storing_what_another_returns_may_be_called_from_the_setup(tmp_path):
    """``let x = two()`` inside a procedure the setup calls: once a TypeError in the check of quiet calls."""
    text = MINIMAL.read_text(encoding="utf-8").replace(
        "player_vars:", "procedures:\n  two():\n    - return 2\n  one():\n    - let x = two()\n"
                        "    - active.score += x\nplayer_vars:").replace("  - shuffle(pile)\n", "  - shuffle(pile)\n  - one()\n")
    path = tmp_path / "letproc.yaml"
    path.write_text(text, encoding="utf-8")
    state = load_game(path, cache=False).new_initial_state(0)
    assert json.loads(state.to_json())["pvars"]["score"][0] == 2


def test_extending_a_file_that_holds_no_mapping_is_a_located_error(tmp_path):
    (tmp_path / "scalar.yaml").write_text("just a scalar\n", encoding="utf-8")
    path = tmp_path / "variant.yaml"
    path.write_text("extends: scalar.yaml\ngame:\n  name: X\n", encoding="utf-8")
    with pytest.raises(ErrorList) as caught:
        load_game(path, cache=False)
    error = caught.value.errors[0]
    assert type(error).__name__ == "SchemaError" and "holds no ruleset" in error.message
    assert error.position.line == 1


@pytest.mark.parametrize("argument, message", [("100000000000000000000000", "at most 20 digits"),
                                               ("0", "must lie within 1 and 1,000,000,000"),
                                               ("2000000000", "must lie within")])
def test_simulate_checks_the_number_of_games(argument, message, capsys):
    from interpreter.cli.main import main

    assert main(["simulate", str(MINIMAL), "-n", argument]) != 0
    assert message in capsys.readouterr().err


def test_a_seed_beyond_what_a_log_keeps_is_refused(capsys):
    from interpreter.cli.main import main

    assert main(["play", str(MINIMAL), "--seed", "9" * 5000]) != 0
    assert "at most 20 digits" in capsys.readouterr().err



@pytest.mark.parametrize("bound, value, row, message, line", [
    ("dsl.declarations.MAX_COMPONENTS", 50, "      - {value: 3, count: 45}\n", "the components number more than 50 in all",
     16),  # the row that passes the bound
    ("dsl.declarations.MAX_ZONES", 10, "", "the zones number more than 10 in all", 20)])  # 8 + pile + table + 2 hands
def test_the_components_and_zones_of_a_game_are_bounded_in_all(bound, value, row, message, line, tmp_path,
                                                                monkeypatch):
    """Counts of 10,000 on every row once made millions of components from a few kilobytes."""
    monkeypatch.setattr(bound, value)
    text = MINIMAL.read_text(encoding="utf-8").replace("      - {value: 2, count: 4}\n",
                                                       "      - {value: 2, count: 4}\n" + row)
    path = tmp_path / "many.yaml"
    path.write_text(text.replace("zones:\n", "zones:\n  under: {per: card}\n"), encoding="utf-8")
    with pytest.raises(ErrorList) as caught:
        load_game(path, cache=False)
    error = next(e for e in caught.value.errors if message in e.message)
    assert error.position.line == line


BIG = Path(__file__).resolve().parent.parent / "benchmarks" / "big_rulesets.py"


def _shapes():
    spec = importlib.util.spec_from_file_location("big_rulesets", BIG)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.SHAPES


@pytest.mark.parametrize("name", sorted(_shapes()))
def test_every_shape_of_the_big_rulesets_benchmark_loads_or_is_refused_cleanly(name, tmp_path, monkeypatch):
    """benchmarks/big_rulesets.py at 1/40 of its size, with its bounds at 1/40 as well: each shape ends
    loaded or with a located error, quickly (the benchmark measures the full size)."""
    for bound, value in (("dsl.resolver.MAX_EXPRESSIONS", 125), ("dsl.resolver.MAX_EXPRESSION_TEXT", 6_250),
                         ("interpreter.codegen.nodes.MAX_GENERATED", 10_000), ("dsl.yaml_loader.MAX_NODES", 5_000)):
        monkeypatch.setattr(bound, value)
    path = tmp_path / f"{name}.yaml"
    path.write_text(_shapes()[name](25_000), encoding="utf-8")
    with time_limit(20), memory_limit(400):
        try:
            load_game(path, cache=False)
        except RulebookError as exc:
            errors = getattr(exc, "errors", [exc])
            assert all(e.position is not None and e.position.line >= 1 for e in errors), errors


def test_code_made_in_play_after_a_refused_compile_is_not_bounded(tmp_path, monkeypatch):
    """The bound on generated code is the compile's: after a ruleset was refused, another game's
    messages logged in play (whose tellers are made then) still play."""
    monkeypatch.setattr("interpreter.codegen.nodes.MAX_GENERATED", 2000)
    with pytest.raises(ErrorList):
        load_game(_with_procedure([f"x = x + {i}" for i in range(300)], tmp_path), cache=False)
    monkeypatch.setattr("interpreter.codegen.nodes.MAX_GENERATED", 10)
    from interpreter.runtime import narration

    assert N.where is None
    assert narration.teller("{count} {other} {number} {component} {player}") is not None  # made now, if not before
