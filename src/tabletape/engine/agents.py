"""Agents that play a seat knowing only what that seat may know.

What a seat knows of a game is its `Knowledge`: every event so far as the seat saw it (an
event another seat could not tell from others of its type, by the game's own `view`, is
masked to its type), the seat's view after each masked event and now, and its own legal
events. `knowledge` is the one door from a game in progress to an agent: the agents below
decide from it alone, so two games that differ only in what the seat cannot see give them
the same knowledge, and with the same seed the same move.

- `random`: uniform among the legal events (today's `simulate`).
- `mc`: flat Monte Carlo over sampled worlds, then in each world each of its legal events
  played once, to the end, at random; it plays the event with the best share of wins.
  `budget` is the playouts per decision. A world is dealt by the game's own `determinize`
  (engine.kit.contract.Extras) where it has one: the cards the seat cannot see dealt into
  the places it cannot see, from its view now alone. Elsewhere (and where that finds none)
  it is searched for: every masked event resampled (chance's by weight, a player's
  uniformly) among the outcomes of its type that give the seat the view it had, and the
  visible events replayed (a world where one becomes illegal is repaired or rejected).
"""

from __future__ import annotations

import functools
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from tabletape.engine.kit.packaged import Packaged
from tabletape.engine.playout import MAX_EVENTS, Game, below_of, randomly, scorer
from tabletape.engine.protocol import CHANCE, Ruleset
from tabletape.tape.errors import UsageError
from tabletape.tape.events import Event

WORLD_TRIES = 2  # searches before a decision gives up on sampling (then: random)
SEARCH_BUDGET = 2000  # outcomes drawn in one search for a world before it is given up
DRAWS = 4  # outcomes drawn for one masked event in one pass
DEPTH = 200  # events a playout plays, where the game keeps a score, before the score judges it


class Masked:
    """An event the seat could not tell from others of its type: only its type is known."""

    __slots__ = ("kind",)

    def __init__(self, kind: type) -> None:
        self.kind = kind

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Masked) and other.kind is self.kind

    def __hash__(self) -> int:
        return hash(self.kind)

    def __repr__(self) -> str:
        return f"Masked({self.kind.__name__})"


@dataclass
class Knowledge:
    """What one seat knows of a game: the events as it saw them, its views after masked
    events (by index), and its view now."""

    seat: str
    seen: list[Event | Masked] = field(default_factory=list)
    views: dict[int, Any] = field(default_factory=dict)
    now: Any = None
    last: list[Any] = field(default_factory=list)  # the agent's: its last world's outcomes
    _state: Any = None  # the referee's: the true state after `seen` (never read by agents)

    def public(self) -> tuple[Any, ...]:
        """Returns everything an agent may read, for comparing two seats' knowledge."""
        return (self.seat, tuple(self.seen), tuple(sorted(self.views.items())), self.now)


def knowledge(rs: Ruleset[Any, Any, Any], game: Game, seat: str, known: Knowledge | None = None) -> Knowledge:
    """Returns (extending `known`) what `seat` knows of `game`: the referee's masking."""
    k = known if known is not None else Knowledge(seat, _state=game.initial)
    state = k._state
    for event in game.events[len(k.seen):]:
        after = rs.apply(state, event)
        decision = rs.pending(state)
        if decision is not None and decision.actor != seat and _hidden(rs, state, event,
                                                                        after, seat):
            k.seen.append(Masked(type(event)))
            k.views[len(k.seen) - 1] = rs.view(after, seat)
        else:
            k.seen.append(event)
        state = after
    k._state = state
    k.now = rs.view(state, seat)
    return k


def _hidden(rs: Ruleset[Any, Any, Any], before: Any, event: Event, after: Any, seat: str) -> bool:
    """Returns whether another event of the same type would have left `seat` the same view."""
    seen = None
    kind = type(event)
    for other in rs.legal(before):
        if type(other) is kind and other != event:
            state = rs.apply(before, other)
            if state != after:
                seen = rs.view(after, seat) if seen is None else seen
                if rs.view(state, seat) == seen:
                    return True
    return False


class RandomAgent:
    """Chooses uniformly among its legal events (the play loop draws it without making
    every event: `uniform`)."""

    name = "random"
    uniform = True

    def choose(self, rs: Ruleset[Any, Any, Any], seat: str, game: Game, options: list[Event],
               rng: random.Random) -> Event:
        return rng.choice(options)


class MonteCarloAgent:
    """Flat Monte Carlo over worlds sampled to agree with the seat's knowledge."""

    def __init__(self, budget: int = 32, depth: int | None = DEPTH) -> None:
        if budget < 1:
            raise UsageError(f"an agent's budget is playouts per decision, at least 1: got {budget}")
        self.budget = budget
        self.depth = depth  # events a playout plays before a score judges it (None: to the end)
        self.name = f"mc:{budget}"
        self._known: dict[int, tuple[Game, Knowledge]] = {}  # (the game kept: ids are reused)
        self.fallbacks = 0  # decisions taken at random because no world could be sampled
        self.decisions = 0
        self.searched = 0  # worlds searched for where the game's own deal found none

    def choose(self, rs: Ruleset[Any, Any, Any], seat: str, game: Game, options: list[Event],
               rng: random.Random) -> Event:
        if len(options) == 1:
            return options[0]
        held = self._known.get(id(game))
        k = knowledge(rs, game, seat, held[1] if held and held[0] is game else None)
        if len(self._known) > 8:
            self._known.clear()
        self._known[id(game)] = (game, k)
        return self.decide(rs, k, options, rng)

    def decide(self, rs: Ruleset[Any, Any, Any], k: Knowledge, options: list[Event],
               rng: random.Random) -> Event:
        """Returns the legal event with the best share of wins over sampled worlds (a tie
        broken at random); the only one without a playout."""
        if len(options) == 1:
            return options[0]
        self.decisions += 1
        wins = [0.0] * len(options)
        tries = [0] * len(options)
        done = 0
        worlds = 0
        deal = dealer(rs)
        while done < self.budget:
            world = dealt_world(rs, deal, k, rng) if deal is not None else None
            if world is None:
                deal = None  # (the game's deal found none: it would not the next time)
                world = sample_world(rs, k, rng, fresh=0.25 if worlds else 0.0)
                self.searched += 1
            worlds += 1
            if world is None:
                self.fallbacks += not done
                break
            for i in rng.sample(range(len(options)), len(options)):
                if done >= self.budget:
                    break
                if rs.check(world, options[i]) is not None:
                    continue
                wins[i] += rollout(rs, rs.apply(world, options[i]), k.seat, rng,
                                   depth=self.depth)
                tries[i] += 1
                done += 1
        if not any(tries):
            return rng.choice(options)
        share = [wins[i] / tries[i] if tries[i] else -1.0 for i in range(len(options))]
        top = max(share)
        return options[rng.choice([i for i, v in enumerate(share) if v == top])]


def dealer(rs: Ruleset[Any, Any, Any]) -> Callable[[Any, str, random.Random], Any | None] | None:
    """Returns the game's own world builder over its tables (`Extras.determinize`: a world
    dealt from a seat's view), or None when the game has none."""
    if isinstance(rs, Packaged):
        determinize = rs.extras.determinize
        if determinize is not None:
            return functools.partial(determinize, rs.lk)
    return None


def dealt_world(rs: Ruleset[Any, Any, Any], deal: Callable[[Any, str, random.Random], Any | None],
                k: Knowledge, rng: random.Random) -> Any | None:
    """Returns a world the game's `deal` builds from the seat's view now (`k.now`, nothing
    else of what it knows), or None when it builds none or one whose view by the seat is
    not that view."""
    world = deal(k.now, k.seat, rng)
    if world is None or rs.view(world, k.seat) != k.now:
        return None
    return world


def sample_world(rs: Ruleset[Any, Any, Any], k: Knowledge, rng: random.Random, fresh: float = 0.0
                 ) -> Any | None:
    """Returns a state that agrees with the seat's knowledge, or None when WORLD_TRIES
    searches fail. A search starts from the outcomes of the seat's last world (its own
    memory: worlds agree with what it knew then, and most still do), each drawn afresh
    with probability `fresh`, so that successive worlds differ."""
    prefix, segments = _segments(k)
    state = rs.initial()
    for event in prefix:  # (no masked event before them: they are as they were)
        state = rs.apply(state, event)
    for attempt in range(WORLD_TRIES):
        init = [e if e is not None and rng.random() >= fresh else None
                for e in k.last[:len(segments)]] if attempt == 0 else []
        found = _search(rs, state, segments, k.seat, rng, init)
        if found is not None and rs.view(found[0], k.seat) == k.now:
            k.last = found[1]
            return found[0]
    return _near(rs, state, segments, k.seat, rng, k.last) if NEAR else None


NEAR = True  # when no world agrees with all the seat knows, play in one that nearly does


def _near(rs: Ruleset[Any, Any, Any], state: Any, segments: list[tuple[type, Any, list[Event]]], seat: str,
          rng: random.Random, last: list[Event | None]) -> Any | None:
    """Returns a world that agrees with the seat's knowledge as far as one pass can make it:
    each masked event given an outcome of its type (the seat's last world's where still
    legal, else one that leaves the seat its view, else any), each
    visible event replayed, or where it has become illegal, the legal event of its type
    most like it (the most values in common: the seat saw bob deploy the Iowa; in this world
    he deploys what he holds). Built from what the seat knows alone, like every world; None
    where an event of some type is not legal at all."""
    names = set(rs.header.players)
    for d, (kind, view, visible) in enumerate(segments):
        options = _shuffled(rs, state, kind, rng)
        if not options:
            return None
        event = last[d] if d < len(last) else None
        if event is None or type(event) is not kind or rs.check(state, event) is not None:
            event = next((e for e in options if rs.view(rs.apply(state, e), seat) == view),
                         options[0])
        state = rs.apply(state, event)
        for v in visible:
            if rs.check(state, v) is not None:
                like = _values(v, names)
                same = [e for e in rs.legal(state) if type(e) is type(v)]
                if not same:
                    return None
                rng.shuffle(same)
                v = max(same, key=lambda e: len(_values(e, names) & like))
            state = rs.apply(state, v)
    return state


def _segments(k: Knowledge) -> tuple[list[Event], list[tuple[type, Any, list[Event]]]]:
    """Returns the visible events before the first masked one, then per masked event its
    type, the view after it and the visible events that follow it."""
    prefix: list[Event] = []
    segments: list[tuple[type, Any, list[Event]]] = []
    for i, seen in enumerate(k.seen):
        if isinstance(seen, Masked):
            segments.append((seen.kind, k.views[i], []))
        else:
            (segments[-1][2] if segments else prefix).append(seen)
    return prefix, segments


def _search(rs: Ruleset[Any, Any, Any], state: Any, segments: list[tuple[type, Any, list[Event]]],
            seat: str, rng: random.Random, init: list[Event | None]
            ) -> tuple[Any, list[Event | None]] | None:
    """Returns a world: every masked event given an outcome of its type (drawn by weight)
    that leaves the seat the view it had and every visible event after it legal.

    A repair search: outcomes are drawn in order; where the world first fails (a visible
    event illegal: a card the seat saw played that the sampled draws never gave, or one it
    drew that they had used up), one masked event at or before the failure is drawn again,
    aimed at the failing event's values (a card's name): either one whose outcome holds such
    a value is given another, or one is given an outcome that holds one (first one that held
    none of them, where some value is given by none). The change is kept unless the world now
    fails earlier, or as late with more of the failing event's values given by no outcome.
    None after SEARCH_BUDGET outcomes tried in vain."""
    n = len(segments)
    outcomes: list[Event | None] = (init + [None] * n)[:n]
    before: list[Any] = [state] * (n + 1)
    budget = [SEARCH_BUDGET]
    names = set(rs.header.players)
    fail, end, culprit = _replay_from(rs, 0, before, outcomes, segments, seat, rng, budget)
    while fail < n:
        if budget[0] <= 0:
            return None
        target = _values(culprit, names) if culprit is not None else set()
        want: set[Any] | None = None
        avoid: set[Any] | None = None
        held = [_values(o, names) if (o := outcomes[d]) is not None else set()
                for d in range(fail + 1)]
        holders = [d for d in range(fail + 1) if held[d] & target]
        missing = target.difference(*held)  # values the failing event needs that no draw gave
        others = [d for d in range(fail + 1) if not held[d] & target]
        if missing and others and rng.random() < 0.6:  # a draw that gave none of them gives one
            j, want = rng.choice(others), missing
        elif holders and rng.random() < 0.5:
            j, avoid = rng.choice(holders), target
        elif target and rng.random() < 0.8:
            j, want = rng.randrange(fail + 1), target
        else:
            j = fail if rng.random() < 0.5 else rng.randrange(fail + 1)
        kept_outcomes, kept_before = outcomes[:], before[:]
        kind, view, _ = segments[j]
        outcomes[j] = _pick(rs, before[j], kind, view, seat, rng, names, want, avoid, budget)
        if outcomes[j] is None:
            outcomes = kept_outcomes
            continue
        again, end2, culprit2 = _replay_from(rs, j, before, outcomes, segments, seat, rng,
                                             budget)
        if again < fail or (again == fail and _missing(culprit2, outcomes, again, names)
                            > _missing(culprit, kept_outcomes, fail, names)):
            outcomes, before = kept_outcomes, kept_before
        else:
            fail, end, culprit = again, end2, culprit2
    return end, outcomes


def _missing(culprit: Event | None, outcomes: list[Event | None], fail: int,
             names: set[str]) -> int:
    """Returns how many of the failing event's values no outcome up to `fail` gave."""
    if culprit is None:
        return 0
    return len(_values(culprit, names).difference(
        *(_values(o, names) for o in outcomes[:fail + 1] if o is not None)))


def _values(event: Event, names: set[str]) -> set[Any]:
    """Returns an event's own text values that name no player (a card, a unit, an area),
    those of a list of them too (the units an emergency deployment shows)."""
    return set(_values_of(event, frozenset(names)))


@functools.lru_cache(maxsize=1 << 16)  # (events are frozen: a search asks the same ones often)
def _values_of(event: Event, names: frozenset[str]) -> frozenset[Any]:
    out: set[Any] = set()
    for f in event.__struct_fields__:
        if f not in ENVELOPE:
            v = getattr(event, f)
            if isinstance(v, str):
                v = (v,)
            if isinstance(v, (tuple, list)):  # (a card named, or several: units revealed)
                out.update(x for x in v if isinstance(x, str) and x not in names)
    return frozenset(out)


ENVELOPE = frozenset({"seq", "prev", "at", "by", "type"})


def _pick(rs: Ruleset[Any, Any, Any], state: Any, kind: type, view: Any, seat: str, rng: random.Random,
          names: set[str], want: set[Any] | None, avoid: set[Any] | None, budget: list[int]
          ) -> Event | None:
    """Returns an outcome of type `kind` that leaves the seat `view`, holding one of `want`
    / none of `avoid` where asked, drawn by weight; None when DRAWS tries find none."""
    tried = 0
    for event in _shuffled(rs, state, kind, rng):
        values = _values(event, names) if want or avoid else set()
        if (want and not values & want) or (avoid and values & avoid):
            continue
        budget[0] -= 1
        tried += 1
        if rs.view(rs.apply(state, event), seat) == view:
            return event
        if tried >= DRAWS:
            break
    return None


def _replay_from(rs: Ruleset[Any, Any, Any], start: int, before: list[Any], outcomes: list[Event | None],
                 segments: list[tuple[type, Any, list[Event]]], seat: str,
                 rng: random.Random, budget: list[int]) -> tuple[int, Any, Event | None]:
    """Replays the world from masked event `start` (its state before: `before[start]`),
    drawing an outcome where there is none or it has become illegal; returns the first
    masked event whose segment fails (len(segments): none), the state reached and the
    visible event that failed (None: no outcome fitted the seat's view)."""
    state = before[start]
    for d in range(start, len(segments)):
        kind, view, visible = segments[d]
        before[d] = state
        event = outcomes[d]
        after = None
        if event is not None and rs.check(state, event) is None:
            after = rs.apply(state, event)
            if rs.view(after, seat) != view:
                after = None
        if after is None:
            for event in _shuffled(rs, state, kind, rng)[:DRAWS]:
                budget[0] -= 1
                after = rs.apply(state, event)
                if rs.view(after, seat) == view:
                    break
                after = None
        if after is None:
            return d, state, None
        outcomes[d] = event
        for v in visible:
            if rs.check(after, v) is not None:
                return d, before[d], v
            after = rs.apply(after, v)
        state = after
    return len(segments), state, None


def _shuffled(rs: Ruleset[Any, Any, Any], state: Any, kind: type, rng: random.Random) -> list[Event]:
    """Returns the legal outcomes of type `kind` in a random order drawn by weight (chance's)."""
    options: list[Event] = [e for e in rs.legal(state) if type(e) is kind]  # type: ignore[misc]
    decision = rs.pending(state)
    if decision is None or decision.actor != CHANCE:
        rng.shuffle(options)
        return options
    keys = [rng.random() ** (1.0 / max(w, 1)) for w in rs.weights(state, options)]
    return [options[i] for i in sorted(range(len(options)), key=lambda i: -keys[i])]


def rollout(rs: Ruleset[Any, Any, Any], state: Any, seat: str, rng: random.Random,
            max_events: int = MAX_EVENTS, depth: int | None = None) -> float:
    """Returns the seat's share of the win after random play from `state` to the end (each
    event drawn as `playout.play` draws it, without making every legal one); with `depth`,
    a game whose state carries a score is played that many events at most, and one still
    going is judged by its score then: the seat's share of the lead."""
    draw, apply = randomly(rs), rs.apply
    rand, below = rng.random, below_of(rng)
    score_of = scorer(rs)  # (a game that keeps no running score plays to the end)
    for _ in range(max_events if depth is None or score_of is None else depth):
        move = draw(state, rand, below)
        if move is None:
            break
        state = apply(state, move[1])
    else:
        if depth is not None and score_of is not None:
            score = score_of(state)
            best = max(score.values())
            top = [p for p, v in score.items() if v == best]
            return 1.0 / len(top) if seat in top else 0.0
    outcome = rs.outcome(state)
    if outcome is None or seat not in outcome.winners:
        return 0.0
    return 1.0 / len(outcome.winners)


def agent(spec: str) -> Any:
    """Returns the agent named by `spec`: `random`, or `mc` / `mc:BUDGET` (playouts per
    decision); UsageError for any other."""
    name, _, arg = spec.partition(":")
    if name == "random" and not arg:
        return RandomAgent()
    if name == "mc":
        try:
            budget = int(arg) if arg else 32
        except ValueError:
            raise UsageError(f"agent {spec!r}: the budget after `mc:` is a whole number of "
                             "playouts per decision") from None
        return MonteCarloAgent(budget)
    raise UsageError(f"unknown agent {spec!r}: the agents are random and mc[:BUDGET]")


AGENTS = ("random", "mc[:BUDGET]")
