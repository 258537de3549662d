"""Regenerates the Liberation replays in replays/liberation/ (deterministic, no clock).

Run: .venv/bin/python -m tests.games.liberation.make_replays
(`main(out)` writes them elsewhere: a test compares them with the bundled ones, byte for byte.)
Each scenario game opens with events written by hand, as a scribe would record a
table (the deals that set it up, the plays it is about), and is then finished by
random legal play from a fixed seed. Simulated games are plain `simulate` output.
"""

from __future__ import annotations

import os
import random

from msgspec.structs import replace

from tabletape import engine
from tabletape.engine import simulate
from tabletape.games.liberation.events import (
    CountryTurned,
    ForceCardDealt,
    ForceCardDrawn,
    ForceCardPlayed,
    HandsTraded,
    Options,
    PlayedCardTaken,
    PlayedCardTurned,
    TieBreakDrawn,
    TurnOverAccepted,
    TurnOverPrevented,
    TurnPassed,
)
from tabletape.tape import log
from tabletape.tape.events import Event, Note, Undone
from tests.replays_format import as_recorded

RS = engine.get("liberation")
RECORDED = "1.1"  # the bundled replays were recorded under rules 1.1 and stay so (issue 24)
OUT = os.path.normpath(os.path.join(os.path.dirname(__file__), "..", "..", "..", "replays",
                                    "liberation"))
FIXTURES = os.path.normpath(os.path.join(os.path.dirname(__file__), "..", "..", "fixtures",
                                         "rules-1.1", "liberation"))


def recorded(header, rules: str = RECORDED):
    """Returns a new game's header as the bundled replays were written: format 1, rules 1.1."""
    return replace(as_recorded(header), rules_version=rules)


class Scribe:
    """Writes one log event by event, checking each against the rules like `append` does."""

    def __init__(self, out: str, name: str, players: tuple[str, ...], seed: int,
                 rules: str = RECORDED):
        self.path = os.path.join(out, name)
        if os.path.exists(self.path):
            os.remove(self.path)
        self.header = recorded(RS.start(players, Options(), RS.default_components()), rules)
        self.tail = log.create(self.path, self.header, RS.codec)
        self.fold = engine.Fold(RS, self.header)
        self.rs = self.fold.ruleset  # bound to this game's header
        self.rng = random.Random(seed)

    @property
    def state(self):
        return self.fold.state

    def write(self, *events: Event, force: bool = False) -> int:
        for event in events:
            problem = self.fold.feed(self.tail.seq + 1, event)
            if problem is not None and not force:
                raise SystemExit(f"{self.path}: {problem} (pending: {self.rs.pending(self.state)})")
            self.tail = log.append(self.path, [event], RS.codec, expect=self.tail, durable=False)
        return self.tail.seq

    def finish(self) -> None:
        """Plays random legal events (chance by its odds) until the game is over."""
        while (d := self.rs.pending(self.state)) is not None:
            options = list(self.rs.legal(self.state))
            if d.actor == engine.CHANCE:
                ev = self.rng.choices(options, [self.rs.weight(self.state, e) for e in options])[0]
            else:
                ev = self.rng.choice(options)
            self.write(ev)


def deal(dealer_left: tuple[str, ...], hands: dict[str, tuple[str, ...]]) -> list[Event]:
    """Returns the deal events: one card at a time, round by round, from the dealer's left."""
    rounds = len(next(iter(hands.values())))
    return [ForceCardDealt(player=p, card=hands[p][r]) for r in range(rounds) for p in dealer_left]


def play(player: str, card: str) -> ForceCardPlayed:
    return ForceCardPlayed(player=player, card=card)


def passes(*players: str) -> list[TurnPassed]:
    return [TurnPassed(player=p) for p in players]


def iraq_abilities(out: str) -> None:
    """Iraq first: every kind of ability, Iraq's aircraft instruction, a prevent and an acceptance."""
    s = Scribe(out, "iraq-abilities.jsonl", ("ann", "bob", "cat"), seed=1)
    s.write(CountryTurned(player="ann", country="Iraq"), *deal(("bob", "cat", "ann"), {
        "ann": ("Fighter Wing", "Green Berets", "Delta Force", "Stealth Bomber", "Airborne Brigade"),
        "bob": ("Submarine", "Navy SEALs", "Armored Division", "Destroyer Squadron",
                "Infantry Division"),
        "cat": ("Leaflet Drop", "Regime Defectors", "Counter-Intelligence", "Submarine",
                "Aircraft Carrier")}))
    # round 1: a first-card draw, a plain card, an unturnable carrier
    s.write(play("ann", "Green Berets"), ForceCardDrawn(player="ann", card="Armored Division"),
            play("bob", "Submarine"), play("cat", "Aircraft Carrier"))
    # round 2: turn-over answered by a prevent card, then Iraq's turn-down; a two-card
    # turn-over that turns bob's own card back up and ann's down; all turn down
    s.write(play("ann", "Fighter Wing"), PlayedCardTurned(player="ann", owner="bob", slot=0),
            TurnOverPrevented(player="bob", card="Navy SEALs"),
            PlayedCardTurned(player="ann", owner="bob", slot=0))
    s.write(play("bob", "Destroyer Squadron"),
            PlayedCardTurned(player="bob", owner="bob", slot=0, face_up=True),
            PlayedCardTurned(player="bob", owner="ann", slot=1))
    s.write(play("cat", "Leaflet Drop"), PlayedCardTurned(player="ann", owner="ann", slot=0),
            PlayedCardTurned(player="bob", owner="bob", slot=1))
    # round 3: a trade of cards and a trade of hands
    s.write(play("ann", "Delta Force"), PlayedCardTaken(player="ann", owner="cat", slot=0),
            play("bob", "Armored Division"), play("cat", "Regime Defectors"),
            HandsTraded(player="cat", other="ann"))
    # round 4: Iraq's turn-over by an unturnable bomber; ann lets it stand
    s.write(play("ann", "Submarine"), play("bob", "Infantry Division"), play("cat", "Stealth Bomber"),
            PlayedCardTurned(player="cat", owner="ann", slot=2), TurnOverAccepted(player="ann"))
    # round 5: cat liberates Iraq with the Airborne Brigade face up and draws two
    s.write(*passes("ann", "bob"), play("cat", "Airborne Brigade"))
    s.write(ForceCardDrawn(player="cat", card="Submarine"),
            ForceCardDrawn(player="cat", card="Infantry Division"))
    s.finish()


def yemen_extra_round(out: str) -> None:
    """Somalia, then Yemen: two cards at once, a tie settled by the extra round."""
    s = Scribe(out, "yemen-extra-round.jsonl", ("ann", "bob", "cat"), seed=2)
    s.write(CountryTurned(player="ann", country="Somalia"), *deal(("bob", "cat", "ann"), {
        "ann": ("Submarine", "Infantry Division"), "bob": ("Armored Division", "Infantry Division"),
        "cat": ("Infantry Division", "Green Berets")}))
    s.write(*passes("ann", "bob"), play("cat", "Infantry Division"), *passes("ann", "bob", "cat"))
    s.write(CountryTurned(player="cat", country="Yemen"), *deal(("ann", "bob", "cat"), {
        "ann": ("Infantry Division",), "bob": ("Armored Division",), "cat": ("Submarine",)}))
    s.write(play("ann", "Submarine"), play("ann", "Infantry Division"),
            play("bob", "Armored Division"), play("bob", "Infantry Division"),
            play("cat", "Green Berets"), ForceCardDrawn(player="cat", card="Navy SEALs"),
            *passes("cat"))  # cat stops after one card
    # ann and bob are tied at 5: the extra round, still two cards at once in Yemen
    s.write(play("ann", "Infantry Division"), play("bob", "Armored Division"))
    s.finish()


def tie_break_draws(out: str) -> None:
    """Two players tie through the extra round; tie-break draws tie again, then settle it."""
    s = Scribe(out, "tie-break-draws.jsonl", ("ann", "bob"), seed=3)
    s.write(CountryTurned(player="ann", country="Libya"), *deal(("bob", "ann"), {
        "ann": ("Submarine", "Infantry Division", "Infantry Division"),
        "bob": ("Armored Division", "Infantry Division", "Infantry Division")}))
    s.write(play("ann", "Submarine"), play("bob", "Armored Division"), *passes("ann", "bob"),
            *passes("ann", "bob"), play("ann", "Infantry Division"), play("bob", "Infantry Division"))
    s.write(TieBreakDrawn(player="ann", card="Infantry Division"),
            TieBreakDrawn(player="bob", card="Fighter Wing"),
            TieBreakDrawn(player="ann", card="Aircraft Carrier"),
            TieBreakDrawn(player="bob", card="Submarine"))
    s.finish()


def disputed_play(out: str) -> None:
    """An out-of-turn play recorded by mistake, disputed and undone; a legal play disputed."""
    s = Scribe(out, "disputed-play.jsonl", ("ann", "bob", "cat"), seed=4)
    s.write(CountryTurned(player="ann", country="Afghanistan"), *deal(("bob", "cat", "ann"), {
        "ann": ("Submarine", "Infantry Division", "Fighter Wing", "Green Berets"),
        "bob": ("Armored Division", "Navy SEALs", "Submarine", "Infantry Division"),
        "cat": ("Infantry Division", "Infantry Division", "Close Air Support", "Delta Force")}))
    bad = s.write(play("bob", "Armored Division"), force=True)  # ann leads, and it was not bob's turn
    s.write(Note(text="bob played before ann", about=bad, dispute=True, by="ann"))
    s.write(Undone(target=bad, by="scribe"))
    ships = s.write(play("ann", "Submarine"), force=True)  # no ships in Afghanistan
    s.write(Note(text="a ship in Afghanistan?", about=ships, dispute=True, by="cat"))
    s.write(Undone(target=ships, by="scribe"))
    s.write(play("ann", "Fighter Wing"), play("bob", "Armored Division"))
    ok = s.write(play("cat", "Delta Force"), PlayedCardTaken(player="cat", owner="bob", slot=0))
    s.write(Note(text="can a trade take my armour?", about=ok, dispute=True, by="bob"))
    s.finish()


def four_players_nine(out: str) -> None:
    """A four-player game, played at random until a player wins with exactly 9 points."""
    players = ("ann", "bob", "cat", "dan")
    for seed in range(100):
        header = recorded(simulate.header_for(RS, players))
        o = RS.bind(header).outcome(list(simulate.play(RS, header, seed))[-1][1])
        assert o is not None
        if len(o.winners) == 1 and o.scores[o.winners[0]] == 9:
            simulated(out, "four-players-won-at-nine.jsonl", players, seed)
            return
    raise SystemExit("no seed below 100 ends at exactly 9")


def simulated(out: str, name: str, players: tuple[str, ...], seed: int) -> None:
    path = os.path.join(out, name)
    if os.path.exists(path):
        os.remove(path)
    header = recorded(simulate.header_for(RS, players))
    tail = log.create(path, header, RS.codec)
    log.append(path, [e for e, _ in simulate.play(RS, header, seed)], RS.codec, expect=tail)


def turn_over_unasked(out: str = FIXTURES) -> None:
    """A 1.1 game (a test fixture, not a bundled replay) whose Destroyer Squadron turns down
    bob's Submarine with no answer from bob, who holds no prevent card (seq 12), then cat's,
    who holds Navy SEALs and is asked (seq 13, accepted at 14): 1.2 asks bob too (lib.ability.prevent)."""
    os.makedirs(out, exist_ok=True)
    s = Scribe(out, "turn-over-unasked.jsonl", ("ann", "bob", "cat"), seed=5, rules="1.1")
    s.write(CountryTurned(player="ann", country="Somalia"), *deal(("bob", "cat", "ann"), {
        "ann": ("Infantry Division", "Destroyer Squadron"),
        "bob": ("Submarine", "Armored Division"), "cat": ("Submarine", "Navy SEALs")}))
    s.write(play("ann", "Infantry Division"), play("bob", "Submarine"), play("cat", "Submarine"))
    s.write(play("ann", "Destroyer Squadron"), PlayedCardTurned(player="ann", owner="bob", slot=0),
            PlayedCardTurned(player="ann", owner="cat", slot=0), TurnOverAccepted(player="cat"))
    s.finish()


def main(out: str = OUT) -> None:
    """Writes every bundled Liberation replay into `out` (replays/liberation by default)."""
    os.makedirs(out, exist_ok=True)
    iraq_abilities(out)
    yemen_extra_round(out)
    tie_break_draws(out)
    disputed_play(out)
    four_players_nine(out)
    simulated(out, "sim-2-players.jsonl", ("ann", "bob"), 1)
    simulated(out, "sim-6-players.jsonl", ("ann", "bob", "cat", "dan", "eve", "fay"), 2)


if __name__ == "__main__":
    main()
