"""Liberation as a pure fold: `initial`, `apply`, the settle loop and `outcome`.

`apply` assumes `check` passed: one small function per event type (the `APPLY`
table), then `settle` resolves what needs no decision, one step at a time:
reshuffles, lapsed steps, the end of a turn, a round, a country. A played card
queues what it sets in motion as owed steps (lib.ability.order): its own ability,
the first-card draw, the country's instruction, then the end of the turn (or, in a
double-play country, the chance of a second card).
"""

from __future__ import annotations

from functools import partial

from msgspec.structs import replace

from tabletape.engine import Outcome
from tabletape.engine.kit import turns
from tabletape.engine.kit.multiset import merge, take, with_card, with_cards, without
from tabletape.tape.events import Event
from tabletape.tape.words import listed

from . import legality, lookups
from .components import (
    ABILITY_ALL_TURN_DOWN,
    ABILITY_DRAW_TWO,
    ABILITY_FIRST_DRAW,
    ABILITY_NONE,
    ABILITY_PREVENT,
    ABILITY_TRADE_CARD,
    ABILITY_TRADE_HANDS,
    ABILITY_TURN_OVER,
    ABILITY_TURN_UP,
    TRIGGER_DOUBLE_PLAY,
    TRIGGER_DRAW,
    TRIGGER_TURN_OVER,
    Lookups,
)
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
    TurnOverDeclined,
    TurnOverPrevented,
    TurnPassed,
)
from .state import (
    CHANCE_STEPS,
    PHASE_OVER,
    PHASE_PLAY,
    STAGE_DEAL,
    STAGE_EXTRA,
    STAGE_ROUNDS,
    STAGE_TIE_BREAK,
    STEP_DEAL,
    STEP_DRAW,
    STEP_END_TURN,
    STEP_PREVENT,
    STEP_SECOND,
    STEP_SWAP,
    STEP_TAKE,
    STEP_TIE_DRAW,
    STEP_TURN_COUNTRY,
    STEP_TURN_DOWN,
    STEP_TURN_DOWN_OWN,
    STEP_TURN_OVER,
    STEP_TURN_UP,
    Owed,
    Played,
    State,
)

# -- SET UP ----------------------------------------------------------------------------------

def initial(lk: Lookups, header: LiberationStarted) -> State:
    """Returns the table before the first country is turned (Set Up)."""
    players = tuple(header.players)
    first = players[0]  # lib.setup.first: the first seat turns, deals and leads
    return State(
        players=players, options=header.options, phase=PHASE_PLAY, stage=STAGE_DEAL,
        dealer=first, leader=first, countries=lk.country_names,
        deck=dict(lk.full_deck), discards=(), hands={p: () for p in players},
        played={p: () for p in players}, liberated={p: () for p in players},
        plays={p: 0 for p in players}, tie_cards={p: () for p in players},
        steps=(Owed(STEP_TURN_COUNTRY, first),))


# -- apply: one function per event -----------------------------------------------------------

def apply(lk: Lookups, state: State, event: Event) -> State:
    """Returns the state after a legal event, settled until a decision is pending."""
    state = APPLY[type(event)](lk, state, event)
    # `resolve`'s commonest answers, None (a decision is pending), asked here first: a card
    # to deal or draw from a force deck that has one (or a country to turn); a turn to play
    steps = state.steps
    if steps:
        step = steps[0].step
        if step in CHANCE_STEPS and (step is STEP_TURN_COUNTRY or state.deck):
            return state
    elif state.stage is STAGE_ROUNDS or state.stage is STAGE_EXTRA:
        return state
    while (after := resolve(lk, state)) is not None:  # turns.settle, written out: no
        state = after                                   # partial, no frame per event
    return state


def _country_turned(lk: Lookups, state: State, ev: CountryTurned) -> State:
    """How to Play: the dealer turns the country, then deals its value to everyone."""
    vp = lk.countries[ev.country].vp
    left = lookups.left_of(state, state.dealer)
    order = lookups.clockwise(state, left)  # lib.deal.count: dealer last
    deal = tuple([Owed(STEP_DEAL, p) for p in order]) * vp  # vp times round the table
    leader = state.dealer if state.first_country else left
    return replace(state, country=ev.country, leader=leader, steps=state.steps[1:] + deal,
                   countries=tuple([c for c in state.countries if c != ev.country]))


def _card_to_hand(lk: Lookups, state: State, ev: ForceCardDealt | ForceCardDrawn) -> State:
    """A dealt card or a bonus draw goes from the force deck into the hand."""
    p, c = ev.player, ev.card
    hands = state.hands.copy()  # (copied, then the one entry set: faster than {**d, p: ...})
    hands[p] = with_card(hands[p], c)
    return replace(state, deck=take(state.deck, c), steps=state.steps[1:], hands=hands)


def _tie_break_drawn(lk: Lookups, state: State, ev: TieBreakDrawn) -> State:
    """lib.tie.draw: the tie-break card is set aside by its player, in order."""
    p, c = ev.player, ev.card
    return replace(state, deck=take(state.deck, c), steps=state.steps[1:],
                   tie_cards={**state.tie_cards, p: state.tie_cards[p] + (c,)})


def _passed(lk: Lookups, state: State, ev: TurnPassed) -> State:
    """lib.play.pass: the turn is used up all the same (a second card not played, too)."""
    return _end_turn(lk, turns.done(state) if state.steps else state)


def _prevented(lk: Lookups, state: State, ev: TurnOverPrevented) -> State:
    """lib.ability.prevent: the prevent card goes from the hand to the discards."""
    p, c = ev.player, ev.card
    return replace(state, steps=state.steps[1:], hands={**state.hands, p: without(state.hands[p], c)},
                   discards=with_card(state.discards, c))


def _accepted(lk: Lookups, state: State, ev: TurnOverAccepted) -> State:
    """lib.ability.prevent: the owner lets the turn-over stand; the card goes face down."""
    h = state.steps[0]
    return _flip(turns.done(state), h.owner, h.slot, False)


def _hands_traded(lk: Lookups, state: State, ev: HandsTraded) -> State:
    """lib.ability.trade-hands: two players swap whole hands, unseen."""
    p, q = ev.player, ev.other
    return replace(state, steps=state.steps[1:], hands={**state.hands, p: state.hands[q],
                                                        q: state.hands[p]})


# -- FURTHER EXPLANATIONS: abilities and country instructions, as owed steps ----------------

def _played(lk: Lookups, state: State, ev: ForceCardPlayed) -> State:
    """A card goes face up; its ability and the country's instruction are owed in order.

    One new state: the card leaves the hand, joins the row (a trade card waits for the card
    it is traded for) and what it sets in motion is owed first; when nothing is owed but the
    end of the turn, the turn ends here, as settling the owed END_TURN would.
    """
    me, name = ev.player, ev.card
    c = lk.cards[name]
    ability = c.ability
    # (each dict copied, then its one entry set: twice as fast as {**d, key: value})
    hands, plays, played = state.hands.copy(), state.plays.copy(), state.played
    hands[me] = without(hands[me], name)
    first = plays[me] == 0
    plays[me] += 1
    turn_plays = state.turn_plays + 1
    owed: list[Owed] = []
    if ability is ABILITY_TRADE_CARD:  # placed once the card it is traded for is chosen
        owed.append(Owed(STEP_TAKE, me, card=name))
    else:
        played = played.copy()
        played[me] += (Played(name),)
    if ability is ABILITY_NONE:
        pass
    elif ability is ABILITY_TURN_OVER:  # lib.ability.turn-over.count: one step per card it turns
        owed += [Owed(STEP_TURN_OVER, me, card=name)] * (c.turns if lk.turn_count else 1)
    elif ability is ABILITY_TURN_UP:
        owed.append(Owed(STEP_TURN_UP, me, card=name))
    elif ability is ABILITY_ALL_TURN_DOWN:
        owed += [Owed(STEP_TURN_DOWN_OWN, q, card=name)
                 for q in lookups.clockwise(state, me) if q != me]
    elif ability is ABILITY_TRADE_HANDS:
        owed.append(Owed(STEP_SWAP, me, card=name))
    elif ability is ABILITY_FIRST_DRAW and first:
        owed.append(Owed(STEP_DRAW, me, card=name))
    land = lk.countries[state.country] if state.country else None  # lookups.country
    if land and land.card_type == c.type:
        if land.trigger is TRIGGER_TURN_OVER:
            owed.append(Owed(STEP_TURN_DOWN, me, card=land.name))
        elif land.trigger is TRIGGER_DRAW:
            owed.append(Owed(STEP_DRAW, me, card=land.name))
    again = (land is not None and land.trigger is TRIGGER_DOUBLE_PLAY and turn_plays == 1
             and ability is not ABILITY_TRADE_HANDS  # lib.country.double-play.second
             and (state.stage is not STAGE_EXTRA  # lib.tie.double-play, lib.opt.tie-one-card
                  or state.options.double_play_tie == "two_cards"))
    steps = state.steps[1:]
    if owed or again:
        steps = (*owed, Owed(STEP_SECOND if again else STEP_END_TURN, me), *steps)
    state = replace(state, steps=steps, hands=hands, plays=plays, turn_plays=turn_plays,
                    played=played)
    return state if owed or again else _end_turn(lk, state)  # only the end of the turn owed


def _turned(lk: Lookups, state: State, ev: PlayedCardTurned) -> State:
    """A card is turned; the owner of a card turned face down first gets to answer.

    Only turning a face-up card face down can be prevented. From rules 1.2 its owner is
    asked whatever they hold (lib.ability.prevent.asked); before, only a holder of a prevent
    card was. The rest of a turn-over card's turns remember the card, which it may not turn
    twice (lib.ability.turn-over.count).
    """
    h, rest = state.steps[0], state.steps[1:]
    if h.step is STEP_TURN_OVER:
        rest = _spend(rest, h, (ev.owner, ev.slot))
    if (h.step in (STEP_TURN_OVER, STEP_TURN_DOWN) and not ev.face_up
            and (lk.prevent_asked or lookups.holds(lk, state, ev.owner, ABILITY_PREVENT))):
        window = Owed(STEP_PREVENT, ev.owner, card=h.card, owner=ev.owner, slot=ev.slot, by=ev.player)
        return replace(state, steps=(window,) + rest)
    return _flip(replace(state, steps=rest), ev.owner, ev.slot, ev.face_up)


def _spend(steps: tuple[Owed, ...], h: Owed, target: tuple[str, int]) -> tuple[Owed, ...]:
    """Returns the steps with `target` marked as turned on the same card's remaining turns."""
    n = 0
    while n < len(steps) and _same_card(steps[n], h):
        n += 1
    spent = tuple(replace(o, spent=o.spent + (target,)) for o in steps[:n])
    return spent + steps[n:]


def _same_card(o: Owed, h: Owed) -> bool:
    return o.step is STEP_TURN_OVER and o.player == h.player and o.card == h.card


def _declined(lk: Lookups, state: State, ev: TurnOverDeclined) -> State:
    """lib.opt.turn-over-optional: the card's remaining turns are given up."""
    h, rest = state.steps[0], state.steps[1:]
    while rest and _same_card(rest[0], h):
        rest = rest[1:]
    return replace(state, steps=rest)


def _flip(state: State, owner: str, slot: int, up: bool) -> State:
    """Returns the state with one played card turned face up or down."""
    played = state.played.copy()  # (copied, then the one entry set: as in _played)
    row = played[owner]
    played[owner] = row[:slot] + (replace(row[slot], up=up),) + row[slot + 1:]
    return replace(state, played=played)


def _taken(lk: Lookups, state: State, ev: PlayedCardTaken) -> State:
    """lib.ability.trade-card: the trade card takes the chosen card's place in its owner's row."""
    h, rest = state.steps[0], state.steps[1:]
    row = state.played[ev.owner]
    got = row[ev.slot].card
    row = row[:ev.slot] + (Played(h.card),) + row[ev.slot + 1:]
    return replace(state, steps=rest, played={**state.played, ev.owner: row},
                   hands={**state.hands, ev.player: with_card(state.hands[ev.player], got)})


APPLY = turns.by_event(_country_turned, _card_to_hand, _tie_break_drawn, _played, _passed,
                       _turned, _prevented, _accepted, _declined, _taken, _hands_traded)


# -- settling what needs no decision ---------------------------------------------------------

def settle(lk: Lookups, state: State) -> State:
    """Resolves everything that needs no decision, until a decision is pending."""
    return turns.settle(state, partial(resolve, lk))


def resolve(lk: Lookups, state: State) -> State | None:
    """Returns the state with one thing that needs no decision resolved, or None to stop.

    None once the game is over or a decision is pending.
    """
    if state.phase is not PHASE_PLAY:
        return None
    if not state.steps:
        if state.stage is STAGE_DEAL:
            return _start_rounds(state)
        if state.stage is STAGE_TIE_BREAK:
            return _compare_tie(lk, state)
        return None
    h = state.steps[0]
    step = h.step
    if step in CHANCE_STEPS:
        if step is STEP_TURN_COUNTRY or state.deck:
            return None
        if state.discards:  # lib.deck.refresh
            return replace(state, deck=merge(state.deck, state.discards), discards=())
        if step is STEP_TIE_DRAW:  # lib.tie.failed
            return _fail(lk, state)
        return replace(state, steps=state.steps[1:])  # lib.deck.exhausted
    if step is STEP_END_TURN:
        return _end_turn(lk, replace(state, steps=state.steps[1:]))
    if step is STEP_SECOND:
        if legality.can_play(lk, state, h.player):  # legal offers a ForceCardPlayed
            return None
        return _end_turn(lk, replace(state, steps=state.steps[1:]))
    if step is STEP_PREVENT or legality.has_choice(lk, state, h):
        return None
    if step is STEP_TAKE:  # lib.ability.trade-card.no-target: it stays with its player
        return replace(state, steps=state.steps[1:], played={
            **state.played, h.player: state.played[h.player] + (Played(h.card),)})
    return replace(state, steps=state.steps[1:])  # lib.ability.no-target


# -- HOW TO PLAY: rounds, the count, ties, the next country ---------------------------------

def _start_rounds(state: State) -> State:
    """How to Play: the leader opens round one; everyone takes part."""
    return replace(state, stage=STAGE_ROUNDS, round=1, turn=state.leader, turn_plays=0,
                   contenders=lookups.clockwise(state, state.leader))


def _end_turn(lk: Lookups, state: State) -> State:
    """Passes the turn on; after the last contender, the next round or the count."""
    i = state.contenders.index(state.turn or "")
    if i + 1 < len(state.contenders):
        return replace(state, turn=state.contenders[i + 1], turn_plays=0)
    vp = lk.countries[state.country].vp  # type: ignore[index]  # (lookups.country: one is in play)
    if state.stage is STAGE_ROUNDS and state.round < vp:
        return replace(state, round=state.round + 1, turn=state.contenders[0], turn_plays=0)
    return _count(lk, state)


def _count(lk: Lookups, state: State) -> State:
    """Liberation goes to the highest face-up total; ties play an extra round, then draw."""
    pool = state.players if state.stage is STAGE_ROUNDS else state.contenders
    totals = [lookups.total(lk, state, p) for p in pool]
    best = max(totals)
    if totals.count(best) == 1:
        return _liberate(lk, state, pool[totals.index(best)])
    tied = lookups.clockwise(state, state.leader,
                             tuple(p for p, t in zip(pool, totals, strict=True) if t == best))
    if state.stage is STAGE_ROUNDS:  # lib.tie.extra-round
        return replace(state, stage=STAGE_EXTRA, contenders=tied, turn=tied[0], turn_plays=0,
                       round=state.round + 1)
    return _tie_draws(state, tied)


def _tie_draws(state: State, tied: tuple[str, ...]) -> State:
    """lib.tie.draw: each tied player draws a card; only its force points count."""
    return replace(state, stage=STAGE_TIE_BREAK, contenders=tied, turn=None,
                   steps=tuple(Owed(STEP_TIE_DRAW, p) for p in tied))


def _compare_tie(lk: Lookups, state: State) -> State:
    drawn = {p: lk.cards[state.tie_cards[p][-1]].points for p in state.contenders}
    best = max(drawn.values())
    tied = tuple(p for p in state.contenders if drawn[p] == best)
    return _liberate(lk, state, tied[0]) if len(tied) == 1 else _tie_draws(state, tied)


def _clear_table(state: State) -> State:
    """lib.country.discard: every played and tie-break card goes to the discards."""
    gone = [p.card for row in state.played.values() for p in row]
    for cards in state.tie_cards.values():
        gone += cards
    players = state.players
    return replace(state, discards=with_cards(state.discards, *gone),
                   played=dict.fromkeys(players, ()), tie_cards=dict.fromkeys(players, ()),
                   plays=dict.fromkeys(players, 0), country=None,
                   stage=STAGE_DEAL, round=0, contenders=(), turn=None, turn_plays=0,
                   first_country=False, steps=())


def _liberate(lk: Lookups, state: State, winner: str) -> State:
    """The winner keeps the country; the game may end; else they turn and deal the next."""
    bonus = [p.card for p in state.played[winner]
             if p.up and lk.cards[p.card].ability is ABILITY_DRAW_TWO]
    liberated = {**state.liberated, winner: state.liberated[winner] + (state.country or "",)}
    state = _clear_table(replace(state, liberated=liberated))
    if lookups.vp(lk, state, winner) >= lookups.target(state):  # lib.win.points
        return replace(state, phase=PHASE_OVER, winners=(winner,))
    if not state.countries:
        return _deck_out(lk, state)
    draws = tuple(Owed(STEP_DRAW, winner, card=c) for c in bonus for _ in range(2))
    return replace(state, dealer=winner, steps=draws + (Owed(STEP_TURN_COUNTRY, winner),))


def _fail(lk: Lookups, state: State) -> State:
    """lib.tie.failed: nothing left to draw; nobody takes the country; the dealer deals again."""
    state = _clear_table(replace(state, failed=state.failed + (state.country or "",)))
    if not state.countries:
        return _deck_out(lk, state)
    return replace(state, steps=(Owed(STEP_TURN_COUNTRY, state.dealer),))


def _deck_out(lk: Lookups, state: State) -> State:
    """lib.win.deck-out: no country left; the most victory points win (ties share)."""
    scores = {p: lookups.vp(lk, state, p) for p in state.players}
    best = max(scores.values())
    winners = tuple(p for p in state.players if scores[p] == best) if best else ()
    return replace(state, phase=PHASE_OVER, winners=winners)


def outcome(lk: Lookups, state: State) -> Outcome | None:
    """Returns the winner(s) and victory points once the game is over."""
    if state.phase is not PHASE_OVER:
        return None
    scores = {p: lookups.vp(lk, state, p) for p in state.players}
    if not state.winners:
        return Outcome((), scores, "no country was liberated")
    if len(state.winners) == 1:
        w = state.winners[0]
        return Outcome(state.winners, scores, f"{w} wins with {scores[w]} victory points")
    return Outcome(state.winners, scores, f"{listed(state.winners)} share the win with "
                   f"{scores[state.winners[0]]} victory points each")
