"""Explicit chance (interpreter/runtime/chance.py): every random event as a chance node.

Every ruleset plays to its end in explicit mode with chance outcomes and actions drawn at random: chance
nodes list uniform outcomes and are the chance player's (-1), every state round-trips through JSON and
shows every seat its view without asking chance.  Shuffles are lazy (interpreter/runtime/lazy_pile.py): a deal
asks one question per card dealt, the rest of a pile stays undetermined, and the order it gives is
uniform.
"""
from __future__ import annotations

import itertools
import random

import pytest

from conftest import ROOT, RULESETS, player_counts
from interpreter import load_game
from interpreter.runtime.chance import CHANCE
from interpreter.runtime.lazy_pile import LazyPile

SEEDS = 3
DECISIONS = 120


def resolve(state, rng: random.Random) -> int:
    nodes = 0
    while state.is_chance_node():
        listed = state.chance_outcomes()
        assert state.current_player() == CHANCE
        assert sum(p for _, p in listed) == pytest.approx(1.0) and len(listed) >= 2
        assert [o for o, _ in listed] == state.legal_actions()
        state.apply_action(rng.choice(listed)[0])
        nodes += 1
    return nodes


def check(state) -> None:
    """Between steps nothing needs chance: the JSON, every seat's view and the legal actions."""
    copy = state.game.state_from_json(state.to_json())
    assert copy == state
    for seat in [None, *range(state.game.num_players)]:
        state.view(seat)
    state.legal_actions()


CASES = [(path, players) for path in RULESETS for players in player_counts(path)[:1]]


@pytest.mark.parametrize("path,players", CASES, ids=[f"{p.stem}-{n}" for p, n in CASES])
def test_every_ruleset_plays_in_explicit_chance_mode(path, players):
    game = load_game(path, players=players)
    for seed in range(SEEDS):
        rng = random.Random(seed)
        state = game.new_initial_state(seed, explicit_chance=True)
        resolve(state, rng)
        for _ in range(DECISIONS):
            check(state)
            if state.is_terminal():
                break
            state.apply_action(rng.choice(state.legal_actions()))
            resolve(state, rng)
        check(state)


def test_a_deal_asks_one_question_per_card_and_leaves_the_rest_undetermined():
    game = load_game("rulesets/classic/leduc-poker.yaml")
    state = game.new_initial_state(0, explicit_chance=True)
    counts = []
    while state.is_chance_node():
        counts.append(len(state.chance_outcomes()))
        state.apply_action(0)
    assert counts == [6, 5]  # one private card each, as OpenSpiel deals them
    deck = state.zones[game.zone_names.index("deck")]
    assert type(deck) is LazyPile and deck.undetermined() == 4
    state.apply_action("call")
    state.apply_action("call")
    assert len(state.chance_outcomes()) == 4  # the public card, when it is turned up
    state.apply_action(3)
    assert state.to_dict()["chance"].get("undetermined") == {"0": [0, 3]}


def test_a_lazy_shuffle_orders_a_pile_uniformly():
    """Every chance path of drawing a whole shuffled four-card pile: each of the 24 orders once, p = 1/24."""
    game = load_game("rulesets/classic/leduc-poker.yaml")
    state = game.new_initial_state(0, explicit_chance=True)
    while state.is_chance_node():
        state.apply_action(0)
    pile = state.zones[0]
    orders: dict = {}

    def walk(outcomes, p):
        copy = LazyPile(list.__getitem__(pile, slice(None)), None, pile.lo, pile.hi)
        feed = iter(outcomes)

        class Chance:
            @staticmethod
            def next(count):
                try:
                    return next(feed)
                except StopIteration:
                    raise LookupError(count)
        copy.state = type("S", (), {"chance": Chance})
        try:
            order = tuple(copy.pop() for _ in range(4))
        except LookupError as need:
            for j in range(need.args[0]):
                walk(outcomes + [j], p / need.args[0])
            return
        orders[order] = orders.get(order, 0) + p
    walk([], 1.0)
    assert sorted(orders) == sorted(itertools.permutations(list.__getitem__(pile, slice(None))))
    assert all(p == pytest.approx(1 / 24) for p in orders.values())


def test_a_chance_node_round_trips_through_json():
    game = load_game("rulesets/classic/leduc-poker.yaml")
    state = game.new_initial_state(0, explicit_chance=True)
    state.apply_action(state.chance_outcomes()[4][0])
    copy = game.state_from_json(state.to_json())
    assert copy == state and copy.is_chance_node()
    assert [p for _, p in copy.chance_outcomes()] == [0.2] * 5
    copy.apply_action(0)
    state.apply_action(0)
    assert copy == state


def test_an_outcome_of_another_node_is_illegal():
    from interpreter import IllegalActionError
    game = load_game("rulesets/classic/kuhn-poker.yaml")
    state = game.new_initial_state(0, explicit_chance=True)
    with pytest.raises(IllegalActionError):
        state.apply_action(7)
    assert state.is_chance_node() and len(state.chance_outcomes()) == 3

PILES = """
game: {name: Piles, players: 1}
components:
  card:
    name: "c{n}"
    attributes: {n: int}
    in: deck
    table: [{n: 1, count: 1}, {n: 2, count: 1}, {n: 3, count: 1}, {n: 4, count: 1}, {n: 5, count: 1}]
zones:
  deck: {visibility: none}
  pile: {visibility: none}
  hand: {per: player, visibility: owner}
setup:
  - shuffle(deck)
  - move_all(deck, pile)
  - shuffle(pile)
flow:
  - while: "size(pile) > 2"
    do:
      - choose:
          player: players[0]
          options:
            draw: {effects: ["draw(pile, players[0].hand)"]}
scoring:
  score: "0"
"""


def test_size_moving_the_whole_pile_and_shuffling_again_ask_no_chance(tmp_path):
    path = tmp_path / "piles.yaml"
    path.write_text(PILES)
    state = load_game(path).new_initial_state(0, explicit_chance=True)
    assert not state.is_chance_node()
    assert state.to_dict()["chance"]["undetermined"] == {"1": [0, 5]}
    counts = []
    while not state.is_terminal():
        state.apply_action("draw")
        while state.is_chance_node():
            counts.append(len(state.chance_outcomes()))
            state.apply_action(0)
    assert counts == [5, 4, 3]  # one question per card drawn; the last two never ordered
    assert state.to_dict()["chance"]["undetermined"] == {"1": [0, 2]}


def test_a_saved_state_with_a_wrong_undetermined_block_is_refused():
    from interpreter import RulebookError
    game = load_game("rulesets/classic/kuhn-poker.yaml")
    state = game.new_initial_state(0, explicit_chance=True)
    while state.is_chance_node():
        state.apply_action(0)
    data = state.to_dict()
    assert "undetermined" not in data["chance"]  # the one card left has one place
    for blocks in ({"0": [0, 5]}, {"9": [0, 1]}, {"x": [0, 1]}):
        data["chance"]["undetermined"] = blocks
        with pytest.raises(RulebookError, match="undetermined"):
            game.state_from_json(data)


def test_the_arrangement_of_a_new_game_survives_the_chance_nodes_of_its_setup():
    """``arrange`` runs after setup, so in explicit mode it runs once setup's outcomes are all known
    (the setup is run again with each outcome, with the arrangement each time)."""
    from interpreter.runtime.positions import arrange

    game = load_game("classic/kuhn-poker")
    position = {"zones": {"hand[P1]": ["K"], "hand[P2]": ["J"]}, "player_vars": {"paid": {"P2": 3}}}
    state = game.new_initial_state(0, arrange=lambda s: arrange(s, position), explicit_chance=True)
    assert state.is_chance_node()
    copy = state.clone()
    resolve(state, random.Random(1))
    assert [game.names[c] for c in state.zones[game.zone_names.index("hand[P1]")]] == ["K"]
    assert [game.names[c] for c in state.zones[game.zone_names.index("hand[P2]")]] == ["J"]
    assert state.pvars["paid"] == [1, 3]
    resolve(copy, random.Random(2))  # a copy taken at the node keeps the arrangement too
    assert copy.pvars["paid"] == [1, 3]


def test_only_rules_that_draw_chance_after_the_setup_count_as_chance_in_play():
    from interpreter.runtime.chance import chance_in_play
    assert chance_in_play(load_game(ROOT / "rulesets" / "examples" / "pig.yaml"))  # roll() in an option
    assert not chance_in_play(load_game(ROOT / "rulesets" / "classic" / "kuhn-poker.yaml"))  # shuffle in the setup only
    assert not chance_in_play(load_game(ROOT / "rulesets" / "classic" / "tic-tac-toe.yaml"))


@pytest.mark.parametrize("name", ["classic/kuhn-poker", "classic/goofspiel", "classic/leduc-poker",
                                  "classic/liars-dice"])
def test_an_action_run_on_the_state_itself_gives_what_a_run_on_a_copy_gives(name, monkeypatch):
    """On the state itself: as in seeded mode where no chance can come, else with a resume point
    (interpreter/runtime/chance_points.py); on a copy: the state before each action kept to go back
    to.  The decisions and the ends reached are the same, outcome for outcome."""
    from interpreter.runtime import chance
    game = load_game(ROOT / "rulesets" / f"{name}.yaml")

    def play(seed):
        rng, state, states = random.Random(seed), game.new_initial_state(seed, explicit_chance=True), []
        while not state.is_terminal():
            resolve(state, rng)
            states.append(state.to_json())
            if not state.is_terminal():
                state.apply_action(rng.choice(state.legal_actions()))
        return states

    in_place = [play(seed) for seed in range(20)]
    monkeypatch.setattr(chance, "_run_on_itself", lambda s, action: False)
    assert in_place == [play(seed) for seed in range(20)]


def leduc_at_the_public_card():
    """Leduc poker dealt, and both players' calls, the second of which turns up the public card."""
    game = load_game("rulesets/classic/leduc-poker.yaml")
    state = game.new_initial_state(0, explicit_chance=True)
    while state.is_chance_node():
        state.apply_action(0)
    state.apply_action("call")
    return game, state


def test_only_the_instructions_that_may_read_a_zone_or_roll_are_resume_points():
    from interpreter.runtime.instructions import CHOOSE
    game, _ = leduc_at_the_public_card()
    points = game.chance_points()
    assert points.safe  # no decision of Leduc poker reads a zone to list its actions
    flow = game.codes[game.flow_proc]
    marked = sorted(pc for proc, pc in points.points if proc == game.flow_proc)
    assert marked and len(marked) < len(flow) / 4  # the turn of the card and the showdown, not the bets
    for pc in marked:
        assert points.codes[game.flow_proc][pc][1] is not flow[pc][1]  # wrapped: it tells the feeder first
    assert not load_game("rulesets/classic/goofspiel.yaml").chance_points().safe  # its bids are the cards in hand
    assert all(ins[0] != CHOOSE or ins is flow[pc] for pc, ins in enumerate(points.codes[game.flow_proc]))


def test_a_bet_copies_nothing_and_the_call_that_turns_up_a_card_copies_once(monkeypatch):
    from interpreter.runtime.state import State
    game, state = leduc_at_the_public_card()
    copies = []
    clone = State.clone
    monkeypatch.setattr(State, "clone", lambda s: copies.append(1) or clone(s))
    bet = state.clone()
    copies.clear()
    bet.apply_action("raise")
    assert copies == [] and not bet.is_chance_node()
    state.apply_action("call")
    assert copies == [1] and state.is_chance_node() and len(state.chance_outcomes()) == 4
    record = state.chance  # the node is the copy, taken where the card is turned up
    assert record.resume and tuple(record.before.stack[-1][:2]) in game.chance_points().points


def test_a_chance_node_at_a_resume_point_round_trips_and_goes_on_alike():
    game, state = leduc_at_the_public_card()
    state.apply_action("call")
    assert state.chance.resume and state.pvars["paid"] == [1, 1]  # the node shows the call made
    data = state.to_dict()
    assert data["chance"]["resume"] is True and data["chance"]["action"] is None
    for outcome in range(4):
        loaded, copy = game.state_from_json(data), state.clone()
        assert loaded == state and loaded.chance.resume
        loaded.apply_action(outcome)
        copy.apply_action(outcome)
        assert loaded == copy and not loaded.is_chance_node() and loaded.legal_actions()


def test_a_saved_resume_point_must_stand_where_chance_may_come():
    from interpreter import RulebookError
    game, state = leduc_at_the_public_card()
    state.apply_action("call")
    data = state.to_dict()
    data["chance"]["before"]["stack"][-1][1] = 6  # an option's block: no point is ever taken there
    with pytest.raises(RulebookError, match="resume point"):
        game.state_from_json(data)


def test_taking_over_a_state_shares_every_field_of_it():
    from interpreter.runtime.state import State
    _, state = leduc_at_the_public_card()
    other = state.clone()
    other.apply_action("raise")
    state.take_over(other)
    assert all(getattr(state, field) is getattr(other, field) for field in State.FIELDS)


def test_a_copy_of_an_explicit_chance_state_is_freed_without_the_cycle_collector():
    import gc
    import weakref
    _, state = leduc_at_the_public_card()
    assert type(state.zones[0]) is LazyPile and state.zones[0].undetermined() == 4
    gc.disable()
    try:
        copy = state.clone()
        gone = weakref.ref(copy)
        del copy
        assert gone() is None  # a lazy pile refers to its state weakly: no reference cycle
    finally:
        gc.enable()
