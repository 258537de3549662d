"""Commands that draw a log: svg (one table), view (the HTML replay), serve (the live view)."""

from __future__ import annotations

import errno
import ipaddress
import socket

import click

from tabletape.cli import complete
from tabletape.cli.group import echo
from tabletape.cli.params import components_option, rules_option, whatif_for
from tabletape.tape import files
from tabletape.tape.errors import TapeError, UsageError


@click.command()
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("--to", "to", type=int, help="Draw the table after this seq (default: the last).")
@click.option("--as", "as_player", help="Draw only what this player could see.",
              shell_complete=complete.players)
@click.option("-o", "--output", "out", required=True, type=click.Path(dir_okay=False),
              help="The SVG file to write ('-' for stdout).")
@click.option("--json", "as_json", is_flag=True, help="Print what was written as JSON.")
@click.option("--force", is_flag=True, help="Replace the output if it exists (never the log).")
@rules_option
@click.pass_context
def svg(ctx: click.Context, file: str, to: int | None, as_player: str | None, out: str,
        as_json: bool, force: bool, rules: str | None) -> None:
    """Draw the table as SVG after the last event (or after --to SEQ).

    The log's problems go to stderr, as replay prints them (exit 1); with --to, the
    lines after SEQ are still read for their format and hash chain.

    \b
    Example:
      tabletape svg game.jsonl --to 40 --as bob -o table.svg
    """
    from tabletape.app import pictures
    from tabletape.cli import replaying
    if out != "-":
        files.check_target(out, force=force, reading=(file,))  # before the work, not after
    result, _ = replaying.replayed(file, to, as_player, rules)  # refuses a seq or player it lacks
    assert result.ruleset is not None and result.fold is not None
    picture = pictures.draw(result.ruleset, result.fold.state, as_player).svg()
    seen = f", as {as_player} sees it" if as_player else ""
    if out == "-":
        click.echo(picture, nl=False)
    else:
        files.write(out, picture.encode(), force=force, reading=(file,))
        if as_json:
            from tabletape.cli.group import emit_json
            emit_json(pictures.drawn(out, result, as_player))
        else:
            point, why = replaying.drawn_at(result)
            echo(f"wrote {out}: the table {point}{seen}{why}")
            from tabletape.cli.render import console, version_note
            note = version_note(result)
            if note is not None:
                console.print(note)
    # what replay says of the state it draws: a picture of a disputed log must not look clean
    ctx.exit(replaying.warn(result, to))


@click.command()
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("-o", "--output", "out", required=True, type=click.Path(dir_okay=False),
              help="The HTML file to write.")
@click.option("--force", is_flag=True, help="Replace the output if it exists (never the log).")
@click.option("--json", "as_json", is_flag=True, help="Print what was written as JSON.")
@rules_option
@components_option
@click.pass_context
def view(ctx: click.Context, file: str, out: str, as_json: bool, force: bool,
         rules: str | None, components: str | None) -> None:
    """Write the whole game as one self-contained HTML page to step through.

    VCR buttons, a slider, keys, `#seq=N` links, each event's ruling and disputes,
    and a "seen by" choice. No network needed: mail it, or put it on a website.
    A broken or invalid log is drawn as far as it reads, its verdict on the page;
    exit 1, as `svg` and `validate`.

    \b
    Example:
      tabletape view game.jsonl -o game.html
    """

    from tabletape.app import viewer
    whatif = whatif_for(file, components)
    page, ok = viewer.view(file, out, force=force, rules=rules, components=whatif)
    if as_json:
        from tabletape.cli.group import emit_json
        emit_json(page)
    else:
        if whatif is not None:
            echo(whatif.note())
        versions = page.rules_version
        echo(f"wrote {out}: {page.lines} lines (seq 0-{page.lines - 1}), {page.verdict}"
             + ("" if versions.recorded == versions.judged_by else
                f" by rules {versions.judged_by} (recorded under {versions.recorded})"))
        click.echo(f"{page.bytes / 1000:.0f} kB, self-contained: open it in a browser, mail it, "
                   "or put it on a website")
    ctx.exit(0 if ok else 1)  # the page is written either way; its log is not clean


def _loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


@click.command()
@click.argument("file", type=click.Path(dir_okay=False, exists=True))
@click.option("--host", default="127.0.0.1", show_default=True,
              help="The address to listen on; anything but localhost shares the game "
                   "(0.0.0.0: every address, for phones on the same network).")
@click.option("--port", default=8000, show_default=True, type=click.IntRange(0, 65535))
@click.option("--play", is_flag=True,
              help="Let each player enter their own plays from their phone: prints a link "
                   "(and a QR code) per player, each with a secret; the server then writes "
                   "to the log.")
@click.option("--umpire", is_flag=True,
              help="With --play: a link too for an umpire, who sees everything and may undo.")
@click.option("--seats", "seats_file", type=click.Path(dir_okay=False),
              help="With --play: keep each seat's secret in this file (made on first use, "
                   "mode 0600), so that every link still works after a restart.")
@click.option("--reissue", multiple=True, metavar="NAME",
              help="With --seats: a new link for this seat (a lost phone); its old link "
                   "opens nothing. Repeatable.")
@click.option("--show-codes", is_flag=True,
              help="With --play: the shared page shows every seat's join link and QR code "
                   "(only for a screen the players alone can see; else they are on the "
                   "umpire's page).")
@rules_option
def serve(file: str, host: str, port: int, play: bool, umpire: bool, seats_file: str | None,
          reissue: tuple[str, ...], show_codes: bool, rules: str | None) -> None:
    """Show the game in a browser and follow it live as events are appended.

    Without --play the server only reads the log: for a tablet or a projector beside
    the table. With --play each player enters their own plays from their phone and the
    server appends them to the log (through the same lock as `append`). Needs the
    `view` extra (pip install 'tabletape[view]').

    \b
    Examples:
      tabletape serve game.jsonl
      tabletape serve game.jsonl --host 0.0.0.0
      tabletape serve game.jsonl --play --umpire --host 0.0.0.0 --seats game.seats
    """
    try:
        from tabletape.app import live
        from tabletape.web import guard, run, view
    except ImportError as e:
        raise UsageError(f"serve needs the view extra ({e.name} is missing): "
                         "pip install 'tabletape[view]'") from None
    if (umpire or seats_file or show_codes) and not play:
        raise UsageError(f"--{'umpire' if umpire else 'seats' if seats_file else 'show-codes'}"
                         " goes with --play")
    if reissue and not seats_file:
        raise UsageError("--reissue goes with --seats (without it every start makes new links)")
    if play:  # the table keeps its own fold of the log: no viewer's book is built
        return _play(file, host, port, umpire, rules, seats_file, reissue, show_codes)
    follower = live.Follower(file, rules=rules)
    _refuse(follower.look().error)
    sock = _listen(host, port)
    port = sock.getsockname()[1]
    follower.told = told = _console
    app = view.app_for(file, guard.host_check(host, port), told, follower)
    if not _loopback(host):
        echo(f"warning: --host {host}: anyone who can reach this machine on port {port} "
             "can watch this game (read-only, no password)", err=True)
    name = f"[{host}]" if ":" in host else host
    echo(f"serving {file} at http://{name}:{port}/ (read-only; Ctrl-C stops)")
    run.run(app, sock)


def _play(file: str, host: str, port: int, umpire: bool, rules: str | None,
          seats_file: str | None, reissue: tuple[str, ...], show_codes: bool) -> None:
    """Serves the log for play at the table: prints the shared link and each seat's."""
    from tabletape.app import play, seatfile
    from tabletape.web import guard, run
    from tabletape.web import table as web
    table = play.Table(file, rules, flagged=lambda said: _console(f"for the umpire: {said}"))
    try:
        header = table.replayed().fold.header  # type: ignore[union-attr]
    except (TapeError, OSError, ValueError, RecursionError) as e:
        _refuse(e)
        raise
    kept = None
    if seats_file is not None:
        if umpire and play.UMPIRE in header.players:
            play.Seats(tuple(header.players), umpire)  # refuses it, before any file is made
        kept, said = seatfile.seats_for(seats_file, header.game, tuple(header.players), umpire,
                                        reissue, reading=(file,))
        for line in said:
            echo(line, err=True)
    seats = play.Seats(tuple(header.players), umpire, kept=kept)
    sock = _listen(host, port)
    port = sock.getsockname()[1]
    shown = seatfile.lan_address() if host in ("0.0.0.0", "::") else host
    base = f"http://[{shown}]:{port}" if ":" in shown else f"http://{shown}:{port}"
    app = web.play_app(table, seats, guard.host_check(host, port, named=(shown,)), _console,
                       base=base, show_codes=show_codes)
    if not _loopback(host):
        echo(f"warning: --host {host}: anyone who can reach this machine on port {port} can "
             "watch this game; only the links below (keep them secret) can write to it",
             err=True)
    else:
        echo(f"note: --host {host} is this machine only: no phone can open these links; "
             "serve with --host 0.0.0.0 to reach phones on the same network", err=True)
    echo(f"serving {file} for play at {base}/ (the shared table: public; Ctrl-C stops)")
    for seat, path in seats.links():
        echo(f"{'umpire' if seat.umpire else seat.name}: {base}{path}")
        for line in seatfile.qr_lines(base + path) or ():
            echo(line)
    if seatfile.qr_lines("") is None:
        echo("(no QR codes: pip install 'tabletape[view]' brings segno)")
    run.run(app, sock)


def _refuse(error: Exception | None) -> None:
    """Refuses to serve a file that is not a log (exit 2), before listening."""
    if isinstance(error, TapeError):
        raise UsageError(error.reason, file=error.file, line=error.line, offset=error.offset,
                         field=error.field)
    if error is not None:
        raise error


def _listen(host: str, port: int) -> socket.socket:
    """Returns a socket listening on host:port, or says why there is none (exit 2)."""
    where = f"[{host}]:{port}" if ":" in host else f"{host}:{port}"
    try:
        family = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0][0]
    except (socket.gaierror, UnicodeError) as e:
        raise UsageError(f"cannot listen on {where}: {getattr(e, 'strerror', e)}") from None
    sock = socket.socket(family, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host, port))
        sock.listen(128)
    except OSError as e:
        sock.close()
        raise UsageError(f"cannot listen on {where}: {e.strerror or e}"
                         + (" (another server? try --port)" if e.errno == errno.EADDRINUSE
                            else "")) from None
    return sock


def _console(news: str) -> None:
    """Prints the server's news (the log changed, a host refused) on stderr, escaped."""
    echo(news, err=True)
