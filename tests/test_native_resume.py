"""Playing on in the native kernel from states the Python engine reached (interpreter/native/resume.py,
playout.py): the same actions and the same final state as the Python engine with the same seeded
policy, from every kind of decision (inside called procedures, loops, inlined calls)."""
from __future__ import annotations

import random

import pytest

from interpreter.game import load_game
from tests.conftest import require_extra, require_program

require_extra("cffi", "native")
require_program("gcc")

from interpreter.native import NativeUnavailable, kernel_for  # noqa: E402
from interpreter.native.playout import Runner, playout  # noqa: E402
from interpreter.native.reference import comparable, play_on  # noqa: E402

GAMES = [("gangster", None), ("gangster", 4), ("la-famiglia", None), ("mafiadollar", 3),
         ("pferderennen-mafia", None), ("pig", 3), ("tic-tac-toe", None), ("connect-four", None),
         ("kuhn-poker", None), ("leduc-poker", None), ("liars-dice", None), ("goofspiel", None),
         ("cant-stop", None), ("no-thanks", None), ("reversi", None), ("sushi-go", None)]
LONG = {"gangster", "mafiadollar", "pferderennen-mafia", "cant-stop", "no-thanks", "reversi", "sushi-go"}  # long games: fewer states in CI


def _states(game, seeds, every):
    """States the Python engine reaches in seeded random games, every ``every``-th decision."""
    for seed in seeds:
        s, rng, step = game.new_initial_state(seed), random.Random(seed), 0
        while not s.is_terminal():
            if step % every == 0:
                yield seed * 1000 + step, s.clone()
            actions = s.legal_actions()
            s.apply_action(actions[rng.randrange(len(actions))])
            step += 1


def _check(name, players, seeds, every) -> int:
    game = load_game(name, players=players)
    kernel = kernel_for(game)
    checked = 0
    for policy, state in _states(game, seeds, every):
        native_actions, native_state = playout(kernel, state, policy)
        python_actions, python_state = play_on(state.clone(), policy)
        assert native_actions == python_actions, (name, policy)
        assert comparable(native_state) == comparable(python_state), (name, policy)
        seat = state.current_player()
        first = policy % len(state.legal_actions())
        native_actions, native_state = playout(kernel, state, policy, 12, stop_seat=seat, force=first)
        python_actions, python_state = play_on(state.clone(), policy, 12, stop_seat=seat, first=first)
        assert native_actions == python_actions, (name, policy, "stopped")
        assert comparable(native_state) == comparable(python_state), (name, policy, "stopped")
        if not native_state.is_terminal():  # taken again in Python: narration and legal actions too
            assert native_state.to_dict() == python_state.to_dict()
            assert native_state.legal_actions() == python_state.legal_actions()
        checked += 1
    return checked


@pytest.mark.parametrize("name, players", GAMES)
def test_the_kernel_plays_on_from_python_states_as_python_does(name, players):
    assert _check(name, players, [1] if name in LONG else [1, 2, 3], 25 if name in LONG else 2) >= 2


@pytest.mark.slow
@pytest.mark.parametrize("name, players", GAMES)
def test_the_kernel_plays_on_from_python_states_as_python_does_many(name, players):
    assert _check(name, players, range(10, 40), 2) >= 30


def test_a_runner_plays_copies_of_one_state_alike():
    game = load_game("mafiadollar", players=3)
    state = next(s for _, s in _states(game, [5], 1) if len(s.stack) > 2)  # inside two called procedures
    runner = Runner(kernel_for(game), state)
    first = runner.state(runner.run(77, stop_seat=state.current_player(), force=0))
    again = runner.state(runner.run(77, stop_seat=state.current_player(), force=0))
    other = runner.state(runner.run(78))
    assert first.to_dict() == again.to_dict()
    assert other.is_terminal() and comparable(other) == comparable(play_on(state.clone(), 78)[1])


def test_a_state_that_cannot_resume_says_why():
    game = load_game("pig")
    state = game.new_initial_state(3)
    state.failure = "an earlier error"
    with pytest.raises(NativeUnavailable, match="broken"):
        playout(kernel_for(game), state, 1)
    state = game.new_initial_state(3)
    state.stack[-1][2]["stray"] = "a text the kernel never saw"
    state.stack[-1][1] += 1  # a frame at no decision
    with pytest.raises(NativeUnavailable, match="cannot be resumed"):
        playout(kernel_for(game), state, 1)


@pytest.mark.parametrize("name, players", [("gangster", None), ("mafiadollar", 3), ("pferderennen-mafia", None),
                                           ("la-famiglia", None), ("pig", 3), ("tic-tac-toe", None)])
def test_the_greedy_policy_with_epsilon_plays_as_in_python(name, players):
    """Every seat greedy by the evaluation one step ahead (each candidate played to the next
    decision in a copy resumed at this one), uniform with chance epsilon: the kernel and
    reference.play_on take the same actions to the same state."""
    game = load_game(name, players=players)
    kernel = kernel_for(game)
    checked = 0
    for policy, state in _states(game, [2], 25 if name in LONG else 3):
        for epsilon in (0.0, 0.25):
            native_actions, native_state = playout(kernel, state, policy, 30, greedy=epsilon)
            python_actions, python_state = play_on(state.clone(), policy, 30, greedy=epsilon)
            assert native_actions == python_actions, (name, policy, epsilon)
            assert comparable(native_state) == comparable(python_state), (name, policy, epsilon)
            checked += 1
    assert checked >= 2


@pytest.mark.parametrize("name, players", [("gangster", None), ("mafiadollar", 3), ("pferderennen-mafia", None),
                                           ("la-famiglia", None)])
def test_only_the_judging_seat_greedy_plays_as_in_python(name, players):
    """``own``: the next ``own`` decisions of the judging seat (``stop_seat``) greedy by the evaluation,
    the rest uniform (``flat:follow=N``): the kernel and reference.play_on take the same actions to the
    same state, and count the same looks ahead (what the bots' race charges for them)."""
    game = load_game(name, players=players)
    kernel = kernel_for(game)
    checked = looked = 0
    for policy, state in _states(game, [2, 3], 25 if name in LONG else 3):
        seat, actions = state.current_player(), state.legal_actions()
        first = policy % len(actions)
        for own in (1, 100):
            runner = Runner(kernel, state)
            ks = runner.run(policy, 12, seat, force=first, greedy=0.0, own=own)
            native_actions, native_state, native_looks = kernel.actions(ks), runner.state(ks), int(ks.looks)
            looks = [0]
            python_actions, python_state = play_on(state.clone(), policy, 12, stop_seat=seat, first=first,
                                                   greedy=0.0, own=own, looks=looks)
            assert native_actions == python_actions, (name, policy, own)
            assert comparable(native_state) == comparable(python_state), (name, policy, own)
            assert native_looks == looks[0], (name, policy, own)
            checked, looked = checked + 1, looked + looks[0]
    assert checked >= 2 and looked > 0


def test_runners_in_threads_keep_apart():
    """The kernel runs without the GIL: each thread plays in buffers of its own (the web server's
    bots think in worker threads)."""
    import threading
    game = load_game("pferderennen-mafia")
    kernel = kernel_for(game)
    starts = [state for _, state in _states(game, [3], 40)][:4]
    expected = [comparable(playout(kernel, s, 11)[1]) for s in starts]
    found: dict = {}

    def work(k):
        found[k] = [comparable(playout(kernel, s, 11)[1]) for _ in range(5) for s in starts]

    threads = [threading.Thread(target=work, args=(k,)) for k in range(3)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert all(found[k] == expected * 5 for k in range(3))


def test_a_saved_state_with_locals_of_the_wrong_kind_does_not_resume():
    """Saved states are untrusted: a local or a loop's slot holding what the kernel would misread
    (a number where it keeps a list, a place past its list) is refused, never run."""
    game = load_game("pferderennen-mafia")
    kernel = kernel_for(game)
    state = next(s for _, s in _states(game, [0], 1) if any(k.startswith("$") for k in s.stack[-1][2]))
    slot = next(k for k in state.stack[-1][2] if k.startswith("$"))
    broken = state.clone()
    broken.stack[-1][2][slot][1] = 99
    with pytest.raises(NativeUnavailable, match="out of range"):
        playout(kernel, broken, 1)
    broken = state.clone()
    broken.stack[-1][2][slot][0] = 12345
    with pytest.raises(NativeUnavailable, match="out of range"):
        playout(kernel, broken, 1)
    listed = next(name for name, value in state.stack[-1][2].items() if isinstance(value, list) and name[0] != "$")
    broken = state.clone()
    broken.stack[-1][2][listed] = 10 ** 6  # a number where the kernel keeps a list: left at an empty one
    assert playout(kernel, broken, 1)[1] is not None


# a text variable offered as a parameter's value: a saved state may hold any text in it
TEXTS = """
game: {name: Texts, players: 2}
vars: {mode: {type: str, initial: a}}
player_vars: {points: 0}
flow:
  - repeat: 4
    do:
      - choose:
          options:
            pick:
              params: {word: "[mode, 'b', 'c']"}
              effects: ["active.points += 1 if word == 'b' else 0", "active = next_player(active)"]
scoring: {score: player.points}
"""


def test_a_saved_state_holding_a_text_the_kernel_was_not_built_with_runs_in_python(tmp_path):
    """The kernel's tables of texts (their order, their keys for keyed playouts) have rows only for the
    texts the ruleset names: a state holding another one is refused (the bots play on in Python, with the
    same decisions), never run with a number past the tables."""
    path = tmp_path / "texts.yaml"
    path.write_text(TEXTS, encoding="utf-8")
    game = load_game(path)
    kernel = kernel_for(game)
    state = game.new_initial_state(1)
    Runner(kernel, state).run(3, 10, keyed=True)
    data = state.to_dict()
    data["vars"]["mode"] = "zzz"
    crafted = game.state_from_json(data)  # the saved state's checks let any text through
    with pytest.raises(NativeUnavailable, match="not built with"):
        Runner(kernel, crafted)
    from interpreter.bots import make_bot
    for seed in range(4):
        python = make_bot("flat:keyed=1,engine=python", 0, seed).choose(crafted.clone())
        auto = make_bot("flat:keyed=1", 0, seed).choose(crafted.clone())
        assert str(python) == str(auto)


@pytest.mark.parametrize("name, players", [("pferderennen-mafia", None), ("mafiadollar", 3)])
def test_a_playout_stops_at_a_partners_turn_as_in_python(name, players):
    """flat in a cooperative game stops where another seat is to decide (bots/rollouts.py): the
    kernel's stop_partners and the reference's ``partners`` stop at the same decision."""
    game = load_game(name, players=players)
    kernel = kernel_for(game)
    for policy, state in _states(game, [4], 20):
        seat = state.current_player()
        native = playout(kernel, state, policy, 50, stop_seat=seat, force=0, partners=True)
        python = play_on(state.clone(), policy, 50, stop_seat=seat, first=0, partners=True)
        assert native[0] == python[0] and comparable(native[1]) == comparable(python[1]), (name, policy)


LIMITED_LOOP = """
game: {name: Limited loop, players: 2}
vars: {total: 0}
procedures:
  "turn(k)":
    - choose:
        options:
          add: {params: {n: "range(1, 4)"}, effects: [total += n + k]}
          wait: {effects: []}
flow:
  - let round = 0
  - while: total < 60
    limit: 9
    do:
      - round += 1
      - choose:
          options:
            up: {effects: [total += 2]}
            down: {require: total > 0, effects: [total -= 1]}
      - repeat: 2
        do:
          - turn(round)
      - active = player(seat(active) + 1)
scoring:
  score: "total if seat(player) == 0 else 0 - total"
"""


def test_a_decision_inside_a_while_limit_resumes_as_in_python(tmp_path):
    """The count of a 'while ... limit' (the Python engine's '#' slot) is put back in the kernel's
    counter: a state inside such a loop (and a repeat and a call inside it) resumes, plain and
    greedy, and plays on as Python does, to the loop's limit."""
    path = tmp_path / "limited.yaml"
    path.write_text(LIMITED_LOOP)
    game = load_game(path)
    kernel = kernel_for(game)
    checked = 0
    for policy, state in _states(game, [1, 2, 3], 1):
        for greedy in (None, 0.25):
            native_actions, native_state = playout(kernel, state, policy, greedy=greedy)
            python_actions, python_state = play_on(state.clone(), policy, greedy=greedy)
            assert native_actions == python_actions, (policy, greedy)
            assert comparable(native_state) == comparable(python_state), (policy, greedy)
        checked += 1
    assert checked >= 30


RECURSIVE_DECISION = """
game: {name: Recursive decision, players: 2}
vars: {total: 0}
procedures:
  "ask(n)": [{if: n > 0, then: [{choose: {options: {add: {effects: [total += 1]}, skip: {effects: []}}}}, "ask(n - 1)"]}]
flow: ["ask(3)"]
"""


def test_a_decision_inside_a_recursive_procedure_falls_back_to_python_with_the_reason(tmp_path):
    """A recursive procedure is a C function of its own, where no resumed game can jump to a
    decision: such a ruleset is refused when its kernel is made, with the reason, and plays in Python."""
    path = tmp_path / "recursive.yaml"
    path.write_text(RECURSIVE_DECISION)
    game = load_game(path)
    with pytest.raises(NativeUnavailable, match="a decision inside a procedure the kernel compiles as a C function"):
        kernel_for(game)
    from interpreter.native.coverage import missing
    what, where = missing(game)
    assert "C function" in what and where is not None


@pytest.mark.parametrize("name, players", GAMES)
def test_keyed_playouts_play_as_in_python(name, players):
    """``keyed``: every uniform pick takes the legal action with the smallest key (interpreter/native/keyed.py),
    each seat from its own stream of numbers: the kernel's tables and reference.play_on key the actions alike,
    so both take the same actions to the same state, played out and stopped at the judging seat's next turn,
    with the follow on too."""
    game = load_game(name, players=players)
    kernel = kernel_for(game)
    checked = 0
    for policy, state in _states(game, [4] if name in LONG else [4, 5], 25 if name in LONG else 3):
        seat, actions = state.current_player(), state.legal_actions()
        first = policy % len(actions)
        for stop, own in ((None, 0), (seat, 0), (seat, 1)):
            greedy = 0.0 if own else None
            runner = Runner(kernel, state)
            ks = runner.run(policy, 60, stop, force=first, greedy=greedy, own=own, keyed=True)
            native_actions, native_state = kernel.actions(ks), runner.state(ks)
            python_actions, python_state = play_on(state.clone(), policy, 60, stop_seat=stop, first=first,
                                                   greedy=greedy, own=own, keyed=True)
            assert native_actions == python_actions, (name, policy, stop, own)
            assert comparable(native_state) == comparable(python_state), (name, policy, stop, own)
            checked += 1
    assert checked >= 6


def test_a_keyed_reply_survives_a_change_of_the_legal_actions():
    """The point of the keyed pick: the same number picks the same action from lists that differ by
    another action or in order, where a uniform pick by index would shift."""
    from interpreter.native.keyed import keyed_pick
    game = load_game("pferderennen-mafia")
    legal = game.new_initial_state(1).legal_actions()
    assert len(legal) > 3
    for z in range(1, 200, 7):
        chosen = keyed_pick(legal, z)
        for dropped in (legal[0], legal[-1]):
            if dropped is not chosen:
                assert keyed_pick([a for a in legal if a is not dropped], z) is chosen
        assert keyed_pick(legal[::-1], z) is chosen
