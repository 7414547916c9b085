"""Any ruleset as a PettingZoo environment (extra ``[rl]``: pettingzoo, gymnasium, numpy).

    >>> from interpreter.adapters.pettingzoo import env
    >>> e = env("classic/kuhn-poker")
    >>> e.reset(seed=1)
    >>> for agent in e.agent_iter():
    ...     obs, reward, termination, truncation, info = e.last()
    ...     action = None if termination or truncation else e.action_space(agent).sample(obs["action_mask"])
    ...     e.step(action)

Agents are ``player_0`` … in seat order.  Actions are ``Discrete`` over the game's action ids
(:mod:`interpreter.runtime.action_ids`; in a staged space one step is one stage of a decision, and the same
agent steps again until its action is whole).  Observations follow PettingZoo's classic environments:
``{"observation": float32 array, "action_mask": int8 array}`` with a ``Dict`` of two ``Box`` spaces;
with ``action_mask_in="info"`` the observation is the float32 array alone (a ``Box`` space) and the
mask is ``infos[agent]["action_mask"]``.  The array's layout is :meth:`RulebookEnv.observation_layout`
(docs/interop.md); it is made from the seat's view only, as is :meth:`RulebookEnv.view` (the
structured view, a dict).  Rewards are the final ``returns()`` (the scores), given when the game ends.
Simultaneous secret choices are sequential turns, as in the engine.  ``infos[agent]`` holds, for the
agent to move, the readable ``legal_actions``.

Illegal actions: by default an action outside the mask is refused with an ``IllegalActionError``
that says what is legal.  With ``illegal_reward=r`` the environment handles it as PettingZoo's classic
environments do (their ``TerminateIllegalWrapper``, which ``env`` then puts around it): the game ends
(every agent terminated and truncated), the agent that moved gets ``r`` and the others 0.  So a
learner or a test that samples the action space without the mask (``bombardment_test``) plays on.

Caps, each reported as a truncation: ``max_steps`` (the steps of all agents together) and
``max_cycles`` (the steps of each agent: the game is truncated when the agent to move has taken that
many).  :func:`parallel_env` gives a ``ParallelEnv`` in which each step is one step of the agent to
move (the others' actions are ignored; their masks are all zero), and ``max_cycles`` caps its steps.
"""
from __future__ import annotations

import random
import types

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv, ParallelEnv
from pettingzoo.utils.wrappers import TerminateIllegalWrapper

from .. import load_game
from ..runtime.observations import canonical_view
from .match import Match, MatchObserver

MASK_PLACES = ("observation", "info")


def env(game, players=None, params=None, render_mode=None, max_steps=None, max_cycles=None,
        action_mask_in="observation", illegal_reward=None) -> AECEnv:
    """An AEC environment of ``game`` (a ``Game``, a ruleset name or a path): a :class:`RulebookEnv`,
    inside PettingZoo's ``TerminateIllegalWrapper`` when ``illegal_reward`` is given."""
    raw = RulebookEnv(_loaded(game, players, params), render_mode=render_mode, max_steps=max_steps,
                      max_cycles=max_cycles, action_mask_in=action_mask_in)
    return raw if illegal_reward is None else TerminateIllegalWrapper(raw, illegal_reward=float(illegal_reward))


def parallel_env(game, players=None, params=None, render_mode=None, max_steps=None, max_cycles=None,
                 action_mask_in="observation", illegal_reward=None) -> "RulebookParallelEnv":
    """A parallel environment of ``game``: one step is one step of the agent to move, and
    ``max_cycles`` caps the parallel steps."""
    return RulebookParallelEnv(env(game, players, params, render_mode, max_steps, None, action_mask_in,
                                   illegal_reward), max_cycles)


def environment_module(game, players=None, params=None, **options) -> types.SimpleNamespace:
    """``env`` and ``parallel_env`` bound to one game, as PettingZoo's ``max_cycles_test`` expects of
    an environment's module."""
    loaded = _loaded(game, players, params)
    return types.SimpleNamespace(
        env=lambda **more: env(loaded, **{**options, **more}),
        parallel_env=lambda **more: parallel_env(loaded, **{**options, **more}))


def _loaded(game, players, params):
    if isinstance(game, str) or players is not None or params is not None or not hasattr(game, "action_space"):
        source = game if isinstance(game, str) or not hasattr(game, "path") else game.path
        game = load_game(source, params=params, players=players)
    return game


class RulebookEnv(AECEnv):
    metadata = {"render_modes": ["human", "ansi"], "name": "rulebook_v0", "is_parallelizable": False}

    def __init__(self, game, render_mode=None, max_steps=None, max_cycles=None, action_mask_in="observation"):
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']}")
        if action_mask_in not in MASK_PLACES:
            raise ValueError(f"action_mask_in must be one of {', '.join(MASK_PLACES)}")
        self.game = game
        self.render_mode = render_mode
        self.max_steps = max_steps
        self.max_cycles = max_cycles
        self.mask_in_info = action_mask_in == "info"
        self.observer = MatchObserver(game)
        size = game.num_distinct_actions()
        self.possible_agents = [f"player_{p}" for p in range(game.num_players)]
        self.agent_name_mapping = {a: p for p, a in enumerate(self.possible_agents)}
        self.action_spaces = {a: spaces.Discrete(size) for a in self.possible_agents}
        observation = spaces.Box(-np.inf, np.inf, shape=(self.observer.size,), dtype=np.float32)
        mask = spaces.Box(0, 1, shape=(size,), dtype=np.int8)
        space = observation if self.mask_in_info else spaces.Dict({"observation": observation, "action_mask": mask})
        self.observation_spaces = {a: space for a in self.possible_agents}
        self.match = None
        self._seed_rng = random.Random()

    def observation_space(self, agent):
        return self.observation_spaces[agent]

    def action_space(self, agent):
        return self.action_spaces[agent]

    def observation_layout(self) -> list:
        """``(what, start, length)`` of each block of the observation array (docs/interop.md)."""
        return self.observer.layout

    def reset(self, seed=None, options=None):
        if seed is not None:
            self._seed_rng = random.Random(seed)
        self.match = Match(self.game.new_initial_state(self._seed_rng.getrandbits(64)), limit=self.max_steps)
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.agent_steps = [0] * len(self.possible_agents)
        self._after_step()

    def action_mask(self, agent) -> np.ndarray:
        mask = np.zeros(self.game.num_distinct_actions(), dtype=np.int8)
        if self.match.current_player() == self.agent_name_mapping[agent] and not self.truncations[agent]:
            mask[self.match.legal_ids()] = 1
        return mask

    def observe(self, agent):
        vector = np.asarray(self.observer.encode(self.match, self.agent_name_mapping[agent]), dtype=np.float32)
        if self.mask_in_info:
            return vector
        return {"observation": vector, "action_mask": self.action_mask(agent)}

    def view(self, agent) -> dict:
        """The structured view of the agent's seat (``state.view`` without internal ids)."""
        return canonical_view(self.match.state.view(self.agent_name_mapping[agent]))

    def step(self, action):
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0.0
        self.match.apply_id(int(action))
        self.agent_steps[self.agent_name_mapping[agent]] += 1
        self.rewards = {a: 0.0 for a in self.agents}
        seat = self.match.current_player()
        if self.match.state.is_terminal():
            for a, r in zip(self.possible_agents, self.match.returns()):
                if a in self.rewards:
                    self.rewards[a] = r
            self.terminations = {a: True for a in self.agents}
        elif self.match.truncated or (self.max_cycles is not None and self.agent_steps[seat] >= self.max_cycles):
            self.truncations = {a: True for a in self.agents}
        self._accumulate_rewards()
        self._after_step()
        if self.render_mode == "human":
            self.render()

    def _after_step(self) -> None:
        seat = self.match.current_player()
        if seat is not None and not any(self.truncations.values()):
            self.agent_selection = self.possible_agents[seat]
        else:
            self.agent_selection = self.agents[0]
        self.infos = {a: {} for a in self.agents}
        if self.mask_in_info:
            for a in self.agents:
                self.infos[a]["action_mask"] = self.action_mask(a)
        if seat is not None and not any(self.truncations.values()):
            agent = self.possible_agents[seat]
            if agent in self.infos:
                space = self.game.action_space()
                self.infos[agent]["legal_actions"] = {i: space.describe_id(i) for i in self.match.legal_ids()}

    def render(self):
        if self.match is None:
            return None
        seat = self.match.current_player()
        text = str(self.match.state) if seat is None else self.match.observation_string(seat)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self):
        pass


class RulebookParallelEnv(ParallelEnv):
    """The AEC environment stepped in parallel: each step takes the action of the agent to move."""

    metadata = {"render_modes": ["human", "ansi"], "name": "rulebook_parallel_v0"}

    def __init__(self, aec: AECEnv, max_cycles=None):
        self.aec = aec  # a RulebookEnv, or a wrapper around one (its state is aec.unwrapped)
        self.max_cycles = max_cycles
        self.steps = 0
        self.possible_agents = aec.possible_agents
        self.render_mode = aec.render_mode

    def observation_space(self, agent):
        return self.aec.observation_space(agent)

    def action_space(self, agent):
        return self.aec.action_space(agent)

    def reset(self, seed=None, options=None):
        self.aec.reset(seed=seed, options=options)
        self.steps = 0
        self.agents = self.aec.agents[:]
        return {a: self.aec.observe(a) for a in self.agents}, {a: dict(self.aec.infos[a]) for a in self.agents}

    def step(self, actions):
        self.aec.step(actions[self.aec.agent_selection])
        aec = self.aec.unwrapped
        self.steps += 1
        if self.max_cycles is not None and self.steps >= self.max_cycles and not aec.match.is_terminal():
            aec.truncations = {a: True for a in aec.agents}
        rewards = {a: aec._cumulative_rewards[a] for a in self.agents}
        observations = {a: self.aec.observe(a) for a in self.agents}
        terminations = {a: aec.terminations[a] for a in self.agents}
        truncations = {a: aec.truncations[a] for a in self.agents}
        infos = {a: dict(aec.infos[a]) for a in self.agents}
        for a in self.agents:
            aec._cumulative_rewards[a] = 0.0
        self.agents = [a for a in self.agents if not (terminations[a] or truncations[a])]
        return observations, rewards, terminations, truncations, infos

    def render(self):
        return self.aec.render()

    def close(self):
        pass
