"""Regenerates replays/global-domination/ deterministically (no timestamps).

Run from the repository root: .venv/bin/python -m tests.games.global_domination.make_replays
"""

from __future__ import annotations

import os

from msgspec.structs import replace

from tabletape import engine
from tabletape.engine import CHANCE, simulate
from tabletape.games.global_domination.events import (
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
from tabletape.tape import log
from tabletape.tape.events import Note, Undone
from tests.replays_format import as_recorded

OUT = "replays/global-domination"
RS = engine.get("global-domination")
RECORDED = "1.1"  # the bundled replays were recorded under rules 1.1 and stay so
DOM = "Domination"
A, B, C = "alice", "bob", "carol"


class Script:
    """A game played by hand: every event checked, chance draws picked deterministically."""

    def __init__(self, players, stacks, first=A, rules=RECORDED, **options):
        self.header = replace(as_recorded(RS.start(tuple(players), RS.Options(**options),
                                                   RS.default_components())),
                              rules_version=rules)
        self.rs = RS.bind(self.header)
        self.state = self.rs.initial()
        self.events: list = []
        self.prefer: dict[str, list[str]] = {}
        self.do(FirstPlayerChosen(player=first), *[ActionStackChosen(card=c) for c in stacks])
        self.draw()

    def do(self, *events):
        for ev in events:
            v = self.rs.check(self.state, ev)
            if v is not None:
                board = {a: (f.owner, f.full) for a, f in self.state.board.items()}
                raise SystemExit(f"event {len(self.events) + 1}: {RS.describe(ev)}: {v}\n"
                                 f"board {board}\nhands {self.state.hands}")
            self.state = self.rs.apply(self.state, ev)
            self.events.append(ev)
        return self

    def raw(self, ev):
        """Records an event without playing it (a refused play, a note, an undo)."""
        self.events.append(ev)
        return self

    def draw(self):
        """Settles chance draws, taking a preferred card when the deck holds one."""
        while (d := self.rs.pending(self.state)) and d.actor == CHANCE:
            h = self.state.steps[0]
            deck = self.state.decks[h.player]
            wish = [c for c in self.prefer.get(h.player, []) if c in deck]
            card = wish[0] if wish else sorted(deck)[0]
            if wish:
                self.prefer[h.player].remove(card)
            self.do(CardDrawn(player=h.player, card=card))
        return self

    # short-hands for the scripts
    def play(self, p, card, use=Use.TEXT):
        return self.do(CardPlayed(player=p, card=card, use=use)).draw()

    def build(self, p, *areas):
        return self.do(*[ForceBuilt(player=p, area=a) for a in areas])

    def reduce(self, p, *areas):
        return self.do(*[ForceReduced(player=p, area=a) for a in areas])

    def buy(self, p, taken, *cards):
        return self.do(CardsDiscarded(player=p, cards=tuple(sorted(cards)), taken=taken))

    def end(self, *players):
        return self.do(*[TurnEnded(player=p) for p in players]).draw()

    def forgo(self, p):
        return self.do(PointsForgone(player=p))

    def finish(self):
        """Everyone passes, scoring cards are kept, until the game ends."""
        while self.rs.pending(self.state) is not None:
            legal = list(self.rs.legal(self.state))
            pick = next((e for e in legal if isinstance(e, (TurnEnded, ScoringPassed, PointsForgone))),
                        None) or next((e for e in legal if isinstance(e, ChainAnswered) and not e.joined),
                                      None) or legal[0]
            self.do(pick)
            self.draw()
        return self

    def write(self, name, out=OUT):
        path = os.path.join(out, name)
        if os.path.exists(path):
            os.remove(path)
        log.create(path, self.header, RS.codec)
        log.append(path, self.events, RS.codec, expect=None)
        return path


def fog_of_war_example() -> Script:
    """The rulebook's Build example: Fog of War's 6 Builds as 3 new Forces and 3 upgrades."""
    s = Script((A, B, C), ("Fog of War", "Military Base", "Megastorm", "Insurgents", "Surrender",
                           "Bio Weapons", "Ore Control", "Supply Depots", "Propaganda War",
                           "Tactical Nukes"))
    s.play(A, DOM, Use.BUILD).build(A, "Brazil", "Argentina").forgo(A)
    s.buy(A, "Fog of War", DOM, DOM).play(A, "Fog of War", Use.BUILD)
    s.build(A, "Canada", "United States", "Mexico")  # 3 Builds: new Forces
    s.build(A, "Canada")  # 1 Build: one of them made Full
    s.build(A, "Brazil", "Argentina")  # 2 Builds: two other Struggling Forces made Full
    s.end(A, B, C, A)
    return s.finish()


def reductions() -> Script:
    """Bio Weapons round the table, Megastorm, Show of Force and Bad Leadership."""
    s = Script((A, B, C), ("Bio Weapons", "Megastorm", "Show of Force", "Bad Leadership",
                           "Military Base", "Nuclear Winter", "Out of Supply", "Surrender",
                           "Global Disruption", "Tactical Nukes"))
    s.play(A, DOM, Use.BUILD).build(A, "Canada", "United States", "Mexico")
    s.buy(A, "Bio Weapons", DOM, DOM).end(A)
    s.play(B, DOM, Use.BUILD).build(B, "Brazil", "Argentina", "Colombia")
    s.buy(B, "Megastorm", DOM, DOM).end(B)
    s.play(C, DOM, Use.BUILD).build(C, "India", "China", "Middle East")
    s.buy(C, "Bad Leadership", DOM, DOM).end(C)
    s.play(A, "Bio Weapons").reduce(A, "Brazil", "India")
    s.do(ChainAnswered(player=B, joined=True)).reduce(B, "Canada", "China")
    s.do(ChainAnswered(player=C, joined=True)).reduce(C, "United States", "Argentina")
    s.do(ChainAnswered(player=A, joined=False))
    s.play(A, DOM, Use.BUILD).build(A, "Mexico", "Arctic Ocean", "Arctic Ocean").end(A)
    s.play(B, "Megastorm")  # alice 2 Forces -> 1, bob 1 -> 0, carol 1 -> 0
    s.reduce(B, "Arctic Ocean").end(B)
    s.play(C, "Bad Leadership").do(PlayerTargeted(player=C, target=A)).end(C)
    s.end(A, B, C)
    # Game Turn 2: alice buys Show of Force for a Logistical step
    s.buy(A, "Show of Force", DOM, DOM).play(A, DOM, Use.BUILD).build(A, "Mexico", "Arctic Ocean")
    s.forgo(A).play(A, "Show of Force").reduce(A, "Colombia", "Middle East").end(A)
    return s.finish()


def removals() -> Script:
    """Global Disruption, Surrender, Nuclear Winter, Out of Supply, Tactical Nukes."""
    s = Script((A, B, C), ("Global Disruption", "Surrender", "Nuclear Winter", "Out of Supply",
                           "Tactical Nukes", "Military Base", "Megastorm", "Insurgents",
                           "Bio Weapons", "Agriculture Control"), first=B)
    s.buy(B, "Military Base", DOM, DOM).play(B, "Military Base")
    s.build(B, "Canada", "Canada", "United States", "Brazil", "Brazil", "India", "Arctic Ocean",
            "Western Europe", "Western Europe").forgo(B)
    s.buy(B, "Out of Supply", DOM, DOM).end(B)
    s.play(C, DOM, Use.BUILD).build(C, "Mexico", "Argentina", "China")
    s.buy(C, "Global Disruption", DOM, DOM).end(C)
    s.play(A, DOM, Use.BUILD).build(A, "Russia", "Scandinavia", "Scandinavia")
    s.buy(A, "Surrender", DOM, DOM).end(A)
    s.play(B, "Out of Supply").do(PlayerTargeted(player=B, target=C)).end(B)  # carol's lone Forces
    s.play(C, "Global Disruption")
    s.do(ForceRemoved(player=C, area="Canada"), ForceRemoved(player=C, area="Brazil"),
         ForceRemoved(player=C, area="Russia"), ForceRemoved(player=C, area="India"))
    s.end(C)
    s.play(A, "Surrender").do(ForceRemoved(player=A, area="Western Europe")).end(A)
    s.end(B, C, A)
    s.buy(B, "Tactical Nukes", DOM, DOM).play(B, "Tactical Nukes").end(B)
    s.buy(C, "Nuclear Winter", DOM, DOM).play(C, "Nuclear Winter").end(C)
    return s.finish()


def builds_and_scores() -> Script:
    """Airborne Forces out of turn and at scoring, Insurgents, the three restricted cards,
    Supply Depots, Propaganda War, a Control card and Fog of War at scoring."""
    s = Script((A, B, C), ("Airborne Forces", "Insurgents", "Carrier Task Forces",
                           "Amphibious Assault", "Attack Helicopters", "Supply Depots",
                           "Propaganda War", "Ore Control", "Fog of War", "Military Base"))
    s.buy(A, "Carrier Task Forces", DOM, DOM).play(A, "Carrier Task Forces", Use.BUILD)
    s.build(A, "North Atlantic", "North Atlantic", "Arctic Ocean", "Arctic Ocean").end(A)
    s.buy(B, "Airborne Forces", DOM, DOM).play(B, DOM, Use.BUILD)
    s.build(B, "Brazil", "Argentina", "Colombia").end(B)
    s.play(C, "Domination", Use.BUILD).build(C, "India", "China", "Middle East")
    s.buy(C, "Insurgents", DOM, DOM).end(C)
    s.buy(A, "Amphibious Assault", DOM, DOM)
    s.play(B, "Airborne Forces").build(B, "Brazil", "Argentina").reduce(B, "India", "China")
    s.forgo(B)  # out of turn, during alice's turn
    s.play(A, "Amphibious Assault", Use.BUILD).build(A, "Canada", "United States", "Scandinavia")
    s.build(A, "Canada").end(A)
    s.end(B)
    s.play(C, "Insurgents").do(ForceSeized(player=C, area="Colombia")).forgo(C).end(C)
    s.end(A, C)
    # Game Turn 2
    s.prefer = {A: ["Carrier Task Forces"], C: ["Insurgents"]}
    s.buy(A, "Attack Helicopters", DOM, DOM)
    s.play(A, "Amphibious Assault", Use.BUILD).build(A, "Mexico", "Mexico").forgo(A)
    s.play(A, "Attack Helicopters", Use.ATTACK).reduce(A, "Colombia", "Colombia")
    s.end(A)
    s.buy(B, "Supply Depots", DOM, DOM).play(B, DOM, Use.BUILD)
    s.build(B, "Southern Africa", "Central Africa", "North Africa")
    s.play(B, "Supply Depots").buy(B, "Ore Control", DOM).end(B)  # Discard 1
    s.buy(C, "Propaganda War", DOM, DOM).play(C, "Propaganda War")
    s.buy(C, "Fog of War", DOM, DOM).end(C, A, B, C)
    # scoring: bob strikes with Airborne Forces; carol's Fog of War denies his African monopoly
    s.play(B, "Airborne Forces").reduce(B, "Mexico", "Mexico").forgo(B)
    s.play(C, "Fog of War")
    return s.finish()


def options_game() -> Script:
    """Every option switched away from its default."""
    s = Script((A, B, C, "dave"), ("Megastorm", "Surrender", "Military Base", "Ore Control",
                                   "Bio Weapons", "Fog of War", "Insurgents", "Supply Depots",
                                   "Tactical Nukes", "Show of Force"),
               resource_gain="once", megastorm_rounding="up", hands="discard", ties="logistics",
               surrender_own=True, two_players=True)
    s.buy(A, "Military Base", DOM, DOM).play(A, "Military Base")
    s.build(A, "Canada", "Canada", "Russia", "Russia", "Central Africa", "Central Africa", "Mexico")
    s.forgo(A).end(A)
    s.buy(B, "Megastorm", DOM, DOM).play(B, "Megastorm")  # alice has 4 Forces: 2 Reductions
    s.reduce(B, "Mexico", "Canada").end(B)
    s.buy(C, "Surrender", DOM, DOM).play(C, DOM, Use.BUILD).build(C, "Brazil", "Brazil", "Argentina")
    s.end(C, "dave")
    s.play(A, DOM, Use.BUILD).build(A, "Canada", "Mexico").forgo(A).end(A)
    s.end(B).play(C, "Surrender").do(ForceRemoved(player=C, area="Argentina")).end(C)
    return s.finish()


def disputed() -> Script:
    """bob plays out of turn; it is refused, disputed, undone, and play goes on."""
    s = Script((A, B, C), ("Megastorm", "Surrender", "Military Base", "Ore Control",
                           "Bio Weapons", "Fog of War", "Insurgents", "Supply Depots",
                           "Tactical Nukes", "Show of Force"))
    s.play(A, DOM, Use.BUILD).build(A, "Canada", "Mexico", "Canada")
    bad = len(s.events) + 1
    s.raw(CardPlayed(player=B, card=DOM, use=Use.ATTACK, by=B))
    s.raw(Note(text="bob attacked before alice ended her turn", about=bad, dispute=True, by=A))
    s.raw(Undone(target=bad, by="scribe"))
    s.end(A).play(B, DOM, Use.ATTACK).reduce(B, "Canada", "Canada", "Mexico").end(B, C, A, B)
    s.raw(Note(text="the attack was replayed in bob's own turn", by="scribe"))
    return s.finish()


def simulated(players, seed, **options):
    header = replace(as_recorded(simulate.header_for(RS, tuple(players), RS.Options(**options))),
                     rules_version=RECORDED)
    s = Script.__new__(Script)
    s.header, s.events = header, [ev for ev, _ in simulate.play(RS, header, seed)]
    return s


GAMES = {
    "fog-of-war-build-example.jsonl": fog_of_war_example,
    "cards-reductions.jsonl": reductions,
    "cards-removals.jsonl": removals,
    "cards-builds-and-scoring.jsonl": builds_and_scores,
    "options-all-changed.jsonl": options_game,
    "disputed-out-of-turn.jsonl": disputed,
    "simulated-2-players.jsonl": lambda: simulated((A, B), 5, two_players=True),
    "simulated-3-players.jsonl": lambda: simulated((A, B, C), 7),
    "simulated-6-players.jsonl": lambda: simulated((A, B, C, "dave", "erin", "frank"), 11),
}


FIXTURES = os.path.normpath(os.path.join(os.path.dirname(__file__), "..", "..", "fixtures",
                                         "rules-1.2", "global-domination"))


def everyone_asked(out: str = FIXTURES) -> str:
    """A 1.2 game (a test fixture, not a bundled replay): at every scoring step each player
    is asked in turn and passes, whatever they hold (gd.score.window). At the first, alice
    holds no scoring card and passes (seq 38); bob plays Fog of War, denying alice her North
    American monopoly, then passes. Rules 1.1 skipped alice, so they refuse her pass."""
    os.makedirs(out, exist_ok=True)
    s = Script((A, B, C), ("Fog of War", "Military Base", "Megastorm", "Insurgents", "Surrender",
                           "Bio Weapons", "Ore Control", "Supply Depots", "Propaganda War",
                           "Tactical Nukes"), rules="1.2")
    s.play(A, DOM, Use.BUILD).build(A, "Canada", "United States", "Mexico").end(A)
    s.buy(B, "Fog of War", DOM, DOM).play(B, DOM, Use.BUILD)
    s.build(B, "Brazil", "Argentina", "Colombia").end(B)
    s.end(C, A, B)  # everyone has passed: the scoring step asks alice first
    s.do(ScoringPassed(player=A))  # she holds three Domination cards, and is asked all the same
    s.play(B, "Fog of War").do(ScoringPassed(player=B), ScoringPassed(player=C)).draw()
    return s.finish().write("everyone-asked.jsonl", out)


def main(out: str = OUT) -> None:
    os.makedirs(out, exist_ok=True)
    for name, make in GAMES.items():
        path = make().write(name, out)
        r = engine.replay(path)
        o = r.ruleset.outcome(r.state) if r.ruleset and r.state else None
        print(path, len(r.problems), o.summary if o else None)


if __name__ == "__main__":
    main()
