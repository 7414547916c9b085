"""The web table in a real browser (headless Chromium through Playwright): games played by clicks."""
from __future__ import annotations

import random
import time

import pytest

from .conftest import ROOT, RunningServer, screenshot
from .helpers import (click_and_wait, create_table, live_table, play_by_clicks, seat_page, shown_ids, visible_ids,
                      wait_ready)


def _lobby(web_server, context, key):
    """The lobby with the ruleset ``key`` chosen."""
    page = context().new_page()
    page.goto(web_server.url + "/")
    page.wait_for_selector(f"#ruleset option[value='{key}']", state="attached")
    page.select_option("#ruleset", key)
    return page


def test_lobby_creates_a_table(web_server, context):
    page = _lobby(web_server, context, "la-famiglia")
    page.wait_for_selector("#params .param")
    page.wait_for_selector("#create:enabled")
    assert page.locator("#seats .seat-row").count() == 2
    assert page.locator("#params .description").first.inner_text().strip()
    screenshot(page, "lobby")
    page.click("#create")
    page.wait_for_selector("#links .seat-link")
    link = page.locator("#links .seat-link").first.get_attribute("href")
    assert link.startswith("/table/") and "#seat=" in link
    assert page.locator("#links .spectator-link").count() == 1


def test_la_famiglia_to_the_end_by_clicks(web_server, context):
    table = create_table(web_server, "la-famiglia", ["human", "random"])
    page = seat_page(web_server, context, table)
    assert play_by_clicks(page, random.Random(5), 600) == "over"
    result = page.locator("#result")
    assert result.is_visible()
    assert "win" in result.inner_text().lower()
    assert page.locator("#travel").is_visible()
    screenshot(page, "table-la-famiglia")


def people_turn(live, people: int, seconds: float = 30.0):
    """The seat of the person to decide next, once the bots (seats from ``people`` on, moving on the
    server at their own pace) have moved; None when the game is over."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        state = live.state
        if state.is_terminal():
            return None
        seat = state.current_player()
        if seat is not None and seat < people:
            return seat
        time.sleep(0.05)
    raise AssertionError(f"the bots did not move within {seconds} s")


def test_gangster_two_people_and_a_bot(web_server, context):
    table = create_table(web_server, "gangster", ["human", "human", "random"], players=3)
    pages = [context().new_page() for _ in range(2)]
    for seat, page in enumerate(pages):
        page.goto(web_server.url + table["seats"][seat]["link"])
        page.wait_for_selector(".player")
    live = live_table(web_server, table["id"])
    placements = 0
    for _ in range(40):
        seat = people_turn(live, len(pages))
        if seat is None:
            break
        page = pages[seat]
        wait_ready(page)
        for s, p in enumerate(pages):  # each page shows only what its seat sees
            assert shown_ids(p) <= visible_ids(live.state, s)
        assert pages[1 - seat].locator("#choices button").count() == 0
        place = page.locator("#choices button.choice", has_text="from your supply")
        if place.count():
            click_and_wait(page, place)
            click_and_wait(page, page.locator(".player.me .target").first)
            cells = page.locator("td.cell.target")
            assert cells.count() > 0
            before = page.locator("td.cell .card").count()
            click_and_wait(page, cells.first)
            wait_ready(page) if live.state.current_player() == seat else None
            assert page.locator("td.cell .card").count() >= before
            placements += 1
        else:
            click_and_wait(page, page.locator("#choices button.choice").first)
        if placements >= 3 or live.state.is_terminal():
            break
    assert placements >= 3
    for page in pages:
        page.locator("#narration li").first.wait_for()
        lines = page.locator("#narration li").all_inner_texts()
        assert any(line.startswith("Red:") for line in lines) and any(line.startswith("Blue:") for line in lines)
    screenshot(pages[0], "table-gangster")


@pytest.mark.parametrize("key,seats", [("la-famiglia", ["human", "greedy"]),
                                       ("gangster", ["human", "greedy", "greedy", "greedy"]),
                                       ("pferderennen-mafia", ["human", "random", "random", "random"]),
                                       ("mafiadollar", ["human", "random", "random", "random"])])
def test_every_game_is_drawn(web_server, context, key, seats):
    table = create_table(web_server, key, seats, players=len(seats))
    page = seat_page(web_server, context, table)
    play_by_clicks(page, random.Random(3), 6)
    live = live_table(web_server, table["id"])
    shown = shown_ids(page)
    assert shown and shown <= visible_ids(live.state, 0)
    assert page.locator(".player.me").count() == 1
    assert page.locator("#narration li").count() >= 1
    page.evaluate("window.scrollTo(0, 0)")
    screenshot(page, f"table-{key}-start")


def test_lobby_refuses_a_bad_declared_bot_and_names_one_beyond_the_servers_limits(tmp_path, context):
    from playwright.sync_api import expect  # the browser fixture skips without Playwright
    game = (ROOT / "tests" / "broken" / "_minimal.yaml").read_text(encoding="utf-8")
    folder = tmp_path / "rulesets"
    folder.mkdir()
    (folder / "bad.yaml").write_text(game + "bots: {default: 'flat:rollout=16'}\n", encoding="utf-8")
    (folder / "big.yaml").write_text(game + "bots: {default: 'flat:rollouts=5000'}\n", encoding="utf-8")
    server = RunningServer(tmp_path / "saves", folder)
    try:
        page = _lobby(server, context, "bad")
        expect(page.locator("#create-error")).to_contain_text("bots: default: bot 'flat' has no option 'rollout'")
        expect(page.locator("#create")).to_be_disabled()
        page.select_option("#ruleset", "big")
        expect(page.locator("#create-error")).to_contain_text("rollouts is at most 1,000 on this server")
        expect(page.locator("#create")).to_be_enabled()
        expect(page.locator("#seats .seat-row").nth(1).locator(".seat-options")).to_have_value("")
    finally:
        server.stop()


def test_lobby_starts_bot_seats_with_the_rulesets_declared_bot(web_server, context):
    from playwright.sync_api import expect  # the browser fixture skips without Playwright
    page = _lobby(web_server, context, "fireworks")
    page.wait_for_selector("#create:enabled")
    rows = page.locator("#seats .seat-row")
    expect(rows.nth(1).locator(".seat-kind")).to_have_value("flat")
    expect(rows.nth(1).locator(".seat-options")).to_have_value("rollouts=16,budget=512")
    expect(rows.nth(0).locator(".seat-kind")).to_have_value("human")
    page.select_option("#ruleset", "la-famiglia")  # no declaration: the lobby's own choice
    expect(rows.nth(1).locator(".seat-kind")).not_to_have_value("flat")
    expect(rows.nth(1).locator(".seat-options")).to_have_value("")
