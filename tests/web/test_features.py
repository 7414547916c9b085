"""Undo, resume after a restart, time travel, the designer page, hostile names, and the done-when
game: MafiaDollar with four people in four browsers and two bots."""
from __future__ import annotations

import random

import httpx
import pytest

from .conftest import ROOT, screenshot
from .helpers import (click_and_wait, create_table, live_table, play_one_choice, shown_ids, visible_ids,
                      wait_ready)

XSS = "<img src=x onerror=alert(1)>"
HOSTILE = (ROOT / "tests" / "broken" / "_minimal.yaml").read_text(encoding="utf-8") \
    .replace("name: Minimal", f"name: '{XSS}'").replace('name: "card {value}"', f'name: "{XSS} {{value}}"')


def test_undo_with_one_person(web_server, context):
    for _ in range(30):  # a table (its seed is the server's) whose street offers a 0 to take at once
        table = create_table(web_server, "la-famiglia", ["human", "random"])
        live = live_table(web_server, table["id"])
        if any(action.name == "take" for action in live.state.legal_actions()):
            break
    page = context().new_page()
    page.goto(web_server.url + table["seats"][0]["link"])
    wait_ready(page)
    click_and_wait(page, page.locator("#choices button.choice", has_text="take"))
    click_and_wait(page, page.locator(".board-area .target").first)  # a card of the street
    assert wait_ready(page) == "mine"  # a take, so the bot's pass cannot end the game
    last = max(i for i, seat in enumerate(live.step_seats) if seat == 0)  # my last decision
    expected = live.states[last].to_json()
    click_and_wait(page, page.locator("#undo"))
    page.locator(f"body[data-moves='{last}'][data-state=mine]").wait_for(state="attached")
    assert live.state.to_json() == expected
    assert live.state.moves == last


def test_resume_after_a_server_restart(web_server, context):
    table = create_table(web_server, "gangster", ["human", "random"], players=2)
    page = context().new_page()
    link = web_server.url + table["seats"][0]["link"]
    page.goto(link)
    rng = random.Random(2)
    for _ in range(4):
        wait_ready(page)
        play_one_choice(page, rng)
    wait_ready(page)
    before = live_table(web_server, table["id"]).state.to_json()
    page.close()
    web_server.restart()
    page = context().new_page()
    page.goto(web_server.url + table["seats"][0]["link"])
    assert wait_ready(page) == "mine"
    assert live_table(web_server, table["id"]).state.to_json() == before
    play_one_choice(page, rng)  # and the game goes on


def test_time_travel_through_a_finished_game(web_server, context):
    table = create_table(web_server, "la-famiglia", ["random", "random"])
    page = context().new_page()
    page.goto(web_server.url + table["spectator"])
    assert wait_ready(page, timeout=60_000) == "over"
    live = live_table(web_server, table["id"])
    click_and_wait(page, page.locator("#travel-first"))
    assert "after move 0" in page.locator("#replay-banner").inner_text()
    page.select_option("#travel-seat", "1")  # P2's view of the first position
    page.locator("#replay-banner", has_text="as P2 saw it").wait_for()
    shown = shown_ids(page)
    hand = {c for c in live.states[0].zones[live.game.family_base["hand"] + 1]}
    assert hand <= shown <= visible_ids(live.states[0], 1)
    click_and_wait(page, page.locator("#travel-next"))
    assert "after move 1" in page.locator("#replay-banner").inner_text()
    click_and_wait(page, page.locator("#travel-last"))
    assert page.locator("#replay-banner").is_hidden()


def test_designer_diagnostics_and_play_this_version(web_server, context):
    page = context().new_page()
    page.goto(web_server.url + "/designer?from=la-famiglia")
    page.locator("#diagnostics li.ok").wait_for(timeout=60_000)
    game_line = page.evaluate("editor.getValue().split('\\n').indexOf('game:')")  # 0-based
    assert game_line >= 0
    page.evaluate(f"editor.focus(); editor.setCursor({{line: {game_line}, ch: 5}})")  # the end of 'game:'
    page.keyboard.press("Enter")
    page.keyboard.type("  nmae: typo")  # a new line in the game section
    assert page.evaluate(f"editor.getLine({game_line + 1})") == "  nmae: typo"
    page.locator("#diagnostics li.diagnostic").first.wait_for(timeout=60_000)
    first = page.locator("#diagnostics li.diagnostic").first
    assert first.inner_text().startswith(f"{game_line + 2}:"), first.inner_text()
    assert "nmae" in first.inner_text()
    assert page.locator(".CodeMirror .diag-line").count() >= 1
    screenshot(page, "designer")
    page.keyboard.press("Control+z")
    page.locator("#diagnostics li.ok").wait_for(timeout=60_000)
    assert page.locator(".CodeMirror .diag-line").count() == 0
    with page.context.expect_page(timeout=60_000) as opened:  # the table opens in a new tab
        page.click("#play")
    table = opened.value
    table.wait_for_url("**/table/**", timeout=60_000)
    assert wait_ready(table) in ("mine", "over")
    assert table.locator("#game-title").inner_text() == "La Famiglia"
    assert "/designer" in page.url  # the designer stays, with its text


def test_a_hostile_name_stays_text(web_server, context):
    table = create_table(web_server, source=HOSTILE, seats=["human", "random"])
    page = context().new_page()
    dialogs = []
    page.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
    page.goto(web_server.url + table["seats"][0]["link"])
    wait_ready(page)
    assert page.locator("#game-title").inner_text() == XSS
    assert XSS[:10] in page.locator(".board-area").inner_text()  # a long name is shortened at a word …
    assert XSS in page.locator(".board-area .card[data-id]").first.get_attribute("title")  # … and whole on hover
    page.goto(web_server.url + "/")
    page.locator("#tables a", has_text=XSS).first.wait_for()
    assert page.locator("img").count() == 0 and not dialogs


@pytest.mark.slow
def test_mafiadollar_four_people_two_bots_to_the_end(web_server, context):
    table = create_table(web_server, "mafiadollar", ["human", "random", "human", "human", "random", "human"],
                         players=6)
    people = [s["seat"] for s in table["seats"] if s["link"]]
    pages = {}
    for seat in people:
        pages[seat] = context().new_page()
        pages[seat].goto(web_server.url + table["seats"][seat]["link"])
    live = live_table(web_server, table["id"])
    rng = random.Random(1)
    for _ in range(2000):
        seat = live.state.current_player()
        if seat is None:
            break
        if seat not in pages:  # a bot's turn: it moves by itself
            pages[people[0]].locator(f"body:not([data-renders='{pages[people[0]].evaluate('document.body.dataset.renders')}'])") \
                .wait_for(state="attached", timeout=30_000)
            continue
        if wait_ready(pages[seat]) == "over":
            break
        if rng.random() < 0.05:
            assert shown_ids(pages[seat]) <= visible_ids(live.state, seat)
        play_one_choice(pages[seat], rng)
    for seat, page in pages.items():
        assert wait_ready(page) == "over"
        assert page.locator("#result").is_visible()
    screenshot(pages[people[0]], "table-mafiadollar")


def test_the_designer_check_shows_names_that_hide_built_ins_as_notes(web_server):
    text = (ROOT / "tests" / "compat" / "rulesets" / "pig-own-roll.yaml").read_text(encoding="utf-8")
    result = httpx.post(web_server.url + "/api/designer/check", json={"text": text}, timeout=60).json()
    assert result["ok"] and result["errors"] == []
    [note] = result["notes"]
    assert (note["line"], note["column"], note["stage"]) == (38, 3, "note")
    assert "procedure 'roll' hides the built-in function" in note["message"] and "builtin.roll" in note["hint"]


def test_the_designer_page_lists_the_notes_apart_from_errors(web_server, context):
    text = (ROOT / "tests" / "compat" / "rulesets" / "pig-own-roll.yaml").read_text(encoding="utf-8")
    page = context().new_page()
    page.goto(web_server.url + "/designer?from=la-famiglia")
    page.locator("#diagnostics li.ok").wait_for(timeout=60_000)
    page.evaluate("text => editor.setValue(text)", text)
    page.locator("#diagnostics li.note").wait_for(timeout=60_000)
    note = page.locator("#diagnostics li.note")
    assert note.count() == 1 and note.inner_text().startswith("38:3 note: the procedure 'roll' hides")
    assert page.locator("#diagnostics li.ok").count() == 1
    assert "note-line" in page.evaluate("editor.lineInfo(37).bgClass")
    assert page.locator("#check-state").inner_text() == "valid, 1 note(s)"
