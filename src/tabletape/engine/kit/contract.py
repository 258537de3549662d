"""The game contract: what each module of a game package provides, as Protocols mypy checks.

A game in the package shape (`engine.kit.packaged.Packaged`) declares its parts in its
class: `reducer = reducer` and so on. A module object is accepted where a Protocol is
expected and mypy checks the module's functions against the Protocol's members, so a game
whose `weight` lost a parameter fails `mypy` where it declares `legality`, not in the
middle of `validate`. The Protocols are generic in the game's types: `LK` its lookup
tables (`components.Lookups`), `H` its header, `S` its state, `E` its events.

The drawings (`render`, `svg`) are the game package's `render` and `svg` modules, named
(`drawn(".render")`, which `Packaged` declares by itself), checked when the game class is made
and imported on first use, so that the rules never import rich or the drawing code
(start-up, and the layers: only render modules import rich). mypy checks them all the same:
the game assigns them under `TYPE_CHECKING` (see the template game).

The optional parts are the typed members of `Extras`, each with its default; nothing is
looked up by name.
"""

from __future__ import annotations

import dataclasses
import importlib
import importlib.util
import random
import sys
from collections.abc import Callable, Iterable, Mapping
from types import ModuleType
from typing import TYPE_CHECKING, Any, Generic, Protocol, TypeVar

from tabletape.engine.protocol import Decision, Outcome, RenderModule, SvgModule, Violation
from tabletape.engine.provenance import Derivation
from tabletape.engine.seats import Held, Secret

if TYPE_CHECKING:
    from tabletape.engine.kit.moves import Pick

# RenderModule and SvgModule are declared beside Ruleset, which holds the drawings.
__all__ = ["MEMBERS", "ComponentsModule", "ContractError", "Extras", "LegalityModule",
           "Tabulated", "check_tabulated",
           "LookupsModule",
           "LookupsOf", "ReducerModule", "RenderModule", "SeatsModule", "SvgModule", "TextModule",
           "drawn",
           "missing"]

LK_contra = TypeVar("LK_contra", contravariant=True)
LK_co = TypeVar("LK_co", covariant=True)
H_contra = TypeVar("H_contra", contravariant=True)
S_contra = TypeVar("S_contra", contravariant=True)
E_contra = TypeVar("E_contra", contravariant=True)
E_co = TypeVar("E_co", covariant=True)
S = TypeVar("S")
E = TypeVar("E")


class LegalityModule(Protocol[LK_contra, S_contra, E]):
    """legality.py: what may happen next."""

    def pending(self, lk: LK_contra, state: S_contra, /) -> Decision | None: ...
    def over(self, state: S_contra, /) -> bool: ...
    def check(self, lk: LK_contra, state: S_contra, event: E, /) -> Violation | None: ...
    def legal(self, lk: LK_contra, state: S_contra, /) -> Iterable[E]: ...
    def weight(self, lk: LK_contra, state: S_contra, event: E, /) -> int: ...
    def weights(self, lk: LK_contra, state: S_contra, events: list[E], /) -> list[int]: ...


class ReducerModule(Protocol[LK_contra, H_contra, S, E_contra]):
    """reducer.py: what events do."""

    def initial(self, lk: LK_contra, header: H_contra, /) -> S: ...
    def apply(self, lk: LK_contra, state: S, event: E_contra, /) -> S: ...
    def outcome(self, lk: LK_contra, state: S, /) -> Outcome | None: ...


class LookupsModule(Protocol[S]):
    """lookups.py: queries on the table; the engine asks only for a player's view."""

    def view(self, state: S, player: str, /) -> S: ...


class TextModule(Protocol[LK_contra, S_contra, E_contra]):
    """text.py: the words (a sentence per event, the rules governing it, what it consulted)."""

    def describe(self, event: E_contra, /) -> str: ...
    def governing(self, event: E_contra, /) -> tuple[str, ...]: ...
    def consulted(self, lk: LK_contra, state: S_contra, event: E_contra, /
                  ) -> Iterable[tuple[str, Any, tuple[str, ...]]]: ...


class SeatsModule(Protocol[LK_contra, S_contra, E_co]):
    """seats.py: who enters each event and what each seat may know (engine.seats)."""

    OWNERS: dict[type, str | None]
    SECRETS: dict[type, Secret]

    def candidates(self, lk: LK_contra, state: S_contra, player: str, /) -> Iterable[E_co]: ...
    def held(self, lk: LK_contra, view: S_contra, player: str, /) -> tuple[Held, ...]: ...
    def drawable(self, lk: LK_contra, state: S_contra, event: Any, /) -> Any: ...


class LookupsOf(Protocol[LK_co]):
    """components.Lookups: the tables built once per game from its components."""

    def of(self, comp: Any, /) -> LK_co: ...


class ComponentsModule(Protocol[LK_co]):
    """components.py: the data a game is played with, and the tables built from it."""

    def default(self) -> Any: ...
    @property
    def Lookups(self) -> LookupsOf[LK_co]: ...  # (the class of that name)
    @property
    def Components(self) -> type[Any]: ...  # the data's type (the class of that name)


LK = TypeVar("LK")


@dataclasses.dataclass(frozen=True)
class Extras(Generic[LK, S, E]):
    """The optional parts of a game, each typed, each None unless the game has its own:
    `extras = Extras(count=legality.count, derive=text.derive)` in the game's class."""

    # how many events `legal` yields, counted without building them (default: its length;
    # pinned to it in tests/games/test_fast_paths.py)
    count: Callable[[LK, S], int] | None = None
    # the fields of an event being entered that the table decides (`body`: the fields given
    # so far, with its `type`): the recorder offers them filled in (default: none)
    implied: Callable[[LK, S, dict[str, Any]], Mapping[str, Any]] | None = None
    # the arithmetic of a ruling, for `explain` (default: the ruling computes nothing)
    derive: Callable[[LK, S, E], Derivation | None] | None = None
    # a world a seat cannot tell from its own view (`view`, the seat, a random generator):
    # the cards it cannot see dealt into the places it cannot see, or None when it finds
    # none; read from the view alone. The Monte Carlo agent (engine.agents) plays its
    # playouts in such worlds (default: it searches the seat's history for one)
    determinize: Callable[[LK, S, str, random.Random], S | None] | None = None
    # a random playout's fast paths (engine.playout; each pinned to `legal`, `weights` and
    # `pending` in tests/app/test_balance_speed.py), each answering None where it has no
    # cheap answer: chance's weights in `legal`'s order; the i-th event `legal` yields; a
    # player's uniform draw whole (`below(n)` asked once, for the count); who decides next
    # (pending's actor without its sentence). Default: `legal`, `weights`, `pending`
    odds: Callable[[LK, S], list[int] | None] | None = None
    nth: Callable[[LK, S, int], E | None] | None = None
    pick: Callable[[LK, S, Callable[[int], int]], E | None] | None = None
    actor: Callable[[LK, S], str | None] | None = None
    # chance's draw whole, in every state where chance decides: the event `random.choices`
    # picks from `legal` by `weights` with this `random()` (asked once), the weights summed
    # once for both (default: `odds` and `nth`, or `legal` and `weights`)
    chance: Callable[[LK, S, Callable[[], float]], E] | None = None
    # random play's move whole, where every seat plays uniformly: who decides (CHANCE for
    # chance) and the event drawn, as `actor` then `chance` or `pick` would (with this
    # `random()` and `below(n)`, each asked once), None once the game is over; the state
    # read once for all three (default: `actor`, then `chance` or `pick`)
    draw: Callable[[LK, S, Callable[[], float], Callable[[int], int]],
                   tuple[str, E] | None] | None = None
    # the running score the state carries (player -> victory points, rounds won), the same
    # object while it is unchanged: balance's decisiveness (when the winner took the lead
    # for good) and the Monte Carlo agent's cut-off playouts read it (engine.playout.scorer).
    # Default: the game keeps no running score
    score: Callable[[S], Mapping[str, int]] | None = None
    # where the game stands in a player's words ("round 3", "turn 2"; "" before the first):
    # the phone's bar shows it (app.page.stage_of). Default: nothing is shown
    progress: Callable[[S], str] | None = None
    # the lookup tables tabulated from one field of the component entries (`Tabulated`): a
    # lookup in one is a read of that field, for what a ruling rests on
    # (engine.provenance.recording). Checked when the game class is made. Default: none
    tabulated: tuple[Tabulated, ...] = ()


@dataclasses.dataclass(frozen=True)
class Tabulated:
    """A lookup table tabulated from one field of a table of component entries, each named
    by its field of the game's `Lookups`: `Tabulated("adjacent", "areas", "adjacent")` says
    that `lk.adjacent[name]` is `lk.areas[name].adjacent`, reshaped."""

    table: str  # the tabulated table (name -> value)
    entries: str  # the table of entries it is tabulated from (name -> entry)
    field: str  # the entries' field it holds


def check_tabulated(game: str, tables: type, tabulated: Iterable[Tabulated]) -> str | None:
    """Returns why a `Tabulated` does not name fields of the game's tables (`Lookups`), or
    None: a misspelled name fails when the class is made, not when a ruling is explained."""
    names: tuple[str, ...] = getattr(tables, "__struct_fields__", ())
    where = getattr(tables, "__qualname__", "its tables")
    for t in tabulated:
        for role, name in (("table", t.table), ("entries", t.entries)):
            if name not in names:
                return (f"game {game}: tabulated {role} {name!r} is not a field of {where} "
                        f"({', '.join(names)})")
    return None


# The functions each part must have, checked when a game class is made (a module that lost
# one fails at import with the game's and the part's names, whatever mypy was run on).
MEMBERS: dict[str, tuple[str, ...]] = {
    "reducer": ("initial", "apply", "outcome"),
    "legality": ("pending", "over", "check", "legal", "weight", "weights"),
    "lookups": ("view",),
    "seating": ("OWNERS", "SECRETS", "candidates", "held", "drawable"),
    "text": ("describe", "governing", "consulted"),
    "components": ("default", "Lookups", "Components"),
    "render": ("render",),
    "svg": ("draw",),
}


class ContractError(TypeError):
    """A game class that does not declare a part, or a part that lacks a function."""


M = TypeVar("M")


class drawn(Generic[M]):  # lower case: a declaration, like `property`
    """A part named, not imported: `render = drawn(".render")` in a game's class.

    The name (relative to the game's package) is checked with `find_spec` when the class is
    made; the module is imported the first time the part is read, and its functions checked
    then. Under `TYPE_CHECKING` the game assigns the module itself, so mypy checks it.
    """

    def __init__(self, name: str) -> None:
        self.name = name
        self.part = ""
        self.owner: type | None = None  # the class that declares it: its package names it
        self.module: ModuleType | None = None

    def __set_name__(self, owner: type, part: str) -> None:
        self.part, self.owner = part, owner

    def resolve(self, owner: type) -> str:
        """Returns the module's absolute name, or raises ContractError when there is none: a
        relative name is read in the package of the class that declares it (a variant made
        in another package draws as the game it extends)."""
        owner = self.owner or owner
        where = owner.__module__
        package = getattr(sys.modules.get(where), "__package__", None) or where
        name = importlib.util.resolve_name(self.name, package) if self.name[0] == "." else self.name
        try:
            found = importlib.util.find_spec(name)
        except ModuleNotFoundError:
            found = None
        if found is None:
            raise ContractError(f"game {owner.__name__} ({where}): its {self.part} part "
                                f"{name!r} is not a module")
        return name

    def __get__(self, obj: object | None, owner: type) -> Any:
        if self.module is None:
            module = importlib.import_module(self.resolve(owner))
            missing(owner, self.part, module)
            self.module = module
        return self.module


def missing(owner: type, part: str, module: object) -> None:
    """Raises ContractError when `module` lacks a function the `part` must have."""
    for name in MEMBERS.get(part) or OPTIONAL.get(part, ()):
        if not hasattr(module, name) or (name.islower() and not callable(getattr(module, name))):
            raise ContractError(f"game {owner.__name__} ({owner.__module__}): its {part} part "
                                f"({getattr(module, '__name__', module)}) has no {name!r}")


# -- an optional part: the moves (engine.kit.moves) -------------------------------------------
# A game may have a `moves` module beside its other parts: how a seat's page builds each
# offered event in steps, and which kinds of event set the table up. Like the drawings it
# is a part the class holds (`Packaged.moves`: the package's `moves` module, `drawn`,
# checked when the class is made, its functions when first used; None when the package has
# none, and a variant made elsewhere without one builds as the game it extends); a game
# without one gets the steps derived from its events' fields and, as set-up, its public
# chance outcomes.
OPTIONAL: dict[str, tuple[str, ...]] = {"moves": ("steps", "SETUP")}

class MovesModule(Protocol[LK_contra, S_contra, E_contra]):
    """moves.py: the steps by which a player builds each event, and the set-up kinds."""

    SETUP: frozenset[type]

    def steps(self, lk: LK_contra, view: S_contra, event: E_contra, /) -> tuple[Pick, ...]: ...
