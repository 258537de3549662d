"""`tabletape record`: the scribe's interactive recorder, on a terminal or line by line.

The logic is `tabletape.app.record.RecordSession`; this module reads entries (with
prompt_toolkit's completion on a terminal, plain lines otherwise) and prints
the session's replies. prompt_toolkit is imported only here, inside the command,
so that the other commands start without it.
"""

from __future__ import annotations

import os
import signal
import sys
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

import click
import msgspec

from tabletape import engine
from tabletape.app import entries
from tabletape.app.entries import now
from tabletape.app.vocab import counted
from tabletape.cli import complete, params
from tabletape.engine import CHANCE
from tabletape.tape.errors import UsageError
from tabletape.tape.events import Note, visible

if TYPE_CHECKING:  # tabletape.app.record is imported when `record` runs, to keep start-up quick
    from prompt_toolkit.application import Application
    from prompt_toolkit.completion import CompleteEvent
    from prompt_toolkit.document import Document
    from prompt_toolkit.key_binding import KeyPressEvent

    from tabletape.app.record import Listing, RecordSession, Reply


@click.command()
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("--game", is_eager=True, shell_complete=complete.games,
              help="Start a new log of this game (when FILE does not exist yet).")
@click.option("--players", type=params.PLAYERS,
              help="For a new log: player names in seat order, comma-separated.")
@click.option("--option", "options", multiple=True, type=params.GAME_OPTION, metavar="KEY=VALUE",
              help="For a new log: an optional rule or variant (repeatable).")
@click.option("--components", type=click.Path(dir_okay=False),
              help="For a new log: your own component data (JSON).")
@click.option("--by", help="Who records (the scribe); written as `by` on each event.")
@click.option("--auto-chance", "auto_chance", type=int, metavar="SEED",
              help="Let the tool make chance draws with this seed (solo or practice play); "
                   "each outcome is still recorded.")
def record(file: str, game: str | None, players: tuple[str, ...] | None,
           options: tuple[tuple[str, Any], ...], components: str | None, by: str | None,
           auto_chance: int | None) -> None:
    """Record a game at the table: the state, numbered legal events, completion, undo, notes.

    Enter a number from the list, a few characters of an entry (Tab completes),
    a JSON event, or a command (`help` lists them). Every accepted event is on
    disk before the next prompt; Ctrl-D or `quit` stop, nothing is lost; at a
    terminal Ctrl-C clears the line being typed. A scripted session (input not a
    terminal) exits 1 when any line it read was refused.

    \b
    Example:
      tabletape record game.jsonl --game cards-of-war --players alice,bob --option length=short
    """
    from tabletape.app.record import RecordSession
    from tabletape.cli.render import console
    if not os.path.exists(file):
        if not game or players is None:
            raise UsageError(f"{file} does not exist; start it with --game GAME --players a,b")
        rs = engine.get(game)
        _, tail = entries.start_log(file, rs, players, options, components, at=now(), by=by)
        console.print(visible(f"started {file}: {rs.title} for {', '.join(players)}; "
                              f"head {tail.head[:16]}"), markup=False)
    session = RecordSession(file, by=by, auto_chance=auto_chance, clock=now)
    _same_game(session, game, players, options, components)
    refused = run(session)
    if refused and not sys.stdin.isatty():
        click.echo(f"{counted(refused, 'line')} of the input refused", err=True)
        sys.exit(1)


def _same_game(session: RecordSession, game: str | None, players: tuple[str, ...] | None,
               options: tuple[tuple[str, Any], ...], components: str | None) -> None:
    """Refuses new-log options that disagree with an existing log's header.

    Re-running the command that started a log (after a crash, say) reopens it;
    asking for another game, other players or other options is a mistake.
    """
    rs, header, file = session.ruleset, session.header, session.path
    if game and game != rs.id:
        raise UsageError(f"{file} records {rs.id}, not {game}", file=file)
    if players and players != tuple(header.players):
        raise UsageError(f"{file} is played by {', '.join(header.players)}, not "
                         f"{', '.join(players)}", file=file)
    if options and entries.options_for(rs, options) != header.options:
        raise UsageError(f"{file} was started with other options: "
                         f"{msgspec.json.encode(header.options).decode()}", file=file)
    if components and entries.load_components(rs, components) != header.components:
        raise UsageError(f"{file} was started with other component data", file=file)


class HangUp(Exception):
    """The terminal went away (SIGHUP), Ctrl-C (SIGINT), or we were asked to stop (SIGTERM)."""


class Stop:
    """Turns SIGHUP, SIGTERM and SIGINT into a clean end of the session.

    While an entry is written and its reply printed the signal only raises a flag,
    checked before the next prompt, so that what the scribe saw confirmed is on
    disk. While waiting for input, a plain read is interrupted at once; a running
    prompt_toolkit application is asked to exit from inside its event loop, since
    an exception raised into asyncio from a signal handler would be swallowed.
    """

    SIGNALS = (signal.SIGHUP, signal.SIGTERM, signal.SIGINT)

    def __init__(self) -> None:
        self.asked = False
        self.waiting = False
        self.app: Any = None  # the running prompt_toolkit application, if any

    def __enter__(self) -> Stop:
        self.saved = {sig: signal.signal(sig, self.on_signal) for sig in self.SIGNALS}
        return self

    def __exit__(self, *exc: object) -> None:
        for sig, handler in self.saved.items():
            signal.signal(sig, handler)

    def on_signal(self, signum: int, frame: object) -> None:
        self.asked = True
        if not self.waiting:
            return
        app = self.app
        if app is not None:
            if app.is_running and app.loop is not None:
                app.loop.call_soon_threadsafe(self.exit_app, app)
            return  # not running yet: its pre_run sees `asked`
        raise HangUp()

    def exit_app(self, app: Application[str]) -> None:
        """Ends the prompt (called in its event loop) unless it has ended already."""
        if app.is_running and app.future is not None and not app.future.done():
            app.exit(exception=HangUp())


def run(session: RecordSession) -> int:
    """Reads entries until quit, end of input, a signal or a hang-up; prints every reply.

    Returns how many entries were refused. At a terminal, Ctrl-C clears the line being
    typed and Ctrl-D quits; without one, Ctrl-C (SIGINT) ends the session.
    """
    interactive = sys.stdin.isatty() and sys.stdout.isatty()
    with Stop() as stop:
        read = _terminal_reader(session, stop) if interactive else _plain_reader()
        return _loop(session, read, stop, interactive)


def _loop(session: RecordSession, read: Callable[[str], str], stop: Stop,
          interactive: bool = False) -> int:
    from tabletape.app.record import Reply
    from tabletape.cli.render import console
    console.print(f"recording {visible(session.path)}: {session.ruleset.title}, "
                  f"{counted(session.next_seq, 'event')} so far; `help` lists the commands", markup=False)
    drawn = session.auto_draws()  # a chance draw may be owed already (--auto-chance)
    if drawn:
        show_reply(session, Reply(recorded=drawn, drawn=len(drawn)))
    else:
        show_view(session)
    refused = 0
    while True:
        try:
            stop.waiting = True
            if stop.asked:
                raise HangUp()
            text = read(prompt_text(session))
        except KeyboardInterrupt:
            if interactive:  # Ctrl-C typed at the prompt: the line is cleared, go on
                continue
            goodbye(session)
            return refused
        except (EOFError, HangUp, OSError):
            goodbye(session)
            return refused
        finally:
            stop.waiting = False
        reply = session.handle(text)
        refused += reply.refused
        try:
            show_reply(session, reply)
        except (OSError, HangUp):  # the terminal went away while we were printing
            goodbye(session)
            return refused
        if reply.quit or stop.asked:
            goodbye(session)
            return refused


def goodbye(session: RecordSession) -> None:
    """Says where the log stands; the terminal may be gone, so a failed write is ignored."""
    try:
        print(f"\nstopped: {visible(session.path)} holds {counted(session.next_seq, 'event')}, the last at seq "
              f"{session.tail.seq} (head {session.tail.head[:16]}); nothing entered was lost",
              flush=True)
    except OSError:
        pass


def prompt_text(session: RecordSession) -> str:
    d = session.decision
    return f"{session.next_seq} {d.actor if d else 'over'}> "


def _plain_reader() -> Callable[[str], str]:
    """Returns a reader of plain lines (not a terminal): scripts, pipes, tests."""
    def read(prompt: str) -> str:
        sys.stdout.write(prompt)
        sys.stdout.flush()
        line = sys.stdin.readline()
        if not line:
            raise EOFError
        line = line.rstrip("\r\n")
        sys.stdout.write(visible(line) + "\n")  # echoed, so that the output reads as a transcript
        return line
    return read


def _terminal_reader(session: RecordSession, stop: Stop) -> Callable[[str], str]:
    """Returns a prompt_toolkit reader that completes legal entries and commands."""
    from prompt_toolkit import PromptSession
    from prompt_toolkit.completion import Completer, Completion
    from prompt_toolkit.key_binding import KeyBindings

    from tabletape.app.record import COMMANDS

    class Entries(Completer):
        def get_completions(self, document: Document, complete_event: CompleteEvent
                            ) -> Iterator[Completion]:
            text = document.text_before_cursor
            if not text.strip() or text.strip().isdigit() or text.lstrip().startswith("{"):
                return
            first = text.split()[0].lstrip(":").lower()
            if first in COMMANDS:
                return
            if " " not in text.strip():
                for name, what in COMMANDS.items():
                    if name.startswith(text.strip().lower()):
                        yield Completion(name, start_position=-len(text), display_meta=what)
            for e in session.completions(text):
                yield Completion(e.label, start_position=-len(text), display_meta=e.sentence)

    keys = KeyBindings()

    @keys.add("c-c")
    def _clear(event: KeyPressEvent) -> None:  # Ctrl-C clears the line in place: keys typed after it count
        event.current_buffer.reset()

    prompt: PromptSession[str] = PromptSession(completer=Entries(), complete_while_typing=True,
                                          key_bindings=keys)
    stop.app = prompt.app

    def started() -> None:
        if stop.asked:  # a signal came between the last reply and this prompt
            prompt.app.exit(exception=HangUp())

    # an event the recorder filled in is the next line's text, to record (Enter) or change
    return lambda text: prompt.prompt(text, pre_run=started, default=session.offer or "")


# -- printing replies ------------------------------------------------------------------

def show_reply(session: RecordSession, reply: Reply) -> None:
    from rich.text import Text

    from tabletape.app.record import COMMANDS
    from tabletape.cli.render import console
    rs = session.ruleset
    for i, (seq, ev) in enumerate(reply.recorded):
        tool = i >= len(reply.recorded) - reply.drawn
        console.print(Text(f"seq {seq}: {engine.describe(rs, ev)}"
                           + (" (drawn by the tool)" if tool else ""), style="green"))
    if reply.ruling is not None:
        head, *lines = reply.ruling.said(f"ruling on seq {reply.ruling.about}")
        console.print(Text(head))
        for line in lines:  # its arithmetic and what it rests on, as every ruling shows them
            console.print(Text(f"  {line}", style="yellow"))
    if reply.refusal is not None:
        e = reply.refusal
        event, rule = getattr(e, "event", None), getattr(e, "rule", None)
        said = f"{event}: " if event else ""
        rule = f"[{rule}] " if rule else ""
        console.print(Text.assemble(("refused: ", "red"), visible(f"{said}{rule}{e.reason}")))
    if reply.message:
        console.print(Text(visible(reply.message)))
    if reply.choices is not None:
        console.print(Text(f"{len(reply.choices.entries)} entries match; choose by number:"))
        show_listing(reply.choices)
    if reply.show == "help":
        for what in COMMANDS.values():
            console.print(Text(f"  {what}"))
        console.print(Text("  or: a number from the list, a few characters of an entry "
                           "(Tab completes), or a JSON event"))
    elif reply.show == "last":
        for seq, by, sentence, undone in session.last(reply.count):
            console.print(Text(f"  seq {seq}" + (f" ({visible(by)})" if by else "") + f": {sentence}"
                               + (f" — undone at seq {undone}" if undone else "")))
    elif reply.show == "state" and reply.arg == "all":
        from rich.pretty import Pretty
        data = msgspec.to_builtins(session.state)
        if isinstance(data, dict):
            data.pop("components", None)  # the header's data: `tabletape replay --json` has it
        console.print(Pretty(data))
    elif reply.show == "state":
        show_view(session, table=True)
    if reply.recorded and not all(isinstance(ev, Note) for _, ev in reply.recorded):
        show_view(session)


def show_view(session: RecordSession, table: bool | None = None) -> None:
    """Prints the table (when a player decides), whose decision it is, and the numbered list.

    While chance decides (a deal of eight cards is eight draws) the table is left
    out: the scribe reads what was drawn and picks the next card; `state` shows it.
    """
    from rich.text import Text

    from tabletape.cli.render import console, drawing
    rs = session.ruleset
    d = session.decision
    if table or (table is None and (d is None or d.actor != CHANCE)):
        console.print(drawing(rs, session.state))
    if d is None:
        o = rs.outcome(session.state)
        console.print(Text(f"game over: {o.summary if o else 'no decision is pending'}; "
                           "you may still undo, note, dispute or quit"))
        return
    hint = "; pick what was drawn (×N: N of them left)" if d.actor == CHANCE else ""
    console.print(Text(f"next, seq {session.next_seq}: {d.actor} — {d.kind}: {d.detail}{hint}",
                       style="bold"))
    show_listing(session.shown)


def show_listing(listing: Listing) -> None:
    """Prints the numbered entries under their group's heading, in columns, top to bottom."""
    from rich.columns import Columns
    from rich.text import Text

    from tabletape.cli.render import console
    sizes: dict[str, int] = {}
    for e in listing.entries:
        sizes[e.group] = sizes.get(e.group, 0) + 1
    for group, rows in listing.groups():
        if sizes[group] == 1:
            for e in rows:
                console.print(Text(f"  {e.number:>3}  {e.label}"))
            continue
        console.print(Text(f"  {group}:"))
        cells = [Text(f"{e.number:>3}  {e.item}" + (f"  ×{e.weight}" if e.weight > 1 else ""))
                 for e in rows]
        console.print(Columns(cells, column_first=True, padding=(0, 3)))
        if listing.hidden.get(group):
            console.print(Text(f"       … {listing.hidden[group]} more: type part of a name "
                               "to narrow the list"))
