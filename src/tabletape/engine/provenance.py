"""Which component values a ruling rests on, and where each value comes from.

A game names, per event, the component entries its rules consult and which of their
fields (`Ruleset.consulted`); this module reads each field's value and provenance from
the bound game's components. A ruling "rests on" the values whose provenance is not
`rulebook`: reconstructed, inferred, or only the name from the rulebook (`rulebook-name`).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Protocol

import msgspec

from tabletape.tape.events import visible

RULEBOOK = "rulebook"
RECORDED = "recorded"  # a term the log gives (the state its events made), not a component


class Reliance(msgspec.Struct, frozen=True):
    """One component value a ruling read: whose, which field, its value and its provenance."""

    entry: str
    field: str
    value: str
    provenance: str


def rests_on(ruleset: Any, state: Any, event: Any) -> list[Reliance]:
    """Returns the component values the ruling on `event` in `state` (the state before it)
    read whose provenance is not `rulebook`, each once, in the order they were read: those
    its check read as it ran (`Ruleset.reads`, recorded by the lookups), then those the
    state carries from earlier reads (`Ruleset.consulted`: a deck's counts, a shot's
    window) and the terms of its derivation (`Ruleset.derive`)."""
    out: list[Reliance] = []
    seen: set[tuple[str, str]] = set()
    derived = ruleset.derive(state, event)
    later = [] if derived is None else [(n, e, (f,)) for n, e, f in derived.reads]
    for name, entry, fields in (*ruleset.reads(state, event),
                                *ruleset.consulted(state, event), *later):
        for f in fields:
            if (name, f) in seen:
                continue
            seen.add((name, f))
            prov = provenance_of(entry, f)
            if prov != RULEBOOK:
                out.append(Reliance(name, f, _value(getattr(entry, f, None)), prov))
    return out


# -- what a check reads: the lookups record it as it happens -------------------------------

Read = tuple[str, Any, str]  # (the entry's name, the entry, the field read)


_NOT_VALUES = frozenset({"name", "provenance"})  # an entry's key and its label: not values


class Recorded:
    """A component entry whose field reads are written down (name, entry, field) as the
    rules make them; everything else it answers as the entry does."""

    __slots__ = ("_entry", "_log", "_name")

    def __init__(self, entry: Any, name: str, log: list[Read]):
        self._entry, self._name, self._log = entry, name, log

    def __getattr__(self, field: str) -> Any:
        value = getattr(self._entry, field)
        if field not in _NOT_VALUES:
            self._log.append((self._name, self._entry, field))
        return value

    def __eq__(self, other: object) -> bool:
        same: bool = self._entry == (other._entry if isinstance(other, Recorded) else other)
        return same

    def __hash__(self) -> int:
        return hash(self._entry)


def _entries(table: Any, log: list[Read]) -> Any:
    """Returns `table` (name -> entry, or a dict of such) with each entry `Recorded`, or
    `table` itself when it holds no component entries."""
    if not isinstance(table, dict) or not table:
        return table
    values = list(table.values())
    if all(isinstance(v, msgspec.Struct) for v in values):
        return {k: Recorded(v, str(k), log) for k, v in table.items()}
    if all(isinstance(v, dict) for v in values):
        inner = {k: _entries(v, log) for k, v in table.items()}
        return table if all(inner[k] is table[k] for k in table) else inner
    return table


class _Derived(dict[Any, Any]):
    """A table tabulated from one field of the entries (name -> that field, reshaped): a
    lookup of `name` is a read of `entries[name].field`."""

    def __init__(self, table: dict[Any, Any], entries: dict[Any, Any], field: str,
                 log: list[Read]):
        super().__init__(table)
        self._source, self._field, self._log = entries, field, log

    def __getitem__(self, key: Any) -> Any:
        if key in self._source:
            self._log.append((str(key), self._source[key], self._field))
        return super().__getitem__(key)

    def get(self, key: Any, default: Any = None) -> Any:
        return self[key] if key in self else default


class Tabulating(Protocol):
    """A lookup table tabulated from one field of a table of component entries, each named by
    its field of the game's lookup tables (`engine.kit.contract.Tabulated`)."""

    @property
    def table(self) -> str: ...
    @property
    def entries(self) -> str: ...
    @property
    def field(self) -> str: ...


def recording(lk: Any, log: list[Read], tabulated: Iterable[Tabulating] = ()) -> Any:
    """Returns a copy of a game's lookup tables whose component entries write down every
    field the rules read into `log` (for a ruling, never on the path that judges a log).
    A table the game tabulates from one field of its entries (its `Extras.tabulated`)
    records a lookup in it as a read of that field. Each table is read as the field of the
    tables' Struct it is declared as (`__struct_fields__`)."""
    tables = dict(zip(lk.__struct_fields__, msgspec.structs.astuple(lk), strict=True))
    changes = {}
    for f, table in tables.items():
        recorded = _entries(table, log)
        if recorded is not table:
            changes[f] = recorded
    for t in tabulated:
        changes[t.table] = _Derived(tables[t.table], tables[t.entries], t.field, log)
    return msgspec.structs.replace(lk, **changes)


def grouped(log: list[Read]) -> list[tuple[str, Any, tuple[str, ...]]]:
    """Returns recorded reads as `consulted` yields them: per entry, its fields, in order."""
    order: dict[tuple[str, int], tuple[str, Any, list[str]]] = {}
    for name, entry, f in log:
        _, _, fields = order.setdefault((name, id(entry)), (name, entry, []))
        if f not in fields:
            fields.append(f)
    return [(n, e, tuple(fs)) for n, e, fs in order.values()]


# -- the arithmetic of a ruling: a computed value with its terms ---------------------------

class Term(msgspec.Struct, frozen=True, omit_defaults=True):
    """One term of a computed value: what it is, its value, where it comes from (a card's
    value in the components, an ability, a rule) and that source's provenance."""

    term: str
    value: int
    source: str
    provenance: str
    detail: str = ""  # what the term is of, e.g. "A6M Zero, air"


class Derivation(msgspec.Struct, dict=True):
    """A value a check computed, e.g. a shot's window, and the terms it summed; `reads`
    (not encoded) holds the component values the computation read, for `rests_on`."""

    what: str  # e.g. "needs 4-8"
    result: int
    terms: tuple[Term, ...]

    @property
    def reads(self) -> tuple[Read, ...]:
        """The component values the computation read (`Deriving.done`; not a field: never
        encoded, and none on a derivation decoded or made otherwise)."""
        reads: tuple[Read, ...] = self.__dict__.get("_reads", ())
        return reads

    def sum(self) -> str:
        """Returns the sum as a person checks it: "attack 6 (A6M Zero, air) + ... = 8"; a
        term taken away reads "- cost 1 (Fog of War)"."""
        out = ""
        for i, t in enumerate(self.terms):
            sign = ("- " if t.value < 0 else "") if i == 0 else (" - " if t.value < 0 else " + ")
            out += f"{sign}{t.term} {abs(t.value)}" + (f" ({t.detail})" if t.detail else "")
        return visible(f"{self.what}: {out or 'nothing'} = {self.result}")


class Deriving:
    """Writes down the terms of a computation as the rules make it (`window(..., how=d)`)."""

    def __init__(self) -> None:
        self.terms: list[Term] = []
        self.reads: list[Read] = []

    def read(self, name: str, entry: Any, field: str) -> Any:
        """Returns `entry.field`, noting that the computation read it."""
        self.reads.append((name, entry, field))
        return getattr(entry, field)

    def term(self, term: str, value: int, name: str, entry: Any, field: str,
             detail: str = "") -> int:
        """Notes a term that is (part of) `name`'s `field` (so read); returns `value`."""
        self.reads.append((name, entry, field))
        self.terms.append(Term(term, value, f"components: {name}.{field}",
                               provenance_of(entry, field), detail))
        return value

    def given(self, term: str, value: int, source: str, detail: str = "",
              provenance: str = RECORDED) -> int:
        """Notes a term that is not a component value: one the log gives (a marker's place,
        a count of events: `recorded`) or a number the rulebook prints; returns `value`."""
        self.terms.append(Term(term, value, source, provenance, detail))
        return value

    def done(self, what: str, result: int) -> Derivation:
        """Returns the derivation of `result`, described as `what`, from the terms noted."""
        d = Derivation(what, result, tuple(self.terms))
        vars(d)["_reads"] = tuple(self.reads)  # not a field: never encoded (`Derivation.reads`)
        return d


def provenance_of(entry: Any, field: str) -> str:
    """Returns the provenance of one field of an entry: its own label when the entry labels
    each field, else the entry's; an entry without a label is `reconstructed`."""
    prov = getattr(entry, "provenance", "reconstructed")
    if isinstance(prov, msgspec.Struct):  # a label per field
        prov = getattr(prov, field, "reconstructed")
    return str(prov)


def _value(value: Any) -> str:
    data = msgspec.to_builtins(value)
    if isinstance(data, list | tuple):
        return "/".join(str(v) for v in data) or "none"
    if isinstance(data, dict):
        return ", ".join(f"{k} {v}" for k, v in data.items()) or "none"
    if isinstance(data, bool):
        return "yes" if data else "no"
    return "none" if data is None else str(data)


UNKNOWN = ("the component values it rests on are not known here (the event was read "
           "before a checkpoint or lies past the undo depth): `tabletape explain` names them")


def unknown(why: str) -> str:
    """Returns the sentence for a ruling whose values are not known here, saying why."""
    return (f"the component values it rests on are not known here ({why}): "
            "`tabletape explain` names them")


def ruling_basis(relied: list[Reliance] | None, why: str | None = None) -> str | None:
    """Returns what a ruling's verdict rests on, to print under it, or None when it rests on
    rulebook values only (or on none). `why` says why they are not known (`relied` None)."""
    if relied is None:
        return UNKNOWN if why is None else unknown(why)
    return phrase(relied) if relied else None


def phrase(relied: list[Reliance]) -> str:
    """Returns the sentence an umpire reads, e.g. "rests on values not from the rulebook:
    Anti-Tank Gun's kill (T; reconstructed), ..."; its strings are escaped (they come
    from a components file)."""
    parts = [f"{r.entry}'s {r.field} ({r.value}; {r.provenance})" for r in relied]
    return visible("rests on values not from the rulebook: " + ", ".join(parts))


def ruling_lines(derivation: Derivation | None, relied: list[Reliance] | None,
                 why: str | None = None) -> list[str]:
    """Returns the lines printed under a ruling, wherever it is shown (`explain`, `validate`,
    `note --dispute`, `record`'s `dispute`, `replay --step`, the viewer): its arithmetic,
    then what it rests on. Escaped: they name component data."""
    lines = [] if derivation is None else [derivation.sum()]
    basis = ruling_basis(relied, why)
    return [*lines, basis] if basis is not None else lines
