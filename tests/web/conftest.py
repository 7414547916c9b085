"""The web table under test: one uvicorn server per session in a thread on a free 127.0.0.1 port,
and headless Chromium (Debian's, through Playwright) for the browser tests.

Without Chromium or Playwright, browser tests skip with the reason; under CI (CI=true) they fail.
Screenshots go to tests/web/screenshots/ (git-ignored).
"""
from __future__ import annotations

import os
import shutil
import socket
import threading
import time
from pathlib import Path

import pytest

pytest.importorskip("starlette", reason="the web table needs the [web] extra") if not os.environ.get("CI") else None

CHROMIUM = os.environ.get("RULEBOOK_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
                 "--disable-sync", "--no-first-run"]
SHOTS = Path(__file__).resolve().parent / "screenshots"
ROOT = Path(__file__).resolve().parents[2]


def pytest_collection_modifyitems(config, items):
    """Tests marked slow (the six-seat MafiaDollar game by clicks, minutes long) run on demand:
    RULEBOOK_SLOW=1."""
    if os.environ.get("RULEBOOK_SLOW"):
        return
    for item in items:
        if item.get_closest_marker("slow"):
            item.add_marker(pytest.mark.skip(reason="a slow test: run with RULEBOOK_SLOW=1"))


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class RunningServer:
    """uvicorn serving the app in a thread; ``restart()`` starts a fresh app on the same saves."""

    def __init__(self, saves: Path, rulesets: Path, **options):
        self.saves = saves
        self.rulesets = rulesets
        self.options = options  # of create_app (work_limits)
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self._start()

    def _start(self):
        import uvicorn
        from interpreter.web.app import create_app
        self.app = create_app(self.rulesets, self.saves, **self.options)
        config = uvicorn.Config(self.app, host="127.0.0.1", port=self.port, log_level="warning",
                                access_log=False, ws="websockets-sansio")
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)
        self.thread.start()
        for _ in range(200):
            if self.server.started:
                return
            time.sleep(0.05)
        raise RuntimeError("the web server did not start")

    def stop(self):
        self.server.should_exit = True
        self.thread.join(10)

    def restart(self):
        self.stop()
        self._start()


@pytest.fixture(scope="session")
def web_server(tmp_path_factory):
    server = RunningServer(tmp_path_factory.mktemp("saves"), ROOT / "rulesets")
    yield server
    server.stop()


@pytest.fixture(scope="session")
def browser():
    reason = None
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        reason = "Playwright for Python is not installed (pip install playwright)"
    if reason is None and not shutil.which(CHROMIUM) and not Path(CHROMIUM).exists():
        reason = f"Chromium is not installed at {CHROMIUM} (apt-get install chromium)"
    if reason is not None:
        if os.environ.get("CI"):
            pytest.fail(f"browser tests must run in CI: {reason}")
        pytest.skip(reason)
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        yield browser
        browser.close()


@pytest.fixture
def context(browser):
    """A factory of fresh browser contexts (each its own cookies and storage: one person).  Console
    errors of their pages (a script error, a content security policy violation) fail the test."""
    contexts, errors = [], []

    def make():
        ctx = browser.new_context(viewport={"width": 1360, "height": 900})
        ctx.on("page", lambda page: page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None))
        ctx.on("weberror", lambda e: errors.append(str(e.error)))
        contexts.append(ctx)
        return ctx
    yield make
    for ctx in contexts:
        ctx.close()
    assert not [e for e in errors if "favicon" not in e], errors


def screenshot(page, name: str) -> None:
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)
