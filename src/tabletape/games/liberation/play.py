"""Liberation as a pure fold: `initial`, `apply`, and the bookkeeping between decisions.

`apply` assumes `check` passed. After every event `settle` resolves what needs no
decision: reshuffles, lapsed steps, the end of a turn, a round, a country.
"""

from __future__ import annotations

from msgspec.structs import replace

from tabletape.engine import Outcome
from tabletape.tape.events import Event

from . import abilities, rules
from . import table as t
from .components import Ability, index
from .events import (
    CountryTurned,
    ForceCardDealt,
    ForceCardDrawn,
    ForceCardPlayed,
    HandsTraded,
    LiberationStarted,
    PlayedCardTaken,
    PlayedCardTurned,
    TieBreakDrawn,
    TurnOverAccepted,
    TurnOverPrevented,
    TurnPassed,
)
from .state import CHANCE_STEPS, Owed, Phase, Played, Stage, State, Step


def initial(header: LiberationStarted) -> State:
    """Returns the table before the first country is turned (Set Up)."""
    players = tuple(header.players)
    idx = index(header.components)
    first = players[0]  # lib.setup.first: the first seat turns, deals and leads
    return State(
        players=players, options=header.options, phase=Phase.PLAY, stage=Stage.DEAL,
        dealer=first, leader=first, countries=tuple(sorted(idx.countries)),
        deck=dict(idx.full_deck), discards=(), hands={p: () for p in players},
        played={p: () for p in players}, liberated={p: () for p in players},
        plays={p: 0 for p in players}, tie_cards={p: () for p in players},
        steps=(Owed(Step.TURN_COUNTRY, first),), components=header.components)


def apply(state: State, event: Event) -> State:
    """Returns the state after a legal event."""
    rest = state.steps[1:]
    match event:
        case CountryTurned():
            state = _turn_country(replace(state, steps=rest), event)
        case ForceCardDealt(player=p, card=c) | ForceCardDrawn(player=p, card=c):
            state = replace(state, deck=t.take(state.deck, c), steps=rest,
                            hands={**state.hands, p: t.with_cards(state.hands[p], c)})
        case TieBreakDrawn(player=p, card=c):
            state = replace(state, deck=t.take(state.deck, c), steps=rest,
                            tie_cards={**state.tie_cards, p: state.tie_cards[p] + (c,)})
        case ForceCardPlayed():
            state = abilities.play_card(replace(state, steps=rest), event)
        case TurnPassed():
            state = _end_turn(replace(state, steps=rest))
        case PlayedCardTurned():
            state = abilities.turned(state, event)
        case TurnOverPrevented(player=p, card=c):
            state = replace(state, steps=rest, hands={**state.hands, p: t.without(state.hands[p], c)},
                            discards=t.with_cards(state.discards, c))
        case TurnOverAccepted():
            h = state.steps[0]
            state = abilities.flip(replace(state, steps=rest), h.owner, h.slot, False)
        case PlayedCardTaken():
            state = abilities.taken(state, event)
        case HandsTraded(player=p, other=q):
            state = replace(state, steps=rest, hands={**state.hands, p: state.hands[q],
                                                      q: state.hands[p]})
    return settle(state)


def _turn_country(state: State, ev: CountryTurned) -> State:
    """How to Play: the dealer turns the country, then deals its value to everyone."""
    vp = t.idx(state).countries[ev.country].vp
    order = t.clockwise(state, t.left_of(state, state.dealer))  # lib.deal.count: dealer last
    deal = tuple(Owed(Step.DEAL, p) for _ in range(vp) for p in order)
    leader = state.dealer if state.first_country else t.left_of(state, state.dealer)
    return replace(state, country=ev.country, leader=leader, steps=state.steps + deal,
                   countries=tuple(c for c in state.countries if c != ev.country))


# -- settling what needs no decision ---------------------------------------------------------

def settle(state: State) -> State:
    """Resolves everything that needs no decision, until a decision is pending."""
    while state.phase is Phase.PLAY:
        if not state.steps:
            if state.stage is Stage.DEAL:
                state = _start_rounds(state)
            elif state.stage is Stage.TIE_BREAK:
                state = _compare_tie(state)
            else:
                return state
            continue
        h, rest = state.steps[0], state.steps[1:]
        if h.step in CHANCE_STEPS:
            if h.step is Step.TURN_COUNTRY or state.deck:
                return state
            if state.discards:  # lib.deck.refresh
                state = replace(state, deck=t.merge(state.deck, state.discards), discards=())
            elif h.step is Step.TIE_DRAW:  # lib.tie.failed
                state = _fail(state)
            else:  # lib.deck.exhausted
                state = replace(state, steps=rest)
        elif h.step is Step.END_TURN:
            state = _end_turn(replace(state, steps=rest))
        elif h.step is Step.SECOND:
            if any(e for e in rules.legal(state) if isinstance(e, ForceCardPlayed)):
                return state
            state = _end_turn(replace(state, steps=rest))
        elif h.step is Step.PREVENT or rules.has_choice(state, h):
            return state
        elif h.step is Step.TAKE:  # lib.ability.trade-card.no-target: it stays with its player
            state = replace(state, steps=rest, played={
                **state.played, h.player: state.played[h.player] + (Played(h.card),)})
        else:  # lib.ability.no-target
            state = replace(state, steps=rest)
    return state


def _start_rounds(state: State) -> State:
    """How to Play: the leader opens round one; everyone takes part."""
    return replace(state, stage=Stage.ROUNDS, round=1, turn=state.leader, turn_plays=0,
                   contenders=t.clockwise(state, state.leader))


def _end_turn(state: State) -> State:
    """Passes the turn on; after the last contender, the next round or the count."""
    i = state.contenders.index(state.turn or "")
    if i + 1 < len(state.contenders):
        return replace(state, turn=state.contenders[i + 1], turn_plays=0)
    vp = t.country(state).vp  # type: ignore[union-attr]
    if state.stage is Stage.ROUNDS and state.round < vp:
        return replace(state, round=state.round + 1, turn=state.contenders[0], turn_plays=0)
    return _count(state)


def _count(state: State) -> State:
    """Liberation goes to the highest face-up total; ties play an extra round, then draw."""
    pool = state.players if state.stage is Stage.ROUNDS else state.contenders
    totals = {p: t.total(state, p) for p in pool}
    best = max(totals.values())
    tied = t.clockwise(state, state.leader, tuple(p for p in pool if totals[p] == best))
    if len(tied) == 1:
        return _liberate(state, tied[0])
    if state.stage is Stage.ROUNDS:  # lib.tie.extra-round
        return replace(state, stage=Stage.EXTRA, contenders=tied, turn=tied[0], turn_plays=0,
                       round=state.round + 1)
    return _tie_draws(state, tied)


def _tie_draws(state: State, tied: tuple[str, ...]) -> State:
    """lib.tie.draw: each tied player draws a card; only its force points count."""
    return replace(state, stage=Stage.TIE_BREAK, contenders=tied, turn=None,
                   steps=tuple(Owed(Step.TIE_DRAW, p) for p in tied))


def _compare_tie(state: State) -> State:
    drawn = {p: t.card(state, state.tie_cards[p][-1]).points for p in state.contenders}
    best = max(drawn.values())
    tied = tuple(p for p in state.contenders if drawn[p] == best)
    return _liberate(state, tied[0]) if len(tied) == 1 else _tie_draws(state, tied)


def _clear_table(state: State) -> State:
    """lib.country.discard: every played and tie-break card goes to the discards."""
    gone = tuple(p.card for row in state.played.values() for p in row)
    gone += tuple(c for cards in state.tie_cards.values() for c in cards)
    empty = {p: () for p in state.players}
    return replace(state, discards=t.with_cards(state.discards, *gone), played=dict(empty),
                   tie_cards=dict(empty), plays={p: 0 for p in state.players}, country=None,
                   stage=Stage.DEAL, round=0, contenders=(), turn=None, turn_plays=0,
                   first_country=False, steps=())


def _liberate(state: State, winner: str) -> State:
    """The winner keeps the country; the game may end; else they turn and deal the next."""
    bonus = [p.card for p in state.played[winner]
             if p.up and t.card(state, p.card).ability is Ability.DRAW_TWO]
    liberated = {**state.liberated, winner: state.liberated[winner] + (state.country or "",)}
    state = _clear_table(replace(state, liberated=liberated))
    if t.vp(state, winner) >= t.target(state):  # lib.win.points
        return replace(state, phase=Phase.OVER, winners=(winner,))
    if not state.countries:
        return _deck_out(state)
    draws = tuple(Owed(Step.DRAW, winner, card=c) for c in bonus for _ in range(2))
    return replace(state, dealer=winner, steps=draws + (Owed(Step.TURN_COUNTRY, winner),))


def _fail(state: State) -> State:
    """lib.tie.failed: nothing left to draw; nobody takes the country; the dealer deals again."""
    state = _clear_table(replace(state, failed=state.failed + (state.country or "",)))
    if not state.countries:
        return _deck_out(state)
    return replace(state, steps=(Owed(Step.TURN_COUNTRY, state.dealer),))


def _deck_out(state: State) -> State:
    """lib.win.deck-out: no country left; the most victory points win (ties share)."""
    scores = {p: t.vp(state, p) for p in state.players}
    best = max(scores.values())
    winners = tuple(p for p in state.players if scores[p] == best) if best else ()
    return replace(state, phase=Phase.OVER, winners=winners)


def outcome(state: State) -> Outcome | None:
    """Returns the winner(s) and victory points once the game is over."""
    if state.phase is not Phase.OVER:
        return None
    scores = {p: t.vp(state, p) for p in state.players}
    if not state.winners:
        return Outcome((), scores, "no country was liberated")
    if len(state.winners) == 1:
        w = state.winners[0]
        return Outcome(state.winners, scores, f"{w} wins with {scores[w]} victory points")
    return Outcome(state.winners, scores, f"{' and '.join(state.winners)} share the win with "
                   f"{scores[state.winners[0]]} victory points each")
