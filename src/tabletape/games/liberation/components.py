"""Liberation component data: the ten country cards and the force deck.

The rulebook prints only Yemen's value and the Yemen and Iraq instructions; every
other value is ours (a turn-over card's `turns` included: the book says "one or more"
but no card's number) (see `provenance` on each entry of components.json). `Lookups`
holds the tables the rules look cards and countries up in, built once per game.
"""

from __future__ import annotations

import enum
from typing import Annotated, Literal

import msgspec
from msgspec import Meta

from tabletape.tape.events import StrictName as Name  # read once per log: checked in full
from tabletape.tape.events import Text, Title

# rulebook-name: the rulebook gives the name (and maybe what it does), not all its values
Provenance = Literal["rulebook", "inferred", "reconstructed", "rulebook-name"]
COUNTRY_CARDS = 10  # Set Up: the country deck holds ten cards


class CardType(enum.StrEnum):
    """The five kinds of force card (Card Types)."""

    AIRCRAFT = "Aircraft"
    COMMANDO = "Commando"
    GROUND = "Ground"
    PROPAGANDA = "Propaganda"
    SHIP = "Ship"


class Ability(enum.StrEnum):
    """What a force card does besides adding its force points (Further Explanations)."""

    NONE = "none"
    TURN_OVER = "turn_over"  # turn `turns` played cards: another's face down, or one back up
    # not in the rulebook (lib.ability.turn-up.cards): kept only so that logs and card data
    # made with the earlier default deck (AWACS, Coalition Support) still replay
    TURN_UP = "turn_up"  # turn one face-down played card back face up
    ALL_TURN_DOWN = "all_turn_down"  # every other player turns one of their own face down
    PREVENT = "prevent"  # may be discarded from the hand to stop a turn-over
    FIRST_DRAW = "first_draw"  # draw one if it is your first card for this country
    TRADE_CARD = "trade_card"  # swap this card for another player's face-up card
    TRADE_HANDS = "trade_hands"  # swap hands with another player
    DRAW_TWO = "draw_two"  # draw two if you liberate this country with it face up


# Module names for the members, as in state.py (ABILITY_PREVENT is Ability.PREVENT)
ABILITY_NONE = Ability.NONE
ABILITY_TURN_OVER = Ability.TURN_OVER
ABILITY_TURN_UP = Ability.TURN_UP
ABILITY_ALL_TURN_DOWN = Ability.ALL_TURN_DOWN
ABILITY_PREVENT = Ability.PREVENT
ABILITY_FIRST_DRAW = Ability.FIRST_DRAW
ABILITY_TRADE_CARD = Ability.TRADE_CARD
ABILITY_TRADE_HANDS = Ability.TRADE_HANDS
ABILITY_DRAW_TWO = Ability.DRAW_TWO


class Trigger(enum.StrEnum):
    """The kinds of special instruction a country card carries."""

    NONE = "none"
    TURN_OVER = "turn_over"  # each card of `card_type` played also turns over a card
    DOUBLE_PLAY = "double_play"  # each player may play two cards in a turn
    BONUS = "bonus"  # face-up cards of `card_type` count `amount` more points
    DRAW = "draw"  # each card of `card_type` played draws one card
    FORBID = "forbid"  # cards of `card_type` may not be played


TRIGGER_NONE = Trigger.NONE
TRIGGER_TURN_OVER = Trigger.TURN_OVER
TRIGGER_DOUBLE_PLAY = Trigger.DOUBLE_PLAY
TRIGGER_BONUS = Trigger.BONUS
TRIGGER_DRAW = Trigger.DRAW
TRIGGER_FORBID = Trigger.FORBID


TYPED_TRIGGERS = frozenset({Trigger.TURN_OVER, Trigger.BONUS, Trigger.DRAW, Trigger.FORBID})


class Country(msgspec.Struct, frozen=True, forbid_unknown_fields=True, omit_defaults=True):
    """One country card: its victory points and its special instruction."""

    name: Name
    vp: Annotated[int, Meta(ge=1, le=5)]
    trigger: Trigger = Trigger.NONE
    card_type: CardType | None = None
    amount: Annotated[int, Meta(ge=0, le=5)] = 0
    provenance: Provenance = "reconstructed"
    note: Text | None = None


class ForceCard(msgspec.Struct, frozen=True, forbid_unknown_fields=True, omit_defaults=True):
    """One kind of force card: type, force points, ability, and how many the deck holds."""

    name: Name
    type: CardType
    points: Annotated[int, Meta(ge=0, le=10)]
    count: Annotated[int, Meta(ge=1, le=40)]
    ability: Ability = Ability.NONE
    protected: bool = False  # "may not be turned over"
    turns: Annotated[int, Meta(ge=1, le=5)] = 1  # turn_over: how many cards it turns ("one or more")
    provenance: Provenance = "reconstructed"
    note: Text | None = None


class Components(msgspec.Struct, frozen=True, forbid_unknown_fields=True, omit_defaults=True):
    """The country deck and the force deck as embedded in a log's header."""

    deck_name: Title
    countries: Annotated[tuple[Country, ...], Meta(min_length=1, max_length=20)]
    cards: Annotated[tuple[ForceCard, ...], Meta(min_length=1, max_length=100)]
    notes: Text | None = None


def default() -> Components:
    """Returns the bundled ten countries and force deck."""
    from importlib import resources  # only `new` and `simulate` read the default data

    raw = resources.files(__package__).joinpath("components.json").read_bytes()
    return msgspec.json.decode(raw, type=Components)


def problems(comp: Components) -> str | None:
    """Returns why a set of components cannot be played, or None."""
    if len(comp.countries) != COUNTRY_CARDS:
        return f"the country deck must hold {COUNTRY_CARDS} cards, not {len(comp.countries)}"
    for kind, names in (("country", [c.name for c in comp.countries]),
                        ("force card", [c.name for c in comp.cards])):
        if len(set(names)) != len(names):
            return f"{kind} names must be unique in the components"
    for c in comp.countries:
        if (c.trigger in TYPED_TRIGGERS) != (c.card_type is not None):
            return (f"country {c.name!r}: a {c.trigger} instruction "
                    + ("needs" if c.trigger in TYPED_TRIGGERS else "takes no") + " card_type")
        if (c.trigger is Trigger.BONUS) != (c.amount > 0):
            return f"country {c.name!r}: only a bonus instruction has an amount, and it must be >0"
    for f in comp.cards:
        if f.turns != 1 and f.ability is not Ability.TURN_OVER:
            return f"force card {f.name!r}: only a turn_over card turns more than one card"
    if sum(c.count for c in comp.cards) < 20:
        return "the force deck must hold at least 20 cards"
    return None


class Lookups(msgspec.Struct, frozen=True):
    """The lookup tables of one game's components, built once when a ruleset is bound.

    `cards` and `countries` by name; `full_deck` is the whole force deck as a
    multiset (name -> copies, sorted by name); `country_names` the country deck, sorted.
    """

    cards: dict[str, ForceCard]
    countries: dict[str, Country]
    full_deck: dict[str, int]
    country_names: tuple[str, ...]
    # The rules version's switches (catalogue.SWITCHES; off under a version before the change)
    turn_back_up: bool = True  # 1.1 lib.ability.turn-over: a turn-over may turn a card back up
    turn_count: bool = True  # 1.1 lib.ability.turn-over.count: as many cards as its `turns`
    prevent_asked: bool = True  # 1.2 lib.ability.prevent: its owner asked, whatever they hold

    @classmethod
    def of(cls, comp: Components) -> Lookups:
        """Returns the lookup tables of a set of components."""
        countries = {c.name: c for c in comp.countries}
        return cls(cards={c.name: c for c in comp.cards}, countries=countries,
                   full_deck={c.name: c.count for c in sorted(comp.cards, key=lambda c: c.name)},
                   country_names=tuple(sorted(countries)))
