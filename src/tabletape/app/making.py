"""What the commands that make files do: new, simulate, repair, schema.

Each returns a frozen msgspec Struct whose fields are the command's `--json` shape, in
its order; the command line renders its text from the same result. Nothing here prints.
"""

from __future__ import annotations

import functools
import operator
import os
import random
from collections.abc import Callable, Iterable
from typing import Any, NamedTuple

import msgspec
from msgspec import Struct

from tabletape import engine
from tabletape.app import entries
from tabletape.engine.protocol import Outcome
from tabletape.tape import log as tapelog
from tabletape.tape.errors import TapeError
from tabletape.tape.events import CORE_EVENTS, Event, Header


class Started(Struct, frozen=True, kw_only=True):
    """`new --json`: the log written, its game, rules, players, options and head."""

    file: str
    game: str
    rules_version: str
    players: tuple[str, ...]
    options: Any  # the game's Options
    head: str


def new(game: str, file: str, players: tuple[str, ...], options: Iterable[tuple[str, Any]],
        components: str | None, *, at: str | None, by: str | None) -> Started:
    """Starts a new log: writes its header (never over an existing file)."""
    rs = engine.get(game)
    header, tail = entries.start_log(file, rs, players, options, components, at=at, by=by)
    return Started(file=file, game=rs.id, rules_version=rs.version, players=players,
                   options=header.options, head=tail.head)


class Simulated(Struct, frozen=True, kw_only=True):
    """`simulate --json`: the log written, how long, its head, and how the game ended."""

    file: str
    game: str
    events: int
    head: str
    finished: bool
    outcome: Outcome | None


def simulate(game: str, players: tuple[str, ...], seed: int, output: str,
             options: Iterable[tuple[str, Any]], components: str | None, max_events: int,
             progress: Callable[[int], None] | None = None) -> Simulated:
    """Plays a whole game of random legal moves into a new log; `progress(n)` is told every
    thousand events."""
    from tabletape.engine import seats
    from tabletape.engine import simulate as sim
    rs = engine.get(game)
    header, tail = entries.start_log(output, rs, players, options, components)
    bound = rs.bind(header)
    # A simulated game is made again from its seed, salts and all: they come from the seed
    # (a log whose seed is known hides nothing from anyone who knows it).
    salts = random.Random(f"salts-{seed}")
    batch, state, before = [], None, bound.initial()
    for n, step in enumerate(sim.play(rs, header, seed, max_events=max_events), 1):
        event, state = step
        batch.append(seats.salted(bound, before, event, lambda: f"{salts.getrandbits(128):032x}"))
        before = state
        if len(batch) == 1000:
            tail = tapelog.append(output, batch, rs.codec, expect=tail, durable=False)
            batch = []
            if progress is not None:
                progress(n)
    tail = tapelog.append(output, batch, rs.codec, expect=tail)
    o = bound.outcome(state) if state is not None else None
    return Simulated(file=output, game=rs.id, events=tail.seq + 1, head=tail.head,
                     finished=o is not None, outcome=o)


class Repair(Struct, frozen=True, kw_only=True):
    """`repair --json`: what was moved aside or restored, and what the log keeps."""

    file: str
    repaired: bool
    moved_bytes: int
    restored: list[str]
    aside: str | None
    events: int | None
    error: dict[str, Any] | None


class Repaired(NamedTuple):
    """What `repair` did: the report, and the log's break that remains (for its text)."""

    report: Repair
    error: TapeError | None


def repair(file: str) -> Repaired:
    """Moves a torn last line aside, or undoes an editor's damage the chain proves."""
    done = tapelog.repair(file, engine.codec_for)
    if not done.moved and not done.restored:
        return Repaired(Repair(file=file, repaired=False, moved_bytes=0, restored=[],
                               aside=None, events=None, error=None), None)
    result = engine.read_chain(file)
    return Repaired(Repair(file=file, repaired=True, moved_bytes=done.moved,
                           restored=list(done.restored), aside=done.aside,
                           events=result.events,
                           error=result.error.to_dict() if result.error else None),
                    result.error)


def schemas() -> dict[str, bytes]:
    """Returns every JSON Schema file tabletape ships, by file name."""
    envelope = functools.reduce(operator.or_, CORE_EVENTS, Header)
    out = {"envelope.schema.json": _schema(envelope, "format-1 envelope")}
    for rs in engine.all_games():
        out[f"{rs.id}.schema.json"] = _schema(rs.union(), f"{rs.title} {rs.version} events")
        out[f"{rs.id}.components.schema.json"] = _schema(rs.Components, f"{rs.title} components")
    return out


def _schema(t: Any, title: str) -> bytes:
    body = msgspec.json.schema(t)
    body = {"$schema": "https://json-schema.org/draft/2020-12/schema", "title": title, **body}
    return msgspec.json.format(msgspec.json.encode(body), indent=2) + b"\n"


def schema_documents() -> dict[str, Any]:
    """Returns every schema as data, by file name (`schema` without `-o`)."""
    return {n: msgspec.json.decode(d) for n, d in schemas().items()}


class Keys(Struct, frozen=True):
    """`keygen --json`: the key pair written and its fingerprint."""

    name: str
    private: str
    public: str
    fingerprint: str


def keygen(name: str, directory: str) -> Keys:
    """Makes an Ed25519 key pair NAME.key/NAME.pub in `directory` (never over a key)."""
    from tabletape.tape import signing
    key_path, pub_path, fp = signing.keygen(name, directory)
    return Keys(name, key_path, pub_path, fp)


class Signed(NamedTuple):
    """What `sign` appended: the log as read before it, the `signed` event as written (with
    its prev) and its seq."""

    result: engine.Replay
    event: Event
    seq: int


def sign(file: str, key_path: str, player: str | None = None) -> Signed:
    """Appends a `signed` event over the log's current head, by `player` (default: the key
    file's name, alice.key -> alice); the head signed is the one read, so a log that moved
    on meanwhile is refused as stale."""
    from tabletape.tape import signing  # (cryptography: loaded only to sign)
    name = signing.check_name(player or os.path.splitext(os.path.basename(key_path))[0])
    key = signing.load_private(key_path)
    result = entries.open_for_append(file)
    tail = result.tail
    assert tail is not None  # open_for_append refuses a log without a header
    event = signing.sign(key, tail.head, name, at=entries.now())
    entries.append_checked(file, [event], result)
    return Signed(result, msgspec.structs.replace(event, prev=tail.head), tail.seq + 1)
