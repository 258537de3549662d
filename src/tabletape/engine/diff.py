"""Where two logs part ways: the first divergent event and a structured state diff."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from itertools import zip_longest
from typing import Any

import msgspec

from tabletape import engine
from tabletape.tape.events import Event, envelope
from tabletape.tape.reader import Record, Resume, read_records


@dataclass
class Divergence:
    """The first seq at which two logs record different events (envelope ignored)."""

    seq: int
    a: Event | None  # None: log A has ended
    b: Event | None


def first_divergence(a: str, b: str, a_to: int | None = None, b_to: int | None = None,
                     start: tuple[Resume, Resume] | None = None
                     ) -> Divergence | None:
    """Returns the first seq where the logs differ in content (not in `at`, `by` or `prev`).

    `start` skips a prefix known to be the same in both (see index.common_start).
    """
    sa, sb = start or (None, None)
    ra = _upto(read_records(a, engine.codec_for, start=sa), a_to)
    rb = _upto(read_records(b, engine.codec_for, start=sb), b_to)
    first = sa.tail.seq + 1 if sa else 0
    for seq, (x, y) in enumerate(zip_longest(ra, rb), first):
        ex = envelope(x.event) if x is not None else None
        ey = envelope(y.event) if y is not None else None
        if ex != ey:
            return Divergence(seq, x.event if x else None, y.event if y else None)
    return None


def _upto(records: Iterable[Record], to: int | None) -> Iterator[Record]:
    for rec in records:
        if to is not None and rec.line - 1 > to:
            return
        yield rec


@dataclass
class Change:
    path: str
    old: Any
    new: Any


MISSING = "<absent>"


def state_diff(a: Any, b: Any) -> list[Change]:
    """Returns every leaf that differs between two states, as paths with old/new values."""
    out: list[Change] = []
    _walk(msgspec.to_builtins(a), msgspec.to_builtins(b), "$", out)
    return out


def _walk(a: Any, b: Any, path: str, out: list[Change]) -> None:
    if isinstance(a, dict) and isinstance(b, dict):
        for k in dict.fromkeys([*a, *b]):
            _walk(a.get(k, MISSING), b.get(k, MISSING), f"{path}.{k}", out)
    elif isinstance(a, list) and isinstance(b, list) and len(a) == len(b) and \
            any(isinstance(x, (dict, list)) for x in a):
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            _walk(x, y, f"{path}[{i}]", out)
    elif a != b:
        out.append(Change(path, a, b))
