"""Cards of War as a pure fold: `initial`, `apply`, the settling between decisions, `outcome`.

`apply` assumes `check` passed. After every event the game settles (`settled`:
turns.settle, one `resolve` at a time) what needs no decision: reshuffles, skipped
draws, passing the turn, a stalemate. For speed `_settle` decides the usual stops
without a `resolve`, and a draw or a deployment settles itself where it knows what
it changed; tests/games/cards_of_war/test_fast_paths.py pins each to `settled`.
Sections follow the rulebook: Setup, Playing a Round, Special Abilities, Winning a
Battle, Winning a Round, Winning the Game.
"""

from __future__ import annotations

from msgspec.structs import replace

from tabletape.engine import Outcome
from tabletape.engine.kit import turns
from tabletape.engine.kit.multiset import drawn, reshuffled, without
from tabletape.tape.events import Event
from tabletape.tape.words import counted

from .components import Lookups
from .events import (
    CardDeployed,
    CardDiscarded,
    CardDrawn,
    CowStarted,
    HandReported,
    OpeningCardDrawn,
)
from .lookups import can_deploy, deck_size, fits, other, owner, top_discard, total
from .state import (
    COMMON,
    EXHAUSTED_HAND,
    HAND,
    TACTICAL_HAND,
    WIN_POINTS,
    Battle,
    Owed,
    Phase,
    State,
    Step,
)

# -- Setup ---------------------------------------------------------------------------------

def initial(lk: Lookups, header: CowStarted) -> State:
    """Returns the table before the opening draw (Setup)."""
    players = tuple(header.players)
    owners = players if header.options.two_decks else (COMMON,)
    return State(
        players=players, options=header.options, phase=Phase.OPENING,
        hands={p: () for p in players}, hand_size={p: HAND for p in players},
        decks={o: dict(lk.full_deck) for o in owners}, discards={o: () for o in owners},
        face_down={p: () for p in players}, battles=_fresh_battles(players),
        rounds_won={p: 0 for p in players})


def _fresh_battles(players: tuple[str, ...]) -> tuple[Battle, ...]:
    return tuple(Battle(piles={p: () for p in players}) for _ in range(3))


def _opening(lk: Lookups, state: State, ev: OpeningCardDrawn) -> State:
    """Setup: the higher opening card starts; equal cards are turned again (cow.setup.opening-tie)."""
    opening = {**state.opening, ev.player: ev.card}
    if len(opening) < len(state.players):
        return replace(state, opening=opening)
    a, b = state.players
    va, vb = (lk.cards[opening[p]].value for p in (a, b))
    if va == vb:
        return replace(state, opening={})
    first = a if va > vb else b
    return _start_round(replace(state, opening={}, phase=Phase.PLAY), first)


def _start_round(state: State, first: str) -> State:
    """Round set-up: the opener deploys first once both hands are filled (cow.setup.deal)."""
    return replace(state, first=first, turn=first, reinforce_card=None,
                   steps=tuple(Owed(Step.REFILL, p) for p in turns.seats_from(state.players, first)))


# -- Playing a Round and Special Abilities -------------------------------------------------

def _report(lk: Lookups, state: State, ev: HandReported) -> State:
    """The recon answer settles the RECON step; it changes nothing on the table."""
    return turns.done(state)


def _draw(lk: Lookups, state: State, ev: CardDrawn) -> State:
    """A card into the hand: a refill (cow.draw.refill) or a reinforcement (cow.reinforce.draw);
    then settled (`_settle`)."""
    # the kit's draw, and one `replace` (tests/games/cards_of_war/test_fast_paths.py pins it
    # to the plain play followed by the settle loop)
    p, card = ev.player, ev.card
    two = state.options.two_decks
    own = p if two else COMMON  # lookups.owner
    decks, hands = drawn(state.decks, own, state.hands, p, card)
    deck, hand = decks[own], hands[p]
    steps = state.steps
    h = steps[0]
    # `_settle`'s usual stops, known here: with every pile holding two kinds of card or more
    # (nothing to reshuffle, no draw skipped), a refill below the hand's size is still owed;
    # a full hand's refill followed by the turn's pass hands the turn to an opponent who
    # holds a card (no Theatres of War); a reinforcement's deployment from the hand is owed
    if len(deck) > 1 and not (two and any(len(d) <= 1 for d in decks.values())):
        if h.step is _REFILL:
            if len(hand) < state.hand_size[p]:
                return replace(state, decks=decks, hands=hands)
            if len(steps) == 2 and steps[1].step is _PASS and (
                    not state.options.theatres_of_war or not lk.no_fit):
                a, b = state.players
                opp = b if p == a else a
                if hands[opp]:
                    return replace(state, decks=decks, hands=hands, steps=(), turn=opp)
        elif (h.step is _REINFORCE_DRAW and len(steps) > 1
              and (n := steps[1]).step is _REINFORCE_DEPLOY and hands[n.player]
              and not state.options.alternative_reinforce
              and (not state.options.theatres_of_war or not lk.no_fit)):
            return replace(state, decks=decks, hands=hands, steps=steps[1:], reinforce_card=card)
    if h.step is _REINFORCE_DRAW:
        return _settle(lk, replace(state, decks=decks, hands=hands, steps=steps[1:],
                                   reinforce_card=card))
    return _settle(lk, replace(state, decks=decks, hands=hands))


def _discard(lk: Lookups, state: State, ev: CardDiscarded) -> State:
    """cow.opt.exhaustion.discard: a card from the hand onto the discard pile, face up; the
    step stays owed until the hand is down to its size (then `resolve` settles it)."""
    own = owner(state, ev.player)
    return replace(state, hands={**state.hands, ev.player: without(state.hands[ev.player], ev.card)},
                   discards={**state.discards, own: state.discards[own] + (ev.card,)})


def _deploy(lk: Lookups, state: State, ev: CardDeployed) -> State:
    """Playing a Round and Special Abilities: place the card, kill, score, owe what it grants;
    then settled (`_settle`)."""
    me, name = ev.player, ev.card
    a, b = state.players
    opp = b if me == a else a  # lookups.other
    two = state.options.two_decks
    steps = state.steps
    owed_before = steps[1:] if steps else None
    hands, discards = state.hands, state.discards  # copied only where they change
    if ev.from_discard:  # cow.opt.alt-reinforce: the drawn card takes the discard's place
        own = me if two else COMMON
        hands, discards = dict(hands), dict(discards)
        discards[own] = discards[own][:-1]
        if state.reinforce_card is not None:
            hands[me] = without(hands[me], state.reinforce_card)
            discards[own] += (state.reinforce_card,)
    else:
        hand = hands[me]
        j = hand.index(name)  # multiset.without, written out
        hands = hands.copy()
        hands[me] = hand[:j] + hand[j + 1:]
    i = ev.battle - 1
    battle = state.battles[i]
    piles = battle.piles.copy()
    if ev.kill:  # cow.kill.*: the opponent's top card in this battle is discarded at once
        victim = piles[opp][-1]
        piles[opp] = piles[opp][:-1]
        if discards is state.discards:
            discards = dict(discards)
        discards[opp if two else COMMON] += (victim,)
    mine = piles[me] + (name,)
    theatre = battle.theatre or ev.theatre
    card = lk.cards[name]  # what it owes: its partner, the RECON answer, the reinforcement
    owed: tuple[Owed, ...] = ()
    if ev.joint:
        owed += (Owed(Step.PARTNER, me, battle=ev.battle, card=name),)
    if card.recon:
        owed += (Owed(_RECON, opp),)
    if card.reinforce:
        owed += (Owed(_REINFORCE_DRAW, me), Owed(_REINFORCE_DEPLOY, me))
    # lookups.total, written out: under Theatres of War only the battle's theatre counts
    points = 0
    if theatre is None or not state.options.theatres_of_war:
        value_of = lk.value_of
        for n in mine:
            points += value_of[n]
    else:
        cards = lk.cards
        for n in mine:
            if cards[n].theatre == theatre:
                points += cards[n].value
    bs = state.battles
    # what was owed after this deployment, or on a fresh turn: refill, then pass (cow.draw.refill)
    steps = owed + (owed_before if owed_before is not None
                    else _TURN_ENDS.get(me) or _refill_and_pass(me))
    if points < WIN_POINTS:
        piles[me] = mine
        battle = replace(battle, piles=piles, theatre=theatre)
        # _put, written out for the three battles (cow.setup: always three)
        put = ((battle, bs[1], bs[2]) if i == 0 else (bs[0], battle, bs[2]) if i == 1
               else (bs[0], bs[1], battle))
        after = replace(state, hands=hands, discards=discards, reinforce_card=None,
                        battles=put, steps=steps)
    else:
        # Winning a Battle: `_win_battle` for this battle, written out with the score just
        # counted: the loser's cards to the discards, the winner's face down until the round
        # ends
        if discards is state.discards:
            discards = dict(discards)
        discards[opp if two else COMMON] += piles[opp]
        face_down = state.face_down.copy()
        face_down[me] += mine
        done = Battle(piles={a: (), b: ()}, theatre=theatre, closed=True, winner=me,
                      points=points)
        put = ((done, bs[1], bs[2]) if i == 0 else (bs[0], done, bs[2]) if i == 1
               else (bs[0], bs[1], done))
        if put[0].closed and put[1].closed and put[2].closed:  # only a win closes a battle
            state = _end_round(lk, replace(state, hands=hands, discards=discards,
                                           face_down=face_down, reinforce_card=None,
                                           battles=put))
            if lk.round_end_abilities and state.phase is _PLAY:  # 1.2; 1.1 dropped them
                return _settle(lk, _abilities_past_the_round(state, owed + (owed_before or ())))
            return _settle(lk, state)
        after = replace(state, hands=hands, discards=discards, face_down=face_down,
                        reinforce_card=None, battles=put, steps=steps)
    # `_settle`'s usual stops, known here: with every pile holding two kinds of card or more
    # (nothing to reshuffle, no draw skipped), the RECON answer, a joint partner, a
    # reinforcement's draw and a refill below the hand's size are owed
    for d in state.decks.values():
        if len(d) <= 1:
            return _settle(lk, after)
    h = steps[0]
    step = h.step
    if step is _REFILL:
        if len(hands[h.player]) < state.hand_size[h.player]:
            return after
    elif step is _RECON or step is _PARTNER or step is _REINFORCE_DRAW:
        return after
    return _settle(lk, after)


_TURN_ENDS: dict[str, tuple[Owed, Owed]] = {}  # player -> the steps that end their turn


def _refill_and_pass(player: str) -> tuple[Owed, Owed]:
    """Returns (Owed(REFILL, player), Owed(PASS, player)): what a fresh turn's deployment
    owes; the same frozen values each turn, made once per player name."""
    ends = _TURN_ENDS.get(player)
    if ends is None:
        if len(_TURN_ENDS) >= 1024:  # a bound, however many names a process meets
            _TURN_ENDS.clear()
        ends = _TURN_ENDS[player] = (Owed(Step.REFILL, player), Owed(Step.PASS, player))
    return ends


def _abilities_past_the_round(state: State, owed: tuple[Owed, ...]) -> State:
    """cow.ability.round-end (rules 1.2): what a deployment that ended the round still owes,
    settled first in the next round: the RECON answer; a second deployment, a joint partner
    and the turn's refill lapse with the round (the next round's refills follow), and so
    does the reinforcement's extra draw unless reinforce_draw_at_round_end draws it now
    (cow.reinforce.round-end)."""
    draw = state.options.reinforce_draw_at_round_end
    kept = tuple(o for o in owed if o.step is _RECON or (draw and o.step is _REINFORCE_DRAW))
    return replace(state, steps=kept + state.steps) if kept else state


def _put(battles: tuple[Battle, ...], i: int, battle: Battle) -> tuple[Battle, ...]:
    return battles[:i] + (battle,) + battles[i + 1:]


# -- apply ---------------------------------------------------------------------------------

APPLY = turns.by_event(_opening, _draw, _report, _deploy, _discard)  # which play, which event


def apply(lk: Lookups, state: State, event: Event) -> State:
    """Returns the state after a legal event, settled until a decision is pending."""
    kind = type(event)
    play = APPLY.get(kind)
    if play is None:
        return _settle(lk, state)
    if kind is CardDrawn or kind is CardDeployed:  # these settle what follows them
        return play(lk, state, event)
    return _settle(lk, play(lk, state, event))


# -- settling what needs no decision -------------------------------------------------------

def settled(lk: Lookups, state: State) -> State:
    """Returns the state with everything that needs no decision resolved (turns.settle over
    `resolve`): the plain definition `_settle` stands for."""
    return turns.settle(state, lambda s: resolve(lk, s))


def _settle(lk: Lookups, state: State) -> State:
    """`settled`, with the usual stops and steps decided here rather than by a `resolve` each
    (tests/games/cards_of_war/test_fast_paths.py pins it to `settled` on every state).

    While every deck holds two kinds of card or more there is nothing to reshuffle and no
    draw is skipped for an empty pile; then a deployment owed by a player with a card
    (no Theatres of War), a draw into a hand below its size, the RECON answer, a joint
    partner and a reinforcement's deployment from a hand (no Alternative Reinforce) are
    decisions; a full hand's refill followed by the turn's pass hands the turn
    to an opponent holding a card. Anything else is `resolve`'s, one step at a time.
    """
    while True:
        for deck in state.decks.values():
            if len(deck) <= 1:
                break
        else:
            if state.phase is not _PLAY:
                return state
            steps = state.steps
            fits_any = not state.options.theatres_of_war or not lk.no_fit  # can_deploy: a card
            if not steps:
                if fits_any and state.hands[state.turn]:  # type: ignore[index]
                    return state
            else:
                h = steps[0]
                step = h.step
                if step is _REFILL:
                    p = h.player
                    if len(state.hands[p]) < state.hand_size[p]:
                        return state
                    if fits_any and len(steps) > 1 and (n := steps[1]).step is _PASS:
                        a, b = state.players
                        opp = b if n.player == a else a
                        if state.hands[opp]:  # _pass_turn to an opponent who can deploy
                            if len(steps) == 2:  # the turn is the opponent's: a deployment
                                return replace(state, steps=(), turn=opp)
                            state = replace(state, steps=steps[2:], turn=opp)
                            continue
                elif step is _RECON or step is _REINFORCE_DRAW or step is _PARTNER:
                    return state
                elif step is _REINFORCE_DEPLOY:  # _can_redeploy: a card in hand
                    if fits_any and not state.options.alternative_reinforce \
                            and state.hands[h.player]:
                        return state
        after = resolve(lk, state)
        if after is None:
            return state
        state = after


def resolve(lk: Lookups, state: State) -> State | None:
    """Returns the state after one step that needs no decision, or None when one is pending."""
    for deck in state.decks.values():  # `_reshuffle` only when some deck is down to 0-1 kinds
        if len(deck) <= 1:
            shuffled = _reshuffle(state)
            if shuffled is not state:
                return shuffled
            break
    if state.phase is not _PLAY:
        return None
    if not state.steps:  # a deployment is owed, unless none can be made (cow.turn.empty-hand)
        if can_deploy(lk, state, state.turn):  # type: ignore[arg-type]
            return None
        return _pass_turn(lk, state, state.turn)  # type: ignore[arg-type]
    h = state.steps[0]
    if not _skipped(lk, state, h):
        return None
    state = replace(state, steps=state.steps[1:])  # turns.done, inline: settled at every event
    return _pass_turn(lk, state, h.player) if h.step is Step.PASS else state


def _skipped(lk: Lookups, state: State, h: Owed) -> bool:
    """Returns whether an owed step resolves without a decision."""
    # `is` on module constants, not a `match` of Step.X patterns: this runs at every event
    step = h.step
    if step is _PASS:
        return True
    if step is _REFILL:  # cow.hand.over-size, cow.deck.exhausted
        return (len(state.hands[h.player]) >= state.hand_size[h.player]
                or not deck_size(state, h.player))
    if step is _REINFORCE_DRAW:
        return not deck_size(state, h.player)
    if step is _DISCARD:  # cow.opt.exhaustion.discard
        return len(state.hands[h.player]) <= state.hand_size[h.player]
    if step is _REINFORCE_DEPLOY:
        return not _can_redeploy(lk, state, h.player)
    return False


_PLAY = Phase.PLAY
_PASS, _REFILL, _REINFORCE_DRAW, _DISCARD, _REINFORCE_DEPLOY, _RECON, _PARTNER = (
    Step.PASS, Step.REFILL, Step.REINFORCE_DRAW, Step.DISCARD, Step.REINFORCE_DEPLOY, Step.RECON,
    Step.PARTNER)


def _can_redeploy(lk: Lookups, state: State, player: str) -> bool:
    if state.options.alternative_reinforce:
        offered = (state.reinforce_card, top_discard(state, player))
        return any(c is not None and fits(lk, state, player, c) for c in offered)
    return can_deploy(lk, state, player)


def _reshuffle(state: State) -> State:
    """cow.deck.reshuffle: a pile down to one card (or none) takes the discards back in;
    with no_reshuffle_between_rounds, not before a new round's first deployment."""
    if state.options.no_reshuffle_between_rounds and _between_rounds(state):
        return state  # cow.round.no-reshuffle
    shuffled = reshuffled(state.decks, state.discards, most=1)  # the last card goes in too
    if shuffled is None:
        return state
    return replace(state, decks=shuffled[0], discards=shuffled[1])


def _between_rounds(state: State) -> bool:
    """Returns whether no card has been deployed yet this round: every battle untouched (a
    deployed card stays on the table until its battle is won, and a killer stays too)."""
    return all(not b.closed and not any(b.piles.values()) for b in state.battles)


def _pass_turn(lk: Lookups, state: State, player: str) -> State:
    """Hands the turn to the opponent; a player who cannot deploy passes (cow.turn.empty-hand,
    cow.opt.theatres.no-fit); when neither can, the round ends in a stalemate."""
    opp = other(state, player)
    if can_deploy(lk, state, opp):
        return replace(state, turn=opp)
    if can_deploy(lk, state, player):
        return replace(state, turn=player)
    return _stalemate(lk, state)


# -- Winning a Battle ----------------------------------------------------------------------

def _win_battle(lk: Lookups, state: State, i: int, winner: str | None) -> State:
    """cow.battle.win: loser's cards to the discards, winner's face down until the round ends."""
    battle = state.battles[i]
    discards, face_down = dict(state.discards), dict(state.face_down)
    points = total(lk, state, battle, winner) if winner else 0
    for p in state.players:
        if p == winner:
            face_down[p] += battle.piles[p]
        else:
            discards[owner(state, p)] += battle.piles[p]
    done = Battle(piles={p: () for p in state.players}, theatre=battle.theatre, closed=True,
                  winner=winner, points=points)
    return replace(state, discards=discards, face_down=face_down,
                   battles=_put(state.battles, i, done))


def _stalemate(lk: Lookups, state: State) -> State:
    """cow.battle.stalemate: nothing left to play; each open battle goes to the higher pile."""
    a, b = state.players
    for i, battle in enumerate(state.battles):
        if battle.closed:
            continue
        ta, tb = total(lk, state, battle, a), total(lk, state, battle, b)
        state = _win_battle(lk, state, i, a if ta > tb else b if tb > ta else None)
    return _end_round(lk, state)


# -- Winning a Round -----------------------------------------------------------------------

def _end_round(lk: Lookups, state: State) -> State:
    """Winning a Round, then the options that follow from it and Winning the Game."""
    won = {p: sum(b.winner == p for b in state.battles) for p in state.players}
    a, b = state.players
    winner = a if won[a] > won[b] else b if won[b] > won[a] else None
    discards = dict(state.discards)
    for p in state.players:  # cow.round.next: face-down cards go to the discards
        discards[owner(state, p)] += state.face_down[p]
    sweep = winner if winner and won[winner] == 3 else None
    sizes = dict(state.hand_size)
    if state.options.tactical_advantage:
        sizes = {p: TACTICAL_HAND if p == sweep else HAND for p in state.players}
    exhausted = other(state, sweep) if state.options.strategic_exhaustion and sweep else None
    if exhausted:
        sizes[exhausted] -= 1
    rounds_won = {**state.rounds_won, **({winner: state.rounds_won[winner] + 1} if winner else {})}
    state = replace(state, discards=discards, face_down={p: () for p in state.players},
                    battles=_fresh_battles(state.players), hand_size=sizes, rounds_won=rounds_won,
                    round_winners=state.round_winners + (winner,), steps=(), turn=None)
    over, champion = _game_over(state, sweep)
    if over:
        return replace(state, phase=Phase.OVER, winner=champion)
    first = winner or other(state, state.first or a)  # cow.round.drawn
    state = _start_round(replace(state, round=state.round + 1), first)
    if exhausted and lk.exhaustion_discard:  # cow.opt.exhaustion.discard (1.1): the smaller
        # hand first, then the refills; under 1.0 the hand shrinks only as it is played
        state = replace(state, steps=(Owed(Step.DISCARD, exhausted), *state.steps))
    return state


# -- Winning the Game ----------------------------------------------------------------------

def _game_over(state: State, sweep: str | None) -> tuple[bool, str | None]:
    """Returns whether the game is over after this round, and who won it (None: a draw)."""
    a, b = state.players
    wins = state.rounds_won
    leader = a if wins[a] > wins[b] else b if wins[b] > wins[a] else None
    if sweep and state.options.strategic_exhaustion and \
            state.hand_size[other(state, sweep)] <= EXHAUSTED_HAND:
        return True, sweep  # cow.opt.exhaustion
    match state.options.length:
        case "short":
            return True, leader
        case "normal":
            return max(wins.values()) >= 2 or state.round >= 3, leader
    return abs(wins[a] - wins[b]) >= 3, leader  # cow.game.long


def outcome(lk: Lookups, state: State) -> Outcome | None:
    """Returns the winner and rounds won once the game is over."""
    if state.phase is not Phase.OVER:
        return None
    wins = dict(state.rounds_won)
    if state.winner is None:
        return Outcome((), wins, f"a draw after {counted(state.round, 'round')}")
    won, lost = wins[state.winner], wins[other(state, state.winner)]
    return Outcome((state.winner,), wins, f"{state.winner} wins the war, "
                   f"{won} round{'s' if won != 1 else ''} to {lost}")
