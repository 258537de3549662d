"""The command line's own parameter types: players, `--option KEY=VALUE` and `FILE@SEQ`.

Each turns what was typed into a value and refuses it with the same one-line
error as every other usage error (`error: ...`, exit 2), never click's own form.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, NamedTuple

import click

from tabletape import engine
from tabletape.app import entries
from tabletape.tape.errors import UsageError
from tabletape.tape.events import visible

if TYPE_CHECKING:
    from click import ParamType  # generic in the click mypy reads: ParamType[the value made]
else:
    class ParamType(click.ParamType):
        """click.ParamType, which is not generic at run time before click 8.2."""

        def __class_getitem__(cls, _: object) -> type:
            return cls


NAMES = ("alice", "bob", "carol", "dave", "erin", "frank", "grace", "heidi")


class Players(ParamType[tuple[str, ...]]):
    """Player names in seat order, comma-separated; with `counts`, a number picks NAMES."""

    name = "text"  # the metavar --help shows, as before there was this type

    def __init__(self, counts: bool = False) -> None:
        self.counts = counts

    def convert(self, value: Any, param: click.Parameter | None,
                ctx: click.Context | None) -> tuple[str, ...]:
        if isinstance(value, tuple):
            return value
        if self.counts and value.isdigit():
            n = int(value)
            if not 1 <= n <= len(NAMES):
                raise UsageError(f"--players {n}: give 1-{len(NAMES)} or a list of names")
            return NAMES[:n]
        return entries.players(value)


class GameOption(ParamType[tuple[str, Any]]):
    """One `KEY=VALUE` (the value as JSON if it is), as a (field, value) pair.

    When the command's game (its parameter `game`, which is eager) is known, the
    pair is checked against that game's Options at once; the command makes the
    Options of all the pairs with `entries.options_for`.
    """

    name = "text"

    def convert(self, value: Any, param: click.Parameter | None,
                ctx: click.Context | None) -> tuple[str, Any]:
        if isinstance(value, tuple):
            return value
        pair = entries.option_pair(value)
        game = ctx.params.get("game") if ctx is not None else None
        if game in engine.GAMES:  # an unknown game is the command's to refuse
            entries.options_for(engine.get(game), [pair])
        return pair

    def shell_complete(self, ctx: click.Context, param: click.Parameter, incomplete: str
                       ) -> list[Any]:
        from tabletape.cli import complete
        return complete.options(ctx, param, incomplete)


class LogPoint(NamedTuple):
    """A log, or a point in one: `FILE` or `FILE@SEQ` as typed, and its two parts."""

    spec: str
    path: str
    seq: int | None


class AtSeq(ParamType[LogPoint]):
    """`FILE` or `FILE@SEQ` (a trailing `@` and digits); a path may hold other `@`s."""

    name = "text"

    def convert(self, value: Any, param: click.Parameter | None,
                ctx: click.Context | None) -> LogPoint:
        if isinstance(value, LogPoint):
            return value
        path, sep, seq = value.rpartition("@")
        if sep and seq.isdigit():
            return LogPoint(value, path, int(seq))
        return LogPoint(value, value, None)

    def shell_complete(self, ctx: click.Context, param: click.Parameter, incomplete: str
                       ) -> list[Any]:
        from tabletape.cli import complete
        return complete.log_points(ctx, param, incomplete)


class Head(ParamType[str]):
    """An agreed head: its 64 hex digits, or the first 16 or more of them (`new` prints 16)."""

    name = "HEX"

    def convert(self, value: Any, param: click.Parameter | None,
                ctx: click.Context | None) -> str:
        text = str(value).strip().lower()
        if not re.fullmatch(r"[0-9a-f]{16,64}", text):
            raise UsageError(f"--head {visible(str(value))!r}: give the head's 64 hex digits, or "
                             "at least its first 16 (as `new` and `verify` print it)")
        return text


PLAYERS = Players()
PLAYERS_OR_COUNT = Players(counts=True)
GAME_OPTION = GameOption()
AT_SEQ = AtSeq()
HEAD = Head()


def rules_option(f: Any) -> Any:
    """`--rules VERSION|latest`: the rules version that judges a log (default: the recorded one)."""
    return click.option("--rules", "rules", metavar="VERSION|latest", default=None,
                        help="Judge by this rules version, or latest (default: the version "
                        "the log was recorded under).")(f)


def components_option(f: Any) -> Any:
    """`--components FILE`: judge with this component data instead of the log's header's."""
    return click.option("--components", "components", metavar="FILE", default=None,
                        type=click.Path(dir_okay=False),
                        help="Judge with the component data in FILE (the real box's values) "
                        "instead of the log's header's; the output says which values "
                        "differ. The log is not changed.")(f)


def whatif_for(log: str, components: str | None) -> Any:
    """Returns the component data `--components` names for this log (`app.whatif.Whatif`,
    read when the walk reaches its header), or None without the option: one reading for
    explain, validate, replay and view."""
    if components is None:
        return None
    from tabletape.app.whatif import Whatif
    return Whatif(components)
