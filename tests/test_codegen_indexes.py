"""Selections by an attribute looked up in an index (interpreter/codegen/indexes.py): the same
actions and texts as the closure compiler's, and the index used only where nothing can differ."""
from __future__ import annotations

import dis
import random

import pytest

from interpreter.codegen.indexes import grouped
from test_codegen import _enumerator, _pair, _same_game

INDEXED = """\
game:
  name: Selections by attribute
  players: 2
components:
  card:
    name: "{suit} {rank}"
    attributes: {suit: str, rank: int, odd: bool}
    in: pile
    table:
      - {suit: red, rank: 0, odd: false, count: 3}
      - {suit: red, rank: 1, odd: true, count: 3}
      - {suit: red, rank: 2, odd: false, count: 2}
      - {suit: blue, rank: 0, odd: false, count: 3}
      - {suit: blue, rank: 1, odd: true, count: 3}
      - {suit: blue, rank: 2, odd: false, count: 2}
      - {suit: green, rank: 1, odd: true, count: 2}
      - {suit: red, rank: 0, odd: false, count: 2, each_player: true, in: hand}
      - {suit: blue, rank: 1, odd: true, count: 1, each_player: true, in: hand}
      - {suit: green, rank: 1, odd: true, count: 1, each_player: true, in: hand}
  token:
    name: "token"
    attributes: {weight: int, suit: str, rank: int, odd: bool}
    in: tokens
    table:
      - {weight: 1, suit: grey, rank: 9, odd: false, count: 2}
zones:
  pile: {visibility: all}
  street: {visibility: all}
  tokens: {visibility: all}
  hand: {per: player, visibility: all}
vars:
  turns: 0
setup:
  - shuffle(pile)
  - draw(pile, street, 5)
flow:
  - while: turns < 14
    do:
      - turns += 1
      - choose:
          prompt: "Match"
          options:
            pair:
              text: "{card} with {mate} and {other}"
              params:
                card: "[c for c in street if c.rank >= 0]"
                mate: "[h for h in active.hand if h.suit == card.suit and h.rank <= card.rank]"
                other: "[x for x in active.hand if x != mate and x.suit == card.suit] + [x for x in active.hand if 'green' == x.suit]"
              effects: ["move(card, active.hand)", "move(mate, street)"]
            odd:
              text: "odd {card} by {h}"
              params:
                card: "[c for c in street if c.suit != 'grey']"
                h: "[h for h in active.hand if h.odd == card.odd and h.rank == 1]"
              effects: ["move(h, street)"]
            fragile:
              text: "fragile {card} by {h}"
              params:
                card: "list(street)"
                h: "[h for h in active.hand if 10 // (turns + 1) > 0 and h.suit == card.suit]"
              effects: ["move(card, pile)"]
            weighed:
              text: "weigh {card} by {t}"
              params:
                card: "list(street)"
                t: "[t for t in tokens if t.weight == 1]"
              effects: []
            draw:
              effects: ["draw(pile, active.hand, 1)"]
      - active = next_player(active)
"""


def _lookups_in(function) -> tuple:
    """(indexes made, lookups) in the code of ``function``: its locals holding an index (``_x``),
    and its reads of a group (``.get``)."""
    made = {name for name in function.__code__.co_varnames if name.startswith("_x")}
    return len(made), sum(ins.argval == "get" for ins in dis.get_instructions(function))


def test_selections_by_attribute_play_like_the_closures(tmp_path):
    """A domain testing ``h.suit == card.suit`` for each card goes through the hand grouped by suit
    (also after a test that only compares locals, ``x != mate``; a bool attribute too); one whose earlier test may fail (``10 // ...``)
    and one whose attribute some components lack (``t.weight``) keep the plain loop.  The games
    are the closure compiler's, texts included."""
    path = tmp_path / "indexed.yaml"
    path.write_text(INDEXED, encoding="utf-8")
    generated, reference = _pair(path, 2)
    played = sum(_same_game(generated, reference, seed, check_texts=True) for seed in range(40))
    assert played > 40 * 5
    # the hand by suit (for mate and other), the hand by odd; 'green' == x.suit is a table of
    # the game already; fragile and weighed: none
    assert _lookups_in(_enumerator(generated, "Match")) == (2, 3)


COUNTED = INDEXED.replace("""            draw:
              effects: ["draw(pile, active.hand, 1)"]""", """            counted:
              text: "count {card} by {h}"
              params:
                card: "[c for c in street if count(x for x in active.hand if x.suit == c.suit) >= 1]"
                h: "[h for h in active.hand if count(x for x in active.hand if x.suit == card.suit and x.rank >= h.rank) <= 2]"
              require: "sum(x.rank for x in active.hand if x.suit == card.suit) >= 1 and any(x.odd for x in active.hand if card.suit == x.suit)"
              effects: ["move(h, pile)"]
            draw:
              effects: ["draw(pile, active.hand, 1)"]""")


def test_comprehensions_by_attribute_in_an_enumerator_play_like_the_closures(tmp_path):
    """``sum`` and ``any`` over the hand by ``x.suit == card.suit`` in a ``require`` checked for
    each card go through the hand grouped by suit, the index made at the first use.  The plain
    comprehension stays at the first parameter's level (a new index there would be made for one
    pass) and inside another comprehension (the domain of ``h``).  The games are the closure
    compiler's, texts included."""
    path = tmp_path / "counted.yaml"
    path.write_text(COUNTED, encoding="utf-8")
    generated, reference = _pair(path, 2)
    counted = [_same_game(generated, reference, seed, check_texts=True) for seed in range(40)]
    assert sum(counted) > 40 * 5
    indexed = _enumerator(generated, "Match")
    assert _lookups_in(indexed) == (2, 3 + 2)  # the require's sum and any
    offered = {a.option.name for seed in range(10) for a in _offered(generated, seed)}
    assert "counted" in offered


def _offered(game, seed) -> list:
    """Every action offered in a random game."""
    state, rng, offered = game.new_initial_state(seed), random.Random(seed), []
    while not state.is_terminal():
        offered += state.legal_actions()
        state.apply_action(rng.choice(state.legal_actions()))
    return offered


@pytest.mark.parametrize("items, table, expected", [
    ([3, 1, 2, 0], ["a", "b", "a", "c"], {"c": [3], "b": [1], "a": [2, 0]}),
    ([], ["a"], {}),
    ([0, 1, 2], [1, True, 0], {1: [0, 1], 0: [2]}),
])
def test_grouped_keeps_the_order_of_the_items(items, table, expected):
    """Each group holds its items in their order; keys equal under == share a group (1 and True),
    as the test ``table[x] == key`` finds them."""
    groups = grouped(items, table)
    assert groups == expected and list(groups) == list(expected)


def test_a_game_with_an_index_plays_the_same_from_a_saved_state(tmp_path):
    """A state saved in the middle of the game plays on the same: the index is made per
    enumeration, never kept in the state."""
    path = tmp_path / "indexed.yaml"
    path.write_text(INDEXED, encoding="utf-8")
    generated, _ = _pair(path, 2)
    state, rng = generated.new_initial_state(3), random.Random(3)
    for _ in range(5):
        state.apply_action(rng.choice(state.legal_actions()))
    copy = generated.state_from_json(state.to_json())
    assert [str(a) for a in copy.legal_actions()] == [str(a) for a in state.legal_actions()]
