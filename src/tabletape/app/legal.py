"""`legal FILE [--as PLAYER]`: the legal next events of a log, as its game's `legal(state)`
yields them (chance's outcomes with their weights), each as the JSON `append` takes and
its sentence; for scripts, and for the scribe who wants to know what may come next."""

from __future__ import annotations

import msgspec

from tabletape import engine
from tabletape.engine import CHANCE, seats
from tabletape.engine.index import state_at
from tabletape.tape.errors import IllegalEvent, LogFormatError, UsageError
from tabletape.tape.events import Event


class LegalEvent(msgspec.Struct, frozen=True, kw_only=True):
    """One legal next event: the game's fields (a line `append` takes as it stands), its
    sentence, and for chance's outcomes how many ways chance can produce it (else null)."""

    event: Event
    text: str
    weight: int | None


class Legal(msgspec.Struct, frozen=True, kw_only=True):
    """`legal --json`: after which seq, who decides and what (`pending`), for whom the list
    is (`as`: null for everyone), and the legal events."""

    file: str
    seq: int
    pending: engine.Decision
    as_: str | None = msgspec.field(name="as")
    events: list[LegalEvent]


def legal(file: str, as_player: str | None = None, rules: str | None = None) -> Legal:
    """Returns the legal next events of the log `file`; with `as_player`, those that player
    may enter (engine.seats.offered: the events they own, and for their own hidden draw the
    cards they cannot rule out, without weights). Refuses a log that does not
    read (its error), one blocked by an illegal event in effect, and a finished game."""
    result = state_at(file, version=rules)
    if result.error is not None:
        raise result.error
    fold, rs, tail = result.fold, result.ruleset, result.tail
    if fold is None or rs is None or tail is None:
        raise LogFormatError("no header", file=file, line=1)
    players = fold.header.players
    if as_player is not None and as_player not in players:
        from tabletape.app.vocab import did_you_mean
        raise UsageError(f"--as {as_player}: not a player{did_you_mean(as_player, players)}; "
                         f"players: {', '.join(players)}", file=file)
    if fold.blocked:
        first = min(fold.illegal)
        raise IllegalEvent(f"the log has an illegal event at seq {first} that is still in "
                           "effect: no game event is legal until it is undone (tabletape undo)",
                           rule=fold.illegal[first].rule, file=file)
    state = fold.state
    decision = rs.pending(state)
    if decision is None:
        outcome = rs.outcome(state)
        raise IllegalEvent(f"the game is over: {outcome.summary if outcome else 'it has ended'}; "
                           "no game event is legal", rule="core.game.over", file=file)
    events = seats.offered(rs, state, as_player)
    # chance's weights are the cards left in a deck: what the other hands hold, for a player
    weights = (rs.weights(state, events) if decision.actor == CHANCE and as_player is None
               else [None] * len(events))
    return Legal(file=file, seq=tail.seq, pending=decision, as_=as_player,
                 events=[LegalEvent(event=e, text=engine.describe(rs, e), weight=w)
                         for e, w in zip(events, weights, strict=True)])
