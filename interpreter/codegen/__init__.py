"""The code generator: instructions and expressions turned into Python functions built from ``ast``
nodes (never from ruleset text).

Belongs here: generated expressions, comprehensions, enumerators of legal actions, straight-line
blocks of statements, the narration's tellers, and the analyses they rest on (value ranges, indexes,
invariants).  It uses the runtime (the functions generated code calls) and nothing above it."""
