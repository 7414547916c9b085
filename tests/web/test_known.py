"""The table draws what a seat knows but cannot see (the view's ``known``): a card it was shown
(``show()``) appears face up, marked "you know", on the face-down pile of the zone it lies in, and
only in that seat's page."""
from __future__ import annotations

from .conftest import screenshot
from .helpers import click_and_wait, create_table, live_table, seat_page, wait_ready

PEEK = """game: {name: Peek, players: 2}
components:
  card:
    name: "card {rank}"
    attributes: {rank: int}
    in: deck
    table: [{rank: 1, count: 4}, {rank: 2, count: 4}, {rank: 3, count: 4}]
zones:
  deck: {visibility: count}
  hand: {per: player, visibility: owner}
setup:
  - shuffle(deck)
  - for: p in players
    do: ["draw(deck, p.hand, 2)"]
flow:
  - repeat: 6
    do:
      - choose:
          options:
            look: {effects: ["show(next_player(active).hand, to=active)"]}
            peek: {effects: ["show(top(deck), to=active)"]}
            wait: {effects: []}
      - active = next_player(active)
"""


def known_ids(page, where) -> set:
    return {int(x) for x in page.eval_on_selector_all(f"{where} .card.known[data-id]", "cs => cs.map(c => c.dataset.id)")}


def test_a_card_shown_to_a_seat_is_drawn_on_the_pile_where_it_lies(web_server, context):
    table = create_table(web_server, source=PEEK, seats=["human", "human"])
    live = live_table(web_server, table["id"])
    game = live.game
    me, other = seat_page(web_server, context, table, 0), seat_page(web_server, context, table, 1)
    assert wait_ready(me) == "mine"
    assert known_ids(me, ".board-area") == set()
    click_and_wait(me, me.locator("#choices button.choice", has_text="look"))
    their_hand = set(live.state.zones[game.zone_names.index("hand[P2]")])
    assert known_ids(me, ".player[data-seat='1']") == their_hand
    assert me.locator(".player[data-seat='1'] .card.known .known-tag").first.inner_text() == "you know"
    screenshot(me, "known-cards")
    assert known_ids(other, ".board-area") == set()  # P2 was shown nothing
    assert wait_ready(other) == "mine"
    click_and_wait(other, other.locator("#choices button.choice", has_text="peek"))
    top = live.state.zones[game.zone_names.index("deck")][-1]
    assert known_ids(other, "#shared [data-zone='deck']") == {top}
    assert top not in known_ids(me, ".board-area")


def test_a_known_card_whose_zone_is_not_drawn_is_listed_apart(web_server, context):
    table = create_table(web_server, source=PEEK + "display: {hide: [deck]}\n", seats=["human", "human"])
    live = live_table(web_server, table["id"])
    me = seat_page(web_server, context, table, 0)
    assert wait_ready(me) == "mine"
    click_and_wait(me, me.locator("#choices button.choice", has_text="peek"))
    top = live.state.zones[live.game.zone_names.index("deck")][-1]
    assert known_ids(me, ".known-zone") == {top}
    assert me.locator(".known-zone .known-where").inner_text() == "in deck"
