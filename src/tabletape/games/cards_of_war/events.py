"""Cards of War events: facts of the table, one decision each."""

from __future__ import annotations

from typing import Annotated, Literal, TypeAlias

import msgspec
from msgspec import Meta

from tabletape.tape.events import Event, Header, Name

from .components import Components, Theatre

BattleNo = Annotated[int, Meta(ge=1, le=3)]
Small = Annotated[int, Meta(ge=0, le=200)]
Length = Literal["short", "normal", "long"]


class Options(msgspec.Struct, frozen=True, forbid_unknown_fields=True, omit_defaults=True):
    """The game length and the optional rules in force (all off by default)."""

    length: Length = "normal"
    alternative_reinforce: bool = False
    theatres_of_war: bool = False
    tactical_advantage: bool = False
    strategic_exhaustion: bool = False
    joint_deployment: bool = False
    two_decks: bool = False
    automatic_kill: bool = False  # cow.kill.automatic: a matching KILL always happens
    no_reshuffle_between_rounds: bool = False  # cow.round.no-reshuffle
    reinforce_draw_at_round_end: bool = False  # cow.reinforce.round-end (rules 1.2)


class CowStarted(Header, tag="game_started", kw_only=True, frozen=True):
    options: Options = Options()
    components: Components


class OpeningCardDrawn(Event, tag="opening_card_drawn", kw_only=True, frozen=True):
    """A card turned up to decide who plays first (then returned to the deck)."""

    player: Name
    card: Name


class CardDrawn(Event, tag="card_drawn", kw_only=True, frozen=True):
    """A card drawn into a player's hand: the deal, a refill, or a reinforcement."""

    player: Name
    card: Name


class CardDeployed(Event, tag="card_deployed", kw_only=True, frozen=True):
    """A card played face up onto one of the player's three battle piles.

    `kill` announces the card's KILL and `target` names its victim, the opponent's
    top card in that battle (both or neither); `theatre` is set by whoever opens a battle under Theatres of War; `joint`
    announces that a pair partner follows; `from_discard` takes the top discard
    (Alternative Reinforce).
    """

    player: Name
    card: Name
    battle: BattleNo
    kill: bool = False
    target: Name | None = None
    theatre: Theatre | None = None
    joint: bool = False
    from_discard: bool = False


class HandReported(Event, tag="hand_reported", kw_only=True, frozen=True):
    """The answer to RECON: how many cards of each theatre remain in the player's hand."""

    player: Name
    air: Small = 0
    sea: Small = 0
    ground: Small = 0
    intel: Small = 0


class CardDiscarded(Event, tag="card_discarded", kw_only=True, frozen=True):
    """A card given up from the hand: Strategic Exhaustion cut the player's hand size."""

    player: Name
    card: Name


EVENTS = (OpeningCardDrawn, CardDrawn, CardDeployed, HandReported, CardDiscarded)
# The type of every event above (EVENTS' union): what the rules judge and apply; the
# core events (undo, note, signed) are the engine's and never reach them.
CowEvent: TypeAlias = (OpeningCardDrawn | CardDrawn | CardDeployed | HandReported |
                       CardDiscarded)
