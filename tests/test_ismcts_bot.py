"""The `ismcts` bot (information-set MCTS: one tree over actions matched across dealt worlds, short
judged playouts): it takes the one winning move, plays the same for a seed and an iteration budget,
decides alike with either rollout engine, matches actions across worlds by what they mean, and
never reads what its seat cannot see."""
import random

import pytest

from dsl.errors import ParameterError
from interpreter import load_game
from interpreter.bots import make_bot, play_game, stronger_spec
from interpreter.bots.ismcts import IsmctsBot, keyed_actions
from tests.test_bots import HIDDEN_HANDS, mid_game, swapped_hidden
from tests.test_focus_bot import grab  # noqa: F401  (the fixture: a game of twelve actions, one of them wins)

SPECS = ["ismcts:iterations=60,expand=one", "ismcts:iterations=12"]


@pytest.mark.parametrize("spec", SPECS)
@pytest.mark.parametrize("seed", range(4))
def test_it_takes_the_one_winning_move_among_twelve(grab, spec, seed):
    state = grab.new_initial_state(seed)
    assert len(state.legal_actions()) == 12
    chosen = make_bot(spec, 0, seed).choose(state)
    assert str(chosen).endswith("7")


def test_a_winning_move_also_wins_the_game(grab):
    state = grab.new_initial_state(1)
    play_game(state, [make_bot("ismcts:iterations=40", 0, 5), make_bot("random", 1, 6)])
    assert state.winners() == [0] and state.end_reason == "seven"


@pytest.mark.parametrize("spec", SPECS)
@pytest.mark.parametrize("ruleset", ["la-famiglia", "mafiadollar"])
def test_the_same_seed_and_budget_give_the_same_choices(spec, ruleset):
    game = load_game(ruleset, players=2)
    state, rng = game.new_initial_state(3), random.Random(3)
    choices = []
    while not state.is_terminal() and len(choices) < 3:
        actions = state.legal_actions()
        if len(actions) > 1 and rng.random() < 0.3:
            seat = state.current_player()
            first = [str(make_bot(spec, seat, k).choose(state.clone())) for k in (21, 22)]
            again = [str(make_bot(spec, seat, k).choose(state.clone())) for k in (21, 22)]
            assert first == again
            choices.append(first[0])
        state.apply_action(actions[rng.randrange(len(actions))])
    assert choices


@pytest.mark.parametrize("spec", SPECS)
@pytest.mark.parametrize("name, players", [("gangster", 2), ("mafiadollar", 2), ("pferderennen-mafia", 4),
                                           ("la-famiglia", 2)])
def test_it_decides_alike_with_rollouts_in_either_engine(spec, name, players):
    from tests.conftest import require_extra, require_program
    require_extra("cffi", "native")
    require_program("gcc")
    from interpreter.native import kernel_for
    game = load_game(name, players=players)
    kernel_for(game)  # the bot would fall back to Python without it
    state, rng, chosen = game.new_initial_state(7), random.Random(7), []
    while not state.is_terminal() and len(chosen) < 3:
        actions = state.legal_actions()
        if len(actions) > 1 and rng.random() < 0.3:
            seat = state.current_player()
            python = make_bot(f"{spec},engine=python", seat, len(chosen))
            native = make_bot(f"{spec},engine=native", seat, len(chosen))
            assert str(python.choose(state.clone())) == str(native.choose(state.clone())), (name, spec, state.moves)
            assert native.kernel is not None and python.kernel is None
            chosen.append(state.moves)
        state.apply_action(actions[rng.randrange(len(actions))])
    assert chosen


def test_actions_are_the_same_edge_in_every_dealt_world(tmp_path):
    """At the opponent's turn in a world dealt for seat 0, the opponent's cards are whatever the
    dealing gave it: the same card value is one key whichever component holds it, so the tree's
    statistics of "play a 3" gather over every world where the opponent holds a 3."""
    path = tmp_path / "hidden.yaml"
    path.write_text(HIDDEN_HANDS, encoding="utf-8")
    game = load_game(path)
    state = game.new_initial_state(2)
    state.apply_action(state.legal_actions()[0])  # seat 0 played; seat 1 to decide
    rng, by_text = random.Random(5), {}
    for _ in range(30):
        world = state.determinize(0, rng)
        for key, action in keyed_actions(world):
            text = str(action).split(" [")[0]
            by_text.setdefault(text, set()).add(key)
            assert action.components()  # a component, but the key does not name it by number
    assert len(by_text) > 1 and all(len(keys) == 1 for keys in by_text.values())


@pytest.mark.parametrize("spec", SPECS)
def test_it_chooses_the_same_in_states_that_differ_only_in_hidden_cards(tmp_path, spec):
    game, state = mid_game()
    seat = state.current_player()
    twin = swapped_hidden(game, state, seat)
    assert str(make_bot(spec, seat, 11).choose(state)) == str(make_bot(spec, seat, 11).choose(twin))
    path = tmp_path / "hidden.yaml"
    path.write_text(HIDDEN_HANDS, encoding="utf-8")
    hidden = load_game(path)
    for seed in range(4):
        state = hidden.new_initial_state(seed)
        twin = swapped_hidden(hidden, state, 0)
        assert str(make_bot(spec, 0, seed).choose(state)) == str(make_bot(spec, 0, seed).choose(twin))


def test_in_a_game_of_hidden_hands_and_chance_it_plays_from_its_dealt_worlds_only():
    """MafiaDollar (hidden hands, a shuffled draw pile): at several decisions, a twin with two hidden
    cards swapped gets the same choice, and every world the bot searched shows the seat the same
    view as the real state, while the hidden cards lie elsewhere in some of them."""
    game = load_game("mafiadollar", players=2)
    state, rng, checked = game.new_initial_state(5), random.Random(5), 0
    worlds = []
    original = type(state).determinize

    def spy(self, player, generator):
        world = original(self, player, generator)
        worlds.append((self, world.view(player) == self.view(player), world.zones != self.zones))
        return world
    while not state.is_terminal() and checked < 3:
        actions = state.legal_actions()
        if len(actions) > 1 and state.moves > 10 and rng.random() < 0.3:
            seat = state.current_player()
            twin = swapped_hidden(game, state, seat)
            first = make_bot("ismcts:iterations=30", seat, 9)
            second = make_bot("ismcts:iterations=30", seat, 9)
            type(state).determinize = spy
            try:
                worlds.clear()
                chosen = first.choose(state)
                searched = [(same, moved) for real, same, moved in worlds if real is state]
                assert str(chosen) == str(second.choose(twin))
            finally:
                type(state).determinize = original
            assert searched and all(same for same, _ in searched) and any(moved for _, moved in searched)
            checked += 1
        state.apply_action(actions[rng.randrange(len(actions))])
    assert checked == 3


def test_a_stronger_setting_is_more_iterations_and_the_options_are_checked():
    assert stronger_spec("ismcts") == "ismcts:iterations=800"
    assert stronger_spec("ismcts:seconds=0.01") == "ismcts:seconds=0.04"
    assert IsmctsBot.options["expand"] == "all"
    with pytest.raises(ParameterError, match="one, all"):
        make_bot("ismcts:expand=some", 0, 1)
    with pytest.raises(ParameterError, match="auto, native, python"):
        make_bot("ismcts:engine=gpu", 0, 1)
    with pytest.raises(ParameterError):
        make_bot("ismcts:rounds=0", 0, 1)
