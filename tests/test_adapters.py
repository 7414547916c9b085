"""The PettingZoo and OpenSpiel adapters (interpreter/adapters/) over every shipped ruleset, and the
observations they give (interpreter/runtime/observations.py).

They are extras (``rulebook[rl]``, ``rulebook[openspiel]``, both installed by the test command);
under CI these tests fail rather than skip when one is missing.
"""
from __future__ import annotations

import os
import random

import numpy as np
import pytest

from conftest import RULESETS, VARIANTS, player_counts
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


SLOW_TEST = [pytest.mark.slow, pytest.mark.skipif(not os.environ.get("RULEBOOK_SLOW"),
                                                  reason="a slow test: run with RULEBOOK_SLOW=1")]
SLOW_VARIANTS = [pytest.param(path, marks=SLOW_TEST) for path in VARIANTS]  # CI: the rulesets they extend


def _id(value):
    return getattr(value, "stem", str(value))


@pytest.mark.parametrize("path,players", GAMES + [pytest.param(path, player_counts(path)[0], marks=SLOW_TEST)
                                                  for path in VARIANTS], ids=_id)
def test_pettingzoo_api_and_seed(path, players):
    extra("gymnasium", "rl")
    pz_test = extra("pettingzoo.test", "rl")
    from interpreter.adapters.pettingzoo import env

    cycles = 40 if path.stem in SLOW else 300
    pz_test.api_test(env(str(path), players=players), num_cycles=cycles)
    pz_test.api_test(env(str(path), players=players, action_mask_in="info"), num_cycles=cycles // 3)
    pz_test.seed_test(lambda: env(str(path), players=players), num_cycles=cycles // 3)


def bombard(e, cycles, rng):
    """bombardment_test's checks with masked actions, in both observation conventions: reset and step
    every agent again and again; every observation lies in its space and keeps its class, shape and
    dtype.  (PettingZoo 1.27's own bombardment_test cannot take the dict convention: it compares the
    array of an observation with the first observation, a dict — tictactoe_v3 fails it too.)"""
    e.reset(seed=rng.randrange(1 << 30))
    first = e.last()[0]
    for _ in range(cycles):
        for agent in e.agent_iter(e.num_agents):
            observation, _, termination, truncation, info = e.last()
            assert e.observation_space(agent).contains(observation)
            array = observation if isinstance(observation, np.ndarray) else observation["observation"]
            reference = first if isinstance(first, np.ndarray) else first["observation"]
            assert array.shape == reference.shape and array.dtype == reference.dtype == np.float32
            mask = info["action_mask"] if isinstance(observation, np.ndarray) else observation["action_mask"]
            e.step(None if termination or truncation else rng.choice(np.flatnonzero(mask).tolist()))
        e.reset(seed=rng.randrange(1 << 30))


def step_returns_observation(e):
    """``e`` with a ``step`` that returns the observation ``last()`` gives after it.  PettingZoo 1.27's
    bombardment_test takes the return of ``step`` as the next observation, though ``api_test``
    requires ``step`` to return None, so it fails on every environment with two agents or more;
    PettingZoo's pull request 1464 (merged after 1.27.0) reads ``last()`` instead, as this does."""
    from pettingzoo.utils.wrappers import BaseWrapper

    class StepReturnsObservation(BaseWrapper):
        def step(self, action):
            self.env.step(action)
            return self.env.last()[0]

    return StepReturnsObservation(e)


@pytest.mark.parametrize("path", RULESETS + SLOW_VARIANTS, ids=_id)
def test_pettingzoo_bombardment(path):
    """PettingZoo's own bombardment_test: actions sampled from the action space without the mask, an
    illegal one ending the game as in PettingZoo's classic environments (illegal_reward); and the
    same checks with masked actions, which play games deep, in both observation conventions."""
    extra("gymnasium", "rl")
    pz_test = extra("pettingzoo.test", "rl")
    from pettingzoo.utils.env_logger import EnvLogger

    from interpreter.adapters.pettingzoo import env

    slow = "mafiadollar" in path.stem or "pferderennen" in path.stem
    random.seed(4)  # bombardment_test chooses with the random module
    EnvLogger.suppress_output()  # a warning per illegal move
    try:
        e = env(str(path), action_mask_in="info", illegal_reward=-1)
        e.action_space(e.possible_agents[0]).seed(4)
        pz_test.bombardment_test(step_returns_observation(e), cycles=10 if slow else 100)
    finally:
        EnvLogger.unsuppress_output()
    rng = random.Random(3)
    cycles = 2 if slow else 10
    bombard(env(str(path)), cycles, rng)
    bombard(env(str(path), action_mask_in="info"), cycles, rng)


def test_pettingzoo_illegal_actions_raise_or_end_the_game_as_classic_environments_do():
    extra("gymnasium", "rl")
    pz_test = extra("pettingzoo.test", "rl")
    from interpreter import IllegalActionError
    from interpreter.adapters.pettingzoo import env, parallel_env

    pz_test.api_test(env("classic/liars-dice", illegal_reward=-1), num_cycles=100)
    pz_test.seed_test(lambda: env("classic/goofspiel", action_mask_in="info", illegal_reward=-1), num_cycles=30)

    for mask_in in ("observation", "info"):
        e = env("classic/tic-tac-toe", action_mask_in=mask_in, illegal_reward=-1)
        e.reset(seed=1)
        first = e.agent_selection
        e.step(4)
        e.step(4)  # the centre is taken: the second agent loses
        assert all(e.terminations.values()) and all(e.truncations.values())
        assert e.rewards == {first: 0.0, "player_1" if first == "player_0" else "player_0": -1.0}
        for agent in e.agent_iter():
            e.step(None)
        assert e.agents == []
    strict = env("classic/tic-tac-toe")
    strict.reset(seed=1)
    strict.step(4)
    with pytest.raises(IllegalActionError):
        strict.step(4)
    parallel = parallel_env("classic/tic-tac-toe", illegal_reward=-1)
    parallel.reset(seed=1)
    parallel.step({"player_0": 4, "player_1": 0})
    _, rewards, terminations, _, _ = parallel.step({"player_0": 0, "player_1": 4})
    assert all(terminations.values()) and -1.0 in rewards.values() and parallel.agents == []


@pytest.mark.parametrize("path", RULESETS + SLOW_VARIANTS, ids=_id)
def test_pettingzoo_max_cycles_truncate_aec_and_parallel(path):
    """max_cycles as PettingZoo's max_cycles_test checks it, with masked actions (its own test
    samples actions without the mask, so an illegal action ends a game of rules early): in the AEC
    environment each agent steps at most max_cycles times and then once more (the truncated step),
    in the parallel one there are at most max_cycles steps; a game that does not end before the cap
    is truncated exactly there (Connect Four: none ends before each player dropped 3 discs)."""
    extra("gymnasium", "rl")
    from interpreter.adapters.pettingzoo import environment_module

    module = environment_module(str(path), players=player_counts(path)[0])
    rng = random.Random(0)
    for max_cycles in (1, 2, 3):
        parallel = module.parallel_env(max_cycles=max_cycles)
        observations, infos = parallel.reset(seed=1)
        steps = 0
        while parallel.agents:
            actions = {a: rng.choice(np.flatnonzero(observations[a]["action_mask"]).tolist() or [0])
                       for a in parallel.agents}
            observations, rewards, terminations, truncations, infos = parallel.step(actions)
            steps += 1
        assert steps <= max_cycles
        assert all(terminations.values()) if steps < max_cycles else all(truncations.values()) or all(terminations.values())
        e = module.env(max_cycles=max_cycles)
        e.reset(seed=2)
        counts = dict.fromkeys(e.possible_agents, 0)
        for agent in e.agent_iter():
            counts[agent] += 1
            observation, _, termination, truncation, _ = e.last()
            e.step(None if termination or truncation
                   else rng.choice(np.flatnonzero(observation["action_mask"]).tolist()))
        assert max(counts.values()) <= max_cycles + 1
        if any(e.truncations.values()):
            assert max(counts.values()) == max_cycles + 1 and all(e.truncations.values())
        if path.stem == "connect-four":
            assert steps == max_cycles and max(counts.values()) == max_cycles + 1 and all(e.truncations.values())


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


@pytest.mark.parametrize("path", RULESETS + SLOW_VARIANTS, ids=_id)
@pytest.mark.parametrize("explicit", [False, True], ids=["seeded", "explicit"])
def test_openspiel_random_simulation_with_serialization(path, explicit):
    """OpenSpiel's game_test checks: random_sim_test with serialize (serialize_game_and_state
    round trips along the game), in both chance modes; long games capped by max_game_length."""
    pyspiel = extra("pyspiel", "openspiel")
    import interpreter.adapters.openspiel  # noqa: F401  (registers the game)

    cap = 60 if path.stem.split("-")[0] in ("mafiadollar", "pferderennen") else 2000
    game = pyspiel.load_game("rulebook", {"ruleset": str(path), "players": player_counts(path)[0], "seed": 3,
                                          "explicit_chance": explicit, "max_game_length": cap})
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


def test_openspiel_game_type_comes_from_the_ruleset():
    """Perfect information where nothing is hidden (tic-tac-toe, Connect Four; Kuhn hides hands),
    zero-sum where the ruleset declares scoring.sum: 0, deterministic chance in seeded mode."""
    pyspiel = extra("pyspiel", "openspiel")
    import interpreter.adapters.openspiel  # noqa: F401

    Type = pyspiel.GameType
    for ruleset, explicit, information, chance, utility in (
            ("classic/tic-tac-toe", False, Type.Information.PERFECT_INFORMATION, Type.ChanceMode.DETERMINISTIC,
             Type.Utility.ZERO_SUM),
            ("classic/connect-four", True, Type.Information.PERFECT_INFORMATION, Type.ChanceMode.DETERMINISTIC,
             Type.Utility.ZERO_SUM),
            ("classic/kuhn-poker", True, Type.Information.IMPERFECT_INFORMATION,
             Type.ChanceMode.EXPLICIT_STOCHASTIC, Type.Utility.ZERO_SUM),
            ("classic/kuhn-poker", False, Type.Information.IMPERFECT_INFORMATION, Type.ChanceMode.DETERMINISTIC,
             Type.Utility.ZERO_SUM),
            ("la-famiglia", False, Type.Information.IMPERFECT_INFORMATION, Type.ChanceMode.DETERMINISTIC,
             Type.Utility.GENERAL_SUM)):
        kind = pyspiel.load_game("rulebook", {"ruleset": ruleset, "explicit_chance": explicit}).get_type()
        assert (kind.information, kind.chance_mode, kind.utility) == (information, chance, utility), ruleset
    forced = pyspiel.load_game("rulebook", {"ruleset": "la-famiglia", "zero_sum": True})
    assert forced.get_type().utility == Type.Utility.ZERO_SUM  # the parameter stays an override


def test_alpha_beta_solves_tic_tac_toe_through_the_adapter():
    extra("pyspiel", "openspiel")
    import pyspiel
    from open_spiel.python.algorithms import minimax

    import interpreter.adapters.openspiel  # noqa: F401

    value, _ = minimax.alpha_beta_search(pyspiel.load_game("rulebook", {"ruleset": "classic/tic-tac-toe"}))
    assert value == 0.0


@pytest.mark.parametrize("path", RULESETS + VARIANTS, ids=_id)
def test_declared_score_sums_hold_over_random_games(path):
    """scoring.sum: the scores of random games (in both chance modes) add up to what is declared."""
    game = load_game(path)
    declared = game.ruleset.score_sum
    if declared is None:
        return
    rng = random.Random(5)
    for index in range(30):
        match = Match(game.new_initial_state(index, explicit_chance=index % 2 == 1))
        while not match.is_terminal():
            match.apply_id(rng.choice(match.legal_ids()))
        assert sum(match.returns()) == declared, (index, match.returns())


def test_openspiel_truncates_at_max_game_length():
    """A game that reaches max_game_length unfinished is terminal, with the scores as they stand
    shifted to the declared sum; its state serializes like any other."""
    pyspiel = extra("pyspiel", "openspiel")
    import interpreter.adapters.openspiel  # noqa: F401

    game = pyspiel.load_game("rulebook", {"ruleset": "classic/kuhn-poker", "max_game_length": 1, "seed": 2})
    assert game.max_game_length() == 1
    state = game.new_initial_state()
    state.apply_action(state.legal_actions()[0])
    assert state.is_terminal() and state.legal_actions() == [] and state.match.truncated
    assert sum(state.returns()) == 0.0
    again = pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(game, state))[1]
    assert again.is_terminal() and str(again) == str(state)
    pyspiel.random_sim_test(pyspiel.load_game("rulebook", {"ruleset": "mafiadollar", "max_game_length": 50}),
                            num_sims=1, serialize=True, verbose=False)


def test_openspiel_states_serialize_clone_and_pickle():
    """pyspiel.serialize_game_and_state (seeded and explicit chance), the state's own
    serialize/deserialize_state, clones, and pickling the match as the engine's exact JSON."""
    import pickle

    pyspiel = extra("pyspiel", "openspiel")
    import interpreter.adapters.openspiel  # noqa: F401

    for ruleset, players, explicit in (("la-famiglia", 2, False), ("gangster", 3, False), ("gangster", 4, True)):
        game = pyspiel.load_game("rulebook", {"ruleset": ruleset, "players": players, "seed": 5,
                                              "explicit_chance": explicit})
        state = game.new_initial_state()
        rng = random.Random(1)
        for _ in range(25):
            if state.is_chance_node():
                state.apply_action(rng.choice([o for o, _ in state.chance_outcomes()]))
            else:
                state.apply_action(rng.choice(state.legal_actions()))
        copy = game.deserialize_state(state.serialize())
        again_game, again = pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(game, state))
        clone = state.clone()
        assert str(again_game) == str(game)
        for other in (copy, clone, again):
            assert str(other) == str(state) and other.history() == state.history()
            assert other.information_state_string(1) == state.information_state_string(1)
            assert other.information_state_tensor(1) == state.information_state_tensor(1)
            assert other.legal_actions() == state.legal_actions()
        assert clone.match.game is state.match.game  # the game is shared, never copied
        again = pickle.loads(pickle.dumps(state.match))
        assert again.to_dict() == state.match.to_dict() and again.game is state.match.game
        clone.apply_action(clone.legal_actions()[0] if not clone.is_chance_node() else clone.chance_outcomes()[0][0])
        assert str(clone) != str(state)


def test_openspiel_clones_share_the_match_until_one_changes_and_children_are_kept(monkeypatch):
    """Clones share the match copy-on-write; the first action on a fresh clone (``child``, or clone
    then apply_action) reaches a match kept for the next who asks, which stays as it was whatever
    is done to the states that hold it; in explicit chance every new game starts from one root.
    Played with a tiny tree budget too: past it children are made and not kept."""
    pyspiel = extra("pyspiel", "openspiel")
    import interpreter.adapters.openspiel as adapter

    def walk(state, rng, steps):
        for _ in range(steps):
            if state.is_terminal():
                break
            actions = [o for o, _ in state.chance_outcomes()] if state.is_chance_node() else state.legal_actions()
            state.apply_action(rng.choice(actions))
        return state

    for budget in (None, 3):
        if budget is not None:
            monkeypatch.setattr(adapter, "MIN_TREE_STATES", budget)
            monkeypatch.setattr(adapter, "TREE_BYTES", 0)
        game = pyspiel.load_game("rulebook", {"ruleset": "classic/leduc-poker", "explicit_chance": True})
        fresh = game.new_initial_state()
        root = walk(game.new_initial_state(), random.Random(1), 3)
        assert str(game.new_initial_state()) == str(fresh)  # the shared root is untouched
        before = str(root)
        for action in [o for o, _ in root.chance_outcomes()] if root.is_chance_node() else root.legal_actions():
            first = root.child(action)
            text = str(first)
            walk(first, random.Random(action), 6)  # changes its own copy only
            again = root.clone()
            again.apply_action(action)
            assert str(again) == str(root.child(action)) == text and str(root) == before
            assert again.history() == root.history() + [action]
            assert pyspiel.State.legal_actions(again) == again.legal_actions()  # through C++ and not
            assert again.is_chance_node() == (again.current_player() == pyspiel.PlayerId.CHANCE)
        copy = root.clone()
        walk(root, random.Random(9), 4)
        assert str(copy) == before


def test_openspiel_explicit_chance_keeps_the_deal_below_the_shared_root():
    """In explicit chance the outcomes below the shared root are kept while they are chance nodes (the
    deal): a second game dealt the same reaches the same match, which the first game's moves leave
    as it was."""
    pyspiel = extra("pyspiel", "openspiel")
    import interpreter.adapters.openspiel  # noqa: F401

    game = pyspiel.load_game("rulebook", {"ruleset": "classic/kuhn-poker", "explicit_chance": True})
    first, second = game.new_initial_state(), game.new_initial_state()
    for state in (first, second):
        state.apply_action(2)
        state.apply_action(0)
    assert not first.is_chance_node() and first.match is second.match
    dealt = first.match.state.to_json()
    first.apply_action(first.legal_actions()[0])
    assert first.match is not second.match and second.match.state.to_json() == dealt
    assert first.history() == [2, 0, first.history()[-1]] and second.history() == [2, 0]


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


def test_the_training_example_of_the_docs_beats_random():
    """docs/interop.md's training example, run as it stands: each trained agent wins more often
    against a random player than a random player does in the same seats."""
    extra("gymnasium", "rl")
    from conftest import ROOT

    text = (ROOT / "docs" / "interop.md").read_text(encoding="utf-8")
    code = text.split("### Training an agent (run by the tests)", 1)[1].split("```python\n", 1)[1].split("```", 1)[0]
    namespace: dict = {"__name__": "interop_example"}
    exec(compile(code, "docs/interop.md", "exec"), namespace)  # our own documentation, not input
    for ruleset, (trained, untrained) in namespace["results"].items():
        assert trained > untrained + 0.1, (ruleset, trained, untrained)
