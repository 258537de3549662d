"""Liberation state: frozen Structs, per-player data keyed by player name.

The state holds no component data: the rules get the game's `Lookups` (components.py)
as their first argument, prepared once when the ruleset is bound to a header.

Its Structs are `gc=False`: the garbage collector never tracks them. A state is a value
of strings, numbers, tuples and dicts of them, which can never refer back to a state, so
no cycle runs through one; each event makes a new state (and owed steps, played cards)
and the undo stack keeps a thousand: tracking them cost the collector's passes ~0.2 us
an event of `validate` (measured: untracked, it runs as fast as with the collector off).
"""

from __future__ import annotations

import enum

import msgspec

from .events import Options

WIN_POINTS = 10  # How to Win
WIN_POINTS_FOUR = 9  # How to Win: with exactly four players
MIN_PLAYERS, MAX_PLAYERS = 2, 6


class Phase(enum.StrEnum):
    PLAY = "play"
    OVER = "over"


# Every enum's members as module names too (STEP_SECOND is Step.SECOND): the rules compare
# with them on every event, and on Python 3.11 a member read through its class runs
# EnumType.__getattr__'s hook, ~45 ns a time; a module name ~5 ns.
PHASE_PLAY = Phase.PLAY
PHASE_OVER = Phase.OVER


class Stage(enum.StrEnum):
    """Where the fight for the country in play stands."""

    DEAL = "turn the country and deal"
    ROUNDS = "rounds"
    EXTRA = "extra round for the tied players"
    TIE_BREAK = "tie-break draws"


STAGE_DEAL = Stage.DEAL
STAGE_ROUNDS = Stage.ROUNDS
STAGE_EXTRA = Stage.EXTRA
STAGE_TIE_BREAK = Stage.TIE_BREAK


class Step(enum.StrEnum):
    """What is still owed before play goes on, resolved from the front."""

    TURN_COUNTRY = "turn up the next country"  # chance
    DEAL = "deal a force card"  # chance
    DRAW = "draw a bonus card"  # chance
    TIE_DRAW = "draw a tie-break card"  # chance
    TURN_OVER = "turn a played card over"  # another's face down, or a face-down one back up
    TURN_DOWN = "turn another player's card face down"  # a country's instruction (Iraq)
    TURN_UP = "turn a face-down card back up"  # the legacy turn_up ability
    TURN_DOWN_OWN = "turn one of their own cards face down"
    PREVENT = "prevent the turn-over or let it stand"
    TAKE = "take another player's card in trade"
    SWAP = "choose whose hand to trade for"
    SECOND = "play a second card or stop"
    END_TURN = "end the turn"  # never pending: settled as soon as it is reached


STEP_TURN_COUNTRY = Step.TURN_COUNTRY
STEP_DEAL = Step.DEAL
STEP_DRAW = Step.DRAW
STEP_TIE_DRAW = Step.TIE_DRAW
STEP_TURN_OVER = Step.TURN_OVER
STEP_TURN_DOWN = Step.TURN_DOWN
STEP_TURN_UP = Step.TURN_UP
STEP_TURN_DOWN_OWN = Step.TURN_DOWN_OWN
STEP_PREVENT = Step.PREVENT
STEP_TAKE = Step.TAKE
STEP_SWAP = Step.SWAP
STEP_SECOND = Step.SECOND
STEP_END_TURN = Step.END_TURN


CHANCE_STEPS = frozenset({Step.TURN_COUNTRY, Step.DEAL, Step.DRAW, Step.TIE_DRAW})


class Owed(msgspec.Struct, frozen=True, omit_defaults=True, gc=False):
    step: Step
    player: str
    card: str = ""  # the card that owes the step (TAKE: the trade card waiting to be placed)
    owner: str = ""  # PREVENT: whose card is targeted
    slot: int = -1  # PREVENT: which card
    by: str = ""  # PREVENT: who is turning it over
    spent: tuple[tuple[str, int], ...] = ()  # TURN_OVER: (owner, slot) this card already turned


class Played(msgspec.Struct, frozen=True, omit_defaults=True, gc=False):
    """A force card on the table in front of a player."""

    card: str
    up: bool = True


class State(msgspec.Struct, frozen=True, gc=False):
    players: tuple[str, ...]
    options: Options
    phase: Phase
    stage: Stage
    dealer: str
    leader: str
    countries: tuple[str, ...]  # the country deck, sorted: its order is unknown
    deck: dict[str, int]  # force deck: card -> copies (a shuffled deck is a multiset)
    discards: tuple[str, ...]  # sorted
    hands: dict[str, tuple[str, ...]]  # sorted: a hand is a multiset
    played: dict[str, tuple[Played, ...]]
    liberated: dict[str, tuple[str, ...]]
    country: str | None = None
    first_country: bool = True
    round: int = 0
    contenders: tuple[str, ...] = ()  # who plays (or draws) in this round, in turn order
    turn: str | None = None
    turn_plays: int = 0
    plays: dict[str, int] = {}  # cards each player has put on the table for this country
    tie_cards: dict[str, tuple[str, ...]] = {}  # tie-break draws, in order
    steps: tuple[Owed, ...] = ()
    failed: tuple[str, ...] = ()  # countries nobody liberated
    winners: tuple[str, ...] = ()
