"""Cards of War state: frozen Structs, per-player data keyed by player name.

gc=False on each: a state refers to its battles and owed steps, and they to names, numbers
and tuples and dicts of them; nothing refers back, so none can be in a reference cycle.
Untracked, the few a play makes per event do not drive the garbage collector (as events).

The deck in play is not part of the state: the rules read it from the `Lookups`
built when the ruleset is bound to a game's header.
"""

from __future__ import annotations

import enum

import msgspec

from .components import Theatre
from .events import Options

COMMON = "common"  # the owner of the shared deck and discard pile (one-deck game)
WIN_POINTS = 15
HAND = 8
TACTICAL_HAND = 9
EXHAUSTED_HAND = 3


class Phase(enum.StrEnum):
    OPENING = "opening"  # turning cards to decide the first player
    PLAY = "play"
    OVER = "over"


class Step(enum.StrEnum):
    """What is still owed before the turn passes, resolved from the front."""

    DISCARD = "discard down to the reduced hand size (strategic exhaustion)"
    PARTNER = "deploy the joint-deployment partner"
    RECON = "report hand theatres (recon)"
    REINFORCE_DRAW = "draw the reinforcement"
    REINFORCE_DEPLOY = "deploy again (reinforce)"
    REFILL = "refill the hand"
    PASS = "pass the turn"  # never pending: settled as soon as it is reached


class Owed(msgspec.Struct, frozen=True, omit_defaults=True, gc=False):
    step: Step
    player: str
    battle: int = 0  # PARTNER: the battle the first card of the pair went to
    card: str = ""  # PARTNER: the first card of the pair


class Battle(msgspec.Struct, frozen=True, omit_defaults=True, gc=False):
    """One of the three battles: each player's face-up pile (bottom first)."""

    piles: dict[str, tuple[str, ...]]
    theatre: Theatre | None = None
    closed: bool = False
    winner: str | None = None
    points: int = 0  # the winner's score when it was won


class State(msgspec.Struct, frozen=True, gc=False):
    players: tuple[str, ...]
    options: Options
    phase: Phase
    hands: dict[str, tuple[str, ...]]  # sorted: a hand is a multiset
    hand_size: dict[str, int]
    decks: dict[str, dict[str, int]]  # owner -> card -> count (a shuffled deck is a multiset)
    discards: dict[str, tuple[str, ...]]  # owner -> cards, the last one on top
    face_down: dict[str, tuple[str, ...]]  # battles won this round, discarded at its end
    battles: tuple[Battle, ...]
    round: int = 1
    first: str | None = None
    turn: str | None = None
    steps: tuple[Owed, ...] = ()
    opening: dict[str, str] = {}
    reinforce_card: str | None = None  # the card the last reinforcement drew
    rounds_won: dict[str, int] = {}
    round_winners: tuple[str | None, ...] = ()  # None: a drawn round
    winner: str | None = None
