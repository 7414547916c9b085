"""Reversi (rulesets/reversi.yaml) against the rules of Othello.

Each test quotes the rule it checks (docs/games/reversi.md gives the rulings).  Boards are written as
rows of codes, top row first (rows not written are empty): ``B`` a black disc, ``W`` a white disc,
``.`` an empty square.
Cells are written ``r3c4`` (row 3, column 4, counted from 1) as in the game's action texts.
Seats: 0 black (moves first), 1 white.
"""
from __future__ import annotations

import pytest

from interpreter import IllegalActionError, load_game

BLACK, WHITE = 0, 1
EMPTY_ROW = ". . . . . . . ."
_GAME: list = []


def game():
    if not _GAME:
        _GAME.append(load_game("reversi"))
    return _GAME[0]


def cell_index(g, text: str) -> int:
    row, col = text[1:].split("c")
    first = g.zone_grid[g.zone_names.index("board")][0]
    return first + (int(row) - 1) * 8 + (int(col) - 1)


def start(rows, active=BLACK):
    """A game whose board is ``rows`` (strings of eight codes, top row first; rows not given are
    empty) with ``active`` to move."""
    g = game()
    rows = list(rows) + [EMPTY_ROW] * (8 - len(rows))
    assert len(rows) == 8 and all(len(r.split()) == 8 for r in rows)

    def fn(state):
        supply = g.zone_names.index("supply")
        board = g.zone_names.index("board")
        for c in list(state.zones[board]):
            state.move_component(c, supply)
        for r, line in enumerate(rows, 1):
            for k, code in enumerate(line.split(), 1):
                if code == ".":
                    continue
                c = state.zones[supply][-1]
                cell = cell_index(g, f"r{r}c{k}")
                state.move_component(c, g.cell_zone[cell], False, cell)
                state.marks["black"][c] = code == "B"
        state.vars["active"] = active

    return g.new_initial_state(0, arrange=fn)


def board(state) -> list:
    """The board as eight rows of codes."""
    g = state.game
    out = []
    for r in range(1, 9):
        codes = []
        for k in range(1, 9):
            c = state.cells[cell_index(g, f"r{r}c{k}")]
            codes.append("." if c is None else ("B" if state.marks["black"][c] else "W"))
        out.append(" ".join(codes))
    return out


def legal(state) -> set:
    return {str(a) for a in state.legal_actions()}


def test_the_game_starts_with_two_discs_each_in_the_centre_and_black_to_move():
    """»Othello begins with four discs placed in the middle: white on d4 and e5, black on d5 and e4.
    Black moves first.« (d4 is row 4, column 4.)"""
    s = game().new_initial_state(0)
    assert board(s)[3] == ". . . W B . . ." and board(s)[4] == ". . . B W . . ."
    assert s.current_player() == BLACK
    # the four opening moves, all symmetric
    assert legal(s) == {"play r3c4", "play r4c3", "play r5c6", "play r6c5"}


def test_a_move_must_outflank_and_turns_every_outflanked_line():
    """»A disc may be placed only so that it outflanks at least one of the opponent's discs« and
    »Discs may be outflanked in any number of directions at the same time — horizontally, vertically or
    diagonally. All discs outflanked in any one move must be flipped.«"""
    s = start([
        ". . . . . . . .",
        ". B . B . . . .",
        ". . W W W . . .",
        ". . . . W W B .",
    ])
    assert "play r4c3" not in legal(s)            # next to white discs, but it encloses none
    with pytest.raises(IllegalActionError):
        s.apply_action("play r4c3")
    s.apply_action("play r4c4")
    assert board(s)[1:4] == [
        ". B . B . . . .",
        ". . B B W . . .",                        # up and up-left turned; up-right is not enclosed
        ". . . B B B B .",                        # the row turned
    ]
    assert s.current_player() == WHITE


def test_only_the_enclosed_line_turns_not_discs_beyond_an_own_disc():
    """»Players may not skip over their own colour disc to outflank an opposing disc.«"""
    s = start([
        ". . . . . . . .",
        ". . . . . . . .",
        ". . . . . . . .",
        ". W B W W B . .",
    ])
    s.apply_action("play r4c1")
    assert board(s)[3] == "B B B W W B . ."


def test_a_player_who_cannot_move_passes_and_the_game_ends_when_neither_can():
    """»If a player cannot outflank and flip at least one opposing disc, they forfeit their turn and
    the opponent moves again.« »When it is no longer possible for either player to move, the game is
    over. Discs are counted and the player with the majority of their colour showing is the winner.«"""
    s = start([
        "B W . . . . . .",
    ], active=WHITE)
    assert s.current_player() == BLACK            # white had no move and passed
    assert legal(s) == {"play r1c3"}
    s.apply_action("play r1c3")
    assert board(s)[0] == "B B B . . . . ."
    assert s.is_terminal() and s.end_reason == "neither player can move"
    assert s.returns() == [3, 0] and s.winners() == [BLACK]


def test_equal_discs_is_a_draw():
    """Ruling: the winner is »the player with the majority of their colour showing«, so equal discs
    are a draw, which the engine reports as a win shared by both."""
    s = start([
        "B . W . . . . .",
    ])
    assert s.is_terminal()
    assert s.returns() == [1, 1] and s.winners() == [BLACK, WHITE]
