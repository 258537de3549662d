"""The interactive recorder's logic, apart from any terminal: a scribe's entry in, a reply out.

A `RecordSession` holds the replayed log (its `Fold` and tail), lists the legal
next events as a numbered, grouped listing, resolves what the scribe typed (a
number, a few characters of an entry, a JSON event or a command) and appends
every accepted event durably before it answers. The terminal loop lives in
`tabletape.cli.record`; nothing here prints or imports prompt_toolkit.
"""

from __future__ import annotations

import random
import re
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, NamedTuple

import msgspec

from tabletape import engine
from tabletape.app import entries, vocab
from tabletape.engine import CHANCE, Decision, Ruling, seats
from tabletape.tape import log as tapelog
from tabletape.tape.errors import IllegalEvent, LogFormatError, StaleWriter, TapeError, UsageError
from tabletape.tape.events import Event, Note, Signed, Undone, event_type

MAX_LIST = 40  # entries shown at once; the rest are reached by typing a few characters
LAST_KEPT = 100  # recent events kept for the `last` command
ENVELOPE = frozenset(("seq", "prev", "at", "by"))

# The imperative of the past participle that ends an event type: `card_deployed` is
# entered as `deploy card …`. Unknown words are used as they are, so a new game works.
VERBS = {
    "accepted": "accept", "chosen": "choose", "dealt": "deal", "decided": "decide",
    "declined": "decline", "deployed": "deploy", "discarded": "discard", "drawn": "draw",
    "ended": "end", "finished": "finish", "fired": "fire", "forgone": "forgo", "built": "build",
    "passed": "pass", "played": "play", "prevented": "prevent", "reduced": "reduce",
    "removed": "remove", "reported": "report", "seized": "seize", "taken": "take",
    "targeted": "target", "traded": "trade", "turned": "turn", "withdrawn": "withdraw",
}

COMMANDS = {
    "undo": "undo [@NAME] — retract the latest effective event (appends `undone`)",
    "note": "note [@NAME] TEXT — append a comment",
    "dispute": "dispute SEQ [@NAME] TEXT — dispute an earlier event; it gets a ruling at once",
    "state": "state [all] — show the table again (all: every field of the state, hidden ones too)",
    "last": "last [N] — show the last N events (5 by default)",
    "auto": "auto — let the tool make the pending chance draws (with --auto-chance)",
    "help": "help — this list",
    "quit": "quit — stop recording (Ctrl-D and Ctrl-C too); everything entered is saved",
}


# -- labels: a short, typeable name for every legal event --------------------------------

def kind_label(cls: type[Event]) -> str:
    """Returns how an event type is entered: `card_deployed` -> `deploy card`."""
    words = event_type(cls).split("_")
    verb = VERBS.get(words[-1], words[-1])
    return " ".join([verb, "-".join(words[:-1])]).strip()


def _defaults(cls: type) -> dict[str, Any]:
    return {f.name: f.default for f in msgspec.structs.fields(cls)}


def field_words(event: Event) -> dict[str, str]:
    """Returns each game field that differs from its default as a short word or phrase."""
    cls = type(event)
    defaults = _defaults(cls)
    ints = [f for f in cls.__struct_fields__
            if f not in ENVELOPE and (_is_int(getattr(event, f)) or _is_int(defaults[f]))]
    out = {}
    for name in cls.__struct_fields__:
        value = getattr(event, name)
        if name in ENVELOPE or value == defaults[name] or value is None:
            continue
        word = name.replace("_", "-")
        if isinstance(value, bool):
            out[name] = word if value else f"no-{word}"
        elif isinstance(value, int):
            out[name] = str(value) if len(ints) == 1 else f"{word}={value}"
        elif isinstance(value, (tuple, list, frozenset)):
            out[name] = ", ".join(map(str, value))
        elif isinstance(value, dict):
            out[name] = " ".join(f"{k}={v}" for k, v in value.items())
        elif isinstance(value, str):
            out[name] = value
        else:
            out[name] = msgspec.json.encode(value).decode()
    return out


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def words(text: str) -> list[str]:
    """Returns the lower-case words a label is matched by (split on spaces, commas, `=`)."""
    return [w for w in re.split(r"[\s,=]+", text.lower()) if w]


def matches(tokens: list[str], label: str) -> bool:
    """Returns True when every typed token starts some word of the label (in any order)."""
    ws = words(label)
    return all(any(w.startswith(t) for w in ws) for t in tokens)


class Entry(NamedTuple):
    """One legal next event as the scribe sees it."""

    number: int  # its number in the listing shown; 0 when it is not shown
    group: str  # the group's heading: the kind and what all its entries share
    label: str  # unique in the listing, typeable: `deploy card bob Tank 2`
    item: str  # what the listing shows under the heading: `Tank 2`
    event: Event
    sentence: str
    weight: int  # for chance outcomes: how many ways (cards of that kind left)


@dataclass
class Listing:
    """The legal next events, grouped by kind, the first MAX_LIST of them numbered."""

    entries: list[Entry]  # every legal event, in display order
    hidden: dict[str, int] = field(default_factory=dict)  # group -> entries not shown

    @property
    def shown(self) -> list[Entry]:
        return [e for e in self.entries if e.number]

    def groups(self) -> list[tuple[str, list[Entry]]]:
        """Returns the shown entries by group, in display order."""
        out: dict[str, list[Entry]] = {}
        for e in self.entries:
            out.setdefault(e.group, [])
            if e.number:
                out[e.group].append(e)
        return list(out.items())


def listing(ruleset: engine.Ruleset[Any, Any, Any], state: Any, events: list[Event] | None = None,
            limit: int = MAX_LIST) -> Listing:
    """Returns the legal next events (or the given subset) grouped, labelled and numbered."""
    decision = ruleset.pending(state)
    if events is None:
        events = list(ruleset.legal(state)) if decision is not None else []
    chance = decision is not None and decision.actor == CHANCE
    groups = _labelled(events)
    quota = _quotas([len(rows) for rows in groups.values()], limit)
    entries, number, hidden = [], 0, {}
    for (group, rows), shown in zip(groups.items(), quota, strict=True):
        for i, (label, item, ev) in enumerate(rows):
            n = 0
            if i < shown:
                number += 1
                n = number
            weight = ruleset.weight(state, ev) if chance else 1
            entries.append(Entry(n, group, label, item, ev, engine.describe(ruleset, ev), weight))
        if len(rows) > shown:
            hidden[group] = len(rows) - shown
    return Listing(entries, hidden)


def _labelled(events: list[Event]) -> dict[str, list[tuple[str, str, Event]]]:
    """Returns the events by group heading, each with its unique label and its item text.

    A group is one kind of event; its heading also names the fields all its events
    share (`deploy card bob`), so that the items show only what differs (`Tank 2`).
    """
    by_kind: dict[str, list[Event]] = {}
    for ev in events:
        by_kind.setdefault(kind_label(type(ev)), []).append(ev)
    out: dict[str, list[tuple[str, str, Event]]] = {}
    seen: dict[str, int] = {}
    for kind, evs in by_kind.items():
        fws = [field_words(ev) for ev in evs]
        names = [n for n in type(evs[0]).__struct_fields__ if n not in ENVELOPE]
        same = [n for n in names if len(evs) > 1 and n in fws[0]
                and all(fw.get(n) == fws[0][n] for fw in fws)]
        group = " ".join([kind, *(fws[0][n] for n in same)])
        rows = out.setdefault(group, [])
        for ev, fw in zip(evs, fws, strict=True):
            label = " ".join([kind, *(fw[n] for n in names if n in fw)])
            item = " ".join(fw[n] for n in names if n in fw and n not in same)
            item = item if len(evs) > 1 and item else label  # a kind of its own: the label
            seen[label] = seen.get(label, 0) + 1
            if seen[label] > 1:  # a field we cannot show may be all that differs
                label, item = f"{label} #{seen[label]}", f"{item} #{seen[label]}"
            rows.append((label, item, ev))
    return out


def _quotas(sizes: list[int], limit: int) -> list[int]:
    """Returns how many entries of each group to show: shared out one at a time, in turn."""
    quota = [0] * len(sizes)
    left = limit
    while left > 0 and any(q < s for q, s in zip(quota, sizes, strict=True)):
        for i, s in enumerate(sizes):
            if left and quota[i] < s:
                quota[i] += 1
                left -= 1
    return quota


# -- the session -------------------------------------------------------------------------

@dataclass
class Reply:
    """What the session answers to one entry; the terminal loop renders it."""

    recorded: list[tuple[int, Event]] = field(default_factory=list)  # written, with their seq
    refusal: TapeError | None = None  # nothing was written
    choices: Listing | None = None  # several entries match what was typed
    ruling: Ruling | None = None  # the ruling on a dispute just recorded
    message: str | None = None
    drawn: int = 0  # how many of `recorded`, at the end, the tool drew (--auto-chance)
    show: str | None = None  # "state" | "last" | "help"
    count: int = 5  # for "last"
    arg: str = ""  # for "state": "all" shows every field
    offer: str | None = None  # a JSON event filled in from the table, offered as the next entry
    quit: bool = False
    refused: bool = False  # what was typed was not taken (a refusal, no match, a bad command)

    def __post_init__(self) -> None:
        self.refused = self.refused or self.refusal is not None


class RecordSession:
    """A log open for recording: its state, the listing shown, and durable appends."""

    def __init__(self, path: str, *, by: str | None = None, auto_chance: int | None = None,
                 clock: Callable[[], str | None] = lambda: None) -> None:
        self.path = path
        self.by = by
        self.clock = clock  # returns the `at` of a new event (None leaves it out)
        self.rng = random.Random(auto_chance) if auto_chance is not None else None
        self.recent: deque[tuple[int, Event]] = deque(maxlen=LAST_KEPT)
        self.offer: str | None = None  # what an empty entry (Enter) records: `fill_in`
        self.load()

    # -- opening ---------------------------------------------------------------------
    def load(self) -> None:
        """(Re)reads the log; refuses a torn, corrupt or invalid one with the reason."""
        self.recent.clear()

        result = engine.replay(self.path, visit=lambda j: self.recent.append((j.seq, j.event)))
        if result.error is not None:
            raise result.error
        if result.fold is None or result.ruleset is None or result.tail is None:
            raise LogFormatError("no header", file=self.path, line=1)
        if not result.ok:
            first = result.problems[0]
            first.reason += ("; the recorder opens only valid logs (undo it with "
                             f"`tabletape undo {self.path}` or see `tabletape validate`)")
            raise first
        self.ruleset, self.fold, self.tail = result.ruleset, result.fold, result.tail
        self.header = result.header
        self.shown = self.listing()
        tapelog.check_writable(self.path)  # before the session starts, not at its first entry

    def last(self, n: int) -> list[tuple[int, str | None, str, int | None]]:
        """Returns the last n events: seq, who recorded it, its sentence, the undo's seq."""
        out = list(self.recent)[-n:] if n > 0 else []
        return [(seq, ev.by, engine.describe(self.ruleset, ev), self.fold.retracted.get(seq))
                for seq, ev in out]

    @property
    def state(self) -> Any:
        return self.fold.state

    @property
    def decision(self) -> Decision | None:
        return self.ruleset.pending(self.state)

    @property
    def next_seq(self) -> int:
        return self.tail.seq + 1

    def listing(self) -> Listing:
        """Returns the numbered legal next events, and makes it the list numbers refer to."""
        self.full = self.shown = listing(self.ruleset, self.state)
        return self.shown

    def completions(self, text: str, limit: int = 100) -> list[Entry]:
        """Returns the legal entries that what was typed so far narrows down to."""
        tokens = words(text)
        return [e for e in self.full.entries if matches(tokens, e.label)][:limit]

    # -- entries ---------------------------------------------------------------------
    def handle(self, text: str) -> Reply:
        """Answers one line the scribe typed: a number, an entry, a JSON event or a command."""
        text, offer, self.offer = text.strip(), self.offer, None
        if not text and offer:  # Enter on the event the recorder filled in
            text = offer
        if not text:
            return Reply(message="type a number, a few characters of an entry, or `help`")
        word, _, rest = text.lstrip(":").partition(" ")
        if word.lower() in COMMANDS:
            return self.command(word.lower(), rest.strip())
        if text.startswith("{"):
            return self.enter_json(text)
        found = self.resolve(text)
        if isinstance(found, Listing):
            return Reply(choices=found)
        if isinstance(found, str):
            return Reply(message=found, refused=True)
        return self.record(found)

    def resolve(self, text: str) -> Event | Listing | str:
        """Returns the legal event an entry names, the matching entries when several do,
        or why none does."""
        if text.isdigit():
            n = int(text)
            for e in self.shown.entries:
                if e.number == n:
                    return e.event
            last = len(self.shown.shown)
            return (f"no entry {n} in the list shown (1-{last})" if last
                    else "there is nothing to choose: " + self._nothing())
        everything = self.full.entries
        exact = [e for e in everything if " ".join(words(e.label)) == " ".join(words(text))]
        if len(exact) == 1:
            return exact[0].event
        tokens = words(text)
        found = [e for e in everything if matches(tokens, e.label)]
        if len(found) == 1:
            return found[0].event
        if not found:
            return (f"no legal entry matches {text!r}; type part of a name from the list, "
                    "a number, a JSON event, or `help`")
        self.shown = listing(self.ruleset, self.state, [e.event for e in found])
        return self.shown

    def _nothing(self) -> str:
        o = self.ruleset.outcome(self.state)
        return o.summary if o else "no legal event"

    def enter_json(self, text: str) -> Reply:
        """Records a full JSON event (game fields only), after the same checks as `append`.

        An event that leaves out fields the table decides (`Ruleset.implied`) is not recorded
        yet: it is offered filled in, to be recorded by Enter or changed first."""
        offer = self.fill_in(text)
        if offer is not None:
            return offer
        try:
            event = entries.event_from(self.ruleset, text, "entry", self.by, self.clock())
        except UsageError as e:
            e.file = None
            return Reply(refusal=e)
        return self.record(event)

    def fill_in(self, text: str) -> Reply | None:
        """Returns the offer of `text`'s event with the fields it leaves out that the table
        decides filled in (in the event type's order), or None when it leaves none out."""
        try:
            body = msgspec.json.decode(text.encode(), type=dict[str, Any])
        except (msgspec.DecodeError, msgspec.ValidationError):
            return None  # `entries.event_from` says what is wrong with it
        kind = body.get("type")
        cls = vocab.event_types(self.ruleset).get(kind) if isinstance(kind, str) else None
        if cls is None:
            return None
        filled = {k: v for k, v in self.ruleset.implied(self.state, body).items()
                  if k not in body}
        if not filled:
            return None
        order = ["type", *(f for f in cls.__struct_fields__ if f not in ENVELOPE)]
        whole = {**body, **filled}
        whole = {k: whole[k] for k in sorted(whole, key=lambda k: order.index(k)
                                             if k in order else len(order))}
        self.offer = msgspec.json.encode(whole).decode()
        said = ", ".join(f"{k}={msgspec.json.encode(v).decode()}" for k, v in filled.items())
        return Reply(offer=self.offer, message=f"filled in from the table: {said}; Enter "
                     f"records it as it stands, or change it first: {self.offer}")

    def violation(self, event: Event) -> engine.Violation | None:
        """Returns why an event may not be recorded next, without changing anything."""
        return self.fold.violation(self.next_seq, event)

    def record(self, event: Event) -> Reply:
        """Checks an event, appends it durably, folds it in; then makes owed chance draws."""
        reply = self._write(event)
        if reply.refusal is None:
            if not isinstance(event, Undone):  # after an undo the tool waits (`auto` draws)
                drawn = self.auto_draws()
                reply.recorded += drawn
                reply.drawn = len(drawn)
            self.listing()
        return reply

    def _write(self, event: Event) -> Reply:
        v = self.violation(event)
        if v is not None:
            return Reply(refusal=IllegalEvent(v.reason + "; nothing was written", rule=v.rule,
                                              event=engine.describe(self.ruleset, event), seq=self.next_seq))
        if event.at is None and event.by is None:
            event = msgspec.structs.replace(event, at=self.clock(), by=self.by)
        if self.fold.header.format >= 2:  # a line some seat may not know: salted
            event = seats.salted(self.ruleset, self.fold.state, event,
                                 lambda: entries.fresh_salt(self.next_seq, event))
        try:
            self.tail = tapelog.append(self.path, [event], self.ruleset.codec, expect=self.tail)
        except StaleWriter as e:
            self.load()  # someone else appended: show the table as it now is
            e.reason += "; the log was re-read"
            return Reply(refusal=e)
        seq = self.tail.seq
        self.fold.feed(seq, event)
        self.recent.append((seq, event))
        reply = Reply(recorded=[(seq, event)])
        if isinstance(event, Note) and event.dispute and event.about is not None:
            reply.ruling = self.fold.disputes[-1]
        return reply

    def auto_draws(self) -> list[tuple[int, Event]]:
        """Makes and records every pending chance draw with the seeded RNG (--auto-chance)."""
        out: list[tuple[int, Event]] = []
        while self.rng is not None:
            d = self.decision
            if d is None or d.actor != CHANCE:
                break
            options = list(self.ruleset.legal(self.state))
            weights = self.ruleset.weights(self.state, options)
            reply = self._write(self.rng.choices(options, weights)[0])
            if reply.refusal is not None:  # a rules bug or a stale log: stop drawing
                break
            out += reply.recorded
        if out:
            self.listing()
        return out

    # -- commands --------------------------------------------------------------------
    def command(self, name: str, rest: str) -> Reply:
        """Runs one of COMMANDS."""
        by, rest = _by(rest)
        if by is not None and (stranger := self.stranger(by)):
            return Reply(message=stranger, refused=True)
        match name:
            case "undo":
                target = self.fold.latest()
                last = self.recent[-1] if self.recent else None
                reply = self.record(Undone(target=target, at=self.clock(), by=by or self.by))
                if reply.refusal is None and last is not None and isinstance(last[1], Signed):
                    reply.message = (f"the latest line, seq {last[0]}, is {last[1].player}'s "
                                     "signature, which cannot be undone; this undo retracts "
                                     f"seq {target} (the signature still seals the log through "
                                     f"seq {last[0] - 1})")
                return reply
            case "note":
                if not rest:
                    return Reply(message="usage: " + COMMANDS["note"], refused=True)
                return self.record(Note(text=rest, at=self.clock(), by=by or self.by))
            case "dispute":
                return self._dispute(rest)
            case "last":
                return Reply(show="last", count=int(rest) if rest.isdigit() else 5)
            case "auto":
                if self.rng is None:
                    return Reply(message="start the recorder with --auto-chance SEED to let "
                                 "the tool draw")
                drawn = self.auto_draws()
                return Reply(recorded=drawn, drawn=len(drawn))
            case "quit":
                return Reply(quit=True)
        return Reply(show=name, arg=rest)

    def stranger(self, name: str) -> str | None:
        """Returns why `@name` is refused: it is no player, scribe or earlier speaker of this
        log but close to one (a typo); None when it is one, or a new speaker (an umpire)."""
        known = {*self.header.players, *(ev.by for _, ev in self.recent if ev.by)}
        if self.by:
            known.add(self.by)
        if name in known:
            return None
        close = vocab.close(name, known)
        if not close:
            return None
        return (f"@{name} is not a player of this game: did you mean "
                f"{' or '.join('@' + c for c in close)}? (players: "
                f"{', '.join(self.header.players)}); nothing was written")

    def _dispute(self, rest: str) -> Reply:
        seq, _, text = rest.partition(" ")
        by, text = _by(text.strip())
        if by is not None and (stranger := self.stranger(by)):
            return Reply(message=stranger, refused=True)
        if not seq.isdigit() or not text:
            return Reply(message="usage: " + COMMANDS["dispute"], refused=True)
        return self.record(Note(text=text, about=int(seq), dispute=True, at=self.clock(),
                                by=by or self.by))


def _by(text: str) -> tuple[str | None, str]:
    """Splits a leading `@NAME` (who says it) off a command's text."""
    if text.startswith("@"):
        name, _, rest = text[1:].partition(" ")
        return (name or None), rest.strip()
    return None, text
