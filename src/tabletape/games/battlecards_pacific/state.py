"""BATTLECARDS Pacific state: frozen Structs; per-player data keyed by player name,
decks keyed by side id, so that nothing assumes two players or one theatre.

The card set itself is not part of the state: it is the header's, and the bound
ruleset's `Lookups` (components.py) answer every question about a card.
"""

from __future__ import annotations

import enum

import msgspec

from .components import Reveal
from .events import Options

WITHDRAWAL = 5  # the phase after the four firing phases


class Step(enum.StrEnum):
    """What is owed before the game moves on, resolved from the front."""

    DEAL = "draw Arsenal cards into the Reserve Hand"
    FIRST_DEPLOY = "deploy from the Reserve Hand (set-up)"
    CHOOSE = "draw a Conflict card or emergency deploy"
    DRAW_CONFLICT = "draw a Conflict card"
    DRAW_ARSENAL = "draw Arsenal cards (Conflict card)"
    DEPLOY = "deploy from the Reserve Hand (Conflict card)"
    REVEAL = "show the drawing player what the Conflict card reveals"
    DECIDE = "decide whether to fight"
    HOMELAND = "emergency deploy against the invasion, or not"
    BATTLE = "begin the battle"  # never pending: settled as soon as it is reached


# gc=False, as the events (tape.events.Event): a state and its parts hold only scalars and
# tuples and dicts of them, so they can be in no reference cycle; untracked, the states a
# playout makes and drops (a few an event) do not drive the cycle collector.


class Owed(msgspec.Struct, frozen=True, omit_defaults=True, gc=False):
    step: Step
    player: str
    count: int = 0  # cards still to draw or deploy
    what: Reveal | None = None  # REVEAL: what the Conflict card shows


class Shot(msgspec.Struct, frozen=True, omit_defaults=True, gc=False):
    """A unit has fired; the Conflict card that decides it is still to be turned."""

    player: str
    unit: str
    target: str
    above: int  # the target's defence against the attacker
    upto: int  # attack plus every bonus
    kept: str | None = None  # the Kept Card played for it (its bonus is in `upto`)
    support: tuple[str, ...] = ()  # the supporters allocated to it (support=allocated)


class Battle(msgspec.Struct, frozen=True, omit_defaults=True, gc=False):
    """A battle in progress: the engaged units of each player, face up."""

    card: str
    aggressor: str
    defender: str
    forces: dict[str, tuple[str, ...]]  # player -> engaged units (sorted multiset)
    withdrawn: dict[str, tuple[str, ...]]  # player -> units pulled out (back to the stacks)
    round: int = 1
    phase: int = 1  # 1-4 firing, WITHDRAWAL
    side: str = ""  # who fires (or withdraws) now
    to_fire: tuple[str, ...] = ()  # units of `side` still to fire in this phase
    backed: tuple[str, ...] = ()  # supporters of `side` already allocated in this volley
    shot: Shot | None = None


class Result(msgspec.Struct, frozen=True, omit_defaults=True, gc=False):
    """The end of the game: the winners and how it ended."""

    winners: tuple[str, ...]
    how: str


class State(msgspec.Struct, frozen=True, gc=False):
    players: tuple[str, ...]  # seat order
    sides: dict[str, str]  # player -> side id
    order: tuple[str, ...]  # turn order: the first-turn side's player (Japan) first
    options: Options
    arsenal: dict[str, dict[str, int]]  # side -> unit -> copies (a shuffled deck is a multiset)
    arsenal_discard: dict[str, tuple[str, ...]]  # side -> destroyed and discarded units
    conflict: dict[str, dict[str, int]]  # theatre -> its Conflict deck: card -> copies
    conflict_discard: dict[str, tuple[str, ...]]  # theatre -> its Conflict discard pile
    reserve: dict[str, tuple[str, ...]]  # player -> Reserve Hand (sorted)
    stacks: dict[str, dict[str, tuple[str, ...]]]  # player -> unit type -> face-down units
    kept: dict[str, tuple[str, ...]]  # player -> Kept Cards
    won: dict[str, tuple[str, ...]]  # player -> BATTLECARDS won
    vp: dict[str, int]
    eliminated: tuple[str, ...] = ()
    turn: str | None = None  # the drawing player
    drawn: str | None = None  # the Conflict card the drawing player follows
    steps: tuple[Owed, ...] = ()
    battle: Battle | None = None
    result: Result | None = None
    last_battle: str | None = None  # how the latest battle ended, for readers
    turns: int = 0
