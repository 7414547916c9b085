"""The `lookahead` bot (flat Monte Carlo with playouts of several rounds; optionally several per
action and world, greedy by the evaluation): it takes a winning move when one is there among many, it plays
the same for the same seed and budget, its playouts stop after the rounds asked for, and its options
are checked.  That it chooses alike with either rollout engine is tested in tests/test_bots.py."""
import pytest

from dsl.errors import ParameterError
from interpreter import load_game
from interpreter.bots import make_bot, play_game, stronger_spec
from interpreter.native.reference import play_on

GRAB = """
game: {name: Grab, players: 2}
player_vars: {points: 0}
flow:
  - repeat: 6
    do:
      - for: "p in players"
        do:
          - choose:
              player: p
              options:
                take:
                  params: {n: "range(0, 12)"}
                  effects:
                    - "p.points += n"
                    - if: "n == 7"
                      then: ["p.points += 100", "end_game('seven')"]
scoring: {score: player.points}
"""


@pytest.fixture
def grab(tmp_path):
    path = tmp_path / "grab.yaml"
    path.write_text(GRAB, encoding="utf-8")
    return load_game(path)


@pytest.mark.parametrize("spec", ["lookahead:budget=48", "lookahead:budget=48,policy=greedy,rounds=3,playouts=2"])
@pytest.mark.parametrize("seed", range(3))
def test_it_takes_the_one_winning_move_among_twelve(grab, spec, seed):
    state = grab.new_initial_state(seed)
    assert len(state.legal_actions()) == 12
    chosen = make_bot(spec, 0, seed).choose(state)
    assert str(chosen).endswith("7")


def test_a_winning_move_also_wins_the_game(grab):
    state = grab.new_initial_state(1)
    play_game(state, [make_bot("lookahead:budget=48", 0, 5), make_bot("random", 1, 6)])
    assert state.winners() == [0] and state.end_reason == "seven"


@pytest.mark.parametrize("ruleset", ["la-famiglia", "mafiadollar"])
def test_same_seed_and_budget_play_the_same_game(ruleset):
    game = load_game(ruleset, players=2)

    def moves(seed):
        state = game.new_initial_state(3)
        played = []
        play_game(state, [make_bot("lookahead:budget=24", 0, seed), make_bot("lookahead:budget=24", 1, seed + 1)],
                  on_step=lambda seat, legal, action, s: played.append(str(action)), max_decisions=30)
        return played
    first = moves(11)
    assert len(first) >= 8 and moves(11) == first
    assert moves(12) != first  # the seed is what the bot's luck depends on


@pytest.mark.parametrize("rounds", [1, 2, 3])
def test_a_playout_stops_after_the_rounds_asked_for(grab, rounds):
    """Grab's seats alternate, one decision each: a playout from seat 0's turn that stops when seat 0
    is to decide again after seat 1 decided, for the rounds-th time, has taken 2 * rounds - 1 more
    decisions after seat 0's first."""
    state = grab.new_initial_state(2)
    state.apply_action(state.legal_actions()[0])  # seat 0 took 0 points; seat 1 to decide
    actions, after = play_on(state, 9, 100, stop_seat=0, rounds=rounds)
    assert len(actions) == 2 * rounds - 1 and after.current_player() == 0


def test_a_stronger_setting_is_more_budget_and_the_options_are_checked():
    assert stronger_spec("lookahead") == "lookahead:rollouts=16,budget=128"
    assert stronger_spec("lookahead:seconds=0.01") == "lookahead:seconds=0.04"
    with pytest.raises(ParameterError, match="uniform, greedy"):
        make_bot("lookahead:policy=best", 0, 1)
    with pytest.raises(ParameterError):
        make_bot("lookahead:rounds=0", 0, 1)
    with pytest.raises(ParameterError):
        make_bot("lookahead:iterations=4", 0, 1)
