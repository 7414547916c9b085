"""`flat:follow=N`: in its playouts the judging seat takes its next N decisions by the evaluation one
step ahead (the other seats stay uniform), so the first stage of a staged decision is judged with a
good second stage, not a random one; a decision that offers again the option just judged (a choice
repeated in a loop) stays uniform; the looks ahead are counted in both engines alike."""
import pytest

from interpreter import load_game
from interpreter.bots import make_bot
from interpreter.native.reference import play_on

# a turn: pick a tile, then a field for it; tile 'rare' pays 100 on one field of ten, tile 'safe' 5 anywhere
STAGED = """
game: {name: Staged, players: 2}
player_vars: {points: 0}
procedures:
  turn:
    - let tile = ''
    - choose:
        options:
          rare:
            effects: ["tile = 'rare'"]
          safe:
            effects: ["tile = 'safe'"]
    - choose:
        options:
          field:
            params: {f: "range(0, 10)"}
            effects:
              - if: "tile == 'safe'"
                then: ["active.points += 5"]
              - if: "tile == 'rare' and f == 7"
                then: ["active.points += 100"]
flow:
  - repeat: 3
    do:
      - for: "p in players"
        do: ["active = p", "turn()"]
scoring: {score: player.points}
"""

# a loop: take 0 to 3 points again and again, or stop
LOOP = """
game: {name: Loop, players: 2}
player_vars: {points: 0}
flow:
  - for: "p in players"
    do:
      - while: true
        do:
          - choose:
              player: p
              options:
                take:
                  params: {n: "range(0, 4)"}
                  effects: ["p.points += n"]
                stop:
                  effects: [break]
scoring: {score: player.points}
"""


def _game(tmp_path, name, text):
    path = tmp_path / f"{name}.yaml"
    path.write_text(text, encoding="utf-8")
    return load_game(path)


def test_a_staged_decision_is_judged_with_its_best_next_stage(tmp_path):
    game = _game(tmp_path, "staged", STAGED)
    state = game.new_initial_state(1)
    names = [a.option.name for a in state.legal_actions()]
    assert names == ["rare", "safe"]
    followed = [make_bot("flat:rollouts=1,follow=1", 0, seed).choose(state).option.name for seed in range(20)]
    uniform = [make_bot("flat:rollouts=1", 0, seed).choose(state).option.name for seed in range(20)]
    assert followed.count("rare") == 20  # the greedy field for 'rare' is the one that pays 100
    assert uniform.count("rare") <= 10  # a random field for 'rare' pays nothing nine times in ten


@pytest.mark.parametrize("engine", ["python", "native"])
def test_only_a_new_choice_is_followed_and_its_looks_are_counted(tmp_path, engine):
    staged, loop = _game(tmp_path, "staged", STAGED), _game(tmp_path, "loop", LOOP)
    for game, looks in ((staged, 10), (loop, 0)):  # ten fields looked at; 'take' offered again: none
        state = game.new_initial_state(2)
        if engine == "native":
            from tests.conftest import require_extra, require_program
            require_extra("cffi", "native")
            require_program("gcc")
            from interpreter.native import kernel_for
            from interpreter.native.playout import Runner
            ks = Runner(kernel_for(game), state).run(5, 1, 0, force=0, greedy=0.0, own=1)
            assert ks.looks == looks
        else:
            counted = [0]
            play_on(state.clone(), 5, 1, stop_seat=0, first=0, greedy=0.0, own=1, looks=counted)
            assert counted[0] == looks
