"""The compile stage: a checked ruleset in, a program out (:func:`.program.compile_program`).

Belongs here: turning statements into the VM's instructions (``compiler``, ``statements``), inlining
calls, and the closure form of expressions and comprehensions that the generated code is checked
against.  It uses the code generator (``interpreter.codegen``) and the runtime's instruction set."""
