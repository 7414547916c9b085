"""Any ruleset as a PettingZoo AEC environment (extra ``[rl]``: pettingzoo, gymnasium, numpy).

    >>> from interpreter.adapters.pettingzoo import env
    >>> e = env("classic/kuhn-poker")
    >>> e.reset(seed=1)
    >>> for agent in e.agent_iter():
    ...     obs, reward, termination, truncation, info = e.last()
    ...     action = None if termination or truncation else e.action_space(agent).sample(obs["action_mask"])
    ...     e.step(action)

Agents are ``player_0`` … in seat order.  Actions are ``Discrete`` over the game's action ids
(:mod:`interpreter.runtime.action_ids`; in a staged space one step is one stage of a decision, and the same
agent steps again until its action is whole).  Observations are ``{"observation": float32 vector,
"action_mask": int8 vector}`` made from the seat's view only.  Rewards are the final ``returns()``
(the scores), given when the game ends.  Simultaneous secret choices are sequential turns, as in the
engine.  ``infos[agent]`` holds the seat's ``observation_string`` and, for the agent to move,
the readable ``legal_actions``.
"""
from __future__ import annotations

import random

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from .. import load_game
from .match import Match, MatchObserver


def env(game, players=None, params=None, render_mode=None, max_steps=None) -> "RulebookEnv":
    """An AEC environment of ``game`` (a ``Game``, a ruleset name or a path)."""
    if isinstance(game, str) or players is not None or params is not None or not hasattr(game, "action_space"):
        source = game if isinstance(game, str) or not hasattr(game, "path") else game.path
        game = load_game(source, params=params, players=players)
    return RulebookEnv(game, render_mode=render_mode, max_steps=max_steps)


class RulebookEnv(AECEnv):
    metadata = {"render_modes": ["human", "ansi"], "name": "rulebook_v0", "is_parallelizable": False}

    def __init__(self, game, render_mode=None, max_steps=None):
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']}")
        self.game = game
        self.render_mode = render_mode
        self.max_steps = max_steps
        self.observer = MatchObserver(game)
        size = game.num_distinct_actions()
        self.possible_agents = [f"player_{p}" for p in range(game.num_players)]
        self.agent_name_mapping = {a: p for p, a in enumerate(self.possible_agents)}
        self.action_spaces = {a: spaces.Discrete(size) for a in self.possible_agents}
        observation = spaces.Box(-np.inf, np.inf, shape=(self.observer.size,), dtype=np.float32)
        mask = spaces.Box(0, 1, shape=(size,), dtype=np.int8)
        self.observation_spaces = {a: spaces.Dict({"observation": observation, "action_mask": mask})
                                   for a in self.possible_agents}
        self.match = None
        self._seed_rng = random.Random()

    def observation_space(self, agent):
        return self.observation_spaces[agent]

    def action_space(self, agent):
        return self.action_spaces[agent]

    def reset(self, seed=None, options=None):
        if seed is not None:
            self._seed_rng = random.Random(seed)
        self.match = Match(self.game.new_initial_state(self._seed_rng.getrandbits(64)))
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.steps = 0
        self._after_step()

    def observe(self, agent):
        seat = self.agent_name_mapping[agent]
        mask = np.zeros(self.game.num_distinct_actions(), dtype=np.int8)
        if self.match.current_player() == seat:
            mask[self.match.legal_ids()] = 1
        vector = np.asarray(self.observer.encode(self.match, seat), dtype=np.float32)
        return {"observation": vector, "action_mask": mask}

    def step(self, action):
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0.0
        self.match.apply_id(int(action))
        self.steps += 1
        self.rewards = {a: 0.0 for a in self.agents}
        if self.match.is_terminal():
            for a, r in zip(self.possible_agents, self.match.returns()):
                if a in self.rewards:
                    self.rewards[a] = r
            self.terminations = {a: True for a in self.agents}
        elif self.max_steps is not None and self.steps >= self.max_steps:
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
        if seat is not None:
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
