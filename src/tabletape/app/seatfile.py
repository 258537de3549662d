"""`serve --play --seats FILE`: each seat's secret kept across restarts; the links printed;
where a rematch's log goes (the same seats serve it).

The file holds the game, its players in seat order and one token per seat (the umpire's
too, once served with `--umpire`). It is made on first use, written through the one
door for files (tape.files: a temporary file, fsync, atomic rename) with mode 0600, and
read back on every later start, so that every phone's link still works. It is refused
for a log of another game or other players (a seat file is per table, not per log: a
rematch is served with the same tokens). `reissue` makes a new token for one seat (a
lost phone): its old link then opens nothing.
"""

from __future__ import annotations

import os
import re
import secrets

import msgspec

from tabletape.tape import files
from tabletape.tape.errors import UsageError

MODE = 0o600  # the tokens are secrets: readable by their owner only
TOKEN = re.compile(r"[A-Za-z0-9_-]{16,64}")  # what a link's path may carry (the page's own test)
MAX_BYTES = 64 * 1024
UMPIRE = "umpire"  # the umpire's seat in the file (a player may not be so named with --umpire)


class SeatFile(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    """The file: the table it belongs to and its seats' tokens (seat name -> token)."""

    format: int = 1
    game: str
    players: list[str]
    tokens: dict[str, str]


def new_token() -> str:
    """Returns a fresh seat token (144 random bits, URL-safe)."""
    return secrets.token_urlsafe(18)


def read(path: str) -> SeatFile | None:
    """Returns the seat file at `path`, or None when there is none (raises UsageError for
    one that cannot be read or is not a seat file)."""
    try:
        with open(path, "rb") as f:
            raw = f.read(MAX_BYTES + 1)
    except FileNotFoundError:
        return None
    except OSError as e:
        raise UsageError(f"cannot read the seats file {path}: {e.strerror or e}",
                         file=path) from None
    if len(raw) > MAX_BYTES:
        raise UsageError(f"{path}: not a seats file (larger than {MAX_BYTES} bytes)", file=path)
    try:
        kept = msgspec.json.decode(raw, type=SeatFile)
    except (msgspec.DecodeError, RecursionError) as e:
        raise UsageError(f"{path}: not a seats file of tabletape ({e})", file=path) from None
    bad = [name for name, token in kept.tokens.items() if not TOKEN.fullmatch(token)]
    if kept.format != 1 or bad:
        why = f"format {kept.format}" if kept.format != 1 else f"a bad token for {bad[0]!r}"
        raise UsageError(f"{path}: not a seats file this tabletape reads ({why})", file=path)
    if len(set(kept.tokens.values())) != len(kept.tokens):
        raise UsageError(f"{path}: two seats share a token", file=path)
    return kept


def seats_for(path: str, game: str, players: tuple[str, ...], umpire: bool = False,
              reissue: tuple[str, ...] = (), reading: tuple[str, ...] = ()
              ) -> tuple[dict[str, str], list[str]]:
    """Returns each seat's token (player name, or UMPIRE) from the seat file at `path`, made
    or completed first (written back, mode 0600), and what changed, in words.

    Refuses (UsageError) a file of another game or other players, and a `reissue` of a seat
    the table does not have."""
    kept = read(path)
    said: list[str] = []
    if kept is not None and (kept.game != game or tuple(kept.players) != players):
        raise UsageError(
            f"{path} holds the seats of another table ({kept.game}: "
            f"{', '.join(kept.players)}), not this log's ({game}: {', '.join(players)}); "
            "name another --seats file", file=path)
    names = [*players, *([UMPIRE] if umpire else [])]
    for name in reissue:
        if name not in names:
            raise UsageError(f"--reissue {name}: no such seat at this table (seats: "
                             f"{', '.join(names)})")
    tokens = dict(kept.tokens) if kept is not None else {}
    if kept is None:
        said.append(f"made {path}: a token per seat (mode 0600; keep it secret)")
    for name in names:
        if name in reissue:
            tokens[name] = new_token()
            said.append(f"reissued {name}'s link: the old one opens nothing now")
        elif name not in tokens:
            tokens[name] = new_token()
            if kept is not None:
                said.append(f"added a token for {name} to {path}")
    if kept is None or tokens != kept.tokens:
        out = SeatFile(game=game, players=list(players), tokens=tokens)
        files.write(path, msgspec.json.format(msgspec.json.encode(out)) + b"\n",
                    force=os.path.lexists(path), mode=MODE, reading=reading)
    return {name: tokens[name] for name in names}, said


# -- the links, as the console prints them ------------------------------------------------

def qr_lines(url: str) -> list[str] | None:
    """Returns a QR code of `url` as lines of block characters (two rows of modules per
    line, so a phone's camera reads it off a terminal), or None without `segno`."""
    try:
        import segno
    except ImportError:
        return None
    import io
    out = io.StringIO()
    segno.make(url, error="m").terminal(out=out, compact=True, border=2)
    return out.getvalue().rstrip("\n").split("\n")


def lan_address() -> str:
    """Returns this machine's address on the local network, for links to phones when
    serving on every address (0.0.0.0); 127.0.0.1 when it has none. Sends nothing."""
    import socket
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        try:
            s.connect(("10.255.255.255", 9))  # picks the route; a UDP connect sends nothing
            return str(s.getsockname()[0])
        except OSError:
            return "127.0.0.1"


# -- the rematch's log, beside the old one ----------------------------------------------

def rematch_path(path: str) -> str:
    """Returns the path of a rematch of the log at `path`, beside it: `NAME-rematch-N.jsonl`
    for the first N no file has (N counts on from a rematch's own)."""
    folder, name = os.path.split(path)
    stem, ext = os.path.splitext(name)
    m = re.fullmatch(r"(.*)-rematch-(\d+)", stem)
    stem, n = (m[1], int(m[2]) + 1) if m else (stem, 1)
    while os.path.lexists(os.path.join(folder, f"{stem}-rematch-{n}{ext or '.jsonl'}")):
        n += 1
    return os.path.join(folder, f"{stem}-rematch-{n}{ext or '.jsonl'}")
