"""Rich output shared by every game: problems, rulings, event tables, state diffs."""

from __future__ import annotations

import json
from typing import Any

from rich.console import Console
from rich.table import Table
from rich.text import Text

from tabletape.engine import Replay, Ruleset, Ruling
from tabletape.tape.errors import TapeError

console = Console(highlight=False, soft_wrap=True)
err_console = Console(stderr=True, highlight=False, soft_wrap=True)


def drawing(rs: Ruleset, state: Any) -> Any:
    """Returns the game's own drawing of a state (its `render` module), with what comes next.

    `rs` is bound to the game (`Replay.ruleset`, `Fold.ruleset`): the drawing reads its
    components.
    """
    import importlib

    draw = importlib.import_module(f"{type(rs).__module__}.render").render
    d, o = rs.pending(state), rs.outcome(state)
    return draw(rs, state, o.summary if o else d.detail if d else "nothing")


def plain(value: Any) -> str:
    """Returns a value as compact JSON for a table cell."""
    if isinstance(value, str):
        return value
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def problem_line(e: TapeError) -> Text:
    return Text(str(e), style="red")


def ruling_table(rulings: list[Ruling], ruleset: Ruleset | None) -> Table:
    table = Table(title="disputes", title_justify="left")
    for col in ("dispute", "about", "raised by", "ruling"):
        table.add_column(col, no_wrap=True)
    table.add_column("rule", overflow="fold", min_width=24)
    table.add_column("why", ratio=1)
    for r in rulings:
        style = {"legal": "green", "illegal": "red"}.get(r.verdict, "yellow")
        rule = (r.rule or "").replace(", ", "\n")
        if r.rule and ruleset is not None and r.verdict == "illegal":
            entry = ruleset.catalogue().get(r.rule)
            if entry:
                rule = f"{r.rule}\n({entry.section})"
        table.add_row(f"seq {r.dispute_seq}", f"seq {r.about}", r.by or "—",
                      Text(r.verdict, style=style), rule, r.reason)
    return table


def summary(result: Replay) -> str:
    """Returns one sentence on a replayed log: events, problems, outcome."""
    if result.ruleset is None:
        return f"{result.file}: unreadable"
    parts = [f"{result.file}: {result.ruleset.id}, {result.events} events"]
    if result.fold is not None:
        o = result.ruleset.outcome(result.state)
        if o is not None:
            parts.append(o.summary)
        else:
            d = result.ruleset.pending(result.state)
            parts.append(f"in progress, next: {d.detail}" if d else "in progress")
        if result.fold.corrected:
            parts.append(f"{len(result.fold.corrected)} illegal event(s) corrected by undo")
        if result.fold.unjudged:
            parts.append(f"{len(result.fold.unjudged)} event(s) not judged after an illegal one")
    return "; ".join(parts)


def result_dict(result: Replay) -> dict:
    """Returns a replay's findings as plain data for --json."""
    fold = result.fold
    out: dict[str, Any] = {
        "file": result.file,
        "game": result.ruleset.id if result.ruleset else None,
        "events": result.events,
        "head": result.tail.head if result.tail else None,
        "valid": result.ok,
        "problems": [e.to_dict() for e in result.problems],
    }
    if fold is not None and result.ruleset is not None:
        o = result.ruleset.outcome(fold.state)
        out["outcome"] = None if o is None else {"winners": list(o.winners), "scores": o.scores,
                                                 "summary": o.summary}
        out["corrected"] = [{"seq": s, "rule": e.rule, "undone_at": fold.retracted[s]}
                            for s, e in fold.corrected.items()]
        out["not_judged"] = len(fold.unjudged)
        out["disputes"] = [r.__dict__ for r in fold.disputes]
    return out
