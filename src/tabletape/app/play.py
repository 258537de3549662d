"""`tabletape serve FILE --play`: each player enters their own plays from their own phone.

Every seat (each player, and the umpire with `--umpire`) gets a link carrying a secret:
a random token per seat per session (`secrets.token_urlsafe`). A seat's page shows the
table as that seat may see it (the game's `view`: others' hidden cards are never sent),
and, when the game waits on that seat, the legal events it may enter. The shared page
(no token) shows what everyone sees and the verdict.

Writes are POSTs to the seat's own path (the token in the path, never a cookie), from
this server's own origin only (the `Origin` header is checked: a page elsewhere cannot
write), JSON, small and rate-limited. Each write replays the log, refuses a page drawn
before the log moved on (the expected tail), and appends through the checked path
(`entries.append_checked`, `tape.log.append` under the log's lock): one writer, one
hash-chained file, and `append` from a shell beside it still works (the pages follow).

Nothing here prints; `tabletape serve` says the links.
"""

from __future__ import annotations

import hmac
import secrets
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import msgspec

from tabletape import engine
from tabletape.app import entries, pictures, viewer
from tabletape.app.legal import chance_owner
from tabletape.app.record import listing
from tabletape.engine import CHANCE
from tabletape.tape import log as tapelog
from tabletape.tape.errors import IllegalEvent, StaleWriter, TapeError, UsageError
from tabletape.tape.events import Event, Note, Undone, visible

UMPIRE = "umpire"  # the `by` of what the umpire enters
MAX_BODY = 4096  # the largest write a page sends (a note's text and an event)
RATE = (30, 10.0)  # at most 30 writes per seat in 10 seconds (a hand of draws is 8)


@dataclass(frozen=True)
class Seat:
    """Who a link is for: a player (by name), the umpire, or everyone (the shared page)."""

    name: str  # the player's name; "" for the shared page; UMPIRE for the umpire
    umpire: bool = False

    @property
    def player(self) -> str | None:
        """Returns the player this seat plays, or None (the umpire, the shared page)."""
        return None if self.umpire or not self.name else self.name

    @property
    def sees(self) -> str | None:
        """Returns whose view the table is drawn as (None: everything, the umpire's)."""
        return None if self.umpire else self.name


PUBLIC = Seat("")


class Seats:
    """The session's links: one random token per player (and per umpire)."""

    def __init__(self, players: tuple[str, ...], umpire: bool = False,
                 token: Callable[[], str] = lambda: secrets.token_urlsafe(18)):
        self.tokens: dict[str, Seat] = {token(): Seat(p) for p in players}
        if umpire:
            self.tokens[token()] = Seat(UMPIRE, umpire=True)

    def find(self, token: str) -> Seat | None:
        """Returns the seat of a token, or None; compares every token in constant time."""
        found = None
        for known, seat in self.tokens.items():
            if hmac.compare_digest(known.encode(), token.encode()):
                found = seat
        return found

    def links(self) -> list[tuple[Seat, str]]:
        """Returns each seat and its path, players first, in the header's order."""
        return [(seat, f"/p/{token}") for token, seat in self.tokens.items()]


class Refused(Exception):
    """A write refused: its HTTP status and what the page says (with the rule, if one)."""

    def __init__(self, status: int, message: str, rule: str | None = None):
        super().__init__(message)
        self.status, self.message, self.rule = status, message, rule


@dataclass
class UndoAsked:
    """A player's request to undo the latest event, waiting for another's confirmation."""

    by: str
    target: int
    version: str  # the log's version when asked: void once the log moves on


@dataclass
class Table:
    """The log played at: what each seat is shown, and the writes the pages make."""

    path: str
    rules: str | None = None
    asked: UndoAsked | None = None
    _writing: threading.Lock = field(default_factory=threading.Lock, repr=False)
    _recent: dict[str, deque[float]] = field(default_factory=dict, repr=False)

    # -- what a seat sees ------------------------------------------------------------------
    def replayed(self) -> engine.Replay:
        """Returns the log replayed now (raises what makes it unreadable)."""
        result = engine.state_at(self.path, version=self.rules)
        if result.error is not None:
            raise result.error
        if result.fold is None or result.tail is None:
            raise UsageError("the log has no header", file=self.path)
        return result

    def writable(self) -> engine.Replay:
        """Returns the log replayed for a write, or refuses (409) one that cannot be read."""
        try:
            return self.replayed()
        except TapeError as e:
            where = f"line {e.line}: " if e.line is not None else ""
            raise Refused(409, f"the log cannot take a write ({where}{e.reason}); nothing was "
                               "written") from None
        except OSError as e:
            raise Refused(409, f"the log cannot be read ({e.strerror or e}); nothing was "
                               "written") from None

    def shown(self, seat: Seat) -> dict[str, Any]:
        """Returns what `seat`'s page shows now: JSON-ready, never another's hidden cards."""
        try:
            result = self.replayed()
        except (TapeError, OSError, ValueError) as e:
            why = e.reason if isinstance(e, TapeError) else str(e)
            return {"version": f"broken-{hash(why) & 0xffff}", "ok": False,
                    "verdict": visible(f"unreadable: {why}"), "svg": "", "narrow": "", "groups": [],
                    "you": seat.name, "waiting": "", "undo": None}
        fold, rs, tail = result.fold, result.ruleset, result.tail
        assert fold is not None and rs is not None and tail is not None
        ok, verdict = viewer.log_verdict(result)
        version = self.version(tail)
        state = fold.state
        decision = rs.pending(state)
        groups = []
        for group, rows in listing(rs, state, self.offered(result, seat), 10**6).groups():
            groups.append({"group": group, "events": [
                {"item": e.item, "sentence": e.sentence, "label": e.label,
                 "event": msgspec.to_builtins(e.event)} for e in rows]})
        asked = self.asked if self.asked and self.asked.version == version else None
        undo = None
        latest = fold.latest()
        if latest >= 0:
            undo = {"target": latest, "asked_by": asked.by if asked else None,
                    "may_confirm": bool(asked and seat.name and asked.by != seat.name),
                    "may_ask": bool(seat.name) and asked is None}
        outcome = rs.outcome(state)
        hands = getattr(state, "hands", None)  # a player's own hand, listed on the page too
        hand = list(hands.get(seat.player, ())) if seat.player and isinstance(hands, dict) else []
        return {
            "hand": hand,
            "version": version, "ok": ok, "verdict": verdict, "seq": tail.seq,
            "title": rs.title, "you": seat.name, "umpire": seat.umpire,
            "players": list(fold.header.players),
            "svg": pictures.draw(rs, state, seat.sees).svg(),
            "narrow": pictures.draw(rs, state, seat.sees, narrow=True).svg(),  # a phone's
            "waiting": outcome.summary if outcome else decision.detail if decision else "",
            "actor": decision.actor if decision else None,
            "over": outcome is not None,
            "groups": groups, "undo": undo,
            "blocked": bool(fold.blocked),
        }

    def version(self, tail: tapelog.Tail) -> str:
        asked = "-u" if self.asked is not None else ""
        return f"{tail.seq}-{tail.head[:16]}{asked}"

    @staticmethod
    def offered(result: engine.Replay, seat: Seat) -> list[Event]:
        """Returns the legal next events `seat` may enter: the umpire all; a player those of
        their own decisions, and chance's outcomes when they all name that player (a card
        they draw, which only they see) or not one player (public: the first player chosen,
        a stack picked, which anyone at the table may enter); the shared page none."""
        fold, rs = result.fold, result.ruleset
        assert fold is not None and rs is not None
        if not seat.name or fold.blocked:
            return []
        decision = rs.pending(fold.state)
        if decision is None:
            return []
        events = list(rs.legal(fold.state))
        if seat.umpire or decision.actor == seat.name:
            return events
        if decision.actor == CHANCE:  # a draw that names one player is theirs to enter
            named = {getattr(e, "player", None) for e in events}
            if chance_owner(events) == seat.name:
                return Table.unrevealing(fold.state, seat.name, events)
            return events if named == {None} or len(named) > 1 else []
        return []

    @staticmethod
    def unrevealing(state: Any, player: str, draws: list[Event]) -> list[Event]:
        """Returns a player's possible draws as names that tell nothing hidden: the cards
        left in the deck, and the names in the other hands (else a name missing from the
        list would say that another player holds its last copies), sorted by name. The
        player enters the card they hold; one not in the deck is refused as illegal."""
        hands = getattr(state, "hands", None)
        if not isinstance(hands, dict) or len({type(e) for e in draws}) != 1 \
                or not all(isinstance(getattr(e, "card", None), str) for e in draws):
            return draws
        have = {e.card for e in draws}  # type: ignore[attr-defined]
        others = {c for p, hand in hands.items() if p != player for c in hand} - have
        more = [msgspec.structs.replace(draws[0], card=c) for c in others]
        return sorted([*draws, *more], key=lambda e: e.card)  # type: ignore[attr-defined]

    # -- the writes ------------------------------------------------------------------------
    def limit(self, seat: Seat) -> None:
        """Refuses a seat's write past RATE (429)."""
        most, within = RATE
        now = time.monotonic()
        recent = self._recent.setdefault(seat.name, deque())
        while recent and now - recent[0] > within:
            recent.popleft()
        if len(recent) >= most:
            raise Refused(429, f"too many writes: at most {most} in {within:g} seconds; "
                               "wait a moment")
        recent.append(now)

    def _stale(self, result: engine.Replay, expected: Any, event: Event | None) -> None:
        """Refuses a write from a page drawn before the log moved on (409), with the rule
        the event now breaks, if it does."""
        assert result.tail is not None and result.fold is not None
        if expected == self.version(result.tail):
            return
        rule, why = None, ""
        if event is not None:
            v = result.fold.violation(result.tail.seq + 1, event)
            if v is not None:
                rule, why = v.rule, f": now {v.reason}"
        raise Refused(409, f"the table moved on since your page was drawn (the log ends at "
                           f"seq {result.tail.seq}){why}; nothing was written", rule)

    def _append(self, events: list[Event], result: engine.Replay) -> int:
        try:
            written = entries.append_checked(self.path, events, result)
        except StaleWriter:
            raise Refused(409, "the log moved on while writing; nothing was written") from None
        except IllegalEvent as e:
            raise Refused(409, e.reason, e.rule) from None
        except TapeError as e:
            raise Refused(400, e.reason) from None
        self.asked = None
        return written.tail.seq

    def enter(self, seat: Seat, body: dict[str, Any]) -> str:
        """Appends the event a seat pressed (one of those offered to it); returns what was
        written, or raises Refused."""
        raw = body.get("event")
        if not isinstance(raw, dict):
            raise Refused(400, "expected {\"event\": {...}, \"after\": VERSION}")
        with self._writing:
            result = self.writable()
            rs = result.ruleset
            assert rs is not None
            try:
                text = msgspec.json.encode({k: v for k, v in raw.items()
                                            if k not in ("seq", "prev", "at", "by")}).decode()
                event = entries.event_from(rs, text, "the page", None, None)
            except (UsageError, TypeError) as e:
                raise Refused(400, getattr(e, "reason", str(e))) from None
            self._stale(result, body.get("after"), event)
            if event not in self.offered(result, seat):
                raise Refused(403, "that is not an event this seat may enter now; nothing "
                                   "was written")
            who = seat.player or UMPIRE
            event = msgspec.structs.replace(event, by=who, at=entries.now())
            seq = self._append([event], result)
        return f"recorded seq {seq}: {engine.describe(rs, event)}"

    def note(self, seat: Seat, body: dict[str, Any]) -> str:
        """Appends a note (or a dispute of the latest event) from a seat."""
        text = body.get("text")
        if not isinstance(text, str) or not text.strip():
            raise Refused(400, "a note needs some text")
        dispute = bool(body.get("dispute"))
        with self._writing:
            result = self.writable()
            assert result.fold is not None
            self._stale(result, body.get("after"), None)
            latest = result.fold.latest()
            about = latest if dispute else None
            if dispute and latest < 0:
                raise Refused(409, "there is no event to dispute yet", "core.note.about")
            ev = Note(text=text.strip(), about=about, dispute=dispute, at=entries.now(),
                      by=seat.player or UMPIRE)
            seq = self._append([ev], result)
        return f"recorded seq {seq}: {'dispute' if dispute else 'note'}"

    def undo(self, seat: Seat, body: dict[str, Any]) -> str:
        """The umpire undoes the latest event; a player asks, and another player confirms."""
        with self._writing:
            result = self.writable()
            fold, tail = result.fold, result.tail
            assert fold is not None and tail is not None
            self._stale(result, body.get("after"), None)
            target = fold.latest()
            if target < 0:
                raise Refused(409, "there is no event to undo", "core.undo.nothing")
            version = self.version(tail)
            asked = self.asked if self.asked and self.asked.version == version else None
            if seat.umpire:
                events: list[Event] = [Undone(target=target, at=entries.now(), by=UMPIRE)]
            elif asked is None:
                self.asked = UndoAsked(seat.name, target, "")
                self.asked.version = self.version(tail)  # with the request in it
                return (f"asked to undo seq {target}; another player confirms it from their "
                        "page")
            elif asked.by == seat.name:
                raise Refused(409, "you asked already: another player confirms it")
            else:
                events = [Undone(target=target, at=entries.now(), by=asked.by),
                          Note(text=f"{seat.name} confirms the undo of seq {target}",
                               about=target, at=entries.now(), by=seat.name)]
            seq = self._append(events, result)
        return f"recorded seq {tail.seq + 1}: undid seq {target}" + (
            f" (seq {seq}: confirmed)" if len(events) > 1 else "")


def qr_lines(url: str) -> list[str] | None:
    """Returns a QR code of `url` as lines of block characters (two rows of modules per
    line, so a phone's camera reads it off a terminal), or None without `segno`."""
    try:
        import segno
    except ImportError:
        return None
    import io
    out = io.StringIO()
    segno.make(url, error="m").terminal(out=out, compact=True, border=2)
    return out.getvalue().rstrip("\n").split("\n")


def lan_address() -> str:
    """Returns this machine's address on the local network, for links to phones when
    serving on every address (0.0.0.0); 127.0.0.1 when it has none. Sends nothing."""
    import socket
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        try:
            s.connect(("10.255.255.255", 9))  # picks the route; a UDP connect sends nothing
            return str(s.getsockname()[0])
        except OSError:
            return "127.0.0.1"
