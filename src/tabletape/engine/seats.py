"""The seats: who may enter each event, and what each seat may know of the state and of the log.

Part of the game contract (docs/adding-a-game.md "Seats"). A game declares, in its `seats`
module:

- `OWNERS`: for each of its event types, the field naming the seat that enters it (its
  player; a chance outcome is owned by the seat that draws it), or None for a public chance
  outcome that any player at the table may enter (the first player chosen, a stack turned);
- `SECRETS`: for each event type whose content some seats may not know, a `Secret`: which
  fields are hidden, the fields naming the players who know them, and (optionally) when;
- `candidates(lk, state, player)`: the outcomes of that player's own hidden draw as the
  player can tell them apart: never a list that depends on what another seat holds;
- `held(lk, view, player)`: the player's own hidden cards, pile by pile, read from the
  player's own view (their hand panel).

Everything a seat is shown or told is computed from these and from the game's `view`:
the events offered to it (`offered`), an event as it may see it (`seen`), and whether a
line carries content it may not know (`secret_from`). The umpire sees everything. The
engine checks the declarations when a game class is made (`check_seating`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeVar

import msgspec

from tabletape.tape.events import Event, Header, Note, Signed, Undone, envelope

if TYPE_CHECKING:
    from tabletape.engine.protocol import Ruleset

HIDDEN = "?"  # what a value a seat may not know looks like (a card in another's hand too)
CHANCE = "chance"  # the actor of every random outcome (engine.protocol.CHANCE, defined here)
ANY_PLAYER = None  # OWNERS' word for a public chance outcome: any player may enter it
E = TypeVar("E", bound=Event)  # an event, seen as the same type


@dataclass(frozen=True)
class Secret:
    """What of an event some seats may not know: its `fields`, known only to the players
    the fields `seen_by` name (and the umpire); `when(lk, state, event)`, if given, says
    whether this event is secret (a Conflict card kept face down, not one read out)."""

    fields: tuple[str, ...]
    seen_by: tuple[str, ...]
    when: Callable[[Any, Any, Any], bool] | None = None


@dataclass(frozen=True)
class Held:
    """A pile of a seat's own hidden cards, as its hand panel lists it ("Hand", "Reserve Hand")."""

    pile: str
    cards: tuple[str, ...]


def check_seating(game: str, events: Iterable[type[Event]], owners: Mapping[type, str | None],
                  secrets: Mapping[type, Secret]) -> str | None:
    """Returns why a game's `OWNERS` and `SECRETS` do not fit its events, or None: every
    event type has an owner entry, and every field they name is a field of that event."""
    events = tuple(events)
    for kind in events:
        if kind not in owners:
            return (f"game {game}: seats.OWNERS names no owner for {kind.__name__} (a field "
                    "naming the seat that enters it, or None for a public chance outcome)")
    for kind, field in owners.items():
        if kind not in events:
            return f"game {game}: seats.OWNERS names {kind.__name__}, not one of its events"
        if field is not None and field not in kind.__struct_fields__:
            return f"game {game}: seats.OWNERS: {kind.__name__} has no field {field!r}"
    for kind, secret in secrets.items():
        if kind not in events:
            return f"game {game}: seats.SECRETS names {kind.__name__}, not one of its events"
        for field in (*secret.fields, *secret.seen_by):
            if field not in kind.__struct_fields__:
                return f"game {game}: seats.SECRETS: {kind.__name__} has no field {field!r}"
        if not secret.fields or not secret.seen_by:
            return f"game {game}: seats.SECRETS: {kind.__name__} hides nothing or from no one"
    return None


# -- who enters an event -------------------------------------------------------------------

def owner(rs: Ruleset[Any, Any, Any], event: Event) -> str | None:
    """Returns the player who may enter `event`, or None when any player may (a public chance
    outcome, a note). Read from the event alone, before any state: authority comes first."""
    if isinstance(event, Note):
        return None
    if isinstance(event, Signed):
        return event.player
    if isinstance(event, (Undone, Header)):
        return None  # the umpire undoes; a player asks (the table's own path)
    field = rs.OWNERS.get(type(event))
    value = getattr(event, field) if field is not None else None
    return value if isinstance(value, str) else None


def may_enter(rs: Ruleset[Any, Any, Any], event: Event, player: str) -> bool:
    """Returns whether `player` may enter `event` (their own, or one any player may)."""
    who = owner(rs, event)
    return who is None or who == player


# -- what a seat may know ------------------------------------------------------------------

def secret_from(rs: Ruleset[Any, Any, Any], state: Any, event: Event) -> tuple[str, ...] | None:
    """Returns the fields of `event` (entered in `state`) that some player may not know, or
    None when it is public; `knowers` tells who knows them."""
    secret = rs.SECRETS.get(type(event))
    if secret is None:
        return None
    if secret.when is not None and not secret.when(rs.lk, state, event):
        return None
    return secret.fields


def knowers(rs: Ruleset[Any, Any, Any], event: Event) -> frozenset[str]:
    """Returns the players who know a secret event's hidden fields."""
    secret = rs.SECRETS.get(type(event))
    if secret is None:
        return frozenset()
    found = (getattr(event, f) for f in secret.seen_by)
    return frozenset(v for v in found if isinstance(v, str))


def hidden_from(rs: Ruleset[Any, Any, Any], state: Any, event: Event, player: str | None
                ) -> tuple[str, ...]:
    """Returns the fields of `event` that `player` may not know (none for the umpire, None)."""
    if player is None:
        return ()
    fields = secret_from(rs, state, event)
    if not fields or player in knowers(rs, event):
        return ()
    return fields


def masked(value: Any) -> Any:
    """Returns a value as a seat that may not know it sees it: `?` for a name, a tuple of
    `?` of the same length for a list of names (how many is public), None stays None."""
    if value is None:
        return None
    if isinstance(value, tuple):
        return (HIDDEN,) * len(value)
    return HIDDEN


def seen(rs: Ruleset[Any, Any, Any], state: Any, event: E, player: str | None) -> E:
    """Returns `event` as `player` may see it: the fields it may not know masked and the
    salt dropped (the salt is what keeps a hash of the line from being inverted)."""
    fields = hidden_from(rs, state, event, player)
    if not fields:
        return event
    return msgspec.structs.replace(event, salt=None,
                                   **{f: masked(getattr(event, f)) for f in fields})


def salted(rs: Ruleset[Any, Any, Any], state: Any, event: Event,
           fresh: Callable[[], str]) -> Event:
    """Returns `event` with a fresh salt when its content is secret from some seat (a log of
    format 2 salts every such line), else the event itself."""
    if event.salt is None and secret_from(rs, state, event):
        return msgspec.structs.replace(event, salt=fresh())
    return event


# -- what a seat is offered ----------------------------------------------------------------

def offered(rs: Ruleset[Any, Any, Any], state: Any, player: str | None) -> list[Event]:
    """Returns the next events `player` may enter now (None: the umpire, every legal event).

    A player is offered the legal events they own. When chance moves (a card they draw, or
    a public outcome any player may enter), they are offered the game's `candidates`: the
    outcomes they cannot rule out from what they know, so that the list never depends on
    what another seat holds. Nothing when the game is over.
    """
    decision = rs.pending(state)
    if decision is None:
        return []
    events = list(rs.legal(state))
    if player is None:
        return events
    if decision.actor == CHANCE and events:
        # the player's own draw, or a public one any player enters: the outcomes as the
        # game's candidates give them (a public draw from a deck whose content is hidden
        # must not list what the deck holds either)
        owners = {owner(rs, e) for e in events}
        if owners <= {player, None}:
            return list(rs.candidates(state, player))
        return []
    return [e for e in events if owner(rs, e) == player]


# -- a player's own draw the deck cannot hold ------------------------------------------------

def flaggable(rs: Ruleset[Any, Any, Any], state: Any, event: Event) -> bool:
    """Returns True when `event`, refused in `state`, is its owner's own draw among the cards
    they cannot rule out, and would be legal were the card in its deck: a refusal that rests
    on what another seat holds, which the table does not give (the umpire rules on it)."""
    who = owner(rs, event)
    decision = rs.pending(state)
    if who is None or decision is None or decision.actor != CHANCE:
        return False
    if envelope(event) not in [envelope(e) for e in rs.candidates(state, who)]:
        return False
    return rs.check(rs.drawable(state, event), event) is None
