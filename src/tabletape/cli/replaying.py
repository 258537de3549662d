"""`replay`'s state at a seq and its table: the part of the command that needs no click.

`read.replay` (the click command) and `entry` (the console script's quick path for
`replay FILE [--to SEQ] [--as PLAYER]`) both use it, so that drawing the table imports
only the engine, the game and rich.
"""

from __future__ import annotations

from typing import Any

from tabletape import engine
from tabletape.engine.index import state_at
from tabletape.tape.errors import UsageError


def replayed(file: str, to: int | None, as_player: str | None, rules: str | None = None,
             components: Any = None) -> tuple[engine.Replay, Any]:
    """Returns a log's replay after seq `to` (checked to its end for format and chain), and
    its state as `as_player` sees it; raises UsageError for a seq or a player it does not have.
    `components` (`app.whatif.Whatif`): judged with that component data, not the header's.
    """
    if to is not None and to < 0:
        raise UsageError(f"--to {to}: a seq is 0 (the header) or more", file=file)
    result = state_at(file, to=to, check_after=True, version=rules, components=components)
    rs = result.ruleset
    if rs is None or result.fold is None:
        raise result.error or UsageError("unreadable log", file=file)
    if to is not None and to >= result.events and result.error is None:
        raise UsageError(f"--to {to}: the log ends at seq {result.events - 1}", file=file)
    state = result.state
    if as_player is not None:
        if as_player not in result.header.players:
            from tabletape.app.vocab import did_you_mean
            raise UsageError(f"--as {as_player}: not a player"
                             f"{did_you_mean(as_player, result.header.players)}; players: "
                             f"{', '.join(result.header.players)}")
        state = rs.view(state, as_player)
    return result, state


def show(file: str, to: int | None, as_player: str | None, rules: str | None = None,
         components: Any = None) -> int:
    """Draws the table after seq `to` (as `as_player` sees it), the problems on stderr;
    returns the exit code: 1 when the log has problems, else 0. With `components`, says
    first that the table was judged with them and which values differ."""
    result, state = replayed(file, to, as_player, rules, components)
    rs = result.ruleset
    assert rs is not None  # `replayed` refuses a log without one
    from tabletape.cli.render import console, drawing, safe, version_note
    if components is not None:
        from rich.text import Text
        console.print(Text(components.note(), style="yellow"))
    console.print(drawing(rs, state))
    point, why = drawn_at(result)
    console.print(f"{point}" + (f", as {safe(as_player)} sees it" if as_player else "") + why,
                  markup=False)
    note = version_note(result)
    if note is not None:
        console.print(note)
    return warn(result, to)


def drawn_at(result: engine.Replay) -> tuple[str, str]:
    """Returns which state a replay holds, in words: `after seq N`, or `before seq N` when
    the illegal event at seq N is in effect (it is not applied, and what follows it is not
    judged), with why (`: seq N is illegal [RULE], not applied`); `replay` and `svg` say it.
    """
    last = result.events - 1
    fold = result.fold
    if fold is None or not fold.blocked or not fold.illegal:
        return f"after seq {last}", ""
    first = min(fold.illegal)
    later = "" if last == first else f", and the rules judge nothing after it to seq {last}"
    return f"before seq {first}", (f": seq {first} is illegal [{fold.illegal[first].rule}], "
                                   f"not applied{later}")


def warn(result: engine.Replay, to: int | None) -> int:
    """Prints a replay's problems on stderr, and what they mean for the state drawn after
    seq `to`; returns the exit code: 1 when the log has problems, else 0."""
    from tabletape.cli.render import err_console, problem_line
    fold = result.fold
    for e in result.problems:  # errors go to stderr, the state to stdout
        err_console.print(problem_line(e))
    if fold is not None and fold.blocked:
        first = min(fold.illegal)
        err_console.print(f"the state shown is the one before the illegal event at seq {first}")
    if result.error is not None:
        err_console.print(f"the state shown is after seq {result.events - 1}, the last line "
                          "read before the log breaks")
    if result.later is not None:  # a break after --to: the checkpointed fold stopped before it
        err_console.print(f"the state shown is after seq {to}, but the log breaks later: what it "
                          "records may have been changed")
    return 1 if result.problems else 0
