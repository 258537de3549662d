"""No function in src/ takes more than three flags (issue 36): a use says what it wants by
what it passes (a visitor, a value), not by a row of booleans steering one function.

A flag is a parameter annotated `bool` (or `bool | None`) or whose default is True or False.
"""

from __future__ import annotations

import ast
import pathlib

SRC = pathlib.Path(__file__).resolve().parent.parent / "src"
MOST = 3


def _is_bool(annotation: ast.expr | None) -> bool:
    """Returns True for an annotation `bool`, `"bool"`, `bool | None` or `Optional[bool]`."""
    if annotation is None:
        return False
    text = ast.unparse(annotation).strip("'\"").replace(" ", "")
    return text in ("bool", "bool|None", "None|bool", "Optional[bool]")


def flags(fn: ast.FunctionDef | ast.AsyncFunctionDef) -> list[str]:
    """Returns the names of a function's flag parameters."""
    a = fn.args
    positional = [*a.posonlyargs, *a.args]
    defaults: list[ast.expr | None] = [None] * (len(positional) - len(a.defaults)) + list(a.defaults)
    pairs = [*zip(positional, defaults, strict=True),
             *zip(a.kwonlyargs, a.kw_defaults, strict=True)]
    return [arg.arg for arg, default in pairs
            if _is_bool(arg.annotation)
            or (isinstance(default, ast.Constant) and isinstance(default.value, bool))]


def too_many() -> list[str]:
    """Returns `file:line name (flags)` for every function in src/ with more than MOST flags."""
    out = []
    for path in sorted(SRC.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                found = flags(node)
                if len(found) > MOST:
                    out.append(f"{path.relative_to(SRC)}:{node.lineno} {node.name} "
                               f"({', '.join(found)})")
    return out


def test_no_function_in_src_takes_more_than_three_flags():
    assert too_many() == []


def test_the_count_sees_annotations_and_defaults():
    fn = ast.parse("def f(a: bool, b=False, *, c: 'bool | None' = None, d: int = 0, e=True,"
                   " f: str = '') -> None: ...").body[0]
    assert isinstance(fn, ast.FunctionDef)
    assert flags(fn) == ["a", "b", "c", "e"]
