"""The rows of `tabletape log`: one per event, handed out as the log is folded, in bounded memory.

A row is handed to its sink as soon as nothing later can change it. The only thing
that can is an `undone` retracting it, and only while it is on the fold's undo stack
(bounded: `MAX_UNDO_DEPTH` game events); so rows wait while they may still be undone,
at most `HOLD` of them (a row pushed out by that bound is shown without its "undone at";
the `undone` row itself still says which seq it retracts).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import msgspec
from msgspec import UNSET, UnsetType

from tabletape import engine
from tabletape.engine import seats
from tabletape.engine.index import replay_to, state_at
from tabletape.engine.protocol import MAX_UNDO_DEPTH
from tabletape.tape.codec import MAX_LINE
from tabletape.tape.errors import IllegalEvent, UsageError
from tabletape.tape.events import Event, Header, Undone, visible
from tabletape.tape.reader import open_log

HOLD = 4 * MAX_UNDO_DEPTH  # rows waiting for a possible `undone`, at most


@dataclass(slots=True)
class Row:
    """One event as `log` shows it."""

    seq: int
    by: str | None
    at: Any
    type: str
    text: str
    illegal: IllegalEvent | None
    unjudged: bool
    undone_at: int | None = None
    hidden: bool = False  # --as PLAYER: the event is one that player could not see
    judged_by: str | None = None  # the rules version judging it (None: no rules, a broken header)

    def line(self, as_player: bool = False) -> Line:
        """Returns the row as `log --json` prints it (`hidden` only with --as)."""
        return Line(seq=self.seq, by=self.by, at=self.at, type=self.type, text=self.text,
                    illegal=self.illegal.to_dict() if self.illegal else None,
                    undone_at=self.undone_at, judged_by=self.judged_by,
                    hidden=self.hidden if as_player else UNSET)


class Line(msgspec.Struct, frozen=True, kw_only=True):
    """`log --json`, one per event: who recorded it, when, its sentence and its fate."""

    seq: int
    by: str | None
    at: Any
    type: str
    text: str
    illegal: dict[str, Any] | None
    undone_at: int | None
    judged_by: str | None  # the rules version judging it, the same on every line
    hidden: bool | UnsetType = UNSET


Sink = Callable[[Row], None]


def stream(path: str, sink: Sink, *, start: int | None = None, stop: int | None = None,
           as_player: str | None = None, rules: str | None = None) -> engine.Replay:
    """Folds a log and hands `sink` a Row per event from seq `start` to seq `stop`, in order.

    Without `start`, the log is read from line 1 (every ruling whole); with it, the
    fold starts from the checkpoint index (`engine.index.state_at`) when there
    is one. With `stop`, the lines after it are still checked for format and chain
    (`check_after`); a break there is the returned replay's `later`.
    With `as_player`, an event that player could not see is shown by its type only
    (`hidden`: what the game's seats say that player may not know). `rules` judges by another rules version than the
    recorded one. Returns the replay; memory stays bounded.
    """
    if as_player is not None:
        _check_player(path, as_player)
    held: deque[Row] = deque()
    first = start or 0

    def visit(j: engine.Judged) -> None:
        fold, event, seq = j.fold, j.event, j.seq
        if isinstance(event, Undone) and j.problem is None and held and fold is not None:
            k = event.target - held[0].seq
            if 0 <= k < len(held) and fold.retracted.get(event.target) == seq:
                held[k].undone_at = seq
        if seq >= first:
            rs = fold.ruleset if fold is not None else None
            hidden = (as_player is not None and rs is not None and j.before is not None
                      and is_hidden(rs, j.before, event, as_player))
            text = (hidden_sentence(event, as_player or "") if hidden
                    else engine.describe(rs, event) if rs is not None else "")
            problem = j.problem
            if hidden and problem is not None:  # its reason may name what the player may not know
                problem = IllegalEvent("not shown: the event is hidden from "
                                       f"{visible(as_player or '')}", rule="core.secret.hidden",
                                       seq=seq)
            held.append(Row(seq, event.by, event.at, type(event).__struct_config__.tag, text,
                            problem, fold is not None and seq in fold.unjudged, None, hidden,
                            rs.edition.judging if rs is not None else None))
        # rows below the undo stack can no longer be retracted
        floor = fold.stack[0].seq if fold is not None and fold.stack else seq + 1
        while held and (held[0].seq < floor or len(held) > HOLD):
            sink(held.popleft())

    if start is None:  # every event's fate, from line 1
        result = replay_to(path, engine.reading.watching(visit, stop), rules)
    else:
        result = state_at(path, to=stop, visit=visit, check_after=True, version=rules)
    while held:
        sink(held.popleft())
    return result


def is_hidden(rs: engine.Ruleset[Any, Any, Any], before: Any, event: Event, player: str) -> bool:
    """Returns whether `player` may not know what `event` (entered in `before`) holds."""
    return bool(seats.hidden_from(rs, before, event, player))


def hidden_sentence(event: Event, player: str) -> str:
    """Returns what `log --as PLAYER` says of an event that player may not know: who
    entered it and its kind, nothing of its content."""
    who = event.by or getattr(event, "player", None) or "someone"
    return (f"{visible(who)}: {type(event).__struct_config__.tag} "
            f"(not seen by {visible(player)})")


def sentence(rs: engine.Ruleset[Any, Any, Any], before: Any, event: Event, player: str | None) -> str:
    """Returns the words `log` prints for `event` (entered in `before`), as `player` is
    shown it (`log --as`: by its kind only when hidden from them; None: the whole event)."""
    if player is not None and is_hidden(rs, before, event, player):
        return hidden_sentence(event, player)
    return engine.describe(rs, event)


def header_of(path: str) -> tuple[Header, engine.Ruleset[Any, Any, Any]]:
    """Returns a log's header and its (unbound) game, read from line 1 alone."""
    with open_log(path) as f:
        first = f.readline(MAX_LINE + 1)
    rs = engine.ruleset_for(first.rstrip(b"\n"), path)
    header = rs.codec.decode(first.rstrip(b"\n"), path, 1, 0)
    assert isinstance(header, Header)  # line 1 decodes as the game's header
    return header, rs


def _check_player(path: str, player: str) -> None:
    """Raises a UsageError when `player` is not one of the log's players (line 1 only)."""
    header, _ = header_of(path)
    if player not in header.players:
        raise UsageError(f"--as {player}: not a player ({', '.join(header.players)})",
                         file=path)
