"""The screenshots of docs/screenshots/: every seed game and classic at a desktop and a phone width,
a few moves in (bots random, fixed seeds).  Run: `python -m tests.web.docs_screenshots` (Chromium and
the [web] extra needed); then look at them: they are for people."""
from __future__ import annotations

import random
import sys
import tempfile
from pathlib import Path

from playwright.sync_api import sync_playwright

from interpreter.game import load_game

from .conftest import CHROMIUM, CHROMIUM_ARGS, ROOT, RunningServer
from .helpers import create_table, play_one_choice, wait_ready

GAMES = ["pferderennen-mafia", "gangster", "la-famiglia", "mafiadollar", "classic/connect-four",
         "classic/tic-tac-toe", "classic/goofspiel", "classic/kuhn-poker", "classic/leduc-poker", "classic/liars-dice"]
WIDTHS = {"desktop": {"width": 1280, "height": 900}, "phone": {"width": 390, "height": 844}}
OUT = ROOT / "docs" / "screenshots"


def main(games=GAMES) -> None:
    OUT.mkdir(exist_ok=True)
    server = RunningServer(Path(tempfile.mkdtemp()), ROOT / "rulesets")
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
            for name in games:
                players = load_game(name).num_players
                table = create_table(server, name, ["human"] + ["random"] * (players - 1))
                page = browser.new_page(viewport=WIDTHS["desktop"])
                page.goto(server.url + table["seats"][0]["link"])
                rng = random.Random(4)
                for _ in range(6):
                    if wait_ready(page) == "over":
                        break
                    play_one_choice(page, rng)
                wait_ready(page)
                for width, viewport in WIDTHS.items():
                    page.set_viewport_size(viewport)
                    page.wait_for_timeout(700)  # the transitions end
                    path = OUT / f"{name.split('/')[-1]}-{width}.png"
                    page.screenshot(path=str(path))
                    print(path.relative_to(ROOT))
                page.close()
            browser.close()
    finally:
        server.stop()


if __name__ == "__main__":
    main(sys.argv[1:] or GAMES)
