"""Adapters that present any ruleset through other projects' interfaces.

* :mod:`interpreter.adapters.pettingzoo` — a PettingZoo AEC environment (extra ``[rl]``);
* :mod:`interpreter.adapters.openspiel` — the OpenSpiel game ``rulebook`` (extra ``[openspiel]``);
* :mod:`interpreter.adapters.match` — what both stand on, free of extras: an engine state with the
  staged choice in progress and the actions so far.
"""
