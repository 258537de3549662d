"""`tabletape balance`: what a rules version does to the game, over many games by agents."""

from __future__ import annotations

import os
from typing import Any

import click

from tabletape.cli import complete, params
from tabletape.cli.group import echo, emit_json
from tabletape.tape.errors import UsageError


def _sprt(text: str | None) -> Any:
    from tabletape.app.balance_report import SprtAsk
    if text is None:
        return None
    try:
        parts = [float(x) for x in text.split(",")] if text else []
    except ValueError:
        raise UsageError(f"--sprt {text}: give DELTA or DELTA,ALPHA,BETA as numbers") from None
    if not 1 <= len(parts) <= 3 or len(parts) == 2:
        raise UsageError(f"--sprt {text}: give DELTA or DELTA,ALPHA,BETA")
    return SprtAsk(*parts)


def _agents(text: str) -> tuple[str, ...]:
    return tuple(a.strip() for a in text.split(",") if a.strip()) or ("random",)


@click.command()
@click.argument("game", is_eager=True, shell_complete=complete.games)
@click.option("--rules", metavar="VERSION", help="The rules version (default: the latest).")
@click.option("--option", "options", multiple=True, type=params.GAME_OPTION,
              metavar="KEY=VALUE", help="An optional rule (repeatable).")
@click.option("--players", type=click.IntRange(min=1), default=None,
              help="The number of players (default: the fewest the game allows).")
@click.option("--agents", default="random", show_default=True, metavar="A,B,...",
              help="The agent of each seat (the last fills the rest): random, mc[:BUDGET].")
@click.option("--rotate", is_flag=True, help="Rotate the agents through the seats game by game.")
@click.option("--against", "against", metavar="VERSION",
              help="Compare with this rules version (B); other settings as A's.")
@click.option("--against-option", "against_options", multiple=True, type=params.GAME_OPTION,
              metavar="KEY=VALUE", help="Compare with this option value in B (repeatable).")
@click.option("--against-agents", metavar="A,B,...", help="Compare with these agents in B.")
@click.option("--games", "-n", type=int, default=1000, show_default=True,
              help="Games per configuration (the most, with --sprt).")
@click.option("--seed", type=int, default=0, show_default=True,
              help="The run's seed: game i's seed derives from it.")
@click.option("--sprt", metavar="DELTA[,ALPHA,BETA]",
              help="Stop as soon as B is shown to move seat 1's win rate by DELTA or not "
                   "(error rates ALPHA, BETA; default 0.05 each).")
@click.option("--jobs", "-j", type=click.IntRange(min=1), default=None,
              help="Processes (default: all cores).")
@click.option("--scheduler", metavar="ADDRESS",
              help="Play on a Dask scheduler's workers (tcp://host:8786, or `local`).")
@click.option("--max-events", type=click.IntRange(min=1), default=20_000, show_default=True,
              help="A game longer than this is cut off (not completed).")
@click.option("--no-cache", is_flag=True, help="Play every game again (the cache is not used).")
@click.option("--cache-dir", type=click.Path(file_okay=False), metavar="DIR",
              help="Where results are cached (default: $TABLETAPE_CACHE or ~/.cache/tabletape).")
@click.option("--html", "html", type=click.Path(dir_okay=False), metavar="FILE",
              help="Write the report as a page (plots; works offline).")
@click.option("--markdown", "md", type=click.Path(dir_okay=False), metavar="FILE",
              help="Write the report as Markdown (for a pull request).")
@click.option("--json", "as_json", is_flag=True, help="Print the report and every game as JSON.")
@click.option("--write-game", metavar="INDEX:FILE",
              help="Write game INDEX of the run (A) as a log to FILE, then stop.")
def balance(game: str, rules: str | None, options: tuple[tuple[str, Any], ...],
            players: int | None, agents: str, rotate: bool, against: str | None,
            against_options: tuple[tuple[str, Any], ...], against_agents: str | None,
            games: int, seed: int, sprt: str | None, jobs: int | None, scheduler: str | None,
            max_events: int, no_cache: bool, cache_dir: str | None, html: str | None,
            md: str | None, as_json: bool, write_game: str | None) -> None:
    """Play many games under one rules configuration (or two, side by side) and report.

    Win rate by seat, draws, completion, length, decisiveness and what wins, with 95%
    intervals; with --against, B less A and whether it moved; with --sprt, a stopping rule.

    \b
    Examples:
      tabletape balance cards-of-war --rules 1.1 --against 1.2 --sprt 0.05
      tabletape balance liberation --agents mc:16,random --rotate -n 200 --html lab.html
    """
    from tabletape import engine
    from tabletape.app import balance as lab
    from tabletape.app import balance_report as rep
    from tabletape.app.corpus import default_cache_dir
    rs = engine.get(game)
    a = lab.Config(game=rs.id, rules=rules or rs.version, options=tuple(options),
                   players=players or rs.players[0], agents=_agents(agents), rotate=rotate,
                   max_events=max_events)
    b = None
    if against or against_options or against_agents:
        b = lab.Config(game=rs.id, rules=against or a.rules,
                       options=tuple(dict([*options, *against_options]).items()),
                       players=a.players, agents=_agents(against_agents or agents),
                       rotate=rotate, max_events=max_events)
    if write_game:
        return _write(lab, a, seed, write_game)
    ask = _sprt(sprt)
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeRemainingColumn,
    )

    from tabletape.cli.render import err_console
    with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                  TextColumn("{task.fields[rate]}"), TimeRemainingColumn(),
                  console=err_console, transient=True,
                  disable=not err_console.is_terminal) as bar:
        task = bar.add_task("games", total=games, rate="")

        def progress(done: int, total: int) -> None:
            speed = bar.tasks[0].speed
            bar.update(task, completed=done,
                       rate=f"{speed * (2 if b else 1):.0f} games/s" if speed else "")

        report = rep.measure(a, b, seed=seed, games=games, jobs=jobs or os.cpu_count() or 1,
                             scheduler=scheduler, sprt=ask, progress=progress,
                             cache_dir=None if no_cache else cache_dir or default_cache_dir())
    if html:
        from tabletape.app import balance_page
        from tabletape.tape import files
        files.write(html, balance_page.page(report).encode(), force=True)
    if md:
        from tabletape.tape import files
        files.write(md, rep.markdown(report).encode(), force=True)
    if as_json:
        return emit_json(report)
    for line in rep.markdown(report).splitlines():
        echo(line)


def _write(lab: Any, config: Any, seed: int, spec: str) -> None:
    index, _, path = spec.partition(":")
    if not index.isdigit() or not path:
        raise UsageError(f"--write-game {spec}: give INDEX:FILE, e.g. 7:game7.jsonl")
    if os.path.exists(path):
        raise UsageError(f"--write-game: {path} exists; tabletape never writes over a log")
    played = lab.write_game(config, seed, int(index), path)
    echo(f"wrote {path}: game {index} of the run (seed {played.seed}), "
         f"{played.events} events")
