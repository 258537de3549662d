"""Commands that read logs: validate, verify, replay, log, explain, diff, legal."""

from __future__ import annotations

import sys
from collections.abc import Iterable, Iterator
from typing import Any, TypeVar

import click
import msgspec

from tabletape import engine
from tabletape.app import reading
from tabletape.app.vocab import counted
from tabletape.cli import complete
from tabletape.cli.group import emit_json
from tabletape.cli.params import (
    AT_SEQ,
    HEAD,
    LogPoint,
    components_option,
    rules_option,
    whatif_for,
)
from tabletape.tape.errors import IllegalEvent, TornTail, UsageError
from tabletape.tape.words import agree, the_first

T = TypeVar("T")


def _progress(items: Iterable[T], label: str, total: int) -> Iterator[T]:
    """Yields items with a progress bar on stderr when there are several."""
    from tabletape.cli.render import err_console
    if total < 2 or not err_console.is_terminal:  # a pipe or a file gets no blank lines
        yield from items
        return
    from rich.progress import track
    yield from track(items, description=label, total=total, console=err_console, transient=True)


@click.command()
@click.argument("files", nargs=-1, required=True, type=click.Path(dir_okay=False))
@click.option("--keep-going", is_flag=True,
              help="Skip illegal events and judge the rest against the state without them.")
@click.option("--jobs", "-j", type=click.IntRange(min=1), default=1, show_default=True,
              help="Validate this many files at once, each in its own process.")
@click.option("--json", "as_json", is_flag=True, help="Print a JSON report per file.")
@rules_option
@components_option
@click.pass_context
def validate(ctx: click.Context, files: tuple[str, ...], keep_going: bool, jobs: int, as_json: bool,
             rules: str | None, components: str | None) -> None:
    """Check format, chain and rules; report every problem with line, seq and rule id.

    Disputed events get a ruling. Exit 1 when any file is invalid.

    \b
    Example:
      tabletape validate --jobs 2 replays/cards-of-war/*.jsonl
    """
    import functools

    from tabletape.cli.render import console
    files = reading.logs_only(files)
    check = functools.partial(_validate_one, keep_going=keep_going, as_json=as_json,
                              single=len(files) == 1, rules=rules, components=components)
    from tabletape.app.parallel import pmap
    results = pmap(check, files, jobs)
    reports, bad = [], 0
    try:
        for ok, report in _progress(results, "validating", len(files)):
            bad += not ok
            if as_json:
                reports.append(report)
            else:
                console.file.write(report)  # already rendered for this console
    finally:
        results.close()
    if as_json:
        emit_json(reports if len(files) > 1 else reports[0])
    if len(files) > 1 and not as_json:
        console.print(f"{len(files) - bad} of {len(files)} logs valid")
    ctx.exit(1 if bad else 0)


def _validate_one(path: str, *, keep_going: bool, as_json: bool, single: bool,
                  rules: str | None = None, components: str | None = None) -> tuple[bool, Any]:
    """Returns whether one log is valid, and its report: a Validation, or the rendered text.

    Runs alike in this process or in a worker (--jobs), so the output is the same.
    """
    from rich.text import Text

    from tabletape.cli.render import (
        console,
        problem_line,
        ruling_table,
        safe,
        summary,
        version_note,
    )
    try:
        whatif = whatif_for(path, components)
    except UsageError as e:
        if single:
            raise
        whatif, result = None, engine.Replay(path, error=e)
    else:
        result = reading.judged(path, keep_going=keep_going, single=single, rules=rules,
                                components=whatif)
    if as_json:
        return result.ok, reading.validation(result, whatif)
    signatures = reading.signatures(result)
    with console.capture() as out:
        ok = ("valid", "green") if result.ok else ("INVALID", "red")
        console.print(Text.assemble(ok, f" {summary(result)}"))
        if whatif is not None:
            console.print(Text(f"  {whatif.note()}", style="yellow"))
        note = version_note(result)
        if note is not None:
            console.print(note)
        for problem in result.problems:
            console.print(problem_line(problem))
            if isinstance(problem, TornTail):
                console.print(f"  {the_first(result.events, 'event', 'is', 'are', 'earlier')} intact; "
                              f"`tabletape repair {safe(path)}` {problem.repairs}", markup=False)
        for found in reading.seat_findings(result):  # the seats' findings: no verdict changes
            console.print(Text(f"  note: seq {found.seq} [{found.rule}] {found.reason}",
                               style="yellow"))
        unjudged = len(result.fold.unjudged) if result.fold is not None else 0
        if result.fold is not None and result.fold.blocked and not keep_going and unjudged:
            console.print(f"  {counted(unjudged, 'later event')} {agree(unjudged, 'was', 'were')} "
                          "not judged: the state after an illegal event is unreliable "
                          "(--keep-going judges them without it)")
        if keep_going and result.fold is not None and result.fold.illegal:
            console.print(f"  --keep-going: skipped {counted(len(result.fold.illegal), 'illegal event')} "
                          "and judged the rest without them")
        if result.fold is not None:
            for s, illegal in result.fold.corrected.items():
                console.print(f"  corrected: seq {s} was illegal [{illegal.rule}] and was undone at "
                              f"seq {result.fold.retracted[s]}", markup=False)
            if result.fold.disputes:
                console.print(ruling_table(result.fold.disputes, result.ruleset))
        if signatures:
            console.print(f"  {counted(signatures, 'signature')} not checked: `tabletape verify "
                          f"{safe(path)} --keys DIR` checks them", markup=False)
    return result.ok, out.get()


@click.command()
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("--head", "expect_head", type=HEAD, metavar="HEX",
              help="The head the players agreed on: its 64 hex digits, or at least the first "
                   "16 (as `new` prints them); exit 1 if the log's differs, 2 if HEX is "
                   "shorter or not hex.")
@click.option("--keys", "keys_dir", type=click.Path(), metavar="DIR",
              help="Check every `signed` event against the public keys NAME.pub in DIR; "
                   "exit 1 on a bad signature or an unknown signer.")
@click.option("--parent", type=click.Path(dir_okay=False), metavar="FILE",
              help="Confirm that the log is a branch of FILE (`tabletape branch`): the lines "
                   "they share, byte for byte; exit 1 if they share not even the header.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@click.pass_context
def verify(ctx: click.Context, file: str, expect_head: str | None, keys_dir: str | None,
           parent: str | None, as_json: bool) -> None:
    """Check format and hash chain only (no rules); print the head to agree on.

    With --keys DIR, also check the signatures and say what each player has not signed.

    \b
    Examples:
      tabletape verify game.jsonl --head 3f2a9c0d1b7e4a55
      tabletape verify game.jsonl --keys keys
    """
    found = reading.verify(file, expect_head=expect_head, keys_dir=keys_dir, parent=parent)
    report, signed = found.report, found.signed
    if as_json:
        emit_json(report)
    else:
        from rich.text import Text

        from tabletape.cli.render import console, safe
        error, events = found.error, report.events
        if error is None and signed is not None and not signed.ok:
            bad = [s for s in signed.seals if s.status != "valid"]
            console.print(Text.assemble(
                ("BAD SIGNATURE", "red"), f" {safe(file)}: {len(bad)} of {counted(len(signed.seals), 'signature')} "
                f"{agree(len(bad), 'does', 'do')} not hold (" + ", ".join(
                    f"seq {s.seq} by {safe(s.player)}: {s.status}" for s in bad)
                + f"); the chain of {counted(events, 'event')} is intact"))
        elif error is None:
            console.print(Text.assemble(("ok", "green"), f" {safe(file)}: {counted(events, 'event')}, "
                                        "chain intact"))
        elif found.own_error is None:  # intact itself, but not confirmed as a branch of --parent
            console.print(Text.assemble(("NOT CONFIRMED", "red"), f" {safe(str(error))}"))
            console.print(f"{safe(file)} itself: {counted(events, 'event')}, chain intact",
                          markup=False)
        elif isinstance(error, TornTail):
            console.print(Text.assemble(("TORN", "red"), f" {safe(str(error))}"))
            console.print(the_first(events, "event", "is intact", "are intact"))
        else:
            console.print(Text.assemble(("BROKEN", "red"), f" {safe(str(error))}"))
            console.print(the_first(events, "event", "reads correctly", "read correctly"))
        if found.tail_seq is not None:
            console.print(f"head (seq {found.tail_seq}): {report.head}")
        common = report.parent or None
        if common is not None and common.shared_to is not None:
            console.print(f"branch of {safe(str(parent))}: seq 0..{common.shared_to} are its "
                          f"lines byte for byte (its head at seq {common.shared_to}: "
                          f"{common.head})", markup=False)
        if signed is not None:
            from tabletape.cli import sign as cli_sign
            cli_sign.print_report(signed, found.header)
    ctx.exit(0 if report.ok else 1)


@click.command()
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("--to", "to", type=int, help="Stop after this seq.",
              shell_complete=complete.seqs)
@click.option("--as", "as_player", help="Show only what this player could see.",
              shell_complete=complete.players)
@click.option("--json", "as_json", is_flag=True, help="Print the state as JSON.")
@click.option("--step", is_flag=True, help="Walk the log event by event (arrows or n/p, "
              "g SEQ, d next dispute, i next illegal, q quit), from --to SEQ or seq 0.")
@rules_option
@components_option
@click.pass_context
def replay(ctx: click.Context, file: str, to: int | None, as_player: str | None, as_json: bool,
           step: bool, rules: str | None, components: str | None) -> None:
    """Rebuild the state of the game after the last event (or after --to SEQ).

    With --to, the lines after SEQ are still read for their format and hash chain
    (not their rules): a log broken anywhere is reported, exit 1.

    \b
    Examples:
      tabletape replay game.jsonl --to 40 --as bob
      tabletape replay game.jsonl --step
    """
    whatif = whatif_for(file, components)
    if step:
        if as_json:
            raise UsageError("--step is interactive; it does not print --json")
        from tabletape.app.stepper import Stepper
        from tabletape.cli import step as stepping
        return stepping.run(Stepper(file, as_player=as_player, at=to or 0, rules=rules,
                                    components=whatif))
    from tabletape.cli import replaying
    if not as_json:
        ctx.exit(replaying.show(file, to, as_player, rules, whatif))
    report = reading.state_report(*replaying.replayed(file, to, as_player, rules, whatif),
                                  components=whatif)
    emit_json(report)
    ctx.exit(1 if report.problems else 0)


@click.command()
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("--from", "start", type=click.IntRange(min=0), metavar="SEQ",
              help="Start at this seq (from the checkpoint index, when the log has one).")
@click.option("--to", "stop", type=click.IntRange(min=0), metavar="SEQ",
              help="Stop after this seq (the lines after it are still checked for their chain).")
@click.option("--as", "as_player", help="Hide what this player could not see (others' draws).")
@click.option("--json", "as_json", is_flag=True, help="Print JSON lines, one per event.")
@rules_option
@click.pass_context
def log_cmd(ctx: click.Context, file: str, start: int | None, stop: int | None,
            as_player: str | None, as_json: bool, rules: str | None) -> None:
    """Show the events, one line each as they are read: seq, by, the sentence, its ruling.

    \b
    Examples:
      tabletape log game.jsonl --from 40 --to 60
      tabletape log game.jsonl | head
    """
    import sys

    from tabletape.app import logrows
    from tabletape.tape.events import visible, visible_json
    out = sys.stdout

    shown = 0  # rows written: the table's heading goes before the first

    def heading() -> None:
        if not as_json:
            out.write(f"{visible(file)}\n{'seq':>6}  {'by':<8}  event  — ruling\n")

    def as_json_line(row: logrows.Row) -> None:
        nonlocal shown
        shown += 1
        out.write(visible_json(msgspec.to_builtins(row.line(as_player is not None))) + "\n")

    def as_text(row: logrows.Row) -> None:
        nonlocal shown
        if not shown:
            heading()
        shown += 1
        mark = ""
        if row.illegal is not None:
            mark = f"illegal [{row.illegal.rule}]"
        elif row.unjudged:
            mark = "not judged"
        if row.undone_at is not None:
            mark = f"{mark} undone at {row.undone_at}".lstrip()
        out.write(f"{row.seq:>6}  {visible(row.by or ''):<8}  {row.text}"
                  + (f"  — {mark}" if mark else "") + "\n")

    if stop is not None and start is not None and start > stop:
        raise UsageError(f"--from {start} is after --to {stop}")
    try:
        result = logrows.stream(file, as_json_line if as_json else as_text, start=start,
                                stop=stop, as_player=as_player, rules=rules)
        broken = result.error or result.later
        if start is not None and start >= result.events and result.error is None:
            raise UsageError(f"--from {start}: the log ends at seq {result.events - 1}",
                             file=file)
        if not shown:
            heading()  # a log broken before --from: the table is empty, the break follows
        from tabletape.cli.render import version_note
        note = version_note(result)
        if note is not None:  # on stderr: stdout holds only the events
            from tabletape.cli.render import err_console
            out.flush()
            err_console.print(note)
        if broken:  # on stderr, as every error: stdout holds only the events
            from tabletape.cli.render import err_console, problem_line
            out.flush()
            err_console.print(problem_line(broken))
            part = "" if shown == result.events else f"{shown} of "
            err_console.print(f"the {'lines' if as_json else 'table'} show"
                              f"{'' if as_json else 's'} {part}the {counted(result.events, 'line')} read "
                              "before the log breaks; the rest cannot be read as recorded")
        out.flush()
    except BrokenPipeError:  # the reader went away (`| head`): stop quietly, as `cat` does
        import os
        os.dup2(os.open(os.devnull, os.O_WRONLY), out.fileno())
        ctx.exit(141)
    ctx.exit(1 if result.problems else 0)


@click.command()
@click.argument("file", type=click.Path(dir_okay=False))
@click.argument("seq", type=int, shell_complete=complete.seqs)
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@rules_option
@components_option
@click.pass_context
def explain(ctx: click.Context, file: str, seq: int, as_json: bool, rules: str | None,
            components: str | None) -> None:
    """Rule on one event: the state before it, the event, the verdict and its rule, disputes.

    The whole log is read: when it breaks anywhere (format or chain), the event is
    still explained as it stands, the break is reported, and the exit status is 1.

    \b
    Example:
      tabletape explain game.jsonl 41
    """
    found = reading.explain(file, seq, rules, whatif_for(file, components))
    report, result, rs, before = found.report, found.result, found.ruleset, found.before
    if as_json:
        emit_json(report)
        ctx.exit(1 if report.problems else 0)
    from rich.panel import Panel
    from rich.text import Text

    from tabletape.cli.render import (
        console,
        drawing,
        problem_line,
        ruling_table,
        safe,
        version_note,
    )
    if found.components is not None:
        console.print(Text(found.components.note(), style="yellow"))
    console.print(Panel(drawing(rs, before), title=f"the state before seq {seq}"))
    console.print(f"seq {seq}: {report.text}", markup=False)
    console.print(f"  {safe(found.raw.decode())}", markup=False)
    verdict = report.verdict
    style = "green" if verdict == "legal" else "red" if verdict == "illegal" else "yellow"
    console.print(Text.assemble("ruling: ", (verdict, style),
                                f" — {safe(report.reason)}" if report.reason is not None else ""))
    for r in found.cited:
        if r in report.rules:
            console.print(f"  {r} ({report.rules[r].section}): {report.rules[r].text}",
                          markup=False)
    for line in engine.ruling_lines(report.derivation, report.rests_on):
        console.print(Text(f"  {line}", style="yellow"))
    if report.seat:  # written by a player who does not own it, or a secret line unsalted
        console.print(Text(f"  note [{report.seat.rule}]: {report.seat.reason}", style="yellow"))
    if report.undone_at is not None:
        console.print(f"  undone at seq {report.undone_at}: it no longer counts in the game")
    if report.disputes:
        console.print(ruling_table(report.disputes, rs))
    note = version_note(result)
    if note is not None:
        console.print(note)
    if result.error is not None:
        console.print(problem_line(result.error))
        console.print(f"the log breaks after seq {seq}: seq {seq} is explained as it stands, but "
                      "a broken log may have been changed anywhere before the break (validate "
                      "reports the same break)")
    ctx.exit(1 if result.error else 0)


@click.command()
@click.argument("a", type=AT_SEQ)
@click.argument("b", type=AT_SEQ)
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@rules_option
@click.pass_context
def diff(ctx: click.Context, a: LogPoint, b: LogPoint, as_json: bool, rules: str | None) -> None:
    """Compare two logs (or two points of one, FILE@SEQ): first divergent event, state diff.

    Exit 1 when they differ, or when either log is broken or invalid (reported first;
    a broken log is compared up to its break). Logs of different games: exit 2.

    \b
    Examples:
      tabletape diff game.jsonl other.jsonl
      tabletape diff game.jsonl@40 game.jsonl@41
    """
    found = reading.diff(a, b, rules)
    report = found.report
    if as_json:
        emit_json(report)
        ctx.exit(0 if report.same else 1)
    from rich.table import Table
    from rich.text import Text

    from tabletape.cli.render import console, problem_line, safe, spaced
    for side, spec, problems in found.found:
        if problems:
            broken = any(not isinstance(p, IllegalEvent) for p in problems)
            console.print(Text.assemble(("BROKEN" if broken else "INVALID", "red"),
                                        f" {side} = {safe(spec)}"
                                        + (": compared up to its break" if broken else "")))
            for p in problems:
                console.print(problem_line(p))
    div, changes = report.first_divergence, report.changes
    if div is None and not changes:
        bad = not report.same
        console.print(f"{safe(a.spec)} and {safe(b.spec)} record the same game"
                      + (" as far as both could be read" if bad else ""), markup=False)
        ctx.exit(1 if bad else 0)
    if div is not None:
        console.print(f"first divergence at seq {div.seq}:")
        for side, ev, rs in (("A", div.a, found.rulesets[0]), ("B", div.b, found.rulesets[1])):
            console.print(f"  {side}: " + (engine.describe(rs, ev) if ev else "(log ends)"),
                          markup=False)
    else:
        console.print("the events are the same; the states differ")
    table = Table(title=Text(f"state differences ({len(changes)}), A = {safe(a.spec)}, "
                             f"B = {safe(b.spec)}"), title_justify="left")
    table.add_column("path", overflow="fold")
    table.add_column("A", ratio=1, overflow="fold")
    table.add_column("B", ratio=1, overflow="fold")
    for c in changes[:200]:
        table.add_row(Text(safe(c.path)), Text(spaced(c.a)), Text(spaced(c.b)))
    console.print(table)
    if len(changes) > 200:
        console.print(f"... and {len(changes) - 200} more (use --json)")
    ctx.exit(1)


@click.command("legal")
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("--as", "as_player", metavar="PLAYER", shell_complete=complete.players,
              help="Only the events this player may enter: their decisions, and chance's "
              "outcomes that only they may enter (a card they draw).")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@rules_option
def legal(file: str, as_player: str | None, as_json: bool, rules: str | None) -> None:
    """List the legal next events: each as the JSON `append` takes, and its sentence.

    Chance's outcomes (a card drawn) come with their weight: how many ways chance can
    produce each. A log that does not read, one blocked by an illegal event in effect,
    and a finished game are refused (exit 1).

    \b
    Example:
      tabletape legal game.jsonl --as alice
    """
    from tabletape.app.legal import legal as listed
    found = listed(file, as_player, rules)
    if as_json:
        return emit_json(found)
    from tabletape.cli.group import echo
    pending = found.pending
    total = sum(e.weight or 0 for e in found.events)
    whom = f" for {found.as_}" if found.as_ is not None else ""
    count = counted(len(found.events), "legal event") if found.events else "no legal event"
    try:
        echo(f"{file} after seq {found.seq}: {pending.actor} decides {pending.kind}: "
             f"{pending.detail or pending.kind}; {count}{whom}")
        for e in found.events:
            weight = f" (weight {e.weight} of {total})" if e.weight is not None else ""
            echo(f"{msgspec.json.encode(e.event).decode()}  {e.text}{weight}")
        sys.stdout.flush()
    except BrokenPipeError:  # the reader went away (`| head`): stop quietly, as `log` does
        import os
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        raise click.exceptions.Exit(141) from None
