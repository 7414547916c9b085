"""The native playout kernel: a checked ruleset compiled to C for whole games under a simple policy.

It sits above the engine core (``compile/``, ``codegen/``, ``runtime/``, ``store/``) and below the
tools.  ``kernel_for(game)`` builds a game's kernel from its typed IR and layout (never from the
ruleset's text) with cffi and a C compiler, cached on disk by the SHA-256 of the generated source;
where the extra (``rulebook[native]``) or a compiler is missing, or the ruleset uses a construct
the kernel does not translate yet, it raises ``NativeUnavailable`` with the reason and the tools
run the game in Python.  A kernel plays seeded games exactly as the Python engine does (the same
splitmix generator, the same legal actions in the same order), checks every array access and
integer operation, and reports a failing rule as the same located ``RulesRuntimeError``.
"""
from .kernel import Kernel, NativeUnavailable, kernel_for

__all__ = ["Kernel", "NativeUnavailable", "kernel_for"]
