"""Helpers of the web tests: create tables over HTTP, play by clicks in a page."""
from __future__ import annotations

import json

import httpx

from interpreter.runtime.views import component_visible
from interpreter.web.catalog import Catalog
from interpreter.web.tables import Table


def create_table(server, ruleset=None, seats=("human", "random"), players=None, pace=0, params=None, source=None):
    body = {"seats": list(seats), "pace": pace, "params": params or {}}
    if players is not None:
        body["players"] = players
    if source is not None:
        body["source"] = source
    else:
        body["ruleset"] = ruleset
    response = httpx.post(server.url + "/api/tables", json=body, timeout=60)
    assert response.status_code == 200, response.text
    return response.json()


class SavedTable:
    """A table as its save file says now (the table itself plays in a process of its own, and its
    save is always the state it broadcast): each attribute read rebuilds it from the save."""

    def __init__(self, server, table_id):
        self.path = server.saves / f"{table_id}.json"
        self.catalog = Catalog(server.rulesets)
        self.games = {}

    def __getattr__(self, name):
        record = json.loads(self.path.read_text(encoding="utf-8"))
        params = {k: v if isinstance(v, str) else json.dumps(v) for k, v in record["params"].items()}
        key = (record.get("ruleset"), record.get("design"), json.dumps(params), record["players"])
        if key not in self.games:
            path = self.path.parent / "designs" / f"{record['design']}.yaml" if record.get("design") else \
                self.catalog.files[record["ruleset"]]
            self.games[key] = self.catalog.load_path(path, params or None, record["players"])
        return getattr(Table(record, self.games[key]), name)


def live_table(server, table_id):
    return SavedTable(server, table_id)


def wait_ready(page, timeout=30_000) -> str:
    """Wait until the page is this seat's turn or the game is over; returns 'mine' or 'over'."""
    page.locator("body[data-state=mine], body[data-state=over]").wait_for(state="attached", timeout=timeout)
    return page.evaluate("document.body.dataset.state")


def renders(page) -> int:
    return int(page.evaluate("document.body.dataset.renders || '0'"))


def click_and_wait(page, locator) -> None:
    before = renders(page)
    locator.click()
    page.locator(f"body:not([data-renders='{before}'])").wait_for(state="attached", timeout=30_000)


def play_one_choice(page, rng) -> None:
    """Pick something the way a person would: a highlighted thing on the table, else a button."""
    targets = page.locator(".board-area .target")
    count = targets.count()
    if count and rng.random() < 0.85:
        click_and_wait(page, targets.nth(rng.randrange(count)))
        return
    buttons = page.locator("#choices button.choice")
    click_and_wait(page, buttons.nth(rng.randrange(buttons.count())))


def shown_ids(page) -> set:
    return {int(x) for x in page.eval_on_selector_all(".board-area .card[data-id]", "cards => cards.map(c => c.dataset.id)")}


def visible_ids(state, seat) -> set:
    """The components a seat's page may draw: those it sees, and those it knows (the view's ``known``)."""
    return {c for c in range(state.game.num_components)
            if component_visible(state, c, seat) or state.known[c] >> seat & 1}


def seat_page(server, context, table, seat=0):
    """A new page at ``table``'s link for ``seat``."""
    page = context().new_page()
    page.goto(server.url + table["seats"][seat]["link"])
    return page


def play_by_clicks(page, rng, most, before=None) -> str:
    """Make at most ``most`` choices by clicks (``before(page)`` runs ahead of each), stopping when
    the game is over; returns ``wait_ready``'s last answer."""
    for _ in range(most):
        if wait_ready(page) == "over":
            return "over"
        if before is not None:
            before(page)
        play_one_choice(page, rng)
    return wait_ready(page)
