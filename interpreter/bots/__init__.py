"""Bots: players that choose an action by themselves.

A bot sees a state only through the public API (``legal_actions()``, ``view(seat)``, ``clone()``,
...); it never reads hidden parts of the state directly.  Bots are named by a spec string such as
``random`` or ``name:key=value,key=value``; :func:`make_bot` turns a spec into a bot for one seat.
"""
from .base import BOTS, MAX_DECISIONS, Bot, action_key, bot_seed, declared_bot, make_bot, parse_spec, play_game, register_bot, split_specs, stronger_spec
from .random import RandomBot
from .greedy import GreedyBot, lead
from .mcts import MctsBot, Search
from .flat import FlatBot
from .focus import FocusBot
from .lookahead import LookaheadBot
from .ismcts import IsmctsBot

__all__ = ["BOTS", "MAX_DECISIONS", "Bot", "bot_seed", "declared_bot", "make_bot", "parse_spec", "play_game", "register_bot", "split_specs", "stronger_spec",
           "FlatBot", "FocusBot", "IsmctsBot", "LookaheadBot", "GreedyBot", "lead", "MctsBot", "Search", "action_key", "RandomBot"]
