"""The rules in our own words, each under an id a refusal names, and their history."""

from __future__ import annotations

from tabletape.engine import Rule

RULES = {
    "take.setup.roll": Rule("Take-away, 1", "Before the first turn a die is rolled; its number "
                                            "of counters is added to the pile."),
    "take.turn.order": Rule("Take-away, 1", "Players take their turns in seat order."),
    "take.take.count": Rule("Take-away, 2", "A turn takes one counter or more, up to the limit "
                                            "the components set."),
    "take.take.pile": Rule("Take-away, 2", "A turn cannot take more counters than the pile has."),
    "take.end.last": Rule("Take-away, 3", "Whoever takes the last counter wins at once."),
}

# version -> {rule id: what changed in it}; the current version is a key.
CHANGELOG: dict[str, dict[str, str]] = {"1.0": {}}
