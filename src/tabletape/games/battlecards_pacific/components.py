"""BATTLECARDS Pacific component data: the sides' Arsenal decks and the shared Conflict deck.

The rulebook prints no card values; components.json gives a provenance on every entry.
Sides are data (the combined game would add more), unit types are a closed set.
"""

from __future__ import annotations

import enum
import operator
from collections.abc import Callable
from typing import TYPE_CHECKING, Annotated, Any, Literal

import msgspec
from msgspec import Meta

from tabletape.tape.events import StrictName as Name  # read once per log: checked in full
from tabletape.tape.events import Text, Title

from .decks import reshuffled

if TYPE_CHECKING:
    from .state import State
else:  # state.py imports this module: the pin's field is typed for mypy, Any when run
    State = Any

# rulebook-name: the rulebook gives the name (and maybe what it does), not all its values
Provenance = Literal["rulebook", "inferred", "reconstructed", "rulebook-name"]
Score = Annotated[int, Meta(ge=0, le=20)]
ActionNumber = Annotated[int, Meta(ge=1, le=20)]
Phase = Annotated[int, Meta(ge=1, le=4)]
Copies = Annotated[int, Meta(ge=1, le=60)]
Reveal = Literal["reserve", "kept", "stacks"]  # what a card lets its drawer look at


class UnitType(enum.StrEnum):
    """The three deployed stacks, left to right (To Set Up the Game)."""

    GROUND = "Ground"
    AIR = "Air"
    SEA = "Sea"


class Values(msgspec.Struct, frozen=True, forbid_unknown_fields=True, omit_defaults=True):
    """One number per unit type; a missing one is N/A."""

    ground: Score | None = None
    air: Score | None = None
    sea: Score | None = None

    def of(self, kind: UnitType) -> int | None:
        # a getter per type, looked up by the StrEnum's (cached) hash: no string is made, no
        # enum descriptor is gone through (this runs for every pair of units in every battle)
        return _FIELD[kind](self)


_FIELD: dict[UnitType, Callable[[Values], int | None]] = {  # Values.of
    kind: operator.attrgetter(kind.lower()) for kind in UnitType}


class Unit(msgspec.Struct, frozen=True, forbid_unknown_fields=True, omit_defaults=True):
    """One kind of Arsenal card: its stack, attack against each type, defence against each
    attacker type, the firing phases it lists, and any support it gives."""

    name: Name
    type: UnitType
    count: Copies
    attack: Values
    defence: Values
    phases: Annotated[tuple[Phase, ...], Meta(max_length=4)] = ()
    support: Score = 0
    supports: Annotated[tuple[UnitType, ...], Meta(max_length=3)] = ()
    leader: bool = False
    provenance: Provenance = "reconstructed"
    note: Text | None = None


def targetable(attacker: Unit, target: Unit) -> bool:
    """bcp.fire.target / bcp.fire.equal: attack not N/A and not below the target's defence.

    (The rule lives with the cards so that `Lookups` can tabulate it once per game: `reach`.)
    """
    attack = attacker.attack.of(target.type)
    return attack is not None and attack >= (target.defence.of(attacker.type) or 0)


def shortfall(attacker: Unit, target: Unit, actions: tuple[int, ...]) -> int | None:
    """bcp.stalemate.test's arithmetic for one pair: the least bonus (support and Kept Card,
    beyond the attack) with which some Action Number of `actions` (ascending) falls in the
    window of `attacker`'s shot at `target` (above its defence, at most attack plus bonus);
    None when it can never: the attacker lists no firing phase, may not fire at the target
    (`targetable`), or no Action Number is above the defence. (Tabulated in `Lookups.need`.)
    """
    if not attacker.phases or not targetable(attacker, target):
        return None
    above = target.defence.of(attacker.type) or 0
    first = next((a for a in actions if a > above), None)  # the least that could hit
    return None if first is None else first - (attacker.attack.of(target.type) or 0)


class Battlecard(msgspec.Struct, frozen=True, forbid_unknown_fields=True, omit_defaults=True):
    """What a BATTLECARD says: aggressor side, forces called, VP, prerequisites, specials.

    `requires`: BATTLECARDS the aggressor's side must already hold. `eliminates`: the
    side knocked out when an enemy wins it (its homeland). `special`: destroying the last
    enemy unit of that type in the battle wins it; `special_losers` says where the
    loser's remaining units then go.
    """

    aggressor: Name
    forces: Annotated[tuple[UnitType, ...], Meta(min_length=1, max_length=3)]
    vp: Score
    requires: Annotated[tuple[Name, ...], Meta(max_length=8)] = ()
    eliminates: Name | None = None
    special: UnitType | None = None
    special_losers: Literal["stacks", "discard"] = "stacks"


class ConflictCard(msgspec.Struct, frozen=True, forbid_unknown_fields=True, omit_defaults=True):
    """One kind of Conflict card: its Action Number and its instruction."""

    name: Name
    action: ActionNumber
    count: Copies
    keep: bool = False  # "keep this card": held face down, played for `bonus` in combat
    bonus: Score = 0
    bonus_types: Annotated[tuple[UnitType, ...], Meta(max_length=3)] = ()  # empty: any unit
    draw: Score = 0  # Arsenal cards drawn into the Reserve Hand
    deploy: Score = 0  # Reserve Hand cards the drawer may deploy
    reveal: Reveal | None = None  # the drawer learns about the opponent: sees this of theirs
    battle: Battlecard | None = None
    provenance: Provenance = "reconstructed"
    note: Text | None = None


class SideSpec(msgspec.Struct, frozen=True, forbid_unknown_fields=True, omit_defaults=True):
    """A side in turn order, with its own Arsenal deck."""

    id: Name
    arsenal: Annotated[tuple[Unit, ...], Meta(min_length=1, max_length=100)]
    provenance: Provenance = "reconstructed"


class Numbers(msgspec.Struct, frozen=True, forbid_unknown_fields=True, omit_defaults=True):
    reserve_hand: Annotated[int, Meta(ge=0, le=20)] = 6
    first_deployment: Annotated[int, Meta(ge=0, le=20)] = 3
    standard_victory: Annotated[int, Meta(ge=1, le=1000)] = 40
    first_turn: Name = "Japan"  # the side whose player has the first turn (bcp.turn.order)
    provenance: Provenance = "rulebook"


class Components(msgspec.Struct, frozen=True, forbid_unknown_fields=True, omit_defaults=True):
    """Both Arsenal decks and the Conflict deck, as embedded in a log's header."""

    title: Title
    theatre: Name  # whose Conflict deck this is (sets of other theatres bring their own)
    rules: Numbers
    sides: Annotated[tuple[SideSpec, ...], Meta(min_length=2, max_length=8)]
    conflict: Annotated[tuple[ConflictCard, ...], Meta(min_length=1, max_length=200)]
    notes: Text | None = None


def default() -> Components:
    """Returns the bundled (reconstructed) Pacific starter set."""
    from importlib import resources  # only `new` and `simulate` read the default data

    raw = resources.files(__package__).joinpath("components.json").read_bytes()
    return msgspec.json.decode(raw, type=Components)


def problems(comp: Components) -> str | None:
    """Returns why a card set cannot be played, or None."""
    sides = [s.id for s in comp.sides]
    if len(set(sides)) != len(sides):
        return "side ids must be unique in the components"
    for side in comp.sides:
        names = [u.name for u in side.arsenal]
        if len(set(names)) != len(names):
            return f"{side.id}'s Arsenal card names must be unique"
        for u in side.arsenal:
            if u.leader and u.count != 1:
                return f"leader {u.name!r} may appear only once in {side.id}'s Arsenal"
            if len(set(u.phases)) != len(u.phases):
                return f"{u.name!r} lists a firing phase twice"
    if comp.rules.first_turn not in sides:
        return (f"the first turn belongs to {comp.rules.first_turn!r}, which is not a side "
                "in the components (bcp.turn.order)")
    names = [c.name for c in comp.conflict]
    for c in comp.conflict:
        if c.battle is not None and (c.count > 1 or names.count(c.name) > 1):
            copies = c.count if c.count > 1 else names.count(c.name)
            return (f"BATTLECARD {c.name!r} is in the Conflict deck {copies} times; remove the "
                    "duplicates, keeping one (bcp.setup.battles-unique)")
    if len(set(names)) != len(names):
        dup = next(n for n in names if names.count(n) > 1)
        return f"Conflict card names must be unique: {dup!r} is listed twice"
    battles = {c.name for c in comp.conflict if c.battle}
    for c in comp.conflict:
        b = c.battle
        if b is None:
            continue
        if c.keep or c.draw or c.deploy or c.reveal:
            return f"BATTLECARD {c.name!r} cannot also be kept, draw, deploy or reveal"
        if b.aggressor not in sides:
            return f"BATTLECARD {c.name!r} names an unknown aggressor {b.aggressor!r}"
        if b.eliminates is not None and b.eliminates not in sides:
            return f"BATTLECARD {c.name!r} eliminates an unknown side {b.eliminates!r}"
        for r in b.requires:
            if r not in battles or r == c.name:
                return f"BATTLECARD {c.name!r} requires {r!r}, which is not another BATTLECARD"
    if not battles:
        return "the Conflict deck holds no BATTLECARD"
    return None


def turn_order(comp: Components, first_side_named: bool = True) -> tuple[str, ...]:
    """bcp.turn.order: the side named by `rules.first_turn` (Japan) first, whatever the
    order of the sides in the file; the others follow in the file's order. Rules 1.0
    (`first_side_named` off, bcp.turn.first-side) followed the file's order alone."""
    ids = tuple(s.id for s in comp.sides)
    if not first_side_named:
        return ids
    first = comp.rules.first_turn
    return tuple(i for i in ids if i == first) + tuple(i for i in ids if i != first)


class Lookups(msgspec.Struct, frozen=True):
    """The lookup tables of one game's card set, built once when the ruleset is bound.

    Units by side and name, Conflict cards and BATTLECARDS by name, both decks as
    multisets, the Action Numbers the Conflict deck can turn, and the set's numbers.
    """

    theatre: str  # whose Conflict deck this game draws from
    sides: tuple[str, ...]  # in turn order: the first turn's side, then the file's order
    file_sides: tuple[str, ...]  # in the card file's order: the turn order of rules 1.0
    units: dict[str, dict[str, Unit]]  # side -> Arsenal card name -> card
    arsenal: dict[str, dict[str, int]]  # side -> its full Arsenal deck (name -> copies, sorted)
    cards: dict[str, ConflictCard]  # Conflict card name -> card
    conflict: dict[str, int]  # the full Conflict deck (name -> copies, sorted)
    actions: tuple[int, ...]  # every Action Number in the Conflict deck, ascending
    battles: dict[str, Battlecard]  # BATTLECARD name -> what it says
    rules: Numbers
    # side -> unit -> enemy side -> the enemy units it may fire at (`targetable`, tabulated)
    reach: dict[str, dict[str, dict[str, frozenset[str]]]]
    # side -> unit -> enemy side -> (the bonus its shot needs for some Action Number to fall in
    # its window, target) for each target it ever could hit, least need first (`shortfall`,
    # tabulated: the stalemate test's arithmetic)
    need: dict[str, dict[str, dict[str, tuple[tuple[int, str], ...]]]]
    # side -> unit -> enemy side -> enemy unit -> (its defence against the unit, the unit's
    # attack on it; 0 where N/A): a shot's window before any bonus (`fire.window`'s first
    # terms, tabulated: the play of every shot reads them)
    bare: dict[str, dict[str, dict[str, dict[str, tuple[int, int]]]]]
    # side -> unit type -> the side's units (by name) that support that type (bcp.fire.support)
    backers: dict[str, dict[UnitType, tuple[str, ...]]]
    # Conflict card -> unit type -> its bonus, for each card that may be kept and played for
    # a unit of that type (`fire.kept_bonus`, tabulated: a random volley reads it per unit)
    kept_bonuses: dict[str, dict[UnitType, int]]
    # The rules version's switches (catalogue.SWITCHES; off under a version before the change)
    stalemate_every_shot: bool = True  # 1.1 bcp.stalemate.test: also after shots, withdrawals
    first_side_named: bool = True  # 1.1 bcp.turn.first-side: the named side starts (1.0: the file's first)
    turn_order_cited: bool = True  # 1.1 bcp.turn.order: a draw after the turn is over (1.0: emergency.turn)
    emergency_any_order: bool = True  # 1.2 bcp.emergency.all: the hand listed in any order
    reveal_any_order: bool = True  # 1.2 bcp.conflict.reveal: the cards shown in any order
    support_any_order: bool = True  # 1.2 bcp.fire.support-allocated: supporters in any order
    # The rules version's pins (catalogue.PINS; 1.1's function under a version before 1.2)
    reshuffled: Callable[[Lookups, State], State | None] = reshuffled  # bcp.deck.reshuffle

    @classmethod
    def of(cls, comp: Components) -> Lookups:
        """Returns the lookup tables of a card set."""
        actions = tuple(sorted({c.action for c in comp.conflict}))
        return cls(
            theatre=comp.theatre,
            sides=turn_order(comp),
            file_sides=turn_order(comp, first_side_named=False),
            units={s.id: {u.name: u for u in s.arsenal} for s in comp.sides},
            arsenal={s.id: {u.name: u.count for u in sorted(s.arsenal, key=lambda u: u.name)}
                     for s in comp.sides},
            cards={c.name: c for c in comp.conflict},
            conflict={c.name: c.count for c in sorted(comp.conflict, key=lambda c: c.name)},
            actions=actions,
            battles={c.name: c.battle for c in comp.conflict if c.battle},
            rules=comp.rules,
            reach={s.id: {u.name: {e.id: frozenset(t.name for t in e.arsenal if targetable(u, t))
                                   for e in comp.sides if e.id != s.id}
                          for u in s.arsenal}
                   for s in comp.sides},
            need={s.id: {u.name: {e.id: tuple(sorted((n, t.name) for t in e.arsenal
                                                if (n := shortfall(u, t, actions)) is not None))
                                  for e in comp.sides if e.id != s.id}
                         for u in s.arsenal}
                  for s in comp.sides},
            bare={s.id: {u.name: {e.id: {t.name: (t.defence.of(u.type) or 0,
                                                  u.attack.of(t.type) or 0) for t in e.arsenal}
                                  for e in comp.sides if e.id != s.id}
                         for u in s.arsenal}
                  for s in comp.sides},
            backers={s.id: {k: tuple(u.name for u in s.arsenal if k in u.supports)
                            for k in UnitType}
                     for s in comp.sides},
            kept_bonuses={c.name: {k: c.bonus for k in UnitType
                                   if not c.bonus_types or k in c.bonus_types}
                          for c in comp.conflict if c.keep and c.bonus})
