"""What OpenSpiel's algorithms plug into a rulebook game (:mod:`interpreter.adapters.openspiel`):
the Python observer behind ``make_py_observer`` (tensors and strings), a resampler for ISMCTS that
deals the hidden part anew (``State.determinize``), an evaluator for its MCTS-style bots from the
ruleset's evaluation, and the game's ``utility`` applied to per-seat values.  The adapter module
re-exports them (``adapter.resampler``, ``adapter.EvaluationEvaluator``)."""
from __future__ import annotations

import random

import numpy as np

from .match import MatchObserver


class RulebookObserver:
    """OpenSpiel's Python observer: ``tensor`` (float32) and ``string_from``; the information-state
    kind adds the seat's own and the public actions so far (see :class:`MatchObserver`)."""

    def __init__(self, rulebook_game, perfect_recall):
        self.perfect_recall = perfect_recall
        self.encoder = MatchObserver(rulebook_game, history=perfect_recall)
        self.tensor = np.zeros(self.encoder.size, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state, player):
        match = state.seen_match()
        key = ("tensor", player, self.perfect_recall)  # OpenSpiel asks again and again between moves
        array = match.seen.get(key)
        if array is None:
            array = match.seen[key] = np.asarray(self.encoder.encode(match, player), dtype=np.float32)
        self.tensor[:] = array

    def string_from(self, state, player):
        if self.perfect_recall:
            return state.seen_match().information_state_string(player)
        return state.seen_match().observation_string(player)


def resampler(seed=None):
    """A resampler for ``ISMCTSBot.set_resampler``: the state determinized for the searching seat."""
    rng = random.Random(seed)

    def resample(state, player):
        return state.determinized(player, rng)

    return resample


def utilities(values, utility) -> list:
    """Per-seat values as the game's ``utility`` counts them (see the module's docstring)."""
    values = [float(v) for v in values]
    if utility == "score" or len(values) < 2:
        return values
    margins = [v - max(values[:p] + values[p + 1:]) for p, v in enumerate(values)]
    if utility == "margin":
        return margins
    return [1.0 if m > 0 else (0.0 if m == 0 else -1.0) for m in margins]


class EvaluationEvaluator:
    """An evaluator for OpenSpiel's MCTS-style bots: the ruleset's ``evaluate`` of every seat (its
    score when it declares none) on the sampled state, which a resampled search only ever holds
    determinized, counted as the game's utility counts scores; uniform priors."""

    def evaluate(self, state):
        match = state.match
        if match.is_terminal():
            return np.array(state.returns(), dtype=float)
        values = [match.state.evaluate(p) for p in range(match.game.num_players)]
        return np.array(utilities(values, state.get_game().utility))

    def prior(self, state):
        actions = state.legal_actions()
        return [(a, 1.0 / len(actions)) for a in actions]
