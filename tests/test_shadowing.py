"""A ruleset's own names hide the built-ins of the same spelling (dsl/shadowing.py): the ruleset keeps
validating and playing, ``builtin.NAME`` reaches the built-in beside the ruleset's name, each hiding
name earns a note (an error under ``validate --strict``), and a use that cannot mean the ruleset's name
is an error naming both meanings.  The built-ins the language adds later are simulated by registries
with extra entries: the compatibility corpus (tests/compat/) must validate against them unchanged."""
from __future__ import annotations

import dataclasses

import pytest
import yaml

from conftest import MINIMAL, ROOT, random_playout
from dsl.errors import ErrorList, Note
from dsl.loader import load_ruleset
from dsl.registry import EFFECTS, FUNCTIONS, Param, Registry
from dsl.types import INT, STR
from interpreter import load_game
from interpreter.cli import main

PIG_OWN_ROLL = ROOT / "tests" / "compat" / "rulesets" / "pig-own-roll.yaml"
NAMES = ROOT / "tests" / "compat" / "rulesets" / "names-as-definitions.yaml"
CORPUS = sorted((ROOT / "tests" / "compat" / "rulesets").glob("*.yaml"))


def write(tmp_path, data, name="game.yaml"):
    path = tmp_path / name
    path.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    return path


def minimal(**changes) -> dict:
    data = yaml.safe_load(MINIMAL.read_text(encoding="utf-8"))
    data.update(changes)
    return data


def errors_of(path) -> list:
    with pytest.raises(ErrorList) as caught:
        load_game(path)
    return [str(e) for e in caught.value.errors]


# ---- the Pig with its own roll --------------------------------------------------------------------
def test_pig_with_its_own_procedure_roll_validates_plays_and_notes_the_hidden_built_in():
    game = load_game(PIG_OWN_ROLL)
    notes = game.ruleset.notes
    assert [type(n) for n in notes] == [Note]
    assert "procedure 'roll' hides the built-in function roll(sides: int)" in notes[0].message
    assert "builtin.roll(...)" in notes[0].hint and notes[0].position.line == 38
    state = random_playout(game, 3, 200)
    assert state.is_terminal() and max(state.pvars["score"]) >= 30


def test_builtin_roll_works_beside_the_rulesets_own_roll(tmp_path):
    data = yaml.safe_load(PIG_OWN_ROLL.read_text(encoding="utf-8"))
    data["vars"]["bonus"] = 0
    effects = data["flow"][0]["do"][1]["do"][0]["choose"]["options"]["roll"]["effects"]
    effects.insert(1, "bonus = builtin.roll(6)")  # beside the ruleset's own roll()
    game = load_game(write(tmp_path, data))
    state = game.new_initial_state(5)
    seen = set()
    for _ in range(30):
        state.apply_action("roll" if "roll" in [str(a) for a in state.legal_actions()] else "hold")
        seen.add(state.vars["bonus"])
        assert 1 <= state.vars["last_roll"] <= 6
    assert seen <= set(range(1, 7)) and len(seen) > 2


def test_a_procedure_named_like_a_built_in_inside_an_expression_is_an_error_naming_both(tmp_path):
    data = yaml.safe_load(PIG_OWN_ROLL.read_text(encoding="utf-8"))
    effects = data["flow"][0]["do"][1]["do"][0]["choose"]["options"]["roll"]["effects"]
    effects[0] = "last_roll = roll(6) + 0"
    [error] = errors_of(write(tmp_path, data))
    assert "'roll' is both a procedure of this ruleset and a built-in function" in error
    assert "builtin.roll(...)" in error and "let x = roll(...)" in error
    effects[0] = "last_roll = roll(6)"
    [error] = errors_of(write(tmp_path, data))
    assert "procedure roll takes 0 argument(s) (the procedure of this ruleset hides the built-in function " \
           "roll(sides: int) -> int: for that, write builtin.roll(...))" in error


# ---- definitions named like built-ins, now and later ------------------------------------------------
@pytest.mark.parametrize("name", ["text", "seat", "show", "join", "sum", "size"])
def test_a_definition_named_like_a_built_in_is_the_rulesets_own_and_the_built_in_stays_reachable(tmp_path, name):
    data = minimal(define={f"{name}(c)": "c.value * 10"})
    data["scoring"] = {"score": f"player.score + {name}(top(pile)) * 0 + builtin.size(player.hand)"}
    option = data["flow"][0]["do"][0]["choose"]["options"]["play"]
    option["effects"][2] = f"active.score += {name}(card) + builtin.sum([1, 2])"
    game = load_game(write(tmp_path, data))
    state = game.new_initial_state(1)
    before = state.pvars["score"][0]
    played = next(a for a in state.legal_actions() if str(a).startswith("play"))
    value = int(str(played).split()[-1])
    state.apply_action(played)
    assert state.pvars["score"][0] == before + value * 10 + 3
    hides = [n.message for n in game.ruleset.notes]
    assert hides == ([f"the definition '{name}' hides the built-in function {FUNCTIONS.get(name).signature()}"]
                     if FUNCTIONS.get(name) else [])


def with_new_builtins():
    """The registries as a later language might have them: new functions and effects named like names
    rulesets already use (text, seat, join, player, teams, show, best)."""
    functions = Registry("function", dict(FUNCTIONS.entries))
    effects = Registry("effect", dict(EFFECTS.entries))
    for name in ("text", "seat", "join", "player", "teams", "best", "last_roll"):
        if functions.get(name) is None:  # those the language has by now stay as they are
            functions.register(name, (Param("value", "any"),), STR, "a later built-in")(lambda state, value: "")
    for name in ("show", "join_table", "score"):
        if effects.get(name) is None:
            effects.register(name, (Param("value", "any"),), None, "a later built-in")(lambda state, value: None)
    functions.register("turn_total", (), INT, "a later built-in")(lambda state: 0)
    return functions, effects


@pytest.mark.parametrize("path", CORPUS, ids=[p.stem for p in CORPUS])
def test_the_corpus_validates_the_same_against_later_built_ins(path):
    """Each file resolves every name as it does today, whatever built-ins are added."""
    from interpreter.game import find_base
    today = load_ruleset(path, FUNCTIONS, EFFECTS, find=find_base)
    later = load_ruleset(path, *with_new_builtins(), find=find_base)
    assert sorted(map(str, today.symbols.values())) == sorted(map(str, later.symbols.values()))
    assert {str(n) for n in today.notes} <= {str(n) for n in later.notes}


def test_the_names_ruleset_notes_each_name_that_hides_a_later_built_in():
    from interpreter.game import find_base
    later = load_ruleset(NAMES, *with_new_builtins(), find=find_base)
    hidden = sorted(n.message.split("'")[1] for n in later.notes)
    assert hidden == ["join", "join_table", "player", "seat", "show", "size", "sum", "text", "top"]


# ---- built-in names --------------------------------------------------------------------------------
def test_a_variable_named_like_a_built_in_name_wins_and_builtin_reaches_the_built_in(tmp_path):
    data = minimal(vars={"players": 7, "top": 1})
    data["scoring"] = {"score": "player.score + players + size(builtin.players) + top"}
    game = load_game(write(tmp_path, data), players=3)
    assert [n.message.split("'")[1] for n in game.ruleset.notes] == ["players", "top"]
    state = random_playout(game, 2, 200)
    assert state.returns() == [s + 7 + 3 + 1 for s in state.pvars["score"]]


def test_a_local_named_like_a_built_in_name_is_noted_once(tmp_path):
    data = minimal()
    data["flow"][0]["do"].insert(0, "let num_players = 2")
    data["flow"][0]["do"].insert(1, "active.score += num_players - builtin.num_players")
    game = load_game(write(tmp_path, data), players=3)
    [note] = game.ruleset.notes
    assert note.message.startswith("the local 'num_players' hides the built-in name num_players")


def test_builtin_names_a_built_in_or_says_there_is_none(tmp_path):
    cases = {"builtin.scor": "there is no built-in name 'scor'",
             "builtin.size": "builtin.size is a function or effect: call it",
             "builtin.nosuch(1)": "there is no built-in function 'nosuch'",
             "builtin.shuffle(pile)": "'shuffle' is an effect and changes the game",
             "builtin.component": "builtin.component is given only in zone conditions",
             "sum(builtin.player.score for player in players)": "builtin.player cannot reach past the local",
             "sum(builtin.score for builtin in players)": "give your 'builtin' another name"}
    for text, message in cases.items():
        data = minimal()
        data["scoring"] = {"score": f"player.score + 0 * size([{text}])"}
        errors = errors_of(write(tmp_path, data))
        assert any(message in e for e in errors), (text, errors)


def test_builtin_effects_in_statements_and_the_context_player_in_scoring(tmp_path):
    data = minimal(procedures={"shuffle(z)": ["builtin.shuffle(z)", "active.score += 100"]})
    data["setup"][0] = "shuffle(pile)"  # the ruleset's own procedure, which calls the built-in effect
    data["scoring"] = {"score": "builtin.player.score"}
    game = load_game(write(tmp_path, data))
    assert game.new_initial_state(0).pvars["score"][0] == 100
    assert "procedure 'shuffle' hides the built-in effect shuffle(zone: zone)" in game.ruleset.notes[0].message
    data["setup"][0] = "builtin.nosuch(pile)"
    assert any("there is no built-in effect 'nosuch'" in e for e in errors_of(write(tmp_path, data)))


# ---- validate, --strict ---------------------------------------------------------------------------
def test_validate_prints_notes_and_strict_counts_them_as_errors(capsys):
    assert main(["validate", str(PIG_OWN_ROLL)]) == 0
    out = capsys.readouterr().out
    assert "OK: Pig with its own roll" in out and "pig-own-roll.yaml:38:3: note: the procedure 'roll'" in out
    assert main(["validate", "--strict", str(PIG_OWN_ROLL)]) == 1
    out = capsys.readouterr().out
    assert "1 note(s), which --strict counts as errors" in out and "OK:" not in out
    assert main(["validate", "--strict", "pig"]) == 0


def test_builtin_names_unparse_as_written():
    from dsl.errors import Position
    from dsl.parser import parse_statement
    from dsl.unparse import unparse
    for text in ("x = builtin.roll(6) + roll(2)", "builtin.shuffle(deck)", "x = size(builtin.players)"):
        assert unparse(parse_statement(text, Position("t", 1, 1))) == text
    assert dataclasses.fields(parse_statement("roll()", Position("t", 1, 1)).call)[-1].name == "builtin"


def test_explain_lists_the_names_that_hide_built_ins():
    from dsl.explain import explain
    text = explain(load_game(PIG_OWN_ROLL).ruleset)
    assert text.endswith("Names of this ruleset that hide built-ins (builtin.NAME is the built-in)\n"
                         "  - the procedure 'roll' hides the built-in function roll(sides: int) -> int\n")
    assert "Procedure roll\n  shuffle(die).\n" in text


def test_a_context_name_yields_to_the_rulesets_variable_unless_rulesets_already_rely_on_it(tmp_path, monkeypatch):
    data = minimal(vars={"player": {"type": "player", "initial": 1}})
    data["scoring"] = {"score": "player.score * 10 + builtin.player.score"}
    path = write(tmp_path, data)
    state = load_game(path).new_initial_state(0)
    state.pvars["score"] = [1, 2]
    assert state.returns() == [11, 22]  # 'player' in scoring is the scored player, as it always was
    import dsl.checker
    monkeypatch.setattr(dsl.checker, "CONTEXT_NAMES_FIRST", frozenset())  # as a context name added later
    game = load_game(path)
    state = game.new_initial_state(0)
    state.pvars["score"] = [1, 2]
    assert state.returns() == [21, 22]  # the ruleset's variable (seat 1), and builtin.player the scored one
    [note] = game.ruleset.notes
    assert note.message == "the variable 'player' hides the built-in name player"
