"""Cards of War legality: who decides next, `check` with rule ids, `legal` and chance's `weight`.

Read alongside the rulebook's sections: Setup, Playing a Round, Special
Abilities, Winning a Battle, and the Optional Rules. Every function that needs
the deck takes the game's `Lookups` first (`lk`).
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import product

from tabletape.engine import CHANCE, Decision, Violation
from tabletape.engine.kit import turns
from tabletape.engine.kit.multiset import without
from tabletape.engine.kit.turns import Owing, by_event, head, not_in_deck
from tabletape.tape.events import Event

from .components import Lookups, Theatre
from .events import CardDeployed, CardDiscarded, CardDrawn, CowEvent, HandReported, OpeningCardDrawn
from .lookups import other, owner, theatre_counts, top_discard
from .state import COMMON, Owed, Phase, State, Step

DRAWS = (Step.REFILL, Step.REINFORCE_DRAW)
DEPLOYS = (Step.PARTNER, Step.REINFORCE_DEPLOY)
# module constants: an enum member read through its class costs an attribute lookup each time
OPENING, PLAY, OVER = Phase.OPENING, Phase.PLAY, Phase.OVER
REFILL, REINFORCE_DRAW, REINFORCE_DEPLOY, _RECON, _DISCARD, _PARTNER = (
    Step.REFILL, Step.REINFORCE_DRAW, Step.REINFORCE_DEPLOY, Step.RECON, Step.DISCARD,
    Step.PARTNER)


# -- Setup and who decides next ------------------------------------------------------------


def next_opener(state: State) -> str:
    """Returns the next player to turn up an opening card (Setup): the first seat without one."""
    p = turns.next_in(state.players, None, state.opening)
    assert p is not None  # the opening cards are taken back once every player has turned one
    return p


def over(state: State) -> bool:
    """Returns whether the game is over (exactly when `pending` is None)."""
    return state.phase is OVER


def pending(lk: Lookups, state: State) -> Decision | None:
    """Returns who must decide next and what, or None once the game is over."""
    if state.phase is Phase.OVER:
        return None
    if state.phase is Phase.OPENING:
        p = next_opener(state)
        return Decision(CHANCE, "opening draw", f"the card {p} turns up to decide who starts")
    h = head(state)
    if h is None:
        return Decision(state.turn or "", "deploy", f"{state.turn} deploys a card")
    if h.step in DRAWS:
        return Decision(CHANCE, "draw", f"the card {h.player} draws ({h.step})")
    if h.step is Step.RECON:
        return Decision(h.player, "report", f"{h.player} reports their hand's theatres")
    if h.step is Step.DISCARD:
        return Decision(h.player, "discard", f"{h.player} discards down to "
                        f"{state.hand_size[h.player]} cards (strategic exhaustion)")
    return Decision(h.player, "deploy", f"{h.player} must {h.step}")


# -- check ---------------------------------------------------------------------------------

def check(lk: Lookups, state: State, event: Event) -> Violation | None:
    """Returns why the event is illegal in this state, or None."""
    judge = CHECK.get(type(event))
    if judge is None:
        return Violation("cow.turn.step", f"{type(event).__name__} is not a Cards of War event")
    return judge(lk, state, event)


def _check_opening(lk: Lookups, state: State, ev: OpeningCardDrawn) -> Violation | None:
    if state.phase is not Phase.OPENING:
        return Violation("cow.setup.opening", f"{ev.player} turns up an opening card, but the "
                         "first player has already been decided")
    if ev.player != next_opener(state):
        return Violation("cow.setup.opening", f"{next_opener(state)} turns up an opening card "
                         f"next, not {ev.player}")
    return _check_in_deck(state, ev.player, ev.card)


def _check_in_deck(state: State, player: str, card: str) -> Violation | None:
    deck = state.decks[owner(state, player)]
    if card not in deck:
        return not_in_deck("cow.draw.in-deck", f"{player} cannot draw {card!r}: it is not in "
                           "the draw pile", deck)
    return None


def _before_play(state: State, what: str) -> Violation | None:
    """Setup: nothing is owed before the first player is decided."""
    if state.phase is Phase.OPENING:
        return Violation("cow.setup.opening", f"no {what} before the first player is decided")
    return None


_DOES = {"draw": "draws now", "recon report": "answers the recon", "discard": "discards now"}

# the step owed now, by whom: "no draw now: ... first" (cow.turn.step), "bob draws now, not
# alice" (cow.turn.order); steps are owed only in play (the queue is empty before the
# first player is decided, cow.setup.opening, and once the game is over)
OWING: Owing[Lookups, State, Owed] = Owing(
    "cow.turn.step", "cow.turn.order", pending,
    lambda h, player, what: f"{h.player} {_DOES[what]}, not {player}", _before_play)


def _check_draw(lk: Lookups, state: State, ev: CardDrawn) -> Violation | None:
    steps = state.steps  # OWING.refuse's answer when the draw is owed by this player, inline
    if not (steps and ((h := steps[0]).step is REFILL or h.step is REINFORCE_DRAW)
            and h.player == ev.player):
        if v := OWING.refuse(lk, state, DRAWS, ev.player, "draw"):
            return v
    if ev.card not in state.decks[ev.player if state.options.two_decks else COMMON]:
        return _check_in_deck(state, ev.player, ev.card)
    return None


def _check_report(lk: Lookups, state: State, ev: HandReported) -> Violation | None:
    steps = state.steps  # OWING.refuse's answer when the report is owed by this player, inline
    if not (steps and (h := steps[0]).step is _RECON and h.player == ev.player):
        if v := OWING.refuse(lk, state, (Step.RECON,), ev.player, "recon report"):
            return v
    truth = theatre_counts(lk, state.hands[ev.player])
    said = {"air": ev.air, "sea": ev.sea, "ground": ev.ground, "intel": ev.intel}
    if said != truth:
        wrong = ", ".join(f"{k} {said[k]} (holds {truth[k]})" for k in truth if said[k] != truth[k])
        return Violation("cow.recon.report", f"{ev.player}'s report is untrue: {wrong}")
    return None


def _check_discard(lk: Lookups, state: State, ev: CardDiscarded) -> Violation | None:
    # only Strategic Exhaustion owes a discard
    if v := OWING.refuse(lk, state, (Step.DISCARD,), ev.player, "discard"):
        return v
    if ev.card not in state.hands[ev.player]:
        return Violation("cow.opt.exhaustion.discard", f"{ev.player} holds no {ev.card!r}")
    return None


def _check_deploy(lk: Lookups, state: State, ev: CardDeployed) -> Violation | None:
    steps = state.steps
    h = steps[0] if steps else None
    opts = state.options
    # A plain deployment (no theatre named, no pair, not from the discards) by the player
    # who owes it, with neither Theatres of War nor an Alternative Reinforce step: of
    # `_check_deployer` and `_check_placement` only the tests that can refuse it are left,
    # the same refusals in the same order (pinned to the whole chain in
    # tests/games/cards_of_war/test_fast_paths.py).
    if (state.phase is PLAY and not ev.from_discard and not ev.joint and ev.theatre is None
            and not opts.theatres_of_war
            and (h is None or (h.step is REINFORCE_DEPLOY and not opts.alternative_reinforce))
            and ev.player == (state.turn if h is None else h.player)
            and ev.player in state.players):
        if ev.card not in lk.cards:
            return _check_placement(lk, state, ev, h)
        if state.battles[ev.battle - 1].closed or ev.card not in state.hands[ev.player]:
            return _check_placement(lk, state, ev, h)
        if ev.kill or ev.target is not None or opts.automatic_kill:
            return check_kill(lk, state, ev)
        return None
    return _check_deployer(lk, state, ev.player) or _check_placement(lk, state, ev, h)


def _check_deployer(lk: Lookups, state: State, player: str) -> Violation | None:
    """Returns why `player` may not deploy now at all (what no card or battle changes), or None."""
    h = head(state)
    if state.phase is not Phase.PLAY or (h is not None and h.step not in DEPLOYS):
        return OWING.not_now(lk, state, "deployment", player)
    actor = h.player if h else state.turn
    if player != actor:
        return Violation("cow.turn.order", f"it is {actor}'s deployment, not {player}'s")
    if player not in state.players:
        return Violation("cow.turn.order", f"{player} is not playing")
    return None


def _check_placement(lk: Lookups, state: State, ev: CardDeployed, h: Owed | None
                     ) -> Violation | None:
    """Returns why this card may not go into this battle so, by a player who may deploy, or None."""
    if ev.card not in lk.cards:
        return Violation("cow.deploy.in-hand", f"{ev.player} cannot deploy {ev.card!r}: there "
                         "is no such card in this deck")
    battle = state.battles[ev.battle - 1]
    if battle.closed:
        return Violation("cow.deploy.open-battle", f"{ev.player} cannot deploy to battle "
                         f"{ev.battle}: {battle.winner or 'nobody'} already won it this round")
    return (_check_source(state, ev, h) or check_theatre(state, ev)
            or check_joint(lk, state, ev, h) or check_partner(lk, state, ev, h)
            or check_off_theatre(lk, state, ev) or check_kill(lk, state, ev))


def _check_source(state: State, ev: CardDeployed, h: Owed | None) -> Violation | None:
    alt_step = state.options.alternative_reinforce and h is not None and h.step is Step.REINFORCE_DEPLOY
    if ev.from_discard:
        if not alt_step:
            return Violation("cow.opt.alt-reinforce.off", f"{ev.player} may take a card from "
                             "the discard pile only as the Alternative Reinforce deployment")
        top = top_discard(state, ev.player)
        if ev.card != top:
            return Violation("cow.opt.alt-reinforce", f"{ev.player} may take only the top "
                             f"discard, {top!r}, not {ev.card!r}")
        return None
    if ev.card not in state.hands[ev.player]:
        return Violation("cow.deploy.in-hand", f"{ev.player} holds no {ev.card!r}")
    if alt_step and ev.card != state.reinforce_card:
        return Violation("cow.opt.alt-reinforce", f"{ev.player}'s reinforcement deploys the card "
                         f"just drawn ({state.reinforce_card!r}) or the top discard, not "
                         f"{ev.card!r}")
    return None


def check_theatre(state: State, ev: CardDeployed) -> Violation | None:
    battle = state.battles[ev.battle - 1]
    if not state.options.theatres_of_war:
        if ev.theatre is not None:
            return Violation("cow.opt.theatres.choose", f"{ev.player} names a theatre, and "
                             "theatres are named only under Theatres of War")
        return None
    if battle.theatre is None and ev.theatre is None:
        return Violation("cow.opt.theatres.choose", f"{ev.player}'s card opens battle "
                         f"{ev.battle}: {ev.player} names its theatre")
    if battle.theatre is not None and ev.theatre is not None:
        return Violation("cow.opt.theatres.choose", f"{ev.player} names a theatre, but battle "
                         f"{ev.battle} is already the {battle.theatre} theatre")
    return None


def check_off_theatre(lk: Lookups, state: State, ev: CardDeployed) -> Violation | None:
    """Theatres of War: a card of another theatre goes into a battle only to kill there."""
    if not state.options.theatres_of_war or not lk.off_theatre:  # 1.0: any card anywhere
        return None
    battle = state.battles[ev.battle - 1]
    own = lk.cards[ev.card].theatre
    if battle.theatre is None and ev.theatre != own:  # nothing in an unopened battle to kill
        return Violation("cow.opt.theatres.off-theatre", f"{ev.player}'s {ev.card} ({own}) "
                         f"cannot open battle {ev.battle} as the {ev.theatre} theatre: an "
                         "off-theatre card goes in only to kill, and the battle is empty")
    if battle.theatre is not None and battle.theatre != own and not ev.kill:
        return Violation("cow.opt.theatres.off-theatre", f"battle {ev.battle} is the "
                         f"{battle.theatre} theatre: {ev.player}'s {ev.card} ({own}) may go "
                         "there only to kill")
    return None


def _battle_theatre(state: State, ev: CardDeployed) -> Theatre | None:
    return state.battles[ev.battle - 1].theatre or ev.theatre


def _partner_battles(state: State, first: int, theatre: Theatre) -> list[int]:
    """Returns the battles a pair's partner may go to, given the first card's battle."""
    out = []
    for no, battle in enumerate(state.battles, 1):
        if no == first or battle.closed:
            continue
        if state.options.theatres_of_war:
            if battle.theatre in (None, theatre):
                out.append(no)
        elif abs(no - first) == 1:
            out.append(no)
    return out


def check_joint(lk: Lookups, state: State, ev: CardDeployed, h: Owed | None) -> Violation | None:
    if not ev.joint:
        return None
    if not state.options.joint_deployment:
        return Violation("cow.opt.joint.off", f"{ev.player} deploys jointly, and joint "
                         "deployment is an optional rule not in force")
    if h is not None and h.step is Step.PARTNER:
        return Violation("cow.opt.joint.partner", f"{ev.player}'s card completes a pair; it "
                         "cannot start another")
    if state.options.alternative_reinforce and h is not None and h.step is Step.REINFORCE_DEPLOY:
        return Violation("cow.opt.alt-reinforce.joint", f"{ev.player}'s Alternative Reinforce "
                         "card is fixed; it cannot start a joint deployment")
    partners = lk.partners.get(ev.card, ())
    rest = without(state.hands[ev.player], ev.card) if ev.card in state.hands[ev.player] else ()
    if not any(p in rest for p in partners):
        why = ("has no pair partner" if not partners
               else f"needs {' or '.join(partners)} in {ev.player}'s hand too")
        return Violation("cow.opt.joint.pair", f"{ev.player}'s {ev.card} {why}")
    theatre = lk.cards[ev.card].theatre
    if state.options.theatres_of_war and _battle_theatre(state, ev) != theatre:
        return Violation("cow.opt.joint", f"under Theatres of War {ev.player}'s pair goes into "
                         f"{theatre} battles")
    if not _partner_battles(state, ev.battle, theatre):
        return Violation("cow.opt.joint", f"no open battle next to battle {ev.battle} for "
                         f"{ev.player}'s partner card")
    return None


def check_partner(lk: Lookups, state: State, ev: CardDeployed, h: Owed | None) -> Violation | None:
    if h is None or h.step is not Step.PARTNER:
        return None
    partners = lk.partners.get(h.card, ())
    if ev.card not in partners:
        return Violation("cow.opt.joint.partner", f"{ev.player}'s {h.card} needs its partner "
                         f"now ({' or '.join(partners)}), not {ev.card}")
    theatre = lk.cards[h.card].theatre
    if ev.battle not in _partner_battles(state, h.battle, theatre):
        where = ("a battle of the " + theatre + " theatre" if state.options.theatres_of_war
                 else f"a battle next to battle {h.battle}")
        return Violation("cow.opt.joint.partner", f"{ev.player}'s partner card goes into "
                         f"{where}, not battle {ev.battle}")
    if state.options.theatres_of_war and _battle_theatre(state, ev) != theatre:
        return Violation("cow.opt.joint.partner", f"{ev.player}'s partner card goes into a "
                         f"{theatre} battle")
    return None


def check_kill(lk: Lookups, state: State, ev: CardDeployed) -> Violation | None:
    killer = lk.cards[ev.card]
    opp = other(state, ev.player)
    pile = state.battles[ev.battle - 1].piles[opp]
    if not ev.kill:
        if ev.target is not None:
            return Violation("cow.kill.target", f"{ev.player} names a target, and a target is "
                             "named only with a KILL")
        if state.options.automatic_kill and pile and set(killer.kill) & set(lk.cards[pile[-1]].types):
            return Violation("cow.kill.automatic", f"{ev.player}'s {ev.card} kills {pile[-1]}, "
                             f"{opp}'s top card in battle {ev.battle}: with automatic KILL it must")
        return None
    if not killer.kill:
        return Violation("cow.kill.ability", f"{ev.player}'s {ev.card} has no KILL ability")
    if not pile:
        return Violation("cow.kill.top-only", f"{ev.player} has nothing to kill: {opp} has no "
                         f"card in battle {ev.battle}")
    if ev.target is None:
        if lk.kill_target:
            return Violation("cow.kill.target", f"{ev.player} names the card {ev.card} kills "
                             f"({opp}'s top card in battle {ev.battle})")
    elif not lk.kill_target:  # rules 1.0: a KILL takes the top card and names none
        return Violation("cow.kill.top-only", f"{ev.player} names a KILL target, and rules 1.0 "
                         "name none: the KILL takes the opponent's top card (rules 1.1 name it)")
    elif ev.target != pile[-1]:
        return Violation("cow.kill.top-only", _out_of_reach(state, ev, opp, pile))
    victim = lk.cards[pile[-1]]
    if not set(killer.kill) & set(victim.types):
        return Violation("cow.kill.type-match", f"{ev.player}'s {ev.card} kills type "
                         f"{'/'.join(killer.kill)}, but the top card in battle {ev.battle} is "
                         f"{victim.name} (type {'/'.join(victim.types)})")
    return None


def _out_of_reach(state: State, ev: CardDeployed, opp: str, pile: tuple[str, ...]) -> str:
    """Says why a named KILL target is not the opponent's top card in the killer's battle."""
    if ev.target in pile:
        return (f"{ev.player} cannot kill {ev.target}: it lies under {pile[-1]} in battle "
                f"{ev.battle}, and only the top card can be killed")
    elsewhere = [no for no, b in enumerate(state.battles, 1) if ev.target in b.piles[opp]]
    if elsewhere:
        return (f"{opp}'s {ev.target} is in battle {elsewhere[0]}: {ev.player}'s KILL reaches "
                f"only the battle the killer goes into ({ev.battle})")
    return (f"{ev.player} cannot kill {ev.target}: {opp} has none in battle {ev.battle}; the "
            f"top card there is {pile[-1]}")


CHECK = by_event(_check_opening, _check_draw, _check_report, _check_deploy, _check_discard)


# -- legal and chance's odds ---------------------------------------------------------------

def legal(lk: Lookups, state: State) -> Iterator[CowEvent]:
    """Yields every legal next event; chance outcomes once per kind of card left."""
    d = pending(lk, state)
    if d is None:
        return
    if state.phase is Phase.OPENING:
        p = next_opener(state)
        for name in state.decks[owner(state, p)]:
            yield OpeningCardDrawn(player=p, card=name)
        return
    h = head(state)
    if h is not None and h.step in DRAWS:
        for name in state.decks[owner(state, h.player)]:
            yield CardDrawn(player=h.player, card=name)
    elif h is not None and h.step is Step.DISCARD:
        for name in dict.fromkeys(state.hands[h.player]):
            yield CardDiscarded(player=h.player, card=name)
    elif h is not None and h.step is Step.RECON:
        n = theatre_counts(lk, state.hands[h.player])
        yield HandReported(player=h.player, air=n["air"], sea=n["sea"], ground=n["ground"],
                           intel=n["intel"])
    else:
        yield from _legal_deploys(lk, state, d.actor)


def _legal_deploys(lk: Lookups, state: State, player: str) -> Iterator[CardDeployed]:
    # Every candidate's full `check`, with what it shares worked out once: whether the player
    # may deploy at all (`_check_deployer`), which battles are open, and each source's
    # `_check_source` (it reads only the card, its source and the player); the rest of
    # `_check_placement` per candidate, leaving out the theatres `check_theatre` refuses
    # (a battle's theatre is named once, by its first card). tests/games/test_fast_paths.py pins
    # it to the plain definition (every candidate through the whole `check`).
    if _check_deployer(lk, state, player) is not None:
        return
    h = head(state)
    opts = state.options
    sources = [(name, False) for name in dict.fromkeys(state.hands[player])]
    top = top_discard(state, player)
    if top is not None and opts.alternative_reinforce:
        sources.append((top, True))
    named: tuple[Theatre | None, ...] = tuple(Theatre) if opts.theatres_of_war else (None,)
    opp = other(state, player)
    open_battles = [(no, b.piles[opp][-1:], named if b.theatre is None else (None,))
                    for no, b in enumerate(state.battles, 1) if not b.closed]
    for name, from_discard in sources:
        c = lk.cards.get(name)
        if c is None or _check_source(state, CardDeployed(
                player=player, card=name, battle=1, from_discard=from_discard), h) is not None:
            continue
        joints = (False, True) if opts.joint_deployment and lk.partners.get(name) else (False,)
        for battle, victim, theatres in open_battles:
            kills: tuple[tuple[bool, str | None], ...] = ((False, None),)
            if c.kill and victim:
                kills += ((True, victim[0] if lk.kill_target else None),)
            for theatre, (kill, target), joint in product(theatres, kills, joints):
                ev = CardDeployed(player=player, card=name, battle=battle, kill=kill,
                                  target=target, theatre=theatre, joint=joint,
                                  from_discard=from_discard)
                if (check_theatre(state, ev) or check_joint(lk, state, ev, h)
                        or check_partner(lk, state, ev, h) or check_off_theatre(lk, state, ev)
                        or check_kill(lk, state, ev)) is None:
                    yield ev


def count(lk: Lookups, state: State) -> int:
    """Returns how many events `legal` yields, counted without making them (corpus check asks
    after every event; tests/games/cards_of_war/test_fast_paths.py pins it to `legal`)."""
    phase = state.phase
    if phase is OVER:
        return 0
    if phase is OPENING:  # one per kind of card left (a deck holds no zero counts)
        return len(state.decks[owner(state, next_opener(state))])
    steps = state.steps
    if steps:
        h = steps[0]
        step = h.step
        if step is REFILL or step is REINFORCE_DRAW:
            return len(state.decks[h.player if state.options.two_decks else COMMON])
        if step is _DISCARD:  # one per kind of card held
            return len(set(state.hands[h.player]))
        if step is _RECON:  # the one true report
            return 1
        return _count_deploys(lk, state, h.player)
    return _count_deploys(lk, state, state.turn or "")


def _count_deploys(lk: Lookups, state: State, player: str) -> int:
    """Returns how many deployments `_legal_deploys` yields. A plain deployment by the one who
    owes it (no Theatres of War, joint deployment or Alternative Reinforce; nothing owed, or
    a reinforcement's deployment; so `_check_deployer` passes): each kind of held card goes
    into each open battle plainly, and also with its KILL where the opponent's top card
    there is of a type it kills (`hunters`); automatic KILL leaves only the KILL there.
    Otherwise the deployments are counted one by one."""
    opts = state.options
    steps = state.steps
    a, b = state.players
    if (opts.theatres_of_war or opts.joint_deployment or opts.alternative_reinforce
            or state.phase is not PLAY or (player != a and player != b)
            or (steps and steps[0].step is not REINFORCE_DEPLOY)):
        return sum(1 for _ in _legal_deploys(lk, state, player))
    opp = b if player == a else a
    held = set(state.hands[player]).intersection(lk.cards)
    n = 0
    hunters = lk.hunters
    auto = opts.automatic_kill  # automatic: the KILL replaces the plain deployment
    for battle in state.battles:
        if not battle.closed:
            n += len(held)
            pile = battle.piles[opp]
            if pile and not auto:
                n += len(hunters[pile[-1]] & held)
    return n


def weight(lk: Lookups, state: State, event: Event) -> int:
    """Returns how many copies of the drawn card the pile holds (chance's odds)."""
    if isinstance(event, (CardDrawn, OpeningCardDrawn)):
        return state.decks[owner(state, event.player)].get(event.card, 0)
    return 1


def weights(lk: Lookups, state: State, events: list[CowEvent]) -> list[int]:
    """Returns each event's `weight`, with the option that picks the pile read once."""
    decks, two = state.decks, state.options.two_decks
    return [decks[e.player if two else COMMON].get(e.card, 0)
            if isinstance(e, (CardDrawn, OpeningCardDrawn)) else 1 for e in events]
