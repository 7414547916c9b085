"""The classic rulesets (rulesets/classic/) played side by side with OpenSpiel's own implementations.

Random trajectories run in both at once, actions mapped by meaning: at every decision the deciding
seat and the set of legal actions must agree, OpenSpiel's chance events are resolved to the outcome
our seeded game dealt (which must be one OpenSpiel allows), and the returns must be equal at the end.
OpenSpiel is an extra (``rulebook[openspiel]``); under CI the test fails rather than skips without it.
"""
from __future__ import annotations

import os
import random
import re

import pytest

from conftest import ROOT
from interpreter import load_game

if os.environ.get("CI") == "true":
    import pyspiel
else:
    pyspiel = pytest.importorskip("pyspiel", reason="OpenSpiel is an extra: pip install -e '.[openspiel]'")

CLASSIC = ROOT / "rulesets" / "classic"
TRAJECTORIES = int(os.environ.get("RULEBOOK_DIFFERENTIAL_GAMES", "300"))


def hand_value(state, seat: int, zone: str = "hand") -> int:
    """The value attribute of the one card in a seat's hand, read from that seat's own view."""
    names = state.game.player_names
    (card,) = state.view(seat)["zones"][zone][names[seat]]
    return card["value"]


def cell_index(columns: int):
    """A cell named in the action's text (``r2c3``) as OpenSpiel's row-major index from 0."""
    def index(state, action) -> int:
        row, column = re.search(r"r(\d+)c(\d+)", str(action)).groups()
        return (int(row) - 1) * columns + int(column) - 1
    return index


def by_name(names: dict):
    return lambda state, action: names[action.name]


class Pairing:
    """How one classic ruleset corresponds to an OpenSpiel game."""

    def __init__(self, ruleset, openspiel, params, action, chance=None, players=2, ours=None, turn_based=False):
        self.ruleset, self.openspiel, self.params = ruleset, openspiel, params
        self.action, self.chance, self.players = action, chance, players
        self.ours, self.turn_based = ours or {}, turn_based

    def load(self):
        """The pair of games: ours and OpenSpiel's (simultaneous games made turn-based, as ours are)."""
        spiel = pyspiel.load_game(self.openspiel, self.params)
        if self.turn_based:
            spiel = pyspiel.convert_to_turn_based(spiel)
        return load_game(CLASSIC / self.ruleset, players=self.players, params=self.ours), spiel


def kuhn_chance(state, spiel_state, index: int) -> int:
    """OpenSpiel deals player 0's card, then player 1's (0 = J, 1 = Q, 2 = K)."""
    return hand_value(state, index)


def leduc_card(card: dict) -> int:
    """OpenSpiel's Leduc card number: rank * 2 + suit."""
    return card["value"] * 2 + ("s", "h").index(card["suit"])


def leduc_chance(state, spiel_state, index: int) -> int:
    """OpenSpiel deals player 0's card, player 1's, and after the first round the public card."""
    if index < 2:
        names = state.game.player_names
        (card,) = state.view(index)["zones"]["hand"][names[index]]
    else:
        (card,) = state.view(0)["zones"]["public"]
    return leduc_card(card)


def liars_dice_chance(state, spiel_state, index: int) -> int:
    """OpenSpiel rolls player 0's die, then player 1's (outcome = face - 1)."""
    return state.view(index)["players"][index]["dice"][0] - 1


def liars_dice_action(state, action) -> int:
    """OpenSpiel numbers a bid (quantity - 1) * 6 + face - 1 and the call of a lie after every bid."""
    if action.name == "liar":
        return 2 * 6
    quantity, face = action.values
    return (quantity - 1) * 6 + face - 1


def goofspiel_chance(state, spiel_state, index: int) -> int:
    """With random points order OpenSpiel turns up each prize by chance (outcome = value - 1)."""
    (prize,) = state.view(0)["zones"]["prize_row"]
    return prize["value"] - 1


def goofspiel(order: str) -> Pairing:
    return Pairing("goofspiel.yaml", "goofspiel", {"num_cards": 4, "points_order": order, "returns_type": "win_loss"},
                   lambda state, action: int(str(action).split()[-1]) - 1, chance=goofspiel_chance,
                   ours={"num_cards": 4, "points_order": order}, turn_based=True)


PAIRINGS = {
    "tic-tac-toe": Pairing("tic-tac-toe.yaml", "tic_tac_toe", {}, cell_index(3)),
    "connect-four": Pairing("connect-four.yaml", "connect_four", {},
                            lambda state, action: action.values[0] - 1),
    "goofspiel-descending": goofspiel("descending"),
    "goofspiel-ascending": goofspiel("ascending"),
    "goofspiel-random": goofspiel("random"),
    "leduc-poker": Pairing("leduc-poker.yaml", "leduc_poker", {"players": 2},
                           by_name({"fold": 0, "call": 1, "raise": 2}), chance=leduc_chance),
    "liars-dice": Pairing("liars-dice.yaml", "liars_dice", {"players": 2, "numdice": 1, "dice_sides": 6},
                          liars_dice_action, chance=liars_dice_chance),
    "kuhn-poker": Pairing("kuhn-poker.yaml", "kuhn_poker", {"players": 2},
                          by_name({"check": 0, "fold": 0, "bet": 1, "call": 1}), chance=kuhn_chance),
}


def play_side_by_side(ours, spiel, pairing: Pairing, seed: int) -> None:
    rng = random.Random(seed)
    s = ours.new_initial_state(seed)
    t = spiel.new_initial_state()
    step = chances = 0
    while True:
        while t.is_chance_node():
            outcome = pairing.chance(s, t, chances)
            chances += 1
            allowed = dict(t.chance_outcomes())
            assert outcome in allowed, f"seed {seed}: our deal {outcome} is not an OpenSpiel outcome {allowed}"
            t.apply_action(outcome)
        if s.is_terminal() or t.is_terminal():
            break
        assert s.current_player() == t.current_player(), f"seed {seed}, step {step}"
        mine = {pairing.action(s, a): a for a in s.legal_actions()}
        assert sorted(mine) == sorted(t.legal_actions()), f"seed {seed}, step {step}: {sorted(mine)}"
        choice = rng.choice(sorted(mine))
        s.apply_action(mine[choice])
        t.apply_action(choice)
        step += 1
    assert s.is_terminal() and t.is_terminal(), f"seed {seed}: one game ended, the other did not"
    assert [float(r) for r in s.returns()] == pytest.approx(t.returns()), f"seed {seed}"


@pytest.mark.parametrize("name", sorted(PAIRINGS))
def test_classic_ruleset_plays_like_openspiel(name):
    pairing = PAIRINGS[name]
    ours, spiel = pairing.load()
    for seed in range(TRAJECTORIES):
        play_side_by_side(ours, spiel, pairing, seed)


def deal_distribution(game, read, action="call") -> dict:
    """The distribution of ``read(state)`` over every way explicit chance can resolve the start, playing
    ``action`` at every decision where ``read`` gives None (not dealt yet)."""
    found: dict = {}
    todo = [(game.new_initial_state(0, explicit_chance=True), 1.0)]
    while todo:
        state, p = todo.pop()
        if not state.is_chance_node():
            key = read(state)
            if key is None:
                child = state.clone()
                child.apply_action(action)
                todo.append((child, p))
            else:
                found[key] = found.get(key, 0.0) + p
            continue
        for outcome, q in state.chance_outcomes():
            child = state.clone()
            child.apply_action(outcome)
            todo.append((child, p * q))
    return found


def spiel_deal_distribution(spiel, depth: int, action: int = 1) -> dict:
    """The distribution of OpenSpiel's first ``depth`` chance outcomes, playing ``action`` at decisions."""
    found: dict = {}
    todo = [(spiel.new_initial_state(), 1.0, ())]
    while todo:
        state, p, seen = todo.pop()
        if len(seen) == depth:
            found[seen] = found.get(seen, 0.0) + p
            continue
        if not state.is_chance_node():
            todo.append((state.child(action), p, seen))
            continue
        for outcome, q in state.chance_outcomes():
            todo.append((state.child(outcome), p * q, seen + (outcome,)))
    return found


def assert_same_distribution(ours: dict, theirs: dict) -> None:
    assert set(ours) == set(theirs)
    for key, p in theirs.items():
        assert ours[key] == pytest.approx(p), key


def test_kuhn_deals_are_distributed_as_in_openspiel():
    game = load_game(CLASSIC / "kuhn-poker.yaml")
    ours = deal_distribution(game, lambda s: (hand_value(s, 0), hand_value(s, 1)))
    assert_same_distribution(ours, spiel_deal_distribution(pyspiel.load_game("kuhn_poker"), 2))


def test_leduc_deals_and_public_card_are_distributed_as_in_openspiel():
    game = load_game(CLASSIC / "leduc-poker.yaml")

    def read(state):
        if not state.view(0)["zones"]["public"]:  # both call in the first round: the public card
            return None
        hands = state.view(0)["zones"]["hand"], state.view(1)["zones"]["hand"]
        names = state.game.player_names
        return (leduc_card(hands[0][names[0]][0]), leduc_card(hands[1][names[1]][0]),
                leduc_card(state.view(0)["zones"]["public"][0]))

    theirs = spiel_deal_distribution(pyspiel.load_game("leduc_poker"), 3)
    assert_same_distribution(deal_distribution(game, read), theirs)


def test_tic_tac_toe_solved_through_the_public_api_is_a_draw():
    game = load_game(CLASSIC / "tic-tac-toe.yaml")
    memo: dict = {}

    def value(state) -> int:
        """The first player's result under perfect play (minimax over the public API)."""
        if state.is_terminal():
            return state.returns()[0]
        grid = state.view(0)["zones"]["board"]["grid"]
        key = tuple(cell and cell["name"] for row in grid for cell in row)
        if key not in memo:
            results = []
            for action in state.legal_actions():
                child = state.clone()
                child.apply_action(action)
                results.append(value(child))
            memo[key] = max(results) if state.current_player() == 0 else min(results)
        return memo[key]

    assert value(game.new_initial_state(0)) == 0
