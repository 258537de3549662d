"""Liberation events: facts of the table, one decision each."""

from __future__ import annotations

from typing import Annotated, Literal, TypeAlias

import msgspec
from msgspec import Meta

from tabletape.tape.events import Event, Header, Name

from .components import Components

Slot = Annotated[int, Meta(ge=0, le=255)]  # position in a player's row of played cards


class Options(msgspec.Struct, frozen=True, forbid_unknown_fields=True, omit_defaults=True):
    """Variants, and readings a table may choose where the rulebook can be taken two ways.

    `victory_points` overrides the target (0: 10, or 9 with four players).
    """

    victory_points: Annotated[int, Meta(ge=0, le=40)] = 0
    turn_over: Literal["compulsory", "optional"] = "compulsory"  # lib.opt.turn-over-optional
    double_play_tie: Literal["two_cards", "one_card"] = "two_cards"  # lib.opt.tie-one-card


class LiberationStarted(Header, tag="game_started", kw_only=True, frozen=True):
    options: Options = Options()
    components: Components


class CountryTurned(Event, tag="country_turned", kw_only=True, frozen=True):
    """The dealer turns up the next country card (chance: which one comes)."""

    player: Name
    country: Name


class ForceCardDealt(Event, tag="force_card_dealt", kw_only=True, frozen=True):
    """One force card dealt face down to a player for the country in play."""

    player: Name
    card: Name


class ForceCardDrawn(Event, tag="force_card_drawn", kw_only=True, frozen=True):
    """A bonus card a player draws into their hand (an ability or a country's instruction)."""

    player: Name
    card: Name


class ForceCardPlayed(Event, tag="force_card_played", kw_only=True, frozen=True):
    """A player plays a card from their hand face up (its ability follows as owed steps)."""

    player: Name
    card: Name


class TurnPassed(Event, tag="turn_passed", kw_only=True, frozen=True):
    """A player plays nothing (more) this turn; the chance is used all the same."""

    player: Name


class PlayedCardTurned(Event, tag="played_card_turned", kw_only=True, frozen=True):
    """`player` turns the card in `owner`'s row at `slot` face down (or back up)."""

    player: Name
    owner: Name
    slot: Slot
    face_up: bool = False


class TurnOverDeclined(Event, tag="turn_over_declined", kw_only=True, frozen=True):
    """The player of a turn-over card turns no (more) cards with it (option turn_over=optional)."""

    player: Name


class TurnOverPrevented(Event, tag="turn_over_prevented", kw_only=True, frozen=True):
    """A player discards a prevent card from their hand to keep their card face up."""

    player: Name
    card: Name


class TurnOverAccepted(Event, tag="turn_over_accepted", kw_only=True, frozen=True):
    """The owner of a targeted card lets the turn-over stand."""

    player: Name


class PlayedCardTaken(Event, tag="played_card_taken", kw_only=True, frozen=True):
    """A trade card takes `owner`'s face-up card at `slot` into `player`'s hand."""

    player: Name
    owner: Name
    slot: Slot


class HandsTraded(Event, tag="hands_traded", kw_only=True, frozen=True):
    """`player` and `other` swap their whole hands, unseen."""

    player: Name
    other: Name


class TieBreakDrawn(Event, tag="tie_break_drawn", kw_only=True, frozen=True):
    """A tied player's tie-break card (chance); only its force points matter."""

    player: Name
    card: Name


EVENTS = (CountryTurned, ForceCardDealt, ForceCardDrawn, ForceCardPlayed, TurnPassed,
          PlayedCardTurned, TurnOverDeclined, TurnOverPrevented, TurnOverAccepted, PlayedCardTaken,
          HandsTraded, TieBreakDrawn)
# The type of every event above (EVENTS' union): what the rules judge and apply; the
# core events (undo, note, signed) are the engine's and never reach them.
LiberationEvent: TypeAlias = (CountryTurned | ForceCardDealt | ForceCardDrawn |
                              ForceCardPlayed | TurnPassed | PlayedCardTurned |
                              TurnOverDeclined | TurnOverPrevented | TurnOverAccepted |
                              PlayedCardTaken | HandsTraded | TieBreakDrawn)
