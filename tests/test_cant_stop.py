"""Column Climb (rulesets/cant-stop.yaml) against the published rules of Sid Sackson's Can't Stop.

Each test quotes the rule sentence it checks (docs/games/cant-stop.md gives the rulings).  The dice
are dictated: the games run with explicit chance, so every roll(6) is a chance node whose outcome the
test picks (a state waiting for chance shows the position before the action that led to it, so
checks follow the next roll).  ``progress`` lists are indexed by column number.

Positions are set once the first dice are rolled: the helper sets the player variables on the
state at the first decision and drops its cached legal actions.
"""
from __future__ import annotations

import pytest

from interpreter import IllegalActionError, load_game

_GAMES: dict = {}


def game_for(players=2, **params):
    key = (players, tuple(sorted(params.items())))
    if key not in _GAMES:
        _GAMES[key] = load_game("cant-stop", players=players, params=params or None)
    return _GAMES[key]


def columns(**spaces) -> list:
    """A progress list: columns(c7=3, c2=1) → [0, 0, 1, 0, 0, 0, 0, 3, ...]."""
    out = [0] * 13
    for key, value in spaces.items():
        out[int(key[1:])] = value
    return out


def start(*dice, players=2, progress=None, runners=None, **params):
    """A new game in which the first player rolled ``dice``, the players' markers at ``progress``
    and the runners at ``runners`` (a progress list)."""
    game = game_for(players, **params)
    state = game.new_initial_state(0, explicit_chance=True)
    roll(state, *dice)
    for name, spaces in (progress or {}).items():
        state.pvars["progress"][game.player_names.index(name)] = spaces
    if runners:
        state.vars["runner"] = runners
    state.legal_cache = None
    return state


def roll(state, *dice):
    for die in dice:
        assert state.is_chance_node()
        state.apply_action(state.chance_outcomes()[die - 1][0])


def legal(state) -> set:
    return {str(a) for a in state.legal_actions()}


def var(state, name):
    return state.vars[name]


def progress(state, seat):
    return state.pvars["progress"][seat]


def test_every_split_of_the_four_dice_is_offered():
    """»Example: Let's say you roll a 1-5-4-6. With this roll, you can create any of the following
    pairs: 6 and 10 (1+5) and (4+6); or 5 and 11 (1+4) and (5+6); or 9 and 7 (5+4) and (1+6).«"""
    s = start(1, 5, 4, 6)
    assert legal(s) == {"climb 6 and 10", "climb 5 and 11", "climb 7 and 9"}


def test_a_new_runner_starts_above_the_own_marker_and_a_runner_climbs_one_space():
    """»a) If you choose a column that does not already have one of your colored squares in it, place
    the marker onto the space at the bottom of that column. b) If you choose a column that does
    already have one of your colored squares in it, place the marker onto the space directly above
    your colored square.« »move the marker up one space in that number's column.«"""
    s = start(1, 5, 4, 6, progress={"P1": columns(c6=4)})
    s.apply_action("climb 6 and 10")
    assert var(s, "runner")[6] == 5 and var(s, "runner")[10] == 1
    s.apply_action("roll_again")
    roll(s, 3, 3, 5, 5)
    s.apply_action("climb 6 and 10")
    assert var(s, "runner")[6] == 6 and var(s, "runner")[10] == 2


def test_with_one_runner_left_the_player_places_it_in_either_column_and_ignores_the_other():
    """»From your first roll you already have a marker in both the "6" and "10" columns. On the same
    turn you then roll a 2-4-3-5. If you choose to create 6 and 8 as your pair, move the marker in the
    "6" column up one space and place the third marker into the "8" column. If, instead, you choose
    to create 5 and 9 as your pair, you must place the third marker into either of these columns and
    ignore the other column.«"""
    s = start(1, 5, 4, 6)
    s.apply_action("climb 6 and 10")
    s.apply_action("roll_again")
    roll(s, 2, 4, 3, 5)
    assert legal(s) == {"climb 6 and 8", "climb 5 only", "climb 9 only", "climb 7 and 7"}
    s.apply_action("climb 9 only")
    assert [c for c in range(13) if var(s, "runner")[c]] == [6, 9, 10]


def test_a_double_sum_climbs_two_spaces():
    """»It is possible to choose to have two sums of the same number. When this happens, you will move
    a runner in that column twice.«"""
    s = start(3, 4, 2, 5)
    s.apply_action("climb 7 and 7")
    assert var(s, "runner")[7] == 2


def test_stopping_keeps_the_climb_and_a_roll_that_moves_nothing_loses_it():
    """»To stop, simply replace each marker with one of your colored squares.« »If the neutral markers
    are on the board, but only in columns that cannot be made with any pair of the current four dice,
    the turn is over and the player gains nothing.«"""
    s = start(1, 1, 1, 2)               # 2 and 3, or 3 and 2
    s.apply_action("climb 2 and 3")
    s.apply_action("stop")
    roll(s, 1, 1, 2, 2)                 # P2: 2 and 4, or 3 and 3
    assert progress(s, 0)[2] == 1 and progress(s, 0)[3] == 1
    assert s.current_player() == 1
    s.apply_action("climb 3 and 3")
    s.apply_action("roll_again")
    roll(s, 6, 6, 6, 6)                 # 12 and 12: a new runner
    s.apply_action("climb 12 and 12")
    s.apply_action("roll_again")
    roll(s, 1, 1, 1, 1)                 # 2 and 2: the last runner
    s.apply_action("climb 2 and 2")
    s.apply_action("roll_again")
    roll(s, 4, 4, 4, 4)                 # 8 only: no runner moves
    roll(s, 1, 1, 1, 2)                 # and P1 rolls again
    assert s.current_player() == 0
    assert progress(s, 1) == [0] * 13   # P2 gains nothing
    assert var(s, "runner") == [0] * 13


def test_a_claimed_column_clears_the_others_and_is_closed():
    """»When a player reaches the top space of a column and claims it then this column is won, and no
    further play in that column is allowed.« (The published rules: the other players' squares in it
    are removed.)"""
    s = start(1, 1, 1, 2, progress={"P1": columns(c2=2), "P2": columns(c2=1, c3=2)})   # 2 and 3
    s.apply_action("climb 2 and 3")
    s.apply_action("stop")
    roll(s, 1, 1, 1, 2)                 # P2: 2 and 3, but column 2 is closed
    assert progress(s, 0)[2] == 3 and progress(s, 1)[2] == 0 and progress(s, 1)[3] == 2
    assert legal(s) == {"climb 3 only"}


def test_a_runner_at_the_top_closes_the_column_for_the_rest_of_the_turn():
    """Ruling: a runner on the top space has nowhere to climb, so that sum cannot be used."""
    s = start(1, 1, 3, 3, progress={"P1": columns(c2=2)})   # 2 and 6, or 4 and 4
    s.apply_action("climb 2 and 6")
    s.apply_action("roll_again")
    roll(s, 1, 1, 3, 3)
    assert "climb 2 and 6" not in legal(s) and "climb 6 only" in legal(s)


def test_the_third_claimed_column_wins_at_once():
    """»The first player to reach the top of three columns wins the game.«"""
    # 3 and 12 (12 is claimed), or 7 and 8 twice
    s = start(1, 2, 6, 6, progress={"P1": columns(c2=3, c12=3, c3=4)})
    s.apply_action("climb 3 only")
    s.apply_action("stop")
    assert s.is_terminal() and s.winners() == [0]
    assert s.returns()[0] == 3
    with pytest.raises(IllegalActionError):
        s.apply_action("roll_again")


@pytest.mark.parametrize("most_runners, expected", [
    (False, {"climb 7 and 7", "climb 4 and 10"}),
    (True, {"climb 4 and 10"}),
])
def test_the_two_readings_of_if_you_can_place_a_marker_you_must(most_runners, expected):
    """»If you can place a marker, you must«: with a runner in 7 and two runners left, a roll of
    2-2-5-5 may be played as two sevens (the rule applies after the split, the default), or must bring
    the two free runners onto 4 and 10 (before the split: the parameter most_runners)."""
    s = start(2, 2, 5, 5, runners=columns(c7=1), most_runners=most_runners)
    assert legal(s) == expected
