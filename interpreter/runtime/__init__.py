"""The runtime: a game being played.

Belongs here: the state and its VM with the instruction set, the layout of a ruleset's tables,
actions and staged decisions, effects and functions (the built-ins), views and narration, chance
and lazy piles, determinization, the work limits, action ids and observations, the random-number
generator.  It imports nothing of the compiler, the code generator or the store."""
