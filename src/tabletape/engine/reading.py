"""Replay: a log read from line 1 and folded, never raising for a bad log.

One loop (`walk`) reads every log; what a pass is for (judge, judge past illegal events,
read the chain only, show each line, count at each fold, rule on one event) is the
visitor it is given, never a flag.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from itertools import islice
from typing import Any, ClassVar

import msgspec

from tabletape.engine.fold import Fold
from tabletape.engine.protocol import Ruleset
from tabletape.engine.registry import GAMES, check_header, codec_for, get, ruleset_for
from tabletape.tape.errors import IllegalEvent, LogFormatError, TapeError, UnknownGame, UsageError
from tabletape.tape.events import Header, Note
from tabletape.tape.reader import Record, Tail, read_records


# Structs, not dataclasses: a dataclass is built by generated code when its module is
# imported (about 1 ms each, on the path of every command).
class Replay(msgspec.Struct):
    """What a pass over a log found: the state, the tail, and every problem."""

    file: str
    ruleset: Ruleset[Any, Any, Any] | None = None
    header: Any = None
    fold: Fold | None = None
    head: str | None = None  # the hash of the last line folded (the tail is built when asked for)
    events: int = 0
    error: TapeError | None = None  # format or chain: reading stopped here
    later: TapeError | None = None  # format or chain past `to` (`index.check_later`)
    captured: tuple[Record, Any, IllegalEvent | None] | None = None
    version: str | None = None  # the rules version asked for (None: the one recorded; `latest`)

    @property
    def state(self) -> Any:
        return self.fold.state if self.fold else None

    @property
    def tail(self) -> Tail | None:
        """Returns the last seq folded and its hash: where a writer expects the log to end."""
        return Tail(self.events - 1, self.head) if self.head is not None else None

    @property
    def problems(self) -> list[TapeError]:
        """Returns every problem: the format/chain error, illegal events in effect, core misuse."""
        out: list[TapeError] = []
        if self.fold:
            out += sorted([*self.fold.illegal.values(), *self.fold.core_problems],
                          key=lambda e: e.seq or 0)
        if self.error:
            out.append(self.error)
        if self.later:
            out.append(self.later)
        return out

    @property
    def ok(self) -> bool:
        return not self.problems

    @property
    def rules_versions(self) -> tuple[str, str] | None:
        """Returns (recorded, judging) rules versions when they differ, else None.

        The header records the `rules_version` of the code that started the game; the
        log is judged by the ruleset installed now. A difference is information, not a
        problem: the log stays valid, and the caller says which rules judged it.
        """
        if self.header is None or self.ruleset is None:
            return None
        recorded = self.header.rules_version
        edition = getattr(self.ruleset, "edition", None)  # None: read without rules
        judging = edition.judging if edition else self.ruleset.version
        return (recorded, judging) if recorded != judging else None

    @property
    def judged_by(self) -> str | None:
        """Returns the rules version that judged the log (None: read without rules)."""
        edition = getattr(self.ruleset, "edition", None) if self.fold else None
        return edition.judging if edition else None


class Judged(msgspec.Struct):
    """One line as the loop folded it, as a visitor sees it."""

    record: Record
    seq: int
    problem: IllegalEvent | None  # its refusal, if any (None: legal, core, or not judged)
    before: Any  # the state before it (None for the header or without rules)
    fold: Fold | None  # the fold after it (None without rules)

    @property
    def event(self) -> Any:
        return self.record.event


OnLine = Callable[[Judged], None]  # a function shown every line folded (`Watch`)
OnFold = Callable[[int, Fold], None]  # a function shown every seq and the fold after it (`Each`)
# what a visitor does with each line after the header: called with its seq, its event and
# its line number (`Fold.feed`'s arguments, so that a pass that only folds costs no call of
# its own per line)
Step = Callable[[int, Any, int], Any]


# -- the visitors: what one walk over a log is for --------------------------------------------
# As python-chess reads PGN (`BaseVisitor`, `GameBuilder`): `walk` reads the lines, checks
# their format and chain, and hands each to a visitor; each use says what it wants from the
# walk by the visitor it passes, and no use re-implements the loop.

class Visitor:
    """Judges every line with the rules, to seq `to` (None: to the end): the base visitor.

    `walk` calls `start` with the result it fills, `header` with line 1 (a walk on from a
    checkpoint starts past it), then the `step` it asks for with each later line up to `to`
    (None: nothing to do but read), then `past` with each line after `to` until it returns
    False. A visitor that wants each line's whole record (bytes, offset, hash) reads it as
    it goes by (`lines`). The class attributes say how the game is opened (`keep_going`:
    judge past an illegal event; `rules=False`: format and chain only).
    """

    keep_going: ClassVar[bool] = False
    rules: ClassVar[bool] = True

    def __init__(self, to: int | None = None) -> None:
        self.to = to
        self.result: Replay | None = None
        self.fold: Fold | None = None

    def start(self, result: Replay) -> None:
        """Called once before the first line: the result to fill (its fold, on from a checkpoint)."""
        self.result, self.fold = result, result.fold

    def lines(self, records: Iterable[Record]) -> Iterable[Record]:
        """Returns the records the walk reads (a visitor may watch them go by)."""
        return records

    def header(self, rec: Record) -> None:
        """Line 1: opens the game it names (its ruleset, and the fold with `rules`)."""
        assert self.result is not None  # (`start` came first)
        self.fold = _start(self.result, rec, self.keep_going, self.rules)

    def step(self) -> Step | None:
        """Returns what is done with each line after the header: the fold's `feed` (None
        without rules: the lines are only read)."""
        return self.fold.feed if self.fold is not None else None

    def past(self, rec: Record) -> bool:
        """A line after `to`; returns whether to read on (by default the walk stops there)."""
        return False


class JudgeAll(Visitor):
    """Judges every game event, even after an illegal one that would block the rest until
    undone (`validate --keep-going`: every problem at once)."""

    keep_going = True


class Chain(Visitor):
    """Reads format and chain only, no rules: the header, the head, how many events."""

    rules = False


class Watch(Visitor):
    """Judges every line as `Visitor` does, and shows `seen` each line folded (a `Judged`:
    its record, its refusal, the state before it, the fold after it)."""

    def __init__(self, seen: OnLine, to: int | None = None) -> None:
        super().__init__(to)
        self.seen = seen
        self.rec: Record | None = None  # the line being read

    def lines(self, records: Iterable[Record]) -> Iterator[Record]:
        for rec in records:
            self.rec = rec
            yield rec

    def header(self, rec: Record) -> None:
        super().header(rec)
        self.seen(Judged(rec, 0, None, None, self.fold))

    def step(self) -> Step:
        return self.visit

    def visit(self, seq: int, event: Any, line: int) -> None:
        rec, fold = self.rec, self.fold
        assert rec is not None  # (`lines` is what the walk reads)
        if fold is None:  # format and chain only
            self.seen(Judged(rec, seq, None, None, None))
            return
        before = fold.state
        self.seen(Judged(rec, seq, fold.feed(seq, event, line), before, fold))


class WatchAll(Watch, JudgeAll):
    """`Watch`, judging past illegal events as `JudgeAll` does."""


class WatchChain(Watch, Chain):
    """`Watch` over format and chain only: each `Judged` has no fold."""


class Each(Visitor):
    """Judges every line as `Visitor` does, and calls `fold_at(seq, fold)` after each, the
    header's too (no `Judged` built: the corpus judge's legal counts)."""

    def __init__(self, fold_at: OnFold, to: int | None = None) -> None:
        super().__init__(to)
        self.fold_at = fold_at

    def header(self, rec: Record) -> None:
        super().header(rec)
        if self.fold is not None:
            self.fold_at(0, self.fold)

    def step(self) -> Step | None:
        return self.visit if self.fold is not None else None

    def visit(self, seq: int, event: Any, line: int) -> None:
        fold = self.fold
        assert fold is not None  # (`step`: with rules)
        fold.feed(seq, event, line)
        self.fold_at(seq, fold)


class Capture(Watch):
    """Judges to `seq` and keeps that line's record, the state before it and its ruling
    (`Replay.captured`); then reads on for the disputes about it and its undo (`explain`)."""

    def __init__(self, seq: int) -> None:
        super().__init__(self._keep, seq)
        self.seq = seq

    def _keep(self, j: Judged) -> None:
        if j.seq == self.seq and j.seq > 0 and self.result is not None:
            self.result.captured = (j.record, j.before, j.problem)

    def past(self, rec: Record) -> bool:
        fold, seq = self.fold, rec.line - 1
        if fold is not None and isinstance(rec.event, Note):
            fold.dispute_after(seq, rec.event)  # a later ruling on the captured event
        elif fold is not None:
            fold.undo_after(seq, rec.event, self.seq)  # its undo, if one comes
        return True


def watching(visit: OnLine | None, to: int | None = None) -> Visitor:
    """Returns the visitor of a pass that shows `visit` every line (if given), to seq `to`."""
    return Visitor(to) if visit is None else Watch(visit, to)


# The passes over a log by name. A pass that may start from a checkpoint is `index.state_at`:
# the index reads through this module, never the other way round.

def replay(path: str, *, to: int | None = None, visit: OnLine | None = None,
           version: str | None = None, components: Any = None,
           visitor: Visitor | None = None) -> Replay:
    """Folds a log from line 1 (to seq `to`, if given), judging every event: the replay.

    Never raises for a bad log: a format or chain error is kept in `Replay.error` and
    everything before it is still folded. Missing files and unknown games raise. `visit` is
    called with every line folded, up to `to` (a `Watch`); `visitor` says what the pass is
    for instead of `to` and `visit`. The fold keeps every event's fate (rulings on old
    disputes); a caller that needs the state only asks `index.state_at`. `version` judges by
    another rules version than the recorded one (a version, or `latest`).
    """
    return walk(Replay(path, version=version), _records(path, components),
                visitor or watching(visit, to))


def judge_all(path: str, version: str | None = None, components: Any = None) -> Replay:
    """Folds a log judging every game event, even after an illegal one (`JudgeAll`)."""
    return replay(path, version=version, components=components, visitor=JudgeAll())


def read_chain(path: str, *, to: int | None = None, visit: OnLine | None = None) -> Replay:
    """Reads a log for its format and hash chain only (no rules): the header, the head and
    how many events, or where it breaks."""
    return walk(Replay(path), iter_records(path),
                Chain(to) if visit is None else WatchChain(visit, to))


def capture(path: str, seq: int, version: str | None = None, components: Any = None
            ) -> Replay:
    """Folds a log to `seq` and keeps that line's record, the state before it and its ruling
    (`Replay.captured`); the rest of the log is read for disputes about it (`explain`)."""
    return replay(path, version=version, components=components, visitor=Capture(seq))


def _records(path: str, components: Any) -> Iterator[Record]:
    records = iter_records(path)
    return records if components is None else with_components(records, components)


def with_components(records: Iterator[Record], components: Any
                    ) -> Iterator[Record]:
    """Yields the records, the header's component data replaced by `components` (decoded by
    the game's schema; or a function of the header returning it, called when line 1 is
    read, so that whoever reads it need not open the log first): the log judged with another
    box's values. The bytes read, and so the chain, are the file's own: nothing is written."""
    for rec in records:
        if rec.line == 1 and isinstance(rec.event, Header):
            data = components(rec.event) if callable(components) else components
            rec = msgspec.structs.replace(rec, event=msgspec.structs.replace(
                rec.event, components=data))
        yield rec


def walk(result: Replay, records: Iterable[Record], visitor: Visitor) -> Replay:
    """Folds `records` into `result` (from line 1, or on from a checkpoint's fold), handing
    each line to `visitor`: the loop, the only one.

    Every reader of a log (validate, replay, explain, log, the index, the stepper, the
    corpus judge, the recorder) goes through here, and says by its visitor what it wants.
    The lines up to the visitor's `to` go to its `step` (the head and the count of events
    are the last of them); the lines after go to `past` until it says stop. A format or
    chain error stops reading and is kept in `result.error`, after every line before it.
    """
    visitor.start(result)
    to = visitor.to
    it = iter(visitor.lines(records))
    # the lines to fold: the first one read is seq `result.events` (0, or past a checkpoint)
    lines = it if to is None else islice(it, max(0, to + 1 - result.events))
    last: Record | None = None  # the last line folded
    try:
        for rec in lines:  # the first line: the header, or the first after a checkpoint
            if rec.line == 1:
                visitor.header(rec)
            else:
                first = visitor.step()
                if first is not None:
                    first(rec.line - 1, rec.event, rec.line)
            last = rec
            break
        step = visitor.step()
        if step is None:  # format and chain only: the lines are read, nothing else
            for last in lines:  # noqa: B007 - the last line read is kept
                pass
        else:
            for last in lines:
                step(last.line - 1, last.event, last.line)
        if to is not None:
            past = visitor.past
            for rec in it:
                if not past(rec):
                    break
    except (UnknownGame, UsageError):
        raise
    except TapeError as e:
        result.error = e
    finally:
        if last is not None:
            result.head = last.digest
            result.events = last.line
    return result


def _start(result: Replay, rec: Record, keep_going: bool, rules: bool) -> Fold | None:
    """Opens a game from its header line: the ruleset it names, checked as `new` would."""
    result.ruleset = _ruleset_of(rec, result.file)
    result.header = header = rec.event
    assert isinstance(header, Header)  # the reader decodes line 1 with the header's type
    check_header(result.ruleset, header, result.file)
    if rules:
        result.fold = Fold(result.ruleset, rec.event, keep_going=keep_going, file=result.file,
                           version=result.version)
        result.ruleset = result.fold.ruleset  # bound to this game
        _check_version(result.ruleset, header, result.file)
    return result.fold


def _ruleset_of(rec: Record, file: str) -> Ruleset[Any, Any, Any]:
    """Returns the ruleset of a header line: `ruleset_for(rec.raw)`, without reading the line
    again when its event is already that game's header (decoded by the game's codec)."""
    header = rec.event
    game = getattr(header, "game", None)
    if game in GAMES:
        rs = get(game)
        if type(header) is rs.Header:
            return rs
    return ruleset_for(rec.raw, file)


def _check_version(rs: Ruleset[Any, Any, Any], header: Header, file: str) -> None:
    """Raises LogFormatError at line 1 when the judging version (of the bound `rs`) cannot
    play this header's game: it sets an option a later version added
    (engine.versions.option_problem)."""
    edition = rs.edition
    problem = rs.version_problem(header, edition)
    if problem:
        why = (f"cannot be judged by rules {edition.judging}: {problem}" if edition.differs
               else f"bad header: {problem}")
        raise LogFormatError(why, file=file, line=1, seq=0, offset=0)


def iter_records(path: str) -> Iterator[Record]:
    """Yields a log's records (format and chain checked, no rules)."""
    return read_records(path, codec_for)
