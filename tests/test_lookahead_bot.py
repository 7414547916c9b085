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
    with pytest.raises(ParameterError):
        make_bot("lookahead:margin=-1", 0, 1)
    with pytest.raises(ParameterError):
        make_bot("lookahead:rank=-1", 0, 1)


def test_a_stronger_setting_keeps_the_options_written_as_text():
    """A policy or an engine is text: the strength check and the sanity report's advice write it back
    as it was (they stopped with a ValueError before)."""
    from interpreter.analysis.sanity import stronger_advice
    assert stronger_spec("lookahead:policy=greedy") == "lookahead:policy=greedy,rollouts=16,budget=128"
    assert stronger_spec("flat:engine=python") == "flat:engine=python,rollouts=16,budget=128"
    make_bot(stronger_spec("lookahead:policy=greedy,epsilon=0.5"), 0, 1)
    assert "--seats lookahead:policy=greedy,rollouts=16,budget=128" in stronger_advice(["lookahead:policy=greedy"])


def test_relative_lead_keeps_how_far_a_seat_is_ahead_or_behind(grab):
    from interpreter.bots.outcomes import relative_lead
    state = grab.new_initial_state(2)
    state.apply_action(state.legal_actions()[5])   # seat 0 takes 5
    state.apply_action(state.legal_actions()[2])   # seat 1 takes 2
    assert relative_lead(state, 0) == pytest.approx(3 / 8)
    assert relative_lead(state, 1) == pytest.approx(-3 / 8)


@pytest.mark.parametrize("weight", [0.5, 2.0])
def test_the_margin_option_adds_its_weight_times_the_relative_lead_of_a_cut_off_playout(grab, weight):
    """lookahead:margin=W judges a cut-off playout as flat does plus W times the seat's relative
    lead there (how far ahead of the best other seat, relative to their size); a finished one
    by its outcome alone."""
    from interpreter.bots.outcomes import relative_lead
    state = grab.new_initial_state(3)
    state.apply_action(state.legal_actions()[4])   # seat 0 has 4; seat 1 to decide
    plain = make_bot("lookahead:rounds=2,engine=python", 1, 1)
    weighted = make_bot(f"lookahead:rounds=2,engine=python,margin={weight}", 1, 1)
    cut_off = 0
    for index, action in enumerate(state.legal_actions()):
        after = state.clone()
        after.apply_action(action)
        seed = 1000 + index
        _, end = play_on(after.clone(), seed, 20, stop_seat=1, rounds=2)
        extra = 0.0 if end.is_terminal() else weight * relative_lead(end, 1)
        cut_off += not end.is_terminal()
        assert weighted.round_judge(state, seed)(after.clone()) == pytest.approx(
            plain.round_judge(state, seed)(after.clone()) + extra)
    assert cut_off >= 6


def test_rank_share_counts_the_other_seats_a_seat_is_ahead_of(grab):
    from interpreter.bots.outcomes import rank_share
    state = grab.new_initial_state(2)
    state.apply_action(state.legal_actions()[5])   # seat 0 takes 5
    assert rank_share(state, 0) == 1.0 and rank_share(state, 1) == 0.0
    state.apply_action(state.legal_actions()[5])   # seat 1 takes 5: level
    assert rank_share(state, 0) == rank_share(state, 1) == 0.5


@pytest.mark.parametrize("weight", [0.5, 2.0])
def test_the_rank_option_adds_its_weight_times_the_rank_share_of_a_cut_off_playout(grab, weight):
    """lookahead:rank=W judges a cut-off playout as flat does plus W times the share of the other
    seats its seat is ahead of there (ties half; by the score in a finished one, where it adds to the
    outcome); with margin as well, both weights add up."""
    from interpreter.bots.outcomes import rank_share, relative_lead
    state = grab.new_initial_state(3)
    state.apply_action(state.legal_actions()[4])   # seat 0 has 4; seat 1 to decide
    plain = make_bot("lookahead:rounds=2,engine=python", 1, 1)
    ranked = make_bot(f"lookahead:rounds=2,engine=python,rank={weight}", 1, 1)
    both = make_bot(f"lookahead:rounds=2,engine=python,rank={weight},margin=1", 1, 1)
    cut_off, extras = 0, set()
    for index, action in enumerate(state.legal_actions()):
        after = state.clone()
        after.apply_action(action)
        seed = 1000 + index
        _, end = play_on(after.clone(), seed, 20, stop_seat=1, rounds=2)
        extra = weight * rank_share(end, 1)
        cut_off += not end.is_terminal()
        extras.add(extra)
        base = plain.round_judge(state, seed)(after.clone())
        assert ranked.round_judge(state, seed)(after.clone()) == pytest.approx(base + extra)
        lead = 0.0 if end.is_terminal() else relative_lead(end, 1)
        assert both.round_judge(state, seed)(after.clone()) == pytest.approx(base + extra + lead)
    assert cut_off >= 6 and len(extras) >= 2  # ahead in some playouts, behind in others


PODIUM = """
game: {name: Podium, players: 3}
player_vars: {points: 0}
flow:
  - for: "p in players"
    do: [{choose: {player: p, options: {take: {
          params: {n: "[10] if p == 0 else ([3] if p == 1 else range(0, 5))"}, effects: ["p.points += n"]}}}}]
scoring: {score: player.points}
"""


def test_rank_prefers_second_place_to_third_where_the_lead_is_out_of_reach(tmp_path):
    """Seat 2 cannot catch seat 0 (10 points) but can pass seat 1 (3) by taking 4: to flat's judge
    every choice is the same lost game, to the rank judge second place is worth more than third."""
    from interpreter import load_game
    path = tmp_path / "podium.yaml"
    path.write_text(PODIUM, encoding="utf-8")
    state = load_game(path).new_initial_state(1)
    state.apply_action(state.legal_actions()[0])
    state.apply_action(state.legal_actions()[0])
    assert state.current_player() == 2 and len(state.legal_actions()) == 5
    ranked = {str(make_bot("lookahead:budget=20,rank=1", 2, seed).choose(state)) for seed in range(6)}
    plain = {str(make_bot("lookahead:budget=20", 2, seed).choose(state)) for seed in range(6)}
    assert ranked == {str(state.legal_actions()[4])}
    assert len(plain) > 1  # indifferent: random among equals
