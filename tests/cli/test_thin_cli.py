"""A thin CLI: commands parse, call one app function that returns a Struct, and render it.

JSON comes from the Struct (`msgspec.to_builtins`), never from a dict built in `cli/`;
a new log's header is written in one place.
"""

from __future__ import annotations

import ast
import json
import pathlib

import msgspec
import pytest

from tabletape.app import making, reading
from tabletape.cli.params import AT_SEQ

SRC = pathlib.Path(__file__).resolve().parents[2] / "src" / "tabletape"
JSON_DOORS = {"emit_json", "visible_json"}
REPLAYS = pathlib.Path(__file__).resolve().parents[2] / "replays"


def _name(call: ast.Call) -> str:
    f = call.func
    return f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else ""


def _hand_built(node: ast.AST) -> bool:
    """Returns True when an expression builds a dict itself: a literal, a comprehension,
    or a `dict(...)` call, anywhere inside it."""
    return any(isinstance(n, (ast.Dict, ast.DictComp)) or
               (isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == "dict")
               for n in ast.walk(node))


def hand_built_json(source: str) -> list[int]:
    """Returns the lines where a dict built by hand is passed to the JSON door."""
    return [call.lineno for call in ast.walk(ast.parse(source))
            if isinstance(call, ast.Call) and _name(call) in JSON_DOORS
            and any(_hand_built(a) for a in [*call.args, *(k.value for k in call.keywords)])]


def test_the_rule_catches_a_hand_built_dict():
    assert hand_built_json('emit_json({"file": f, "ok": True})') == [1]
    assert hand_built_json('emit_json([{"seq": s} for s in x])') == [1]
    assert hand_built_json('out.write(visible_json(dict(a=1)))') == [1]
    assert hand_built_json('emit_json({k: v for k, v in x})') == [1]
    assert hand_built_json('emit_json(reading.verify(f).report)') == []


@pytest.mark.parametrize("module", sorted(p.name for p in (SRC / "cli").glob("*.py")))
def test_no_cli_module_builds_its_json_by_hand(module):
    """Every --json document is a Struct's: the command renders what the app returned."""
    assert hand_built_json((SRC / "cli" / module).read_text()) == []


def _message(node: ast.AST) -> bool:
    """Returns True for an error's words: `str(x)`, `x.reason`, `x.message`, `x.args`."""
    return (isinstance(node, ast.Call) and _name(node) == "str") or \
        (isinstance(node, ast.Attribute) and node.attr in ("reason", "message", "args"))


def decided_by_words(source: str) -> list[int]:
    """Returns the lines that choose by an error's or a mark's words: `"..." in str(e)`,
    `"..." in e.reason`, `e.reason.startswith(...)`, `m.startswith("illegal")`."""
    out = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Compare) and any(isinstance(o, (ast.In, ast.NotIn))
                                                 for o in node.ops) \
                and any(_message(c) for c in node.comparators) \
                and isinstance(node.left, ast.Constant):
            out.append(node.lineno)
        elif isinstance(node, ast.Call) and _name(node) in ("startswith", "endswith") \
                and isinstance(node.func, ast.Attribute) and node.args \
                and isinstance(node.args[0], ast.Constant) \
                and (_message(node.func.value) or node.args[0].value in ("illegal", "error")):
            out.append(node.lineno)
    return out


def test_the_rule_catches_a_choice_by_words():
    assert decided_by_words('x = "a" if "no newline" in problem.reason else "b"') == [1]
    assert decided_by_words('if "torn" in str(e): pass') == [1]
    assert decided_by_words('if e.reason.startswith("torn"): pass') == [1]
    assert decided_by_words('style = "red" if m.startswith("illegal") else ""') == [1]
    assert decided_by_words('fix = problem.repairs') == []
    assert decided_by_words('[s for s in seqs if str(s).startswith(typed)]') == []
    assert decided_by_words('if isinstance(e, MissingNewline): pass') == []


@pytest.mark.parametrize("module", sorted(p.name for p in (SRC / "cli").glob("*.py")))
def test_no_cli_module_decides_by_an_errors_words(module):
    """The CLI renders; what to advise or how to mark is chosen by the error's or the mark's
    kind (a type, a field), which app and tape give it, never by matching its text."""
    assert decided_by_words((SRC / "cli" / module).read_text()) == []


def _calls(path: pathlib.Path, name: str, min_args: int) -> list[str]:
    tree = ast.parse(path.read_text())
    return [f"{path.relative_to(SRC)}:{c.lineno}" for c in ast.walk(tree)
            if isinstance(c, ast.Call) and isinstance(c.func, ast.Attribute)
            and c.func.attr == name and len(c.args) >= min_args]


def test_a_new_log_is_started_in_one_place():
    """`new`, `record` and `simulate` write a header through `entries.start_log` alone
    (engine.simulate.header_for builds one for tests and benchmarks, and writes nothing)."""
    outside_tape = [p for p in SRC.rglob("*.py") if "tape" not in p.relative_to(SRC).parts[:1]]
    creates = [c for p in outside_tape for c in _calls(p, "create", 3)]
    starts = [c for p in outside_tape for c in _calls(p, "start", 3)
              if p.relative_to(SRC).parts[0] in ("app", "cli")]
    assert [c.partition(":")[0] for c in creates] == ["app/entries.py"]
    assert [c.partition(":")[0] for c in starts] == ["app/entries.py"]


def _json(run, *args):
    r = run(*args, "--json")
    return json.loads(r.stdout)


def _doc(report: msgspec.Struct) -> object:
    """Returns a Struct's --json document as read back (tuples become lists)."""
    return json.loads(msgspec.json.encode(msgspec.to_builtins(report)))


def test_the_json_of_the_reading_commands_is_the_app_struct(run, game):
    """What --json prints is `msgspec.to_builtins` of what the app function returns."""
    log = str(REPLAYS / "cards-of-war" / "kill-dispute.jsonl")
    other = str(REPLAYS / "cards-of-war" / "undo-correction.jsonl")
    found = reading.explain(log, 3)
    assert isinstance(found.report, msgspec.Struct)
    assert _json(run, "explain", log, "3") == _doc(found.report)
    assert _json(run, "verify", log) == _doc(reading.verify(log).report)
    compared = reading.diff(AT_SEQ.convert(log, None, None), AT_SEQ.convert(other, None, None))
    assert _json(run, "diff", log, other) == _doc(compared.report)
    judged = reading.judged(log, keep_going=False, single=True)
    assert _json(run, "validate", log) == _doc(reading.validation(judged))
    from tabletape.app.legal import legal
    assert _json(run, "legal", game, "--as", "alice") == _doc(legal(str(game), "alice"))


def test_new_and_simulate_return_their_json(tmp_path):
    started = making.new("cards-of-war", str(tmp_path / "a.jsonl"), ("alice", "bob"),
                         [("length", "short")], None, at=None, by=None)
    assert list(msgspec.to_builtins(started)) == ["file", "game", "rules_version", "players",
                                                  "options", "head"]
    done = making.simulate("cards-of-war", ("alice", "bob"), 1, str(tmp_path / "s.jsonl"),
                           [], None, 20_000)
    assert done.finished and done.outcome is not None
    assert list(msgspec.to_builtins(done)) == ["file", "game", "events", "head", "finished",
                                               "outcome"]
