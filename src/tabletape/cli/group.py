"""The click group (`tabletape.cli.group:main`): the commands it holds itself, and the table of
those it imports only when they run."""

from __future__ import annotations

import importlib
import os
import re
import sys
from typing import Any

import click
import msgspec

from tabletape import engine
from tabletape.app import entries
from tabletape.app.entries import now
from tabletape.cli import params
from tabletape.tape.errors import TapeError, UsageError
from tabletape.tape.events import Event, Note, visible, visible_json


class Failure(click.ClickException):
    """A TapeError on its way out: one line, `error: ...`, on stderr, and its exit code."""

    def __init__(self, error: TapeError) -> None:
        super().__init__(str(error))
        self.error = error

    @property
    def exit_code(self) -> int:  # type: ignore[override]  # click's is per class; ours per error
        return self.error.exit_code

    def show(self, file: Any = None) -> None:
        from tabletape.cli.render import show_error
        show_error(self.error)


def failure(e: TapeError | OSError) -> Failure:
    """Returns the Failure that reports an error of ours, or of the system, to a person."""
    from tabletape.cli.render import tape_error
    return Failure(tape_error(e))


class Usage(click.UsageError):
    """One of click's own errors (a bad option, a missing argument, an unknown command),
    shown as ours are: `error: ...` first, then click's usage line and its hint."""

    def __init__(self, e: click.ClickException) -> None:
        message = e.format_message().strip()
        if message[:1].isupper() and not message[1:2].isupper():  # "Missing argument" ...
            message = message[0].lower() + message[1:]
        # "No such option '--tp'. Did you mean '--to'?", as our suggestions read
        message = re.sub(r"\. \(?Did you mean (?:one of: )?(.*?)\?\)?$",
                         lambda m: f" (did you mean {m.group(1).replace(', ', ' or ')}?)",
                         message)
        super().__init__(message.removesuffix("."), getattr(e, "ctx", None))
        self.code = e.exit_code

    @property
    def exit_code(self) -> int:  # type: ignore[override]  # click's is per class; ours per error
        return self.code

    def show(self, file: Any = None) -> None:
        from tabletape.cli.render import show_error
        show_error(UsageError(self.message))
        ctx = self.ctx
        if ctx is not None:
            hint = ""
            if ctx.command.get_help_option(ctx) is not None:
                names = ctx.command.get_help_option_names(ctx)
                hint = f"\nTry '{ctx.command_path} {max(names, key=len)}' for help."
            click.echo(f"{ctx.get_usage()}{hint}", err=True, color=ctx.color)


# `tabletape` alone, `tabletape corpus` alone: click shows the help page, not an error
_SHOWN_AS_CLICK_DOES = (Failure, getattr(click.exceptions, "NoArgsIsHelpError", Failure))


def ours(e: click.ClickException) -> click.ClickException:
    """Returns a click error as one of ours: ours already are; click's become Usage."""
    return e if isinstance(e, (Usage, *_SHOWN_AS_CLICK_DOES)) else Usage(e)


def emit_json(result: Any) -> None:
    """Prints a command's result (a Struct, or a list of them) as JSON: `msgspec.to_builtins`
    of it, every character a terminal would obey escaped (`visible_json`)."""
    click.echo(visible_json(msgspec.to_builtins(result)))


def echo(text: str, err: bool = False) -> None:
    """Prints one line that may hold strings from a log or a file name, escaped."""
    click.echo(visible(text), err=err)


# Commands that live in other modules, imported only when that command runs, so that
# start-up (one `append` at the table) does not pay for what it does not use.
LAZY_COMMANDS: dict[str, str] = {
    "validate": "tabletape.cli.read:validate",
    "verify": "tabletape.cli.read:verify",
    "replay": "tabletape.cli.read:replay",
    "log": "tabletape.cli.read:log_cmd",
    "explain": "tabletape.cli.read:explain",
    "legal": "tabletape.cli.read:legal",
    "diff": "tabletape.cli.read:diff",
    "simulate": "tabletape.cli.tools:simulate",
    "balance": "tabletape.cli.balance:balance",
    "schema": "tabletape.cli.tools:schema",
    "repair": "tabletape.cli.tools:repair",
    "record": "tabletape.cli.record:record",
    "keygen": "tabletape.cli.sign:keygen",
    "sign": "tabletape.cli.sign:sign",
    "svg": "tabletape.cli.see:svg",
    "view": "tabletape.cli.see:view",
    "serve": "tabletape.cli.see:serve",
    "corpus": "tabletape.cli.corpus:group",
    "events": "tabletape.cli.vocab:events",
    "components": "tabletape.cli.vocab:components",
    "branch": "tabletape.cli.vocab:branch",
    "migrate": "tabletape.cli.migrate:migrate",
}


class Tabletape(click.Group):
    """The command group: imports a lazy command's module when the command is asked for,
    and reports every TapeError or OSError a command raises as one Failure."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*self.commands, *LAZY_COMMANDS})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name in LAZY_COMMANDS:
            module, _, name = LAZY_COMMANDS[cmd_name].partition(":")
            command: click.Command = getattr(importlib.import_module(module), name)
            return command
        return super().get_command(ctx, cmd_name)

    def resolve_command(self, ctx: click.Context, args: list[str]
                        ) -> tuple[str | None, click.Command | None, list[str]]:
        """Finds the command named first in `args`; an unknown name gets the closest ones."""
        try:
            return super().resolve_command(ctx, args)
        except click.UsageError:
            name = args[0]
            if ctx.resilient_parsing or self.get_command(ctx, name) is not None or \
                    name.startswith("-"):
                raise
            from tabletape.app.vocab import did_you_mean
            raise click.UsageError(f"no such command {name!r}"
                                   f"{did_you_mean(name, self.list_commands(ctx))}", ctx) from None

    def _main_shell_completion(self, ctx_args: Any, prog_name: str,
                               complete_var: str | None = None) -> None:
        from tabletape.cli import complete  # bash's words broken at `=` and `@`
        complete.register()
        super()._main_shell_completion(ctx_args, prog_name, complete_var)

    def make_context(self, info_name: str | None, args: list[str],
                     parent: click.Context | None = None, **extra: Any) -> click.Context:
        try:
            return super().make_context(info_name, args, parent, **extra)
        except click.ClickException as e:  # `tabletape --nope`
            raise ours(e) from None

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except click.ClickException as e:  # a command's own usage errors, in one style
            raise ours(e) from None
        except BrokenPipeError:  # the reader went away (`| head`): stop quietly, as `cat` does
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
            ctx.exit(141)
        except (TapeError, OSError) as e:
            raise failure(e) from e


@click.group(cls=Tabletape, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="tabletape")
def main() -> None:
    """Record tabletop games as event logs; validate, replay, explain and diff them.

    \b
    Example:
      tabletape new cards-of-war game.jsonl --players alice,bob
      tabletape append game.jsonl '{"type":"opening_card_drawn","player":"alice","card":"Tank"}'
      tabletape replay game.jsonl
    """


def _complete(what: str, ctx: click.Context, param: click.Parameter, incomplete: str
              ) -> list[Any]:
    from tabletape.cli import complete
    found: list[Any] = getattr(complete, what)(ctx, param, incomplete)
    return found


# -- games and rules -------------------------------------------------------------------

@main.command()
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of a table.")
def games(as_json: bool) -> None:
    """List the rulesets, their versions, player counts and options.

    \b
    Example:
      tabletape games
    """
    from tabletape.app.vocab import games as listed
    rows = listed()
    if as_json:
        return emit_json(rows)
    from tabletape.cli.render import listing
    listing("games", ["id", "title", "version", "players", "rules", "options (default)"],
            [[r.id, r.title, r.version, _count(*r.players), str(r.rules),
              "\n".join(f"{k}={_show(v)}" for k, v in r.options.items())] for r in rows],
            whole=(5,))  # an option's `key=value` is typed as it stands: never split


def _count(lo: int, hi: int) -> str:
    return f"{lo}" if lo == hi else f"{lo}-{hi}"


def _show(v: Any) -> str:
    return str(v).lower() if isinstance(v, bool) else str(v)


@main.command()
@click.argument("game", shell_complete=lambda c, p, i: _complete("games", c, p, i))
@click.argument("rule", required=False)
@click.option("--rules", "version", metavar="VERSION|latest",
              help="The catalogue of another rules version (default: the latest).")
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of a table.")
def rules(game: str, rule: str | None, version: str | None, as_json: bool) -> None:
    """Show a game's rule catalogue (or one RULE): rule id, rulebook section, our paraphrase;
    then its changelog: what changed in each rules version, by rule id.

    \b
    Examples:
      tabletape rules cards-of-war
      tabletape rules cards-of-war cow.kill.type-match
    """
    from tabletape.app.vocab import rules as catalogue
    rs, cat, changes, shown = catalogue(game, rule, version)
    if as_json:  # each rule's changes by version: the changelog, by rule id
        return emit_json(cat)
    from tabletape.cli.render import listing
    latest = rs.versions[-1]
    echo(f"{rs.title}: rules {shown}" + (" (the latest)" if shown == latest else
                                          f" (the latest is {latest})"))
    listing(f"{rs.title} — rules {shown}", ["rule", "section", "what it says (our words)"],
            [[rule_id, r.section, r.text] for rule_id, r in cat.items()])
    if changes:
        echo("")
        echo(f"changelog: rules {', '.join(rs.versions)}, the latest {latest}; a log is "
             "judged by the version it was recorded under unless --rules asks for another")
        listing("", ["version", "rule", "what changed"],
                [[v, rule_id, what] for v, rule_id, what in changes], keys=2)


# -- writing ---------------------------------------------------------------------------

@main.command()
@click.argument("game", is_eager=True, shell_complete=lambda c, p, i: _complete("games", c, p, i))
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("--players", required=True, type=params.PLAYERS,
              help="Player names in seat order, comma-separated.")
@click.option("--option", "options", multiple=True, type=params.GAME_OPTION, metavar="KEY=VALUE",
              help="An optional rule or variant, e.g. --option length=long (repeatable).")
@click.option("--components", type=click.Path(dir_okay=False),
              help="Your own component data (JSON); embedded in the header.")
@click.option("--by", help="Who records the log.")
@click.option("--json", "as_json", is_flag=True, help="Print what was written as JSON.")
def new(game: str, file: str, players: tuple[str, ...], options: tuple[tuple[str, Any], ...],
        components: str | None, by: str | None, as_json: bool) -> None:
    """Start a new log: write its header (game, players, options, components).

    \b
    Example:
      tabletape new cards-of-war game.jsonl --players alice,bob --option length=short
    """
    from tabletape.app import making
    started = making.new(game, file, players, options, components, at=now(), by=by)
    if as_json:
        return emit_json(started)
    rs = engine.get(game)
    echo(f"started {file}: {rs.title} for {', '.join(players)}; head {started.head[:16]}")


def stdin_is_terminal() -> bool:
    return sys.stdin.isatty()


def report_appended(result: engine.Replay, events: list[Event], first_seq: int,
                    as_json: bool, appended: entries.Appended | None = None) -> None:
    """Prints what was appended, seq by seq, and what the game waits for next (or JSON).

    What `--force` let through is said too: each illegal event with its rule (on stderr,
    and as `illegal` in JSON), and the events recorded while one is in effect.
    """
    rs = result.ruleset
    assert rs is not None
    rows = entries.written(result, events, first_seq, appended)
    if as_json:
        emit_json(rows)
    else:
        for row in rows:
            echo(f"seq {row.seq}: {row.text}")
        fold = result.fold
        if fold is not None:
            from tabletape.app.pictures import next_text
            echo(next_text(rs, fold.state))
    if appended is not None:
        forced_warnings(result.file, appended)


def forced_warnings(file: str, appended: entries.Appended) -> None:
    """Says on stderr what `--force` recorded: each illegal event, and the events not judged."""
    for seq, e in appended.illegal.items():
        echo(f"recorded an illegal event: seq {seq}: [{e.rule}] {e.reason}", err=True)
    if appended.unjudged:
        seqs = ", ".join(map(str, appended.unjudged))
        echo(f"recorded seq {seqs} without judging: the illegal event at seq "
             f"{appended.in_effect} is in effect, and the rules judge nothing after it",
             err=True)
    if appended.in_effect is not None and (appended.illegal or appended.unjudged):
        echo(f"validate reports {file} invalid until seq {appended.in_effect} is undone",
             err=True)


def _next_seq(result: engine.Replay) -> int:
    """Returns the seq the next event appended to a replayed log will have."""
    assert result.tail is not None
    return result.tail.seq + 1


@main.command()
@click.argument("file", type=click.Path(dir_okay=False))
@click.argument("events", nargs=-1)
@click.option("--force", is_flag=True, help="Record even an illegal event (it will be reported).")
@click.option("--by", help="Who records these events.")
@click.option("--json", "as_json", is_flag=True, help="Print what was appended as JSON.")
def append(file: str, events: tuple[str, ...], force: bool, by: str | None, as_json: bool) -> None:
    """Append events: game fields only, one JSON object per argument or per stdin line.

    The envelope (seq, prev, at) is filled in; every event is checked against the
    rules first and an illegal one is refused with the rule it breaks: nothing is
    written unless all are legal (or --force).

    \b
    Example:
      tabletape append game.jsonl '{"type":"card_deployed","player":"alice","card":"Tank","battle":2}'
    """
    result = entries.open_for_append(file)
    rs = result.ruleset
    assert rs is not None
    if events:
        parsed = [entries.event_from(rs, text, f"argument {i}", by, now())
                  for i, text in enumerate(events, 1)]
    elif stdin_is_terminal():  # it would wait silently for lines nobody knows to type
        raise UsageError(f"no events given: give each as an argument (a JSON object), or pipe "
                         f"them one a line on stdin; `tabletape events {rs.id}` lists them, "
                         f"`tabletape record {file}` takes them interactively")
    else:
        parsed = [entries.event_from(rs, line, f"<stdin>:{i}", by, now())
                  for i, line in enumerate(sys.stdin, 1) if line.strip()]
    if not parsed:
        raise UsageError("no events given (as arguments or on stdin)")
    if result.fold is not None and result.fold.partial and \
            any(isinstance(e, Note) and e.dispute for e in parsed):
        result = entries.open_for_append(file, history=True)
    first = _next_seq(result)
    appended = entries.append_checked(file, parsed, result, force)
    report_appended(result, parsed, first, as_json, appended)


@main.command()
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("--by", help="Who asks for the undo.")
@click.option("--json", "as_json", is_flag=True, help="Print what was appended as JSON.")
def undo(file: str, by: str | None, as_json: bool) -> None:
    """Retract the latest effective event by appending `undone` (nothing is deleted).

    A signature cannot be undone: after one, undo retracts the game event before it
    (the signature still seals the log as it was) and says so.

    \b
    Example:
      tabletape undo game.jsonl
    """
    done = entries.undo(file, at=now(), by=by)
    result, ev = done.result, done.event
    report_appended(result, [ev], done.seq, as_json)
    if done.signature is not None and result.ruleset is not None and not as_json:
        seq, player = done.signature
        what = (engine.describe(result.ruleset, done.target) if done.target is not None
                else "an event")
        echo(f"  the latest line, seq {seq}, is {player}'s signature, which cannot be undone; "
             f"this undo retracts seq {ev.target}: {what} (the signature still seals the log "
             f"through seq {seq - 1})")


@main.command()
@click.argument("file", type=click.Path(dir_okay=False))
@click.argument("text")
@click.option("--about", type=int, help="The seq of the event the note is about.",
              shell_complete=lambda c, p, i: _complete("seqs", c, p, i))
@click.option("--dispute", is_flag=True, help="Dispute that event: validate/explain rule on it.")
@click.option("--by", help="Who writes the note.")
@click.option("--json", "as_json", is_flag=True, help="Print what was appended (and the ruling) "
              "as JSON.")
def note(file: str, text: str, about: int | None, dispute: bool, by: str | None,
         as_json: bool) -> None:
    """Append a note, or a dispute about an earlier event.

    \b
    Example:
      tabletape note game.jsonl "Tanks cannot kill Marines" --about 41 --dispute --by alice
    """
    result, noted = entries.note(file, text, about=about, dispute=dispute, at=now(), by=by)
    if as_json:
        return emit_json([noted])
    report_appended(result, [noted.event], noted.seq, False)
    if noted.ruling is not None:
        head, *lines = noted.ruling.said(f"ruling on seq {noted.ruling.about}")
        echo(head)
        for line in lines:  # its arithmetic and what it rests on, as every ruling shows them
            echo(f"  {line}")
