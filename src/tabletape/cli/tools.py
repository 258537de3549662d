"""Commands that make files: simulate, schema, repair."""

from __future__ import annotations

import functools
import operator
import os
from typing import Any

import click
import msgspec

from tabletape import engine
from tabletape.app import entries
from tabletape.app.vocab import counted
from tabletape.cli import complete, params
from tabletape.cli.group import echo, emit_json
from tabletape.tape import files as tapefiles
from tabletape.tape import log as tapelog
from tabletape.tape.errors import UsageError
from tabletape.tape.events import CORE_EVENTS, Header


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
    from tabletape.engine import simulate as sim
    rs = engine.get(game)
    header = rs.start(players, entries.options_for(rs, options),
                      entries.load_components(rs, components))
    tail = tapelog.create(output, header, rs.codec)
    batch, state = [], None
    with Progress(SpinnerColumn(), TextColumn("{task.description}"), console=err_console,
                  transient=True, disable=not err_console.is_terminal) as bar:
        task = bar.add_task("simulating", total=None)
        for n, step in enumerate(sim.play(rs, header, seed, max_events=max_events), 1):
            event, state = step
            batch.append(event)
            if len(batch) == 1000:
                tail = tapelog.append(output, batch, rs.codec, expect=tail, durable=False)
                batch = []
                bar.update(task, description=f"simulating: {n} events")
        tail = tapelog.append(output, batch, rs.codec, expect=tail)
    o = rs.bind(header).outcome(state) if state is not None else None
    if as_json:
        return emit_json({"file": output, "game": rs.id, "events": tail.seq + 1,
                          "head": tail.head, "finished": o is not None,
                          "outcome": None if o is None else {
                              "winners": list(o.winners), "scores": o.scores,
                              "summary": o.summary}})
    echo(f"wrote {output}: {counted(tail.seq + 1, 'event')}; "
         + (o.summary if o else f"unfinished after {max_events} events"))


def schemas() -> dict[str, bytes]:
    """Returns every JSON Schema file tabletape ships, by file name."""
    envelope = functools.reduce(operator.or_, CORE_EVENTS, Header)
    out = {"envelope.schema.json": _schema(envelope, "format-1 envelope")}
    for rs in engine.all_games():
        out[f"{rs.id}.schema.json"] = _schema(rs.union(), f"{rs.title} {rs.version} events")
        out[f"{rs.id}.components.schema.json"] = _schema(rs.Components, f"{rs.title} components")
    return out


def _schema(t, title: str) -> bytes:
    body = msgspec.json.schema(t)
    body = {"$schema": "https://json-schema.org/draft/2020-12/schema", "title": title, **body}
    return msgspec.json.format(msgspec.json.encode(body), indent=2) + b"\n"


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
    written = schemas()
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
        return emit_json({n: msgspec.json.decode(d) for n, d in written.items()})
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
    done = tapelog.repair(file, engine.codec_for)
    if not done.moved and not done.restored:
        if as_json:
            return emit_json({"file": file, "repaired": False, "moved_bytes": 0,
                              "restored": [], "aside": None, "events": None, "error": None})
        echo(f"{file} has no torn last line; nothing to repair")
        return
    result = engine.read_chain(file)
    if as_json:
        return emit_json({"file": file, "repaired": True, "moved_bytes": done.moved,
                          "restored": list(done.restored), "aside": done.aside,
                          "events": result.events,
                          "error": result.error.to_dict() if result.error else None})
    but = f" (but: {result.error})" if result.error else ""
    if done.restored:
        echo(f"restored {file}: undid {'; '.join(done.restored)}; the hash chain proves every "
             f"line as recorded; the original file is in {done.aside}; {file} keeps "
             f"{result.events} complete event(s){but}")
        return
    echo(f"moved {done.moved} torn byte(s) to {done.aside}; {file} keeps {result.events} "
         f"complete event(s){but}")

