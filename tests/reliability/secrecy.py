"""The non-interference harness: pairs of logs that differ only in what one seat may not know.

A pair is made from a simulated game: at an event whose content the game's seats say is
secret from seat S (a card another player draws), another legal outcome that S sees
exactly alike (`engine.seats.seen`) is put in its place, and the same events follow for
as long as they stay legal, S sees them alike and S's view of the table stays the same (a
rule that later hands S the secret, a hand traded or cards shown, ends the pair); both logs
are cut at one point after it, the state right after the difference included.
Everything S then receives (its page, the shared page, what `legal`, `log`, `replay` and
`svg` print `--as` S, and the answers to S's own writes) must be identical in the two,
except the page's version, a keyed hash of the head that the salts make random.
"""

from __future__ import annotations

import json
import os
import random
import shutil
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import msgspec
from click.testing import CliRunner

from tabletape import engine
from tabletape.app import play
from tabletape.cli.group import main
from tabletape.engine import seats
from tabletape.engine import simulate as sim
from tabletape.tape import log as tapelog
from tabletape.tape.events import Event

# The tables played: each game, with the options that change what is secret, at each count.
TABLES: list[tuple[str, dict[str, Any], int]] = [
    ("cards-of-war", {}, 2),
    ("cards-of-war", {"two_decks": True}, 2),
    ("liberation", {}, 2),
    ("liberation", {}, 4),
    ("global-domination", {}, 3),
    ("global-domination", {}, 6),
    ("global-domination", {"two_players": True}, 2),
    ("battlecards-pacific", {}, 2),
]
NAMES = ("alice", "bob", "cleo", "dan", "eve", "fay")


def tables() -> list[tuple[str, dict[str, Any], int]]:
    """Returns TABLES, and every other registered game at its fewest players (a fifth game
    is held to the same property with no edit here)."""
    listed = {g for g, _, _ in TABLES}
    more: list[tuple[str, dict[str, Any], int]] = [(g, {}, max(2, engine.get(g).players[0])) for g in sorted(engine.GAMES)
            if g not in listed]
    return TABLES + more


@dataclass
class Pair:
    """Two histories of one game that seat `seat` cannot tell apart."""

    game: str
    header: Any
    seat: str
    at: int  # the index of the event that differs
    one: list[Event]
    two: list[Event]


def _fresh(rng: random.Random) -> str:
    return f"{rng.getrandbits(128):032x}"


def pairs(game: str, options: dict[str, Any], n: int, seed: int, want: int
          ) -> Iterator[Pair]:
    """Yields up to `want` pairs from the simulated game `seed` of `game` (positions spread
    over the game: each secret event of the game is a candidate, chosen at random)."""
    rs = engine.get(game)
    header = sim.header_for(rs, NAMES[:n], rs.Options(**options))
    bound = rs.bind(header)
    rng = random.Random(f"{game}-{options}-{n}-{seed}")
    events: list[Event] = []
    states: list[Any] = [bound.initial()]
    for event, state in sim.play(rs, header, seed, max_events=3000):
        events.append(event)
        states.append(state)
    secret_at = [k for k, e in enumerate(events) if seats.secret_from(bound, states[k], e)]
    rng.shuffle(secret_at)
    made = 0
    for k in secret_at:
        if made >= want:
            return
        event, before = events[k], states[k]
        outsiders = [p for p in header.players if p not in seats.knowers(bound, event)]
        if not outsiders:
            continue
        seat = rng.choice(outsiders)
        mask = seats.seen(bound, before, event, seat)
        alike = [e for e in bound.legal(before) if e != event and type(e) is type(event)
                 and seats.seen(bound, before, e, seat) == mask]
        if not alike:
            continue
        other = rng.choice(alike)
        two, state = [*events[:k], other], bound.apply(before, other)
        for j in range(k + 1, len(events)):
            later, was = events[j], states[j]
            if bound.check(state, later) is not None or \
                    seats.seen(bound, state, later, seat) != seats.seen(bound, was, later, seat):
                break
            after = bound.apply(state, later)
            # the rules may hand the secret to the seat later (a hand traded, cards shown):
            # the pair ends before it, where the seat still may not know it
            if bound.view(after, seat) != bound.view(states[j + 1], seat):
                break
            two.append(later)
            state = after
        cut = rng.randint(k + 1, len(two))  # both cut at one point after the difference
        yield Pair(game, header, seat, k, events[:cut], two[:cut])
        made += 1


def write(path: str, rs: engine.Ruleset, header: Any, events: list[Event],
          rng: random.Random) -> None:
    """Writes a log of format 2 whose secret lines carry fresh salts."""
    bound = rs.bind(header)
    state = bound.initial()
    salted = []
    for e in events:
        salted.append(seats.salted(bound, state, e, lambda: _fresh(rng)))
        state = bound.apply(state, e)
    tail = tapelog.create(path, header, rs.codec)
    tapelog.append(path, salted, rs.codec, expect=tail)


def _cli(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, list(args))
    return result.exit_code, result.output


def _page(table: play.Table, seat: play.Seat) -> dict[str, Any]:
    # the version is a keyed hash of the head: random by construction (salts)
    return msgspec.to_builtins(msgspec.structs.replace(table.shown(seat), version=""))


def received(folder: str, seat: str, writes: int = 2) -> dict[str, Any]:
    """Returns everything `seat` receives of the log `folder/game.jsonl`: every route and
    every `--as` output, and the answers to its own next writes (made on copies)."""
    here = os.getcwd()
    os.chdir(folder)
    try:
        table = play.Table("game.jsonl")
        got: dict[str, Any] = {
            "page": _page(table, play.Seat(seat)),
            "shared": _page(table, play.PUBLIC),
            "legal": _cli("legal", "game.jsonl", "--as", seat, "--json"),
            "log": _cli("log", "game.jsonl", "--as", seat, "--json"),
            "replay": _cli("replay", "game.jsonl", "--as", seat),
            "svg": _cli("svg", "game.jsonl", "--as", seat, "-o", "table.svg"),
        }
        with open("table.svg", encoding="utf-8") as f:
            got["svg-file"] = f.read()
        got["writes"] = _writes(table, seat, writes)
        return got
    finally:
        os.chdir(here)


def _writes(table: play.Table, seat: str, most: int) -> list[Any]:
    """Returns the answers to `seat`'s first `most` offered events, each entered on its own
    copy of the log (a hidden draw the deck cannot hold is written and flagged, too)."""
    result = table.replayed()
    offered = play.Table.offered(result, play.Seat(seat))
    answers: list[Any] = []
    for i, event in enumerate(offered[:most]):
        copy = f"copy-{i}.jsonl"
        shutil.copyfile(table.path, copy)
        other = play.Table(copy)
        body = {"event": json.loads(engine.get(table.game().id).codec.encode(event)),
                "after": other.version(other.replayed().tail)}  # type: ignore[arg-type]
        try:
            answers.append(("ok", other.enter(play.Seat(seat), body)))
        except play.Refused as e:
            answers.append((type(e).__name__, e.message, e.rule))
        shown = _page(other, play.Seat(seat))
        # the seat's own write may hand it the secret by the rules (a hand traded): the page
        # after it is compared only where the seat's view of the table is the same
        after = other.replayed()
        state, _ = play.Table.table(after, play.Seat(seat))
        view = msgspec.json.encode(after.ruleset.view(state, seat)).decode()  # type: ignore[union-attr]
        answers.append({"view": view, "page": shown})
    return answers


def first_difference(a: Any, b: Any, where: str = "") -> str | None:
    """Returns where two received values first differ (a path into them), or None."""
    if type(a) is not type(b):
        return f"{where}: {type(a).__name__} != {type(b).__name__}"
    if isinstance(a, dict):
        for k in sorted(set(a) | set(b), key=str):
            found = first_difference(a.get(k), b.get(k), f"{where}/{k}")
            if found:
                return found
        return None
    if isinstance(a, (list, tuple)):
        if len(a) != len(b):
            return f"{where}: {len(a)} items != {len(b)}"
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            found = first_difference(x, y, f"{where}[{i}]")
            if found:
                return found
        return None
    if a != b:
        text_a, text_b = str(a), str(b)
        i = next((i for i, (x, y) in enumerate(zip(text_a, text_b, strict=False)) if x != y),
                 min(len(text_a), len(text_b)))
        return f"{where}: ...{text_a[max(0, i - 60):i + 40]!r} != ...{text_b[max(0, i - 60):i + 40]!r}"
    return None


__all__ = ["TABLES", "tables", "Pair", "first_difference", "pairs", "received", "write"]
