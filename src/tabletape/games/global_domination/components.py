"""Global Domination component data: the map, the cards and the tracks.

The rulebook names the Regions and Resources and gives a few card values in its
examples; everything else is reconstructed (see `provenance` on every entry of
components.json). `Lookups` holds the tables the rules read, built once per game.
"""

from __future__ import annotations

import enum
from typing import Annotated, Literal

import msgspec
from msgspec import Meta

from tabletape.engine.kit.contract import Tabulated
from tabletape.tape.events import StrictName as Name  # read once per log: checked in full
from tabletape.tape.events import Text, Title

# rulebook-name: the rulebook gives the name (and maybe what it does), not all its values
Provenance = Literal["rulebook", "inferred", "reconstructed", "rulebook-name"]
Points = Annotated[int, Meta(ge=0, le=30)]


class Kind(enum.StrEnum):
    LAND = "land"
    SEA = "sea"


# (module names of the members the hot paths read: see state.py's PHASE_*)
KIND_LAND = Kind.LAND


class Effect(enum.StrEnum):
    """What a card's text does (rule code reads abilities, never card names)."""

    NONE = "none"  # no text of its own (Domination; the area-restriction cards)
    RESOURCE_VP = "resource_vp"  # 1 VP per controlled Area of `resource`
    LAND_MIX = "land_mix"  # up to `amount` Land Builds and Land Reductions in any mix
    WEAKEN_PLAYER = "weaken_player"  # a chosen player's Full Forces are Reduced
    CHAIN_REDUCE = "chain_reduce"  # `amount` Reductions, then offered around to the left
    DENY_REGIONS = "deny_regions"  # during scoring: others score no Region monopolies
    REMOVE_PER_REGION = "remove_per_region"  # 1 Land Force removed in every Region
    INSURGENCY = "insurgency"  # up to `amount` Struggling Land Forces become the player's, Full
    HALVE = "halve"  # every player suffers Reductions equal to half their Forces
    BUILDS = "builds"  # up to `amount` Builds, Land or Sea
    CLEAR_STRUGGLING = "clear_struggling"  # every Struggling Force removed
    CUT_SUPPLY = "cut_supply"  # a chosen player's isolated Forces removed
    REGION_FULL_VP = "region_full_vp"  # 1 VP per Region holding one of the player's Full Land Forces
    REDUCE_PER_FULL = "reduce_per_full"  # `amount` Reductions per own Full Force
    UPGRADE_ALL = "upgrade_all"  # every own Struggling Force becomes Full
    SURRENDER = "surrender"  # may remove 1 Force in each Region where the player has a Full Force
    STRUGGLE_ALL = "struggle_all"  # every Full Force becomes Struggling


EFFECT_NONE = Effect.NONE
EFFECT_RESOURCE_VP = Effect.RESOURCE_VP
EFFECT_WEAKEN_PLAYER = Effect.WEAKEN_PLAYER
EFFECT_DENY_REGIONS = Effect.DENY_REGIONS
EFFECT_CLEAR_STRUGGLING = Effect.CLEAR_STRUGGLING
EFFECT_REGION_FULL_VP = Effect.REGION_FULL_VP
EFFECT_UPGRADE_ALL = Effect.UPGRADE_ALL
EFFECT_STRUGGLE_ALL = Effect.STRUGGLE_ALL


class Restriction(enum.StrEnum):
    """Where a card's Builds and Reductions may land."""

    ANY = "any"
    LAND = "land"
    SEA = "sea"
    NEAR_OWN_SEA = "near_own_sea"  # Land Areas next to a Sea Area the player controls
    NEAR_OWN_LAND = "near_own_land"  # Land Areas next to a Land Area the player controls


RESTRICTION_ANY = Restriction.ANY
RESTRICTION_LAND = Restriction.LAND
RESTRICTION_SEA = Restriction.SEA
RESTRICTION_NEAR_OWN_SEA = Restriction.NEAR_OWN_SEA
RESTRICTION_NEAR_OWN_LAND = Restriction.NEAR_OWN_LAND


class Timing(enum.StrEnum):
    """When a card may be played for its text."""

    TURN = "turn"  # on the player's own turn
    SCORING = "scoring"  # only in the End of Game Turn scoring step
    ANY = "any"  # on any turn, and in the scoring step


TIMING_TURN = Timing.TURN
TIMING_SCORING = Timing.SCORING
TIMING_ANY = Timing.ANY


class Region(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    name: Name
    provenance: Provenance


class Resource(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    name: Name
    symbol: Annotated[str, Meta(min_length=1, max_length=2)]
    provenance: Provenance


class Area(msgspec.Struct, frozen=True, forbid_unknown_fields=True, omit_defaults=True):
    """A Land or Sea Area; Land Areas have a Region and a Resource."""

    name: Name
    kind: Kind
    adjacent: Annotated[tuple[Name, ...], Meta(max_length=32)]
    provenance: Provenance
    region: Name | None = None
    resource: Name | None = None


class Card(msgspec.Struct, frozen=True, forbid_unknown_fields=True, omit_defaults=True):
    """A card type: its Build and Reduction points, stack size and text."""

    name: Name
    build: Points
    reduce: Points
    count: Annotated[int, Meta(ge=1, le=60)]
    provenance: Provenance
    effect: Effect = Effect.NONE
    restriction: Restriction = Restriction.ANY  # applies to Build and Attack uses
    text_restriction: Restriction = Restriction.ANY  # applies to the Builds/Reductions of its text
    timing: Timing = Timing.TURN
    amount: Annotated[int, Meta(ge=0, le=30)] = 0
    resource: Name | None = None
    cost: Annotated[int, Meta(ge=0, le=5)] = 0  # Logistical steps paid when acquired
    returns: bool = False  # goes back to its stack after its text is played
    basic: bool = False  # the starting card (Domination), never an Action stack
    note: Text | None = None


class TrackProvenance(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """Where each value of a `Track` comes from, one label per value."""

    low: Provenance
    high: Provenance
    start: Provenance


class Track(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    low: Annotated[int, Meta(ge=0, le=30)]
    high: Annotated[int, Meta(ge=1, le=30)]
    start: Annotated[int, Meta(ge=0, le=30)]
    provenance: TrackProvenance | Provenance  # one label for all, in a box before rules 1.1


class TracksProvenance(msgspec.Struct, frozen=True, forbid_unknown_fields=True,
                       omit_defaults=True):
    """Where each count of `Tracks` comes from, one label per value (the Track has its own)."""

    victory_start: Provenance
    turns: Provenance
    starting_cards: Provenance
    stacks_in_use: Provenance
    force_tokens: Provenance = "reconstructed"


class Tracks(msgspec.Struct, frozen=True, forbid_unknown_fields=True, kw_only=True,
             omit_defaults=True):
    """The tracks and the set-up counts of a box, each value with its own provenance."""

    logistics: Track
    victory_start: Annotated[int, Meta(ge=0, le=100)]
    turns: Annotated[int, Meta(ge=1, le=30)]  # Game Turns between Start and End
    starting_cards: Annotated[int, Meta(ge=1, le=10)]  # Domination cards per player
    stacks_in_use: Annotated[int, Meta(ge=1, le=40)]  # Action card types chosen for a game
    # Force tokens in each player's set (gd.build.supply); a box written before rules 1.1
    # names none: the reconstructed 20. Its provenance was then one label for all values.
    force_tokens: Annotated[int, Meta(ge=1, le=64)] = 20
    provenance: TracksProvenance | Provenance


class Components(msgspec.Struct, frozen=True, forbid_unknown_fields=True, omit_defaults=True):
    """A whole box as embedded in a log's header."""

    box: Title
    regions: Annotated[tuple[Region, ...], Meta(min_length=1, max_length=12)]
    resources: Annotated[tuple[Resource, ...], Meta(min_length=1, max_length=12)]
    areas: Annotated[tuple[Area, ...], Meta(min_length=1, max_length=64)]
    cards: Annotated[tuple[Card, ...], Meta(min_length=2, max_length=40)]
    tracks: Tracks
    notes: Text | None = None


def default() -> Components:
    """Returns the bundled box (see provenance on every entry)."""
    from importlib import resources  # only `new` and `simulate` read the default data

    raw = resources.files(__package__).joinpath("components.json").read_bytes()
    return msgspec.json.decode(raw, type=Components)


def problems(comp: Components) -> str | None:
    """Returns why a box cannot be played, or None."""
    return (_map_problems(comp) or _card_problems(comp)
            or _track_problems(comp))


def _map_problems(comp: Components) -> str | None:
    names = [a.name for a in comp.areas]
    if len(set(names)) != len(names):
        return "area names must be unique"
    by_name = {a.name: a for a in comp.areas}
    regions = {r.name for r in comp.regions}
    resources_ = {r.name for r in comp.resources}
    for a in comp.areas:
        if a.kind is Kind.LAND and (a.region not in regions or a.resource not in resources_):
            return f"land area {a.name!r} needs a known region and resource"
        if a.kind is Kind.SEA and (a.region or a.resource):
            return f"sea area {a.name!r} cannot have a region or resource"
        for b in a.adjacent:
            if b not in by_name or b == a.name:
                return f"area {a.name!r} lists an unknown neighbour {b!r}"
            if a.name not in by_name[b].adjacent:
                return f"adjacency must be mutual: {a.name!r} and {b!r}"
    return None


def _card_problems(comp: Components) -> str | None:
    names = [c.name for c in comp.cards]
    if len(set(names)) != len(names):
        return "card names must be unique"
    basics = [c for c in comp.cards if c.basic]
    if len(basics) != 1:
        return "exactly one card type must be the basic (starting) card"
    actions = len(comp.cards) - 1
    if comp.tracks.stacks_in_use > actions:
        return f"{comp.tracks.stacks_in_use} Action stacks are used, but the box has {actions}"
    known = {r.name for r in comp.resources}
    for c in comp.cards:
        if c.effect is Effect.RESOURCE_VP and c.resource not in known:
            return f"card {c.name!r} names an unknown resource {c.resource!r}"
    return None


def _track_problems(comp: Components) -> str | None:
    lg = comp.tracks.logistics
    if not lg.low <= lg.start <= lg.high:
        return "the Logistical track must start between its two ends"
    return None


# the tables tabulated from one field of the areas: a lookup in one is a read of that field
# (what a ruling rests on: engine.provenance.recording); the game's `Extras.tabulated`
TABULATED = (Tabulated("adjacent", "areas", "adjacent"),)


class Lookups(msgspec.Struct, frozen=True):
    """The lookup tables of one box, built once per game by `bind` and passed to the rules as `lk`.

    Cards and Areas by name, the starting card and the Action types, Areas by kind,
    by Region and by Resource.
    """

    tracks: Tracks
    cards: dict[str, Card]
    basic: str  # the starting card (Domination)
    actions: tuple[str, ...]  # every other card type, in box order
    areas: dict[str, Area]
    adjacent: dict[str, frozenset[str]]
    land: tuple[str, ...]
    sea: tuple[str, ...]
    regions: tuple[str, ...]
    resources: tuple[str, ...]
    in_region: dict[str, tuple[str, ...]]  # Region -> its Land Areas
    with_resource: dict[str, tuple[str, ...]]  # Resource -> its Areas
    # the same as sets (a Region or Resource held whole is a subset of the board's Areas)
    region_sets: dict[str, frozenset[str]]
    resource_sets: dict[str, frozenset[str]]
    land_set: frozenset[str]
    sea_set: frozenset[str]
    # The uses (Build, Attack, text) `check` accepts of a card held (`_uses`), which
    # `legality.count` sums: card -> how many on the holder's own turn; the cards with one
    # on another's turn (an any-time text); those the scorer may play in the scoring step,
    # and those anyone may play then (`at_scoring`, `anytime`)
    uses: dict[str, int]
    anytime_text: frozenset[str]
    costs: dict[str, int]  # the cards with a cost in Logistical steps -> that cost
    dearest: int  # the highest of those costs (0: none)
    at_scoring: frozenset[str]  # the cards that may be played in the scoring step (timing)
    anytime: frozenset[str]  # the cards whose text may be played at any time
    # The rules version's switches (catalogue.SWITCHES; off under a version before the change)
    token_supply: bool = True  # 1.1 gd.build.supply: a new Force needs a token from supply
    discard_any_order: bool = True  # 1.1 gd.use.discard2: the two cards in either order
    surrender_own_cited: bool = True  # 1.1 gd.card.surrender.own: its own rule id, cited
    ask_every_scorer: bool = True  # 1.2 gd.score.window: the scoring step asks every player

    @classmethod
    def of(cls, comp: Components) -> Lookups:
        """Returns the lookup tables of a box."""
        regions = tuple(r.name for r in comp.regions)
        resources_ = tuple(r.name for r in comp.resources)
        return cls(
            tracks=comp.tracks,
            cards={c.name: c for c in comp.cards},
            basic=next(c.name for c in comp.cards if c.basic),
            actions=tuple(c.name for c in comp.cards if not c.basic),
            areas={a.name: a for a in comp.areas},
            adjacent={a.name: frozenset(a.adjacent) for a in comp.areas},
            land=tuple(a.name for a in comp.areas if a.kind is Kind.LAND),
            sea=tuple(a.name for a in comp.areas if a.kind is Kind.SEA),
            regions=regions,
            resources=resources_,
            in_region={r: tuple(a.name for a in comp.areas if a.region == r) for r in regions},
            with_resource={r: tuple(a.name for a in comp.areas if a.resource == r)
                           for r in resources_},
            region_sets={r: frozenset(a.name for a in comp.areas if a.region == r)
                         for r in regions},
            resource_sets={r: frozenset(a.name for a in comp.areas if a.resource == r)
                           for r in resources_},
            land_set=frozenset(a.name for a in comp.areas if a.kind is Kind.LAND),
            sea_set=frozenset(a.name for a in comp.areas if a.kind is Kind.SEA),
            uses={c.name: _uses(c)[0] for c in comp.cards},
            anytime_text=frozenset(c.name for c in comp.cards if _uses(c)[1]),
            costs={c.name: c.cost for c in comp.cards if c.cost},
            dearest=max((c.cost for c in comp.cards), default=0),
            at_scoring=frozenset(c.name for c in comp.cards if _uses(c)[2]),
            anytime=frozenset(c.name for c in comp.cards if _uses(c)[3]))


def _uses(card: Card) -> tuple[int, int, int, int]:
    """Returns how many uses of `card` `plays.check_use` accepts: on the holder's own turn,
    on another's turn, from the scorer in the scoring step, from another player then.

    Each Game Turn: on one's own turn a card is played for each of its non-zero points
    (gd.use.zero) and for its text if it has one and it is not a scoring card
    (gd.use.text-none, gd.card.fog.timing); on another's turn only an any-time text. In the
    scoring step (gd.score.window) only texts: the scorer's scoring and any-time cards,
    anyone's any-time cards (an any-time card is accepted there whatever its text).
    """
    text = card.effect is not Effect.NONE and card.timing is not Timing.SCORING
    anytime = card.timing is Timing.ANY
    # (a card has at most one text: on another's turn and in the scoring step, 0 or 1)
    return (text + (card.build != 0) + (card.reduce != 0), int(anytime and text),
            int(card.timing is not Timing.TURN), int(anytime))
