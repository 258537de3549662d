"""Commands that teach a game's vocabulary: events (types, fields, examples) and components."""

from __future__ import annotations

import click
import msgspec

from tabletape import engine
from tabletape.app import vocab
from tabletape.cli import complete
from tabletape.cli.group import echo, emit_json
from tabletape.cli.params import AT_SEQ, LogPoint
from tabletape.tape import files


@click.command()
@click.argument("game", shell_complete=complete.games)
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of a table.")
def events(game: str, as_json: bool) -> None:
    """List a game's event types: their fields, types and bounds, and one example each.

    The example is a line `append` takes as it stands (tabletape fills in seq, prev
    and at; `by` and `at` may be given).

    \b
    Example:
      tabletape events cards-of-war
    """
    rs = engine.get(game)
    kinds = vocab.vocabulary(rs)
    if as_json:
        return emit_json(kinds)
    from tabletape.cli.group import echo
    echo(f"{rs.title} ({rs.id}): {len(kinds)} event types; tabletape fills in seq, prev and at")
    for k in kinds:
        echo("")
        echo(f"{k.type} — {k.about}")
        width = max((len(f.name) for f in k.fields), default=0)
        for f in k.fields:
            default = "" if f.required else f"  (default {_json(f.default)})"
            echo(f"  {f.name:<{width}}  {f.type}{default}")
        echo(f"  example: {_json(k.example)}")


def _json(value: object) -> str:
    return msgspec.json.encode(value).decode()


@click.command()
@click.argument("game", shell_complete=complete.games)
@click.option("-o", "--output", type=click.Path(dir_okay=False),
              help="Write the template to this file instead of stdout.")
@click.option("--force", is_flag=True, help="Replace the output file if it exists.")
def components(game: str, output: str | None, force: bool) -> None:
    """Print a game's default component data as JSON: a template for --components.

    Every entry carries its provenance (rulebook, inferred, reconstructed); edit the
    values to match your box, then pass the file to `new` or `record` with --components.

    \b
    Example:
      tabletape components cards-of-war > mine.json
    """
    rs = engine.get(game)
    data = msgspec.json.format(msgspec.json.encode(vocab.template(rs.default_components())),
                               indent=1) + b"\n"
    if output is None:
        click.echo(data.decode(), nl=False)
        return
    files.write(output, data, force=force)
    echo(f"wrote {output}: the default {rs.id} components, every entry with its provenance; "
         f"edit it, then: tabletape new {rs.id} FILE --players ... --components {output}")


@click.command()
@click.argument("point", type=AT_SEQ, metavar="FILE@SEQ")
@click.option("-o", "--output", required=True, type=click.Path(dir_okay=False),
              help="The new log (never overwritten).")
@click.option("--json", "as_json", is_flag=True, help="Print what was written as JSON.")
def branch(point: LogPoint, output: str, as_json: bool) -> None:
    """Start a what-if log: FILE's lines 0..SEQ byte for byte (same chain, same head at SEQ).

    Append to the new log like any other; `diff FILE NEW` shows where they part and
    `verify NEW --parent FILE` confirms the shared prefix.

    \b
    Example:
      tabletape branch game.jsonl@40 -o what-if.jsonl
    """
    from tabletape.app.branch import branched
    done = branched(point.path, point.seq, point.spec, output)
    if as_json:
        return emit_json(done)
    echo(f"wrote {output}: {point.path}'s seq 0..{done.seq}, head {done.head[:16]}; "
         "append to it like any log")
