"""The table at one version, as `serve --play` derives every seat's page from it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from tabletape import engine
    from tabletape.app.play import Seat
    from tabletape.tape.events import Event


@dataclass(frozen=True)
class Moment:
    """The table at one version, taken from the one fold (`Table.now`): every seat's page is
    derived from it, off the write lock (its states are frozen values)."""

    version: str
    error: str | None  # why the log cannot be read (then nothing below is set)
    rs: engine.Ruleset[Any, Any, Any] | None = None
    players: tuple[str, ...] = ()
    seq: int = -1
    judged: Any = None  # the state as the rules judge it (the umpire's)
    blocked: bool = False  # the judged table waits for the umpire
    made: Any = None  # the state the players are shown (engine.Fold.played_on), or None
    first_illegal: int | None = None
    ok: bool = False
    verdict: str = ""
    latest: int = -1  # the seq an undo would retract, or -1
    request: Any = None  # the open undo request (engine.Fold.open_request), if any
    last: tuple[int, Any, Event] | None = None  # the latest game event: seq, state before, event
    rematch: str | None = None  # the log a rematch would make (rematch_path)

    def seen_by(self, seat: Seat) -> tuple[Any, bool]:
        """Returns the state `seat` is shown and whether the table waits for the umpire
        (Table.table, from the moment)."""
        if not self.blocked or seat.umpire:
            return self.judged, self.blocked
        return (self.judged, True) if self.made is None else (self.made, False)
