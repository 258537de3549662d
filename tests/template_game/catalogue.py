"""The rules in our own words, each under an id a refusal names, and their history."""

from __future__ import annotations

from tabletape.engine import Rule
from tabletape.engine.versions import Pin, Rulebook

from .lookups import scores_1_0

RULES = {
    "take.setup.roll": Rule("Take-away, 1", "Before the first turn a die is rolled; its number "
                                            "of counters is added to the pile."),
    "take.setup.deal": Rule("Take-away, 1", "Then each player in seat order is dealt one card "
                                            "from the deck, face down: only they know it."),
    "take.turn.order": Rule("Take-away, 1", "Players take their turns in seat order."),
    "take.take.count": Rule("Take-away, 2", "A turn takes one counter or more, up to the limit "
                                            "the components set."),
    "take.take.pile": Rule("Take-away, 2", "A turn cannot take more counters than the pile has."),
    "take.end.last": Rule("Take-away, 3", "Once the pile is empty each player scores their "
                                          "card, whoever took the last counter three more; the "
                                          "highest score wins."),
}

# version -> {rule id: what changed in it}, oldest first; the current version is the last.
CHANGELOG: dict[str, dict[str, str]] = {
    "1.0": {},
    "1.1": {"take.take.pile": "a take larger than the pile is refused (1.0 took what was left)",
            "take.end.last": "the last taker scores three more (1.0 doubled their card)"},
}
# A yes/no change: a bool field of `Lookups`, off under the versions before it.
SWITCHES = {"pile_bound": ("1.1", "take.take.pile")}
# A change that is not yes/no: a function field of `Lookups`, the older function before it.
PINS = {"score": Pin("1.1", "take.end.last", scores_1_0)}

RULEBOOK = Rulebook(rules=RULES, changelog=CHANGELOG, switches=SWITCHES, pins=PINS)
