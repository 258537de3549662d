"""Regenerates replays/battlecards-pacific/ deterministically (no timestamps).

Run from the repository root:  .venv/bin/python -m tests.games.battlecards_pacific.make_replays
Scripted games name every chance outcome (each card drawn or turned) and every decision.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable

from msgspec.structs import replace

from tabletape.engine import simulate
from tabletape.games.battlecards_pacific import RULESET, BattlecardsPacific, lookups
from tabletape.games.battlecards_pacific.events import (
    ArsenalDrawn,
    BattleDecided,
    BcpEvent,
    ConflictDrawn,
    ConflictTurned,
    EmergencyDeclined,
    EmergencyDeployed,
    UnitDeployed,
    UnitFired,
    UnitWithdrawn,
    WithdrawalFinished,
)
from tabletape.games.battlecards_pacific.state import State, Step
from tabletape.tape import log
from tabletape.tape.events import Event, Note
from tests.replays_format import as_recorded

RS = RULESET  # the registered game (`engine.get("battlecards-pacific")`)
OUT = "replays/battlecards-pacific"
FIXTURES = "tests/fixtures"  # rules-<version>/battlecards-pacific: the logs of one version
RECORDED = "1.1"  # the bundled replays stay recorded under rules 1.1 (1.2 is a test fixture)
JAPAN, US = "alice", "bob"
Play = BcpEvent | Callable[[BattlecardsPacific, State], BcpEvent | None]  # given the bound game


class Dispute:
    """A dispute note about the latest event written so far."""

    def __init__(self, by: str, text: str):
        self.by, self.text = by, text


def deal(player: str, *units: str) -> list[Play]:
    return [ArsenalDrawn(player=player, unit=u) for u in units]


def deploy(player: str, *units: str) -> list[Play]:
    def one(u: str) -> Play:
        return lambda rs, s: UnitDeployed(player=player, unit=u,
                                          stack=lookups.unit(rs.lk, s, player, u).type)
    return [one(u) for u in units]


def draw(player: str, card: str) -> list[Play]:
    """The player keeps their Reserve Hand (when they hold one) and draws `card`."""
    def keep(rs: BattlecardsPacific, s: State) -> BcpEvent | None:
        return EmergencyDeclined(player=player) if s.steps[0].step is Step.CHOOSE else None
    return [keep, ConflictDrawn(player=player, card=card)]


def shot(player: str, unit: str, target: str, card: str, kept: str | None = None) -> list[Play]:
    """A unit fires and `card` is turned for it."""
    def turned(rs: BattlecardsPacific, s: State) -> BcpEvent:
        return next(e for e in rs.legal(s) if isinstance(e, ConflictTurned) and e.card == card)
    return [UnitFired(player=player, unit=unit, target=target, kept=kept), turned]


def write(out: str, name: str, plays: Iterable[Play | Dispute], rules: str = RECORDED) -> None:
    """Checks every play against the rules, then writes the log (recorded under `rules`)."""
    header = replace(as_recorded(RS.start((JAPAN, US), RS.Options(), RS.default_components())),
                     rules_version=rules)
    rs = RS.bind(header)
    state = rs.initial()
    events: list[Event] = []
    for p in plays:
        if isinstance(p, Dispute):  # events[k] will be seq k + 1
            events.append(Note(text=p.text, about=len(events), dispute=True, by=p.by))
            continue
        ev = p(rs, state) if callable(p) else p
        if ev is None:
            continue
        v = rs.check(state, ev)
        assert v is None, f"{name}: {rs.describe(ev)} refused: {v}"
        state = rs.apply(state, ev)
        events.append(ev)
    _save(out, name, header, events)


def _save(out: str, name: str, header, events: list[Event]) -> None:
    path = os.path.join(out, name)
    if os.path.exists(path):
        os.remove(path)
    log.create(path, header, RS.codec)
    log.append(path, events, RS.codec, expect=None)


def declined_ignored_default() -> list:
    """A declined battle, an ignored one, and one won by default."""
    return [
        *deal(JAPAN, "Infantry Division", "Infantry Division", "Kongo Battleship", "A6M Zero",
              "Kagero Destroyer", "Type 97 Chi-Ha Tank"),
        *deal(US, "Iowa Battleship", "Fletcher Destroyer", "Gato Submarine", "Marine Division",
              "F4U Corsair", "SBD Dauntless"),
        *deploy(JAPAN, "Infantry Division", "Infantry Division", "Kongo Battleship"),
        *deploy(US, "Iowa Battleship", "Fletcher Destroyer", "Gato Submarine"),
        *draw(JAPAN, "Pearl Harbor"), BattleDecided(player=JAPAN, fight=False),
        *draw(US, "Doolittle Raid"), BattleDecided(player=US, fight=True),
        *draw(JAPAN, "Fall of the Philippines"), BattleDecided(player=JAPAN, fight=True),
        *draw(US, "Radar Advantage"),
    ]


def battle_withdrawal() -> list:
    """Pearl Harbor fought through four phases with support and a Kept Card; the US withdraws.
    bob disputes the first shot."""
    return [
        *deal(JAPAN, "A6M Zero", "A6M Zero", "Kagero Destroyer", "Infantry Division",
              "Shokaku Carrier", "Infantry Division"),
        *deal(US, "F4U Corsair", "Essex Carrier", "Marine Division", "F6F Hellcat",
              "Fletcher Destroyer", "Army Infantry Division"),
        *deploy(JAPAN, "A6M Zero", "A6M Zero", "Shokaku Carrier"),
        *deploy(US, "F4U Corsair", "Essex Carrier", "Fletcher Destroyer"),
        *draw(JAPAN, "Radar Advantage"),
        *draw(US, "Monsoon"),
        *draw(JAPAN, "Pearl Harbor"), BattleDecided(player=JAPAN, fight=True),
        # phase 1: both Zeros fire (the Shokaku adds 1 to each, Radar Advantage 1 more)
        *shot(JAPAN, "A6M Zero", "F4U Corsair", "Supply Lines Stretched", kept="Radar Advantage"),
        Dispute(US, "the Shokaku's support should not count for a Zero"),
        *shot(JAPAN, "A6M Zero", "Fletcher Destroyer", "Reinforcements"),
        # phase 2
        *shot(JAPAN, "A6M Zero", "Essex Carrier", "Fresh Troops"),
        *shot(JAPAN, "A6M Zero", "Fletcher Destroyer", "Mobilization"),
        # phase 4: the Essex may fire at a Zero (2 against 2) but cannot hit it
        *shot(US, "Essex Carrier", "A6M Zero", "Monsoon"),
        WithdrawalFinished(player=JAPAN),
        UnitWithdrawn(player=US, unit="Essex Carrier"),
    ]


def stalemate() -> list:
    """Wake Island: a submarine against infantry; neither can hit, the defender wins."""
    return [
        *deal(JAPAN, "I-Boat Submarine", "A6M Zero", "D3A Val Dive Bomber", "Infantry Division",
              "Artillery Regiment", "Kagero Destroyer"),
        *deal(US, "Army Infantry Division", "F4U Corsair", "F6F Hellcat", "Iowa Battleship",
              "Marine Division", "Essex Carrier"),
        *deploy(JAPAN, "I-Boat Submarine", "A6M Zero", "D3A Val Dive Bomber"),
        *deploy(US, "Army Infantry Division", "F4U Corsair", "F6F Hellcat"),
        *draw(JAPAN, "Wake Island"), BattleDecided(player=JAPAN, fight=True),
        *draw(US, "Fog of War"),
    ]


def stalemate_after_casualty() -> list:
    """Wake Island: the landing force, Japan's only unit able to hit, falls in phase 3; what is
    left cannot hit on either side, so the battle ends there: Japan withdraws, the US wins."""
    return [
        *deal(JAPAN, "I-Boat Submarine", "Special Naval Landing Force", "A6M Zero",
              "Infantry Division", "Artillery Regiment", "Kagero Destroyer"),
        *deal(US, "Army Infantry Division", "F4U Corsair", "F6F Hellcat", "Iowa Battleship",
              "Marine Division", "Essex Carrier"),
        *deploy(JAPAN, "I-Boat Submarine", "Special Naval Landing Force", "A6M Zero"),
        *deploy(US, "Army Infantry Division", "F4U Corsair", "F6F Hellcat"),
        *draw(JAPAN, "Wake Island"), BattleDecided(player=JAPAN, fight=True),
        *shot(JAPAN, "Special Naval Landing Force", "Army Infantry Division", "Reinforcements"),
        *shot(US, "Army Infantry Division", "Special Naval Landing Force", "Replenish Reserves"),
        *draw(US, "Fog of War"),
    ]


def emergency_turn() -> list:
    """Japan emergency deploys instead of drawing, and later refills from the Arsenal."""
    return [
        *deal(JAPAN, "Infantry Division", "A6M Zero", "Kagero Destroyer", "B5N Kate Torpedo Bomber",
              "General Yamashita", "Artillery Regiment"),
        *deal(US, "Marine Division", "F4U Corsair", "Baltimore Cruiser", "TBF Avenger",
              "M4 Sherman Tank", "Gato Submarine"),
        *deploy(JAPAN, "Infantry Division", "A6M Zero", "Kagero Destroyer"),
        *deploy(US, "Marine Division", "F4U Corsair", "Baltimore Cruiser"),
        EmergencyDeployed(player=JAPAN, units=("Artillery Regiment", "B5N Kate Torpedo Bomber",
                                               "General Yamashita")),
        *draw(US, "Mobilization"),
        *deploy(US, "M4 Sherman Tank", "TBF Avenger"),
        *draw(JAPAN, "Reinforcements"), *deal(JAPAN, "Kongo Battleship", "A6M Zero"),
        *draw(US, "Codebreakers"),
    ]


def total_victory() -> list:
    """The US takes Iwo Jima by default and Okinawa by force, then invades Japan, which
    emergency deploys its reserve in defence of the homeland and loses: Total Victory."""
    return [
        *deal(JAPAN, "Kagero Destroyer", "Kagero Destroyer", "I-Boat Submarine",
              "Infantry Division", "A6M Zero", "Type 97 Chi-Ha Tank"),
        *deal(US, "Marine Division", "F4U Corsair", "Iowa Battleship", "Essex Carrier",
              "Fletcher Destroyer", "M4 Sherman Tank"),
        *deploy(JAPAN, "Kagero Destroyer", "Kagero Destroyer", "I-Boat Submarine"),
        *deploy(US, "Marine Division", "F4U Corsair", "Iowa Battleship"),
        *draw(JAPAN, "Monsoon"),
        *draw(US, "Iwo Jima"), BattleDecided(player=US, fight=True),
        *draw(JAPAN, "Fog of War"),
        *draw(US, "Okinawa"), BattleDecided(player=US, fight=True),
        *shot(US, "F4U Corsair", "Kagero Destroyer", "Mobilization"),
        *shot(JAPAN, "I-Boat Submarine", "Iowa Battleship", "Reinforcements"),
        *shot(US, "F4U Corsair", "Kagero Destroyer", "Mobilization"),
        *shot(US, "Iowa Battleship", "I-Boat Submarine", "Replenish Reserves"),
        *draw(JAPAN, "Supply Lines Stretched"),
        *draw(US, "Invasion of Japan"), BattleDecided(player=US, fight=True),
        EmergencyDeployed(player=JAPAN, units=("A6M Zero", "Infantry Division",
                                               "Type 97 Chi-Ha Tank")),
        *shot(US, "F4U Corsair", "A6M Zero", "Rapid Mobilization"),
        *shot(US, "F4U Corsair", "Infantry Division", "Rapid Mobilization"),
        *shot(US, "Iowa Battleship", "Type 97 Chi-Ha Tank", "Supply Lines Stretched"),
    ]


def simulated(out: str, name: str, seed: int, rules: str = RECORDED) -> None:
    header = replace(as_recorded(simulate.header_for(RS, (JAPAN, US))), rules_version=rules)
    _save(out, name, header, [ev for ev, _ in simulate.play(RS, header, seed)])


def emergency_any_order() -> list:
    """Japan's emergency deployment lists the Reserve Hand in another order than it is held:
    the rulebook gives a hand no order (rules 1.2, bcp.emergency.all; 1.1 refused it)."""
    plays = emergency_turn()
    return [EmergencyDeployed(player=JAPAN, units=("General Yamashita", "Artillery Regiment",
                                                   "B5N Kate Torpedo Bomber"))
            if isinstance(p, EmergencyDeployed) else p for p in plays]


def fixtures(out: str = FIXTURES) -> None:
    """Writes the rules 1.2 test fixtures: a hand listed in any order, and the simulated game
    of seed 0 as 1.2 plays it (its Conflict deck reshuffled after the last BATTLECARD; under
    1.1 the bundled simulated-seed-0 reshuffled it before, bcp.deck.reshuffle)."""
    where = os.path.join(out, "rules-1.2", "battlecards-pacific")
    os.makedirs(where, exist_ok=True)
    write(where, "emergency-any-order.jsonl", emergency_any_order(), rules="1.2")
    simulated(where, "simulated-seed-0.jsonl", 0, rules="1.2")


def main(out: str = OUT) -> None:
    """Writes every replay into `out`."""
    os.makedirs(out, exist_ok=True)
    write(out, "declined-ignored-default.jsonl", declined_ignored_default())
    write(out, "battle-withdrawal-dispute.jsonl", battle_withdrawal())
    write(out, "stalemate.jsonl", stalemate())
    write(out, "stalemate-after-casualty.jsonl", stalemate_after_casualty())
    write(out, "emergency-deployment.jsonl", emergency_turn())
    write(out, "total-victory-invasion-of-japan.jsonl", total_victory())
    simulated(out, "simulated-seed-0.jsonl", 0)
    simulated(out, "simulated-seed-11-invasion-of-australia.jsonl", 11)


if __name__ == "__main__":
    main()
    fixtures()
