"""Replay: a log read from line 1 and folded, never raising for a bad log."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import Any

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
    ruleset: Ruleset | None = None
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


Visitor = Callable[[Judged], None]
Each = Callable[[int, Fold], None]  # called with a seq and the fold after it


# The passes over a log, one function per what the caller needs (the loop is `walk`). A
# pass that may start from a checkpoint is `index.state_at`: the index reads through this
# module, never the other way round.

def replay(path: str, *, to: int | None = None, visit: Visitor | None = None,
           version: str | None = None, components: Any = None) -> Replay:
    """Folds a log from line 1 (to seq `to`, if given), judging every event: the replay.

    Never raises for a bad log: a format or chain error is kept in `Replay.error` and
    everything before it is still folded. Missing files and unknown games raise. `visit` is
    called with every line folded, up to `to`. The fold keeps every event's fate (rulings
    on old disputes); a caller that needs the state only asks `index.state_at`. `version`
    judges by another rules version than the recorded one (a version, or `latest`).
    """
    return walk(Replay(path, version=version), _records(path, components), to=to, visit=visit)


def judge_all(path: str, version: str | None = None, components: Any = None) -> Replay:
    """Folds a log judging every game event, even after an illegal one that would block the
    rest until undone (`validate`: every problem at once)."""
    return walk(Replay(path, version=version), _records(path, components), keep_going=True)


def read_chain(path: str, *, to: int | None = None, visit: Visitor | None = None) -> Replay:
    """Reads a log for its format and hash chain only (no rules): the header, the head and
    how many events, or where it breaks."""
    return walk(Replay(path), iter_records(path), to=to, rules=False, visit=visit)


def capture(path: str, seq: int, version: str | None = None, components: Any = None
            ) -> Replay:
    """Folds a log to `seq` and keeps that line's record, the state before it and its ruling
    (`Replay.captured`); the rest of the log is read for disputes about it (`explain`)."""
    return walk(Replay(path, version=version), _records(path, components), to=seq,
                capture=seq)


def _records(path: str, components: Any) -> Iterator[Record]:
    records = iter_records(path)
    return records if components is None else with_components(records, components)


def with_components(records: Iterator[Record], components: Any
                    ) -> Iterator[Record]:
    """Yields the records, the header's component data replaced by `components` (decoded by
    the game's schema): the log judged with another box's values. The bytes read, and so
    the chain, are the file's own: nothing is written."""
    for rec in records:
        if rec.line == 1 and isinstance(rec.event, Header):
            rec = msgspec.structs.replace(rec, event=msgspec.structs.replace(
                rec.event, components=components))
        yield rec


def walk(result: Replay, records: Iterable[Record], *, to: int | None = None,
         keep_going: bool = False, capture: int | None = None, rules: bool = True,
         visit: Visitor | None = None, each: Each | None = None) -> Replay:
    """Folds `records` into `result` (from line 1, or on from a checkpoint's fold): the loop.

    Every reader of a log (validate, replay, explain, log, the index, the stepper,
    the recorder) goes through here: `to` stops it after that seq; `keep_going` judges
    past an illegal event; `capture` keeps that seq's record, state before and ruling;
    `rules=False` reads format and chain only; `visit` sees every line folded; `each` is
    called with every seq folded and the fold after it (with rules; no `Judged` built).
    """
    if to is not None or capture is not None or visit is not None:
        return _walk(result, records, to, keep_going, capture, rules, visit, each)
    # The common pass, every line to the end with no visitor: the loop of `_walk` with its
    # tests for `to`, `capture` and `visit` left out, and the head and count of lines
    # stored once, from the last line folded (tests/engine/test_walk.py pins it to `_walk`).
    fold = result.fold
    last: Record | None = None
    it = iter(records)
    try:
        for rec in it:  # the first line: the header from line 1, or on from a checkpoint
            if rec.line == 1:
                fold = _start(result, rec, keep_going, rules)
            elif fold is not None:
                fold.feed(rec.line - 1, rec.event, rec.line)
            last = rec
            if each is not None and fold is not None:
                each(rec.line - 1, fold)
            break
        if fold is None:
            for last in it:  # noqa: B007 - format and chain only: the last line read is kept
                pass
        elif each is None:
            feed = fold.feed
            for last in it:
                feed(last.line - 1, last.event, last.line)
        else:
            feed = fold.feed
            for last in it:
                seq = last.line - 1
                feed(seq, last.event, last.line)
                each(seq, fold)
    except (UnknownGame, UsageError):
        raise
    except TapeError as e:
        result.error = e
    finally:
        if last is not None:
            result.head = last.digest
            result.events = last.line
    return result


def _walk(result: Replay, records: Iterable[Record], to: int | None, keep_going: bool,
          capture: int | None, rules: bool, visit: Visitor | None, each: Each | None
          ) -> Replay:
    """The loop `walk` runs, with every option: its plain definition."""
    fold = result.fold
    try:
        for rec in records:
            seq = rec.line - 1
            if to is not None and seq > to:
                if capture is None:
                    break
                if fold is not None and isinstance(rec.event, Note):
                    fold.dispute_after(seq, rec.event)  # a later ruling on the captured event
                elif fold is not None:
                    fold.undo_after(seq, rec.event, capture)  # its undo, if one comes
                continue
            err = before = None
            if seq == 0:
                fold = _start(result, rec, keep_going, rules)
            elif fold is not None:
                before = fold.state
                err = fold.feed(seq, rec.event, rec.line)
                if capture == seq:
                    result.captured = (rec, before, err)
            result.head = rec.digest
            result.events = seq + 1
            if each is not None and fold is not None:
                each(seq, fold)
            if visit is not None:
                visit(Judged(rec, seq, err, before, fold))
    except (UnknownGame, UsageError):
        raise
    except TapeError as e:
        result.error = e
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


def _ruleset_of(rec: Record, file: str) -> Ruleset:
    """Returns the ruleset of a header line: `ruleset_for(rec.raw)`, without reading the line
    again when its event is already that game's header (decoded by the game's codec)."""
    header = rec.event
    game = getattr(header, "game", None)
    if game in GAMES:
        rs = get(game)
        if type(header) is rs.Header:
            return rs
    return ruleset_for(rec.raw, file)


def _check_version(rs: Ruleset, header: Header, file: str) -> None:
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
