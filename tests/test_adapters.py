"""The PettingZoo and OpenSpiel adapters (interpreter/adapters/) over every shipped ruleset, and the
observations they give (interpreter/runtime/observations.py).

They are extras (``rulebook[rl]``, ``rulebook[openspiel]``, both installed by the test command);
under CI these tests fail rather than skip when one is missing.
"""
from __future__ import annotations

import os
import random

import pytest

from conftest import RULESETS, player_counts
from interpreter import load_game
from interpreter.adapters.match import Match, MatchObserver
from interpreter.runtime.observations import Observer, observation_string


def extra(module: str, install: str):
    if os.environ.get("CI") == "true":
        return __import__(module, fromlist=["_"])
    return pytest.importorskip(module, reason=f"an extra: pip install -e '.[{install}]'")


SLOW = {"pferderennen-mafia", "mafiadollar"}  # long games: fewer cycles and player counts in CI
GAMES = [(path, n) for path in RULESETS
         for n in (sorted({player_counts(path)[0], player_counts(path)[-1]}) if path.stem in SLOW else player_counts(path))]


def _id(value):
    return getattr(value, "stem", str(value))


@pytest.mark.parametrize("path,players", GAMES, ids=_id)
def test_pettingzoo_api_and_seed(path, players):
    extra("gymnasium", "rl")
    pz_test = extra("pettingzoo.test", "rl")
    from interpreter.adapters.pettingzoo import env

    cycles = 40 if path.stem in SLOW else 300
    pz_test.api_test(env(str(path), players=players), num_cycles=cycles)
    pz_test.seed_test(lambda: env(str(path), players=players), num_cycles=cycles // 3)


def test_pettingzoo_plays_whole_games_with_masks_and_final_scores():
    extra("gymnasium", "rl")
    from interpreter.adapters.pettingzoo import env

    e = env("la-famiglia", render_mode="ansi")
    for seed in range(3):
        e.reset(seed=seed)
        rewards = {a: 0.0 for a in e.possible_agents}
        for agent in e.agent_iter():
            obs, reward, termination, truncation, info = e.last()
            rewards[agent] += reward
            assert obs["observation"].shape == e.observation_space(agent)["observation"].shape
            action = None
            if not (termination or truncation):
                assert obs["action_mask"].sum() == len(info["legal_actions"]) > 0
                action = e.action_space(agent).sample(obs["action_mask"])
            e.step(action)
        assert [rewards[a] for a in e.possible_agents] == e.match.returns()
        assert "game" in e.render()


@pytest.mark.parametrize("path", RULESETS, ids=_id)
def test_openspiel_random_simulation(path):
    pyspiel = extra("pyspiel", "openspiel")
    import interpreter.adapters.openspiel  # noqa: F401  (registers the game)

    game = pyspiel.load_game("rulebook", {"ruleset": str(path), "players": player_counts(path)[0], "seed": 3})
    assert game.get_type().information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert game.get_type().chance_mode == pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC
    pyspiel.random_sim_test(game, num_sims=1, serialize=False, verbose=False)


def test_openspiel_states_serialize_clone_and_pickle():
    """pyspiel.serialize_game_and_state (and so pickling a pyspiel state) needs a C++ RNG state for
    sampled chance, which a Python game cannot give; the state's own serialize/deserialize_state
    work, and pickle the match as the engine's exact JSON."""
    import pickle

    pyspiel = extra("pyspiel", "openspiel")
    import interpreter.adapters.openspiel  # noqa: F401

    for ruleset, players in (("la-famiglia", 2), ("gangster", 3)):
        game = pyspiel.load_game("rulebook", {"ruleset": ruleset, "players": players, "seed": 5})
        state = game.new_initial_state()
        rng = random.Random(1)
        for _ in range(25):
            state.apply_action(rng.choice(state.legal_actions()))
        copy = game.deserialize_state(state.serialize())
        clone = state.clone()
        for other in (copy, clone):
            assert str(other) == str(state) and other.history() == state.history()
            assert other.information_state_string(1) == state.information_state_string(1)
            assert other.information_state_tensor(1) == state.information_state_tensor(1)
        assert clone.match.game is state.match.game  # the game is shared, never copied
        again = pickle.loads(pickle.dumps(state.match))
        assert again.to_dict() == state.match.to_dict() and again.game is state.match.game
        clone.apply_action(clone.legal_actions()[0])
        assert str(clone) != str(state)


def test_ismcts_through_openspiel_beats_random_smoke():
    """A short smoke run of OpenSpiel's Python ISMCTS with determinize as its resampler (the full
    benchmark is benchmarks/interop.py)."""
    extra("pyspiel", "openspiel")
    from benchmarks.interop import play_ismcts_vs_random

    wins, games = play_ismcts_vs_random("la-famiglia", games=2, simulations=30, seed=0)
    assert games == 2 and wins >= 1


@pytest.mark.parametrize("path,players", [(p, player_counts(p)[-1]) for p in RULESETS], ids=_id)
def test_observations_equal_for_states_differing_only_in_hidden_things(path, players):
    """Determinizing for a seat deals anew what it cannot see: its vector and strings stay equal,
    as do the information-state strings of the match."""
    game = load_game(path, players=players)
    observer = Observer(game, game.action_space().strings)
    staged = MatchObserver(game, history=True)
    state = game.new_initial_state(7)
    match = Match(state)
    rng = random.Random(7)
    steps = 40 if path.stem in SLOW else 120
    for _ in range(steps):
        if match.is_terminal():
            break
        for seat in range(players):
            twin = match.determinized(seat, random.Random(rng.random()))
            assert observer.encode(twin.state, seat) == observer.encode(match.state, seat)
            assert len(observer.encode(match.state, seat)) == observer.size
            assert staged.encode(twin, seat) == staged.encode(match, seat)
            assert observation_string(twin.state, seat) == observation_string(match.state, seat)
            assert twin.information_state_string(seat) == match.information_state_string(seat)
        match.apply_id(rng.choice(match.legal_ids()))


def test_observation_vectors_see_what_a_seat_sees():
    """The hand of seat 0 shows in its own vector and not in seat 1's (hidden hands)."""
    game = load_game("la-famiglia")
    observer = Observer(game, [])
    state = game.new_initial_state(1)
    start = next(s for what, s, _ in observer.layout if what == "zone hand[P1]")
    own, other = observer.encode(state, 0), observer.encode(state, 1)
    n = observer.num_names
    assert own[start] == other[start] == 4.0  # both see how many cards
    assert sum(own[start + 1:start + 1 + n]) == 4.0 and sum(other[start + 1:start + 1 + n]) == 0.0


def test_openspiel_game_strings_round_trip_ruleset_parameters():
    pyspiel = extra("pyspiel", "openspiel")
    import interpreter.adapters.openspiel  # noqa: F401

    game = pyspiel.load_game("rulebook", {"ruleset": "classic/goofspiel", "params": "num_cards=3 points_order=random"})
    again = pyspiel.load_game(str(game))
    assert str(again) == str(game) and "params=num_cards:3 points_order:random" in str(game)
    assert again.rulebook is game.rulebook and game.rulebook.params["num_cards"] == 3
