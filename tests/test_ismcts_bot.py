"""The `ismcts` bot (information-set MCTS: one tree over actions matched across dealt worlds, short
judged playouts): it matches actions across worlds by what they mean and never reads what its seat
cannot see; its options are checked.  That it takes the one winning move and plays the same for a
seed and an iteration budget is tested with `focus` in tests/test_focus_bot.py; that it decides
alike with either rollout engine, and alike in states that differ only in cards its seat cannot see,
in tests/test_bots.py."""
import random

import pytest

from dsl.errors import ParameterError
from interpreter import load_game
from interpreter.bots import make_bot, stronger_spec
from interpreter.bots.ismcts import IsmctsBot, keyed_actions
from tests.test_bots import HIDDEN_HANDS, swapped_hidden
from tests.test_focus_bot import GRAB

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


UNNUMBERED = GRAB.replace('"range(0, 12)"', '"range(0, p.points + 3)"')  # a range no declared bound limits


def test_a_game_whose_actions_have_no_ids_is_searched_by_the_actions_themselves(tmp_path):
    """An int parameter whose range reads an unbounded variable cannot be numbered: the tree then keys
    actions by option and values (no hidden cards here, so they are the same in every world)."""
    path = tmp_path / "unnumbered.yaml"
    path.write_text(UNNUMBERED, encoding="utf-8")
    game = load_game(path)
    state = game.new_initial_state(1)
    bots = [make_bot("ismcts:iterations=30", 0, 4) for _ in range(2)]
    chosen = [str(bot.choose(state.clone())) for bot in bots]
    assert game.action_ids_refused and "no known range" in game.action_ids_refused
    assert chosen[0] == chosen[1] and chosen[0] in {str(a) for a in state.legal_actions()}
    assert bots[0].iterations_done == 30 and bots[0].failed_samples == 0


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
