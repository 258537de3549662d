"""Shell completion (click's, for bash, zsh and fish): game ids, options, players, seqs.

Each function is a parameter's `shell_complete`: it gets what was typed so far and
returns the candidates. They never raise: a log that cannot be read completes nothing.
"""

from __future__ import annotations

import os
from typing import Any

import click
import msgspec
from click.shell_completion import CompletionItem

from tabletape.tape.events import visible
from tabletape.tape.log import MAX_LINE


def games(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[CompletionItem]:
    from tabletape import engine
    return [CompletionItem(g) for g in sorted(engine.GAMES) if g.startswith(incomplete)]


def options(ctx: click.Context, param: click.Parameter | None,
            incomplete: str) -> list[CompletionItem]:
    """`KEY=` for each option of the command's game; after `KEY=`, the values it accepts."""
    from msgspec import inspect as mi

    from tabletape import engine
    game = ctx.params.get("game") or next((a for a in ctx.args if a in engine.GAMES), None)
    if game not in engine.GAMES:
        return []
    info = mi.type_info(engine.get(game).Options)
    assert isinstance(info, mi.StructType)
    key, sep, _ = incomplete.partition("=")
    if not sep:
        return [CompletionItem(f"{f.name}=") for f in info.fields if f.name.startswith(key)]
    for f in info.fields:
        if f.name == key:
            t = f.type.type if isinstance(f.type, mi.Metadata) else f.type
            values: list[Any] = (["true", "false"] if isinstance(t, mi.BoolType) else
                                 list(t.values) if isinstance(t, mi.LiteralType) else [])
            return [CompletionItem(f"{key}={v}") for v in values
                    if f"{key}={v}".startswith(incomplete)]
    return []


def _log_of(ctx: click.Context) -> str | None:
    """The command's log: its FILE parameter, or (when an option still lacks its value, and
    click left the words unparsed) the first word naming a file."""
    for name in ("file", "point", "a"):
        value = ctx.params.get(name)
        path = getattr(value, "path", value)
        if isinstance(path, str) and os.path.isfile(path):
            return path
    return next((a for a in ctx.args if os.path.isfile(a)), None)


def players(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[CompletionItem]:
    """The players named in the header of the command's log."""
    path = _log_of(ctx)
    if path is None:
        return []
    try:
        with open(path, "rb") as f:
            header = msgspec.json.decode(f.readline(MAX_LINE + 1), type=dict[str, Any])
        # (a name the schema refuses is never offered: a shell would print or run it)
        names = [p for p in header.get("players", []) if isinstance(p, str) and p
                 and len(p) <= 64 and visible(p) == p]
    except (OSError, msgspec.DecodeError, msgspec.ValidationError):
        return []
    return [CompletionItem(p) for p in names if p.startswith(incomplete)]


def _last_seq(path: str) -> int:
    try:
        with open(path, "rb") as f:
            return sum(block.count(b"\n") for block in iter(lambda: f.read(1 << 20), b"")) - 1
    except OSError:
        return -1


def seqs(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[CompletionItem]:
    """The seqs of the command's log (events: 1 and on), those that start as typed."""
    path = _log_of(ctx)
    if path is None:
        return []
    return [CompletionItem(str(s)) for s in range(1, _last_seq(path) + 1)
            if str(s).startswith(incomplete)][:500]


def log_points(ctx: click.Context, param: click.Parameter | None,
               incomplete: str) -> list[CompletionItem]:
    """A file, or after `FILE@`, the seqs of that log."""
    path, sep, seq = incomplete.rpartition("@")
    if not sep or not os.path.isfile(path):
        return [CompletionItem(incomplete, type="file")]
    return [CompletionItem(f"{path}@{s}") for s in range(0, _last_seq(path) + 1)
            if str(s).startswith(seq)][:500]
