"""``show(component or list, to=seat)``: one seat looks at what it may not see (a private look)."""
from __future__ import annotations

import random
import textwrap

import pytest

from dsl.errors import ErrorList
from interpreter import load_game

LOOKS = """\
game: {name: Looks, players: 3}
components:
  card: {attributes: {v: int}, in: pile, table: [{v: 1, count: 3}, {v: 2, count: 3}, {v: 3, count: 3}]}
zones:
  pile: {visibility: count}
  hand: {per: player, visibility: owner}
  table: {visibility: all}
setup:
  - shuffle(pile)
  - for: p in players
    do: ["draw(pile, p.hand)"]
flow:
  - choose:
      options:
        look:
          public: true
          text: "look at the hand of {p}"
          params: {p: "[q for q in players if q != active]"}
          effects:
            - show(p.hand, to=active)
            - "log('{player} sees {component}', player=p, component=list(p.hand))"
  - choose:
      player: players[1]
      options:
        keep:
        swap:
          effects: ["move(top(players[1].hand), pile)", "draw(pile, players[1].hand)"]
  - choose:
      options:
        done:
"""


def _game(tmp_path, text=LOOKS):
    path = tmp_path / "looks.yaml"
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return load_game(path)


def _errors(tmp_path, text):
    with pytest.raises(ErrorList) as info:
        _game(tmp_path, text)
    return [e.message for e in info.value.errors]


def test_the_seat_shown_a_card_sees_it_in_its_view_and_narration_and_no_one_else(tmp_path):
    game = _game(tmp_path)
    state = game.new_initial_state(3)
    state.apply_action("look at the hand of P2")
    (card,) = state.zones[game.family_base["hand"] + 1]
    assert state.view(0)["known"] == [{"id": card, "name": game.names[card], "kind": "card",
                                       "v": int(game.names[card].split()[-1]), "zone": "hand[P2]"}]
    assert "known" not in state.view(2) and "known" not in state.view(None)
    assert state.narration(0)[-1]["text"] == f"P2 sees {game.names[card]}"
    assert state.narration(2)[-1]["text"] == "P2 sees a card"
    restored = game.state_from_json(state.to_json())
    assert restored.view(0)["known"] == state.view(0)["known"]


def test_what_was_shown_stays_where_the_seat_saw_it_when_determinizing(tmp_path):
    game = _game(tmp_path)
    state = game.new_initial_state(3)
    state.apply_action("look at the hand of P2")
    hand = game.family_base["hand"] + 1
    for seed in range(20):
        assert state.determinize(0, random.Random(seed)).zones[hand] == state.zones[hand]


def test_the_seat_forgets_a_card_once_it_moves_where_that_seat_cannot_see(tmp_path):
    game = _game(tmp_path)
    state = game.new_initial_state(3)
    state.apply_action("look at the hand of P2")
    state.apply_action("swap")  # back into the face-down pile, and a new card drawn
    assert "known" not in state.view(0)


def test_a_simultaneous_block_shows_only_to_its_own_player(tmp_path):
    block = """\
    game: {name: Peek, players: 2}
    components:
      card: {attributes: {v: int}, in: pile, table: [{v: 1, count: 4}]}
    zones:
      pile: {visibility: count}
      hand: {per: player, visibility: others}
    setup: [shuffle(pile)]
    flow:
      - simultaneous: "p in players"
        do:
          - choose:
              player: p
              options:
                peek:
                  effects: ["show(top(pile), to=WHO)"]
    """
    game = _game(tmp_path, block.replace("WHO", "p"))
    state = game.new_initial_state(0)
    state.apply_action("peek")
    assert [c["id"] for c in state.view(0)["known"]] == [state.zones[0][-1]]
    assert "known" not in state.view(1)
    messages = _errors(tmp_path, block.replace("WHO", "players[0]"))
    assert messages == ["a simultaneous block may show components only to its own player"]
    # nor hide a card in a hand the others see (visibility: others)
    messages = _errors(tmp_path, block.replace("show(top(pile), to=WHO)", "move(top(pile), p.hand)"))
    assert any("the other players cannot see" in m for m in messages)


def test_the_canonical_view_lists_what_was_shown_without_ids(tmp_path):
    from interpreter.runtime.observations import canonical_view
    game = _game(tmp_path)
    state = game.new_initial_state(3)
    state.apply_action("look at the hand of P2")
    (card,) = canonical_view(state.view(0))["known"]
    assert "id" not in card and card["zone"] == "hand[P2]"
