"""Which component values a ruling rests on, and where each value comes from.

A game names, per event, the component entries its rules consult and which of their
fields (`Ruleset.consulted`); this module reads each field's value and provenance from
the bound game's components. A ruling "rests on" the values whose provenance is not
`rulebook`: reconstructed, inferred, or only the name from the rulebook (`rulebook-name`).
"""

from __future__ import annotations

from typing import Any

import msgspec

from tabletape.tape.events import visible

RULEBOOK = "rulebook"


class Reliance(msgspec.Struct, frozen=True):
    """One component value a ruling read: whose, which field, its value and its provenance."""

    entry: str
    field: str
    value: str
    provenance: str


def rests_on(ruleset: Any, state: Any, event: Any) -> list[Reliance]:
    """Returns the component values the rules consult on `event` in `state` (the state before
    it) whose provenance is not `rulebook`, in the order the game names them."""
    out: list[Reliance] = []
    for name, entry, fields in ruleset.consulted(state, event):
        for f in fields:
            prov = provenance_of(entry, f)
            if prov != RULEBOOK:
                out.append(Reliance(name, f, _value(getattr(entry, f, None)), prov))
    return out


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


def ruling_basis(relied: list[Reliance] | None) -> str | None:
    """Returns what a ruling's verdict rests on, to print under it, or None when it rests on
    rulebook values only (or on none)."""
    if relied is None:
        return UNKNOWN
    return phrase(relied) if relied else None


def phrase(relied: list[Reliance]) -> str:
    """Returns the sentence an umpire reads, e.g. "rests on values not from the rulebook:
    Anti-Tank Gun's kill (T; reconstructed), ..."; its strings are escaped (they come
    from a components file)."""
    parts = [f"{r.entry}'s {r.field} ({r.value}; {r.provenance})" for r in relied]
    return visible("rests on values not from the rulebook: " + ", ".join(parts))
