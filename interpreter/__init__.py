"""rulebook's interpreter: load a ruleset, start a game, ask what may be done, do it.

    >>> from interpreter import load_game
    >>> game = load_game("rulesets/my-game.yaml")   # or the name of a ruleset under rulesets/
    >>> state = game.new_initial_state(seed=1)
    >>> state.apply_action(state.legal_actions()[0])
"""
from dsl.errors import (CheckError, ErrorList, ExpressionSyntaxError, IllegalActionError, ParameterError,
                        RulebookError, RulesRuntimeError, SchemaError, YamlError)

from .runtime.actions import Action
from .game import Game, find_ruleset, load_game
from .runtime.state import State

__all__ = ["load_game", "find_ruleset", "Game", "State", "Action", "RulebookError", "YamlError",
           "SchemaError", "ExpressionSyntaxError", "CheckError", "ParameterError", "RulesRuntimeError",
           "IllegalActionError", "ErrorList"]
