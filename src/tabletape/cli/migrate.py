"""`tabletape migrate`: a log's plays as a new log under other rules (app.migrate)."""

from __future__ import annotations

import click

from tabletape.cli.group import echo, emit_json
from tabletape.tape.words import counted


@click.command()
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("-o", "--output", "out", required=True, type=click.Path(dir_okay=False),
              help="The new log (never an existing file, never FILE).")
@click.option("--rules", "rules", metavar="VERSION|latest", default=None,
              help="The rules version of the new log (default: latest).")
@click.option("--json", "as_json", is_flag=True, help="Print what was done as JSON.")
@click.pass_context
def migrate(ctx: click.Context, file: str, out: str, rules: str | None, as_json: bool) -> None:
    """Write FILE's plays as a new log under other rules: upcast, re-chained, validated.

    The new header names the target version and FILE's head. Where a play breaks the
    target rules nothing is written: exit 1, naming the first seq and rule. FILE is
    never touched.

    \b
    Example:
      tabletape migrate old.jsonl -o old-1.1.jsonl --rules 1.1
    """
    from tabletape.app.migrate import migrate as run
    done = run(file, out, rules)
    bad = done.refused
    if as_json:
        emit_json(done.report())
    elif bad is not None:
        from tabletape.cli.render import err_console, problem_line
        err_console.print(problem_line(bad))
        rule = getattr(bad, "rule", None)
        for version, what in done.rule_changed.items():  # why its own version accepted it
            echo(f"  {rule} changed in rules {version}: {what}", err=True)
        # (where the new rules owe a play the log lacks, none is made up)
        adds = " (migrate adds no play)" if done.rule_changed else ""
        echo(f"not migrated: {file} breaks {done.game} rules {done.target} at seq {bad.seq}"
             f"{f' [{rule}]' if rule else ''}; nothing written{adds}", err=True)
    else:
        echo(f"wrote {out}: {counted(done.events, 'event')} of {file} under {done.game} rules "
             f"{done.target} (recorded under {done.recorded}); head {done.head}")
    ctx.exit(1 if bad is not None else 0)
