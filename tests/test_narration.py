"""Narration (docs/api.md): log() with fields and an audience, end_game(reason), what is revealed at
the end.  No seat's narration names a component that seat may not see, over random games of every
ruleset."""
from __future__ import annotations

import random
import re

import pytest

from conftest import MINIMAL, ROOT, RULESETS, TEST_GAMES
from interpreter import RulebookError, load_game
from interpreter.runtime import narration
from interpreter.cli.replay_show import _action_text
from interpreter.runtime.views import component_visible
from interpreter.web.narration import step_lines, visible_sets

SHIPPED = sorted((ROOT / "rulesets").glob("*.yaml"))


def _named(messages) -> set:
    return {part["component"] for m in messages for part in m["parts"] if part.get("component") is not None}


@pytest.mark.parametrize("path", RULESETS + TEST_GAMES, ids=lambda p: p.stem)
def test_no_seat_is_told_what_it_may_not_see(path, monkeypatch):
    """A message may name a component to a seat that saw it in its view before or after the step,
    or that could see it face up when the message was logged (a card turned up and covered within
    one step), or that was shown it (``show``: it knows the component then)."""
    game = load_game(path)
    shown = {seat: set() for seat in range(game.num_players)}
    shown[None] = set()  # a spectator is told what every seat saw

    def recording(state, *entry):  # every message naming components is recorded here
        for c in range(game.num_components):
            seen_by = [seat for seat in range(game.num_players) if component_visible(state, c, seat)]
            for seat in seen_by:
                shown[seat].add(c)
            if len(seen_by) == game.num_players:
                shown[None].add(c)
            knowing = [seat for seat in range(game.num_players) if state.known[c] >> seat & 1]
            for seat in knowing:  # shown it, or saw where it went
                shown[seat].add(c)
            if len(knowing) == game.num_players:  # shown to every seat: as good as face up
                shown[None].add(c)
        return record(state, *entry)
    record = narration._components_seen
    monkeypatch.setattr(narration, "_components_seen", recording)
    seats = list(range(game.num_players)) + [None]
    told = 0
    for seed in range(3):
        state = game.new_initial_state(seed)
        rng = random.Random(seed)
        read = {seat: 0 for seat in seats}
        before = {seat: set() for seat in seats}
        while True:
            for seat in seats:
                messages = state.narration(seat, read[seat])
                read[seat] += len(messages)
                told += len(messages)
                seen = visible_components(state.view(seat))
                assert _named(messages) <= before[seat] | seen | shown.get(seat, set()), (seat, messages)
                for m in messages:
                    assert m["text"] == "".join(p["text"] for p in m["parts"])
                before[seat] = seen
            for seat in shown:
                shown[seat] = set()
            if state.is_terminal():
                break
            state.apply_action(rng.choice(state.legal_actions()))
        assert state.view(0)["narration"] == state.narration(0)
        assert state.end_reason is None or state.narration(None)[-1]["text"] == state.end_reason
        restored = game.state_from_json(state.to_json())
        assert restored.narration(0) == state.narration(0) and restored.end_reason == state.end_reason
    if path in SHIPPED:
        assert told > 0 and state.end_reason, "the shipped rulesets narrate and say why the game ended"


def _minimal(tmp_path, old, new, name="narrated.yaml"):
    text = MINIMAL.read_text(encoding="utf-8")
    assert old in text
    path = tmp_path / name
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    return load_game(path)


DRAW = "                - draw(pile, active.hand)\n"


def test_a_drawn_card_is_named_to_the_drawer_only(tmp_path):
    game = _minimal(tmp_path, DRAW, DRAW + """                - log("{player} drew {component}", player=active, component=top(active.hand))
                - log("{player} scores {number}", player=active, number=card.value, to=active)
""")
    state = game.new_initial_state(1)
    state.apply_action(next(a for a in state.legal_actions() if a.name == "play"))
    mine, theirs, public = state.narration(0), state.narration(1), state.narration(None)
    drawn = state.zones[game.family_base["hand"]][-1]
    assert mine[0]["text"] == f"P1 drew {game.names[drawn]}"
    assert mine[0]["parts"][0] == {"text": "P1", "player": 0}
    assert mine[0]["parts"][2] == {"text": game.names[drawn], "component": drawn, "kind": "card"}
    assert theirs == public == [{"text": "P1 drew a card", "move": 1, "parts": [
        {"text": "P1", "player": 0}, {"text": " drew "}, {"text": "a card", "component": None, "kind": "card"}]}]
    assert mine[1]["text"].startswith("P1 scores ") and mine[1]["parts"][2]["number"] >= 1
    assert state.narration(0, start=1) == mine[1:]
    assert state.notes == ["P1 drew a card"]


def test_a_bad_message_is_a_runtime_error(tmp_path):
    """A message computed while the game runs is checked then; a message written in the rules has
    its fields checked when they load (tests/test_message_fields.py): there ``{card}`` is the card."""
    game = _minimal(tmp_path, DRAW, DRAW + '                - log("{player} drew " + "{card}", player=active)\n')
    state = game.new_initial_state(1)
    with pytest.raises(RulebookError, match="no field of log"):
        state.apply_action(next(a for a in state.legal_actions() if a.name == "play"))


@pytest.mark.parametrize("call, error", [
    ('log("{player} drew {component}", player=active)', "uses '{component}' but no component= is given"),
    ('log("{count} and {player}", other=active)', "uses '{count}' but no count= is given"),
    ('log("{component} drew", component=[top(active.hand), none])', "the component is none")])
def test_a_message_missing_a_value_is_a_runtime_error(tmp_path, call, error):
    """A field the message uses with no value (the first such field, in the message's order) and
    a component that is none are errors of the statement."""
    game = _minimal(tmp_path, DRAW, DRAW + f"                - '{call}'\n")
    state = game.new_initial_state(1)
    with pytest.raises(RulebookError, match=re.escape(error)) as info:
        state.apply_action(next(a for a in state.legal_actions() if a.name == "play"))
    assert info.value.position is not None and info.value.position.line > 1


def test_end_game_reason_and_what_the_end_reveals(tmp_path):
    game = _minimal(tmp_path, "            pass:\n", """            pass:
              effects: ['end_game("{player} passed")']
""".replace("{player}", "a player"))
    state = game.new_initial_state(0)
    assert "hand" not in str(state.view(1)["zones"]["hand"]["P1"]) and state.view(1)["zones"]["hand"]["P1"] == {"count": 2}
    state.apply_action("pass")
    assert state.is_terminal() and state.end_reason == "a player passed"
    assert state.narration(None)[-1]["text"] == "a player passed"
    assert state.view(1)["end_reason"] == "a player passed"
    assert state.view(1)["zones"]["hand"]["P1"] == {"count": 2}, "nothing is revealed unless the rules say so"
    text = (tmp_path / "narrated.yaml").read_text(encoding="utf-8")
    revealing = tmp_path / "revealing.yaml"
    revealing.write_text(text.replace("  score: player.score\n", "  score: player.score\n  reveal: [hand]\n"),
                         encoding="utf-8")
    state = load_game(revealing).new_initial_state(0)
    state.apply_action("pass")
    assert [c["name"] for c in state.view(1)["zones"]["hand"]["P1"]] == [
        state.game.names[c] for c in state.zones[state.game.family_base["hand"]]]


def test_reveal_names_known_zones(tmp_path):
    with pytest.raises(RulebookError, match="'reveal' names unknown zone 'hands'"):
        _minimal(tmp_path, "  score: player.score\n", "  score: player.score\n  reveal: [hands]\n")


@pytest.mark.parametrize("name, expected", [("la-famiglia", "keep street"), ("mafiadollar", "(details hidden)")])
def test_the_terminal_replay_and_the_web_table_tell_each_step_alike(name, expected):
    """Every seat and the spectator are told each step with the same words in both, details hidden
    alike, an option without parameters spelled without underscores ('keep street')."""
    game = load_game(name)
    told = set()
    for seed in range(2):
        state = game.new_initial_state(seed)
        rng = random.Random(seed)
        seen, heard = visible_sets(state), {}
        while not state.is_terminal():
            seat, before = state.decider, state.clone()
            action = rng.choice(state.legal_actions())
            state.apply_action(action)
            lines, seen = step_lines(seen, heard, seat, action, state)
            for viewer, (first, *_) in lines.items():
                text = _action_text({"action": str(action), "seat": seat}, before, state, viewer)
                assert first == f"{game.player_names[seat]}: {text}", (viewer, first, text)
                told.add(text)
    assert any(expected in text for text in told) and not any("_" in text for text in told)


def visible_components(view) -> set:
    """The ids of the components a view shows (the view read as a seat gets it, not the engine's test)."""
    if isinstance(view, dict):
        found = {view["id"]} if isinstance(view.get("id"), int) else set()
        return found.union(*(visible_components(v) for v in view.values()))
    if isinstance(view, list):
        return set().union(*(visible_components(v) for v in view))
    return set()
