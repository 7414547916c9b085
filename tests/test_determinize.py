"""``State.determinize``: the worlds a search bot samples depend only on what its seat can know.

For decision states of every ruleset (many of them in the middle of a procedure whose locals hold
components, such as a trade or an exchange in progress) the test builds a *twin*: the same position
with the hidden components the seat does not know dealt differently, everything that referred to
them renamed consistently.  The seat cannot tell the two apart, so determinizing both with the same
generator must give the same world, and that world must be a sound state.
"""
import random

import pytest

from dsl.errors import ErrorList
from interpreter import load_game

CASES = [("la-famiglia", 2), ("gangster", 3), ("mafiadollar", 4), ("pferderennen-mafia", 5)]


def decision_states(game, games=4, every=5):
    for seed in range(games):
        state = game.new_initial_state(seed)
        rng = random.Random(seed)
        while not state.is_terminal():
            if state.moves % every == 0:
                yield state.clone()
            state.apply_action(rng.choice(state.legal_actions()))


def renamed(value, mapping):
    if isinstance(value, list):
        return [renamed(v, mapping) for v in value]
    return mapping.get(value, value) if isinstance(value, int) and not isinstance(value, bool) else value


def twin(state, seat, rng):
    """The position with the seat's unknown hidden components of each kind permuted, or None if
    there are none to permute."""
    game, bit = state.game, 1 << seat
    named = {c for a in state.legal_actions() for c in a.components()} if state.decider == seat else set()
    hosts = {h for z, h in enumerate(game.zone_host) if h is not None and state.zones[z]}
    places: dict = {}
    for zone, cards in enumerate(state.zones):
        if game.zone_grid[zone] is not None or game.visible_mask(state, zone) & bit:
            continue
        for i, c in enumerate(cards[:-1] if game.top_mask[zone] else cards):
            if not state.known[c] & bit and c not in named | hosts:
                places.setdefault(game.kinds[c], []).append((zone, i))
    mapping = {}
    for kind_places in places.values():
        before = [state.zones[z][i] for z, i in kind_places]
        after = before[:]
        rng.shuffle(after)
        mapping.update(zip(before, after))
    if all(a == b for a, b in mapping.items()):
        return None
    other = state.clone()
    for c, d in mapping.items():
        other.zones[state.loc[c]][state.zones[state.loc[c]].index(c)] = d
        other.loc[d] = state.loc[c]
        other.known[d] = state.known[c]
        for name, values in other.marks.items():
            values[d] = state.marks[name][c]
    for frame in other.stack:
        for key in game.procs[frame[0]].holding & frame[2].keys():
            value = frame[2][key]
            frame[2][key] = [renamed(value[0], mapping), value[1]] if key[0] == "$" else renamed(value, mapping)
    for name in game.component_vars:
        other.vars[name] = renamed(other.vars[name], mapping)
    for name in game.component_player_vars:
        other.pvars[name] = renamed(other.pvars[name], mapping)
    other.legal_cache = None
    return other


def placed_once(state):
    game = state.game
    seen = sorted(c for cards in state.zones for c in cards)
    return seen == list(range(game.num_components)) and all(
        c in state.zones[state.loc[c]] for c in range(game.num_components))


@pytest.mark.parametrize("name, players", CASES)
def test_twins_the_seat_cannot_tell_apart_give_the_same_worlds(name, players):
    game = load_game(name, players=players)
    rng = random.Random(7)
    compared = 0
    for state in decision_states(game):
        seat = state.current_player()
        other = twin(state, seat, rng)
        if other is None:
            continue
        assert other.view(seat) == state.view(seat)
        assert other.to_json() != state.to_json()
        a = state.determinize(seat, random.Random(compared))
        b = other.determinize(seat, random.Random(compared))
        assert a.to_json() == b.to_json(), f"move {state.moves}: the world depends on hidden cards"
        compared += 1
    assert compared >= 10


@pytest.mark.parametrize("name, players", CASES)
def test_worlds_are_sound_states_that_play_on(name, players):
    game = load_game(name, players=players)
    for n, state in enumerate(decision_states(game, games=2, every=9)):
        seat = state.current_player()
        world = state.determinize(seat, random.Random(n))
        assert world.view(seat) == state.view(seat)
        assert placed_once(world)
        assert game.state_from_json(world.to_json()).to_json() == world.to_json()
        rng = random.Random(n)
        for _ in range(40):
            if world.is_terminal():
                break
            world.apply_action(rng.choice(world.legal_actions()))
            assert placed_once(world)


@pytest.mark.parametrize("name, players", [("la-famiglia", 2), ("gangster", 3), ("mafiadollar", 3),
                                           ("pferderennen-mafia", 4)])
def test_a_determinized_state_offers_the_decider_the_same_actions(name, players):
    """An action names one of several identical components; a determinization must not deal the
    others away, or the sampled world offers actions the real one does not (every tenth decision)."""
    game = load_game(name, players=players)
    for seed in range(3):
        state, rng, decisions = game.new_initial_state(seed), random.Random(seed), 0
        while not state.is_terminal():
            decisions += 1
            if decisions % 10 == 0:
                sample = state.determinize(state.current_player(), random.Random(decisions))
                assert sorted(map(str, sample.legal_actions())) == sorted(map(str, state.legal_actions()))
            state.apply_action(rng.choice(state.legal_actions()))



FIREWORKS = "rulesets/fireworks.yaml"
NEGATIVE = ("\n      and owner.not_colours[5 * position + component.ci] == 0 "
            "and owner.not_ranks[5 * position + component.rank - 1] == 0")
KNOWLEDGE = ("    knowledge: >-\n      owner.colour_hints[position] in ['?', component.colour] and "
             "owner.rank_hints[position] in [0, component.rank]" + NEGATIVE + "\n")
CLUES = ["tell P2 about blue", "tell P3 about 1s", "tell P2 about 1s", "tell P3 about red"]


def told_hand(game, worlds=40):
    """After clues to P2 (its blues, its 1s), what P2 was told of each card it holds, and per place
    of its hand the (colour, rank) of the cards dealt there in ``worlds`` determinizations for it."""
    state = game.new_initial_state(1)
    for text in CLUES:
        state.apply_action(next(a for a in state.legal_actions() if str(a) == text))
    assert state.decider == 1
    zone = game.zone_names.index("hand[P2]")
    rng = random.Random(7)
    dealt = [set() for _ in state.zones[zone]]
    for _ in range(worlds):
        world = state.determinize(1, rng)
        for i, c in enumerate(world.zones[zone]):
            printed = game.attributes_of(c)
            dealt[i].add((printed["colour"], printed["rank"]))
    return list(zip(state.pvars["colour_hints"][1], state.pvars["rank_hints"][1])), dealt


def test_a_zones_knowledge_keeps_what_a_seat_was_told_of_its_hidden_cards():
    told, dealt = told_hand(load_game(FIREWORKS, players=3))
    assert any(colour != "?" for colour, _ in told) and any(rank for _, rank in told)
    for (colour, rank), pairs in zip(told, dealt):
        assert all(colour in ("?", c) and rank in (0, r) for c, r in pairs), (colour, rank, pairs)
        if colour == "?" and not rank:
            assert len(pairs) > 3  # an untold card is dealt anew among many


def _negatives_kept(told, dealt) -> bool:
    """Whether every card P2 was not told is blue (or a 1) was dealt as no blue card (no 1): the
    clues "tell P2 about blue" and "tell P2 about 1s" also say what its other cards are not."""
    return all((colour != "?" or all(c != "blue" for c, _ in pairs)) and (rank or all(r != 1 for _, r in pairs))
               for (colour, rank), pairs in zip(told, dealt))


def test_a_clue_also_tells_what_the_other_cards_are_not():
    told, dealt = told_hand(load_game(FIREWORKS, players=3))
    assert any(colour == "?" for colour, _ in told) and any(not rank for _, rank in told)
    assert _negatives_kept(told, dealt)


def _told_hand_without(tmp_path, part):
    """``told_hand`` on a copy of Fireworks without ``part`` of its ruleset text."""
    text = open(FIREWORKS, encoding="utf-8").read()
    assert part in text
    path = tmp_path / "fireworks.yaml"
    path.write_text(text.replace(part, ""), encoding="utf-8")
    return told_hand(load_game(path, players=3))


def test_without_the_negative_clues_a_card_told_not_blue_is_dealt_blue(tmp_path):
    told, dealt = _told_hand_without(tmp_path, NEGATIVE)
    assert not _negatives_kept(told, dealt)


def test_without_knowledge_the_told_cards_are_dealt_anyhow(tmp_path):
    told, dealt = _told_hand_without(tmp_path, KNOWLEDGE)
    assert any(not all(colour in ("?", c) and rank in (0, r) for c, r in pairs)
               for (colour, rank), pairs in zip(told, dealt))


def test_the_true_hands_always_meet_their_knowledge():
    game = load_game(FIREWORKS, players=4)
    for state in decision_states(game, games=3, every=3):
        for zone, test in enumerate(game.zone_knowledge):
            if test is not None:
                owner = game.zone_owner_now(state, zone)
                for i, c in enumerate(state.zones[zone]):
                    assert test(state, {"component": c, "position": i, "owner": owner})


@pytest.mark.parametrize("condition, accepted", [
    ("owner.hints[position] in [0, component.rank]", True),
    ("size(owner.hand) > position and size(deck) >= 0", True),
    ("owner.secret == component.rank", False),       # a player variable only its owner sees
    ("component.told == 0", False),                  # a mark
    ("top(deck).rank == component.rank", False),     # a hidden zone's contents
    ("component.owner == owner", False),             # where the component lies
])
def test_knowledge_reads_only_what_every_seat_sees(tmp_path, condition, accepted):
    text = f"""game: {{name: K, players: 2}}
components:
  card:
    attributes: {{rank: int}}
    marks: {{told: 0}}
    in: deck
    table: [{{rank: 1, count: 6}}, {{rank: 2, count: 6}}]
zones:
  deck: {{visibility: count}}
  hand: {{per: player, visibility: owner, knowledge: "{condition}"}}
player_vars:
  hints: [0, 0]
  secret: {{initial: 0, visibility: owner}}
setup: [shuffle(deck)]
flow:
  - choose:
      options:
        draw: {{effects: ["draw(deck, active.hand)"]}}
"""
    path = tmp_path / "k.yaml"
    path.write_text(text, encoding="utf-8")
    if accepted:
        assert load_game(path).zone_knowledge[1] is not None
    else:
        with pytest.raises(ErrorList) as info:
            load_game(path)
        assert "may read only what every seat sees" in str(info.value)
