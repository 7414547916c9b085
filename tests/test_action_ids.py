"""Action ids (interpreter/runtime/action_ids.py): over random games of every shipped ruleset and player
count, every legal action has an id that maps back to it, no two legal actions share one, the ids
agree between a state and its determinizations for the decider, and in a staged space walking the
stages from the empty prefix reaches every legal action exactly once."""
from __future__ import annotations

import random

import pytest

from conftest import RULESETS, TEST_GAMES, player_counts
from interpreter import load_game
from interpreter.runtime.action_ids import FLAT_LIMIT

CASES = [(path, n) for path in RULESETS + TEST_GAMES for n in sorted({player_counts(path)[0], player_counts(path)[-1]})]
DECISIONS = 150


def _walk(state, prefix=()):
    """Every complete stage-id tuple reachable from ``prefix``."""
    table = state.game.action_space().legal_table(state)
    if prefix in table:
        return [prefix]
    found = []
    for i in state.legal_action_ids(prefix):
        found += _walk(state, prefix + (i,))
    return found


@pytest.mark.parametrize("path,players", CASES, ids=lambda v: getattr(v, "stem", str(v)))
def test_action_ids_round_trip_distinct_and_stable(path, players):
    game = load_game(path, players=players)
    space = game.action_space()
    assert game.num_distinct_actions() == space.size > 0
    assert space.staged == (space.flat_size > FLAT_LIMIT)
    for seed in range(2):
        state = game.new_initial_state(seed)
        rng = random.Random(seed)
        for _ in range(DECISIONS):
            if state.is_terminal():
                break
            actions = state.legal_actions()
            ids = [state.action_id(a) for a in actions]
            assert len(set(ids)) == len(ids)
            if not space.staged:  # the table's numbering in line (ActionSpace._plan) is flat_id's
                assert all(i >= space.copy_base or i == space.flat_id(state, a) for a, i in zip(actions, ids))
            for action, i in zip(actions, ids):
                assert state.action_from_id(i) == action
                flat = [i] if not space.staged else list(i)
                assert all(0 <= x < game.num_distinct_actions() for x in flat)
            if space.staged:
                assert sorted(_walk(state)) == sorted(ids)
                assert state.legal_action_ids() == sorted({i[0] for i in ids})
            else:
                assert state.legal_action_ids() == sorted(ids)
                for _ in range(2):  # the second time from the remembered legal sets (legal_numbering)
                    numbered, where, legal = space.legal_numbering(state)
                    assert numbered == sorted(ids) and legal is actions
                    assert {i: legal[p] for i, p in where.items()} == space.legal_table(state)
            twin = state.determinize(state.current_player(), random.Random(rng.random()))
            assert sorted(map(repr, (twin.action_id(a) for a in twin.legal_actions()))) == sorted(map(repr, ids))
            state.apply_action(rng.choice(actions))


def test_identical_cards_share_an_id_and_ids_name_meaning():
    """Two interchangeable cards in different games give the same id; ids read as their meaning."""
    game = load_game("la-famiglia")
    space = game.action_space()
    texts = {}
    for seed in range(5):
        state = game.new_initial_state(seed)
        for action in state.legal_actions():
            texts.setdefault(state.action_id(action), set()).add(str(action))
    for i, seen in texts.items():
        assert len(seen) == 1
        assert space.describe_id(i).split()[0] in {"refresh", "keep_street", "take", "pass", "recruit",
                                                   "play_buchhalter", "no_buchhalter", "play_brutale",
                                                   "no_brutale", "exhaust", "take_back", "give",
                                                   "stop_exchanging"}


def test_int_parameter_range_is_inferred_from_bounded_values():
    """Pferderennen's `buy n` ranges over range(0, most + 1), `most` a min() bounded by a define."""
    space = load_game("pferderennen-mafia", players=4).action_space()
    buy = next(o for o in space.options if o[1] == "buy")
    assert buy[2] == [("int", 0, 13)]
    famiglia = load_game("la-famiglia").action_space()
    brutale = next(o for o in famiglia.options if o[1] == "play_brutale")
    assert brutale[2][2] == ("int", 1, 4)  # by: range(1, min(card.rank, ...) + 1), ranks 0..4


LOOP_VARIABLE = """\
game:
  name: Loop variable ranges
  players: {min: 2, max: 2, default: 2}
vars:
  total: 0
flow:
  - let k = 0
  - total = k
  - for: k in range(3, 6)
    do:
      - choose:
          prompt: "pick"
          options:
            take:
              params: {n: "range(k, k + 1)"}
              effects: [total += n]
scoring:
  score: total
"""


def test_a_loop_variable_ranges_over_its_source_even_when_a_let_shares_its_name(tmp_path):
    """`k` is bound by `let k = 0` and by the loop over range(3, 6): `take n` is numbered 0 .. 5,
    not 0 .. 0 (which made `take 3` an action without an id)."""
    path = tmp_path / "loop.yaml"
    path.write_text(LOOP_VARIABLE, encoding="utf-8")
    game = load_game(path)
    take = next(o for o in game.action_space().options if o[1] == "take")
    assert take[2] == [("int", 0, 5)]
    state = game.new_initial_state(seed=1)
    taken = []
    while not state.is_terminal():
        (action,) = state.legal_actions()
        assert state.action_from_id(state.action_id(action)) == action
        taken.append(str(action))
        state.apply_action(action)
    assert taken == ["take 3", "take 4", "take 5"]

COUNTER = """\
game:
  name: Range bomb
  players: {min: 2, max: 2, default: 2}
vars:
  total: 0
flow:
  - let k = 0
  - k = k + 1
  - k = k * 2
  - k = k - 1
  - choose:
      prompt: "pick"
      options:
        take:
          params: {n: "range(0, k + 2)"}
          effects: [total += n]
scoring:
  score: total
"""


def test_a_counter_that_feeds_on_itself_has_no_range_and_is_found_quickly(tmp_path):
    """`k = k + 1`, `k = k * 2`, `k = k - 1`: each binding of `k` refers to `k` again; inferring it
    once per name keeps the work linear (it was exponential in the number of bindings)."""
    path = tmp_path / "counter.yaml"
    path.write_text(COUNTER, encoding="utf-8")
    game = load_game(path)
    with pytest.raises(Exception, match="'n' of option 'take' has no known range"):
        game.num_distinct_actions()


def test_remembered_ids_are_the_ids_a_fresh_numbering_gives():
    """The ids an action space remembers by option and values (ActionSpace._known_ids) are those a
    new action space, remembering nothing, gives at every decision of random games."""
    from interpreter.runtime.action_ids import ActionSpace

    for name in ("tic-tac-toe", "goofspiel", "liars-dice", "leduc-poker"):
        game = load_game(f"rulesets/classic/{name}.yaml")
        space = game.action_space()
        for seed in range(5):
            rng = random.Random(seed)
            state = game.new_initial_state(seed)
            while not state.is_terminal():
                table = space.legal_table(state)
                assert table == ActionSpace(game).legal_table(state)
                assert space.legal_ids(state) == sorted(table)
                state.apply_action(table[rng.choice(sorted(table))])
        assert space._known_ids  # the ids were remembered, and kept giving the same answers


PLAIN_OPTIONS = """\
game:
  name: Plain options
  players: {min: 2, max: 2, default: 2}
vars:
  round: 0
  total: 0
flow:
  - while: round < 7
    do:
      - choose:
          prompt: "pick"
          options:
            a: {effects: [total += 1]}
            b: {require: round != 1, effects: [total += 2]}
            c: {require: round == 1 or round == 2 or round >= 4, effects: [total += 3]}
            d: {require: round == 3 or round == 4 or round == 6, effects: [total += 4]}
            e: {require: round == 5 or round == 6, effects: [total += 5]}
      - round += 1
scoring:
  score: total
"""


def test_a_space_of_parameterless_options_names_legal_sets_by_their_options(tmp_path):
    """Where no option has a numbered parameter, legal_numbering remembers a legal set by the options
    of its actions: the same ids and positions as a fresh numbering, for sets of two, three and more
    that begin alike (a b / a c, a b c / a b d, a b c d / a b c e, a b c d e)."""
    from interpreter.runtime.action_ids import ActionSpace

    path = tmp_path / "plain.yaml"
    path.write_text(PLAIN_OPTIONS, encoding="utf-8")
    game = load_game(path)
    space = game.action_space()
    assert space._by_option
    sizes = []
    for seed in range(2):
        state = game.new_initial_state(seed)
        while not state.is_terminal():
            fresh = ActionSpace(game).legal_table(state)
            for _ in range(2):  # the second time from the remembered set
                ids, where, legal = space.legal_numbering(state)
                assert ids == sorted(fresh) and {i: legal[p] for i, p in where.items()} == fresh
            sizes.append(len(legal))
            state.apply_action(legal[-1] if seed else legal[0])
    assert sizes == [2, 2, 3, 3, 4, 4, 5] * 2
