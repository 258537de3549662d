"""Regenerates the Cards of War replays in replays/cards-of-war/ (deterministic, no clock).

Run: .venv/bin/python -m tests.games.cards_of_war.make_replays
(`main(out)` writes them into another directory instead, byte for byte the same.)
The scenario games are steered random play: a policy prefers the events a
scenario is about (kills, reinforcements, joint deployments), and a few
events are written as a scribe would (an illegal kill with --force, a dispute,
an undo). Simulated games are plain `tabletape simulate` output.
"""

from __future__ import annotations

import os
import random
from collections.abc import Callable

from msgspec.structs import replace

from tabletape import engine
from tabletape.engine import simulate
from tabletape.games.cards_of_war import CardsOfWar
from tabletape.games.cards_of_war.events import CardDeployed, Options
from tabletape.games.cards_of_war.lookups import other
from tabletape.tape import log
from tabletape.tape.events import Note, Undone
from tests.narrow import present
from tests.replays_format import as_recorded

RS = engine.get("cards-of-war")
RECORDED = "1.1"  # the bundled replays were recorded under rules 1.1 and stay so (issue 24)
OUT = os.path.normpath(os.path.join(os.path.dirname(__file__), "..", "..", "..", "replays",
                                    "cards-of-war"))
PLAYERS = ("alice", "bob")


class Scribe:
    """Writes one log event by event, checking each against the rules like `append` does."""

    def __init__(self, out: str, name: str, options: Options, seed: int,
                 rules: str = RECORDED):
        self.path = os.path.join(out, name)
        if os.path.exists(self.path):
            os.remove(self.path)
        self.header = replace(as_recorded(RS.start(PLAYERS, options, RS.default_components())),
                              rules_version=rules)
        self.tail = log.create(self.path, self.header, RS.codec)
        self.fold = engine.Fold(RS, self.header)
        assert isinstance(self.fold.ruleset, CardsOfWar)  # bound to this game's header
        self.rs = self.fold.ruleset
        self.rng = random.Random(seed)

    @property
    def state(self):
        return self.fold.state

    def write(self, event, *, force: bool = False):
        problem = self.fold.feed(self.tail.seq + 1, event)
        if problem is not None and not force:
            raise SystemExit(f"{self.path}: {problem}")
        self.tail = log.append(self.path, [event], RS.codec, expect=self.tail, durable=False)
        return self.tail.seq

    def play(self, prefer: Callable[[object], int] = lambda e: 0, until=lambda s: False,
             limit: int = 5000) -> None:
        """Plays legal events, taking the most preferred (ties at random), chance by its odds."""
        for _ in range(limit):
            d = self.rs.pending(self.state)
            if d is None or until(self.state):
                return
            options = list(self.rs.legal(self.state))
            if d.actor == engine.CHANCE:
                ev = self.rng.choices(options, [self.rs.weight(self.state, e) for e in options])[0]
            else:
                best = max(prefer(e) for e in options)
                ev = self.rng.choice([e for e in options if prefer(e) == best])
            self.write(ev)


def kills(e) -> int:
    return 2 if isinstance(e, CardDeployed) and e.kill else 0


def abilities(rs: CardsOfWar):
    def prefer(e) -> int:
        if not isinstance(e, CardDeployed):
            return 0
        c = rs.lk.cards[e.card]
        return 3 * e.kill + 2 * c.reinforce + 2 * c.recon + 3 * e.joint + 3 * e.from_discard
    return prefer


def illegal_kill(rs: CardsOfWar, state) -> CardDeployed | None:
    """Returns a deployment whose KILL does not match the opponent's top card, if one exists."""
    d = rs.pending(state)
    if d is None or d.kind != "deploy":
        return None
    me = d.actor
    cards = rs.lk.cards
    for name in state.hands[me]:
        killer = cards[name]
        for no, b in enumerate(state.battles, 1):
            pile = b.piles[other(state, me)]
            if killer.kill and not b.closed and pile and \
                    not set(killer.kill) & set(cards[pile[-1]].types):
                ev = CardDeployed(player=me, card=name, battle=no, kill=True, target=pile[-1])
                if rs.check(state, ev) is not None and \
                        rs.check(state, CardDeployed(player=me, card=name, battle=no)) is None:
                    return ev
    return None


def kill_dispute(out: str) -> None:
    """A legal KILL disputed (ruled legal) and an illegal KILL disputed, then undone."""
    s = Scribe(out, "kill-dispute.jsonl", Options(length="short"), seed=11)
    s.play(kills, until=lambda st: present(s.rs.pending(st)).kind == "deploy" and any(
        b.piles[p] for b in st.battles for p in PLAYERS) and illegal_kill(s.rs, st) is not None)
    bad = illegal_kill(s.rs, s.state)
    assert bad is not None
    seq = s.write(bad, force=True)
    victim = other(s.state, bad.player)
    s.write(Note(text=f"{bad.card} cannot kill that card: wrong type", about=seq, dispute=True,
                 by=victim))
    s.write(Undone(target=seq, by="umpire"))
    s.write(Note(text="umpire: the kill is retracted; the card may be deployed again", by="umpire"))
    legal_kill_seq = None
    while s.rs.pending(s.state) is not None:
        before = s.tail.seq
        s.play(kills, until=lambda st: False, limit=1)
        ev_seq = s.tail.seq
        if legal_kill_seq is None and ev_seq > before:
            last = list(engine.iter_records(s.path))[-1].event
            if isinstance(last, CardDeployed) and last.kill:
                legal_kill_seq = ev_seq
                s.write(Note(text="was that really a kill?", about=ev_seq, dispute=True,
                             by=other(s.state, last.player)))


def undo_correction(out: str) -> None:
    """A scribe's wrong draw (illegal) corrected by undo, and a legal play taken back."""
    s = Scribe(out, "undo-correction.jsonl", Options(length="short"), seed=5)
    s.play(until=lambda st: st.phase == "play" and not st.steps and st.turn is not None)
    # the scribe records a draw when a deployment is owed: refused, then undone
    seq = s.write(RS.codec.decoder.decode(
        b'{"type":"card_drawn","seq":0,"player":"alice","card":"Tank"}'), force=True)
    s.write(Undone(target=seq, by="scribe"))
    # a legal deployment, taken back by agreement, then a different one
    ev = list(s.rs.legal(s.state))[0]
    seq = s.write(ev)
    s.write(Undone(target=seq, by="scribe"))
    s.write(Note(text="player changed their mind; both agreed to take it back", about=seq))
    s.play()


def abilities_game(out: str, name: str, options: Options, seed: int) -> None:
    s = Scribe(out, name, options, seed)
    s.play(abilities(s.rs))


def simulated(out: str, name: str, options: Options, seed: int) -> None:
    path = os.path.join(out, name)
    if os.path.exists(path):
        os.remove(path)
    header = replace(as_recorded(simulate.header_for(RS, PLAYERS, options)),
                     rules_version=RECORDED)
    tail = log.create(path, header, RS.codec)
    log.append(path, [e for e, _ in simulate.play(RS, header, seed)], RS.codec, expect=tail)


def recon_first(rs: CardsOfWar):
    def prefer(e) -> int:
        return 2 * rs.lk.cards[e.card].recon if isinstance(e, CardDeployed) else 0
    return prefer


FIXTURES = os.path.normpath(os.path.join(os.path.dirname(__file__), "..", "..", "fixtures",
                                         "rules-1.1", "cards-of-war"))


def recon_ends_the_round(out: str = FIXTURES) -> None:
    """A 1.1 game (a test fixture, not a bundled replay) in which a RECON card's deployment
    ends round 1 (seq 65): 1.1 dropped the recon answer, 1.2 owes it (cow.ability.round-end)."""
    os.makedirs(out, exist_ok=True)
    s = Scribe(out, "recon-ends-the-round.jsonl", Options(), 33, rules="1.1")
    s.play(recon_first(s.rs))


def main(out: str = OUT) -> None:
    """Writes every bundled Cards of War replay into `out` (replays/cards-of-war by default)."""
    os.makedirs(out, exist_ok=True)
    kill_dispute(out)
    undo_correction(out)
    abilities_game(out, "abilities-normal.jsonl", Options(), 21)
    abilities_game(out, "alt-reinforce-theatres-joint.jsonl",
                   Options(length="short", alternative_reinforce=True, theatres_of_war=True,
                           joint_deployment=True), 3)
    abilities_game(out, "joint-adjacent.jsonl", Options(length="short", joint_deployment=True), 8)
    abilities_game(out, "tactical-two-decks.jsonl",
                   Options(tactical_advantage=True, two_decks=True), 4)
    simulated(out, "sim-long-exhaustion.jsonl",
              Options(length="long", strategic_exhaustion=True), 2)
    simulated(out, "sim-normal.jsonl", Options(), 1)
    # seeds chosen so the game shows the rule: a swept loser discards down (seed 3), and
    # a round ends on an empty draw pile that is not reshuffled until play resumes (seed 57)
    simulated(out, "sim-long-exhaustion-discard.jsonl",
              Options(length="long", strategic_exhaustion=True), 3)
    simulated(out, "sim-automatic-kill-no-reshuffle.jsonl",
              Options(automatic_kill=True, no_reshuffle_between_rounds=True), 57)


if __name__ == "__main__":
    main()
