"""A game's table as SVG: the game's own `svg` module, called with what comes next.

Every game declares an `svg` part beside its `render` part; `draw` here is
what `tabletape svg`, `view` and `serve` call. Nothing here knows a particular game.
"""

from __future__ import annotations

from typing import Any

import msgspec

from tabletape import engine
from tabletape.app.reading import RulesVersion, rules_version
from tabletape.engine.kit.svg import NARROW, Drawing
from tabletape.tape.words import next_line


def next_text(rs: engine.Ruleset[Any, Any, Any], state: Any) -> str:
    """Returns the line under a table: `next: ` what the game waits for, or `result: ` how
    it ended (a finished game has no next); the same on the terminal, in SVG and `append`."""
    d, o = rs.pending(state), rs.outcome(state)
    return next_line(d.detail if d else None, o.summary if o else None)


def draw(rs: engine.Ruleset[Any, Any, Any], state: Any, as_player: str | None = None, *,
         narrow: bool = False) -> Drawing:
    """Returns the table after a state, as `as_player` sees it (everything when None).

    `rs` is bound to the game (`Replay.ruleset`, `Fold.ruleset`): the drawing reads its
    components. What comes next is read from the whole state, as the terminal shows it.
    `narrow`: laid out for a phone (NARROW wide, its text at least 10 px at its own size:
    the contract's `width`); the game's own width otherwise.
    """
    shown = state if as_player is None else rs.view(state, as_player)
    if narrow:
        return rs.svg.draw(rs, shown, next_text(rs, state), NARROW)
    return rs.svg.draw(rs, shown, next_text(rs, state))


class Drawn(msgspec.Struct, frozen=True, kw_only=True):
    """`svg --json`: the picture written, the log, the seq drawn, for whom, the problems."""

    file: str
    log: str
    seq: int
    as_player: str | None = msgspec.field(name="as")
    rules_version: RulesVersion
    problems: list[dict[str, Any]]


def drawn(out: str, result: engine.Replay, as_player: str | None) -> Drawn:
    """Returns what `svg` wrote to `out`: the table of a replay, as `as_player` sees it."""
    return Drawn(file=out, log=result.file, seq=result.events - 1, as_player=as_player,
                 rules_version=rules_version(result),
                 problems=[e.to_dict() for e in result.problems])
