"""`tabletape serve FILE --play`: each player enters their own plays from their own phone.

Every seat (each player, and the umpire with `--umpire`) gets a link carrying a secret:
a random token per seat per session (`secrets.token_urlsafe`), or kept in a seats file.
A seat's page shows the table as that seat may see it (the game's `view`: others' hidden
cards are never sent), and, when the game waits on that seat, the legal events it may
enter. The shared page
(no token) shows what everyone sees and the verdict.

Writes are POSTs to the seat's own path (the token in the path, never a cookie), from
this server's own origin only (the `Origin` header is checked: a page elsewhere cannot
write), JSON, small and rate-limited. The table keeps one fold of the log (`live.Folded`:
a look reads only the lines appended since), every seat's page derived from it. Each
write refuses a page drawn before the log moved on (the expected tail), and appends
through the checked path (`entries.append_checked`, folding its event once;
`tape.log.append` under the log's lock): one writer, one hash-chained file, and `append`
from a shell beside it still works (the fold reads its lines on).

Tokens can be kept across restarts (app.seatfile, `--seats`); a rematch moves the table
to a new log with the same links (`Table.rematch`).

Nothing here prints; `tabletape serve` says the links.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import threading
import time
from collections import deque
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import msgspec

from tabletape import engine
from tabletape.app import entries, live, logrows, moves, pictures, seatfile, viewer
from tabletape.app.moment import Moment
from tabletape.app.moves import Step
from tabletape.app.page import Group, JoinCode, Move, Page, Pile, UndoOffer, acts, stage_of
from tabletape.app.record import listing
from tabletape.engine import seats as seating
from tabletape.engine.negotiation import Request
from tabletape.tape import log as tapelog
from tabletape.tape.errors import IllegalEvent, StaleWriter, TapeError, UsageError
from tabletape.tape.events import (
    Event,
    Note,
    UndoAsked,
    Undone,
    UndoRefused,
    envelope,
    is_core,
    visible,
)

UMPIRE = seatfile.UMPIRE  # the `by` of what the umpire enters
MAX_BODY = 4096  # the largest write a page sends (a note's text and an event)
RATE = (30, 10.0)  # at most 30 writes per seat in 10 seconds (a hand of draws is 8)


@dataclass(frozen=True)
class Seat:
    """Who a link is for: a player (by name), the umpire, or everyone (the shared page).

    Seats are kept apart by what they are, not by name: the umpire is `umpire=True` (a
    player may not be named `umpire` in a log played with one: `Seats` refuses it)."""

    name: str  # the player's name; "" for the shared page; UMPIRE for the umpire
    umpire: bool = False

    @property
    def player(self) -> str | None:
        """Returns the player this seat plays, or None (the umpire, the shared page)."""
        return None if self.umpire or not self.name else self.name

    @property
    def sees(self) -> str | None:
        """Returns whose view the table is drawn as: the player's; "" for the shared page
        (what every seat sees: no one's hidden cards); None for the umpire (everything)."""
        return None if self.umpire else self.name


PUBLIC = Seat("")


class Seats:
    """The session's links: one random token per player (and per umpire)."""

    def __init__(self, players: tuple[str, ...], umpire: bool = False,
                 token: Callable[[], str] = seatfile.new_token,
                 kept: Mapping[str, str] | None = None):
        """`kept`: the tokens of a seats file (app.seatfile), by seat name (UMPIRE for the
        umpire); a seat it lacks gets a fresh one."""
        if umpire and UMPIRE in players:
            raise UsageError(f"a player is named {UMPIRE!r}: with --umpire their writes could "
                             "not be told from the umpire's; serve without --umpire")
        kept = kept or {}
        self.tokens: dict[str, Seat] = {kept.get(p) or token(): Seat(p) for p in players}
        if umpire:
            self.tokens[kept.get(UMPIRE) or token()] = Seat(UMPIRE, umpire=True)

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
    """A write refused, and what the page says (with the rule, if one). Nothing was written.

    The web layer gives each kind its HTTP status (tabletape.web.table.STATUS)."""

    def __init__(self, message: str, rule: str | None = None):
        super().__init__(message)
        self.message, self.rule = message, rule


class Malformed(Refused):
    """The write is not one a page sends (no event, an event of no known shape)."""


class NotYours(Refused):
    """The seat may not make this write (another's event; the shared page)."""


class Conflict(Refused):
    """The table is not as the write expects: it moved on, the move is not offered, the
    log cannot take a write, the rules refuse it."""


class TooMany(Refused):
    """The seat wrote too often (RATE)."""


@dataclass
class Table:
    """The log played at: what each seat is shown, and the writes the pages make."""

    path: str
    rules: str | None = None
    flagged: Callable[[str], None] | None = None  # hears a write the umpire must rule on
    _key: bytes = field(default_factory=lambda: secrets.token_bytes(32), repr=False)
    # held while the one fold is read or written (re-entered: a write looks first)
    _writing: threading.RLock = field(default_factory=threading.RLock, repr=False)
    folded: live.Folded = field(init=False, repr=False)  # the log's one fold
    _moment: tuple[int, Moment] | None = field(
        default=None, init=False, repr=False)
    _recent: dict[str, deque[float]] = field(default_factory=dict, repr=False)

    # -- what a seat sees ------------------------------------------------------------------
    def __post_init__(self) -> None:
        self.folded = live.Folded(self.path, self.rules)

    def replayed(self) -> engine.Replay:
        """Returns the log's one fold as it is now, advanced by the lines appended since the
        last look (raises what makes it unreadable). The fold is shared: read it under the
        write lock, or take a `Moment` (`now`)."""
        with self._writing:
            result = self.folded.look()
            if result.error is not None:
                raise result.error
            return result

    def writable(self) -> engine.Replay:
        """Returns the log replayed for a write, or refuses (Conflict) one that cannot be read."""
        try:
            return self.replayed()
        except TapeError as e:
            where = f"line {e.line}: " if e.line is not None else ""
            raise Conflict(f"the log cannot take a write ({where}{e.reason}); nothing was "
                               "written") from None
        except OSError as e:
            raise Conflict(f"the log cannot be read ({e.strerror or e}); nothing was "
                               "written") from None

    def now(self) -> Moment:
        """Returns the table now, as every seat's page is derived from it: taken from the one
        fold under the write lock (a look: a stat, and the new lines if any), kept until the
        fold or the undo request changes."""
        with self._writing:
            try:
                result = self.replayed()
            except (TapeError, OSError, ValueError, RecursionError) as e:
                why = live.why(e)
                return Moment(self._keyed(f"broken-{why}"), visible(f"unreadable: {why}"))
            key = self.folded.moves  # an undo request is a line of the log: it moves it
            if self._moment is not None and self._moment[0] == key:
                return self._moment[1]
            moment = self._moment_of(result)
            self._moment = (key, moment)
            return moment

    def _moment_of(self, result: engine.Replay) -> Moment:
        fold, rs, tail = result.fold, result.ruleset, result.tail
        assert fold is not None and rs is not None and tail is not None
        ok, verdict = viewer.log_verdict(result)
        made = fold.played_on() if fold.blocked else None
        version = self.version(tail)
        top = fold.stack[-1] if fold.stack else None
        over = rs.outcome(fold.state) is not None
        return Moment(version, None, rs=rs, players=tuple(fold.header.players), seq=tail.seq,
                      judged=fold.state, blocked=bool(fold.blocked),
                      made=made[0] if made is not None else None,
                      first_illegal=min(fold.illegal) if fold.illegal else None,
                      ok=ok, verdict=verdict, latest=fold.latest(),
                      request=fold.open_request(),
                      last=(top.seq, top.before, top.event) if top is not None else None,
                      rematch=seatfile.rematch_path(self.path) if over else None)

    def shown(self, seat: Seat, moment: Moment | None = None) -> Page:
        """Returns what `seat`'s page shows (now, or at `moment`), computed from what that
        seat may know (engine.seats): its view of the table, the events offered to it, its
        own hidden cards. Never another's hidden cards, nor a hash of them."""
        m = moment or self.now()
        if m.error is not None:
            return Page(version=m.version, ok=False, verdict=m.error, you=seat.name)
        rs = m.rs
        assert rs is not None
        state, blocked = m.seen_by(seat)
        ok, verdict = m.ok, m.verdict
        if not seat.umpire:
            if blocked:  # the reason may name a hidden card: the umpire's alone
                verdict = f"invalid at seq {m.first_illegal}: the umpire rules on it"
            elif m.blocked and rs.outcome(state) is None:  # a draw played on as made
                ok, verdict = True, "valid"
        decision = rs.pending(state)
        offered = self._offered(rs, state, blocked, seat)
        tree, setting_up = self._moves(rs, state, offered, m.players, seat)
        if setting_up and tree is None:
            offered = []  # another seat sets the table up
        groups = [Group(group, [Move(e.item, e.sentence, e.label, msgspec.to_builtins(e.event))
                                for e in rows])
                  for group, rows in listing(rs, state, offered, 10**6).groups()]
        undo = self.undo_shown(rs, m.latest, m.last, m.request, seat)
        outcome = rs.outcome(state)
        final_svg = final_narrow = final_move = ""
        if outcome is not None and m.last is not None:  # the table the game-ending move found
            seq, before, event = m.last
            final_svg = pictures.draw(rs, before, seat.sees).svg()
            final_narrow = pictures.draw(rs, before, seat.sees, narrow=True).svg()
            final_move = f"seq {seq}: " + engine.describe(
                rs, seating.seen(rs, before, event, seat.sees))
        hand = []
        if seat.player:  # the seat's own hidden cards, read from its own view
            hand = [Pile(h.pile, list(h.cards))
                    for h in rs.held(rs.view(state, seat.player), seat.player)]
        return Page(
            version=m.version, ok=ok, verdict=verdict, you=seat.name, umpire=seat.umpire,
            seq=m.seq, title=rs.title, players=list(m.players),
            svg=pictures.draw(rs, state, seat.sees).svg(),
            narrow=pictures.draw(rs, state, seat.sees, narrow=True).svg(),  # a phone's
            waiting=outcome.summary if outcome else decision.detail if decision else "",
            actor=decision.actor if decision else None, over=outcome is not None,
            groups=groups, moves=tree, setting_up=setting_up, undo=undo, blocked=blocked,
            hand=hand, acting=acts(rs, state, decision), stage=stage_of(rs, state),
            scores=dict(outcome.scores) if outcome else {},
            winners=list(outcome.winners) if outcome else [],
            final_svg=final_svg, final_narrow=final_narrow, final_move=final_move,
            rematch=m.rematch if outcome is not None else None)

    @staticmethod
    def undo_shown(rs: engine.Ruleset[Any, Any, Any], latest: int,
                   top: tuple[int, Any, Event] | None, asked: Request | None,
                   seat: Seat) -> UndoOffer | None:
        """Returns what a seat's page shows of undoing (None: nothing to undo): the latest
        effective event and its sentence as the seat may know it (what the umpire's undo
        confirms with), the open undo request, and what the seat may do: ask, or answer
        another's request (another player, or the umpire)."""
        if latest < 0 or top is None:
            return None
        who = seat.player or (UMPIRE if seat.umpire else None)
        answers = bool(asked and who and asked.by != who)
        # the shared page undoes nothing, so it confirms nothing: no sentence to send it
        said = "" if who is None else logrows.sentence(rs, top[1], top[2], seat.sees)
        return UndoOffer(target=latest, sentence=said,
                         asked=asked.seq if asked else None,
                         asked_by=asked.by if asked else None,
                         may_confirm=answers, may_refuse=answers,
                         may_ask=bool(seat.player) and asked is None)

    @staticmethod
    def _moves(rs: engine.Ruleset[Any, Any, Any], state: Any, offered: list[Event], players: tuple[str, ...],
               seat: Seat) -> tuple[Step | None, str]:
        """Returns the seat's offered events as the builder's steps (app.moves), worded from
        the seat's own view, and who sets the table up while the game is set up: the first
        player (and the umpire) are offered it, the other seats none of it."""
        setup = moves.setting_up(rs, state, offered)
        who = moves.setter(rs, offered, players) if setup else ""
        if setup and not seat.umpire and seat.player != who:
            return None, who
        view = state if seat.player is None else rs.view(state, seat.player)
        return moves.tree(rs, view, offered, setup), who

    def version(self, tail: tapelog.Tail) -> str:
        """Returns the page's version of the log now: a keyed hash (this server's own random
        key), never the chain's head, which a seat could invert by trying the few cards a
        format-1 line may name; it changes with every line (an undo request is one)."""
        return f"{tail.seq}-{self._keyed(tail.head)}"

    def _keyed(self, text: str) -> str:
        return hmac.new(self._key, text.encode(), hashlib.sha256).hexdigest()[:16]

    @staticmethod
    def table(result: engine.Replay, seat: Seat) -> tuple[Any, bool]:
        """Returns the state `seat` is shown and whether the table waits for the umpire. A
        player's own draw that the deck could not hold (another seat has the card) is played
        on as made for every seat but the umpire (engine.Fold.played_on): what they are shown
        is then what a card in the deck would have shown; the umpire sees the log judged."""
        fold, rs = result.fold, result.ruleset
        assert fold is not None and rs is not None
        if not fold.blocked or seat.umpire:
            return fold.state, bool(fold.blocked)
        made = fold.played_on()
        return (fold.state, True) if made is None else (made[0], False)

    @staticmethod
    def offered(result: engine.Replay, seat: Seat) -> list[Event]:
        """Returns the next events `seat` may enter (engine.seats.offered): the umpire every
        legal one; a player the events they own, and for their own hidden draw the cards
        they cannot rule out; the shared page none; nothing while the table waits for the
        umpire."""
        rs = result.ruleset
        assert rs is not None
        return Table._offered(rs, *Table.table(result, seat), seat)

    @staticmethod
    def _offered(rs: engine.Ruleset[Any, Any, Any], state: Any, blocked: bool, seat: Seat) -> list[Event]:
        """`offered`, from the state `table` gives the seat (worked out once per request)."""
        if not (seat.umpire or seat.player) or blocked:
            return []
        return seating.offered(rs, state, None if seat.umpire else seat.player)

    # -- the writes ------------------------------------------------------------------------
    def limit(self, seat: Seat) -> None:
        """Refuses a seat's write past RATE (TooMany)."""
        most, within = RATE
        now = time.monotonic()
        recent = self._recent.setdefault(seat.name, deque())
        while recent and now - recent[0] > within:
            recent.popleft()
        if len(recent) >= most:
            raise TooMany(f"too many writes: at most {most} in {within:g} seconds; "
                               "wait a moment")
        recent.append(now)

    def _stale(self, result: engine.Replay, expected: Any) -> None:
        """Refuses a write from a page drawn before the log moved on (Conflict). It says nothing of
        the event the page sent: whether that event is still legal may turn on a card
        another seat holds."""
        assert result.tail is not None
        if expected == self.version(result.tail):
            return
        raise Conflict(f"the table moved on since your page was drawn (the log ends at "
                           f"seq {result.tail.seq}); nothing was written: look again")

    def _append(self, events: list[Event], result: engine.Replay, force: bool = False) -> int:
        assert result.fold is not None
        if result.fold.blocked and not force and not all(map(is_core, events)):
            # said here, without a rule: the rule append_checked would tag it with is the
            # earlier illegal event's, not one this write breaks
            raise Conflict(f"the table waits for the umpire's ruling on seq "
                           f"{min(result.fold.illegal)}; nothing was written")
        try:  # append_checked folds the events into the one fold as it checks them
            written = entries.append_checked(self.path, events, result, force)
        except StaleWriter:
            self.folded.forget()  # folded, not written: the fold is read again
            raise Conflict("the log moved on while writing; nothing was written") from None
        except IllegalEvent as e:
            self.folded.forget()
            raise Conflict(e.reason, e.rule) from None
        except TapeError as e:
            self.folded.forget()
            raise Malformed(e.reason) from None
        except BaseException:
            self.folded.forget()
            raise
        self.folded.wrote(written.tail, len(events))
        return written.tail.seq

    def game(self) -> engine.Ruleset[Any, Any, Any]:
        """Returns the log's game, from its header alone (no state read)."""
        return logrows.header_of(self.path)[1]

    def rematch(self, seat: Seat, body: dict[str, Any]) -> str:
        """Starts a rematch once the game is over (any seat but the shared page): a new log
        beside this one with the same game, players, options and components (its own draws
        come as it is played), and the table serves it from now on (the same links)."""
        if not (seat.umpire or seat.player):
            raise NotYours("the shared page starts nothing; nothing was written")
        with self._writing:
            result = self.writable()
            fold, rs = result.fold, result.ruleset
            assert fold is not None and rs is not None
            self._stale(result, body.get("after"))
            if rs.outcome(fold.state) is None:
                raise Conflict("the game is not over: a rematch starts once it ends; "
                               "nothing was written")
            new = seatfile.rematch_path(self.path)
            try:
                entries.start_again(new, rs, fold.header, by=seat.player or UMPIRE)
            except (TapeError, OSError) as e:
                raise Conflict(f"the rematch's log cannot be written ({getattr(e, 'reason', e)}); "
                               "nothing was written") from None
            self.path = new
            self.folded, self._moment = live.Folded(new, self.rules), None
        return f"rematch started: {new}"

    def enter(self, seat: Seat, body: dict[str, Any]) -> str:
        """Appends the event a seat pressed; returns what was written, or raises Refused.

        Authority first: a player may enter only the events they own (engine.seats.owner,
        read from the event alone), refused (NotYours) before the log is read or any rule asked.
        Then a page drawn before the log moved on is refused (Conflict), and an event not offered
        to the seat (Conflict), in words that tell nothing of another seat's cards. A player's
        own hidden draw is offered as the cards they cannot rule out; one the deck cannot
        hold (another seat has it) is written all the same and flagged to the umpire, so
        that the answer the drawer gets never depends on another seat's hand."""
        raw = body.get("event")
        if not isinstance(raw, dict):
            raise Malformed("expected {\"event\": {...}, \"after\": VERSION}")
        try:
            rs = self.game()
        except (TapeError, OSError) as e:
            raise Conflict(f"the log cannot take a write ({getattr(e, 'reason', e)}); "
                               "nothing was written") from None
        try:
            text = msgspec.json.encode({k: v for k, v in raw.items()
                                        if k not in ("seq", "prev", "at", "by", "salt")}).decode()
            event = entries.event_from(rs, text, "the page", None, None)
        except (UsageError, TypeError) as e:
            raise Malformed(getattr(e, "reason", str(e))) from None
        if not seat.umpire:
            if seat.player is None:
                raise NotYours("the shared page enters nothing; nothing was written")
            if not seating.may_enter(rs, event, seat.player):
                raise NotYours(f"that is {visible(seating.owner(rs, event) or '')}'s to "
                                   "enter, not yours; nothing was written")
        with self._writing:
            result = self.writable()
            fold, bound, tail = result.fold, result.ruleset, result.tail
            assert fold is not None and bound is not None and tail is not None
            self._stale(result, body.get("after"))
            state, blocked = self.table(result, seat)
            if envelope(event) not in [envelope(e) for e in
                                       self._offered(bound, state, blocked, seat)]:
                raise Conflict("that is not a move offered to you now (your page lists "
                                   "yours); nothing was written")
            who = seat.player or UMPIRE
            event = msgspec.structs.replace(event, by=who, at=entries.now())
            # judged as the player's table stands (a draw played on as made): flagged if not
            flag = None if seat.umpire else bound.check(state, event)
            seq = self._append([event], result, force=flag is not None or bool(fold.blocked))
        if flag is not None and self.flagged is not None:
            self.flagged(f"seq {seq}, entered by {who}, breaks [{flag.rule}]: {flag.reason}; "
                         "the umpire rules on it")
        return f"recorded seq {seq}: {engine.describe(bound, event)}"

    def setup(self, seat: Seat, body: dict[str, Any]) -> str:
        """Sets the table up at random (app.moves.draw_setup): while the game waits on
        chance for its set-up, the server draws every set-up event (with `secrets`) and
        appends them in one write. The seat offered the set-up (its first player) or the
        umpire only."""
        if seat.player is None and not seat.umpire:
            raise NotYours("the shared page enters nothing; nothing was written")
        with self._writing:
            result = self.writable()
            fold, rs, tail = result.fold, result.ruleset, result.tail
            assert fold is not None and rs is not None and tail is not None
            self._stale(result, body.get("after"))
            state, blocked = self.table(result, seat)
            offered = self._offered(rs, state, blocked, seat)
            if not moves.setting_up(rs, state, offered):
                raise Conflict("the table is not being set up now; nothing was written")
            who = moves.setter(rs, offered, fold.header.players)
            if not seat.umpire and seat.player != who:
                raise NotYours(f"{visible(who)} sets the table up, not you; nothing was "
                               "written")
            drawn = moves.draw_setup(rs, state, secrets.SystemRandom(), seat.player)
            if not drawn:
                raise Conflict("there is nothing to set up at random now; nothing was written")
            by, at = seat.player or UMPIRE, entries.now()
            events: list[Event] = [msgspec.structs.replace(e, by=by, at=at) for e in drawn]
            seq = self._append(events, result)
        return (f"recorded seq {tail.seq + 1} to {seq}: set up at random ("
                + "; ".join(engine.describe(rs, e) for e in events) + ")")

    def note(self, seat: Seat, body: dict[str, Any]) -> str:
        """Appends a note, or a dispute of the latest event, in the seat's own words (`text`:
        no text, no line; a dispute is never written with words the player did not give)."""
        dispute = bool(body.get("dispute"))
        text = body.get("text")
        if not isinstance(text, str) or not text.strip():
            raise Malformed("a dispute needs your own words: say why you dispute the last "
                            "event; nothing was written" if dispute else "a note needs some text")
        with self._writing:
            result = self.writable()
            assert result.fold is not None
            self._stale(result, body.get("after"))
            latest = result.fold.latest()
            about = latest if dispute else None
            if dispute and latest < 0:
                raise Conflict("there is no event to dispute yet", "core.note.about")
            ev = Note(text=text.strip(), about=about, dispute=dispute, at=entries.now(),
                      by=seat.player or UMPIRE)
            seq = self._append([ev], result)
        return f"recorded seq {seq}: {'dispute' if dispute else 'note'}"

    def undo(self, seat: Seat, body: dict[str, Any]) -> str:
        """Writes the seat's step of an undo, each a line of the log (docs/format.md, "Undo
        requests"): a player with no request open asks (`undo_asked`); another player, or
        the umpire, answers the open request: accepts (`undone` naming it) or, with
        `"refuse": true`, refuses (`undo_refused`); with none open, the umpire undoes at
        once. `target`, when given, must be the latest effective event (the seq whose
        sentence the page confirmed)."""
        if not (seat.umpire or seat.player):
            raise NotYours("the shared page enters nothing; nothing was written")
        who = seat.player or UMPIRE
        with self._writing:
            result = self.writable()
            fold, rs = result.fold, result.ruleset
            assert fold is not None and rs is not None
            self._stale(result, body.get("after"))
            event = self._undo_step(fold, who, seat.umpire, body)
            seq = self._append([event], result)
        said = f"recorded seq {seq}: {engine.describe(rs, event)}"
        if isinstance(event, UndoAsked):
            said += "; another player (or the umpire) answers it from their page"
        return said

    @staticmethod
    def _undo_step(fold: engine.Fold, who: str, umpire: bool, body: dict[str, Any]) -> Event:
        """Returns the line a seat's undo press writes now, or refuses it (Conflict, the rule)."""
        target = fold.latest()
        if target < 0:
            raise Conflict("there is no event to undo; nothing was written",
                          "core.undo.nothing")
        if "target" in body and body["target"] != target:
            raise Conflict(f"the latest event is seq {target}, not the one your page "
                               "showed; nothing was written: look again", "core.undo.latest")
        asked, now = fold.open_request(), entries.now()
        if asked is not None and asked.by == who:
            raise Conflict("you asked already: another player (or the umpire) answers it; "
                               "nothing was written", "core.ask.self")
        if body.get("refuse") is True:
            if asked is None:
                raise Conflict("there is no undo request to refuse; nothing was written",
                              "core.ask.none")
            return UndoRefused(target=asked.target, asked=asked.seq, at=now, by=who)
        if asked is not None:
            return Undone(target=target, asked=asked.seq, at=now, by=who)
        if umpire:
            return Undone(target=target, at=now, by=who)
        return UndoAsked(target=target, at=now, by=who)


def join_codes(seats: Seats, base: str) -> list[JoinCode]:
    """Returns each seat's join link under `base` (http://HOST:PORT) and its QR code as SVG
    ("" without `segno`)."""
    try:
        import segno
    except ImportError:
        segno = None  # type: ignore[assignment]
    out = []
    for seat, path in seats.links():
        url = base + path
        svg = segno.make(url, error="m").svg_inline(scale=4) if segno is not None else ""
        out.append(JoinCode(UMPIRE if seat.umpire else seat.name, url, svg))
    return out
