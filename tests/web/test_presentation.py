"""A table people enjoy (issue 40), asserted on real pages in Chromium: the ruleset's display:
section drawn (Pferderennen's race with its finish, faces, labels), the last move marked, trade
offers on the table, no raw identifier on a seed game's table, the tab-title cue, no horizontal
scrolling at 390 px, the designer never losing an edit, and axe-core finding no serious or critical
accessibility violation on the lobby, a table of each seed game and the designer.

axe-core (MPL-2.0) is vendored as tests/web/vendor/axe-core/axe.min.js (4.14.1, from `npm pack
axe-core`), like the designer's CodeMirror: the tests need no npm and no network, and the version
is fixed, so a new axe rule never fails CI by itself."""
from __future__ import annotations

import random
import re
from pathlib import Path

import httpx
import pytest

from interpreter import load_game
from interpreter.analysis.match_log import MatchRecorder, log_header
from interpreter.analysis.simulation import SIM_BOT

from .conftest import screenshot
from .helpers import click_and_wait, create_table, live_table, play_one_choice, wait_ready

AXE = Path(__file__).resolve().parent / "vendor" / "axe-core" / "axe.min.js"
SEED_GAMES = {"pferderennen-mafia": 4, "gangster": 4, "la-famiglia": 2, "mafiadollar": 4}
PHONE = {"width": 390, "height": 844}
RAW = re.compile(r"\b[a-z]+_[a-z_]+\b")  # an identifier such as skipped_in_a_row or stack_a


def accessibility_problems(page) -> list:
    # evaluated through the DevTools protocol: the pages' content security policy forbids inline scripts
    page.evaluate(f"() => {{ {AXE.read_text(encoding='utf-8')}\n; window.axe = axe; }}")
    violations = page.evaluate("async () => (await axe.run(document, {resultTypes: ['violations']})).violations")
    return [(v["id"], v["impact"], [n["target"] for n in v["nodes"]][:3]) for v in violations
            if v["impact"] in ("serious", "critical")]


def open_seat(context, server, table, viewport=None):
    ctx = context()
    page = ctx.new_page()
    if viewport:
        page.set_viewport_size(viewport)
    page.goto(server.url + table["seats"][0]["link"])
    wait_ready(page)
    return page


def wait_until(page, script: str, seconds: float = 30) -> None:
    """Poll ``script`` (an expression) until it is true: the pages' content security policy forbids
    the string evaluation ``wait_for_function`` uses."""
    for _ in range(int(seconds * 10)):
        if page.evaluate(f"() => Boolean({script})"):
            return
        page.wait_for_timeout(100)
    raise AssertionError(f"not true after {seconds} s: {script}")


def no_horizontal_scroll(page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


@pytest.mark.parametrize("name", list(SEED_GAMES))
def test_a_seed_game_table_reads_well_on_desktop_and_phone(web_server, context, name):
    table = create_table(web_server, name, ["human"] + ["random"] * (SEED_GAMES[name] - 1))
    page = open_seat(context, web_server, table)
    rng = random.Random(2)
    for _ in range(3):  # a few moves: the last move is marked, the feed's newest lines stand out
        if wait_ready(page) == "over":
            break
        play_one_choice(page, rng)
    wait_ready(page)
    board = page.locator(".board-area").inner_text()
    assert not RAW.findall(board), RAW.findall(board)
    assert "Gluecksspiel" not in board and "#" not in re.sub(r"#\d+ ", "", board)
    assert page.title().startswith("● Your turn") == (page.evaluate("document.body.dataset.state") == "mine")
    assert page.locator(".last-move").count() == 1, page.inner_text("#narration")
    assert page.locator(".narration li.new").count() >= 1, page.inner_text("#narration")
    assert page.evaluate("document.documentElement.lang") == "de"
    names = page.eval_on_selector_all(".card-name", "ns => ns.map(n => [n.textContent, n.closest('.card').title])")
    assert names and all(shown.rstrip("…") in title.split("\n")[0] for shown, title in names), "shortened at a word"
    overflowing = page.evaluate("[...document.querySelectorAll('.card-name')]"
                                ".filter(n => n.scrollWidth > n.clientWidth + 1).map(n => n.textContent)")
    assert not overflowing, "a word wider than its card"
    assert not accessibility_problems(page)
    screenshot(page, f"presentation-{name}")
    page.set_viewport_size(PHONE)
    page.wait_for_timeout(200)
    assert no_horizontal_scroll(page)
    screenshot(page, f"presentation-{name}-phone")


def test_pferderennen_shows_the_race_with_its_finish(web_server, context):
    table = create_table(web_server, "pferderennen-mafia", ["human", "random", "random", "random"])
    page = open_seat(context, web_server, table)
    lanes = page.locator(".track .lane")
    assert lanes.count() == 6
    assert page.locator(".track .finish").count() == 6 and "finish line at field 60" in page.inner_text(".track-zone")
    live = live_table(web_server, table["id"])
    horses = live.state.view(0)["zones"]["track"]
    for i, horse in enumerate(horses):
        assert lanes.nth(i).get_attribute("aria-label").startswith(f"{horse['name']}: field {horse['position']}")


def test_gangster_marks_who_moved_what(web_server, context):
    table = create_table(web_server, "gangster", ["human", "random"], players=2)
    page = open_seat(context, web_server, table)
    click_and_wait(page, page.locator("#choices button.choice", has_text="place … from your supply"))
    assert page.inner_text("#chosen .stage-question") == "Gangster?"  # the stage asked in the ruleset's words
    click_and_wait(page, page.locator("#choices button.choice").first)
    assert page.inner_text("#chosen .stage-question") == "Field?"
    click_and_wait(page, page.locator(".board td.cell.target").first)
    wait_ready(page)
    last = page.locator(".last-move").inner_text()
    assert last.startswith("Last move: Blue") and "→ Chicago r" in last
    assert page.locator(".card.moved").count() >= 1
    assert page.locator(".player[data-seat='1']").evaluate("n => getComputedStyle(n).borderLeftColor") != "rgba(0, 0, 0, 0)"


def _offer_record():
    """A MafiaDollar game up to P1 answering trade offers (P1 asked; P2 to P4 offered a card)."""
    game = load_game("mafiadollar")
    state = game.new_initial_state(7)
    rng = random.Random(7)
    seats = ["human", "random", "random", "random"]
    recorder = MatchRecorder(log_header(game, seats), 7)
    while not any(a.option.name == "consider_offer" for a in state.legal_actions()):
        legal = state.legal_actions()
        wanted = [a for a in legal if a.option.name in ("trade", "ask_for_offers", "make_offer")]
        action = rng.choice(wanted or legal)
        before, seat = state.clone(), state.current_player()
        state.apply_action(action)
        recorder.record(seat, before.legal_actions(), str(action), state)
    assert state.current_player() == 0
    return recorder.log(state), seats


def test_mafiadollar_shows_trade_offers_with_their_offerers(web_server, context):
    record, seats = _offer_record()
    response = httpx.post(web_server.url + "/api/tables", json={"record": record, "seats": seats, "pace": 0}, timeout=60)
    assert response.status_code == 200, response.text
    page = open_seat(context, web_server, response.json())
    offers = page.locator(".offers li")
    assert offers.count() >= 1
    texts = [offers.nth(i).inner_text() for i in range(offers.count())]
    assert all(re.match(r"P[234] offers .+ to you$", t) for t in texts), texts


def test_lobby_reads_well_and_passes_axe(web_server, context):
    page = context().new_page()
    page.goto(web_server.url + "/")
    page.wait_for_selector("#seats .seat-row")
    page.wait_for_selector("#create:enabled")
    first = page.locator("#ruleset").input_value()
    assert first and "/" not in first  # a game of the top folder, not a classic or an example, first
    about = page.inner_text("#about")
    assert about and ".md" not in about and "docs/" not in about
    variants = page.eval_on_selector_all("#ruleset optgroup[label=Variants] option", "os => os.map(o => o.textContent)")
    assert variants and not any("/" in v or v.endswith(".yaml") for v in variants)
    assert not accessibility_problems(page)
    page.click("#create")
    page.wait_for_selector("#links .seat-link")
    assert page.locator("#created").evaluate("n => n.getBoundingClientRect().top < window.innerHeight")
    page.set_viewport_size(PHONE)
    assert no_horizontal_scroll(page)


def test_the_designer_never_loses_an_edit_and_passes_axe(web_server, context):
    ctx = context()
    page = ctx.new_page()
    page.goto(web_server.url + "/designer?from=examples/pig")
    wait_until(page, "document.getElementById('check-state').textContent.startsWith('valid')")
    assert page.locator("#bot").input_value() == SIM_BOT  # the command line's default bot
    page.evaluate("document.querySelector('.CodeMirror').CodeMirror.replaceRange('# my edit\\n', {line: 0, ch: 0})")
    page.reload()
    wait_until(page, "document.querySelector('.CodeMirror').CodeMirror.getValue().startsWith('# my edit')")
    page.goto(web_server.url + "/")
    page.go_back()
    wait_until(page, "document.querySelector('.CodeMirror').CodeMirror.getValue().startsWith('# my edit')")
    with ctx.expect_page() as opened:
        page.click("#play")
    table_page = opened.value
    table_page.wait_for_url(re.compile(r"/table/"))
    assert page.url.endswith("/designer?from=examples/pig") or "/designer" in page.url  # the designer stays
    assert "# my edit" in page.evaluate("document.querySelector('.CodeMirror').CodeMirror.getValue()")
    assert not accessibility_problems(page)
    page.set_viewport_size(PHONE)
    assert no_horizontal_scroll(page)


def test_spice_market_piles_read_from_the_next_token(web_server, context):
    table = create_table(web_server, "spice-market", ["human", "random"])
    page = open_seat(context, web_server, table)
    view = live_table(web_server, table["id"]).state.view(0)
    for zone in ("diamond_tokens", "leather_tokens"):
        shown = page.eval_on_selector_all(f".zone[data-zone={zone}] .card", "cs => cs.map(c => Number(c.dataset.id))")
        assert shown == [token["id"] for token in reversed(view["zones"][zone])]  # the view lists from the bottom
    values = page.eval_on_selector_all(".zone[data-zone=diamond_tokens] .face-value", "vs => vs.map(v => v.textContent)")
    assert values == ["7", "7", "5", "5", "5"]


def test_realm_builder_cards_show_worth_and_a_labelled_cost(web_server, context):
    table = create_table(web_server, "deck-builder", ["human", "random"])
    page = open_seat(context, web_server, table)
    copper = page.locator(".zone[data-zone=coppers] .card:not(.back)")
    assert copper.locator(".face-value").count() == 0  # no bare number to read as its worth
    assert copper.locator(".face-text").inner_text() == "$1"
    assert copper.locator(".face-corner").inner_text() == "Cost 0"
    mine = page.locator(".zone[data-zone=mines] .card:not(.back)")
    assert mine.locator(".face-corner").inner_text() == "Cost 5"
    assert mine.locator(".face-text").inner_text().endswith("…")  # shortened; the whole text on hover
    assert "Gain a Treasure to your hand" in mine.get_attribute("title")
    assert not accessibility_problems(page)


LONG_PILE = """\
game: {name: Long pile, players: 2}
components:
  chip: {name: "chip {n}", attributes: {n: int}, in: pile, table: [%s]}
zones:
  pile: {}
flow:
  - choose:
      options:
        stop: {effects: ["end_game()"]}
display:
  top_first: [pile]
"""


def test_a_long_top_first_row_keeps_its_top_shown(web_server, context):
    source = LONG_PILE % ", ".join(f"{{n: {n}}}" for n in range(1, 21))
    table = create_table(web_server, source=source, seats=["human", "random"])
    page = open_seat(context, web_server, table)
    names = page.eval_on_selector_all(".zone[data-zone=pile] .card-name", "ns => ns.map(n => n.textContent)")
    assert names == [f"chip {n}" for n in range(20, 10, -1)]  # the top ten, the top first
    row = page.locator(".zone[data-zone=pile] .cards")
    assert row.evaluate("r => r.lastElementChild.textContent") == "+10 more"
    click_and_wait(page, page.locator(".zone[data-zone=pile] button.more"))
    names = page.eval_on_selector_all(".zone[data-zone=pile] .card-name", "ns => ns.map(n => n.textContent)")
    assert names == [f"chip {n}" for n in range(20, 0, -1)]
