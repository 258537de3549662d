"""Global Domination events: facts of the table, one decision each."""

from __future__ import annotations

import enum
from typing import Annotated, Literal, TypeAlias

import msgspec
from msgspec import Meta

from tabletape.tape.events import Event, Header, Name

from .components import Components


class Use(enum.StrEnum):
    """The ways a played card is used (Each Game Turn); the two Discards are their own event."""

    BUILD = "build"
    ATTACK = "attack"
    TEXT = "text"


# (module names of the members: see state.py's PHASE_*)
USE_BUILD = Use.BUILD
USE_ATTACK = Use.ATTACK
USE_TEXT = Use.TEXT


class Options(msgspec.Struct, frozen=True, forbid_unknown_fields=True, omit_defaults=True):
    """Readings a table may choose where the rulebook can be taken two ways."""

    resource_gain: Literal["each_scoring", "once"] = "each_scoring"  # gd.score.resource
    megastorm_rounding: Literal["down", "up"] = "down"  # gd.card.megastorm.rounding
    hands: Literal["keep", "discard"] = "keep"  # gd.hand.carry
    ties: Literal["shared", "logistics"] = "shared"  # gd.end.tie
    surrender_own: bool = False  # gd.card.surrender.own: may Surrender remove one's own Forces too
    two_players: bool = False  # gd.setup.two-players: may two players play


class GdStarted(Header, tag="game_started", kw_only=True, frozen=True):
    options: Options = Options()
    components: Components


class FirstPlayerChosen(Event, tag="first_player_chosen", kw_only=True, frozen=True):
    """Chance names the First Player (Start of the Game)."""

    player: Name


class ActionStackChosen(Event, tag="action_stack_chosen", kw_only=True, frozen=True):
    """Chance picks one more of the Action card types in use this game."""

    card: Name


class CardDrawn(Event, tag="card_drawn", kw_only=True, frozen=True):
    """A card drawn from the player's own Draw Deck into their hand."""

    player: Name
    card: Name


class CardPlayed(Event, tag="card_played", kw_only=True, frozen=True):
    """A card from the hand used for its Build points, its Reductions or its text."""

    player: Name
    card: Name
    use: Use


class CardsDiscarded(Event, tag="cards_discarded", kw_only=True, frozen=True):
    """Discard 1 (one card: `taken` goes to the discard pile) or Discard 2 (two: to the hand)."""

    player: Name
    cards: Annotated[tuple[Name, ...], Meta(min_length=1, max_length=2)]
    taken: Name


class ForceBuilt(Event, tag="force_built", kw_only=True, frozen=True):
    """One Build: a new Struggling Force in an empty Area, or one's own Struggling made Full."""

    player: Name
    area: Name


class ForceReduced(Event, tag="force_reduced", kw_only=True, frozen=True):
    """One Reduction: a Full Force becomes Struggling, a Struggling one is removed."""

    player: Name
    area: Name


class ForceRemoved(Event, tag="force_removed", kw_only=True, frozen=True):
    """A card text removes the Force in an Area outright (Global Disruption, Surrender)."""

    player: Name
    area: Name


class ForceSeized(Event, tag="force_seized", kw_only=True, frozen=True):
    """Insurgents: a Struggling Land Force is removed and the player's Full Force put there."""

    player: Name
    area: Name


class PlayerTargeted(Event, tag="player_targeted", kw_only=True, frozen=True):
    """The player a card text is aimed at (Bad Leadership, Out of Supply)."""

    player: Name
    target: Name


class ChainAnswered(Event, tag="chain_answered", kw_only=True, frozen=True):
    """Bio Weapons, offered to the left: `joined` performs its Reductions and passes it on."""

    player: Name
    joined: bool


class PointsForgone(Event, tag="points_forgone", kw_only=True, frozen=True):
    """The player leaves the rest of an optional owed step unused."""

    player: Name


class TurnEnded(Event, tag="turn_ended", kw_only=True, frozen=True):
    """The player is done for this turn (with no card used, they pass for the Game Turn)."""

    player: Name


class ScoringPassed(Event, tag="scoring_passed", kw_only=True, frozen=True):
    """The player plays no more cards in this End of Game Turn scoring step."""

    player: Name


EVENTS = (FirstPlayerChosen, ActionStackChosen, CardDrawn, CardPlayed, CardsDiscarded,
          ForceBuilt, ForceReduced, ForceRemoved, ForceSeized, PlayerTargeted, ChainAnswered,
          PointsForgone, TurnEnded, ScoringPassed)
# The type of every event above (EVENTS' union): what the rules judge and apply; the
# core events (undo, note, signed) are the engine's and never reach them.
GdEvent: TypeAlias = (FirstPlayerChosen | ActionStackChosen | CardDrawn | CardPlayed |
                      CardsDiscarded | ForceBuilt | ForceReduced | ForceRemoved | ForceSeized |
                      PlayerTargeted | ChainAnswered | PointsForgone | TurnEnded |
                      ScoringPassed)
