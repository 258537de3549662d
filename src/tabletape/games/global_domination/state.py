"""Global Domination state: frozen Structs, per-player data keyed by player name.

The box is not part of the state: the rules read it from the game's `Lookups`.
"""

from __future__ import annotations

import enum

import msgspec

from .components import Restriction
from .events import Options

FULL_LAND_VP, STRUGGLING_LAND_VP = 2, 1
FULL_SEA_VP, STRUGGLING_SEA_VP = 4, 2
REGION_MONOPOLY_VP = 6


class Phase(enum.StrEnum):
    FIRST = "choose the First Player"
    STACKS = "choose the Action stacks"
    DRAW = "draw for the Game Turn"
    PLAY = "play cards"
    SCORING = "End of Game Turn scoring"
    OVER = "game over"


# Every enum's members as module names too (PHASE_PLAY is Phase.PLAY): the rules compare with
# them on every event, and on Python 3.11 a member read through its class runs
# EnumType's descriptor, ~150 ns a time; a module name ~10 ns (as Liberation's state).
PHASE_FIRST = Phase.FIRST
PHASE_STACKS = Phase.STACKS
PHASE_DRAW = Phase.DRAW
PHASE_PLAY = Phase.PLAY
PHASE_SCORING = Phase.SCORING
PHASE_OVER = Phase.OVER


class Step(enum.StrEnum):
    """What is still owed before play goes on, resolved from the front."""

    DRAW = "draw"  # chance: `points` cards still to draw
    BUILD = "build"  # `points` Builds
    REDUCE = "reduce"  # `points` Reductions (against `target` only, if set)
    LAND_MIX = "land build or reduce"  # `points` Land Builds or Land Reductions in any mix
    TARGET = "choose a player"  # pick the player `card`'s text is aimed at
    REMOVE = "remove a force"  # remove 1 Force in `region`
    SEIZE = "seize"  # `points` Insurgent seizures
    CHAIN = "answer the chain"  # join or decline `card`, first played by `origin`


STEP_DRAW = Step.DRAW
STEP_BUILD = Step.BUILD
STEP_REDUCE = Step.REDUCE
STEP_LAND_MIX = Step.LAND_MIX
STEP_TARGET = Step.TARGET
STEP_REMOVE = Step.REMOVE
STEP_SEIZE = Step.SEIZE
STEP_CHAIN = Step.CHAIN


class Force(msgspec.Struct, frozen=True):
    owner: str
    full: bool


class Owed(msgspec.Struct, frozen=True, omit_defaults=True):
    step: Step
    player: str
    card: str = ""
    points: int = 0
    restriction: Restriction = Restriction.ANY
    target: str = ""  # REDUCE: only this player's Forces
    region: str = ""  # REMOVE: the Region it acts in
    must: bool = False  # cannot be forgone while something can be done
    own: bool = False  # REMOVE: the player's own Forces may be chosen too
    origin: str = ""  # CHAIN: who played the card first


class State(msgspec.Struct, frozen=True):
    players: tuple[str, ...]
    options: Options
    phase: Phase
    hands: dict[str, tuple[str, ...]]  # sorted: a hand is a multiset
    decks: dict[str, dict[str, int]]  # a shuffled Draw Deck is a multiset
    discards: dict[str, tuple[str, ...]]  # sorted: reshuffled as a whole
    board: dict[str, Force]  # area -> the one Force in it
    vp: dict[str, int]
    logistics: dict[str, int]
    stacks: dict[str, int] = {}  # Action card type in use -> cards left in its stack
    first: str | None = None
    game_turn: int = 0  # 0 is the Turn track's Start square
    current: str | None = None  # whose turn it is (PLAY)
    used: bool = False  # has the current player used a card this turn
    passed: tuple[str, ...] = ()  # out of this Game Turn
    steps: tuple[Owed, ...] = ()
    scored: tuple[str, ...] = ()  # done playing in this scoring step
    fog: tuple[str, ...] = ()  # who played a DENY_REGIONS card in this scoring step
    claimed: dict[str, tuple[str, ...]] = {}  # Resource monopolies already rewarded (option "once")
