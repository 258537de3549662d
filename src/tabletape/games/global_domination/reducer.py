"""Global Domination as a pure fold: `initial`, `apply`, what the cards do, scoring and the end.

`apply` assumes `check` passed; it looks up one small function per event type
(`APPLY`). After every event the table settles (`resolve`, one step at a time):
reshuffles, lapsed steps, the next player, scoring, the next Game Turn. Every
function takes the game's `Lookups` (`lk`) first. Rule code reads a card's
`effect`, never its name (see components.json).
"""

from __future__ import annotations

import math

from msgspec.structs import replace

from tabletape.engine import Outcome
from tabletape.engine.kit import turns
from tabletape.engine.kit.multiset import drawn, reshuffle, with_cards, without
from tabletape.tape.events import Event
from tabletape.tape.words import listed

from . import lookups as q
from .components import (
    EFFECT_CLEAR_STRUGGLING,
    EFFECT_DENY_REGIONS,
    EFFECT_REGION_FULL_VP,
    EFFECT_RESOURCE_VP,
    EFFECT_STRUGGLE_ALL,
    EFFECT_UPGRADE_ALL,
    EFFECT_WEAKEN_PLAYER,
    Card,
    Effect,
    Lookups,
)
from .events import (
    USE_ATTACK,
    USE_BUILD,
    USE_TEXT,
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
    GdStarted,
    PlayerTargeted,
    PointsForgone,
    ScoringPassed,
    TurnEnded,
)
from .state import (
    FULL_LAND_VP,
    FULL_SEA_VP,
    PHASE_DRAW,
    PHASE_FIRST,
    PHASE_OVER,
    PHASE_PLAY,
    PHASE_SCORING,
    PHASE_STACKS,
    REGION_MONOPOLY_VP,
    STEP_BUILD,
    STEP_CHAIN,
    STEP_DRAW,
    STEP_LAND_MIX,
    STEP_REDUCE,
    STEP_REMOVE,
    STEP_SEIZE,
    STEP_TARGET,
    STRUGGLING_LAND_VP,
    STRUGGLING_SEA_VP,
    Force,
    Owed,
    State,
)

# -- START OF THE GAME --------------------------------------------------------------------


def initial(lk: Lookups, header: GdStarted) -> State:
    """Returns the table before the First Player is chosen (Start of the Game)."""
    players = tuple(header.players)
    tracks = lk.tracks
    return State(
        players=players, options=header.options, phase=PHASE_FIRST,
        hands={p: () for p in players},
        decks={p: {lk.basic: tracks.starting_cards} for p in players},
        discards={p: () for p in players}, board={},
        vp={p: tracks.victory_start for p in players},
        logistics={p: tracks.logistics.start for p in players},
        claimed={p: () for p in players})


def _first_chosen(lk: Lookups, state: State, ev: FirstPlayerChosen) -> State:
    """gd.setup.first: the First Player is recorded; the Action stacks are chosen next."""
    return replace(state, first=ev.player, phase=PHASE_STACKS)


def _stack_chosen(lk: Lookups, state: State, ev: ActionStackChosen) -> State:
    """gd.setup.stacks: a stack in use, full; the last one starts the first Game Turn."""
    stacks = {**state.stacks, ev.card: lk.cards[ev.card].count}
    state = replace(state, stacks=stacks)
    if len(stacks) == lk.tracks.stacks_in_use:
        return _start_game_turn(lk, state)
    return state


# -- START OF EACH GAME TURN ----------------------------------------------------------------


def _start_game_turn(lk: Lookups, state: State) -> State:
    """Start of Each Game Turn: advance the Turn track, then everyone draws (gd.turn.advance)."""
    turn = state.game_turn + 1
    if turn > lk.tracks.turns:
        return replace(state, game_turn=turn, phase=PHASE_OVER, current=None)
    owed = tuple(Owed(STEP_DRAW, p, points=state.logistics[p]) for p in q.seat_order(state))
    return replace(state, game_turn=turn, phase=PHASE_DRAW, steps=owed, passed=(), current=None,
                   used=False, scored=(), fog=())


def _drawn(lk: Lookups, state: State, ev: CardDrawn) -> State:
    """gd.draw.logistics: one card from the player's own Draw Deck into their hand."""
    p = ev.player
    # the kit's draw, and one replace: the card moved, the point spent
    decks, hands = drawn(state.decks, p, state.hands, p, ev.card)
    steps = state.steps
    h = steps[0]
    if h.points == 1:  # the last card owed: the step is done (what `resolve` would do)
        return replace(state, decks=decks, hands=hands, steps=steps[1:])
    return replace(state, decks=decks, hands=hands,
                   steps=(replace(h, points=h.points - 1), *steps[1:]))  # `_spent`


# -- EACH GAME TURN: using a card -----------------------------------------------------------


def _played(lk: Lookups, state: State, ev: CardPlayed) -> State:
    """Each Game Turn: the card leaves the hand for the discard pile (or its stack), then acts."""
    card = lk.cards[ev.card]
    p, use = ev.player, ev.use
    hands = {**state.hands, p: without(state.hands[p], ev.card)}
    # (each case one replace: the card's move, the turn's card used, the Builds or Reductions)
    used = True if state.phase is PHASE_PLAY and p == state.current else state.used
    if use is USE_TEXT and card.returns:  # gd.card.fog: back to its stack
        state = replace(state, hands=hands, used=used,
                        stacks={**state.stacks, ev.card: state.stacks.get(ev.card, 0) + 1})
        return _play_text(lk, state, p, card)
    discards = {**state.discards, p: with_cards(state.discards[p], ev.card)}  # gd.card.discard
    if use is USE_BUILD:  # gd.use.build
        owed = Owed(STEP_BUILD, p, ev.card, card.build, card.restriction)
    elif use is USE_ATTACK:  # gd.use.attack
        owed = Owed(STEP_REDUCE, p, ev.card, card.reduce, card.restriction)
    else:
        return _play_text(lk, replace(state, hands=hands, discards=discards, used=used), p, card)
    return replace(state, hands=hands, discards=discards, used=used, steps=(owed, *state.steps))


def _discarded(lk: Lookups, state: State, ev: CardsDiscarded) -> State:
    """Discard 1 sends the taken card to the discard pile, Discard 2 to the hand (gd.use.discard*)."""
    p, cards, taken = ev.player, ev.cards, ev.taken
    hand = state.hands[p]
    for c in cards:
        hand = without(hand, c)
    # (each map copied, then its one entry set: `{**d, k: v}` for a key already in it)
    hands, discards = state.hands.copy(), state.discards.copy()
    if len(cards) == 1:
        discards[p] = tuple(sorted((*discards[p], *cards, taken)))
        hands[p] = hand
    else:
        discards[p] = tuple(sorted((*discards[p], *cards)))
        hands[p] = tuple(sorted((*hand, taken)))
    stacks, logistics = state.stacks.copy(), state.logistics.copy()
    stacks[taken] -= 1
    logistics[p] -= lk.cards[taken].cost  # gd.cost.logistics
    return replace(state, hands=hands, discards=discards, stacks=stacks, logistics=logistics,
                   used=True)


def _turn_ended(lk: Lookups, state: State, ev: TurnEnded) -> State:
    """gd.play.pass: a turn with no card used passes for the rest of the Game Turn."""
    player = ev.player
    passed = state.passed if state.used else (*state.passed, player)
    players = state.players
    n, i = len(players), players.index(player)
    for k in range(i + 1, i + 1 + n):  # each seat to the left in turn (turns.left_of)
        nxt = players[k % n]
        if nxt not in passed:
            return replace(state, passed=passed, used=False, current=nxt)
    # gd.play.end: everyone has passed
    return replace(state, passed=passed, used=False, current=None, phase=PHASE_SCORING,
                   scored=(), fog=())


# -- GAME TERMS: Builds, Reductions and owed points ------------------------------------------


def _spent(steps: tuple[Owed, ...]) -> tuple[Owed, ...]:
    """Returns the steps owed with one point of the head step used (each play that spends a
    point passes them to its one replace of the state)."""
    h = steps[0]
    return (replace(h, points=h.points - 1), *steps[1:])


def _built(lk: Lookups, state: State, ev: ForceBuilt) -> State:
    """gd.build.empty / gd.build.upgrade: a new Struggling Force, or one's own made Full."""
    board = dict(state.board)
    board[ev.area] = Force(ev.player, full=ev.area in board)
    return replace(state, board=board, steps=_spent(state.steps))


def _reduced(lk: Lookups, state: State, ev: ForceReduced) -> State:
    """gd.reduce.effect: a Full Force becomes Struggling, a Struggling one is removed."""
    board = dict(state.board)
    f = board[ev.area]
    if f.full:
        board[ev.area] = Force(f.owner, full=False)
    else:
        del board[ev.area]
    return replace(state, board=board, steps=_spent(state.steps))


def _removed(lk: Lookups, state: State, ev: ForceRemoved) -> State:
    """gd.card.global-disruption / gd.card.surrender: the Force in the Area is removed."""
    board = dict(state.board)
    del board[ev.area]
    return replace(state, board=board, steps=state.steps[1:])


def _seized(lk: Lookups, state: State, ev: ForceSeized) -> State:
    """gd.card.insurgents: the player's Full Force takes the Area."""
    return replace(state, board={**state.board, ev.area: Force(ev.player, True)},
                   steps=_spent(state.steps))


def _forgone(lk: Lookups, state: State, ev: PointsForgone) -> State:
    """gd.step.forgo: the rest of the owed step is left unused."""
    return q.done(state)


# -- THE CARDS: what a card's text does ------------------------------------------------------


def _play_text(lk: Lookups, state: State, player: str, card: Card) -> State:
    """Returns the state after `player` plays `card` for its text (the card already left the hand)."""
    fx = card.effect
    if fx is EFFECT_RESOURCE_VP:  # gd.card.resource-vp
        n = sum(1 for a in lk.with_resource.get(card.resource or "", ())
                if q.owner(state, a) == player)
        return _gain(state, player, n)
    if fx is EFFECT_REGION_FULL_VP:  # gd.card.propaganda
        n = sum(1 for r in lk.regions if any(
            (f := state.board.get(a)) and f.owner == player and f.full for a in lk.in_region[r]))
        return _gain(state, player, n)
    if fx is EFFECT_DENY_REGIONS:  # gd.card.fog
        return replace(state, fog=(*state.fog, player))
    if fx is EFFECT_CLEAR_STRUGGLING:  # gd.card.nuclear-winter
        return replace(state, board={a: f for a, f in state.board.items() if f.full})
    if fx is EFFECT_STRUGGLE_ALL:  # gd.card.tactical-nukes
        return replace(state, board={a: Force(f.owner, False) for a, f in state.board.items()})
    if fx is EFFECT_UPGRADE_ALL:  # gd.card.supply-depots
        return replace(state, board={a: Force(f.owner, True) if f.owner == player else f
                                     for a, f in state.board.items()})
    return q.owe_first(state, *_owed(lk, state, player, card))


def _owed(lk: Lookups, state: State, player: str, card: Card) -> tuple[Owed, ...]:
    """Returns the steps a card text leaves owed, in the order they are resolved."""
    name, n, zone = card.name, card.amount, card.text_restriction
    match card.effect:
        case Effect.LAND_MIX:  # gd.card.airborne
            return (Owed(STEP_LAND_MIX, player, name, n, zone),)
        case Effect.BUILDS:  # gd.card.military-base
            return (Owed(STEP_BUILD, player, name, n, zone),)
        case Effect.INSURGENCY:  # gd.card.insurgents
            return (Owed(STEP_SEIZE, player, name, n, zone),)
        case Effect.WEAKEN_PLAYER | Effect.CUT_SUPPLY:  # gd.card.target
            return (Owed(STEP_TARGET, player, name),)
        case Effect.CHAIN_REDUCE:  # gd.card.bio-weapons
            return _chain_link(state, player, name, n, origin=player)
        case Effect.REDUCE_PER_FULL:  # gd.card.show-of-force
            full = sum(1 for f in state.board.values() if f.owner == player and f.full)
            return (Owed(STEP_REDUCE, player, name, n * full, zone),)
        case Effect.HALVE:  # gd.card.megastorm
            return tuple(Owed(STEP_REDUCE, player, name, _half(state, p), target=p, must=True)
                         for p in turns.seats_from(state.players, player))
        case Effect.REMOVE_PER_REGION:  # gd.card.global-disruption
            return tuple(Owed(STEP_REMOVE, player, name, region=r, must=True, own=True)
                         for r in lk.regions)
        case Effect.SURRENDER:  # gd.card.surrender
            return tuple(Owed(STEP_REMOVE, player, name, region=r, own=state.options.surrender_own)
                         for r in lk.regions if any(
                             (f := state.board.get(a)) and f.owner == player and f.full
                             for a in lk.in_region[r]))
    return ()


def _chain_link(state: State, player: str, card: str, n: int, origin: str) -> tuple[Owed, ...]:
    """Bio Weapons: `player` owes the Reductions, then the player on the left is asked."""
    return (Owed(STEP_REDUCE, player, card, n, must=True),
            Owed(STEP_CHAIN, turns.left_of(state.players, player), card, n, origin=origin))


def _chain_answered(lk: Lookups, state: State, ev: ChainAnswered) -> State:
    """gd.card.bio-weapons.chain: joining owes the Reductions and passes the card on."""
    h = state.steps[0]
    link = _chain_link(state, ev.player, h.card, h.points, h.origin) if ev.joined else ()
    return replace(state, steps=link + state.steps[1:])


def _targeted(lk: Lookups, state: State, ev: PlayerTargeted) -> State:
    """Returns the state after an aimed card text (Bad Leadership, Out of Supply) hits its target."""
    card = lk.cards[state.steps[0].card]
    state = q.done(state)
    target = ev.target
    if card.effect is EFFECT_WEAKEN_PLAYER:  # gd.card.bad-leadership
        return replace(state, board={a: Force(f.owner, False) if f.owner == target else f
                                     for a, f in state.board.items()})
    cut = set(q.isolated(lk, state, target))  # gd.card.out-of-supply
    return replace(state, board={a: f for a, f in state.board.items() if a not in cut})


def _half(state: State, player: str) -> int:
    """gd.card.megastorm.rounding: half a player's Forces, rounded as the option says."""
    n = sum(1 for f in state.board.values() if f.owner == player)
    return math.ceil(n / 2) if state.options.megastorm_rounding == "up" else n // 2


def _gain(state: State, player: str, n: int) -> State:
    return replace(state, vp={**state.vp, player: state.vp[player] + n})


# -- END OF EACH GAME TURN: scoring ----------------------------------------------------------


def _scoring_passed(lk: Lookups, state: State, ev: ScoringPassed) -> State:
    """gd.score.window: the player plays nothing more in this scoring step."""
    return replace(state, scored=(*state.scored, ev.player))


def score(lk: Lookups, state: State, player: str) -> tuple[int, int]:
    """Returns the VPs and Logistical steps `player` gains at this scoring (gd.score.*): the
    plain definition `_end_game_turn` computes for every player at once."""
    vp = 0
    for area, f in state.board.items():
        if f.owner != player:
            continue
        if q.is_land(lk, area):
            vp += FULL_LAND_VP if f.full else STRUGGLING_LAND_VP
        else:
            vp += FULL_SEA_VP if f.full else STRUGGLING_SEA_VP
    if not any(p != player for p in state.fog):  # gd.card.fog
        vp += REGION_MONOPOLY_VP * len(q.region_monopolies(lk, state, player))
    held = q.resource_monopolies(lk, state, player)
    if state.options.resource_gain == "once":
        held = [r for r in held if r not in state.claimed.get(player, ())]
    return vp, len(held)


def _end_game_turn(lk: Lookups, state: State) -> State:
    """End of Each Game Turn: everyone scores; hands are kept unless the option discards them.

    Every player's `score`, the board read once for all of them (`_monopolies`): each Force
    counted for its owner, each Region and Resource held whole for the one who holds it
    (pinned to `score` per player in tests/games/global_domination/test_fast_paths.py).
    """
    high = lk.tracks.logistics.high
    players, board, once = state.players, state.board, state.options.resource_gain == "once"
    vp, lg, claimed = dict(state.vp), dict(state.logistics), dict(state.claimed)
    land = lk.land_set
    for a, f in board.items():  # gd.score.forces
        if a in land:
            vp[f.owner] += FULL_LAND_VP if f.full else STRUGGLING_LAND_VP
        else:
            vp[f.owner] += FULL_SEA_VP if f.full else STRUGGLING_SEA_VP
    regions = _monopolies(board, lk.region_sets)
    resources = _monopolies(board, lk.resource_sets)
    fog = state.fog
    for p in players:
        if p in regions and not any(o != p for o in fog):  # gd.card.fog
            vp[p] += REGION_MONOPOLY_VP * len(regions[p])
        held = resources.get(p, ())
        if once:
            mine = state.claimed.get(p, ())
            steps = sum(1 for r in held if r not in mine)
            claimed[p] = tuple(sorted({*claimed.get(p, ()), *held}))
        else:
            steps = len(held)
        lg[p] = min(high, lg[p] + steps)  # gd.score.logistics-cap
    state = replace(state, vp=vp, logistics=lg, claimed=claimed, fog=(), scored=())
    if state.options.hands == "discard":  # gd.hand.carry
        state = replace(state, hands={p: () for p in state.players},
                        discards={p: with_cards(state.discards[p], *state.hands[p])
                                  for p in state.players})
    return state


def _monopolies(board: dict[str, Force], areas_of: dict[str, frozenset[str]]
                ) -> dict[str, list[str]]:
    """Returns {player: the Regions (or Resources) all of whose Areas hold their Forces}, in
    the tables' order: `q.region_monopolies` (`q.resource_monopolies`) of every player (the
    Areas all held asked first of the board's keys, in C)."""
    out: dict[str, list[str]] = {}
    held = board.keys()
    for r, areas in areas_of.items():
        if areas and held >= areas:
            owners = {board[a].owner for a in areas}
            if len(owners) == 1:
                out.setdefault(owners.pop(), []).append(r)
    return out


# -- apply and settle -------------------------------------------------------------------------

APPLY = turns.by_event(_first_chosen, _stack_chosen, _drawn, _played, _discarded, _built,
                       _reduced, _removed, _seized, _targeted, _chain_answered, _forgone,
                       _turn_ended, _scoring_passed)


def apply(lk: Lookups, state: State, event: Event) -> State:
    """Returns the state after a legal event, settled until a decision is pending."""
    state = APPLY[type(event)](lk, state, event)
    # `resolve`'s two commonest answers, None (a decision is pending), asked here first: a
    # card to draw from a Draw Deck that has one; a turn to play with nothing owed
    steps = state.steps
    if steps:
        h = steps[0]
        if h.step is STEP_DRAW and h.points > 0 and state.decks[h.player]:
            return state
    elif state.phase is PHASE_PLAY:
        return state
    while (after := resolve(lk, state)) is not None:  # turns.settle, written out: no
        state = after                                   # partial, no frame per event
    return state


def resolve(lk: Lookups, state: State) -> State | None:
    """Resolves one thing that needs no decision; None once a decision is pending."""
    if state.steps:
        h = state.steps[0]
        if h.step is STEP_DRAW:
            if h.points <= 0:
                return q.done(state)
            if state.decks[h.player]:
                return None
            if state.discards[h.player]:  # gd.draw.reshuffle: the pile becomes the Draw Deck
                decks, discards = reshuffle(state.decks, state.discards, h.player)
                return replace(state, decks=decks, discards=discards)
            return q.done(state)  # gd.draw.exhausted
        if not q.possible(lk, state, h):  # gd.step.lapse
            return q.done(state)
        return None
    if state.phase is PHASE_DRAW:
        return replace(state, phase=PHASE_PLAY, current=state.first, used=False, passed=())
    if state.phase is PHASE_SCORING:
        return _pass_scoring(lk, state)
    return None


def _pass_scoring(lk: Lookups, state: State) -> State | None:
    """gd.score.window: once every player has passed, the Game Turn ends. Rules 1.2 ask each
    player in turn, whatever they hold (a say skipped would tell the table who holds a
    scoring card). Until 1.1, in seat order, each player with no card to play in the scoring
    step passed at once: every such pass and the end in one call, where `resolve` plainly
    takes one a call (the scorer passes, or the turn ends:
    tests/games/global_domination/test_fast_paths.py pins it to that)."""
    if lk.ask_every_scorer:  # 1.2: the scorer's say is pending until all have passed
        if len(state.scored) < len(state.players):  # (only the scorer passes: no repeats)
            return None
        return _start_game_turn(lk, _end_game_turn(lk, state))
    scored, hands, timely = state.scored, state.hands, lk.at_scoring
    for who in q.seat_order(state):
        if who in scored:
            continue
        if not timely.isdisjoint(hands[who]):  # q.has_scoring_card: their say
            return None if scored is state.scored else replace(state, scored=scored)
        scored = (*scored, who)
    return _start_game_turn(lk, _end_game_turn(lk, replace(state, scored=scored)))


# -- END OF THE GAME ---------------------------------------------------------------------------


def outcome(lk: Lookups, state: State) -> Outcome | None:
    """Returns the winners and final VPs once the game is over (gd.end.winner, gd.end.tie)."""
    if state.phase is not PHASE_OVER:
        return None
    best = max(state.vp.values())
    top = [p for p in state.players if state.vp[p] == best]
    if len(top) > 1 and state.options.ties == "logistics":
        lg = max(state.logistics[p] for p in top)
        top = [p for p in top if state.logistics[p] == lg]
    scores = dict(state.vp)
    if len(top) == 1:
        return Outcome((top[0],), scores, f"{top[0]} wins with {best} VP")
    return Outcome(tuple(top), scores, f"{listed(top)} share the win with {best} VP")
