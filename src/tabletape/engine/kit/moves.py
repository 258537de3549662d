"""How a player builds an event in steps: the game's part of the move builder (issue 34).

A seat's page never lists every combination flat: it asks one question at a time ("Which
card of your hand?", then "To which battle?") and confirms with the sentence the log
records. A game says, for each event it offers, the answers that lead to it: a `Pick`
per step, in order (`steps(lk, view, event)` in its `moves` module, beside its other
parts). The app merges the offered events' steps into a tree (`app.moves`); a game that
declares no `moves` module gets `derived`: the kind of event, then one step per field.

A step may also be ticked (`ticks`): the event names a set ("the cards that pay for it"),
and the page offers each item once, to tick, instead of every combination.

Set-up: the game's `SETUP` names the event kinds that set the table up by chance in the
open (Global Domination's first player and Action stacks): the page offers them as one
move, drawn at random by the server or chosen on one seat (`setup_types`).

Labels are read from the event, the game's components and the seat's own view, never
from another seat's secret (the app passes the view), so they tell a seat nothing more
than the offered events do.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

import msgspec

from tabletape.engine.kit.contract import MovesModule
from tabletape.engine.kit.packaged import Packaged
from tabletape.tape.events import Event, event_type

ENVELOPE = frozenset(("seq", "prev", "at", "by", "salt"))
MOST = 20  # the most buttons a step shows at once (app.moves splits a longer step)


class Pick(msgspec.Struct, frozen=True):
    """One step of building an event: the step's question and this event's answer to it.

    `section` groups the answers of a long step ("Air", "Sea"): a step of more than MOST
    answers is asked in two, the section first. `ticks` makes the step a ticked one: the
    items of the set this event names (its `label` then reads the set as a phrase)."""

    ask: str  # the step's heading, in players' words: "Which card of your hand?"
    label: str  # this event's answer: "Tank"
    section: str = ""
    ticks: tuple[str, ...] | None = None


Steps = Callable[[Any, Any, Any], tuple[Pick, ...]]  # (lk, view, event) -> its steps


def humane(name: str) -> str:
    """Returns a field's or a kind's name as words: `card_deployed` -> `card deployed`."""
    return name.replace("_", " ").replace("-", " ")


def value_words(value: Any) -> str:
    """Returns a field's value as a player reads it."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, (tuple, list, frozenset)):
        return ", ".join(map(str, value)) or "none"
    if value is None:
        return "none"
    return str(value)


def derived(event: Event, owner_field: str | None = None) -> tuple[Pick, ...]:
    """Returns the steps of an event of a game that declares none: its kind ("Card
    deployed"), then each of its own fields but the one naming who enters it, in order (a
    field of names is ticked). Steps whose answer every offered event shares are skipped
    by the tree (app.moves), so a kind with one field is one tap after its kind."""
    kind = humane(event_type(type(event))).capitalize()
    picks = [Pick("What do you do?", kind)]
    for name in type(event).__struct_fields__:
        if name in ENVELOPE or name == owner_field:
            continue
        value = getattr(event, name)
        ask = f"{humane(name).capitalize()}?"
        if isinstance(value, tuple) and all(isinstance(v, str) for v in value):
            picks.append(Pick(ask, value_words(value), ticks=value))
        else:
            picks.append(Pick(ask, value_words(value)))
    return tuple(picks)


def setup_types(owners: dict[type, str | None], secrets: Iterable[type]) -> frozenset[type]:
    """Returns the kinds of event a game that declares no `SETUP` sets up at random: the
    public chance outcomes any player may enter (seats.OWNERS None, in no SECRETS)."""
    hidden = set(secrets)
    return frozenset(k for k, field in owners.items() if field is None and k not in hidden)


# -- the game's part -------------------------------------------------------------------------

def part(rs: Any) -> MovesModule[Any, Any, Any] | None:
    """Returns the game's `moves` part (`MovesModule`, engine.kit.contract): the module its
    class holds (`Packaged.moves`), or None for a game without one (or a ruleset not made
    with the kit)."""
    return rs.moves if isinstance(rs, Packaged) else None


def steps(rs: Any, view: Any, event: Event) -> tuple[Pick, ...]:
    """Returns the steps of `event` as the game's `moves` part says, else `derived`."""
    own = part(rs)
    if own is not None:
        result: tuple[Pick, ...] = own.steps(rs.lk, view, event)
        return result
    return derived(event, rs.OWNERS.get(type(event)))


def setup(rs: Any) -> frozenset[type]:
    """Returns the kinds of event that set the game's table up (drawn at random, or chosen
    on one seat): the game's `SETUP`, else its public chance outcomes (`setup_types`)."""
    own = part(rs)
    if own is not None:
        kinds: frozenset[type] = frozenset(own.SETUP)
        return kinds
    return setup_types(rs.OWNERS, rs.SECRETS)
