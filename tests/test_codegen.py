"""The generated code (interpreter/codegen/generator.py, codegen/actions.py) against the closure compiler.

Both compile the same checked ruleset; seeded random games must go the same way in both: the same
legal actions (texts included) at every decision and the same state after every action.  A few
games per ruleset (at its smallest and largest player count) run here; ``RULEBOOK_DIFFERENTIAL``
(a number of games) or ``RULEBOOK_SLOW=1`` (the ``slow`` tests: 2,000 games per ruleset and player
count) give a longer run.
"""
from __future__ import annotations

import os
import random

import pytest

from conftest import RULESETS, player_counts
from dsl.loader import load_ruleset
from dsl.registry import EFFECTS, FUNCTIONS
from interpreter.game import Game, find_base
from interpreter.store.saved_state import SavedStateError

GAMES = int(os.environ.get("RULEBOOK_DIFFERENTIAL", "12"))


def _pair(path, players):
    ruleset = load_ruleset(path, FUNCTIONS, EFFECTS, None, players, find=find_base)
    reference = Game(load_ruleset(path, FUNCTIONS, EFFECTS, None, players, find=find_base), path, codegen=False)
    return Game(ruleset, path, codegen=True), reference


def _same_game(generated, reference, seed, check_texts) -> int:
    a, b = generated.new_initial_state(seed), reference.new_initial_state(seed)
    rng = random.Random(seed)
    decisions = 0
    while not a.is_terminal():
        assert not b.is_terminal(), f"seed {seed}: the reference ended first"
        left, right = a.legal_actions(), b.legal_actions()
        assert len(left) == len(right), f"seed {seed}, decision {decisions}"
        assert [(x.option.index, x.values) for x in left] == [(y.option.index, y.values) for y in right]
        if check_texts:
            assert [str(x) for x in left] == [str(y) for y in right]
        k = rng.randrange(len(left))
        a.apply_action(left[k])
        b.apply_action(right[k])
        assert a.to_dict() == b.to_dict(), f"seed {seed}, after decision {decisions}"
        decisions += 1
    assert b.is_terminal()
    assert a.returns() == b.returns()
    return decisions


SLOW = [pytest.mark.slow, pytest.mark.skipif(not os.environ.get("RULEBOOK_SLOW"),
                                             reason="a slow test: run with RULEBOOK_SLOW=1")]


def _cases(slow: bool):
    for path in RULESETS:
        counts = player_counts(path)
        for players in (counts if slow else sorted({counts[0], counts[-1]})):
            yield pytest.param(path, players, id=f"{path.stem}-{players}p", marks=SLOW if slow else [])


@pytest.mark.parametrize("path, players", list(_cases(False)))
def test_generated_code_plays_like_the_closures(path, players):
    generated, reference = _pair(path, players)
    games = max(3, GAMES // 2)
    for seed in range(games):
        _same_game(generated, reference, seed, check_texts=seed < 2)


@pytest.mark.parametrize("path, players", list(_cases(True)))
def test_generated_code_plays_like_the_closures_long(path, players):
    generated, reference = _pair(path, players)
    for seed in range(1000, 1000 + 2000 // len(player_counts(path))):
        _same_game(generated, reference, seed, check_texts=False)


@pytest.mark.parametrize("failing", ["active.score += card.value // 0", "active.score += top(table).value // 0"])
def test_an_error_inside_a_generated_block_names_its_statement(tmp_path, failing):
    """Statements run as one generated block still fail at their own line and column."""
    from conftest import MINIMAL
    from interpreter import RulebookError
    text = MINIMAL.read_text(encoding="utf-8")
    text = text.replace("                - active.score += card.value\n",
                        "                - active.score += card.value\n                - " + failing + "\n", 1)
    path = tmp_path / "fails.yaml"
    path.write_text(text, encoding="utf-8")
    line = text.splitlines().index("                - " + failing) + 1
    game = Game(load_ruleset(path, FUNCTIONS, EFFECTS, None, None, find=find_base), path, codegen=True)
    from interpreter.runtime.instructions import BLOCKS
    assert any(ins[0] in BLOCKS for code in game.codes for ins in code), "a block is generated"
    state = game.new_initial_state(0)
    with pytest.raises(RulebookError) as info:
        state.apply_action(next(a for a in state.legal_actions() if a.name == "play"))
    assert info.value.position.line == line and "division by zero" in info.value.message


@pytest.mark.parametrize("path", RULESETS, ids=lambda p: p.stem)
def test_jumps_go_straight_to_where_their_chain_ends(path):
    """No jump lands on another jump, and no unconditional one on a return
    (compile_statements._thread_jumps)."""
    from interpreter.runtime.instructions import JUMP, JUMPF, RET
    game = Game(load_ruleset(path, FUNCTIONS, EFFECTS, None, None, find=find_base), path, codegen=True)
    for code in game.codes:
        for ins in code:
            target = ins[1] if ins[0] == JUMP else ins[2] if ins[0] == JUMPF else None
            if target is not None:
                assert code[target][0] not in (JUMP, RET) or (ins[0] == JUMPF and code[target][0] == RET)


GRID_DOMAINS = """\
game:
  name: Grid domains
  players: 2

components:
  stone:
    name: "{colour} stone"
    attributes:
      colour: [black, white]
    table:
      - {colour: black, count: 6, in: black_supply}
      - {colour: white, count: 6, in: white_supply}

zones:
  board: {grid: {rows: 3, columns: 3}, visibility: all}
  black_supply: {visibility: all}
  white_supply: {visibility: all}

vars:
  turns: {type: int, initial: 0}

define:
  supply_of(p): "black_supply if p == 0 else white_supply"
  full(line): "all(at(x) != none for x in line)"
  free_cells(): "[c for c in cells(board) if at(c) == none]"

flow:
  - while: turns < 14 and size(board) < size(cells(board))
    do:
      - turns += 1
      - choose:
          prompt: "Play"
          options:
            place:
              text: "place at {cell}"
              params: {cell: "free_cells()"}
              effects: ["place(top(supply_of(active)), cell)"]
            slide:
              text: "slide {stone} from {from} to {to}"
              params:
                stone: "[s for s in board if not any(full(l) for l in lines_through(s.cell))]"
                from: "[stone.cell]"
                to: "[n for n in neighbors(stone.cell) if at(n) == none]"
              effects: ["place(stone, to)"]
            look:
              text: "look at {what} beside {centre}"
              params:
                centre: "[c for c in cells(board) if at(c) != none]"
                what: "[at(n) for n in neighbors(centre)]"
              require: "what == none or what.colour != 'black' or turns > 3"
              effects: []
            neighbour:
              text: "greet {other}"
              params:
                other: "[at(n) for n in neighbors(cell_at(board, 2, 2)) if at(n) != none]"
              effects: []
            pair:
              text: "pair {a} with {b}"
              params:
                a: "[c for c in cells(board) if at(c) != none]"
                b: >-
                  [x for x in neighbors(a)
                   if row(x) == row(a) + 0 * size([y for y in board if y != at(a) and at(a).colour == y.colour])
                   and (size(board) > 100 and 10 // (turns - turns) > 0 or turns >= 0)]
              effects: []
            beside:
              text: "{where} beside {who}"
              params:
                who: "[at(n) for n in neighbors(cell_at(board, 2, 2))]"
                where: "[c for c in cells(board) if who != none and who.colour == 'black' and at(c) == none]"
              effects: []
            line:
              text: "count line {line}"
              params:
                line: "[l for l in lines_through(cell_at(board, 1, 1)) if not full(l)]"
              effects: ["turns += size(line) - 3"]
            supply:
              text: "show {stone}"
              params: {stone: "supply_of(active)"}
              require: >-
                (all(not full(l) for l in lines_through(cell_at(board, 2, 2)) if size(l) == 3) or turns > 8)
                and any(l[0] == stone.cell for l in lines_through(cell_at(board, 1, 1))) == false
                and count(l for l in lines_through(cell_at(board, 2, 2)) if l == lines_through(cell_at(board, 1, 2))[1] or full(l)) < 2
              effects: []
      - active = next_player(active)

scoring:
  score: "size([s for s in board if s.colour == 'black']) if player == 0 else size([s for s in board if s.colour == 'white'])"
"""


def test_special_domains_of_generated_enumerators_play_like_the_closures(tmp_path):
    """Domains the generated enumerators bind without a loop (``[stone.cell]``) or without a set of
    tried keys (components on distinct cells, distinct cells), the table of lines read for a line
    that is only iterated, the shapes that keep the general path (``at(n)`` that may be none
    twice, lines used as values), and parts computed once per binding of an outer parameter
    (``row(a) + ...`` in the test of each neighbour; a division by zero that is never reached
    stays unreached; the colour of a parameter that may be none is not read before the test
    that it is not, ``beside``): the same actions and texts as the closure compiler's."""
    path = tmp_path / "grid-domains.yaml"
    path.write_text(GRID_DOMAINS, encoding="utf-8")
    generated, reference = _pair(path, 2)
    for seed in range(30):
        assert _same_game(generated, reference, seed, check_texts=True) > 0


@pytest.mark.parametrize("rows, refused", [(64, True), (6, False)])
def test_a_nest_over_grid_tables_counts_unless_it_cannot_reach_the_budget(tmp_path, rows, refused):
    """A nest of comprehensions over a grid's cells is counted against the budget where it could
    reach it (64×64 cells: 4,096 × 4,096 iterations) and refused there as by the closures; a
    smaller one (6×6) cannot reach it and plays."""
    from interpreter import RulebookError
    text = GRID_DOMAINS.replace("grid: {rows: 3, columns: 3}", f"grid: {{rows: {rows}, columns: {rows}}}")
    text = text.replace('params: {cell: "free_cells()"}',
                        'params: {cell: "[c for c in free_cells() if any(d == c for d in cells(board))]"}')
    path = tmp_path / "nest.yaml"
    path.write_text(text, encoding="utf-8")
    for game in _pair(path, 2):
        if refused:
            with pytest.raises(RulebookError, match="comprehension iterations"):
                game.new_initial_state(0).legal_actions()
        else:
            assert any(a.name == "place" for a in game.new_initial_state(0).legal_actions())


def test_a_search_among_indices_from_a_table_of_the_game_reads_them_with_one_getter():
    """``any(at(n) == none for n in neighbors(c))`` is ``None in G[c](cells)``, ``G`` the table of
    neighbours with each tuple of cells replaced by its ``itemgetter`` (one cell is asked twice to
    give a tuple, none gives ``()``); only nests of tuples (or lists) of whole numbers ≥ 0 get one."""
    from interpreter.codegen.comprehensions import _level, _twin
    table = [(1, 3), (0,), (), (0, 1, 2)]
    cells = [None, "a", "b", None]
    assert _level(table) == 2 and _level([table, table]) == 3 and _level((4, 5)) == 1
    assert [None in getter(cells) for getter in _twin(table)] == [any(cells[i] is None for i in t) for t in table]
    assert [("a" in getter(cells)) for getter in _twin(table)] == [True, False, False, True]
    for refused in ([(1, 2), ((1,),)], [(True,)], [(-1,)], [(1, None)], "ab", 3):
        assert _level(refused) is None


@pytest.mark.parametrize("condition, looped, fails", [
    ("not any(10 // (c.value - c.value) > 0 for c in active.hand)", {"any"}, True),
    ("all(c.value > 0 for c in active.hand) and not any(c.value > 2 for c in pile)", {"all"}, False),
    ("any(c.value == 2 for c in active.hand if c.value > 1) or size(pile) > 100", {"any"}, False),
])
def test_a_condition_searching_a_list_runs_its_search_as_a_loop(tmp_path, condition, looped, fails):
    """``any``/``all`` over a generator that a condition always computes first is a ``for`` loop
    before its ``return`` (CodeGen.searches_as_loops; a search computed only sometimes, after
    ``and``, stays as it is): the same decisions as the closures, and an error inside the search
    still names the condition's rule."""
    from conftest import MINIMAL
    from interpreter import RulebookError
    text = MINIMAL.read_text(encoding="utf-8").replace("  - while: not empty(pile)\n",
                                                       f"  - while: ({condition}) and not empty(pile)\n", 1)
    path = tmp_path / "searches.yaml"
    path.write_text(text, encoding="utf-8")
    line = next(i for i, t in enumerate(text.splitlines(), 1) if t.startswith("  - while:"))
    generated, reference = _pair(path, 2)
    from interpreter.runtime.instructions import JUMPF
    test = next(ins[1] for code in generated.codes for ins in code if ins[0] == JUMPF and ins[-1].line == line)
    test.__globals__["_flush"]()  # compile the pending generated functions
    assert not looped & set(test.__code__.co_names), "the search is a loop"
    if fails:
        for game in (generated, reference):
            with pytest.raises(RulebookError) as info:
                game.new_initial_state(0)
            assert info.value.position.line == line and "division by zero" in info.value.message
        return
    for seed in range(20):
        _same_game(generated, reference, seed, check_texts=True)


@pytest.mark.parametrize("condition, fails", [
    ("any(c.value == 2 for c in active.hand) and size(pile) > 2", False),
    ("not all(10 // (c.value - c.value) > 0 for c in active.hand)", True),
])
def test_an_if_inside_a_generated_block_runs_its_search_as_a_loop(tmp_path, condition, fails):
    """The same for the test of an ``if`` inside a generated block of statements."""
    from conftest import MINIMAL
    from interpreter import RulebookError
    statement = f"                - if: {condition}\n                  then: [active.score += 1]\n"
    text = MINIMAL.read_text(encoding="utf-8").replace("                - card.played = true\n",
                                                       "                - card.played = true\n" + statement, 1)
    path = tmp_path / "block-searches.yaml"
    path.write_text(text, encoding="utf-8")
    line = text.splitlines().index(statement.splitlines()[0]) + 1
    generated, reference = _pair(path, 2)
    from interpreter.runtime.instructions import BLOCKS
    assert any(ins[0] in BLOCKS for code in generated.codes for ins in code), "a block is generated"
    if fails:
        for game in (generated, reference):
            state = game.new_initial_state(0)
            with pytest.raises(RulebookError) as info:
                state.apply_action(next(a for a in state.legal_actions() if a.name == "play"))
            assert info.value.position.line == line and "division by zero" in info.value.message
        return
    for seed in range(20):
        _same_game(generated, reference, seed, check_texts=True)


PART_DOMAINS = """\
game:
  name: Domains made of parts
  players: 2
params:
  jokers: {default: 1, min: 0, max: 1}
components:
  card:
    name: "{colour} {value}"
    attributes:
      colour: [red, blue]
      value: int
    marks: {tapped: false}
    table:
      - {colour: red, value: 1, count: 3, in: pile}
      - {colour: red, value: 2, count: 3, in: pile}
      - {colour: blue, value: 1, count: 2, in: pile}
      - {colour: blue, value: 3, count: 4, in: pile}
zones:
  pile: {visibility: count}
  table: {visibility: all}
  hand: {per: player, visibility: owner}
vars:
  turns: {type: int, initial: 0}
define:
  spares(): "[c for c in table if c.value == 1] + ([c for c in table if c.tapped] if turns > 4 else [c for c in table if c.value > 1])"
setup:
  - shuffle(pile)
  - repeat: num_players
    do:
      - draw(pile, active.hand, 4)
      - active = next_player(active)
flow:
  - while: turns < 14 and not empty(pile)
    do:
      - turns += 1
      - choose:
          prompt: "Parts"
          options:
            pair:
              text: "pair {card} with {other}"
              params:
                card: "[c for c in active.hand if c.value <= 2]"
                other: >-
                  [h for h in active.hand if h != card and h.colour == card.colour]
                  + ([h for h in table if h.value >= card.value]
                     if count(x for x in active.hand if x.value == card.value) == 1 else [])
                  + ([h for h in pile if 10 // (turns - turns) > 0] if size(table) > 100 else [])
                  + table
              effects: ["move(card, table)", other.tapped = true]
            grab:
              text: "grab {spare}"
              params: {spare: "spares()"}
              effects: ["move(spare, active.hand)"]
            value:
              text: "choose {value}"
              params:
                value: "([1, 2] if jokers == 1 else [c.value for c in table]) + ([3, 1] if turns > 3 else [turns])"
              effects: []
            pass:
              effects: ["draw(pile, active.hand)"]
      - choose:
          prompt: "Lists"
          options:
            swap:
              text: "swap {card} for {spare}"
              params:
                card: active.hand
                spare: "spares()"
              effects: ["move(card, table)", "move(spare, active.hand)"]
            range:
              text: "count {number}"
              params: {number: "range(0, size(table)) + [0]"}
              effects: []
            checked:
              text: "mark {card} and {other}"
              params:
                card: active.hand
                other: "[h for h in table if not h.tapped] + [h for h in active.hand if h != card]"
              require: "other.value != card.value or turns > 5"
              effects: [other.tapped = true]
            pass:
      - active = next_player(active)
scoring:
  score: "size(player.hand)"
"""


def _enumerator(game, prompt):
    """The generated enumerator of the decision asking ``prompt``."""
    for proc in game.procs:
        for ins in proc.code:
            spec = ins[1] if len(ins) > 1 else None
            if getattr(spec, "enumerate", None) is not None and getattr(spec, "prompt", None) == prompt:
                return spec.enumerate
    raise AssertionError(prompt)


def test_a_last_domain_made_of_parts_is_a_loop_per_part(tmp_path):
    """The last parameter's domain made of parts, concatenated (``A + B``) or chosen
    (``A if c else B``, a game parameter's choice folded), of comprehensions and other lists, is a
    loop per part without building the list (``pair`` below, ``value`` at the first parameter,
    ``grab`` in a definition's body); a list computed once per binding of what it reads, one whose
    length is not bounded, and one with a test of ``require`` keep the list (``swap``, ``range``,
    ``checked``): the same actions and texts as the closure compiler's; a division by zero never
    reached stays unreached."""
    from interpreter.runtime.limits import MAX_ITEMS
    path = tmp_path / "parts.yaml"
    path.write_text(PART_DOMAINS, encoding="utf-8")
    generated, reference = _pair(path, 2)
    for seed in range(30):
        assert _same_game(generated, reference, seed, check_texts=True) > 0
    assert MAX_ITEMS not in _enumerator(generated, "Parts").__code__.co_consts  # no concatenation checked
    assert MAX_ITEMS in _enumerator(generated, "Lists").__code__.co_consts


def test_an_error_in_a_part_of_a_domain_is_located_at_its_decision(tmp_path):
    """A division by zero in a part of a domain looped over where it stands fails as the closures
    do: the same message, at the decision."""
    from interpreter import RulebookError
    text = PART_DOMAINS.replace("if size(table) > 100 else", "if turns > 3 else")
    path = tmp_path / "fails.yaml"
    path.write_text(text, encoding="utf-8")
    line = text.splitlines().index('          prompt: "Parts"')  # the line of 'choose:', 1-based
    failures = []
    for game in _pair(path, 2):
        state, rng = game.new_initial_state(0), random.Random(0)
        with pytest.raises(RulebookError) as info:
            while True:
                state.apply_action(rng.choice(state.legal_actions()))
        failures.append((info.value.position.line, info.value.message, state.to_dict()))
    assert failures[0] == failures[1] and failures[0][0] == line and "division by zero" in failures[0][1]


# two values of cards, two of each, in a pile; a loop of six rounds (the decisions of each test follow)
_PILE_OF_CARDS = """\
game:
  name: NAME
  players: 2
components:
  card:
    name: "card {value}"
    attributes: {value: int}
    marks: MARKS
    table:
      - {value: 1, count: 2, in: pile}
      - {value: 3, count: 2, in: pile}
zones:
  pile: {visibility: all}
vars:
  turns: {type: int, initial: 0}
flow:
  - while: turns < 6
    do:
      - turns += 1
"""

RANGES = _PILE_OF_CARDS.replace("NAME", "Ranges of whole numbers").replace("MARKS", "{m: 0}") + """\
      - choose:
          prompt: "Neither"
          options:
            plain:
              text: "plain {card}"
              params: {card: "[c for c in pile if c.value + 1 > 2]"}
              effects: []
      - choose:
          prompt: "Upper"
          options:
            upper:
              text: "upper {card}"
              params: {card: "[c for c in pile if c.value - c.m < 5]"}
              effects: []
      - choose:
          prompt: "Lower"
          options:
            lower:
              text: "lower {card}"
              params: {card: "[c for c in pile if turns - 1 < 100]"}
              effects: []
      - choose:
          prompt: "Both"
          options:
            both:
              text: "both {card}"
              params: {card: "[c for c in pile if c.value * turns != 7 and c.value + turns * 2 != 7]"}
              effects: []
      - choose:
          prompt: "Extremes"
          options:
            none: {effects: []}
            greatest: {effects: ["turns = 0 - 9223372036854775807 - 1"]}
            least:
              text: "least {card}"
              params: {card: "list(pile)"}
              effects: ["card.m = 0 - 9223372036854775807 - 1"]
            top:
              text: "top {card}"
              params: {card: "list(pile)"}
              effects: ["card.m = 9223372036854775807"]
"""


def test_a_side_of_the_range_the_operands_cannot_cross_is_not_checked(tmp_path):
    """``c.value + 1`` (a value of 1 to 3) is checked on neither side, ``c.value - c.m`` (a mark:
    any number within ±2^63) only above, ``turns - 1`` only below, a product (or a sum with one) on
    both sides (interpreter/codegen/ranges.py);
    where a number does go out of range (a mark set to -2^63, a variable to -2^63) the error is
    the closures', at the same decision, and the games are the same until then."""
    from interpreter import RulebookError
    from interpreter.runtime.limits import INT_MAX, INT_MIN
    path = tmp_path / "ranges.yaml"
    path.write_text(RANGES, encoding="utf-8")
    generated, reference = _pair(path, 2)
    bounds = {prompt: {INT_MIN, INT_MAX} & set(_enumerator(generated, prompt).__code__.co_consts)
              for prompt in ("Neither", "Upper", "Lower", "Both")}
    assert bounds == {"Neither": set(), "Upper": {INT_MAX}, "Lower": {INT_MIN}, "Both": {INT_MIN, INT_MAX}}
    failed = 0
    for seed in range(40):
        ends = []
        for game in (generated, reference):
            state, rng, texts = game.new_initial_state(seed), random.Random(seed), []
            try:
                while not state.is_terminal():
                    actions = state.legal_actions()
                    texts.append([str(a) for a in actions])
                    state.apply_action(rng.choice(actions))
                ends.append((texts, None, state.to_dict()))
            except RulebookError as error:
                ends.append((texts, (error.position.line, error.message), None))
        assert ends[0] == ends[1], seed
        failed += ends[0][1] is not None
    assert failed > 10


MARK_RANGES = _PILE_OF_CARDS.replace("NAME", "Ranges of marks").replace(
    "MARKS", "{raised: 0, lowered: 5, set: 1, unknown: 0}") + """\
      - choose:
          prompt: "Look"
          options:
            look:
              text: "look at {card}"
              params: {card: "[c for c in pile if c.value - c.raised < 5 and c.value - c.unknown < 5]"}
              effects: []
      - choose:
          prompt: "Change"
          options:
            change:
              text: "change {card} by {by}"
              params: {card: "list(pile)", by: "range(1, 3)"}
              effects:
                - card.raised += by
                - card.lowered -= by
                - card.set = 7
                - let step = by - 2
                - card.unknown += step
            reset:
              text: "reset {card}"
              params: {card: "list(pile)"}
              effects: [card.raised = 0]
"""


def test_a_mark_is_known_to_stay_within_what_its_rules_give_it(tmp_path):
    """A mark starts at its initial values; ``=`` widens its range by the value's, ``+=`` of a
    parameter from ``range(1, …)`` only raises it, ``-=`` only lowers it, ``+=`` of a local of no
    known range moves it anywhere (interpreter/codegen/ranges.py: mark_ranges).  ``c.value -
    c.raised`` (1..3 less a mark never below 0) is then checked on neither side, ``c.value -
    c.unknown`` still above; the games are the closures' games."""
    from interpreter.runtime.limits import INT_MAX, INT_MIN
    path = tmp_path / "marks.yaml"
    path.write_text(MARK_RANGES, encoding="utf-8")
    generated, reference = _pair(path, 2)
    assert generated.mark_ranges == {"raised": (0, INT_MAX), "lowered": (INT_MIN, 5), "set": (1, 7),
                                     "unknown": (INT_MIN, INT_MAX)}
    assert {INT_MIN, INT_MAX} & set(_enumerator(generated, "Look").__code__.co_consts) == {INT_MAX}
    for seed in range(20):
        _same_game(generated, reference, seed, check_texts=True)
    state = generated.new_initial_state(1).to_dict()
    state["marks"]["raised"][0] = -1
    with pytest.raises(SavedStateError, match=r"marks.raised\[0\]: -1 is a value the rules never give"):
        generated.state_from_json(state)


SURE_NUMBERS = _PILE_OF_CARDS.replace("NAME", "Numbers computed once").replace("MARKS", "{raised: 0}") + """\
      - choose:
          prompt: "Sure"
          options:
            pair:
              text: "pair {card} with {other}"
              params:
                card: "[c for c in pile if c.value >= 1]"
                other: "[d for d in pile if d != card and d.value == card.value - card.raised + 2]"
              effects: [card.raised += 1]
            pass: {effects: []}
      - choose:
          prompt: "Variable"
          options:
            pair:
              text: "match {card} with {other}"
              params:
                card: "[c for c in pile if c.value >= 1]"
                other: "[d for d in pile if d != card and d.value == card.value - turns + 3]"
              effects: []
            pass: {effects: []}
"""


def test_sums_of_a_parameters_numbers_are_computed_once_where_it_is_bound(tmp_path):
    """``card.value - card.raised + 2`` (a whole-number attribute, a mark holding whole numbers, a
    constant: it cannot fail) is computed once per card where the card is bound, into a local, not
    for every ``d``; ``card.value - turns + 3`` reads a variable and is checked against ±2^63, so it
    is computed at its first use (``...`` marks it not computed yet).  The games are the closures'."""
    path = tmp_path / "sure.yaml"
    path.write_text(SURE_NUMBERS, encoding="utf-8")
    generated, reference = _pair(path, 2)
    for seed in range(20):
        _same_game(generated, reference, seed, check_texts=True)
    for prompt, at_first_use in (("Sure", False), ("Variable", True)):
        code = _enumerator(generated, prompt).__code__
        assert len([name for name in code.co_varnames if name.startswith("_m")]) == 1
        assert (... in code.co_consts) == at_first_use


DIFFERENCES = _PILE_OF_CARDS.replace("NAME", "Differences compared").replace("MARKS", "{raised: 0}") + """\
      - choose:
          prompt: "Bare"
          options:
            raise:
              text: "raise {card}"
              params: {card: "[c for c in pile if c.value - c.raised >= 1]"}
              effects: [card.raised += 1]
            pass: {effects: []}
      - choose:
          prompt: "Checked"
          options:
            look:
              text: "look at {card}"
              params: {card: "[c for c in pile if c.value - turns >= 1]"}
              effects: []
            pass: {effects: []}
"""


def test_a_difference_compared_with_zero_or_one_is_a_comparison_of_its_operands(tmp_path):
    """``c.value - c.raised >= 1`` (a subtraction that cannot leave ±2^63) is generated as
    ``value > raised``: no subtraction left; ``c.value - turns``
    (a variable of no known range: the subtraction is checked) keeps it.  The closures' games."""
    import dis
    path = tmp_path / "differences.yaml"
    path.write_text(DIFFERENCES, encoding="utf-8")
    generated, reference = _pair(path, 2)
    for seed in range(20):
        _same_game(generated, reference, seed, check_texts=True)
    subtracts = {prompt: any(i.opname == "BINARY_OP" and i.argrepr in ("-", "-=")
                             for i in dis.get_instructions(_enumerator(generated, prompt)))
                 for prompt in ("Bare", "Checked")}
    assert subtracts == {"Bare": False, "Checked": True}


MOVES = _PILE_OF_CARDS.replace("NAME", "Moves of one component").replace("MARKS", "{m: 0}").replace(
    "  turns: {type: int, initial: 0}\n", "  turns: {type: int, initial: 0}\n  held: {type: component, initial: none}\n") + """\
      - choose:
          prompt: "Move"
          options:
            take:
              text: "take {card}"
              params: {card: "list(pile)"}
              effects: [held = card, "move(held, pile, at=bottom)"]
            drop:
              effects: ["move(held, pile)"]
"""


def test_a_move_of_one_component_is_generated_without_a_call_and_fails_alike(tmp_path):
    """``move(c, zone)`` of a value typed as one component calls ``State.move_component`` from the
    generated code (no ``move()`` between); a component that is none fails as ``move()`` does, at
    its statement.  The closures' games and error."""
    from interpreter import RulebookError
    path = tmp_path / "moves.yaml"
    path.write_text(MOVES, encoding="utf-8")
    generated, reference = _pair(path, 2)
    line = MOVES.splitlines().index('              effects: ["move(held, pile)"]') + 1
    ends = []
    for game in (generated, reference):
        outcomes = []
        for seed in range(12):
            state, rng = game.new_initial_state(seed), random.Random(seed)
            try:
                while not state.is_terminal():
                    state.apply_action(rng.choice(state.legal_actions()))
                outcomes.append(state.to_dict())
            except RulebookError as error:
                outcomes.append((error.position.line, error.message))
        ends.append(outcomes)
    assert ends[0] == ends[1]
    failed = [o for o in ends[0] if isinstance(o, tuple)]
    assert failed and all(o == (line, "move(): there is nothing to move (the value is none)") for o in failed)
    assert len(failed) < len(ends[0])
    functions = [ins[1] for proc in generated.procs for ins in proc.code if hasattr(ins[1], "__code__")]
    assert any("move_component" in f.__code__.co_names for f in functions)
