"""Terminal play (interpreter/cli/play.py): staged menus, undo, hot-seat, resume from a game record,
and ``replay --show``."""
from __future__ import annotations

import io
import json
import sys

import pytest

from interpreter import load_game
from interpreter.cli import main
from interpreter.cli.play import match_choice


def run(capsys, *argv):
    code = main([str(a) for a in argv])
    out = capsys.readouterr()
    return code, out.out


def _record(capsys, tmp_path, game, seed, name="full.json", *extra):
    path = tmp_path / name
    code, _ = run(capsys, "play", game, "--seats", ",".join(["random"] * load_game(game).num_players),
                  "--seed", seed, "--log", path, *extra)
    assert code == 0
    return json.loads(path.read_text())


@pytest.mark.parametrize("game, seed, every", [("la-famiglia", 5, 1), ("gangster", 2, 9),
                                               ("mafiadollar", 1, 23)])
def test_a_resumed_game_ends_as_the_uninterrupted_one(capsys, tmp_path, game, seed, every):
    full = _record(capsys, tmp_path, game, seed)
    assert full["finished"] and len(full["steps"]) > 3
    for k in range(0, len(full["steps"]), every):
        part = dict(full, steps=full["steps"][:k], finished=False, returns=None, winners=None)
        (tmp_path / "part.json").write_text(json.dumps(part))
        code, out = run(capsys, "play", "--resume", tmp_path / "part.json", "--log", tmp_path / "resumed.json",
                        game)
        assert code == 0 and f"Resumed after {k} moves" in out
        resumed = json.loads((tmp_path / "resumed.json").read_text())
        assert resumed["steps"] == full["steps"] and resumed["returns"] == full["returns"], f"resumed at {k}"


def test_a_person_picks_stage_by_stage(capsys, monkeypatch):
    # Gangster, seed 3: place a tile of the own supply (stage 0 by prefix, the tile by its number),
    # then its field by the cell's name
    monkeypatch.setattr(sys, "stdin", io.StringIO("place … from your supply\n1\nr3c3\nquit\n"))
    code, out = run(capsys, "play", "gangster", "--players", 2, "--seed", 3)
    assert code == 0
    assert "Red (human): put red 1 on r3c3" in out
    assert "Gangster?" in out and "Field?" in out  # the stage questions in the ruleset's words (display: labels)


def test_choices_are_picked_by_number_prefix_or_token():
    state = load_game("gangster", players=2).new_initial_state(3)
    state.apply_action("draw from stack A")
    fields = state.staged_choices(("put", state.staged_choices(("put",))[0].value))
    assert match_choice("r3c3", fields).label == "r3c3"
    assert match_choice("1", fields) is fields[0] and match_choice("99", fields) is None
    first = state.staged_choices()
    assert [c.label for c in first] == ["put … on …"]
    assert match_choice("pu", first) is first[0] and match_choice("put", first) is first[0]
    assert match_choice("r", fields) is None, "several labels start with r: no guess"


def test_undo_takes_back_the_last_decision_and_the_bots_replies(capsys, monkeypatch, tmp_path):
    state = load_game("la-famiglia").new_initial_state(2)
    first = next(str(a) for a in state.legal_actions() if a.name != "pass")
    monkeypatch.setattr(sys, "stdin", io.StringIO(f"{first}\nundo\nquit\n"))
    code, out = run(capsys, "play", "la-famiglia", "--seed", 2, "--log", tmp_path / "game.json")
    assert code == 0
    assert f"undone: {first}" in out and "Stopped after 0 moves" in out
    assert json.loads((tmp_path / "game.json").read_text())["steps"] == []


def test_hot_seat_passes_the_device(capsys, monkeypatch):
    monkeypatch.setattr(sys, "stdin", io.StringIO("pass\n\nquit\n"))
    code, out = run(capsys, "play", "la-famiglia", "--seats", "human,human", "--seed", 2)
    assert code == 0
    assert "Pass the device to P2. P2: press Enter when ready." in out


def test_replay_show_steps_through_a_game(capsys, monkeypatch, tmp_path):
    record = _record(capsys, tmp_path, "la-famiglia", 4)
    monkeypatch.setattr(sys, "stdin", io.StringIO("\n\nb\n3\nend\nq\n"))
    code, out = run(capsys, "replay", tmp_path / "full.json", "--show", "--seat", 1)
    assert code == 0
    assert "move 1: P1 — " in out and "move 3: " in out
    assert f"move {len(record['steps'])}/{len(record['steps'])}" in out
    assert out.count("P1 (you)") >= 2 and ("P2 (you)" in out or "P2 sees the same." in out), \
        "at the end every seat's view"
    assert "Scores: " in out


def test_history_lists_the_moves_with_their_narration(capsys, monkeypatch):
    # Gangster, seed 3: after a placement and the bot's reply, `history` shows both moves in order
    monkeypatch.setattr(sys, "stdin", io.StringIO("1\n1\nr3c3\nhistory\nquit\n"))
    code, out = run(capsys, "play", "gangster", "--players", 2, "--seed", 3)
    assert code == 0
    history = out[out.index("history\n"):]
    assert "   2 Red put red 1 on r3c3" in history and "   4 Blue put red 1 on r1c1" in history
    assert history.index("   4 Blue") < history.index("» red 3 is turned up")


def test_the_compact_board_shows_zones_kept_per_component_with_it():
    from rich.console import Console
    from interpreter.cli.render import LONG_PILE, render_view
    game = load_game("pferderennen-mafia")
    state = game.new_initial_state(3)
    for _ in range(12):
        state.apply_action(state.legal_actions()[0])
    console = Console(width=100, record=True)
    console.print(render_view(state.view(0), game, menu=False))
    text = console.export_text()
    assert "First slot" not in text.split("Race track")[0] and "[First slot: " in text  # on its horse, not a row
    assert " #" not in text
    console = Console(width=100, record=True)
    console.print(render_view(state.view(0), game, menu=False, terse=True))  # for a short screen
    terse = console.export_text()
    assert "[First slot 1" in terse
    fresh = game.new_initial_state(3)
    console = Console(width=100, record=True)
    console.print(render_view(fresh.view(0), game, menu=False, terse=True))
    terse = console.export_text()
    hand = [game.names[c] for c in fresh.zones[game.family_base["hand"]]]
    assert len(hand) > LONG_PILE and all(name in terse for name in hand), "a player's own hand is never cut"


def test_a_choice_that_leads_to_one_action_shows_that_action(capsys, monkeypatch):
    # MafiaDollar, seed 8: offered a card, the answer's card is in the menu before swapping
    monkeypatch.setattr(sys, "stdin", io.StringIO("trade\n1\nP2\nWachhund\nquit\n"))
    code, out = run(capsys, "play", "mafiadollar", "--seed", 8)
    assert code == 0
    assert "1 swap Wachhund (Hut 7) for Gangster A1 B1 (Zeitung 5)" in out


def test_a_whole_action_text_of_the_next_decision_works_at_the_first_stage(capsys, monkeypatch):
    # Gangster's first stage offers options ("place … from your supply"); "put red 1 on r3c3" is the
    # text of the decision that follows placing red 1 (from either supply: ambiguous); red 2 is in one
    # place only, and the table takes both steps
    monkeypatch.setattr(sys, "stdin", io.StringIO("put red 1 on r3c3\nput red 2 on r3c3\nquit\ny\n"))
    code, out = run(capsys, "play", "gangster", "--players", 2, "--seed", 3)
    assert code == 0
    assert "can follow more than one choice (place red 1 from your supply, place red 1 from the open supply)" \
        in " ".join(out.split())
    assert "Red (human): put red 2 on r3c3" in out and "none of the" not in out


def test_quit_asks_first_and_a_wrong_text_shows_the_menu_again(capsys, monkeypatch):
    monkeypatch.setattr(sys, "stdin", io.StringIO("fly away\nquit\nn\nquit\ny\n"))
    code, out = run(capsys, "play", "gangster", "--players", 2, "--seed", 3)
    assert code == 0
    assert out.count("Quit this game? (y/n)") == 2 and "Stopped after" in out
    assert out.count("Place, move or shoot a gangster") >= 3  # first, after the wrong text, after "n"


def test_a_stage_that_ends_the_game_is_never_taken_alone(capsys, monkeypatch, tmp_path):
    path = tmp_path / "one-step.yaml"
    path.write_text("""game: {name: One step, players: 1}
flow:
  - choose:
      prompt: "Finish the game?"
      options:
        stop: {text: "stop here", effects: ['end_game("stopped")']}
""", encoding="utf-8")
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    code, out = run(capsys, "play", path)
    assert code == 0 and "Finish the game?" in out and "Stopped after 0 moves" in out
    monkeypatch.setattr(sys, "stdin", io.StringIO("stop here\n"))
    code, out = run(capsys, "play", path)
    assert code == 0 and "stop here" in out and "Stopped after" not in out


class _Choice:
    def __init__(self, label):
        self.label = label
        self.value = label


def test_where_the_choices_are_numbers_a_typed_number_is_that_value():
    numbers = [_Choice(str(n)) for n in (0, 2, 5, 1)]
    assert match_choice("1", numbers).label == "1"      # the value 1, the fourth choice
    assert match_choice("#1", numbers).label == "0"     # the first position
    assert match_choice("3", numbers) is None           # no choice of value 3
    words = [_Choice("pass"), _Choice("take")]
    assert match_choice("2", words).label == "take" and match_choice("#2", words).label == "take"


def test_the_table_before_a_race_is_cleared_is_shown(capsys):
    # Pferderennen: at the end of a race the cards on the horses go back; the person sees the last
    # picture of the race before a bot's move clears it
    from rich.console import Console
    from interpreter.cli.play import Table
    game = load_game("pferderennen-mafia")
    console = Console(width=100, record=True)
    table = Table(game, ["human", "random", "random", "random"], 4, console)
    for _ in range(600):
        state = table.state
        if state.is_terminal() or "cleared it:" in console.export_text(clear=False):
            break
        table._apply(state.current_player(), state.legal_actions()[0])
    text = console.export_text()
    shown = text.split("'s move cleared it:")
    assert len(shown) > 1 and "Race" in shown[1] and "First slot" in shown[1]
