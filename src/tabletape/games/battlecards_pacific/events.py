"""BATTLECARDS Pacific events: facts of the table, one decision each.

Chance draws every Arsenal card (`arsenal_drawn`) and turns every Conflict card
(`conflict_drawn` at the start of a turn, `conflict_turned` for a shot, which
records the Action Number and what it did).
"""

from __future__ import annotations

from typing import Annotated, Literal, TypeAlias

import msgspec
from msgspec import Meta

from tabletape.tape.events import Event, Header, Name

from .components import ActionNumber, Components, Reveal, UnitType

Number = Annotated[int, Meta(ge=0, le=40)]


class Options(msgspec.Struct, frozen=True, forbid_unknown_fields=True, omit_defaults=True):
    """Table options.

    `first_side` is the side of the first player named (bcp.setup.sides); it does not say
    who starts: the Japanese player always has the first turn (bcp.turn.order).
    `support`: "every-shot" adds a supporting unit's bonus to every shot it can back
    (bcp.fire.support); "allocated" has the firing player name the supporters of each shot,
    each backing one shot per volley (bcp.fire.support-allocated).
    """

    first_side: Annotated[str, Meta(min_length=1, max_length=64)] = "Japan"
    support: Literal["every-shot", "allocated"] = "every-shot"


class BcpStarted(Header, tag="game_started", kw_only=True, frozen=True):
    options: Options = Options()
    components: Components


class ArsenalDrawn(Event, tag="arsenal_drawn", kw_only=True, frozen=True):
    """An Arsenal card drawn into a player's Reserve Hand (the deal or a draw instruction)."""

    player: Name
    unit: Name


class UnitDeployed(Event, tag="unit_deployed", kw_only=True, frozen=True):
    """A Reserve Hand card placed face down on the player's stack of its type."""

    player: Name
    unit: Name
    stack: UnitType


class DeploymentFinished(Event, tag="deployment_finished", kw_only=True, frozen=True):
    """The player deploys no more of what a Conflict card allowed."""

    player: Name


class EmergencyDeployed(Event, tag="emergency_deployed", kw_only=True, frozen=True):
    """The whole Reserve Hand deployed at once (instead of a draw, or against an invasion)."""

    player: Name
    units: Annotated[tuple[Name, ...], Meta(min_length=1, max_length=100)]


class EmergencyDeclined(Event, tag="emergency_declined", kw_only=True, frozen=True):
    """The player keeps their Reserve Hand: at a turn's start this means they draw."""

    player: Name


class CardsRevealed(Event, tag="cards_revealed", kw_only=True, frozen=True):
    """A Conflict card let its drawer learn about the opponent: `player` shows `to` what the
    card names (`what`), and `cards` are exactly what was seen (bcp.conflict.reveal)."""

    player: Name
    to: Name
    what: Reveal
    cards: Annotated[tuple[Name, ...], Meta(max_length=200)]


class ConflictDrawn(Event, tag="conflict_drawn", kw_only=True, frozen=True):
    """The drawing player's Conflict card for the turn."""

    player: Name
    card: Name


class BattleDecided(Event, tag="battle_decided", kw_only=True, frozen=True):
    """The aggressor's answer to a BATTLECARD whose prerequisites are met."""

    player: Name
    fight: bool


class UnitFired(Event, tag="unit_fired", kw_only=True, frozen=True):
    """A unit opens fire on a target, optionally playing a Kept Card for its bonus.

    `support` names the engaged units allocated to back this shot; it is only used with
    the option support="allocated" (bcp.fire.support-allocated).
    """

    player: Name
    unit: Name
    target: Name
    kept: Name | None = None
    support: Annotated[tuple[Name, ...], Meta(max_length=100)] = ()


class ConflictTurned(Event, tag="conflict_turned", kw_only=True, frozen=True):
    """The Conflict card turned for a shot: its Action Number, the window, the result.

    The target is destroyed when `above` < `action` <= `upto` (its defence against the
    attacker, and the attack with every bonus).
    """

    player: Name
    unit: Name
    target: Name
    card: Name
    action: ActionNumber
    above: Number
    upto: Number
    hit: bool


class UnitWithdrawn(Event, tag="unit_withdrawn", kw_only=True, frozen=True):
    """A unit taken out of the battle in the withdrawal phase."""

    player: Name
    unit: Name


class WithdrawalFinished(Event, tag="withdrawal_finished", kw_only=True, frozen=True):
    """The player withdraws nothing more this withdrawal phase."""

    player: Name


EVENTS = (ArsenalDrawn, UnitDeployed, DeploymentFinished, EmergencyDeployed, EmergencyDeclined,
          ConflictDrawn, CardsRevealed, BattleDecided, UnitFired, ConflictTurned, UnitWithdrawn,
          WithdrawalFinished)
# The type of every event above (EVENTS' union): what the rules judge and apply; the
# core events (undo, note, signed) are the engine's and never reach them.
BcpEvent: TypeAlias = (ArsenalDrawn | UnitDeployed | DeploymentFinished | EmergencyDeployed |
                       EmergencyDeclined | ConflictDrawn | CardsRevealed | BattleDecided |
                       UnitFired | ConflictTurned | UnitWithdrawn | WithdrawalFinished)
