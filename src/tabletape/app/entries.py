"""What a person asks a log to take, apart from any terminal: new logs' settings and events.

Turns typed text into events and options, reads component files, and appends
events all or none after checking them against the replayed state. Nothing here
prints; the command line and the recorder report what these return or raise.
"""

from __future__ import annotations

import hashlib
import os
import secrets
from collections.abc import Iterable
from datetime import UTC, datetime
from functools import partial
from typing import Any, NamedTuple

import msgspec

from tabletape import engine
from tabletape.engine import seats
from tabletape.engine.fold import Ruling
from tabletape.engine.protocol import Violation
from tabletape.tape import log as tapelog
from tabletape.tape.errors import IllegalEvent, LogFormatError, UsageError
from tabletape.tape.events import (
    FORMAT,
    SALT_HEX,
    Event,
    Note,
    Signed,
    Undone,
    envelope,
    is_core,
)

RESERVED = ("umpire", "chance")  # the names of the seats that are not players


def fresh_salt(seq: int, event: Event) -> str:
    """Returns a fresh salt for `event` at `seq`: 128 random bits from the operating system,
    as hex. With TABLETAPE_SALTS=seed:TEXT (for examples and tests whose transcripts must
    repeat, as TABLETAPE_CLOCK=off is) the salt is made from TEXT, the seq and the event
    instead: a log so written hides nothing from whoever knows TEXT."""
    spec = os.environ.get("TABLETAPE_SALTS", "")
    if spec.startswith("seed:"):
        made = hashlib.sha256(f"{spec[5:]}\0{seq}\0".encode() + msgspec.json.encode(envelope(event)))
        return made.hexdigest()[:SALT_HEX]
    return secrets.token_hex(SALT_HEX // 2)


def now() -> str | None:
    """Returns the current UTC time for `at`, or None when TABLETAPE_CLOCK=off."""
    if os.environ.get("TABLETAPE_CLOCK", "on").lower() in ("off", "0", "no"):
        return None
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


# -- a new log's settings ----------------------------------------------------------------

def players(spec: str) -> tuple[str, ...]:
    """Returns the player names of a comma-separated list, blanks left out."""
    return tuple(p.strip() for p in spec.split(",") if p.strip())


def option_pair(text: str) -> tuple[str, Any]:
    """Returns the field name and value of one `KEY=VALUE` (the value as JSON if it is)."""
    key, sep, value = text.partition("=")
    if not sep:
        raise UsageError(f"--option takes key=value, got {text!r}")
    try:
        return key.replace("-", "_"), msgspec.json.decode(value)
    except msgspec.DecodeError:
        return key.replace("-", "_"), value


def options_for(ruleset: engine.Ruleset[Any, Any, Any], pairs: Iterable[tuple[str, Any]]) -> Any:
    """Returns the ruleset's Options with the given fields set; refuses unknown or bad ones."""
    from tabletape.app.vocab import option_value
    given = {key: option_value(ruleset, key, value) for key, value in pairs}
    try:
        return msgspec.convert(given, ruleset.Options)
    except msgspec.ValidationError as e:
        fields = ", ".join(f.name for f in msgspec.structs.fields(ruleset.Options()))
        raise UsageError(f"bad --option: {e} (options of {ruleset.id}: {fields})") from None


def load_components(ruleset: engine.Ruleset[Any, Any, Any], path: str | None) -> Any:
    """Returns the component data in a JSON file, or the game's own when there is no file."""
    if path is None:
        return ruleset.default_components()
    try:
        with open(path, "rb") as f:
            raw = f.read(tapelog.MAX_LINE + 1)
    except OSError as e:
        raise UsageError(f"cannot read components file: {e.strerror}", file=path) from None
    if len(raw) > tapelog.MAX_LINE:  # it goes into the header, which is one line
        raise UsageError(f"components file is larger than {tapelog.MAX_LINE:,} bytes, the "
                         "most a header line may hold", file=path)
    try:
        return msgspec.json.decode(raw, type=ruleset.Components)
    except (msgspec.DecodeError, msgspec.ValidationError) as e:
        raise UsageError(f"components do not fit the {ruleset.id} schema: {e}",
                         file=path) from None


def start_log(path: str, ruleset: engine.Ruleset[Any, Any, Any], players: tuple[str, ...],
              options: Iterable[tuple[str, Any]] = (), components: str | None = None, *,
              at: str | None = None, by: str | None = None, rules: str | None = None
              ) -> tuple[Any, tapelog.Tail]:
    """Writes the header of a new log (never over an existing file): the game's start for
    these players, options (`KEY=VALUE` pairs) and components file; returns it and the tail.

    Every command that starts a log (`new`, `record`, `simulate`, `balance --write-game`)
    starts it here; `rules` records an older released rules version than the current one.
    A seat is not a name: no player may be named as the umpire's seat (`RESERVED`), so that
    what the umpire writes at the table (`by: "umpire"`) is never a player's.
    """
    taken = [p for p in players if p.lower() in RESERVED]
    if taken:
        raise UsageError(f"a player may not be named {taken[0]!r}: the umpire's seat (and "
                         "chance) are named so at the table; choose another name", file=path)
    header = ruleset.start(players, options_for(ruleset, options),
                           load_components(ruleset, components))
    header = msgspec.structs.replace(header, at=at, by=by)
    if rules is not None:
        header = msgspec.structs.replace(header, rules_version=rules)
    return header, _written(path, header, ruleset)


def _written(path: str, header: Any, ruleset: engine.Ruleset[Any, Any, Any]) -> tapelog.Tail:
    """Writes a new log's header (never over an existing file), within its schema's bounds:
    the one place a log is started."""
    try:
        ruleset.codec.strict.decode(ruleset.codec.encode(header))  # the schema's bounds hold
    except msgspec.ValidationError as e:
        raise UsageError(f"the header would not be valid: {e}", file=path) from None
    return tapelog.create(path, header, ruleset.codec)


def start_again(path: str, ruleset: engine.Ruleset[Any, Any, Any], old: Any, *,
                by: str | None = None) -> tapelog.Tail:
    """Writes the header of a new log that plays another one's game again (a rematch): its
    game, rules version, players, options and components, in today's format (salted lines:
    events.FORMAT), started now; never over an existing file."""
    header = msgspec.structs.replace(old, format=FORMAT, migrated_from=None, at=now(), by=by,
                                     salt=None)
    return _written(path, header, ruleset)


# -- events ------------------------------------------------------------------------------

def event_from(ruleset: engine.Ruleset[Any, Any, Any], text: str, source: str, by: str | None,
               at: str | None) -> Event:
    """Returns an event built from the game fields a person typed; the envelope is ours.

    `source` names where the text came from in an error (`argument 2`, `<stdin>:3`);
    `by` and `at` are filled in unless the text gives them.
    """
    try:
        body = msgspec.json.decode(text.encode(), type=dict[str, Any])
    except msgspec.ValidationError:
        raise UsageError("expected one JSON object per event", file=source) from None
    except msgspec.DecodeError as e:
        raise UsageError(f"not a JSON object: {e}", file=source) from None
    for key in ("seq", "prev"):
        if key in body:
            raise UsageError(f"leave {key!r} out: tabletape fills in the envelope", file=source)
    body.setdefault("at", at)
    if by and "by" not in body:
        body["by"] = by
    body = {k: v for k, v in body.items() if v is not None}
    try:
        msgspec.convert(body, ruleset.codec.strict.type)  # every bound, names' patterns too
        event: Event = msgspec.convert(body, ruleset.union())
    except msgspec.ValidationError as e:
        from tabletape.app.vocab import hint_for_invalid
        raise UsageError(f"not a valid {ruleset.id} event: {e}"
                         f"{hint_for_invalid(ruleset, body, str(e))}", file=source) from None
    if isinstance(event, Signed):  # it could not be undone: only `sign`, which signs the head
        raise UsageError("a `signed` event is written only by `tabletape sign FILE --key KEY`, "
                         "which signs the log's head; it cannot be appended or recorded",
                         file=source)
    return event


def open_for_append(file: str, history: bool = False) -> engine.Replay:
    """Replays a log before appending; refuses a torn or corrupt one.

    Starts from the log's checkpoint index when it has one, unless `history` is
    wanted (a dispute's ruling needs every earlier event's fate).
    """
    # (start-up: every command loads this module; the checkpoint index only when a log is
    # opened for appending)
    from tabletape.engine.index import state_at
    result = engine.replay(file) if history else state_at(file)
    if result.error is not None:
        raise result.error
    if result.fold is None:
        raise LogFormatError("no header", file=file, line=1)
    return result


def last_signature(file: str) -> tuple[int, str] | None:
    """Returns the seq and signer when the log's last line is a `signed` event, else None.

    Reads the last few KiB only (a `signed` line is ~300 bytes); the log was read whole
    by `open_for_append` before, so the line is known to be well formed.
    """
    with open(file, "rb") as f:
        size = f.seek(0, os.SEEK_END)
        f.seek(max(0, size - 4096))
        tail = f.read().rstrip(b"\n").rpartition(b"\n")[2]
    try:
        body = msgspec.json.decode(tail, type=dict[str, Any])
    except (msgspec.DecodeError, msgspec.ValidationError):
        return None
    if body.get("type") != "signed":
        return None
    return int(body.get("seq", -1)), str(body.get("player", ""))


class Appended(NamedTuple):
    """What `append_checked` wrote: the new tail, and what `--force` let through."""

    tail: tapelog.Tail
    illegal: dict[int, IllegalEvent]  # seq -> its refusal: recorded anyway (--force)
    unjudged: list[int]  # seqs recorded while an illegal event was in effect (--force)
    in_effect: int | None  # the first illegal event in effect after the append, if any


def append_checked(file: str, events: list[Event], result: engine.Replay,
                   force: bool = False) -> Appended:
    """Checks events against the replayed state (folding them in), then appends all or none.

    In a log of format 2, an event whose content some seat may not know gets a fresh salt
    (in `events` itself) before it is written.

    A log blocked by an illegal event takes only core events, and an illegal event
    is refused with the rule it breaks, unless `force`: then it is written, and
    returned with its refusal, so that the caller says what was recorded.
    """
    fold, rs, tail = result.fold, result.ruleset, result.tail
    assert fold is not None and rs is not None and tail is not None
    seq = tail.seq
    salting = fold.header.format >= 2
    illegal: dict[int, IllegalEvent] = {}
    unjudged: list[int] = []
    for i, ev in enumerate(events):
        seq += 1
        if salting:  # the caller's list: what it reports is what was written
            ev = events[i] = seats.salted(rs, fold.state, ev, partial(fresh_salt, seq, ev))
        if fold.blocked and not force and not is_core(ev):
            first = min(fold.illegal)
            raise IllegalEvent(f"the log has an illegal event at seq {first} that is still in "
                               "effect; undo it first (tabletape undo) or use --force",
                               rule=fold.illegal[first].rule, file=file, seq=seq)
        problem = fold.feed(seq, ev)
        if problem is not None and not force:
            from tabletape.app.vocab import hint_for_event
            hint = hint_for_event(rs, ev)
            problem.reason += (f"; {hint}" if hint else "") + "; nothing was written"
            problem.line = None
            raise problem
        if problem is not None:
            problem.line = None
            illegal[seq] = problem
        elif seq in fold.unjudged:
            unjudged.append(seq)
    written = tapelog.append(file, events, rs.codec, expect=tail)
    return Appended(written, illegal, unjudged, min(fold.illegal) if fold.illegal else None)


# -- what was written, as the commands report it ---------------------------------------------

class Written(msgspec.Struct, frozen=True, kw_only=True):
    """`append/undo/sign --json`, one per event: its seq, the event, its sentence, and the
    refusal `--force` recorded it despite (None: it was legal)."""

    seq: int
    event: Event
    text: str
    illegal: Violation | None = None


class Noted(msgspec.Struct, frozen=True, kw_only=True):
    """`note --json`: the note written, and the ruling on the dispute it raises (or None)."""

    seq: int
    event: Event
    text: str
    ruling: Ruling | None


def written(result: engine.Replay, events: list[Event], first_seq: int,
            appended: Appended | None = None) -> list[Written]:
    """Returns each event appended after `result` as the commands report it."""
    rs = result.ruleset
    assert rs is not None
    illegal = appended.illegal if appended is not None else {}
    out = []
    for seq, e in enumerate(events, first_seq):
        refused = illegal.get(seq)
        out.append(Written(seq=seq, event=e, text=engine.describe(rs, e),
                           illegal=None if refused is None
                           else Violation(refused.rule, refused.reason)))
    return out


class Undid(NamedTuple):
    """What `undo` wrote, and what its text says of a signature it could not retract."""

    result: engine.Replay  # the log before the undo
    event: Undone
    seq: int
    signature: tuple[int, str] | None  # the seq and signer when the last line is `signed`
    target: Event | None  # the event retracted


def undo(file: str, *, at: str | None, by: str | None) -> Undid:
    """Appends `undone` for the latest effective event (a signature is never the target)."""
    result = open_for_append(file)
    fold = result.fold
    assert fold is not None and result.tail is not None
    first = result.tail.seq + 1
    ev = Undone(target=fold.latest(), at=at, by=by)
    v = fold.violation(first, ev)
    if v is not None:
        raise IllegalEvent(v.reason, rule=v.rule, file=file)
    signature = last_signature(file)
    target = next((e.event for e in reversed(fold.stack) if e.seq == ev.target), None)
    append_checked(file, [ev], result)
    return Undid(result, ev, first, signature, target)


def note(file: str, text: str, *, about: int | None, dispute: bool, at: str | None,
         by: str | None) -> tuple[engine.Replay, Noted]:
    """Appends a note (a dispute about seq `about` when `dispute`); returns the log as it
    was before it, and the note with the dispute's ruling."""
    if dispute and about is None:
        raise UsageError("a dispute needs --about SEQ")
    result = open_for_append(file, history=dispute)
    ev = Note(text=text, about=about, dispute=dispute, at=at, by=by)
    assert result.tail is not None and result.ruleset is not None
    first = result.tail.seq + 1
    append_checked(file, [ev], result)
    ruling = result.fold.disputes[-1] if dispute and result.fold is not None and \
        result.fold.disputes else None
    return result, Noted(seq=first, event=ev, text=engine.describe(result.ruleset, ev),
                         ruling=ruling)
