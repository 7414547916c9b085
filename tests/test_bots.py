"""Bots: they play every ruleset, the search bots never read what their seat cannot see, and
simulations give the same figures on one process or several."""
import random

import pytest

from interpreter import load_game
from interpreter.bots import BOTS, make_bot, play_game
from interpreter.bots.mcts import Search
from interpreter.analysis.simulation import RunSpec, run


def mid_game(seed=4, moves=14):
    """A La Famiglia position after some random moves, with a real choice to make."""
    game = load_game("la-famiglia")
    for attempt in range(seed, seed + 50):
        state = game.new_initial_state(attempt)
        rng = random.Random(attempt)
        while not state.is_terminal() and (state.moves < moves or len(state.legal_actions()) < 2):
            state.apply_action(rng.choice(state.legal_actions()))
        if not state.is_terminal():
            return game, state
    raise AssertionError("no position found")


def swapped_hidden(game, state, seat):
    """The same position for ``seat``, but two components it cannot see (and does not know the place
    of) change places."""
    bit = 1 << seat
    hidden = [(zone, i, c) for zone, cards in enumerate(state.zones) for i, c in enumerate(cards)
              if not game.visible_mask(state, zone) & bit and not state.known[c] & bit]
    (za, ia, a), (zb, ib, b) = next((x, y) for x in hidden for y in hidden
                                    if game.names[x[2]] != game.names[y[2]])
    twin = state.clone()
    twin.zones[za][ia], twin.zones[zb][ib] = b, a
    twin.loc[a], twin.loc[b] = zb, za
    twin.legal_cache = None
    assert twin.view(seat) == state.view(seat) and twin.to_json() != state.to_json()
    return twin


def test_determinize_keeps_the_players_view_and_knowledge():
    game, state = mid_game()
    seat = state.current_player()
    world = state.determinize(seat, random.Random(1))
    assert world.view(seat) == state.view(seat)
    assert sorted(map(sorted, world.zones)) != [] and sum(map(len, world.zones)) == game.num_components


@pytest.mark.parametrize("bot", ["mcts:iterations=60", "greedy:samples=2", "focus:budget=40", "ismcts:iterations=12",
                                 "ismcts:iterations=60,expand=one"])
def test_search_bots_choose_the_same_in_states_that_differ_only_in_hidden_cards(bot):
    game, state = mid_game()
    seat = state.current_player()
    twin = swapped_hidden(game, state, seat)
    first = make_bot(bot, seat, 11).choose(state)
    second = make_bot(bot, seat, 11).choose(twin)
    assert str(first) == str(second)


def test_mcts_result_depends_on_the_seed_only_through_its_own_generator():
    game, state = mid_game(seed=9)
    seat = state.current_player()
    a = Search(seat, random.Random(3), iterations=40).best_action(state.clone())
    b = Search(seat, random.Random(3), iterations=40).best_action(state.clone())
    assert str(a) == str(b)


@pytest.mark.parametrize("name", sorted(BOTS))
@pytest.mark.parametrize("ruleset", ["la-famiglia", "gangster"])
def test_every_bot_finishes_a_game(name, ruleset):
    game = load_game(ruleset, players=2)
    spec = {"mcts": "mcts:iterations=5,depth=20", "flat": "flat:rollouts=1",
            "ismcts": "ismcts:iterations=20"}.get(name, name)
    state = game.new_initial_state(2)
    play_game(state, [make_bot(spec, 0, 1), make_bot("random", 1, 2)])
    assert state.is_terminal() and state.winners()


def test_jobs_give_the_same_results_as_one_process():
    game = load_game("la-famiglia")
    spec = RunSpec(game.path, dict(game.params), game.num_players, ["greedy", "random"], 7)
    one = run(game, spec, 24, jobs=1)
    two = run(game, spec, 24, jobs=2)
    assert [(r.seed, r.winners, r.returns, r.decisions) for r in one] == \
           [(r.seed, r.winners, r.returns, r.decisions) for r in two]


HIDDEN_HANDS = """
game: {name: Hidden hands, players: 2}
components:
  card:
    name: "card {value}"
    attributes: {value: int}
    in: deck
    table: [{value: 1, count: 3}, {value: 2, count: 3}, {value: 3, count: 3}, {value: 4, count: 3}]
zones:
  deck: {visibility: count}
  hand: {per: player, visibility: owner}
  played: {per: player, visibility: all}
player_vars: {points: 0}
setup:
  - shuffle(deck)
  - for: "p in players"
    do: ["draw(deck, p.hand, 3)"]
flow:
  - repeat: 3
    do:
      - for: "p in players"
        do:
          - choose:
              player: p
              options:
                play:
                  params: {c: p.hand}
                  effects: ["move(c, p.played)", "p.points += c.value * (2 if size(p.hand) == 0 else 1)"]
scoring: {score: player.points}
"""


@pytest.mark.parametrize("bot", ["mcts:iterations=80", "greedy:samples=3", "focus:budget=60", "ismcts:iterations=12",
                                 "ismcts:iterations=60,expand=one"])
def test_search_bots_ignore_the_opponents_hidden_hand(tmp_path, bot):
    path = tmp_path / "hidden.yaml"
    path.write_text(HIDDEN_HANDS, encoding="utf-8")
    game = load_game(path)
    for seed in range(5):
        state = game.new_initial_state(seed)
        twin = swapped_hidden(game, state, 0)
        assert str(make_bot(bot, 0, seed).choose(state)) == str(make_bot(bot, 0, seed).choose(twin))


@pytest.mark.parametrize("ruleset", ["la-famiglia", "pferderennen-mafia"])
def test_a_muted_search_copy_plays_exactly_as_the_game(ruleset):
    """Search bots mute their copies (no narration is recorded there): the play is the same."""
    from interpreter.runtime.narration import mute
    game = load_game(ruleset)
    state = game.new_initial_state(3)
    copy = state.clone()
    mute(copy)
    rng = random.Random(3)
    while not state.is_terminal():
        actions, mirrored = state.legal_actions(), copy.legal_actions()
        assert [str(a) for a in actions] == [str(a) for a in mirrored]
        i = rng.randrange(len(actions))
        state.apply_action(actions[i])
        copy.apply_action(mirrored[i])
    assert copy.is_terminal() and copy.returns() == state.returns() and copy.winners() == state.winners()
    assert state.narration() and not copy.narration() and not copy.clone().narration()


@pytest.mark.parametrize("spec", ["flat", "flat:depth=200", "flat:race=1.5,follow=1", "flat:race=1,follow=1,keyed=1",
                                  "mcts:iterations=30", "lookahead",
                                  "lookahead:budget=40,policy=greedy,playouts=2,rounds=2", "lookahead:margin=1",
                                  "lookahead:margin=1,rank=1",
                                  "ismcts:iterations=12", "ismcts:iterations=30,expand=one"])
@pytest.mark.parametrize("name, players", [("gangster", 2), ("mafiadollar", 3), ("pferderennen-mafia", 4),
                                           ("la-famiglia", 2)])
def test_search_bots_decide_alike_with_rollouts_in_either_engine(spec, name, players):
    """flat, lookahead, mcts and ismcts draw their playouts from a splitmix stream in both engines (bots/rollouts.py):
    the native kernel's rollouts give the very decisions the Python engine's do."""
    from tests.conftest import require_extra, require_program
    require_extra("cffi", "native")
    require_program("gcc")
    from interpreter.native import kernel_for
    game = load_game(name, players=players)
    kernel_for(game)  # the bots would fall back to Python without it
    state, rng, chosen = game.new_initial_state(7), random.Random(7), []
    while not state.is_terminal() and len(chosen) < 4:
        actions = state.legal_actions()
        if len(actions) > 1 and rng.random() < 0.3:
            seat = state.current_player()
            sep = "," if ":" in spec else ":"
            python = make_bot(f"{spec}{sep}engine=python", seat, len(chosen)).choose(state.clone())
            native = make_bot(f"{spec}{sep}engine=native", seat, len(chosen)).choose(state.clone())
            assert str(python) == str(native), (name, spec, state.moves)
            chosen.append(str(python))
        state.apply_action(actions[rng.randrange(len(actions))])
    assert chosen


def test_the_engine_of_a_bot_is_checked():
    from dsl.errors import ParameterError
    with pytest.raises(ParameterError, match="auto, native, python"):
        make_bot("flat:engine=fortran", 0, 1)
    with pytest.raises(ParameterError, match="auto, native, python"):
        make_bot("mcts:engine=gpu", 0, 1)
