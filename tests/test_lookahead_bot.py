"""The `lookahead` bot (flat Monte Carlo with playouts of several rounds; optionally several per
action and world, greedy by the evaluation): its playouts stop after the rounds asked for, and its
options are checked.  That it takes a winning move and plays the same for a seed and budget is
tested with `focus` in tests/test_focus_bot.py, that it chooses alike with either rollout engine in
tests/test_bots.py."""
import pytest

from dsl.errors import ParameterError
from interpreter.bots import make_bot, stronger_spec
from interpreter.native.reference import play_on
from tests.test_focus_bot import grab  # noqa: F401  (the fixture: a game of twelve actions, one of them wins)


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


def test_a_stronger_setting_keeps_the_options_written_as_text():
    """A policy or an engine is text: the strength check and the sanity report's advice write it back
    as it was (they stopped with a ValueError before)."""
    from interpreter.analysis.sanity import stronger_advice
    assert stronger_spec("lookahead:policy=greedy") == "lookahead:policy=greedy,rollouts=16,budget=128"
    assert stronger_spec("flat:engine=python") == "flat:engine=python,rollouts=16,budget=128"
    make_bot(stronger_spec("lookahead:policy=greedy,epsilon=0.5"), 0, 1)
    assert "--seats lookahead:policy=greedy,rollouts=16,budget=128" in stronger_advice(["lookahead:policy=greedy"])
