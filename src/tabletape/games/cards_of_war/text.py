"""Cards of War in words: one sentence per event, the rules that govern each kind, and the
card values those rules read (for the provenance of a ruling)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from tabletape.engine.provenance import RULEBOOK, Derivation, Deriving
from tabletape.tape.events import Event

from .components import Lookups, Theatre
from .events import CardDeployed, CardDiscarded, CardDrawn, HandReported, OpeningCardDrawn
from .legality import check
from .state import HAND, WIN_POINTS


def describe(event: Event) -> str:
    """Returns one plain sentence for a game event."""
    match event:
        case OpeningCardDrawn(player=p, card=c):
            return f"{p} turns up {c} to decide who starts"
        case CardDrawn(player=p, card=c):
            return f"{p} draws {c}"
        case CardDiscarded(player=p, card=c):
            return f"{p} discards {c} (strategic exhaustion)"
        case HandReported(player=p):
            return (f"{p} reports for recon: {event.air} Air, {event.sea} Sea, "
                    f"{event.ground} Ground, {event.intel} Intel")
        case CardDeployed(player=p, card=c, battle=b):
            s = f"{p} deploys {c}" + (" from the discard pile" if event.from_discard else "")
            s += f" to battle {b}"
            if event.theatre:
                s += f", naming it the {event.theatre} theatre"
            if event.kill:
                s += f", killing the opponent's {event.target or 'top card'} there"
            if event.joint:
                s += ", its pair partner to follow"
            return s
    return type(event).__name__


def governing(event: Event) -> tuple[str, ...]:
    """Returns the ids of the rules that decide whether this kind of event is legal."""
    match event:
        case OpeningCardDrawn():
            return ("cow.setup.opening", "cow.draw.in-deck")
        case CardDrawn():
            return ("cow.turn.step", "cow.draw.refill", "cow.draw.in-deck")
        case HandReported():
            return ("cow.recon.report",)
        case CardDiscarded():
            return ("cow.turn.step", "cow.opt.exhaustion.discard")
        case CardDeployed():
            ids = ["cow.turn.order", "cow.deploy.in-hand", "cow.deploy.open-battle"]
            if event.kill or event.target:
                ids += ["cow.kill.ability", "cow.kill.target", "cow.kill.top-only",
                        "cow.kill.type-match"]
            if event.joint:
                ids += ["cow.opt.joint", "cow.opt.joint.pair"]
            if event.from_discard:
                ids += ["cow.opt.alt-reinforce"]
            if event.theatre:
                ids += ["cow.opt.theatres.choose"]
            return tuple(ids)
    return ()


def consulted(lk: Lookups, state: Any, event: Event) -> Iterator[tuple[str, Any, tuple[str, ...]]]:
    """Yields the card values the ruling on this event rests on that the state carries from
    earlier reads (what the check reads as it runs is recorded: `Ruleset.reads`): a draw
    reads how many the deck holds, and the deck was filled from the cards' counts."""
    match event:
        case OpeningCardDrawn(card=c) | CardDrawn(card=c):
            if c in lk.cards and _on_the_deck(lk, state, event):
                yield c, lk.cards[c], ("count",)


def derive(lk: Lookups, state: Any, event: Event) -> Derivation | None:
    """Returns the arithmetic a ruling on this event computes, as its terms: a Recon report's
    count of one theatre in the hand (Special Abilities 3: the theatre the report got wrong
    first, else the first it names), a legal deployment's score in its battle (Winning a
    Battle; under Theatres of War only cards of the battle's theatre count). None for
    other events, and for a refusal that is not about the count (whose turn it is)."""
    v = check(lk, state, event)
    match event:
        case HandReported(player=p) if v is None or v.rule == "cow.recon.report":
            return _recon(lk, state, event, p)
        case CardDeployed() if v is None:
            return _score(lk, state, event)
        case CardDiscarded(player=p) if (
                v is None or v.rule == "cow.opt.exhaustion.discard") and p in state.hand_size:
            return _exhausted(state, p)
    return None


def _exhausted(state: Any, player: str) -> Derivation:
    """Strategic Exhaustion: the eight-card hand less one for each round in which the player
    lost all three battles (the option replaces Tactical Advantage, so nothing adds)."""
    how = Deriving()
    size = state.hand_size[player]
    how.given("hand", HAND, "rulebook: Setup (eight cards)", provenance=RULEBOOK)
    how.given("rounds lost in all three battles", size - HAND,
              f"the log: the rounds {player} lost all three battles of")
    return how.done(f"{player}'s hand size under Strategic Exhaustion (holds "
                    f"{len(state.hands[player])})", size)


def _recon(lk: Lookups, state: Any, ev: HandReported, player: str) -> Derivation:
    hand = state.hands[player]
    said = {t: getattr(ev, t.value.lower()) for t in Theatre}
    held = {t: sum(lk.cards[n].theatre is t for n in hand) for t in Theatre}
    theatre = next((t for t in Theatre if said[t] != held[t]),
                   next((t for t in Theatre if said[t]), Theatre.AIR))
    how = Deriving()
    for n in hand:
        c = lk.cards[n]
        if c.theatre is theatre:
            how.term(n, 1, n, c, "theatre")
        else:
            how.read(n, c, "theatre")
    return how.done(f"{theatre} cards in {player}'s hand (reported {said[theatre]})",
                    held[theatre])


def _score(lk: Lookups, state: Any, ev: CardDeployed) -> Derivation:
    battle = state.battles[ev.battle - 1]
    theatre = (battle.theatre or ev.theatre) if state.options.theatres_of_war else None
    how = Deriving()
    for n in (*battle.piles[ev.player], ev.card):
        c = lk.cards[n]
        if theatre is not None and how.read(n, c, "theatre") != theatre:
            continue  # an off-theatre card scores nothing there
        how.term(n, c.value, n, c, "value")
    where = f"battle {ev.battle}" + (f" ({theatre} theatre)" if theatre else "")
    total = sum(t.value for t in how.terms)
    won = f", {WIN_POINTS} wins it" if total >= WIN_POINTS else ""
    return how.done(f"{ev.player}'s score in {where} with {ev.card}{won}", total)


def _on_the_deck(lk: Lookups, state: Any, event: Event) -> bool:
    """Whether a draw's ruling turns on the pile (it passed, or the card is not in it): a
    draw refused on whose turn or which step it is reads no card's count."""
    v = check(lk, state, event)
    return v is None or v.rule == "cow.draw.in-deck"
