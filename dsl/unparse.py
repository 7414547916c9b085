"""Turn syntax trees back into expression text (for explanations and messages)."""
from __future__ import annotations

from . import ast

_PRECEDENCE = {"or": 1, "and": 2, "not": 3, "compare": 4, "+": 5, "-": 5, "*": 6, "//": 6, "%": 6,
               "neg": 7}


def _prec(node) -> int:
    if isinstance(node, ast.Cond):
        return 0
    if isinstance(node, ast.BoolOp):
        return _PRECEDENCE[node.op]
    if isinstance(node, ast.Not):
        return 3
    if isinstance(node, ast.Compare):
        return 4
    if isinstance(node, ast.BinOp):
        return _PRECEDENCE[node.op]
    if isinstance(node, ast.Neg):
        return 7
    return 9


def _wrap(node, minimum) -> str:
    text = unparse(node)
    return f"({text})" if _prec(node) < minimum else text


def literal(value) -> str:
    if value is True:
        return "true"
    if value is False:
        return "false"
    if value is None:
        return "none"
    if isinstance(value, str):
        return repr(value)
    if isinstance(value, list):
        return "[" + ", ".join(literal(v) for v in value) + "]"
    return str(value)


def unparse(node) -> str:
    if isinstance(node, ast.Literal):
        return literal(node.value)
    if isinstance(node, ast.Name):
        return f"builtin.{node.id}" if node.builtin else node.id
    if isinstance(node, ast.Attr):
        return f"{_wrap(node.obj, 9)}.{node.name}"
    if isinstance(node, ast.Index):
        return f"{_wrap(node.obj, 9)}[{unparse(node.index)}]"
    if isinstance(node, ast.Slice):
        bounds = [unparse(b) if b is not None else "" for b in (node.start, node.stop)]
        return f"{_wrap(node.obj, 9)}[{bounds[0]}:{bounds[1]}]"
    if isinstance(node, ast.Call):
        args = [unparse(a) for a in node.args] + [f"{k}={unparse(v)}" for k, v in node.kwargs]
        return f"{'builtin.' if node.builtin else ''}{node.func}({', '.join(args)})"
    if isinstance(node, ast.Comprehension):
        cond = f" if {unparse(node.cond)}" if node.cond is not None else ""
        inner = f"{unparse(node.elem)} for {node.var} in {unparse(node.source)}{cond}"
        return f"[{inner}]" if node.func == "list" else f"{node.func}({inner})"
    if isinstance(node, ast.ListLit):
        return "[" + ", ".join(unparse(i) for i in node.items) + "]"
    if isinstance(node, (ast.BinOp, ast.BoolOp, ast.Compare)):
        p = _prec(node)
        return f"{_wrap(node.left, p)} {node.op} {_wrap(node.right, p + 1)}"
    if isinstance(node, ast.Not):
        return f"not {_wrap(node.operand, 3)}"
    if isinstance(node, ast.Neg):
        return f"-{_wrap(node.operand, 7)}"
    if isinstance(node, ast.Cond):
        return f"{_wrap(node.then, 1)} if {_wrap(node.test, 1)} else {unparse(node.otherwise)}"
    if isinstance(node, ast.Let):
        return f"let {node.name} = {unparse(node.value)}"
    if isinstance(node, ast.Assign):
        return f"{unparse(node.target)} {node.op} {unparse(node.value)}"
    if isinstance(node, ast.CallStmt):
        return unparse(node.call)
    if isinstance(node, ast.Break):
        return "break"
    if isinstance(node, ast.Continue):
        return "continue"
    raise TypeError(f"cannot unparse {type(node).__name__}")
