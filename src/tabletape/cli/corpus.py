"""`tabletape corpus`: an archive of logs checked as a whole, against a baseline."""

from __future__ import annotations

import os
from typing import Any

import click

from tabletape import engine
from tabletape.app import corpus
from tabletape.cli.group import echo, emit_json
from tabletape.cli.params import rules_option
from tabletape.tape.errors import UsageError


def _game_file(ctx: click.Context, param: click.Parameter, values: tuple[str, ...]
               ) -> list[tuple[str, str]]:
    out = []
    for v in values:
        game, sep, path = v.partition("=")
        if not sep or not game or not path:
            raise click.BadParameter(f"takes GAME=FILE, got {v!r}")
        out.append((game, path))
    return out


@click.group(name="corpus")
def group() -> None:
    """Check an archive of logs as a whole: which games does a rules change affect?

    \b
    Example:
      tabletape corpus check logs --baseline logs/baseline.json
    """


@group.command()
@click.argument("paths", nargs=-1, required=True, type=click.Path())
@click.option("--baseline", type=click.Path(dir_okay=False), metavar="FILE",
              help="Compare every log with this manifest; exit 1 on any change.")
@click.option("--update", is_flag=True, help="Write the baseline (accept the results).")
@click.option("--components", "components", multiple=True, metavar="GAME=FILE",
              callback=_game_file,
              help="Judge GAME's logs with this component data instead of their headers' "
                   "(repeatable): what would a change of card values do?")
@click.option("--jobs", "-j", type=click.IntRange(min=1), default=None,
              help="Check this many logs at once, in processes.  [default: all cores]")
@click.option("--dask", "dask", metavar="SCHEDULER",
              help="Run on a Dask cluster: its scheduler's address, or `local` for a local "
                   "cluster of 2 workers (needs the dask extra).")
@click.option("--dask-threads", is_flag=True,
              help="With --dask local: workers are threads, not processes.")
@click.option("--dask-timeout", type=click.FloatRange(min=0), default=corpus.DASK_TIMEOUT,
              show_default=True, metavar="SECONDS",
              help="With --dask: fail when the scheduler has no worker after this long.")
@click.option("--no-cache", is_flag=True, help="Judge every log again; neither read nor "
              "write the cache.")
@click.option("--cache-dir", type=click.Path(file_okay=False), metavar="DIR",
              help="Where the cache lives.  [default: $TABLETAPE_CACHE, else "
                   "$XDG_CACHE_HOME/tabletape, else ~/.cache/tabletape]")
@click.option("--game", "games", multiple=True, metavar="GAME",
              help="Check only this game's logs (repeatable); with a baseline, compare and "
                   "update only theirs.")
@click.option("--option", "options", multiple=True, metavar="NAME=VALUE",
              help="Check only the logs played with this option value (repeatable), e.g. "
                   "two_decks=true, length=short.")
@click.option("--recorded", "recorded", multiple=True, metavar="VERSION",
              help="Check only the logs recorded under this rules version (repeatable), e.g. "
                   "1.0; --rules says which version judges them.")
@click.option("--json", "output", flag_value="json", help="Print the report as JSON.")
@click.option("--markdown", "output", flag_value="markdown",
              help="Print the report as Markdown, for a pull request (with the coverage of "
                   "the changed rules).")
@rules_option
@click.pass_context
def check(ctx: click.Context, paths: tuple[str, ...], baseline: str | None, update: bool,
          components: list[tuple[str, str]], jobs: int | None, dask: str | None,
          dask_threads: bool, dask_timeout: float, no_cache: bool, cache_dir: str | None,
          games: tuple[str, ...], options: tuple[str, ...], recorded: tuple[str, ...],
          output: str | None, rules: str | None) -> None:
    """Validate every log under PATHS (any game) and summarise, by game and rules version.

    With --baseline FILE, print every log whose result differs from the manifest (verdict,
    first illegal event and rule, outcome, final state, legal moves at every seq, rules
    version), and from which seq; --update writes it. Checking part of the archive (a
    folder or a log under it) compares that part only, and --update rewrites only its
    entries. Without a baseline, exit 1 when a
    log is invalid or broken; with one, exit 1 when anything changed.

    \b
    Examples:
      tabletape corpus check logs --baseline logs/baseline.json --update
      tabletape corpus check logs --baseline logs/baseline.json --components cards-of-war=deck.json
    """
    if update and baseline is None:
        raise UsageError("--update needs --baseline FILE")
    if dask_threads and dask != "local":
        raise UsageError("--dask-threads goes with --dask local")
    parsed = corpus.parse_components(components)
    for g in games:
        engine.get(g)  # an unknown game id is a usage error, with a suggestion
    only = corpus.Filter(tuple(games), corpus.parse_options(options), tuple(recorded))
    cache = None if no_cache else cache_dir or corpus.default_cache_dir()
    from tabletape.cli.render import console, err_console
    found = _with_progress(err_console, lambda progress: corpus.check_archive(
        paths, baseline=baseline, update=update, jobs=jobs or os.cpu_count() or 1,
        rules=rules, only=only, dask=dask, dask_processes=not dask_threads,
        components=parsed, cache_dir=cache, progress=progress, dask_timeout=dask_timeout))
    run, changes = found.run, found.changes
    if output == "json":
        emit_json(corpus.report(run, changes, found.covered))
    elif output == "markdown":
        for line in corpus.markdown(run, changes, baseline, found.covered):
            echo(line)
    else:
        _print_report(console, run, changes, baseline, found.written, found.covered)
    ctx.exit(0 if found.ok else 1)


def _with_progress(err_console: Any, work: Any) -> corpus.Checked:
    """Runs `work(progress)` with a progress bar on stderr (when stderr is a terminal)."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeElapsedColumn
    with Progress("checking", BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                  console=err_console, transient=True,
                  disable=not err_console.is_terminal) as bar:
        task = bar.add_task("checking", total=None)

        def progress(done: int, total: int) -> None:
            bar.update(task, completed=done, total=total)
        result: corpus.Checked = work(progress)
    return result


def _where(e: corpus.Entry) -> str:
    """Returns why a log is not valid: its break first (with the illegal event before it)."""
    if e.verdict == corpus.NOT_A_LOG or (e.verdict == corpus.BROKEN and e.error):
        where = f"{e.error}" + (f" (seq {e.error_seq})" if e.error_seq is not None else "")
        if e.first_illegal:
            where += f"; before it, an illegal event at seq {e.first_illegal[0]} " \
                     f"[{e.first_illegal[1]}]"
        return where
    if e.first_illegal:
        return f"seq {e.first_illegal[0]} [{e.first_illegal[1]}]"
    return e.error or e.verdict


def _print_report(console: Any, run: corpus.Run, changes: list[corpus.Change] | None,
                  baseline: str | None, written: dict[str, corpus.Entry] | None,
                  covered: dict[str, Any] | None = None) -> None:
    from rich.table import Table
    from rich.text import Text
    s = corpus.summary(run, changes)
    cols = corpus.columns(s)
    heads = [c.replace("_", "\n") for c in cols]  # winner changed: in two lines, narrow

    def table(title: str | None, first: tuple[str, ...], rows: list[tuple[Any, ...]],
              total: corpus.Tally | None = None, shown: tuple[str, ...] = cols) -> None:
        t = Table(title=title, title_justify="left")
        for col in (*first, *(heads[cols.index(c)] for c in shown)):
            t.add_column(col, justify="left" if col in first else "right")
        for *names, tally in rows:
            t.add_row(*names, *(f"{getattr(tally, c):,}" for c in shown))
        if total is not None:
            t.add_row("all", "", *(f"{getattr(total, c):,}" for c in shown), style="bold")
        console.print(t)

    table(f"{s.total.logs} logs" + (f" ({run.cached} from the cache)" if run.cached else ""),
          ("game", "rules"), [(*k.partition(" ")[::2], t) for k, t in s.by_version.items()],
          s.total)
    for game, opts in s.by_option.items():  # the logs played with an option not its default
        table(f"{game} by option", ("option",), list(opts.items()),
              shown=tuple(c for c in cols if c != "events"))
    if changes is None:
        for name, e in run.entries.items():
            if e.verdict != corpus.VALID:
                console.print(Text.assemble((f"{e.verdict} ", "red"), f"{name}: {_where(e)}"))
        for name, e in run.entries.items():
            if e.latest is not None:  # judged both ways: its own version, and the latest
                u = e.latest
                first = f" at seq {u.illegal[0][0]} [{u.illegal[0][1]}]" if u.illegal else ""
                console.print(Text.assemble(
                    ("under the latest rules ", "yellow"),
                    f"{name}: {e.verdict} under {e.judged_by or e.rules_version} (recorded), "
                    f"{u.verdict}{first} under {u.version}; rules changed between: "
                    f"{', '.join(u.rules_changed) or 'none'}"))
        if written is not None:
            console.print(f"wrote the baseline {baseline} ({len(written)} logs)")
        return
    for c in changes:
        head = Text.assemble((f"{c.kind} ", "yellow"), c.log)
        broken = c.broken_at
        if broken is not None:  # tampering first, before any illegal event on the way
            head.append(f": broken at seq {broken.seq}" if broken.seq is not None
                        else ": broken")
        if c.first_seq is not None:
            head.append(("; " if broken is not None else ": ")
                        + f"the judgement first differs at seq {c.first_seq}")
        console.print(head)
        for w in c.what:
            console.print(Text(f"  {w}"))
        if c.rules_changed:
            console.print(Text(f"  rules changed since its version: {', '.join(c.rules_changed)}"))
        if c.look:
            console.print(Text(f"  look closer: {c.look}"))
    for r in corpus.rule_coverage(run, changes, covered) if covered is not None else ():
        console.print(Text.assemble(("coverage ", "cyan"), f"{r.rule}: {r.logs:,} of "
                                    f"{r.of:,} {r.game or '?'} logs exercise it "
                                    f"({r.events:,} events)"))
    if changes:
        winners = len(s.winner_changed or ())
        console.print(f"{len(changes)} of {len(run.entries)} logs differ from the baseline "
                      f"{baseline}, {winners} with another winner or none (--update accepts "
                      "them)")
    else:
        console.print(f"all {len(run.entries)} logs match the baseline {baseline}")


@group.command()
@click.argument("paths", nargs=-1, required=True, type=click.Path())
@click.option("--jobs", "-j", type=click.IntRange(min=1), default=None,
              help="Read this many logs at once, in processes.  [default: all cores]")
@click.option("--json", "as_json", is_flag=True, help="Print the coverage as JSON.")
def coverage(paths: tuple[str, ...], jobs: int | None, as_json: bool) -> None:
    """Which rule ids the logs under PATHS exercise, which none does, and how games ended.

    A rule is exercised by an event it governs (the rules `explain` names) or refuses.
    Per game: each rule id of its catalogue with the logs and events that exercise it,
    the rule ids no log exercises, and the endings present (the kind of event that
    ended each game, or "not over").

    \b
    Example:
      tabletape corpus coverage logs
    """
    from rich.table import Table
    from rich.text import Text

    from tabletape.cli.render import console
    found = corpus.coverage(paths, jobs or os.cpu_count() or 1)
    if as_json:
        emit_json(found)
        return
    for game, g in found.items():
        table = Table(title=f"{game}: {g['logs']:,} logs, {g['events']:,} events",
                      title_justify="left")
        for col in ("rule", "logs", "events"):
            table.add_column(col, justify="left" if col == "rule" else "right")
        for rule, seen in g["rules"].items():
            if seen["logs"]:
                table.add_row(rule, f"{seen['logs']:,}", f"{seen['events']:,}")
        console.print(table)
        console.print(Text(f"not exercised by any log ({len(g['unexercised'])}): "
                           + (", ".join(g["unexercised"]) or "none")))
        console.print(Text("endings: " + ", ".join(f"{k} {n}" for k, n in g["endings"].items())))
