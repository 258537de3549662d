"""Commands that make files: simulate, schema, repair."""

from __future__ import annotations

import os
from typing import Any

import click

from tabletape.app import making
from tabletape.app.vocab import counted
from tabletape.cli import complete, params
from tabletape.cli.group import echo, emit_json
from tabletape.tape import files as tapefiles
from tabletape.tape.errors import UsageError


@click.command()
@click.argument("game", is_eager=True, shell_complete=complete.games)
@click.option("--players", type=params.PLAYERS_OR_COUNT, default="2", show_default=True,
              help="A count or comma-separated names.")
@click.option("--seed", type=int, default=0, show_default=True, help="Random seed (same seed, same game).")
@click.option("-o", "--output", required=True, type=click.Path(dir_okay=False), help="The log to write.")
@click.option("--option", "options", multiple=True, type=params.GAME_OPTION, metavar="KEY=VALUE",
              help="An optional rule.")
@click.option("--components", type=click.Path(dir_okay=False), help="Your own component data.")
@click.option("--max-events", type=int, default=20_000, show_default=True,
              help="Stop a game that runs longer than this.")
@click.option("--json", "as_json", is_flag=True, help="Print what was written as JSON.")
def simulate(game: str, players: tuple[str, ...], seed: int, output: str,
             options: tuple[tuple[str, Any], ...], components: str | None, max_events: int,
             as_json: bool) -> None:
    """Play a whole game of random legal moves and record it (chance drawn by its odds).

    \b
    Example:
      tabletape simulate cards-of-war --players 2 --seed 7 -o sim.jsonl
    """
    from rich.progress import Progress, SpinnerColumn, TextColumn

    from tabletape.cli.render import err_console
    with Progress(SpinnerColumn(), TextColumn("{task.description}"), console=err_console,
                  transient=True, disable=not err_console.is_terminal) as bar:
        task = bar.add_task("simulating", total=None)
        done = making.simulate(game, players, seed, output, options, components, max_events,
                               lambda n: bar.update(task, description=f"simulating: {n} events"))
    if as_json:
        return emit_json(done)
    echo(f"wrote {output}: {counted(done.events, 'event')}; "
         + (done.outcome.summary if done.outcome else f"unfinished after {max_events} events"))


@click.command()
@click.option("-o", "--output", type=click.Path(file_okay=False), help="Write the schemas here.")
@click.option("--check", "check_dir", type=click.Path(file_okay=False),
              help="Exit 1 if the schemas in this folder are stale.")
@click.pass_context
def schema(ctx: click.Context, output: str | None, check_dir: str | None) -> None:
    """Write the JSON Schemas of the envelope, every game's events and its components.

    \b
    Example:
      tabletape schema -o schemas
    """
    written = making.schemas()
    if check_dir and not os.path.isdir(check_dir):
        raise UsageError(f"--check {check_dir}: no such folder (`tabletape schema -o "
                         f"{check_dir}` writes the schemas there)")
    if check_dir:
        stale = [n for n, data in written.items() if _read(os.path.join(check_dir, n)) != data]
        extra = sorted(set(os.listdir(check_dir)) - set(written)) if os.path.isdir(check_dir) else []
        if stale or extra:
            echo(f"schemas in {check_dir} are stale: {', '.join(stale + extra)}; "
                       "run `make schemas`", err=True)
            ctx.exit(1)
        echo(f"schemas in {check_dir} are up to date ({len(written)} files)")
        return
    if not output:
        return emit_json(making.schema_documents())
    os.makedirs(output, exist_ok=True)
    for name, data in written.items():
        tapefiles.write(os.path.join(output, name), data, force=True)  # they are generated
        echo(f"wrote {os.path.join(output, name)}")


def _read(path: str) -> bytes | None:
    try:
        with open(path, "rb") as f:
            return f.read()
    except OSError:
        return None


@click.command()
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("--json", "as_json", is_flag=True, help="Print what was done as JSON.")
def repair(file: str, as_json: bool) -> None:
    """Move a torn last line aside, or undo an editor's damage where the hash chain proves it.

    A torn last line goes to FILE.torn; Windows line endings, a byte-order mark,
    trailing empty lines and a missing final newline are undone only when every line
    then hashes to what the next one recorded (the original is kept as FILE.orig).
    No recorded byte is lost. A symlink is followed (the log it names is repaired, the
    link kept); a file whose first line is not a log's header is refused.

    \b
    Example:
      tabletape repair game.jsonl
    """
    done, error = making.repair(file)
    if as_json:
        return emit_json(done)
    if not done.repaired:
        echo(f"{file} has no torn last line; nothing to repair")
        return
    but = f" (but: {error})" if error else ""
    if done.restored:
        echo(f"restored {file}: undid {'; '.join(done.restored)}; the hash chain proves every "
             f"line as recorded; the original file is in {done.aside}; {file} keeps "
             f"{counted(done.events or 0, 'complete event')}{but}")
        return
    echo(f"moved {counted(done.moved_bytes, 'torn byte')} to {done.aside}; {file} keeps "
         f"{counted(done.events or 0, 'complete event')}{but}")
