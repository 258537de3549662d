"""Global Domination legality: who decides next, `check` with rule ids, the legal next events.

Read alongside the rulebook's sections: Start of the Game and Start of Each Game Turn
here; who decides next in `turn`; Game Terms and The Cards (owed points) in `points`;
Each Game Turn and End of Each Game Turn (card uses, Discards, scoring) in `plays`. `check`
looks up one function per event type (`CHECK`); `legal` filters a candidate set
that covers whatever `check` could accept through `check`, so the two agree (for card
plays, Discards, Builds and Reductions, the parts of `check` a whole group of candidates
shares are asked once for the group: tests/games/test_fast_paths.py pins them to the plain form).
Every function takes the game's `Lookups` (`lk`) first.
"""

from __future__ import annotations

from collections.abc import Collection, Iterator
from itertools import repeat

from tabletape.engine import Violation
from tabletape.engine.kit.turns import by_event, not_in_deck
from tabletape.tape.events import Event

from . import lookups as q
from .components import RESTRICTION_ANY, RESTRICTION_LAND, RESTRICTION_SEA, Lookups, Restriction
from .events import (
    ActionStackChosen,
    CardDrawn,
    CardPlayed,
    CardsDiscarded,
    ChainAnswered,
    FirstPlayerChosen,
    ForceBuilt,
    ForceReduced,
    ForceRemoved,
    ForceSeized,
    GdEvent,
    PlayerTargeted,
    PointsForgone,
    ScoringPassed,
    TurnEnded,
    Use,
)
from .plays import (
    check_discard,
    check_discarder,
    check_done,
    check_held,
    check_play,
    check_taken,
    check_turn_level,
    check_use,
)
from .points import (
    FIXED,
    check_chain,
    check_forgo,
    check_point,
    check_remove,
    check_seize,
    check_spend,
    check_target,
)
from .state import (
    PHASE_FIRST,
    PHASE_OVER,
    PHASE_PLAY,
    PHASE_SCORING,
    PHASE_STACKS,
    STEP_BUILD,
    STEP_CHAIN,
    STEP_DRAW,
    STEP_LAND_MIX,
    STEP_REDUCE,
    STEP_REMOVE,
    STEP_SEIZE,
    STEP_TARGET,
    Owed,
    State,
    Step,
)
from .turn import OWING
from .turn import over as over  # who decides next: the rules' `over` and `pending` are these
from .turn import pending as pending

ZERO = repeat(0)  # the default of each `dict.get` that `map` asks (`_count_plays`)
USES = tuple(Use)  # (iterating the enum itself costs a generator each time)


# START OF THE GAME

def _check_first(lk: Lookups, state: State, ev: FirstPlayerChosen) -> Violation | None:
    if state.phase is not PHASE_FIRST:
        return Violation("gd.setup.first", f"{ev.player} cannot be chosen: the First Player "
                         f"is already {state.first}")
    if ev.player not in state.players:
        return Violation("gd.setup.first", f"{ev.player} is not at the table")
    return None


def _check_stack(lk: Lookups, state: State, ev: ActionStackChosen) -> Violation | None:
    if state.phase is not PHASE_STACKS:
        return Violation("gd.setup.stacks", "the Action stacks are chosen only at set-up, "
                         f"and {len(state.stacks)} are already in use")
    if ev.card not in lk.actions:
        return Violation("gd.setup.stacks", f"{ev.card!r} is not an Action card type of this box")
    if ev.card in state.stacks:
        return Violation("gd.setup.stacks", f"{ev.card} is already one of the stacks in use")
    return None


# START OF EACH GAME TURN

def _check_draw(lk: Lookups, state: State, ev: CardDrawn) -> Violation | None:
    """`_check_draw_plain`, its accepting case asked first: a draw owed by the player, the
    card in their Draw Deck (tests/games/global_domination/test_fast_paths.py pins it)."""
    steps = state.steps
    if steps and (h := steps[0]).step is STEP_DRAW and h.player == ev.player \
            and ev.card in state.decks[ev.player]:
        return None
    return _check_draw_plain(lk, state, ev)


def _check_draw_plain(lk: Lookups, state: State, ev: CardDrawn) -> Violation | None:
    if v := OWING.refuse(lk, state, (STEP_DRAW,), ev.player, "draw"):
        return v
    if ev.card not in state.decks[ev.player]:
        return not_in_deck("gd.draw.in-deck", f"{ev.card!r} is not in {ev.player}'s Draw Deck",
                           state.decks[ev.player])
    return None


CHECK = by_event(_check_first, _check_stack, _check_draw, check_play, check_discard,
                 check_point, check_remove, check_seize, check_target, check_chain,
                 check_forgo, check_done)


def check(lk: Lookups, state: State, event: Event) -> Violation | None:
    """Returns why the event is illegal in this state, or None."""
    judge = CHECK.get(type(event))
    if judge is None:
        return Violation("gd.play.step", f"{type(event).__name__} is not a Global Domination event")
    return judge(lk, state, event)


# -- legal: candidates filtered through `check`, and chance's weights -------------------------


def legal(lk: Lookups, state: State) -> Iterator[GdEvent]:
    """Yields every legal next event; chance outcomes once per kind of card."""
    d = pending(lk, state)
    if d is None:
        return
    if state.phase is PHASE_FIRST:
        yield from (FirstPlayerChosen(player=p) for p in state.players)
        return
    if state.phase is PHASE_STACKS:
        yield from (ActionStackChosen(card=c) for c in lk.actions if c not in state.stacks)
        return
    h = q.head(state)
    if h is not None:
        yield from _legal_step(lk, state, h)
        return
    yield from _legal_plays(lk, state)


def _legal_step(lk: Lookups, state: State, h: Owed) -> Iterator[GdEvent]:
    p = h.player
    if h.step in (STEP_BUILD, STEP_REDUCE, STEP_LAND_MIX):
        # `_step_plain`'s Builds and Reductions through `check_point` with its first part, the
        # step owed, known to pass: the head is `h` and `h.player` owes it (pinned to it in
        # tests/games/test_fast_paths.py)
        if h.step is not STEP_REDUCE:
            yield from (ForceBuilt(player=p, area=a) for a in lk.areas
                        if check_spend(lk, state, h, a, True) is None)
        if h.step is not STEP_BUILD:
            yield from (ForceReduced(player=p, area=a) for a in state.board
                        if check_spend(lk, state, h, a, False) is None)
        forgo = PointsForgone(player=p)
        if check(lk, state, forgo) is None:
            yield forgo
        return
    yield from _step_plain(lk, state, h)


def _step_plain(lk: Lookups, state: State, h: Owed) -> Iterator[GdEvent]:
    """Every answer to the step owed that `check` accepts, in order."""
    p = h.player
    cands: list[GdEvent] = []
    match h.step:
        case Step.DRAW:
            cands = [CardDrawn(player=p, card=c) for c in state.decks[p]]
        case Step.BUILD | Step.REDUCE | Step.LAND_MIX:
            if h.step is not STEP_REDUCE:
                cands += [ForceBuilt(player=p, area=a) for a in lk.areas]
            if h.step is not STEP_BUILD:
                cands += [ForceReduced(player=p, area=a) for a in state.board]
        case Step.REMOVE:
            cands = [ForceRemoved(player=p, area=a) for a in lk.in_region.get(h.region, ())]
        case Step.SEIZE:
            cands = [ForceSeized(player=p, area=a) for a in state.board]
        case Step.TARGET:
            cands = [PlayerTargeted(player=p, target=t) for t in state.players]
        case Step.CHAIN:
            cands = [ChainAnswered(player=p, joined=True), ChainAnswered(player=p, joined=False)]
    cands.append(PointsForgone(player=p))
    yield from (e for e in cands if check(lk, state, e) is None)


def _legal_plays(lk: Lookups, state: State) -> Iterator[GdEvent]:
    # Every card play, Discard, end of turn and scoring pass through its whole `check`,
    # with what the candidates share checked once: each player's turn level, the Discarder,
    # each stack a Discard may take, each set of discarded cards (tests/games/test_fast_paths.py
    # pins it to the plain definition: every candidate through `check`)
    for p in state.players:
        if check_turn_level(lk, state, p, "card play") is not None:
            continue
        for c in dict.fromkeys(state.hands[p]):
            for u in USES:
                ev = CardPlayed(player=p, card=c, use=u)
                if check_use(lk, state, ev) is None:
                    yield ev
    if state.phase is PHASE_PLAY and state.current:
        p = state.current
        if check_discarder(lk, state, p) is None:
            taken = [k for k in state.stacks if check_taken(lk, state, p, k) is None]
            for cards in discard_sets(state.hands[p], lk.discard_any_order) if taken else ():
                if check_held(state, p, cards) is None:
                    for k in taken:
                        yield CardsDiscarded(player=p, cards=cards, taken=k)
        done = TurnEnded(player=p)
        if check(lk, state, done) is None:
            yield done
    if state.phase is PHASE_SCORING and q.scorer(state):
        passed = ScoringPassed(player=q.scorer(state) or "")
        if check(lk, state, passed) is None:
            yield passed


def discard_sets(hand: tuple[str, ...], any_order: bool = True) -> list[tuple[str, ...]]:
    """Returns the cards a Discard may name from this hand: one, or two of them."""
    kinds = list(dict.fromkeys(hand))
    sets: list[tuple[str, ...]] = [(a,) for a in kinds]
    # gd.use.discard2: the two cards in either order (a pair of one kind has one spelling);
    # under rules 1.0 in alphabetical order only
    sets += [(a, b) for a in kinds for b in kinds
             if (a != b or hand.count(a) > 1) and (any_order or a <= b)]
    return sets


def count_sets(hand: tuple[str, ...], kinds: Collection[str], any_order: bool = True) -> int:
    """Returns `len(discard_sets(hand, any_order))`, none made: each kind alone, each two
    kinds (in either order, or alphabetical only), each kind held twice as a pair
    (`kinds`: the hand's distinct cards)."""
    k = len(kinds)
    pairs = k * (k - 1) if any_order else k * (k - 1) // 2
    doubles = 0 if len(hand) == k else sum(1 for c in kinds if hand.count(c) > 1)
    return k + pairs + doubles


def nth_set(hand: tuple[str, ...], kinds: tuple[str, ...], j: int,
            any_order: bool = True) -> tuple[str, ...]:
    """Returns `discard_sets(hand, any_order)[j]` without making the others: the kinds alone,
    then the pairs a first card at a time (pinned in tests/games/global_domination)."""
    if j < len(kinds):
        return (kinds[j],)
    j -= len(kinds)
    for i, a in enumerate(kinds):
        # what `a` goes with: any kind but itself, itself too when held twice; under rules
        # 1.0 only itself (held twice) and the kinds after it (`kinds` is sorted)
        twice = hand.count(a) > 1
        if any_order:
            row = kinds if twice else kinds[:i] + kinds[i + 1:]
        else:
            row = kinds[i:] if twice else kinds[i + 1:]
        if j < len(row):
            return (a, row[j])
        j -= len(row)
    raise IndexError(f"no discard set {j} past the last of {hand}")


def weight(lk: Lookups, state: State, event: Event) -> int:
    """Returns how many copies of the drawn card the Draw Deck holds (chance's odds)."""
    if isinstance(event, CardDrawn):
        return state.decks[event.player].get(event.card, 0)
    return 1


def weights(lk: Lookups, state: State, events: list[GdEvent]) -> list[int]:
    """Returns each event's `weight`, in one pass."""
    decks = state.decks
    return [decks[e.player].get(e.card, 0) if isinstance(e, CardDrawn) else 1 for e in events]


# -- count: how many events `legal` yields, none of them built -------------------------------


def count(lk: Lookups, state: State) -> int:
    """Returns `len(list(legal(lk, state)))` (corpus check asks it after every event): the
    same candidates as `legal`, each group counted where `check` accepts all of it or none
    (pinned to `legal` in tests/games/global_domination/test_fast_paths.py)."""
    phase = state.phase
    if phase is PHASE_OVER:  # `pending` is None: nothing is legal
        return 0
    if phase is PHASE_FIRST:
        return len(state.players)
    if phase is PHASE_STACKS:
        return sum(1 for c in lk.actions if c not in state.stacks)
    steps = state.steps
    if steps:
        h = steps[0]
        if h.step is STEP_DRAW:  # gd.draw.in-deck: one event per kind of card in the Draw Deck
            return len(state.decks[h.player])
        return _count_step(lk, state, h)
    return _count_plays(lk, state)


def _count_step(lk: Lookups, state: State, h: Owed) -> int:
    """The answers to the step owed that `check` accepts (`_legal_step`, counted)."""
    p, step = h.player, h.step
    board = state.board
    # gd.step.forgo: every step but a draw, a target and a chain may be forgone unless a must
    n = 0 if step in FIXED or h.must else 1
    if step is STEP_DRAW:  # gd.draw.in-deck: one event per kind of card in the Draw Deck
        return len(state.decks[p])
    if step is STEP_BUILD or step is STEP_REDUCE or step is STEP_LAND_MIX:
        if step is not STEP_REDUCE:
            n += _count_builds(lk, state, p, h.restriction)
        if step is not STEP_BUILD:
            n += _count_reductions(lk, state, p, h.restriction, h.target)
        return n
    if step is STEP_REMOVE:  # check_remove: a Force in the Region, one's own only if `own`
        return n + sum(1 for a in lk.in_region.get(h.region, ())
                       if (f := board.get(a)) is not None and (h.own or f.owner != p))
    if step is STEP_SEIZE:  # check_seize: a Struggling Land Force, a token for another's
        free = q.has_supply(lk, state, p)
        return n + sum(1 for a, f in board.items()
                       if not f.full and q.is_land(lk, a) and (f.owner == p or free))
    if step is STEP_TARGET:  # check_target: another player at the table
        return sum(1 for t in state.players if t != p)
    if step is STEP_CHAIN:  # check_chain: declining always; joining with a Force to Reduce
        return 1 + bool(q.reduce_areas(lk, state, p, RESTRICTION_ANY))
    return n + sum(1 for e in _step_plain(lk, state, h))  # (no other step: the plain count)


def _count_builds(lk: Lookups, state: State, p: str, restriction: Restriction) -> int:
    """The Areas `check_spend` lets `p` Build in: `q.build_areas`, counted (the supply
    counted once, as `q.can_build` does; a restriction that is the Area's kind alone read
    from the tables of Land and Sea Areas)."""
    board = state.board
    free = q.has_supply(lk, state, p)
    if restriction is RESTRICTION_ANY:  # every empty Area of the map, each own Struggling Force
        empty = len(lk.areas) - len(lk.areas.keys() & board.keys()) if free else 0
        return empty + sum(1 for f in board.values() if f.owner == p and not f.full)
    if restriction is RESTRICTION_LAND or restriction is RESTRICTION_SEA:
        # the same within the Areas of that kind
        kind = lk.land_set if restriction is RESTRICTION_LAND else lk.sea_set
        empty = len(kind) - len(kind & board.keys()) if free else 0
        return empty + sum(1 for a, f in board.items()
                           if f.owner == p and not f.full and a in kind)
    return sum(1 for a in lk.land if ((f := board.get(a)) is None and free
                                      or f is not None and f.owner == p and not f.full)
               and q.in_zone(lk, state, p, a, restriction))


def _count_reductions(lk: Lookups, state: State, p: str, restriction: Restriction,
                      target: str) -> int:
    """The Forces `check_spend` lets `p` Reduce: `q.reduce_areas`, counted."""
    board = state.board
    if restriction is RESTRICTION_ANY:  # the target's Forces, or every opposing one
        owners = list(map(q.OWNER, board.values()))
        return owners.count(target) if target else len(owners) - owners.count(p)
    if restriction is RESTRICTION_LAND or restriction is RESTRICTION_SEA:  # of that kind
        kind = lk.land_set if restriction is RESTRICTION_LAND else lk.sea_set
        return sum(1 for a, f in board.items() if a in kind
                   and (f.owner == target if target else f.owner != p))
    return sum(1 for a, f in board.items() if (f.owner == target if target else f.owner != p)
               and q.in_zone(lk, state, p, a, restriction))


def _count_plays(lk: Lookups, state: State) -> int:
    """The card plays, Discards, ends of turn and scoring passes `check` accepts
    (`_legal_plays`, counted): each held kind of card by its uses (`Lookups.uses`), the
    Discards as the sets of cards times the stacks they may take."""
    phase = state.phase
    if phase is not PHASE_PLAY and phase is not PHASE_SCORING:  # check_turn_level refuses
        return 0
    hands = state.hands
    n = 0
    if phase is PHASE_PLAY:
        p = state.current
        other = lk.anytime_text
        for who in state.players:  # (in C: the kinds with a use on another's turn counted;
            if who != p and not other.isdisjoint(hands[who]):  # a card of no box has none)
                n += len(other.intersection(hands[who]))
        if not p:
            return n
        hand = hands[p]
        kinds = set(hand)
        n += sum(map(lk.uses.get, kinds, ZERO))  # each kind's uses on one's own turn
        # check_taken: a stack in use, not empty, whose cost the Logistical marker can pay
        # (the stacks left, less those with a cost the marker cannot pay: lk.costs)
        stacks, lg, low = state.stacks, state.logistics[p], lk.tracks.logistics.low
        taken = len(stacks) - list(stacks.values()).count(0)
        if lg - lk.dearest < low:  # (else every cost is payable)
            for card, cost in lk.costs.items():
                if stacks.get(card, 0) != 0 and lg - cost < low:
                    taken -= 1
        if taken:
            n += count_sets(hand, kinds, lk.discard_any_order) * taken
        return n + 1  # TurnEnded
    who_scores = q.scorer(state)
    for who in state.players:
        n += len((lk.at_scoring if who == who_scores else lk.anytime).intersection(hands[who]))
    return n + bool(who_scores)  # ScoringPassed
