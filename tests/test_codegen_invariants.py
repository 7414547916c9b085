"""Parts of a generated enumerator computed once (interpreter/codegen/invariants.py) rather than for
every item of a loop: the games are the closure compiler's, and the part is computed where it is
known, into a local."""
from __future__ import annotations

from conftest import CHIPS
from test_codegen import _enumerator, _pair, _same_game

ZONE_TRUTHS = """\
game:
  name: Zone truths
  players: 2
""" + CHIPS + """\
flow:
  - while: turns < 16
    do:
      - turns += 1
      - choose:
          prompt: "Truth"
          options:
            take:
              text: "take {chip}"
              params: {chip: "list(pot)"}
              effects: ["move(chip, active.kept)"]
            back:
              text: "put back {chip}"
              params: {chip: "list(active.kept)"}
              require: "empty(pot) or chip.value == 2"
              effects: ["move(chip, pot)"]
            keep:
              text: "keep {chip}"
              params: {chip: "list(active.kept)"}
              require: "not empty(pot) or chip.value != 2"
              effects: []
      - active = next_player(active)
"""


def test_whether_a_zone_is_empty_is_found_once_per_enumeration(tmp_path):
    """``empty(pot)`` and ``not empty(pot)`` in the ``require`` of every chip read only the state's
    zones: each is computed once at the enumerator's start (it cannot fail), not for every chip, and
    the games (the pot empties in some of them) are the closures'."""
    path = tmp_path / "truths.yaml"
    path.write_text(ZONE_TRUTHS, encoding="utf-8")
    generated, reference = _pair(path, 2)
    pot = generated.zone_names.index("pot")
    emptied = 0
    for seed in range(30):
        _same_game(generated, reference, seed, check_texts=True)
        emptied += any(not state.zones[pot] for state in _states(generated, seed))
    assert emptied > 0
    code = _enumerator(generated, "Truth").__code__
    kept = [name for name in code.co_varnames if name.startswith("_m")]
    assert len(kept) == 2 and ... not in code.co_consts


def _states(game, seed):
    """The states of a random game, from the first."""
    import random
    state, rng = game.new_initial_state(seed), random.Random(seed)
    yield state
    while not state.is_terminal():
        state = state.clone()
        state.apply_action(rng.choice(state.legal_actions()))
        yield state
