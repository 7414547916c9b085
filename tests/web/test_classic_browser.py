"""A classic ruleset (rulesets/classic/) played to its end by clicks on the web table: tic-tac-toe, the
grid's free cells highlighted as targets, against the random bot."""
from __future__ import annotations

import random

from .conftest import screenshot
from .helpers import create_table, live_table, play_by_clicks, seat_page


def test_tic_tac_toe_to_the_end_by_clicks(web_server, context):
    table = create_table(web_server, "classic/tic-tac-toe", ["human", "random"])
    page = seat_page(web_server, context, table)

    def free_cells_are_targets(page):
        assert page.locator(".board-area .target").count() >= 1

    assert play_by_clicks(page, random.Random(2), 9, before=free_cells_are_targets) == "over"
    state = live_table(web_server, table["id"]).state
    heading = page.locator("#result h2").inner_text()
    winners = state.winners()
    assert heading == ("Shared win: x, o" if len(winners) == 2 else f"{'xo'[winners[0]]} wins")
    assert page.locator(".board-area table.board td.cell .card").count() == state.moves  # one mark a move
    assert page.locator("#narration li").count() >= state.moves
    screenshot(page, "table-tic-tac-toe")
