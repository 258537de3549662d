"""A game's vocabulary for people: its event types and their fields, and "did you mean".

Everything here is read off the msgspec types (the same ones the codec checks
against), so what it says cannot drift from what `append` accepts.
"""

from __future__ import annotations

import typing
from collections.abc import Iterable
from typing import Any

import msgspec
from msgspec import UNSET, UnsetType
from msgspec import inspect as mi

from tabletape import engine
from tabletape.tape.errors import TapeError, UsageError
from tabletape.tape.events import Event, is_core
from tabletape.tape.words import counted as counted  # (its home is tape.words)

# The envelope: tabletape fills these in (`by` and `at` may be given)
ENVELOPE = ("seq", "prev", "at", "by")


# -- did you mean --------------------------------------------------------------------------

def close(word: str, known: Iterable[str], n: int = 3) -> list[str]:
    """Returns up to `n` known names closest to `word` (difflib), best first."""
    import difflib  # only when a name is mistyped

    names = sorted({k for k in known if isinstance(k, str)})
    found = difflib.get_close_matches(word, names, n=n, cutoff=0.6)
    if not found:  # a different case, or a prefix, is close too
        low = word.lower()
        found = [k for k in names if k.lower() == low or (len(low) >= 3 and k.lower().startswith(low))][:n]
    return found


def did_you_mean(word: str, known: Iterable[str]) -> str:
    """Returns ` (did you mean 'A' or 'B'?)` for the closest known names, or ''."""
    found = [f"{k!r}" for k in close(word, known) if k != word]
    if not found:
        return ""
    return f" (did you mean {' or '.join(found)}?)"


def names_in(data: Any) -> set[str]:
    """Returns every string in plain data (values and keys): the names a game's data gives."""
    out: set[str] = set()
    stack = [data]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            out.add(item)
        elif isinstance(item, dict):
            out.update(k for k in item if isinstance(k, str))
            stack.extend(item.values())
        elif isinstance(item, (list, tuple)):
            stack.extend(item)
    return out


def hint_for_event(ruleset: engine.Ruleset[Any, Any, Any], event: Event) -> str:
    """Returns a "did you mean" for the first string of an event no player or component names."""
    if is_core(event):
        return ""
    header = ruleset.header
    players = set(header.players) if header is not None else set()
    known = players | names_in(msgspec.to_builtins(getattr(header, "components", None)))
    for f in msgspec.structs.fields(event):
        if f.name in ENVELOPE or f.name == "type":
            continue
        value = getattr(event, f.name)
        for v in value if isinstance(value, (tuple, list)) else (value,):
            if isinstance(v, str) and v not in known:
                pool = players if f.name in ("player", "target_player", "by") else known
                hint = did_you_mean(v, pool)
                if hint:
                    return f"{v!r} is not a known name{hint}"
    return ""


def event_types(ruleset: engine.Ruleset[Any, Any, Any]) -> dict[str, type[Event]]:
    """Returns the event types a person may append, by their `type` tag (no header)."""
    out: dict[str, type[Event]] = {}
    for cls in typing.get_args(ruleset.union()):
        tag = cls.__struct_config__.tag
        if tag != "game_started":
            out[tag] = cls
    return out


def hint_for_invalid(ruleset: engine.Ruleset[Any, Any, Any], body: dict[str, Any], message: str) -> str:
    """Returns a "did you mean" for msgspec's complaint about a typed event, or ''."""
    types = event_types(ruleset)
    kind = body.get("type")
    if not isinstance(kind, str) or kind not in types:
        return f" (event types: {', '.join(types)})" if kind is None else \
            did_you_mean(str(kind), types) or f" (event types: {', '.join(types)})"
    fields = [f.name for f in msgspec.structs.fields(types[kind]) if f.name != "seq"]
    for name in body:
        if name not in fields and name != "type":
            return did_you_mean(name, fields) or f" (fields of {kind}: {', '.join(fields)})"
    if "unknown field" in message or "missing required field" in message:
        return f" (fields of {kind}: {', '.join(fields)})"
    return ""


# -- types, for people ---------------------------------------------------------------------

def describe(t: mi.Type) -> str:
    """Returns a msgspec type as a person reads it: `int 1..3`, `"short" | "long"`, `[str]`."""
    if isinstance(t, mi.Metadata):
        return describe(t.type)
    if isinstance(t, mi.BoolType):
        return "true | false"
    if isinstance(t, mi.IntType):
        return "int" + _bounds(t.ge if t.ge is not None else (t.gt + 1 if t.gt is not None else None),
                               t.le if t.le is not None else (t.lt - 1 if t.lt is not None else None))
    if isinstance(t, mi.FloatType):
        return "number" + _bounds(t.ge, t.le)
    if isinstance(t, mi.StrType):
        extra = _bounds(t.min_length, t.max_length, " chars") if t.max_length else ""
        return "str" + extra
    if isinstance(t, mi.LiteralType):
        return " | ".join(msgspec.json.encode(v).decode() for v in t.values)
    if isinstance(t, mi.EnumType):
        return " | ".join(msgspec.json.encode(m.value).decode() for m in t.cls)
    if isinstance(t, mi.NoneType):
        return "null"
    if isinstance(t, mi.UnionType):
        return " | ".join(describe(u) for u in t.types)
    if isinstance(t, (mi.ListType, mi.VarTupleType, mi.SetType, mi.FrozenSetType)):
        n = _bounds(t.min_length, t.max_length, " items") if t.max_length else ""
        return f"[{describe(t.item_type)}]{n}"
    if isinstance(t, mi.DictType):
        return f"{{{describe(t.key_type)}: {describe(t.value_type)}}}"
    if isinstance(t, mi.StructType):
        return t.cls.__name__
    return type(t).__name__.removesuffix("Type").lower()


def _bounds(lo: Any, hi: Any, unit: str = "") -> str:
    if lo is None and hi is None:
        return ""
    if hi is None:
        return f" ≥{lo}{unit}"
    return f" {lo if lo is not None else 0}..{hi}{unit}"


class Field(msgspec.Struct, frozen=True):
    """One field of an event type: its name, its type in words, whether it must be given."""

    name: str
    type: str
    required: bool
    default: Any


class EventKind(msgspec.Struct, frozen=True):
    """`events --json`, one per event type: its tag, doc line, fields and one example."""

    type: str
    about: str
    fields: list[Field]
    example: dict[str, Any] | None


def fields_of(cls: type) -> list[Field]:
    """Returns a Struct's fields (the envelope left out): name, type, required, default."""
    info = mi.type_info(cls)
    assert isinstance(info, mi.StructType)
    out = []
    for f in info.fields:
        if f.name in ENVELOPE:
            continue
        default = None if f.required or f.default is msgspec.NODEFAULT else \
            msgspec.to_builtins(f.default)
        out.append(Field(f.name, describe(f.type), f.required, default))
    return out


SEEDS = 8  # games simulated per table (options, players) while an event type is missing
NAMES = ("alice", "bob", "carol", "dave", "erin", "frank")
# Fields that name a player (as `player` does): a made-up example gives them another player
PLAYER_FIELDS = frozenset(("to", "other", "owner", "target_player", "winner"))


_EXAMPLES: dict[tuple[type, str], tuple[dict[str, dict[str, Any]], frozenset[str]]] = {}


def examples(ruleset: engine.Ruleset[Any, Any, Any], made: set[str] | None = None) -> dict[str, dict[str, Any]]:
    """Returns `_examples` of a game, made once per process (a few dozen simulated games)."""
    key = (type(ruleset), ruleset.version)
    if key not in _EXAMPLES:
        out: set[str] = set()
        _EXAMPLES[key] = (_examples(ruleset, out), frozenset(out))
    found, invented = _EXAMPLES[key]
    if made is not None:
        made.update(invented)
    return {tag: dict(body) for tag, body in found.items()}


def _examples(ruleset: engine.Ruleset[Any, Any, Any], made: set[str]) -> dict[str, dict[str, Any]]:
    """Returns one example of each event type, as `append` takes it, from simulated games.

    Games are simulated with the default options, then with each optional rule on in
    turn (a few seeds each), until every type has shown up: such an example is legal in a
    state a game reaches. What never does (a type the default box cannot produce, or a
    core event) gets an example made from its fields and the names the others use: real
    players and components, never a placeholder; its tag is added to `made`.
    """
    from tabletape.engine import simulate

    wanted = set(event_types(ruleset)) - {"signed"}  # written by `sign` only, never played
    found: dict[str, dict[str, Any]] = {}
    lo, hi = ruleset.players
    info = mi.type_info(ruleset.Options)
    assert isinstance(info, mi.StructType)
    variants: list[tuple[int, dict[str, Any], int]] = [(0, {}, max(lo, 2)), (1, {}, min(hi, 4))]
    flags: list[dict[str, Any]] = []
    choices: list[dict[str, Any]] = []
    for f in info.fields:
        t = f.type.type if isinstance(f.type, mi.Metadata) else f.type
        if isinstance(t, mi.BoolType):
            flags.append({f.name: True})
        elif isinstance(t, mi.LiteralType):
            choices += [{f.name: v} for v in t.values if v != f.default]
    # each optional rule on its own, then each with each other choice (a rule that shows
    # only in a long game, say)
    variants += [(0, opts, max(lo, 2)) for opts in [*flags, *choices]]
    variants += [(0, {**c, **f}, max(lo, 2)) for c in choices for f in flags]
    tables = [(seed + more, opts, n) for more in range(SEEDS) for seed, opts, n in variants]
    for seed, opts, n in tables:
        if wanted <= set(found):
            break
        try:
            options = msgspec.convert(opts, ruleset.Options)
            header = simulate.header_for(ruleset, NAMES[:n], options)
            if ruleset.header_problem(header):
                continue
            for event, _ in simulate.play(ruleset, header, seed, max_events=3_000):
                tag = type(event).__struct_config__.tag
                if tag in wanted and tag not in found:
                    body = msgspec.to_builtins(event)
                    found[tag] = {k: v for k, v in body.items() if k not in ENVELOPE}
        except (msgspec.ValidationError, RuntimeError, TapeError):
            continue
    core = {"undone": {"type": "undone", "target": 3},
            "undo_asked": {"type": "undo_asked", "target": 3},
            "undo_refused": {"type": "undo_refused", "target": 3, "asked": 4},
            "note": {"type": "note", "text": "bob's card was seen", "about": 2, "dispute": True}}
    seen = {k: v for body in found.values() for k, v in body.items() if k != "type"}
    for tag, cls in event_types(ruleset).items():
        if tag not in found:
            found[tag] = core.get(tag) or _made_up(tag, cls, seen)
            made.add(tag)
    return {tag: found[tag] for tag in event_types(ruleset)}


def _made_up(tag: str, cls: type, seen: dict[str, Any]) -> dict[str, Any]:
    """Returns an example of an event type made from its required fields' types: a field
    named as one in another example takes that example's value (a card is a card, and
    `cards` are cards), a field naming a player another player than `player`."""
    body: dict[str, Any] = {"type": tag}
    info = mi.type_info(cls)
    assert isinstance(info, mi.StructType)
    for f in info.fields:
        if f.name in ENVELOPE or not f.required:
            continue
        single = f.name.removesuffix("s")
        if f.name in seen:
            body[f.name] = seen[f.name]
        elif f.name in PLAYER_FIELDS:
            body[f.name] = next(p for p in NAMES if p != body.get("player"))
        elif single != f.name and single in seen and isinstance(seen[single], str):
            body[f.name] = [seen[single]]
        else:
            body[f.name] = _sample(f.name, f.type)
    return body


def _sample(name: str, t: mi.Type) -> Any:
    while isinstance(t, mi.Metadata):
        t = t.type
    if isinstance(t, mi.BoolType):
        return True
    if isinstance(t, mi.IntType):
        return t.ge if t.ge is not None else (t.gt + 1 if t.gt is not None else 1)
    if isinstance(t, mi.LiteralType):
        return t.values[0]
    if isinstance(t, mi.EnumType):
        return next(iter(t.cls)).value
    if isinstance(t, mi.UnionType):
        return _sample(name, t.types[0])
    if isinstance(t, (mi.ListType, mi.VarTupleType)):
        return [_sample(name, t.item_type)]
    if isinstance(t, mi.StrType):
        return "alice" if name in ("player", "by", "winner") else name.upper()
    return None


def vocabulary(ruleset: engine.Ruleset[Any, Any, Any]) -> list[EventKind]:
    """Returns each event type with its doc line, fields and one example (for `events`)."""
    ex = examples(ruleset)
    out = []
    for tag, cls in event_types(ruleset).items():
        if tag == "signed":
            continue  # written by `sign` only
        doc = (cls.__doc__ or "").strip().split("\n\n")[0].replace("\n", " ")
        out.append(EventKind(tag, " ".join(doc.split()), fields_of(cls), ex.get(tag)))
    return out


# -- options by their declared type --------------------------------------------------------

_TRUE = ("true", "yes", "on", "1")
_FALSE = ("false", "no", "off", "0")


def option_value(ruleset: engine.Ruleset[Any, Any, Any], key: str, value: Any) -> Any:
    """Returns an option's value parsed by the type the game declares, or refuses it.

    The refusal names the accepted values (and the closest ones), or the known options.
    """
    info = mi.type_info(ruleset.Options)
    assert isinstance(info, mi.StructType)
    by_name = {f.name: f for f in info.fields}
    if key not in by_name:
        raise UsageError(f"--option {key}: {ruleset.id} has no such option"
                         f"{did_you_mean(key, by_name)}; its options: {', '.join(by_name)}")
    t = by_name[key].type
    while isinstance(t, mi.Metadata):
        t = t.type
    text = value if isinstance(value, str) else msgspec.json.encode(value).decode()
    if isinstance(t, mi.BoolType):
        if isinstance(value, bool):
            return value
        if text.lower() in _TRUE + _FALSE:
            return text.lower() in _TRUE
        raise UsageError(f"--option {key}={text}: give true or false "
                         "(also yes/no, on/off, 1/0)")
    if isinstance(t, (mi.LiteralType, mi.EnumType)):
        values = [str(v) for v in t.values] if isinstance(t, mi.LiteralType) else \
            [str(m.value) for m in t.cls]
        if text in values:
            return text if not isinstance(t, mi.EnumType) else t.cls(text)
        raise UsageError(f"--option {key}={text}: not one of {', '.join(values)}"
                         f"{did_you_mean(text, values)}")
    if isinstance(t, mi.IntType):
        try:
            return int(text)
        except ValueError:
            raise UsageError(f"--option {key}={text}: give a whole number "
                             f"({describe(t)})") from None
    return value


def template(value: Any) -> Any:
    """Returns component data as plain data with every field, defaults too (provenance shows)."""
    if isinstance(value, msgspec.Struct):
        return {f.encode_name: template(getattr(value, f.name))
                for f in msgspec.structs.fields(value)}
    if isinstance(value, (list, tuple)):
        return [template(v) for v in value]
    if isinstance(value, dict):
        return {k: template(v) for k, v in value.items()}
    return msgspec.to_builtins(value)


# -- the games and their rules ---------------------------------------------------------------

class Game(msgspec.Struct, frozen=True):
    """`games --json`, one per ruleset: its id, title, version, player counts, options (with
    their defaults) and how many rules its catalogue holds."""

    id: str
    title: str
    version: str
    players: tuple[int, int]
    options: dict[str, Any]
    rules: int


def option_defaults(rs: engine.Ruleset[Any, Any, Any]) -> dict[str, Any]:
    """Returns every option of a game with its default value (as plain data)."""
    default = rs.Options()
    plain = msgspec.to_builtins(default)
    return {f.name: plain.get(f.name, getattr(default, f.name))
            for f in msgspec.structs.fields(default)}


def games() -> list[Game]:
    """Returns every registered ruleset as `games` lists it."""
    return [Game(rs.id, rs.title, rs.version, rs.players, option_defaults(rs),
                 len(rs.RULES)) for rs in engine.all_games()]


class RuleEntry(msgspec.Struct, frozen=True):
    """`rules --json`, by rule id: the rulebook section, our paraphrase, and what each rules
    version changed in it (only for a rule the changelog names)."""

    section: str
    text: str
    changes: dict[str, str] | UnsetType = UNSET


def rules(game: str, rule: str | None = None, version: str | None = None
          ) -> tuple[engine.Ruleset[Any, Any, Any], dict[str, RuleEntry], list[tuple[str, str, str]], str]:
    """Returns a game's rule catalogue under `version` (a version or `latest`; default the
    latest) or only `rule` (refused with the closest ids when that version has no such
    rule), its changelog's entries for those rules (version, rule id, what changed), and the
    version shown."""
    rs = engine.get(game)
    from tabletape.engine.versions import resolve
    shown = resolve(rs.id, rs.changelog or {rs.version: {}}, rs.versions[-1], version).judging
    cat = rs.catalogue(shown)
    if rule is not None:
        if rule not in cat:
            raise UsageError(f"{rs.id} has no rule {rule!r}{did_you_mean(rule, cat)}; "
                             f"`tabletape rules {rs.id}` lists them")
        cat = {rule: cat[rule]}
    changes = [(v, rule_id, what) for v, entries in rs.changelog.items()
               for rule_id, what in entries.items() if rule_id in cat]
    by_rule: dict[str, dict[str, str]] = {}
    for v, rule_id, what in changes:
        by_rule.setdefault(rule_id, {})[v] = what
    return rs, {k: RuleEntry(r.section, r.text, by_rule.get(k, UNSET))
                for k, r in cat.items()}, changes, shown
