"""Replay: a log read from line 1 and folded, never raising for a bad log."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from tabletape.engine.fold import Fold
from tabletape.engine.protocol import Ruleset
from tabletape.engine.registry import check_header, codec_for, ruleset_for
from tabletape.tape import log as tapelog
from tabletape.tape.errors import IllegalEvent, TapeError, UnknownGame, UsageError
from tabletape.tape.events import Note


@dataclass
class Replay:
    """What a pass over a log found: the state, the tail, and every problem."""

    file: str
    ruleset: Ruleset | None = None
    header: Any = None
    fold: Fold | None = None
    head: str | None = None  # the hash of the last line folded (the tail is built when asked for)
    events: int = 0
    error: TapeError | None = None  # format or chain: reading stopped here
    captured: tuple[tapelog.Record, Any, IllegalEvent | None] | None = None

    @property
    def state(self) -> Any:
        return self.fold.state if self.fold else None

    @property
    def tail(self) -> tapelog.Tail | None:
        """Returns the last seq folded and its hash: where a writer expects the log to end."""
        return tapelog.Tail(self.events - 1, self.head) if self.head is not None else None

    @property
    def problems(self) -> list[TapeError]:
        """Returns every problem: the format/chain error, illegal events in effect, core misuse."""
        out: list[TapeError] = []
        if self.fold:
            out += sorted([*self.fold.illegal.values(), *self.fold.core_problems],
                          key=lambda e: e.seq or 0)
        if self.error:
            out.append(self.error)
        return out

    @property
    def ok(self) -> bool:
        return not self.problems


def replay(path: str, *, to: int | None = None, keep_going: bool = False,
           capture: int | None = None, rules: bool = True,
           observe: Callable[[tapelog.Record, IllegalEvent | None], None] | None = None) -> Replay:
    """Folds a log from line 1 (to seq `to`, if given) and returns what it found.

    Never raises for a bad log: a format or chain error is kept in `Replay.error`
    and everything before it is still folded. Missing files and unknown games raise.
    With `capture=N`, the record of seq N, the state before it and its ruling are
    kept, and the rest of the log is still read for disputes about it. `observe`
    is called with every record folded and its refusal, if any.
    """
    result = Replay(path)
    records = tapelog.read_records(path, codec_for)
    try:
        for rec in records:
            if to is not None and rec.line - 1 > to and capture is None:
                break
            err = _fold_one(result, rec, to, keep_going, capture, rules)
            if observe is not None and (to is None or rec.line - 1 <= to):
                observe(rec, err)
    except (UnknownGame, UsageError):
        raise
    except TapeError as e:
        result.error = e
    return result


def _fold_one(result: Replay, rec: tapelog.Record, to: int | None, keep_going: bool,
              capture: int | None, rules: bool) -> IllegalEvent | None:
    seq = rec.line - 1
    err = None
    past_to = to is not None and seq > to
    if seq == 0:
        result.ruleset = ruleset_for(rec.raw, result.file)
        result.header = rec.event
        check_header(result.ruleset, rec.event, result.file)
        if rules:
            result.fold = Fold(result.ruleset, rec.event, keep_going=keep_going, file=result.file)
            result.ruleset = result.fold.ruleset  # bound to this game
    elif result.fold is not None:
        if past_to:
            if isinstance(rec.event, Note) and rec.event.dispute:
                result.fold._note(seq, rec.event)
            return None
        before = result.fold.state
        err = result.fold.feed(seq, rec.event, rec.line)
        if capture == seq:
            result.captured = (rec, before, err)
    if not past_to:
        result.head = rec.digest
        result.events = seq + 1
    return err


def iter_records(path: str) -> Iterator[tapelog.Record]:
    """Yields a log's records (format and chain checked, no rules)."""
    return tapelog.read_records(path, codec_for)
