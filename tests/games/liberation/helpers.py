"""Story-test helpers: build a Liberation table mid-game and act on it, and read the replays.

The rules are asked through a ruleset bound to a header with the default components
(`RS`, its lookups `LK`): every table built here plays with those components.
"""

from __future__ import annotations

import os

from msgspec.structs import replace

from tabletape import engine
from tabletape.engine import simulate
from tabletape.games.liberation import RULESET
from tabletape.games.liberation.events import Options
from tabletape.games.liberation.reducer import settle
from tabletape.games.liberation.state import Played, Stage, State
from tabletape.games.liberation.text import describe
from tabletape.tape.events import Event
from tests import story

PLAYERS = ("ann", "bob", "cat")
SEATS = ("ann", "bob", "cat", "dan", "eve", "fay")
REPLAYS = os.path.join(os.path.dirname(__file__), "..", "..", "..", "replays", "liberation")


def header(players: tuple[str, ...] = PLAYERS, **options):
    """Returns a header with the default components."""
    return RULESET.start(players, Options(**options), RULESET.default_components())


RS = RULESET.bind(header())  # the rules with the default components, bound once
LK = RS.lk


def start(players: tuple[str, ...] = PLAYERS, **options) -> State:
    """Returns the state before the first country is turned."""
    return RULESET.bind(header(players, **options)).initial()


def row(*cards: str) -> tuple[Played, ...]:
    """Returns a row of played cards; a name starting with '~' lies face down."""
    return tuple(Played(c[1:], up=False) if c.startswith("~") else Played(c) for c in cards)


def at(country: str = "Somalia", players: tuple[str, ...] = PLAYERS, *,
       hands: dict[str, tuple[str, ...]] | None = None,
       played: dict[str, tuple[str, ...]] | None = None, turn: str | None = None,
       round: int = 1, liberated: dict[str, tuple[str, ...]] | None = None,
       **options) -> State:
    """Returns a table in the rounds of `country`, ann leading, with the given cards."""
    s = start(players, **options)
    hands = hands or {}
    played = played or {}
    lib = {p: (liberated or {}).get(p, ()) for p in players}
    gone = {c for cs in lib.values() for c in cs} | {country}
    return replace(
        s, country=country, countries=tuple(c for c in s.countries if c not in gone),
        stage=Stage.ROUNDS, round=round, leader=players[0], contenders=players,
        turn=turn or players[0], steps=(), first_country=False, liberated=lib,
        hands={p: tuple(sorted(hands.get(p, ()))) for p in players},
        played={p: row(*played.get(p, ())) for p in players},
        plays={p: len(played.get(p, ())) for p in players})


def ok(state: State, *events: Event) -> State:
    """Applies events that must all be legal (and among `legal`)."""
    return story.play(RS, state, *events, offered=True)


def refused(state: State, event: Event) -> str:
    """Returns the rule id refusing an event (and that `legal` does not offer it)."""
    return story.refusal(RS, state, event, offered=True).rule


def settled(state: State) -> State:
    return settle(LK, state)


def up(state: State, player: str) -> list[str]:
    """Returns a player's face-up played cards."""
    return [p.card for p in state.played[player] if p.up]


def down(state: State, player: str) -> list[str]:
    return [p.card for p in state.played[player] if not p.up]


def replay(name: str) -> engine.Replay:
    """Returns a bundled replay of replays/liberation, replayed."""
    return engine.replay(os.path.join(REPLAYS, name))


def sentences(name: str) -> list[str]:
    """Returns the sentence of every event of a bundled replay (the header's left out), as
    the game's words say it (`RS.describe`'s function, which takes any event of the log)."""
    return [describe(r.event) for r in engine.iter_records(os.path.join(REPLAYS, name))][1:]


def game(n: int, seed: int, **options):
    """Returns the header and the (event, state after) pairs of a simulated game of n players."""
    header = simulate.header_for(RULESET, SEATS[:n], Options(**options))
    return header, list(simulate.play(RULESET, header, seed))
