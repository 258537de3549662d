"""Global Domination legality: who decides next, `check` with rule ids, the legal next events.

Read alongside the rulebook's sections: Start of the Game, Start of Each Game
Turn, Each Game Turn, End of Each Game Turn, Game Terms and The Cards. `check`
looks up one function per event type (`CHECK`); `legal` filters a candidate set
that covers whatever `check` could accept through `check`, so the two agree (for card
plays, Discards, Builds and Reductions, the parts of `check` a whole group of candidates
shares are asked once for the group: tests/test_fast_paths.py pins them to the plain form).
Every function takes the game's `Lookups` (`lk`) first.
"""

from __future__ import annotations

from collections.abc import Iterator

from tabletape.engine import CHANCE, Decision, Violation
from tabletape.engine.kit.turns import Owing, by_event
from tabletape.tape.events import Event

from . import lookups as q
from .components import Effect, Lookups, Restriction, Timing
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
    PlayerTargeted,
    PointsForgone,
    ScoringPassed,
    TurnEnded,
    Use,
)
from .state import Owed, Phase, State, Step

# the rule that places a restricted card's Builds and Reductions
ZONE_RULE = {Restriction.LAND: "gd.card.airborne", Restriction.SEA: "gd.card.carrier",
             Restriction.NEAR_OWN_SEA: "gd.card.amphibious",
             Restriction.NEAR_OWN_LAND: "gd.card.helicopters"}
ZONE_TEXT = {Restriction.LAND: "a Land Area", Restriction.SEA: "a Sea Area",
             Restriction.NEAR_OWN_SEA: "a Land Area next to a Sea Area they control",
             Restriction.NEAR_OWN_LAND: "a Land Area next to a Land Area they control"}
FIXED = (Step.DRAW, Step.TARGET, Step.CHAIN)  # steps that cannot be forgone
USES = tuple(Use)  # (iterating the enum itself costs a generator each time)


# -- who decides next -------------------------------------------------------------------------


def over(state: State) -> bool:
    """Returns whether the game is over (exactly when `pending` is None)."""
    return state.phase is Phase.OVER


def pending(lk: Lookups, state: State) -> Decision | None:
    """Returns who must decide next and what, or None once the game is over."""
    if state.phase is Phase.OVER:
        return None
    if state.phase is Phase.FIRST:
        return Decision(CHANCE, "first player", "chance names the First Player")
    if state.phase is Phase.STACKS:
        n = len(state.stacks) + 1
        return Decision(CHANCE, "action stack", f"chance picks Action stack {n}")
    h = q.head(state)
    if h is not None:
        if h.step is Step.DRAW:
            return Decision(CHANCE, "draw", f"the card {h.player} draws ({h.points} to draw)")
        return Decision(h.player, h.step.value, owed_text(h))
    if state.phase is Phase.PLAY:
        return Decision(state.current or "", "turn", f"{state.current} plays a card or ends the turn")
    who = q.scorer(state) or ""
    return Decision(who, "scoring", f"{who} may play a scoring card or pass")


def owed_text(h: Owed) -> str:
    """Returns what a step owes, in words ("alice: 4 Builds left from Fog of War")."""
    src = f" from {h.card}" if h.card else ""
    match h.step:
        case Step.BUILD:
            return f"{h.player}: {h.points} Builds left{src}"
        case Step.REDUCE:
            on = f" on {h.target}" if h.target else ""
            return f"{h.player}: {h.points} Reductions{on} left{src}"
        case Step.LAND_MIX:
            return f"{h.player}: {h.points} Land Builds or Reductions left{src}"
        case Step.TARGET:
            return f"{h.player} chooses the player {h.card} is aimed at"
        case Step.REMOVE:
            return f"{h.player} removes a Force in {h.region}{src}"
        case Step.SEIZE:
            return f"{h.player}: {h.points} Insurgent seizures left{src}"
        case Step.CHAIN:
            return f"{h.player} joins {h.card} ({h.points} Reductions) or declines"
    return f"{h.player} draws {h.points}"


# -- check: one function per event type, in the rulebook's order ------------------------------

def _in_setup(state: State, what: str) -> Violation | None:
    """Start of the Game: nothing is owed before the First Player and the stacks are chosen."""
    if state.phase is Phase.FIRST:
        return Violation("gd.setup.first", f"no {what} before the First Player is chosen")
    if state.phase is Phase.STACKS:
        return Violation("gd.setup.stacks", f"no {what} before the Action stacks are chosen")
    return None


# the step owed now, by whom: "no draw now: ... first" (gd.play.step), "bob decides now, not
# alice (...)" (gd.play.order)
OWING: Owing[Lookups, State, Owed] = Owing(
    "gd.play.step", "gd.play.order", pending,
    lambda h, player, what: f"{h.player} decides now, not {player} ({owed_text(h)})", _in_setup)


# START OF THE GAME

def _check_first(lk: Lookups, state: State, ev: FirstPlayerChosen) -> Violation | None:
    if state.phase is not Phase.FIRST:
        return Violation("gd.setup.first", f"the First Player is already {state.first}")
    if ev.player not in state.players:
        return Violation("gd.setup.first", f"{ev.player} is not at the table")
    return None


def _check_stack(lk: Lookups, state: State, ev: ActionStackChosen) -> Violation | None:
    if state.phase is not Phase.STACKS:
        return Violation("gd.setup.stacks", "the Action stacks are chosen only at set-up, "
                         f"and {len(state.stacks)} are already in use")
    if ev.card not in lk.actions:
        return Violation("gd.setup.stacks", f"{ev.card!r} is not an Action card type of this box")
    if ev.card in state.stacks:
        return Violation("gd.setup.stacks", f"{ev.card} is already one of the stacks in use")
    return None


# START OF EACH GAME TURN

def _check_draw(lk: Lookups, state: State, ev: CardDrawn) -> Violation | None:
    h = OWING.owed(lk, state, (Step.DRAW,), ev.player, "draw")
    if isinstance(h, Violation):
        return h
    if ev.card not in state.decks[ev.player]:
        n = sum(state.decks[ev.player].values())
        return Violation("gd.draw.in-deck", f"{ev.card!r} is not in {ev.player}'s Draw Deck "
                         f"({n} cards left)")
    return None


# GAME TERMS: Builds, Reductions, owed points; THE CARDS

def _check_area(lk: Lookups, area: str) -> Violation | None:
    if area not in lk.areas:
        return Violation("gd.map.area", f"there is no area {area!r} on this map")
    return None


def _check_zone(lk: Lookups, state: State, player: str, area: str,
                restriction: Restriction) -> Violation | None:
    if q.in_zone(lk, state, player, area, restriction):
        return None
    return Violation(ZONE_RULE[restriction], f"these points must be spent in "
                     f"{ZONE_TEXT[restriction]}, and {area} is not one for {player}")


def _check_point(lk: Lookups, state: State, ev: ForceBuilt | ForceReduced) -> Violation | None:
    building = isinstance(ev, ForceBuilt)
    steps = (Step.BUILD, Step.LAND_MIX) if building else (Step.REDUCE, Step.LAND_MIX)
    h = OWING.owed(lk, state, steps, ev.player, "Build" if building else "Reduction")
    if isinstance(h, Violation):
        return h
    return _check_spend(lk, state, h, ev.area, building)


def _check_spend(lk: Lookups, state: State, h: Owed, area: str, building: bool
                 ) -> Violation | None:
    """Returns why the player owing `h` cannot spend a Build (or Reduction) in `area`, or None."""
    player = h.player
    v = _check_area(lk, area) or _check_zone(lk, state, player, area, h.restriction)
    if v:
        return v
    if building:
        why = q.build_problem(lk, state, player, area)
        if why:
            return Violation(_build_rule(state, player, area), why)
        return None
    why = q.reduce_problem(state, player, area, h.target)
    if why:
        return Violation("gd.card.megastorm" if h.target else "gd.reduce.opposing", why)
    return None


def _build_rule(state: State, player: str, area: str) -> str:
    """Returns the rule a refused Build breaks: the Area is taken, Full, or no token is left."""
    f = state.board.get(area)
    if f is None:
        return "gd.build.supply"
    return "gd.build.empty" if f.owner != player else "gd.build.upgrade"


def _check_remove(lk: Lookups, state: State, ev: ForceRemoved) -> Violation | None:
    h = OWING.owed(lk, state, (Step.REMOVE,), ev.player, "removal")
    if isinstance(h, Violation):
        return h
    rule = "gd.card.global-disruption" if h.must else "gd.card.surrender"
    v = _check_area(lk, ev.area)
    if v:
        return v
    if lk.areas[ev.area].region != h.region:
        return Violation(rule, f"this removal is in {h.region}, and {ev.area} is not")
    f = state.board.get(ev.area)
    if f is None:
        return Violation(rule, f"{ev.area} holds no Force to remove")
    if f.owner == ev.player and not h.own:
        return Violation("gd.card.surrender.own", f"{ev.area} holds {ev.player}'s own Force; "
                         "Surrender removes opposing Forces unless option surrender_own is set")
    return None


def _check_seize(lk: Lookups, state: State, ev: ForceSeized) -> Violation | None:
    h = OWING.owed(lk, state, (Step.SEIZE,), ev.player, "seizure")
    if isinstance(h, Violation):
        return h
    v = _check_area(lk, ev.area)
    if v:
        return v
    f = state.board.get(ev.area)
    if not q.is_land(lk, ev.area) or f is None or f.full:
        return Violation("gd.card.insurgents", f"Insurgents take only Struggling Land Forces, "
                         f"and {ev.area} holds none")
    if f.owner != ev.player and q.supply(lk, state, ev.player) <= 0:
        return Violation("gd.build.supply", f"{ev.player} has no Force token left in supply "
                         f"to put in {ev.area}")
    return None


def _check_target(lk: Lookups, state: State, ev: PlayerTargeted) -> Violation | None:
    h = OWING.owed(lk, state, (Step.TARGET,), ev.player, "target")
    if isinstance(h, Violation):
        return h
    if ev.target not in state.players or ev.target == ev.player:
        return Violation("gd.card.target", f"{h.card} is aimed at another player at the table, "
                         f"not {ev.target}")
    return None


def _check_chain(lk: Lookups, state: State, ev: ChainAnswered) -> Violation | None:
    h = OWING.owed(lk, state, (Step.CHAIN,), ev.player, "chain answer")
    if isinstance(h, Violation):
        return h
    if ev.joined and not q.reduce_areas(lk, state, ev.player, Restriction.ANY):
        return Violation("gd.card.bio-weapons.chain", f"{ev.player} has no opposing Force to "
                         f"Reduce, so can only decline {h.card}")
    return None


def _check_forgo(lk: Lookups, state: State, ev: PointsForgone) -> Violation | None:
    h = q.head(state)
    if h is None or h.step in FIXED:
        return OWING.not_now(lk, state, "forgoing")
    if ev.player != h.player:
        return Violation("gd.play.order", f"{h.player} decides now, not {ev.player}")
    if h.must:
        return Violation("gd.step.forgo", f"{owed_text(h)}, and these are not optional")
    return None


# EACH GAME TURN: turns, card uses, the Discards; END OF EACH GAME TURN: scoring

def _check_done(lk: Lookups, state: State, ev: TurnEnded | ScoringPassed) -> Violation | None:
    scoring = isinstance(ev, ScoringPassed)
    phase = Phase.SCORING if scoring else Phase.PLAY
    if state.phase is not phase or state.steps:
        return OWING.not_now(lk, state, "scoring pass" if scoring else "end of turn")
    who = q.scorer(state) if scoring else state.current
    if ev.player != who:
        return Violation("gd.play.order", f"it is {who}'s say, not {ev.player}'s")
    return None


def _check_turn_level(lk: Lookups, state: State, player: str, what: str) -> Violation | None:
    """Refuses a card use while something else is owed or before play begins."""
    if state.phase not in (Phase.PLAY, Phase.SCORING) or state.steps:
        return OWING.not_now(lk, state, what)
    if player not in state.players:
        return Violation("gd.play.order", f"{player} is not at the table")
    return None


def _check_play(lk: Lookups, state: State, ev: CardPlayed) -> Violation | None:
    return _check_turn_level(lk, state, ev.player, "card play") or _check_use(lk, state, ev)


def _check_use(lk: Lookups, state: State, ev: CardPlayed) -> Violation | None:
    """Returns why this card cannot be played for this use now, by a player at the table."""
    if ev.card not in lk.cards or ev.card not in state.hands[ev.player]:
        return Violation("gd.play.in-hand", f"{ev.player} holds no {ev.card!r}")
    card = lk.cards[ev.card]
    anytime = card.timing is Timing.ANY and ev.use is Use.TEXT
    if state.phase is Phase.SCORING:
        return _check_scoring_play(lk, state, ev, anytime)
    if ev.player != state.current and not anytime:
        return Violation("gd.play.order", f"it is {state.current}'s turn, not {ev.player}'s")
    if ev.use is Use.TEXT:
        if card.effect is Effect.NONE:
            return Violation("gd.use.text-none", f"{ev.card} has no text to play on its own")
        if card.timing is Timing.SCORING:
            return Violation("gd.card.fog.timing", f"{ev.card}'s text is played only in the "
                             "End of Game Turn scoring step")
        return None
    points = card.build if ev.use is Use.BUILD else card.reduce
    if points == 0:
        return Violation("gd.use.zero", f"{ev.card} has no {ev.use.value} points")
    return None


def _check_scoring_play(lk: Lookups, state: State, ev: CardPlayed,
                        anytime: bool) -> Violation | None:
    card = lk.cards[ev.card]
    if anytime:
        return None
    if ev.use is not Use.TEXT or card.timing is not Timing.SCORING:
        return Violation("gd.score.window", "in the scoring step only scoring cards and "
                         f"any-time cards are played, for their text; not {ev.card} for {ev.use}")
    if ev.player != q.scorer(state):
        return Violation("gd.play.order", f"it is {q.scorer(state)}'s say in scoring, not {ev.player}'s")
    return None


def _check_discard(lk: Lookups, state: State, ev: CardsDiscarded) -> Violation | None:
    return (_check_discarder(lk, state, ev.player) or _check_held(state, ev.player, ev.cards)
            or _check_taken(lk, state, ev.player, ev.taken))


def _check_discarder(lk: Lookups, state: State, player: str) -> Violation | None:
    """Returns why `player` may not make a Discard now at all, or None."""
    v = _check_turn_level(lk, state, player, "discard")
    if v:
        return v
    if state.phase is not Phase.PLAY or player != state.current:
        return Violation("gd.play.order", f"{player} may discard only on their own turn")
    return None


def _check_held(state: State, player: str, cards: tuple[str, ...]) -> Violation | None:
    if not q.holds(state.hands[player], cards):
        return Violation("gd.play.in-hand", f"{player} does not hold {' and '.join(cards)}")
    return None


def _check_taken(lk: Lookups, state: State, player: str, taken: str) -> Violation | None:
    """Returns why a Discard cannot take the top card of the `taken` stack, or None."""
    if taken not in state.stacks:
        return Violation("gd.stack.in-use", f"{taken!r} is not one of the stacks in use")
    if state.stacks[taken] == 0:
        return Violation("gd.stack.empty", f"the {taken} stack is empty")
    cost = lk.cards[taken].cost
    lg = state.logistics[player]
    if cost and lg - cost < lk.tracks.logistics.low:
        return Violation("gd.cost.logistics", f"{taken} costs {cost} Logistical step, and "
                         f"{player}'s marker is at {lg}, the track's left end")
    return None


CHECK = by_event(_check_first, _check_stack, _check_draw, _check_play, _check_discard,
                 _check_point, _check_remove, _check_seize, _check_target, _check_chain,
                 _check_forgo, _check_done)


def check(lk: Lookups, state: State, event: Event) -> Violation | None:
    """Returns why the event is illegal in this state, or None."""
    judge = CHECK.get(type(event))
    if judge is None:
        return Violation("gd.play.step", f"{type(event).__name__} is not a Global Domination event")
    return judge(lk, state, event)


# -- legal: candidates filtered through `check`, and chance's weights -------------------------


def legal(lk: Lookups, state: State) -> Iterator[Event]:
    """Yields every legal next event; chance outcomes once per kind of card."""
    d = pending(lk, state)
    if d is None:
        return
    if state.phase is Phase.FIRST:
        yield from (FirstPlayerChosen(player=p) for p in state.players)
        return
    if state.phase is Phase.STACKS:
        yield from (ActionStackChosen(card=c) for c in lk.actions if c not in state.stacks)
        return
    h = q.head(state)
    if h is not None:
        yield from _legal_step(lk, state, h)
        return
    yield from _legal_plays(lk, state)


def _legal_step(lk: Lookups, state: State, h: Owed) -> Iterator[Event]:
    p = h.player
    if h.step in (Step.BUILD, Step.REDUCE, Step.LAND_MIX):
        # `_step_plain`'s Builds and Reductions through `_check_point` with its first part, the
        # step owed, known to pass: the head is `h` and `h.player` owes it (pinned to it in
        # tests/test_fast_paths.py)
        if h.step is not Step.REDUCE:
            yield from (ForceBuilt(player=p, area=a) for a in lk.areas
                        if _check_spend(lk, state, h, a, True) is None)
        if h.step is not Step.BUILD:
            yield from (ForceReduced(player=p, area=a) for a in state.board
                        if _check_spend(lk, state, h, a, False) is None)
        forgo = PointsForgone(player=p)
        if check(lk, state, forgo) is None:
            yield forgo
        return
    yield from _step_plain(lk, state, h)


def _step_plain(lk: Lookups, state: State, h: Owed) -> Iterator[Event]:
    """Every answer to the step owed that `check` accepts, in order."""
    p = h.player
    cands: list[Event] = []
    match h.step:
        case Step.DRAW:
            cands = [CardDrawn(player=p, card=c) for c in state.decks[p]]
        case Step.BUILD | Step.REDUCE | Step.LAND_MIX:
            if h.step is not Step.REDUCE:
                cands += [ForceBuilt(player=p, area=a) for a in lk.areas]
            if h.step is not Step.BUILD:
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


def _legal_plays(lk: Lookups, state: State) -> Iterator[Event]:
    # Every card play, Discard, end of turn and scoring pass through its whole `check`,
    # with what the candidates share checked once: each player's turn level, the Discarder,
    # each stack a Discard may take, each set of discarded cards (tests/test_fast_paths.py
    # pins it to the plain definition: every candidate through `check`)
    for p in state.players:
        if _check_turn_level(lk, state, p, "card play") is not None:
            continue
        for c in dict.fromkeys(state.hands[p]):
            for u in USES:
                ev = CardPlayed(player=p, card=c, use=u)
                if _check_use(lk, state, ev) is None:
                    yield ev
    if state.phase is Phase.PLAY and state.current:
        p = state.current
        if _check_discarder(lk, state, p) is None:
            taken = [k for k in state.stacks if _check_taken(lk, state, p, k) is None]
            for cards in _discard_sets(state.hands[p]) if taken else ():
                if _check_held(state, p, cards) is None:
                    for k in taken:
                        yield CardsDiscarded(player=p, cards=cards, taken=k)
        done = TurnEnded(player=p)
        if check(lk, state, done) is None:
            yield done
    if state.phase is Phase.SCORING and q.scorer(state):
        passed = ScoringPassed(player=q.scorer(state) or "")
        if check(lk, state, passed) is None:
            yield passed


def _discard_sets(hand: tuple[str, ...]) -> list[tuple[str, ...]]:
    """Returns the cards a Discard may name from this hand: one, or two of them."""
    kinds = list(dict.fromkeys(hand))
    sets: list[tuple[str, ...]] = [(a,) for a in kinds]
    # gd.use.discard2: the two cards in either order (a pair of one kind has one spelling)
    sets += [(a, b) for a in kinds for b in kinds if a != b or hand.count(a) > 1]
    return sets


def weight(lk: Lookups, state: State, event: Event) -> int:
    """Returns how many copies of the drawn card the Draw Deck holds (chance's odds)."""
    if isinstance(event, CardDrawn):
        return state.decks[event.player].get(event.card, 0)
    return 1


def weights(lk: Lookups, state: State, events: list[Event]) -> list[int]:
    """Returns each event's `weight`, in one pass."""
    decks = state.decks
    return [decks[e.player].get(e.card, 0) if isinstance(e, CardDrawn) else 1 for e in events]
