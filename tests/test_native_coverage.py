"""The native kernel on every shipped ruleset and variant, and on the constructs it used to refuse
(while ... limit, procedures giving values, recursion, slices, with_item, show, seat/player,
next_player(where=)): seeded games in the kernel and in the Python engine are the same games."""
from __future__ import annotations

import os
from pathlib import Path

import pytest

from interpreter.game import load_game
from tests.conftest import require_extra, require_program

require_extra("cffi", "native")
require_program("gcc")

from interpreter.native import kernel_for  # noqa: E402
from interpreter.native.reference import comparable, play_python  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
NEW_GAMES = ["cant-stop", "coup", "courtship", "fireworks", "hearts", "no-thanks", "partners", "reversi", "sushi-go"]
VARIANTS = sorted(p.stem for p in (ROOT / "rulesets" / "variants").glob("*.yaml"))
NEWLY_COVERED_VARIANTS = ["coup-assassin-pays-when-challenged", "hearts-queen-breaks-moon-subtracts"]
CUT = 3000  # decisions: a random game of a long match may not end; the kernel and Python cut it alike


def same_games(game, seeds, cut=CUT) -> int:
    """Play ``seeds`` in both engines and compare; the number of games that finished."""
    kernel, finished = kernel_for(game), 0
    for seed in seeds:
        policy = seed * 7919 + 3
        native_actions, native_state = kernel.play(seed, policy, max_decisions=cut)
        python_actions, python_state = play_python(game, seed, policy, max_moves=cut)
        assert native_actions == python_actions, (game.ruleset.name, seed)
        if native_state is None:
            assert not python_state.is_terminal(), (game.ruleset.name, seed)
            continue
        finished += 1
        assert comparable(native_state) == comparable(python_state), (game.ruleset.name, seed)
        assert native_state.returns() == python_state.returns(), (game.ruleset.name, seed)
    return finished


@pytest.mark.parametrize("name", NEW_GAMES + NEWLY_COVERED_VARIANTS)
def test_kernel_plays_the_new_games_as_python_does(name):
    assert same_games(load_game(name), range(4)) >= 1


@pytest.mark.slow
@pytest.mark.skipif(not os.environ.get("RULEBOOK_SLOW"), reason="a slow test: run with RULEBOOK_SLOW=1")
@pytest.mark.parametrize("name", NEW_GAMES + VARIANTS)
def test_kernel_plays_every_shipped_ruleset_as_python_does_many(name):
    same_games(load_game(name), range(100, 160))


CONSTRUCTS = """
game: {name: Constructs, players: 3}
vars:
  total: 0
  marks: [0, 0, 0, 0]
procedures:
  "sum_to(n)":
    - if: n <= 0
      then: [return 0]
    - let rest = sum_to(n - 1)
    - return n + rest
  "count_down(n)":
    - if: n > 0
      then:
        - total += 1
        - count_down(n - 1)
  "is_even(n)":
    - if: n == 0
      then: [return true]
    - let odd = is_odd(n - 1)
    - return odd
  "is_odd(n)":
    - if: n == 0
      then: [return false]
    - let even = is_even(n - 1)
    - return even
flow:
  - while: total < 60
    limit: 7
    do:
      - choose:
          options:
            small:
              effects: ["let s = sum_to(3)", "total += s", "marks[seat(active) % 4] += 1"]
            big:
              params: {n: "range(1, 6)"}
              effects: ["count_down(n)", "let even = is_even(n)", "if: even\\n  then: [total += 1]"]
            trim:
              require: sum(marks[1:]) > 0
              effects: ["marks = marks[:-1] + [0]"]
      - active = player(seat(active) + 1)
      - active = next_player(active, where=player != 1 or total > 20)
"""


def test_while_limit_recursion_and_returned_values_play_as_in_python(tmp_path):
    path = tmp_path / "constructs.yaml"
    path.write_text(CONSTRUCTS.replace('"if: even\\n  then: [total += 1]"', "{if: even, then: [total += 1]}"))
    game = load_game(path)
    assert same_games(game, range(40)) == 40
    actions, _ = kernel_for(game).play(3, 4)
    assert len(actions) == 7  # the limit of the while loop ends it


ZONE_AS_LIST = """
game: {name: Zones, players: 2}
components:
  chip:
    in: pile
    attributes: {value: int}
    table:
      - {value: 3, count: 2}
      - {value: 5, count: 1}
zones:
  pile: {visibility: all}
  kept: {visibility: all}
vars:
  total: 0
flow:
  - while: not empty(pile)
    do:
      - choose:
          options:
            take:
              params: {c: pile}
              require: "size(with_item(pile, 0, c)) > 0 and any(pile) and sum(pile) >= 0"
              effects: ["move(c, kept)", "total += c.value"]
"""


def test_a_zone_given_where_a_function_takes_a_list_is_its_contents(tmp_path):
    """with_item(), any(), sum() of a zone: the kernel reads its contents, as Python does."""
    path = tmp_path / "zones.yaml"
    path.write_text(ZONE_AS_LIST)
    assert same_games(load_game(path), range(6)) == 6


def test_native_check_covers_every_shipped_ruleset(capsys):
    import json

    from interpreter.cli import main

    assert main(["native-check", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert len(rows) >= 40 and all(row["covered"] for row in rows), [r for r in rows if not r.get("covered")]


def test_fuzzed_rulesets_play_in_the_kernel_as_in_python():
    """benchmarks/fuzz.py --native: each mutated ruleset that loads plays the same seeded game in
    the kernel (or fails with the same error), and none crashes the process."""
    import sys

    sys.path.insert(0, str(ROOT / "benchmarks"))
    from fuzz import fuzz

    failures = []
    outcomes = fuzz(rulesets=60, states=0, seed=5, report=failures.append, native=True)
    assert not failures, failures[0]
    assert outcomes["ruleset ok"] >= 2, outcomes
