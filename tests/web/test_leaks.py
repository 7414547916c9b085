"""No message to a seat carries what that seat may not see, over full random games of every ruleset.

Each game is played through the table's own staged choices (as browsers do, by index), and after
every step every seat's message (and the spectator's) is checked:
- every component id in it (in views and in choices) is a component that viewer sees now;
- every component name in any of its text is the name of a component that viewer has seen at some
  point of the game (a name it never saw would tell it a hidden identity).  The texts of the
  decider's own legal actions count as seen by the decider: the rules show them to it (a trade offer
  names the card offered to the one who answers), as ``State.view`` does.
"""
from __future__ import annotations

import json
import random
import re

import pytest

from interpreter.runtime.views import component_visible
from interpreter.web.catalog import Catalog
from interpreter.web.tables import Table

from .conftest import ROOT

GAMES = [("la-famiglia", 2), ("gangster", 3), ("pferderennen-mafia", 4), ("mafiadollar", 3),
         ("fireworks", 3), ("courtship", 3)]  # hands held facing out; private looks (show)


ID = re.compile(r'"id": (\d+), "name"|"component": (\d+)')


def component_ids(text: str) -> set:
    """The ids of the components a message (as JSON text) shows or points at."""
    return {int(a or b) for a, b in ID.findall(text)}


def names_in(text: str, names) -> set:
    """Which of ``names`` occur in ``text`` as whole names (not inside a longer word or number)."""
    found = set()
    for name in names:
        if name in text and re.search(rf"(?<![\w]){re.escape(name)}(?![\w])", text):
            found.add(name)
    return found


@pytest.mark.parametrize("key,players", GAMES)
def test_no_message_leaks(key, players):
    game = Catalog(ROOT / "rulesets").load(key, players=players)
    seats = ["human"] * players
    table, _ = Table.create(game, {"ruleset": key}, seats, seed=7, pace=0)
    rng = random.Random(3)
    all_names = set(game.names)
    viewers = list(range(players)) + [None]
    ever_seen = {v: set() for v in viewers}
    picks = 0
    while not table.state.is_terminal() and picks < 4000:
        state = table.state
        for viewer in viewers:
            ever_seen[viewer] |= {game.names[c] for c in range(game.num_components)
                                  if component_visible(state, c, viewer)
                                  or (viewer is not None and state.known[c] >> viewer & 1)}
            if viewer == state.current_player():
                ever_seen[viewer] |= {game.names[c] for a in state.legal_actions() for c in a.components()}
            message = table.message(viewer)
            assert message["you"] == viewer
            told = message.pop("narration")
            assert told[-len(table.lines[-1][viewer]):] == table.lines[-1][viewer] or not table.lines[-1][viewer]
            # The rules' own narration is the engine's, checked where it is logged (a card shown
            # during a step and put away again is named then: tests/test_narration.py); the table's
            # own lines (who did what) are checked here by name.
            engine_told = {m["text"] for m in state.narration(viewer)}
            message["new lines"] = [line for line in table.lines[-1][viewer] if line not in engine_told]
            text = json.dumps(message, ensure_ascii=False)
            for c in component_ids(text):  # seen, or known: shown it (show), or saw where it went
                knows = viewer is not None and state.known[c] >> viewer & 1
                assert component_visible(state, c, viewer) or knows, f"{key}: component {c} sent to {viewer}"
            unseen = names_in(text, all_names - ever_seen[viewer])
            assert not unseen, f"{key}: {sorted(unseen)} told to seat {viewer}"
        seat = state.current_player()
        choices = table.message(seat)["choices"]
        table.pick(seat, rng.randrange(len(choices)))
        picks += 1
    assert table.state.is_terminal(), f"{key}: no end after {picks} picks"
