"""Rules versions: which released rules judge a log, and what changed between two of them.

A game's `changelog` (version -> {rule id: what changed}) lists its released versions in
order, oldest first. A log records the version it was played under (`rules_version` in
its header) and is judged by that version unless asked otherwise (`--rules`). The
changelog is the single source of a version's behaviour, and each of its differences is
bound there to the rule id it changes (`Rulebook`): a yes/no change is a switch (a bool field
of the game's lookup tables, off under the versions before it), a change that is not yes/no
is a pin (a function field of the tables: the function that judged before it, kept as it
was), and a newer version's field that an older event implies is filled in when the event
is read (`Upcaster`). Every name is checked against the tables when the game class is made
(`check_tables`). See docs/adding-a-game.md, "Rules versions".
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

import msgspec

from tabletape.tape.errors import UsageError

LATEST = "latest"


class Edition(msgspec.Struct, frozen=True):
    """The rules version judging one log, beside the version the log was recorded under."""

    game: str
    judging: str  # a released version of the game
    recorded: str  # the header's `rules_version` (it may name no version this code knows)
    versions: tuple[str, ...]  # the game's released versions, oldest first

    def since(self, version: str) -> bool:
        """Returns whether the judging version includes the changes made in `version`."""
        return self.versions.index(self.judging) >= self.versions.index(version)

    @property
    def differs(self) -> bool:
        return self.judging != self.recorded

    def upcasts(self, version: str) -> bool:
        """Returns whether events recorded under this log's version are read as `version`'s:
        the change came after the recorded version and is in force in the judging one."""
        if self.recorded not in self.versions:
            return False
        at = self.versions.index
        return at(self.recorded) < at(version) <= at(self.judging)


class Upcaster(msgspec.Struct, frozen=True):
    """One change of vocabulary: an event recorded before `version` lacks a field that
    `version`'s rule `rule` needs and the state implies; `fill(lk, state, event)` returns the
    event as `version` would have recorded it (unchanged when there is nothing to fill)."""

    version: str
    rule: str
    event: type
    fill: Callable[[Any, Any, Any], Any]


class Pin(msgspec.Struct, frozen=True):
    """A change that is not yes/no: under the versions before `version` the tables' function
    field (the dict key naming the pin) is `before`, the function that judged rule `rule`
    then, kept unchanged; from `version` on it is the field's default, the current one."""

    version: str
    rule: str
    before: Callable[..., Any]


class Rulebook(msgspec.Struct, frozen=True, kw_only=True):
    """A game's rules and their history, declared once in its catalogue (`rulebook = ...` in
    the game's class): the catalogue, the changelog (version -> {rule id: what changed},
    oldest first, the current version last) and what each version's differences act on.

    `switches`: a bool field of the tables -> (version, rule id); `pins`: a function field of
    the tables -> Pin; `upcasters`: the vocabulary changes read into older events;
    `options_since`: `name` or `name=value` -> (version, rule id), an option a version added;
    `rules_since`: rule id -> (version, the id cited before it, or None); `rules_before`:
    version -> {rule id: the rule as the versions before it read}."""

    rules: dict[str, Any]
    changelog: dict[str, dict[str, str]]
    switches: dict[str, tuple[str, str]] = {}
    pins: dict[str, Pin] = {}
    upcasters: tuple[Upcaster, ...] = ()
    options_since: dict[str, tuple[str, str]] = {}
    rules_since: dict[str, tuple[str, str | None]] = {}
    rules_before: dict[str, dict[str, Any]] = {}


def versions_of(changelog: dict[str, dict[str, str]]) -> tuple[str, ...]:
    """Returns a game's released versions, oldest first (the changelog's order)."""
    return tuple(changelog)


def resolve(game: str, changelog: dict[str, dict[str, str]], recorded: str,
            asked: str | None = None) -> Edition:
    """Returns the edition judging a log recorded under `recorded` when `asked` is requested:
    None for the recorded version (the latest when the log names a version this code does
    not have), `latest`, or a released version; raises UsageError for any other."""
    versions = versions_of(changelog)
    latest = versions[-1]
    if asked is None:
        judging = recorded if recorded in versions else latest
    elif asked == LATEST:
        judging = latest
    elif asked in versions:
        judging = asked
    else:
        raise UsageError(f"{game} has no rules version {asked!r}; its versions: "
                         f"{', '.join(versions)} (or {LATEST})")
    return Edition(game, judging, recorded, versions)


def changed_between(changelog: dict[str, dict[str, str]], older: str, newer: str
                    ) -> dict[str, dict[str, str]]:
    """Returns the changelog entries of the versions after `older` up to `newer` (either
    order: the rules that differ between them); {} when either is not a released version."""
    versions = versions_of(changelog)
    if older not in versions or newer not in versions:
        return {}
    a, b = sorted((versions.index(older), versions.index(newer)))
    return {v: changelog[v] for v in versions[a + 1:b + 1] if changelog[v]}


def check_switches(game: str, changelog: dict[str, dict[str, str]],
                   switches: dict[str, tuple[str, str]]) -> str | None:
    """Returns why a game's switches do not name its changelog's entries, or None."""
    return _unlisted(game, changelog, "switch", "reads",
                     ((flag, v, rule) for flag, (v, rule) in switches.items()))


def check_pins(game: str, changelog: dict[str, dict[str, str]],
               pins: dict[str, Pin]) -> str | None:
    """Returns why a game's pins do not name its changelog's entries, or None."""
    return _unlisted(game, changelog, "pin", "keeps",
                     ((name, pin.version, pin.rule) for name, pin in pins.items()))


def _unlisted(game: str, changelog: dict[str, dict[str, str]], what: str, verb: str,
              bound: Iterable[tuple[str, str, str]]) -> str | None:
    """Returns why one of a game's switches or pins (`what`) names a rule its version's
    changelog entry does not list, or None."""
    for name, version, rule in bound:
        if rule not in changelog.get(version, {}):
            return (f"game {game}: {what} {name!r} {verb} {rule!r} of version {version!r}, "
                    f"which its changelog does not list: add the entry")
    return None


def check_rule_ids(game: str, rules: dict[str, Any], switches: dict[str, tuple[str, str]],
                   pins: dict[str, Pin]) -> str | None:
    """Returns why a switch or a pin is bound to a rule id the game's catalogue lacks, or None."""
    bound = [(f"switch {n!r}", r) for n, (_, r) in switches.items()]
    for what, rule in bound + [(f"pin {n!r}", p.rule) for n, p in pins.items()]:
        if rule not in rules:
            return f"game {game}: {what} is bound to rule {rule!r}, which is no rule of the game"
    return None


def check_tables(game: str, tables: type, switches: dict[str, tuple[str, str]],
                 pins: dict[str, Pin]) -> str | None:
    """Returns why the switches and pins do not name the tables' version fields, or None.

    The fields of a game's tables (`components.Lookups`) that have a default are its versions'
    fields: a bool default is a switch, a function default a pin. Each switch and pin must
    name one (a misspelled name), and each such field must be named (a dangling field: the
    rules would read it under every version alike)."""
    names: tuple[str, ...] = getattr(tables, "__struct_fields__", ())
    defaults: tuple[Any, ...] = getattr(tables, "__struct_defaults__", ())
    fields = dict(zip(names[len(names) - len(defaults):], defaults, strict=True))
    kinds = {f: "switch" if isinstance(d, bool) else "pin" for f, d in fields.items()
             if isinstance(d, bool) or callable(d)}
    where = getattr(tables, "__qualname__", "its tables")
    for kind, named in (("switch", switches), ("pin", pins)):
        for name in named:
            if kinds.get(name) != kind:
                return (f"game {game}: {kind} {name!r} names no {kind} field of {where} "
                        f"(a {'bool' if kind == 'switch' else 'function'} field with a default)")
    for name, kind in kinds.items():
        if name not in switches and name not in pins:
            return (f"game {game}: {where}.{name} is a dangling {kind}: no changelog entry "
                    f"binds it (name it in the rulebook's {kind}{'es' if kind == 'switch' else 's'})")
    return None


def check_upcasters(game: str, changelog: dict[str, dict[str, str]],
                    upcasters: tuple[Upcaster, ...]) -> str | None:
    """Returns why a game's upcasters do not name its changelog's entries, or None."""
    for u in upcasters:
        if u.rule not in changelog.get(u.version, {}):
            return (f"game {game}: an upcaster for {u.rule!r} of version {u.version!r}, "
                    f"which its changelog does not list: add the entry")
    return None


def check_options(game: str, changelog: dict[str, dict[str, str]],
                  options_since: dict[str, tuple[str, str]]) -> str | None:
    """Returns why a game's versioned options do not name its changelog's entries, or None."""
    for option, (version, rule) in options_since.items():
        if rule not in changelog.get(version, {}):
            return (f"game {game}: option {option!r} is new in {version!r} by {rule!r}, "
                    f"which its changelog does not list: add the entry")
    return None


def option_problem(options: Any, options_since: dict[str, tuple[str, str]],
                   edition: Edition) -> str | None:
    """Returns why the judging version does not have an option the header sets (the first
    whose version came after it: `name` set to anything but its default, or `name=value`),
    or None. Read once per log, when the rules are bound."""
    if not options_since or edition.judging not in edition.versions:
        return None
    default = type(options)()
    for option, (version, rule) in options_since.items():
        if edition.since(version) or version not in edition.versions:
            continue
        name, _, value = option.partition("=")
        got = getattr(options, name, None)
        if (str(got) == value) if value else (got != getattr(default, name, None)):
            return (f"option {option if value else name} is not in {edition.game} rules "
                    f"{edition.judging}: rules {version} added it ({rule})")
    return None


def check_rules_since(game: str, changelog: dict[str, dict[str, str]],
                      rules_since: dict[str, tuple[str, str | None]],
                      rules_before: dict[str, dict[str, Any]]) -> str | None:
    """Returns why a game's rules added by a version (`rules_since`: rule id -> (version, the
    id cited before it)) do not name its changelog's entries, or a rule restated by a version
    (`rules_before`: version -> {rule id: the rule as the versions before it read}) is no
    version's or no rule of the game's, or None. (A restatement of words alone, with no
    change of behaviour, needs no changelog entry.)"""
    for rule, (version, _) in rules_since.items():
        if rule not in changelog.get(version, {}):
            return (f"game {game}: rule {rule!r} is new in {version!r}, which its changelog "
                    f"does not list: add the entry")
    for version in rules_before:
        if version not in changelog:
            return f"game {game}: rules restated in {version!r}, which is not a version"
    return None


def catalogue_of(rules: dict[str, Any], versions: tuple[str, ...], version: str,
                 rules_since: dict[str, tuple[str, str | None]],
                 rules_before: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """Returns the rule catalogue of `version`: without the rules a later version added, and
    with each rule a later version restated as the oldest such restatement had it."""
    if version not in versions:
        return dict(rules)
    at = versions.index(version)
    later = versions[at + 1:]
    out = {r: rule for r, rule in rules.items()
           if r not in rules_since or rules_since[r][0] not in later}
    for v in reversed(later):  # newest first, so the oldest restatement is the one kept
        out.update({r: rule for r, rule in rules_before.get(v, {}).items() if r in out})
    return out


def cited_as(ids: tuple[str, ...], catalogue: dict[str, Any],
             rules_since: dict[str, tuple[str, str | None]]) -> tuple[str, ...]:
    """Returns rule ids as a version with this catalogue cites them: an id it does not have
    becomes the id cited before it was added (or is left out), without repeats."""
    out: list[str] = []
    for rule in ids:
        r: str | None = rule
        while r is not None and r not in catalogue:
            r = rules_since.get(r, ("", None))[1]
        if r is not None and r not in out:
            out.append(r)
    return tuple(out)
