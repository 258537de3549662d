"""Cards of War component data: the deck, its type symbols and the joint-deployment pairs.

The rulebook prints no card list; see components.json's provenance on every card.
`Lookups` holds the tables the rules read, built once per game when a ruleset is bound.
"""

from __future__ import annotations

import enum
from typing import Annotated, Literal

import msgspec
from msgspec import Meta

from tabletape.engine.kit.contract import Tabulated
from tabletape.tape.events import Label, Text, Title
from tabletape.tape.events import StrictName as Name  # read once per log: checked in full

# rulebook-name: the rulebook gives the name (and maybe what it does), not all its values
Provenance = Literal["rulebook", "inferred", "reconstructed", "rulebook-name"]
Symbol = Annotated[str, Meta(min_length=1, max_length=3)]


class Theatre(enum.StrEnum):
    """The four card backgrounds (The Cards); they matter for Recon and Theatres of War."""

    AIR = "Air"
    SEA = "Sea"
    GROUND = "Ground"
    INTEL = "Intel"


class Card(msgspec.Struct, frozen=True, forbid_unknown_fields=True, omit_defaults=True):
    """One kind of card: its theatre, type symbols, score and abilities, and how many."""

    name: Name
    theatre: Theatre
    types: Annotated[tuple[Symbol, ...], Meta(min_length=1, max_length=16)]
    value: Annotated[int, Meta(ge=0, le=15)]
    count: Annotated[int, Meta(ge=1, le=52)]
    kill: Annotated[tuple[Symbol, ...], Meta(max_length=16)] = ()
    reinforce: bool = False
    recon: bool = False
    provenance: Provenance = "reconstructed"
    note: Text | None = None


class TypeSymbol(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    symbol: Symbol
    label: Label


class Pair(msgspec.Struct, frozen=True, forbid_unknown_fields=True, omit_defaults=True):
    """A joint-deployment pair: one card from `first` with one from `second`."""

    name: Name
    first: Annotated[tuple[Name, ...], Meta(min_length=1, max_length=8)]
    second: Annotated[tuple[Name, ...], Meta(min_length=1, max_length=8)]
    provenance: Provenance = "reconstructed"


class Components(msgspec.Struct, frozen=True, forbid_unknown_fields=True, omit_defaults=True):
    """A whole deck as embedded in a log's header."""

    deck_name: Title
    theatres: Annotated[tuple[Theatre, ...], Meta(max_length=len(Theatre))]
    types: Annotated[tuple[TypeSymbol, ...], Meta(max_length=32)]
    cards: Annotated[tuple[Card, ...], Meta(min_length=1, max_length=200)]
    pairs: Annotated[tuple[Pair, ...], Meta(max_length=16)] = ()
    notes: Text | None = None


def default() -> Components:
    """Returns the bundled 52-card deck."""
    from importlib import resources  # only `new` and `simulate` read the default data

    raw = resources.files(__package__).joinpath("components.json").read_bytes()
    return msgspec.json.decode(raw, type=Components)


def problems(comp: Components) -> str | None:
    """Returns why a deck cannot be played (duplicate names, unknown symbols or pair cards)."""
    names = [c.name for c in comp.cards]
    if len(set(names)) != len(names):
        return "card names must be unique in the components"
    symbols = {t.symbol for t in comp.types}
    for card in comp.cards:  # the usual deck, each log's header: no set made per card
        if not (symbols.issuperset(card.types) and symbols.issuperset(card.kill)):
            unknown = (set(card.types) | set(card.kill)) - symbols
            return f"card {card.name!r} uses undeclared type symbols {sorted(unknown)}"
    for pair in comp.pairs:
        for name in (*pair.first, *pair.second):
            if name not in names:
                return f"pair {pair.name!r} names a card not in the deck: {name!r}"
    return None


# -- the lookup tables ---------------------------------------------------------------------

# the tables tabulated from one field of the cards: a lookup in one is a read of that field
# (what a ruling rests on: engine.provenance.recording); the game's `Extras.tabulated`
TABULATED = (Tabulated("theatre_of", "cards", "theatre"), Tabulated("value_of", "cards", "value"))


class Lookups(msgspec.Struct, frozen=True):
    """The lookup tables of one deck, built once per game by `bind` and passed to the rules as `lk`.

    Cards by name, a fresh deck as a multiset, and each card's joint-deployment partners;
    tabulated from the cards for the rules' hot paths, each card's theatre as the RECON
    answer names it, its value, and the cards whose KILL matches a card.
    """

    cards: dict[str, Card]
    full_deck: dict[str, int]  # name -> count, sorted by name
    partners: dict[str, tuple[str, ...]]  # the cards that may be jointly deployed with a card
    theatre_of: dict[str, str]  # name -> its theatre in lower case (HandReported's fields)
    value_of: dict[str, int]  # name -> its value (a pile's score)
    hunters: dict[str, frozenset[str]]  # name -> the cards whose KILL names a type of it
    # The rules version's switches (catalogue.SWITCHES; off under a version before the change)
    kill_target: bool = True  # 1.1 cow.kill.target: a KILL names its victim
    off_theatre: bool = True  # 1.1 cow.opt.theatres.off-theatre: off-theatre cards only kill
    no_fit: bool = True  # 1.1 cow.opt.theatres.no-fit: a player with no card that fits passes
    exhaustion_discard: bool = True  # 1.1 cow.opt.exhaustion.discard: the loser discards
    round_end_abilities: bool = True  # 1.2 cow.ability.round-end: a round-ending card's abilities

    @classmethod
    def of(cls, comp: Components) -> Lookups:
        """Returns the lookup tables of a deck."""
        pair_of: dict[str, tuple[Pair, int]] = {}
        for pair in comp.pairs:
            for side, names in enumerate((pair.first, pair.second)):
                for name in names:
                    pair_of[name] = (pair, side)  # a card in two pairs: the last one counts
        return cls(
            cards={c.name: c for c in comp.cards},
            theatre_of={c.name: c.theatre.value.lower() for c in comp.cards},
            value_of={c.name: c.value for c in comp.cards},
            hunters={v.name: frozenset(c.name for c in comp.cards if set(c.kill) & set(v.types))
                     for v in comp.cards},  # cow.kill.type-match
            full_deck={c.name: c.count for c in sorted(comp.cards, key=lambda c: c.name)},
            partners={name: pair.second if side == 0 else pair.first
                      for name, (pair, side) in pair_of.items()})
