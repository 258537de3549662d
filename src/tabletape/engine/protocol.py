"""The game protocol: what a game provides, and the verdicts the engine speaks in."""

from __future__ import annotations

import copy
from abc import ABC, abstractmethod
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, ClassVar, Generic, Protocol, Self, TypeVar

import msgspec

from tabletape.engine.seats import CHANCE as _CHANCE
from tabletape.engine.seats import Held, Secret
from tabletape.engine.versions import (
    Edition,
    Pin,
    Upcaster,
    catalogue_of,
    cited_as,
    option_problem,
    resolve,
    versions_of,
)
from tabletape.tape.codec import Codec
from tabletape.tape.errors import UsageError
from tabletape.tape.events import CORE_EVENTS, FORMAT, Event, Header
from tabletape.tape.events import Header as AnyHeader  # (inside Ruleset, `Header` is the game's)

if TYPE_CHECKING:
    from tabletape.engine.kit.svg import Drawing

CHANCE = _CHANCE  # the actor of every random outcome: chance is treated as a player (seats)
MAX_UNDO_DEPTH = 1000  # how far back `undone` may reach; keeps replay memory bounded


class Decision(msgspec.Struct, frozen=True):
    """Who must decide next (a player or `chance`) and what kind of decision it is."""

    actor: str
    kind: str
    detail: str = ""


class Violation(msgspec.Struct, frozen=True):
    """Why an event is illegal: a rule id from the catalogue and a reason in terms of the state."""

    rule: str
    reason: str


class Rule(msgspec.Struct, frozen=True):
    """A catalogue entry: the rulebook section it comes from and our own paraphrase."""

    section: str
    text: str


class Outcome(msgspec.Struct, frozen=True):
    """Who won and the final scores, once the game is over."""

    winners: tuple[str, ...]
    scores: dict[str, int]
    summary: str


CORE_RULES: dict[str, Rule] = {
    "core.header.first": Rule("DESIGN: the log", "Only line 0 may be the `game_started` header."),
    "core.game.over": Rule("DESIGN: ruleset protocol",
                           "Once the game is over no further game event may be recorded."),
    "core.undo.nothing": Rule("DESIGN: core events", "`undone` needs an effective event to retract."),
    "core.undo.latest": Rule("DESIGN: core events",
                             "`undone` retracts the latest effective event and names it by seq."),
    "core.undo.depth": Rule("DESIGN: reliability",
                            f"`undone` reaches back at most {MAX_UNDO_DEPTH} events."),
    "core.note.about": Rule("DESIGN: core events", "A note may only be about an earlier event."),
    "core.ask.by": Rule("docs/format.md: undo requests",
                        "An undo request, and an answer to one, say who made them (`by`)."),
    "core.ask.latest": Rule("docs/format.md: undo requests",
                            "An undo request names the latest effective event: the one an "
                            "`undone` recorded in its place would retract."),
    "core.ask.none": Rule("docs/format.md: undo requests",
                          "An answer (`undone` or `undo_refused` with `asked`) names an "
                          "earlier `undo_asked` line that stood."),
    "core.ask.void": Rule("docs/format.md: undo requests",
                          "Only an open request may be answered: one not yet answered and not "
                          "made void by a later request, a later `undone` or a later game "
                          "event (notes, disputes and signatures leave it open)."),
    "core.ask.self": Rule("docs/format.md: undo requests",
                          "Whoever asked for an undo does not answer their own request; "
                          "another player or the umpire does."),
    "core.ask.target": Rule("docs/format.md: undo requests",
                            "An answer names the same event as the request it answers."),
    "core.secret.hidden": Rule("docs/play.md: who sees what",
                               "An event whose content a seat may not know is shown to that "
                               "seat by its kind only, and so is why it was refused."),
    "core.secret.salt": Rule("docs/format.md: salts",
                             "In a format-2 log every line whose content some seat may not "
                             "know carries a fresh salt of 128 random bits."),
    "core.seat.owner": Rule("docs/play.md: who enters what",
                            "A player enters only the events they own: their own plays and "
                            "their own draws; the umpire and a scribe may enter any."),
    "core.sign.final": Rule("docs/umpire.md: signed heads",
                            "A `signed` event seals every line before it; it changes no game "
                            "state, no game rule judges it, and it cannot be undone."),
}


S_contra = TypeVar("S_contra", contravariant=True)


class RenderModule(Protocol[S_contra]):
    """render.py: the table in the terminal (a rich renderable); the only module with rich.

    `pending` is the line shown under the table as it is: `next: ...` while the game goes
    on, `result: ...` once it is over (`app.pictures.next_text`)."""

    def render(self, game: Any, state: S_contra, pending: str, /) -> Any: ...


class SvgModule(Protocol[S_contra]):
    """svg.py: the table as SVG (`engine.kit.svg.Drawing`); `pending` as for `render`; `width`
    the picture's width (`engine.kit.svg.NARROW` for a phone), the game's own by default."""

    def draw(self, game: Any, state: S_contra, pending: str, width: int = ..., /) -> Drawing: ...


H = TypeVar("H", bound=Header)  # the game's header type
S = TypeVar("S")  # the game's state type
E = TypeVar("E", bound=Event)  # the game's events (their union)


class Ruleset(ABC, Generic[H, S, E]):
    """A game: what it is, how its logs start, its rules and its words (never its pictures).

    `registry.get` returns the game unbound: enough to start a log, decode one, or
    describe an event. `bind(header)` returns it bound to one game's header (its
    players, options and components, prepared once), which is what the rules need:
    `initial`, `pending`, `check`, `apply`, `legal`, `outcome` and `view` are only
    called on a bound ruleset. Drawing a state lives in the game's `render` and `svg`
    modules, which a game names (`kit.contract.drawn`) and the rules never import.
    """

    id: ClassVar[str]
    version: ClassVar[str]
    # The rules' history: version -> {rule id: what changed in that version}; the current
    # version is a key. `corpus check` names the rules changed since a log's version.
    changelog: ClassVar[dict[str, dict[str, str]]] = {}
    # The changes the rules read (engine.versions): a flag on the game's lookup tables ->
    # (the version, the changelog's rule id); and the vocabulary changes read into old events.
    switches: ClassVar[dict[str, tuple[str, str]]] = {}
    pins: ClassVar[dict[str, Pin]] = {}  # a function field of the tables -> the one judging before
    upcasters: ClassVar[tuple[Upcaster, ...]] = ()
    # The options a version added: `name` (any value but the default) or `name=value` ->
    # (the version, the changelog's rule id); a log naming one is not a game of an older version.
    options_since: ClassVar[dict[str, tuple[str, str]]] = {}
    # The rules a version added: rule id -> (the version, the id the versions before it cite
    # instead, or None); and the rules a version restated: version -> {rule id: the rule as
    # the versions before it read}. A version's catalogue and citations are its own.
    rules_since: ClassVar[dict[str, tuple[str, str | None]]] = {}
    rules_before: ClassVar[dict[str, dict[str, Rule]]] = {}
    title: ClassVar[str]
    players: ClassVar[tuple[int, int]]  # fewest and most players
    Header: ClassVar[type[Header]]
    Options: ClassVar[type[msgspec.Struct]]
    Components: ClassVar[type[msgspec.Struct]]
    events: ClassVar[tuple[type[Event], ...]]  # the game's own events, header excluded
    RULES: ClassVar[dict[str, Rule]]
    # The seats (engine.seats): the field naming each event's owner (None: any player, a
    # public chance outcome), and what of each event some seats may not know.
    OWNERS: ClassVar[dict[type, str | None]]
    SECRETS: ClassVar[dict[type, Secret]] = {}

    header: H  # set on a bound ruleset only
    lk: Any = None  # the game's lookup tables, on a bound ruleset (a `Secret.when` reads them)
    edition: Edition  # set on a bound ruleset only: the version judging, the version recorded
    # The drawings: the game's `render` and `svg` modules, named in its class (`kit.contract.drawn`)
    # and imported the first time they are read, so that the rules never import them.
    render: RenderModule[S]
    svg: SvgModule[S]
    _codec: Codec | None = None

    # -- what a log of this game holds ---------------------------------------------------
    @property
    def codec(self) -> Codec:
        """Returns the decoder/encoder for this game's lines (header, core and game events)."""
        codec: Codec | None = vars(type(self)).get("_codec")  # a variant's own, not its parent's
        if codec is None:
            codec = type(self)._codec = Codec(self.union())
        return codec

    def union(self) -> Any:
        """Returns the tagged union of every event a log of this game may hold."""
        types = (self.Header, *CORE_EVENTS, *self.events)
        u: Any = types[0]
        for t in types[1:]:
            u = u | t
        return u

    @abstractmethod
    def default_components(self) -> Any:
        """Returns the component data the game is played with unless a log brings its own."""

    def start(self, players: tuple[str, ...], options: Any, components: Any) -> H:
        """Returns the header for a new game, or raises UsageError when it cannot be played."""
        make: Any = self.Header  # the game's header has typed `options` and `components`
        header: H = make(format=FORMAT, game=self.id, rules_version=self.version,
                      players=players, options=options, components=components, seq=0)
        problem = self.header_problem(header)
        if problem:
            raise UsageError(problem)
        return header

    def header_problem(self, header: AnyHeader) -> str | None:
        """Returns why no `new` would write this header (players, option mix, components), or None.

        Checked when a header is written and again whenever one is read.
        """
        lo, hi = self.seats(header.options)  # type: ignore[attr-defined]
        n = len(header.players)
        if not lo <= n <= hi:
            need = f"{lo}" if lo == hi else f"{lo} to {hi}"
            return f"{self.id} needs {need} players, got {n}{self.seats_hint(n)}"
        if len(set(header.players)) != n:
            return "player names must differ"
        return self.check_header(header)  # type: ignore[arg-type]

    def seats(self, options: Any) -> tuple[int, int]:
        """Returns the fewest and most players with these options (`players` unless a variant)."""
        return self.players

    def seats_hint(self, n: int) -> str:
        """Returns what would let `n` players play (an option), to follow a refusal, or ""."""
        return ""

    def check_header(self, header: H) -> str | None:
        """Returns why this game cannot start from the header (option mix, components), or None."""
        return None

    @property
    def versions(self) -> tuple[str, ...]:
        """Returns the game's released rules versions, oldest first (its changelog's order)."""
        return versions_of(self.changelog) or (self.version,)

    def edition_for(self, header: AnyHeader, rules: str | None = None) -> Edition:
        """Returns the rules version judging a log with this header: `rules` (a version or
        `latest`) or by default the one it was recorded under; UsageError for an unknown one."""
        return resolve(self.id, self.changelog or {self.version: {}}, header.rules_version, rules)

    def version_problem(self, header: AnyHeader, edition: Edition) -> str | None:
        """Returns why the judging version cannot play this header's game (an option a later
        version added), or None."""
        return option_problem(header.options, self.options_since,  # type: ignore[attr-defined]
                              edition)

    def bind(self, header: H, rules: str | None = None) -> Self:
        """Returns this ruleset bound to one game's header, judging by the version `rules`
        (default: the version the header records); games prepare lookup tables here."""
        bound = copy.copy(self)
        bound.header = header
        bound.edition = self.edition_for(header, rules)
        if self.rules_since and bound.edition.judging != self.versions[-1]:
            # an older version's rulings cite its own rules (ids a later version added left out)
            cat, since, governing = bound.catalogue(), self.rules_since, self.governing
            vars(bound)["governing"] = lambda event: cited_as(governing(event), cat, since)
        return bound

    def upcast(self, state: S, event: E) -> E:
        """Returns the event as the judging version reads it (a bound ruleset's upcasters
        fill the fields its version added that the state implies); usually the event itself."""
        return event

    # -- the rules: called on a bound ruleset --------------------------------------------
    @abstractmethod
    def initial(self) -> S:
        """Returns the state before the first event."""

    @abstractmethod
    def pending(self, state: S) -> Decision | None:
        """Returns who must decide next and what, or None once the game is over."""

    def over(self, state: S) -> bool:
        """Returns whether the game is over (`pending` is None); games override it cheaply."""
        return self.pending(state) is None

    @abstractmethod
    def check(self, state: S, event: E) -> Violation | None:
        """Returns why `event` is illegal in `state`, or None."""

    @abstractmethod
    def apply(self, state: S, event: E) -> S:
        """Returns the state after a legal event."""

    @abstractmethod
    def legal(self, state: S) -> Iterable[E]:
        """Yields every legal next event (chance's outcomes included)."""

    def count(self, state: S) -> int:
        """Returns how many legal next events there are: the length of `legal` (corpus check
        counts them after every event); games count without building every event."""
        return sum(1 for _ in self.legal(state))

    def weight(self, state: S, event: E) -> int:
        """Returns how many ways chance can produce this outcome (cards of that kind left)."""
        return 1

    def weights(self, state: S, events: list[E]) -> list[int]:
        """Returns each event's `weight`, in order; games work out what they share once."""
        return [self.weight(state, e) for e in events]

    @abstractmethod
    def outcome(self, state: S) -> Outcome | None:
        """Returns who won and the scores, once the game is over."""

    @abstractmethod
    def view(self, state: S, player: str) -> S:
        """Returns the state as `player` could see it (others' hands hidden)."""

    @abstractmethod
    def candidates(self, state: S, player: str) -> Iterable[E]:
        """Returns the outcomes of `player`'s own hidden draw now as they can tell them apart
        (the cards they cannot rule out from what they know); never depends on what another
        seat holds (engine.seats)."""

    @abstractmethod
    def held(self, view: S, player: str) -> tuple[Held, ...]:
        """Returns `player`'s own hidden cards, pile by pile, from their own `view`."""

    @abstractmethod
    def drawable(self, state: S, event: E) -> S:
        """Returns `state` with the card a draw names put in its deck in place of another: a
        player's own draw that the deck cannot hold (another seat has the card), which the
        table plays on as made while the umpire rules (engine.Fold.played_on)."""

    # -- the words: sentences and the rules that govern an event --------------------------
    @abstractmethod
    def describe(self, event: E) -> str:
        """Returns one plain sentence for a game event."""

    @abstractmethod
    def governing(self, event: E) -> tuple[str, ...]:
        """Returns the ids of the rules that decide whether this kind of event is legal."""

    def consulted(self, state: S, event: E) -> Iterable[tuple[str, Any, tuple[str, ...]]]:
        """Yields, for a game event in `state` (the state before it), the component values its
        ruling rests on that `check` does not read as it runs, because the state carries them
        from an earlier read (a deck filled from the cards' counts, a table built from the
        units' types): (the entry's name, the entry, the fields). What `check` reads itself
        is recorded (`reads`). The engine reads each field's provenance from the entry
        (`engine.provenance`)."""
        return ()

    def reads(self, state: S, event: E) -> Iterable[tuple[str, Any, tuple[str, ...]]]:
        """Returns what `check` read of the components judging `event` in `state`, recorded
        as it ran (`engine.provenance.recording`); none for a game that records nothing."""
        return ()

    def implied(self, state: S, body: dict[str, Any]) -> dict[str, Any]:
        """Returns the values the table decides for the fields of an event being entered
        (`body`: the fields given so far, with its `type`), which the scribe may then leave
        out: the recorder fills them in and offers the event to confirm or change. The
        event recorded still carries every field; none by default."""
        return {}

    def derive(self, state: S, event: E) -> Any:
        """Returns the arithmetic behind the ruling on `event` in `state` (an
        `engine.provenance.Derivation`: the value computed and its terms), or None when the
        ruling computes nothing. Called only to explain a ruling, never to judge a log."""
        return None

    def catalogue(self, version: str | None = None) -> dict[str, Rule]:
        """Returns the rule catalogue of `version` (default: the judging version of a bound
        ruleset, else the latest) followed by the core rules."""
        edition: Edition | None = vars(self).get("edition")
        v = version or (edition.judging if edition is not None else self.versions[-1])
        own = catalogue_of(self.RULES, self.versions, v, self.rules_since, self.rules_before)
        return {**own, **CORE_RULES}
