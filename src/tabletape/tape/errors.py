"""One small exception tree; every error knows where it happened and why."""

from __future__ import annotations

from typing import Any, TypedDict, Unpack


class Where(TypedDict, total=False):
    """Where an error happened: the keywords every TapeError takes."""

    file: str | None
    line: int | None
    seq: int | None
    offset: int | None
    field: str | None


class TapeError(Exception):
    """Base of every error tabletape reports to a person."""

    exit_code = 1

    def __init__(self, reason: str, *, file: str | None = None, line: int | None = None,
                 seq: int | None = None, offset: int | None = None, field: str | None = None):
        reason = readable(reason)
        super().__init__(reason)
        self.reason = reason
        self.file = file
        self.line = line
        self.seq = seq
        self.offset = offset
        self.field = field

    def where(self) -> str:
        """Returns 'FILE:LINE (seq S, byte B, field F)' with whatever is known."""
        head = self.file or "<input>"
        if self.line is not None:
            head += f":{self.line}"
        extra = []
        if self.seq is not None:
            extra.append(f"seq {self.seq}")
        if self.offset is not None:
            extra.append(f"byte {self.offset}")
        if self.field:
            extra.append(f"field {self.field}")
        return head + (f" ({', '.join(extra)})" if extra else "")

    def __str__(self) -> str:
        if self.file is None and self.line is None and self.seq is None:
            return self.reason
        if self.line is None and self.seq is None and self.offset is None and not self.field \
                and self.file is not None and self.file in self.reason:
            return self.reason  # it names the file already: once is enough
        return f"{self.where()}: {self.reason}"

    def to_dict(self) -> dict[str, Any]:
        return {"error": type(self).__name__, "file": self.file, "line": self.line,
                "seq": self.seq, "offset": self.offset, "field": self.field,
                "reason": self.reason}


class LogFormatError(TapeError):
    """A line is not a well-formed, canonical format-1 event."""


class TornTail(LogFormatError):
    """The last line has no trailing newline: a write was interrupted."""

    repairs = "moves the torn bytes aside"  # what `tabletape repair` does about it


class MissingNewline(TornTail):
    """The last line is a whole event that lacks only its newline, as an editor may save a
    file: nothing was torn."""

    repairs = "restores the newline"


class ChainError(TapeError):
    """`seq` or `prev` does not follow from the line before."""


class StaleWriter(TapeError):
    """The log grew since the writer read it; appending would fork it."""


class IllegalEvent(TapeError):
    """A well-formed event the rules do not allow in this state."""

    def __init__(self, reason: str, *, rule: str, event: str | None = None,
                 **where: Unpack[Where]) -> None:
        super().__init__(reason, **where)
        self.rule = rule
        self.event = event

    def __str__(self) -> str:
        said = f"{self.event}: " if self.event else ""
        return f"{self.where()}: {said}[{self.rule}] {self.reason}"

    def to_dict(self) -> dict[str, Any]:
        return {**super().to_dict(), "rule": self.rule, "event": self.event}


class UsageError(TapeError):
    """Bad input that is not a log: a missing file, an unknown game, a bad option."""

    exit_code = 2


class UnknownGame(UsageError):
    """No ruleset is registered under that id."""


def readable(reason: str) -> str:
    """Returns msgspec's words for a refused name without the pattern (a hundred escapes)."""
    from tabletape.tape.events import NAME, NAME_REFUSED
    return reason.replace(f"`str` matching regex {NAME!r}", f"`str` {NAME_REFUSED}")

