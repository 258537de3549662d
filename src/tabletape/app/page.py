"""What one seat's page of `serve --play` shows: the page data (its JSON is what the page
reads) and the words it is built from. app.play builds it; web.table sends it."""

from __future__ import annotations

from typing import Any

import msgspec

from tabletape import engine
from tabletape.app.moves import Step
from tabletape.engine import seats as seating
from tabletape.engine.playout import extras


class Move(msgspec.Struct, frozen=True):
    """One event a seat may enter: its button's label, the sentence it records."""

    item: str
    sentence: str
    label: str
    event: dict[str, Any]  # the event as JSON, which the page posts back as it is


class Group(msgspec.Struct, frozen=True):
    """The moves of one kind (one decision), as `legal` groups them."""

    group: str
    events: list[Move]


class UndoOffer(msgspec.Struct, frozen=True, kw_only=True):
    """The latest event a seat may ask to undo, and the open request a seat may answer."""

    target: int  # the latest effective event's seq
    sentence: str  # its words as `log` prints them for this seat ("" on the shared page)
    asked: int | None  # the open undo request's seq (a line of the log), if one
    asked_by: str | None
    may_confirm: bool  # accept the open request (another player, or the umpire)
    may_refuse: bool
    may_ask: bool


class Pile(msgspec.Struct, frozen=True):
    """The seat's own hidden cards in one pile (its hand, a reserve...)."""

    pile: str
    cards: list[str]


class JoinCode(msgspec.Struct, frozen=True):
    """A seat's join link and its QR code (SVG), for the umpire to hold up."""

    seat: str
    url: str
    svg: str  # "" without segno


class Page(msgspec.Struct, frozen=True, kw_only=True):
    """What one seat's page shows now (its JSON is what the page reads)."""

    version: str  # Table.version: the page sends it back with a write
    ok: bool
    verdict: str
    you: str  # the seat's name; "" for the shared page
    umpire: bool = False
    seq: int = -1  # the log's last seq
    title: str = ""
    players: list[str] = []
    svg: str = ""  # the table as this seat sees it, wide
    narrow: str = ""  # and at a phone's width
    waiting: str = ""  # what the game waits for, or how it ended
    actor: str | None = None  # who acts now
    over: bool = False
    groups: list[Group] = []  # the offered events flat, by kind (the page draws `moves`)
    moves: Step | None = None  # the same events as the builder's steps (app.moves)
    setting_up: str = ""  # the player who sets the table up, while the game is set up
    undo: UndoOffer | None = None
    blocked: bool = False  # the table waits for the umpire
    hand: list[Pile] = []
    acting: list[str] = []  # the players who enter the next event (`acts`)
    stage: str = ""  # where the game stands: "round 2", "turn 3" ("" where it has neither)
    scores: dict[str, int] = {}  # at game over: the scores that decided it
    winners: list[str] = []  # at game over: who won (none: a draw)
    final_svg: str = ""  # at game over: the table as the last move found it, wide
    final_narrow: str = ""  # and at a phone's width
    final_move: str = ""  # that last move's sentence, which ended the game
    # at game over: the log a rematch makes (POST rematch; the same links then serve it),
    # else None
    rematch: str | None = None
    codes: list[JoinCode] = []  # every seat's join link: the umpire's page (or --show-codes)


def stage_of(rs: engine.Ruleset[Any, Any, Any], state: Any) -> str:
    """Returns where a game stands in a player's words ("round 3"): the game's own
    `Extras.progress`, or "" for a game without one."""
    progress = extras(rs).progress
    return "" if progress is None else progress(state)


def acts(rs: engine.Ruleset[Any, Any, Any], state: Any, decision: engine.Decision | None) -> list[str]:
    """Returns the players who enter the next event: the decision's actor, or for a chance
    outcome the player whose draw it is (the owner of its events, engine.seats.owner; none
    when any player may enter it). Who acts is public: the board names them too."""
    if decision is None:
        return []
    if decision.actor != engine.CHANCE:
        return [decision.actor]
    owners = {seating.owner(rs, e) for e in rs.legal(state)}
    return [] if None in owners else sorted(o for o in owners if o)
