"""The component data: the bundled cards, their provenance, and a user's own cards."""

import msgspec
import pytest

from tabletape.games.battlecards_pacific.components import Components, default
from tabletape.tape.errors import UsageError

from .helpers import JAPAN, RS, US


def test_the_bundled_cards_match_the_counts_the_rulebook_gives():
    comp = default()
    assert [s.id for s in comp.sides] == ["Japan", "US"]
    for side in comp.sides:
        assert sum(u.count for u in side.arsenal) == 50
    assert sum(c.count for c in comp.conflict) == 54
    battles = [c for c in comp.conflict if c.battle]
    assert sum(c.battle.vp for c in battles) == 80  # 40 VP is half of it
    assert comp.rules.standard_victory == 40 and comp.rules.provenance == "rulebook"
    eliminations = {c.name: c.battle.eliminates for c in battles if c.battle.eliminates}
    assert eliminations == {"Invasion of Australia": "US", "Invasion of Japan": "Japan"}
    assert all(u.provenance for s in comp.sides for u in s.arsenal)


def with_changes(**changes) -> Components:
    raw = msgspec.to_builtins(default())
    for path, value in changes.items():
        *where, key = path.split("__")
        node = raw
        for part in where:
            node = node[int(part)] if part.isdigit() else node[part]
        node[key] = value
    return msgspec.convert(raw, Components)


@pytest.mark.parametrize("changes, problem", [
    ({"sides__1__id": "Japan"}, "side ids must be unique"),
    ({"sides__0__arsenal__1__name": "Infantry Division"}, "names must be unique"),
    ({"sides__0__arsenal__4__count": 2}, "leader"),
    ({"conflict__0__battle__aggressor": "Germany"}, "unknown aggressor"),
    ({"conflict__4__battle__requires": ["Pearl Harbour"]}, "not another BATTLECARD"),
    ({"conflict__1__name": "Pearl Harbor"}, "Conflict card names must be unique"),
])
def test_a_users_cards_are_checked(changes, problem):
    with pytest.raises(UsageError, match=problem):
        RS.start((JAPAN, US), RS.Options(), with_changes(**changes))


def test_a_users_own_values_are_played():
    # a Zero with attack 9 against Air: the window of a shot changes with the data
    comp = with_changes(sides__0__arsenal__5__attack={"air": 9})
    header = RS.start((JAPAN, US), RS.Options(), comp)
    assert RS.bind(header).initial().components.sides[0].arsenal[5].attack.air == 9
