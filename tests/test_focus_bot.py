"""The `focus` bot (flat Monte Carlo spent by sequential halving), `flat:race` (racing) and the `lookahead` bot (flat with
playouts of several rounds; also with its `margin` judge): each takes a winning move when one is
there among many and plays the same for the same seed and budget; focus's options are checked
(lookahead's in tests/test_lookahead_bot.py)."""
import pytest

from dsl.errors import ParameterError
from interpreter import load_game
from interpreter.bots import make_bot, play_game, stronger_spec

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


# focus, flat racing its actions, lookahead (flat with playouts of several rounds; also greedy ones, several per world) and ismcts
# (tests/test_ismcts_bot.py)
CHOOSERS = ["focus:budget=40", "flat:race=1.5", "flat:race=1.5,follow=1", "lookahead:budget=48", "lookahead:budget=48,policy=greedy,rounds=3,playouts=2",
            "lookahead:budget=48,margin=1,rank=1",
            "ismcts:iterations=12", "ismcts:iterations=60,expand=one"]


@pytest.mark.parametrize("spec", CHOOSERS)
@pytest.mark.parametrize("seed", range(4))
def test_it_takes_the_one_winning_move_among_twelve(grab, spec, seed):
    state = grab.new_initial_state(seed)
    assert len(state.legal_actions()) == 12
    chosen = make_bot(spec, 0, seed).choose(state)
    assert str(chosen).endswith("7")


@pytest.mark.parametrize("spec", CHOOSERS)
def test_a_winning_move_also_wins_the_game(grab, spec):
    state = grab.new_initial_state(1)
    play_game(state, [make_bot(spec, 0, 5), make_bot("random", 1, 6)])
    assert state.winners() == [0] and state.end_reason == "seven"


@pytest.mark.parametrize("spec", ["focus:budget=12", "flat:race=1.5", "flat:race=1.5,follow=1", "lookahead:budget=24", "lookahead:budget=24,margin=1",
                                  "lookahead:budget=24,margin=1,rank=1", "ismcts:iterations=8"])
@pytest.mark.parametrize("ruleset", ["la-famiglia", "mafiadollar"])
def test_same_seed_and_budget_play_the_same_game(ruleset, spec):
    game = load_game(ruleset, players=2)

    def moves(seed):
        state = game.new_initial_state(3)
        played = []
        play_game(state, [make_bot(spec, 0, seed), make_bot(spec, 1, seed + 1)],
                  on_step=lambda seat, legal, action, s: played.append(str(action)), max_decisions=30)
        return played
    first = moves(11)
    assert len(first) >= 8 and moves(11) == first  # a bot may end a game early (two passes in La Famiglia)
    assert moves(12) != first  # the seed is what the bot's luck depends on


def test_a_stronger_setting_is_more_budget_and_the_options_are_checked():
    assert stronger_spec("focus") == "focus:budget=128"
    assert stronger_spec("focus:seconds=0.01") == "focus:seconds=0.04"
    with pytest.raises(ParameterError):
        make_bot("focus:budget=0", 0, 1)
    with pytest.raises(ParameterError):
        make_bot("focus:rollouts=4", 0, 1)
