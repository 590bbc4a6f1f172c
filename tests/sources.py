"""Reading the project's Python sources in the tests that hold rules about them (game names, layers of imports)."""

from __future__ import annotations

import ast


def docstrings(tree: ast.AST) -> set[int]:
    """Return the ids of the docstring nodes of a module, its classes and its functions."""
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                found.add(id(first.value))
    return found
