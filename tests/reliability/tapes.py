"""Logs to torture and one way to read them: the real streaming reader, errors caught."""

from __future__ import annotations

import itertools
from typing import NamedTuple

from tabletape import engine
from tabletape.engine import simulate as sim
from tabletape.tape import log
from tabletape.tape.errors import TapeError

PLAYERS = {"global-domination": ("alice", "bob", "carol")}


def simulated(path: str, game: str, seed: int, events: int) -> list[bytes]:
    """Writes a simulated game of at most `events` lines (header included); returns its lines."""
    rs = engine.get(game)
    header = sim.header_for(rs, PLAYERS.get(game, ("alice", "bob")))
    tail = log.create(str(path), header, rs.codec)
    played = [e for e, _ in itertools.islice(sim.play(rs, header, seed), events - 1)]
    if played:
        log.append(str(path), played, rs.codec, expect=tail, durable=False)
    with open(path, "rb") as f:
        return f.read().splitlines(keepends=True)


class Read(NamedTuple):
    """What the reader made of a file: complete records, the last one's hash, the error.

    `crash` holds any exception that is not a TapeError: a traceback a user would see.
    """

    records: int
    head: str | None
    error: TapeError | None
    crash: str | None = None


def read(path: str, start: log.Resume | None = None) -> Read:
    """Reads a log with the real reader, counting the records it yields before any error.

    With `start`, reading picks up at a line whose predecessor is known good.
    """
    n, head = 0, None
    try:
        for rec in log.read_records(str(path), engine.codec_for, start=start):
            n, head = n + 1, rec.digest
    except TapeError as e:
        return Read(n, head, e)
    except Exception as e:  # noqa: BLE001  (the very thing these tests look for)
        return Read(n, head, None, f"{type(e).__name__}: {e}")
    return Read(n, head, None)

