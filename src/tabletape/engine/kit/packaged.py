"""A game in the one package shape (docs/adding-a-game.md): its rules are its modules' functions.

Every bundled game keeps its rules in the same modules: `reducer` (initial, apply,
outcome), `legality` (pending, over, check, legal, weight, weights), `lookups` (view and
small queries), `text` (describe, governing, consulted), `components` (the data,
`default()`, and `Lookups`: the tables built once per distinct components, `lookups_for`) and its drawings `render` and
`svg`. A game subclass declares each module part, typed by the Protocols of
`engine.kit.contract` (mypy checks every function's signature), its `rulebook` (the rules,
the changelog and what each version changed: `engine.versions.Rulebook`) and its optional
parts (`extras`); a part left out fails when the class is made, naming the game and the
part. What follows from those is derived when the class is made, never written twice: the
version (the changelog's last), the catalogue and the versions' declarations (from the
rulebook), `Header` (the class's first type argument), `Options` (the header's options),
`Components` (the components module's) and the drawings (the package's `render` and `svg`
modules). `Packaged` binds them; the game writes only what is its own (`check_header`).
"""

from __future__ import annotations

import importlib.util
import sys
import threading
import typing
from collections import OrderedDict
from collections.abc import Callable, Iterable
from functools import partial
from typing import Any, Generic, Self, TypeVar

import msgspec

from tabletape.engine.kit.contract import (
    MEMBERS,
    OPTIONAL,
    ComponentsModule,
    ContractError,
    Extras,
    LegalityModule,
    LookupsModule,
    MovesModule,
    ReducerModule,
    SeatsModule,
    TextModule,
    check_tabulated,
    drawn,
    missing,
)
from tabletape.engine.protocol import Decision, E, H, Outcome, Ruleset, S, Violation
from tabletape.engine.provenance import Derivation, Read, grouped, recording
from tabletape.engine.seats import Held, check_seating
from tabletape.engine.versions import (
    Rulebook,
    Upcaster,
    check_options,
    check_pins,
    check_rule_ids,
    check_rules_since,
    check_switches,
    check_tables,
    check_upcasters,
)
from tabletape.tape.codec import COMPONENTS_MAX

LK = TypeVar("LK")  # the game's lookup tables (`components.Lookups`)

# -- the lookup tables, built once per distinct components ------------------------------
# Most logs of an archive play the same box: `bind` builds a game's `Lookups` (and sets its
# version's switches) once per (tables' type, judging version, switches off, the components'
# type and canonical bytes) per process and hands every later game the same object. The
# tables are frozen Structs whose dicts no rule writes to (treated as immutable: the rules
# read them, `recording` and the switches make copies); tests/engine/test_bind_cache.py pins
# that a cached table judges every bundled log as a fresh one does, and stays equal to one.
CACHE_SIZE = 64  # distinct (components, version) tables kept; 0 builds them afresh every time
_cache: OrderedDict[tuple[Any, ...], tuple[Any, Any]] = OrderedDict()
_cache_lock = threading.Lock()


def lookups_for(make: Callable[[Any], Any], comp: Any, judging: str,
                off: dict[str, Any]) -> Any:
    """Returns the lookup tables `make(comp)` with the version fields `off` set as they were
    before their change (a switch False, a pin its older function): the same object
    for the same tables' type, components (by canonical bytes, and equal), judging version and
    switches, while it stays among the last CACHE_SIZE used (components of at most
    COMPONENTS_MAX bytes: a larger box's tables are built each time)."""
    if CACHE_SIZE <= 0:
        return _build(make, comp, off)
    data = _encoded(comp)
    if len(data) > COMPONENTS_MAX:  # a box this large is built afresh, never kept
        return _build(make, comp, off)
    key = (make, judging, tuple(sorted(off)), type(comp), data)
    with _cache_lock:
        hit = _cache.get(key)
        if hit is not None and (hit[0] is comp or hit[0] == comp):  # equal bytes and values (a tuple is
            _cache.move_to_end(key)             # not a list): the very same tables
            return hit[1]
    lk = _build(make, comp, off)
    with _cache_lock:
        _cache[key] = (comp, lk)
        _cache.move_to_end(key)
        while len(_cache) > CACHE_SIZE:
            _cache.popitem(last=False)
    return lk


# The canonical bytes of the components last bound, by identity: the codec hands every log
# of one box the very same decoded components (`Codec.decode_header`), so a bind need not
# encode them again for its key. The object is kept with its bytes (its id stays its own).
_encodings: OrderedDict[int, tuple[Any, bytes]] = OrderedDict()


def _encoded(comp: Any) -> bytes:
    """Returns msgspec.json.encode(comp), once per components object among the last
    CACHE_SIZE (they are never written to: tests/engine/test_bind_cache.py)."""
    with _cache_lock:
        hit = _encodings.get(id(comp))
        if hit is not None and hit[0] is comp:
            _encodings.move_to_end(id(comp))
            return hit[1]
    data = msgspec.json.encode(comp)
    with _cache_lock:
        _encodings[id(comp)] = (comp, data)
        while len(_encodings) > CACHE_SIZE:
            _encodings.popitem(last=False)
    return data


def _build(make: Callable[[Any], Any], comp: Any, off: dict[str, Any]) -> Any:
    lk = make(comp)
    return msgspec.structs.replace(lk, **off) if off else lk


def _upcaster(lk: Any, ups: list[Upcaster]) -> Callable[[Any, Any], Any]:
    """Returns a function reading an event as the judging version does (each upcaster whose
    change the log's version predates, in the changelog's order)."""
    by_type: dict[type, list[Upcaster]] = {}
    for u in ups:
        by_type.setdefault(u.event, []).append(u)

    def upcast(state: Any, event: Any) -> Any:
        for u in by_type.get(type(event), ()):
            event = u.fill(lk, state, event)
        return event
    return upcast


def _upcasting(rule: Callable[..., Any], lk: Any, upcast: Callable[[Any, Any], Any]
               ) -> Callable[[Any, Any], Any]:
    """Returns `rule` (check or apply) over `lk` reading each event through `upcast`."""
    return lambda state, event: rule(lk, state, upcast(state, event))


class Packaged(Ruleset[H, S, E], Generic[H, S, E, LK]):
    """A ruleset whose rules are the functions of its package's modules, over its `Lookups`."""

    reducer: ReducerModule[LK, H, S, E]
    legality: LegalityModule[LK, S, E]
    lookups: LookupsModule[S]
    seating: SeatsModule[LK, S, E]  # the game's seats.py
    text: TextModule[LK, S, E]
    components: ComponentsModule[LK]
    # render, svg: declared in Ruleset (RenderModule, SvgModule); a game writes `drawn(...)`
    # the optional moves (engine.kit.moves): the package's `moves` module, set when the
    # class is made (`_derive`), else None
    moves: MovesModule[LK, S, E] | None = None

    lk: LK  # the tables of this game's components, on a bound ruleset

    # The rules and their history (engine.versions.Rulebook): the class's changelog, version,
    # catalogue, switches, pins, upcasters and versioned options and rules are read from it.
    rulebook: Rulebook
    extras: Extras[LK, S, E] = Extras()  # the optional parts (engine.kit.contract.Extras)

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        _derive(cls)
        for part in MEMBERS:
            declared = _part(cls, part)
            if declared is None:
                raise ContractError(f"game {cls.__name__} ({cls.__module__}) declares no "
                                    f"{part!r} part (docs/adding-a-game.md)")
            if isinstance(declared, drawn):
                declared.resolve(cls)  # a name: checked now, imported on first use
            else:
                missing(cls, part, declared)
        if "Components" not in cls.__dict__ and "components" in cls.__dict__:
            cls.Components = _part(cls, "components").Components
        if not cls.changelog:
            raise ContractError(f"game {cls.__name__} ({cls.__module__}) declares no "
                                f"'rulebook' part (its 'changelog', the version last)")
        if cls.version not in cls.changelog:
            raise ContractError(f"game {cls.__name__} ({cls.__module__}) declares no "
                                f"'changelog' part with its version {cls.version!r}")
        if list(cls.changelog)[-1] != cls.version:
            raise ContractError(f"game {cls.__name__} ({cls.__module__}): its version "
                                f"{cls.version!r} is not the changelog's last")
        name = cls.__name__
        problem = (check_switches(name, cls.changelog, cls.switches)
                   or check_pins(name, cls.changelog, cls.pins)
                   or check_upcasters(name, cls.changelog, cls.upcasters)
                   or check_options(name, cls.changelog, cls.options_since)
                   or check_rules_since(name, cls.changelog, cls.rules_since, cls.rules_before)
                   or check_rule_ids(name, cls.RULES, cls.switches, cls.pins)
                   or check_tables(name, _part(cls, "components").Lookups, cls.switches,
                                   cls.pins)
                   or check_tabulated(name, _part(cls, "components").Lookups,
                                      cls.extras.tabulated))
        if problem:
            raise ContractError(problem)
        seating = _part(cls, "seating")
        cls.OWNERS, cls.SECRETS = seating.OWNERS, seating.SECRETS
        problem = check_seating(cls.__name__, cls.events, cls.OWNERS, cls.SECRETS)
        if problem:
            raise ContractError(problem)

    def default_components(self) -> Any:
        return self.components.default()

    def bind(self, header: H, rules: str | None = None) -> Self:
        bound = super().bind(header, rules)
        comp: Any = header  # the game's header types `components`
        edition = bound.edition
        # The changelog's entries the judging version does not have: their switches off and
        # their pins' older functions in, set once here (fields of the tables), so the rules
        # pay nothing per event for versions.
        off: dict[str, Any] = {flag: False for flag, (version, _) in self.switches.items()
                               if not edition.since(version)}
        off.update({name: pin.before for name, pin in self.pins.items()
                    if not edition.since(pin.version)})
        # built once per distinct components and version in this process (`lookups_for`)
        lk = lookups_for(self.components.Lookups.of, comp.components, edition.judging, off)
        bound.lk = lk
        legality, reducer = self.legality, self.reducer
        # The engine calls over, check and apply once per event: on the bound ruleset they
        # are the rule functions themselves (partials over `lk`), so no frame of ours runs.
        # `simulate` asks pending, legal and weights once per event as well.
        check: Callable[..., Any] = partial(legality.check, lk)
        apply: Callable[..., Any] = partial(reducer.apply, lk)
        ups = [u for u in self.upcasters if edition.upcasts(u.version)]
        if ups:  # an older log read under newer rules: its events as the newer rules read them
            upcast = _upcaster(lk, ups)
            check = _upcasting(legality.check, lk, upcast)
            apply = _upcasting(reducer.apply, lk, upcast)
            vars(bound)["upcast"] = upcast
        vars(bound).update(over=legality.over, check=check, apply=apply,
                           pending=partial(legality.pending, lk),
                           legal=partial(legality.legal, lk),
                           count=self._counter(lk),
                           weight=partial(legality.weight, lk),
                           weights=partial(legality.weights, lk))
        return bound

    def upcast(self, state: S, event: E) -> E:
        return event

    def _counter(self, lk: LK) -> Callable[[S], int]:
        """Returns `count` over `lk`: the game's own `legality.count` (pinned to the length
        of `legal` in tests/games/test_fast_paths.py), else the length of `legal`."""
        count = self.extras.count
        if count is not None:
            return partial(count, lk)
        legal = self.legality.legal
        return lambda state: sum(1 for _ in legal(lk, state))

    # -- the rules (the same functions as bound above, for the unbound type's sake) --------
    def initial(self) -> S:
        return self.reducer.initial(self.lk, self.header)

    def pending(self, state: S) -> Decision | None:
        return self.legality.pending(self.lk, state)

    def over(self, state: S) -> bool:
        return self.legality.over(state)

    def check(self, state: S, event: E) -> Violation | None:
        return self.legality.check(self.lk, state, event)

    def apply(self, state: S, event: E) -> S:
        return self.reducer.apply(self.lk, state, event)

    def legal(self, state: S) -> Iterable[E]:
        return self.legality.legal(self.lk, state)

    def count(self, state: S) -> int:
        return self._counter(self.lk)(state)

    def weight(self, state: S, event: E) -> int:
        return self.legality.weight(self.lk, state, event)

    def weights(self, state: S, events: list[E]) -> list[int]:
        return self.legality.weights(self.lk, state, events)

    def outcome(self, state: S) -> Outcome | None:
        return self.reducer.outcome(self.lk, state)

    def view(self, state: S, player: str) -> S:
        return self.lookups.view(state, player)

    def candidates(self, state: S, player: str) -> Iterable[E]:
        return self.seating.candidates(self.lk, state, player)

    def held(self, view: S, player: str) -> tuple[Held, ...]:
        return self.seating.held(self.lk, view, player)

    def drawable(self, state: S, event: E) -> S:
        result: S = self.seating.drawable(self.lk, state, event)
        return result

    # -- the words --------------------------------------------------------------------------
    def describe(self, event: E) -> str:
        return self.text.describe(event)

    def governing(self, event: E) -> tuple[str, ...]:
        return self.text.governing(event)

    def consulted(self, state: S, event: E) -> Iterable[tuple[str, Any, tuple[str, ...]]]:
        return self.text.consulted(self.lk, state, event)

    def reads(self, state: S, event: E) -> Iterable[tuple[str, Any, tuple[str, ...]]]:
        log: list[Read] = []
        self.legality.check(recording(self.lk, log, self.extras.tabulated), state,
                            self.upcast(state, event))
        return grouped(log)

    def implied(self, state: S, body: dict[str, Any]) -> dict[str, Any]:
        implied = self.extras.implied  # a game whose table decides fields
        return {} if implied is None else dict(implied(self.lk, state, body))

    def derive(self, state: S, event: E) -> Derivation | None:
        derive = self.extras.derive  # a game whose rulings compute
        return None if derive is None else derive(self.lk, state, event)


def _part(cls: type, part: str) -> Any:
    """Returns the part `cls` declares or inherits (None: none)."""
    return next((k.__dict__[part] for k in cls.__mro__ if part in k.__dict__), None)


def _derive(cls: type[Packaged[Any, Any, Any, Any]]) -> None:
    """Sets on a game class what follows from its declarations, where it says nothing itself:
    from its `rulebook` the changelog, version, catalogue and the versions' declarations;
    `Header` from its first type argument, `Options` from the header's `options`,
    `Components` from its components module; and its drawings, the `render` and `svg`
    modules of its own package."""
    own = cls.__dict__
    book: Rulebook | None = own.get("rulebook")
    if book is not None:
        for attr, value in (("changelog", book.changelog), ("RULES", book.rules),
                            ("switches", book.switches), ("pins", book.pins),
                            ("upcasters", book.upcasters), ("options_since", book.options_since),
                            ("rules_since", book.rules_since),
                            ("rules_before", book.rules_before)):
            if attr not in own:
                setattr(cls, attr, value)
    if "version" not in own and ("rulebook" in own or "changelog" in own) and cls.changelog:
        cls.version = list(cls.changelog)[-1]
    if "Header" not in own:
        args = [typing.get_args(b) for b in own.get("__orig_bases__", ())
                if typing.get_origin(b) is Packaged]
        if args and isinstance(args[0][0], type):
            cls.Header = args[0][0]
    if "Options" not in own and "Header" in own:
        options = next((f.type for f in msgspec.structs.fields(cls.Header)
                        if f.name == "options"), None)
        if isinstance(options, type):
            cls.Options = options
    for part in ("render", "svg"):
        if _part(cls, part) is None:
            declared: drawn[Any] = drawn(f".{part}")
            setattr(cls, part, declared)
            declared.__set_name__(cls, part)
    for part in OPTIONAL:  # the optional parts (moves): the package's module, if it has one
        if part not in own and _has_module(cls, part):
            optional: drawn[Any] = drawn(f".{part}")
            setattr(cls, part, optional)
            optional.__set_name__(cls, part)


def _has_module(cls: type, name: str) -> bool:
    """Returns whether the package of the module that defines `cls` holds a module `name`."""
    where = cls.__module__
    package = getattr(sys.modules.get(where), "__package__", None) or where
    try:
        return importlib.util.find_spec(f"{package}.{name}") is not None
    except ModuleNotFoundError:
        return False

