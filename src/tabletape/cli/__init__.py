"""The tabletape command line: parse, call the library, render. Nothing else lives here."""

from __future__ import annotations

import functools
import importlib
import os
import sys
from datetime import UTC, datetime
from typing import Any

import click
import msgspec

from tabletape import engine
from tabletape.tape import log as tapelog
from tabletape.tape.errors import IllegalEvent, LogFormatError, TapeError, UsageError
from tabletape.tape.events import Event, Note, Undone, is_core

EPILOG_CLOCK = "Set TABLETAPE_CLOCK=off to leave `at` out (reproducible files)."


def handles_errors(fn):
    """Turns every TapeError into a one-line message and its exit code; never a traceback."""
    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        try:
            return fn(*args, **kwargs)
        except TapeError as e:
            _fail(e)
        except OSError as e:
            _fail(UsageError(f"{e.strerror or e}", file=getattr(e, "filename", None)))
    return wrapper


def _fail(e: TapeError) -> None:
    from rich.text import Text

    from tabletape.cli.render import err_console
    err_console.print(Text.assemble(("error: ", "red"), str(e)))
    sys.exit(e.exit_code)


def emit_json(data: Any) -> None:
    click.echo(msgspec.json.encode(data).decode())


def now() -> str | None:
    """Returns the current UTC time for `at`, or None when TABLETAPE_CLOCK=off."""
    if os.environ.get("TABLETAPE_CLOCK", "on").lower() in ("off", "0", "no"):
        return None
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


# Commands that live in other modules, imported only when that command runs, so that
# start-up (one `append` at the table) does not pay for what it does not use.
LAZY_COMMANDS: dict[str, str] = {
    "validate": "tabletape.cli.read",
    "verify": "tabletape.cli.read",
    "replay": "tabletape.cli.read",
    "log": "tabletape.cli.read",
    "explain": "tabletape.cli.read",
    "diff": "tabletape.cli.read",
    "simulate": "tabletape.cli.tools",
    "schema": "tabletape.cli.tools",
    "repair": "tabletape.cli.tools",
    "record": "tabletape.cli.record",
    "keygen": "tabletape.cli.sign",
    "sign": "tabletape.cli.sign",
}


class LazyGroup(click.Group):
    """A command group that imports a command's module the first time the command is asked for."""

    def list_commands(self, ctx: click.Context | None) -> list[str]:
        return sorted({*self.commands, *LAZY_COMMANDS})

    def get_command(self, ctx: click.Context | None, cmd_name: str) -> click.Command | None:
        if cmd_name not in self.commands and cmd_name in LAZY_COMMANDS:
            importlib.import_module(LAZY_COMMANDS[cmd_name])  # registers it on `main`
        return super().get_command(ctx, cmd_name)


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="tabletape")
def main() -> None:
    """Record tabletop games as event logs; validate, replay, explain and diff them.

    \b
    Example:
      tabletape new cards-of-war game.jsonl --players alice,bob
      tabletape append game.jsonl '{"type":"opening_card_drawn","player":"alice","card":"Tank"}'
      tabletape replay game.jsonl
    """


# -- games and rules -------------------------------------------------------------------

@main.command()
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of a table.")
@handles_errors
def games(as_json: bool) -> None:
    """List the rulesets, their versions, player counts and options.

    Example: tabletape games
    """
    rows = []
    for rs in engine.all_games():
        opts = msgspec.to_builtins(rs.Options())
        fields = {f: opts.get(f, _default(rs.Options, f)) for f in rs.Options.__struct_fields__}
        rows.append({"id": rs.id, "title": rs.title, "version": rs.version,
                     "players": list(rs.players), "options": fields, "rules": len(rs.RULES)})
    if as_json:
        return emit_json(rows)
    from rich.table import Table

    from tabletape.cli.render import console
    table = Table(title="games")
    for col in ("id", "title", "version", "players", "options (default)", "rules"):
        table.add_column(col)
    for r in rows:
        lo, hi = r["players"]
        table.add_row(r["id"], r["title"], r["version"], f"{lo}" if lo == hi else f"{lo}-{hi}",
                      ", ".join(f"{k}={_show(v)}" for k, v in r["options"].items()), str(r["rules"]))
    console.print(table)


def _default(cls: type, name: str) -> Any:
    return getattr(cls(), name)


def _show(v: Any) -> str:
    return str(v).lower() if isinstance(v, bool) else str(v)


@main.command()
@click.argument("game")
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of a table.")
@handles_errors
def rules(game: str, as_json: bool) -> None:
    """Show a game's rule catalogue: rule id, rulebook section, our paraphrase.

    Example: tabletape rules cards-of-war
    """
    rs = engine.get(game)
    cat = rs.catalogue()
    if as_json:
        return emit_json({k: {"section": r.section, "text": r.text} for k, r in cat.items()})
    from rich.table import Table

    from tabletape.cli.render import console
    table = Table(title=f"{rs.title} — rules", show_lines=False)
    for col in ("rule", "section", "what it says (our words)"):
        table.add_column(col)
    for rule_id, r in cat.items():
        table.add_row(rule_id, r.section, r.text)
    console.print(table)


# -- writing ---------------------------------------------------------------------------

def _parse_option(rs: engine.Ruleset, pairs: tuple[str, ...]) -> Any:
    raw: dict[str, Any] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep:
            raise UsageError(f"--option takes key=value, got {pair!r}")
        try:
            raw[key.replace("-", "_")] = msgspec.json.decode(value)
        except msgspec.DecodeError:
            raw[key.replace("-", "_")] = value
    try:
        return msgspec.convert(raw, rs.Options)
    except msgspec.ValidationError as e:
        fields = ", ".join(rs.Options.__struct_fields__)
        raise UsageError(f"bad --option: {e} (options of {rs.id}: {fields})") from None


def _load_components(rs: engine.Ruleset, path: str | None) -> Any:
    if path is None:
        return rs.default_components()
    try:
        with open(path, "rb") as f:
            raw = f.read(tapelog.MAX_LINE + 1)
    except OSError as e:
        raise UsageError(f"cannot read components file: {e.strerror}", file=path) from None
    if len(raw) > tapelog.MAX_LINE:  # it goes into the header, which is one line
        raise UsageError(f"components file is larger than {tapelog.MAX_LINE:,} bytes, the "
                         "most a header line may hold", file=path)
    try:
        return msgspec.json.decode(raw, type=rs.Components)
    except (msgspec.DecodeError, msgspec.ValidationError) as e:
        raise UsageError(f"components do not fit the {rs.id} schema: {e}", file=path) from None


@main.command()
@click.argument("game")
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("--players", required=True, help="Player names in seat order, comma-separated.")
@click.option("--option", "options", multiple=True, metavar="KEY=VALUE",
              help="An optional rule or variant, e.g. --option length=long (repeatable).")
@click.option("--components", type=click.Path(dir_okay=False),
              help="Your own component data (JSON); embedded in the header.")
@click.option("--by", help="Who records the log.")
@handles_errors
def new(game: str, file: str, players: str, options: tuple[str, ...], components: str | None,
        by: str | None) -> None:
    """Start a new log: write its header (game, players, options, components).

    Example: tabletape new cards-of-war game.jsonl --players alice,bob --option length=short
    """
    rs = engine.get(game)
    names = tuple(p.strip() for p in players.split(",") if p.strip())
    header = rs.start(names, _parse_option(rs, options), _load_components(rs, components))
    header = msgspec.structs.replace(header, at=now(), by=by)
    try:
        rs.codec.decoder.decode(rs.codec.encode(header))  # the schema's bounds hold
    except msgspec.ValidationError as e:
        raise UsageError(f"the header would not be valid: {e}", file=file) from None
    tail = tapelog.create(file, header, rs.codec)
    click.echo(f"started {file}: {rs.title} for {', '.join(names)}; head {tail.head[:16]}")


def _open_for_append(file: str, force: bool, history: bool = False) -> engine.Replay:
    """Replays a log before appending; refuses torn, corrupt or (unless forced) blocked logs.

    Starts from the log's checkpoint index when it has one, unless `history` is
    wanted (a dispute's ruling needs every earlier event's fate).
    """
    result = engine.replay(file, history=history)
    if result.error is not None:
        raise result.error
    if result.fold is None:
        raise LogFormatError("no header", file=file, line=1)
    return result


def _event_from(rs: engine.Ruleset, text: str, source: str, by: str | None) -> Event:
    """Returns an event built from the game fields a person typed; the envelope is ours."""
    try:
        body = msgspec.json.decode(text.encode(), type=dict[str, Any])
    except msgspec.ValidationError:
        raise UsageError("expected one JSON object per event", file=source) from None
    except msgspec.DecodeError as e:
        raise UsageError(f"not a JSON object: {e}", file=source) from None
    for key in ("seq", "prev"):
        if key in body:
            raise UsageError(f"leave {key!r} out: tabletape fills in the envelope", file=source)
    body.setdefault("at", now())
    if by and "by" not in body:
        body["by"] = by
    body = {k: v for k, v in body.items() if v is not None}
    try:
        return msgspec.convert(body, rs.union())
    except msgspec.ValidationError as e:
        raise UsageError(f"not a valid {rs.id} event: {e}", file=source) from None


def _append(file: str, events: list[Event], result: engine.Replay, force: bool) -> tapelog.Tail:
    """Checks events against the replayed state, then appends them all or none."""
    fold, rs = result.fold, result.ruleset
    assert fold is not None and rs is not None and result.tail is not None
    seq = result.tail.seq
    for ev in events:
        seq += 1
        if fold.blocked and not force and not is_core(ev):
            first = min(fold.illegal)
            raise IllegalEvent(f"the log has an illegal event at seq {first} that is still in "
                               "effect; undo it first (tabletape undo) or use --force",
                               rule=fold.illegal[first].rule, file=file, seq=seq)
        problem = fold.feed(seq, ev)
        if problem is not None and not force:
            problem.reason += "; nothing was written"
            problem.line = None
            raise problem
    tail = tapelog.append(file, events, rs.codec, expect=result.tail)
    return tail


def _report_appended(result: engine.Replay, events: list[Event], first_seq: int,
                     as_json: bool) -> None:
    rs = result.ruleset
    assert rs is not None
    if as_json:
        return emit_json([{"seq": first_seq + i, "event": msgspec.to_builtins(e),
                           "text": engine.describe(rs, e)} for i, e in enumerate(events)])
    for i, e in enumerate(events):
        click.echo(f"seq {first_seq + i}: {engine.describe(rs, e)}")
    fold = result.fold
    if fold is not None:
        d = rs.pending(fold.state)
        o = rs.outcome(fold.state)
        click.echo(f"next: {o.summary if o else d.detail if d else 'nothing'}")


@main.command()
@click.argument("file", type=click.Path(dir_okay=False))
@click.argument("events", nargs=-1)
@click.option("--force", is_flag=True, help="Record even an illegal event (it will be reported).")
@click.option("--by", help="Who records these events.")
@click.option("--json", "as_json", is_flag=True, help="Print what was appended as JSON.")
@handles_errors
def append(file: str, events: tuple[str, ...], force: bool, by: str | None, as_json: bool) -> None:
    """Append events: game fields only, one JSON object per argument or per stdin line.

    The envelope (seq, prev, at) is filled in; every event is checked against the
    rules first and an illegal one is refused with the rule it breaks: nothing is
    written unless all are legal (or --force).

    \b
    Example:
      tabletape append game.jsonl '{"type":"card_deployed","player":"alice","card":"Tank","battle":2}'
    """
    result = _open_for_append(file, force)
    rs = result.ruleset
    assert rs is not None and result.tail is not None
    if events:
        parsed = [_event_from(rs, text, f"argument {i}", by) for i, text in enumerate(events, 1)]
    else:
        parsed = [_event_from(rs, line, f"<stdin>:{i}", by)
                  for i, line in enumerate(sys.stdin, 1) if line.strip()]
    if not parsed:
        raise UsageError("no events given (as arguments or on stdin)")
    if result.fold is not None and result.fold.partial and \
            any(isinstance(e, Note) and e.dispute for e in parsed):
        result = _open_for_append(file, force, history=True)
    first = result.tail.seq + 1
    _append(file, parsed, result, force)
    _report_appended(result, parsed, first, as_json)


@main.command()
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("--by", help="Who asks for the undo.")
@handles_errors
def undo(file: str, by: str | None) -> None:
    """Retract the latest effective event by appending `undone` (nothing is deleted).

    Example: tabletape undo game.jsonl
    """
    result = _open_for_append(file, False)
    fold = result.fold
    assert fold is not None and result.tail is not None
    ev = Undone(target=fold.latest(), at=now(), by=by)
    v = fold.violation(result.tail.seq + 1, ev)
    if v is not None:
        raise IllegalEvent(v.reason, rule=v.rule, file=file)
    _append(file, [ev], result, False)
    _report_appended(result, [ev], result.tail.seq + 1, False)


@main.command()
@click.argument("file", type=click.Path(dir_okay=False))
@click.argument("text")
@click.option("--about", type=int, help="The seq of the event the note is about.")
@click.option("--dispute", is_flag=True, help="Dispute that event: validate/explain rule on it.")
@click.option("--by", help="Who writes the note.")
@handles_errors
def note(file: str, text: str, about: int | None, dispute: bool, by: str | None) -> None:
    """Append a note, or a dispute about an earlier event.

    Example: tabletape note game.jsonl "Tanks cannot kill Marines" --about 41 --dispute --by alice
    """
    if dispute and about is None:
        raise UsageError("a dispute needs --about SEQ")
    result = _open_for_append(file, False, history=dispute)
    ev = Note(text=text, about=about, dispute=dispute, at=now(), by=by)
    assert result.tail is not None
    _append(file, [ev], result, False)
    _report_appended(result, [ev], result.tail.seq + 1, False)
    if dispute and result.fold is not None and result.fold.disputes:
        r = result.fold.disputes[-1]
        click.echo(f"ruling on seq {r.about}: {r.verdict}" + (f" [{r.rule}]" if r.rule else "")
                   + f" — {r.reason}")
