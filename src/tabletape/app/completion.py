"""What a shell may offer while a command line is typed: game ids, a game's options and
their values, a log's players and seqs.

The command line wraps these as click's completion items (tabletape.cli.complete). None of
them raises: a log that cannot be read offers nothing.
"""

from __future__ import annotations

import os
from typing import Any

import msgspec
from msgspec import inspect as mi

from tabletape import engine
from tabletape.tape.codec import MAX_LINE
from tabletape.tape.events import visible

MAX_OFFERED = 500  # seqs offered at once: a shell lists them all


def games(incomplete: str) -> list[str]:
    """Returns the game ids that start as typed."""
    return [g for g in sorted(engine.GAMES) if g.startswith(incomplete)]


def game_in(words: list[str]) -> str | None:
    """Returns the first word that is a game id (the command's GAME, not parsed yet)."""
    return next((w for w in words if w in engine.GAMES), None)


def options(game: str | None, incomplete: str) -> list[str]:
    """Returns `KEY=` for each option of the game that starts as typed; after `KEY=`, the
    `KEY=VALUE`s it accepts (a game that is not one of ours: nothing)."""
    if game not in engine.GAMES:
        return []
    info = mi.type_info(engine.get(game).Options)
    if not isinstance(info, mi.StructType):
        return []
    key, sep, _ = incomplete.partition("=")
    if not sep:
        return [f"{f.name}=" for f in info.fields if f.name.startswith(key)]
    for f in info.fields:
        if f.name == key:
            t = f.type.type if isinstance(f.type, mi.Metadata) else f.type
            values: list[Any] = (["true", "false"] if isinstance(t, mi.BoolType) else
                                 list(t.values) if isinstance(t, mi.LiteralType) else [])
            return [f"{key}={v}" for v in values if f"{key}={v}".startswith(incomplete)]
    return []


def players(path: str, incomplete: str) -> list[str]:
    """Returns the players named in the log's header (line 1 alone) that start as typed."""
    try:
        with open(path, "rb") as f:
            header = msgspec.json.decode(f.readline(MAX_LINE + 1), type=dict[str, Any])
        # (a name the schema refuses is never offered: a shell would print or run it)
        names = [p for p in header.get("players", []) if isinstance(p, str) and p
                 and len(p) <= 64 and visible(p) == p]
    except (OSError, msgspec.DecodeError, msgspec.ValidationError):
        return []
    return [p for p in names if p.startswith(incomplete)]


def last_seq(path: str) -> int:
    """Returns the log's last seq, counted by its newlines (-1: none, or unreadable)."""
    try:
        with open(path, "rb") as f:
            return sum(block.count(b"\n") for block in iter(lambda: f.read(1 << 20), b"")) - 1
    except OSError:
        return -1


def seqs(path: str, incomplete: str, first: int = 1) -> list[str]:
    """Returns the log's seqs from `first` (events: 1) that start as typed, at most
    MAX_OFFERED of them."""
    return [str(s) for s in range(first, last_seq(path) + 1)
            if str(s).startswith(incomplete)][:MAX_OFFERED]


def log_points(incomplete: str) -> list[str] | None:
    """Returns `FILE@SEQ` for every seq of the log named before `@`, or None when what is
    typed is not yet `FILE@` (the shell completes a file name)."""
    path, sep, seq = incomplete.rpartition("@")
    if not sep or not os.path.isfile(path):
        return None
    return [f"{path}@{s}" for s in seqs(path, seq, first=0)]
