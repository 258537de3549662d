"""Global Domination as a pure fold: `initial`, `apply`, scoring and the bookkeeping between decisions.

`apply` assumes `check` passed. After every event `settle` resolves what needs no
decision: reshuffles, lapsed steps, the next player, scoring, the next Game Turn.
"""

from __future__ import annotations

from msgspec.structs import replace

from tabletape.engine import Outcome
from tabletape.tape.events import Event

from . import cards
from . import table as t
from .components import Timing, index
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
    GdStarted,
    PlayerTargeted,
    PointsForgone,
    ScoringPassed,
    TurnEnded,
    Use,
)
from .state import (
    FULL_LAND_VP,
    FULL_SEA_VP,
    REGION_MONOPOLY_VP,
    STRUGGLING_LAND_VP,
    STRUGGLING_SEA_VP,
    Force,
    Owed,
    Phase,
    State,
    Step,
)


def initial(header: GdStarted) -> State:
    """Returns the table before the First Player is chosen (Start of the Game)."""
    players = tuple(header.players)
    comp = header.components
    i = index(comp)
    return State(
        players=players, options=header.options, phase=Phase.FIRST,
        hands={p: () for p in players},
        decks={p: {i.basic: comp.tracks.starting_cards} for p in players},
        discards={p: () for p in players}, board={},
        vp={p: comp.tracks.victory_start for p in players},
        logistics={p: comp.tracks.logistics.start for p in players},
        claimed={p: () for p in players}, components=comp)


def apply(state: State, event: Event) -> State:
    """Returns the state after a legal event."""
    match event:
        case FirstPlayerChosen(player=p):
            state = replace(state, first=p, phase=Phase.STACKS)
        case ActionStackChosen(card=c):
            state = _stack_chosen(state, c)
        case CardDrawn(player=p, card=c):
            state = replace(state, decks={**state.decks, p: t.take(state.decks[p], c)},
                            hands={**state.hands, p: t.with_cards(state.hands[p], c)})
            state = _spend(state)
        case CardPlayed():
            state = _play(state, event)
        case CardsDiscarded():
            state = _discard(state, event)
        case ForceBuilt(player=p, area=a):
            state = _spend(replace(state, board=t.built(state, p, a)))
        case ForceReduced(area=a):
            state = _spend(replace(state, board=t.reduced(state.board, a)))
        case ForceRemoved(area=a):
            board = dict(state.board)
            del board[a]
            state = replace(state, board=board, steps=state.steps[1:])
        case ForceSeized(player=p, area=a):
            state = _spend(replace(state, board={**state.board, a: Force(p, True)}))
        case PlayerTargeted(target=q):
            card = t.card(state, state.steps[0].card)
            state = cards.targeted(replace(state, steps=state.steps[1:]), card, q)
        case ChainAnswered(player=p, joined=joined):
            h = state.steps[0]
            link = cards.chain_link(state, p, h.card, h.points, h.origin) if joined else ()
            state = replace(state, steps=link + state.steps[1:])
        case PointsForgone():
            state = replace(state, steps=state.steps[1:])
        case TurnEnded(player=p):
            state = _turn_ended(state, p)
        case ScoringPassed(player=p):
            state = replace(state, scored=(*state.scored, p))
    return settle(state)


def _spend(state: State) -> State:
    """Returns the state with one point of the head step used."""
    h = state.steps[0]
    return replace(state, steps=(replace(h, points=h.points - 1), *state.steps[1:]))


def _stack_chosen(state: State, card: str) -> State:
    stacks = {**state.stacks, card: t.card(state, card).count}
    state = replace(state, stacks=stacks)
    if len(stacks) == t.idx(state).tracks.stacks_in_use:
        return _start_game_turn(state)
    return state


def _play(state: State, ev: CardPlayed) -> State:
    """Each Game Turn: the card leaves the hand for the discard pile (or its stack), then acts."""
    card = t.card(state, ev.card)
    p = ev.player
    hands = {**state.hands, p: t.without(state.hands[p], ev.card)}
    if ev.use is Use.TEXT and card.returns:  # gd.card.fog: back to its stack
        state = replace(state, hands=hands, stacks={**state.stacks, ev.card: state.stacks.get(ev.card, 0) + 1})
    else:  # gd.card.discard
        state = replace(state, hands=hands,
                        discards={**state.discards, p: t.with_cards(state.discards[p], ev.card)})
    if state.phase is Phase.PLAY and p == state.current:
        state = replace(state, used=True)
    match ev.use:
        case Use.BUILD:
            owed = Owed(Step.BUILD, p, ev.card, card.build, card.restriction)
            return replace(state, steps=(owed, *state.steps))
        case Use.ATTACK:
            owed = Owed(Step.REDUCE, p, ev.card, card.reduce, card.restriction)
            return replace(state, steps=(owed, *state.steps))
    return cards.play_text(state, p, card)


def _discard(state: State, ev: CardsDiscarded) -> State:
    """Discard 1 sends the taken card to the discard pile, Discard 2 to the hand (gd.use.discard*)."""
    p = ev.player
    hand = state.hands[p]
    for c in ev.cards:
        hand = t.without(hand, c)
    pile = t.with_cards(state.discards[p], *ev.cards)
    if len(ev.cards) == 1:
        pile = t.with_cards(pile, ev.taken)
    else:
        hand = t.with_cards(hand, ev.taken)
    cost = t.card(state, ev.taken).cost  # gd.cost.logistics
    return replace(state, hands={**state.hands, p: hand}, discards={**state.discards, p: pile},
                   stacks={**state.stacks, ev.taken: state.stacks[ev.taken] - 1},
                   logistics={**state.logistics, p: state.logistics[p] - cost}, used=True)


def _turn_ended(state: State, player: str) -> State:
    """gd.play.pass: a turn with no card used passes for the rest of the Game Turn."""
    passed = state.passed if state.used else (*state.passed, player)
    state = replace(state, passed=passed, used=False)
    nxt = player
    for _ in state.players:
        nxt = t.left(state, nxt)
        if nxt not in passed:
            return replace(state, current=nxt)
    # gd.play.end: everyone has passed
    return replace(state, current=None, phase=Phase.SCORING, scored=(), fog=())


def settle(state: State) -> State:
    """Resolves everything that needs no decision, until one is pending."""
    while True:
        if state.steps:
            h = state.steps[0]
            if h.step is Step.DRAW:
                if h.points <= 0:
                    state = replace(state, steps=state.steps[1:])
                    continue
                if state.decks[h.player]:
                    return state
                if state.discards[h.player]:  # gd.draw.reshuffle
                    state = replace(state, decks={**state.decks, h.player: t.shuffled(state.discards[h.player])},
                                    discards={**state.discards, h.player: ()})
                    continue
                state = replace(state, steps=state.steps[1:])  # gd.draw.exhausted
                continue
            if not cards.possible(state, h):  # gd.step.lapse
                state = replace(state, steps=state.steps[1:])
                continue
            return state
        if state.phase is Phase.DRAW:
            state = replace(state, phase=Phase.PLAY, current=state.first, used=False, passed=())
            continue
        if state.phase is Phase.SCORING:
            who = next((p for p in t.seat_order(state) if p not in state.scored), None)
            if who is None:
                state = _start_game_turn(_end_game_turn(state))
                continue
            if not _has_scoring_card(state, who):
                state = replace(state, scored=(*state.scored, who))
                continue
        return state


def _has_scoring_card(state: State, player: str) -> bool:
    return any(t.card(state, c).timing is not Timing.TURN for c in state.hands[player])


def _start_game_turn(state: State) -> State:
    """Start of Each Game Turn: advance the Turn track, then everyone draws (gd.turn.advance)."""
    turn = state.game_turn + 1
    if turn > t.idx(state).tracks.turns:
        return replace(state, game_turn=turn, phase=Phase.OVER, current=None)
    owed = tuple(Owed(Step.DRAW, p, points=state.logistics[p]) for p in t.seat_order(state))
    return replace(state, game_turn=turn, phase=Phase.DRAW, steps=owed, passed=(), current=None,
                   used=False, scored=(), fog=())


def score(state: State, player: str) -> tuple[int, int]:
    """Returns the VPs and Logistical steps `player` gains at this scoring (gd.score.*)."""
    vp = 0
    for area, f in state.board.items():
        if f.owner != player:
            continue
        if t.is_land(state, area):
            vp += FULL_LAND_VP if f.full else STRUGGLING_LAND_VP
        else:
            vp += FULL_SEA_VP if f.full else STRUGGLING_SEA_VP
    if not any(q != player for q in state.fog):  # gd.card.fog
        vp += REGION_MONOPOLY_VP * len(t.region_monopolies(state, player))
    held = t.resource_monopolies(state, player)
    if state.options.resource_gain == "once":
        held = [r for r in held if r not in state.claimed.get(player, ())]
    return vp, len(held)


def _end_game_turn(state: State) -> State:
    """End of Each Game Turn: everyone scores; hands are kept unless the option discards them."""
    high = t.idx(state).tracks.logistics.high
    vp, lg, claimed = dict(state.vp), dict(state.logistics), dict(state.claimed)
    for p in state.players:
        gain, steps = score(state, p)
        vp[p] += gain
        lg[p] = min(high, lg[p] + steps)  # gd.score.logistics-cap
        if state.options.resource_gain == "once":
            claimed[p] = tuple(sorted({*claimed.get(p, ()), *t.resource_monopolies(state, p)}))
    state = replace(state, vp=vp, logistics=lg, claimed=claimed, fog=(), scored=())
    if state.options.hands == "discard":  # gd.hand.carry
        state = replace(state, hands={p: () for p in state.players},
                        discards={p: t.with_cards(state.discards[p], *state.hands[p])
                                  for p in state.players})
    return state


def outcome(state: State) -> Outcome | None:
    """Returns the winners and final VPs once the game is over (gd.end.winner, gd.end.tie)."""
    if state.phase is not Phase.OVER:
        return None
    best = max(state.vp.values())
    top = [p for p in state.players if state.vp[p] == best]
    if len(top) > 1 and state.options.ties == "logistics":
        lg = max(state.logistics[p] for p in top)
        top = [p for p in top if state.logistics[p] == lg]
    scores = dict(state.vp)
    if len(top) == 1:
        return Outcome((top[0],), scores, f"{top[0]} wins with {best} VP")
    return Outcome(tuple(top), scores, f"{' and '.join(top)} share the win with {best} VP")
