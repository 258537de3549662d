"""The random playout's fast paths (engine.playout.samplers): a game's `odds`, `nth`, `pick`
and `chance` give what `weights` and `legal` give, its `actor` who `pending` names, and its
`draw` both at once, so random agents play, seed for seed, the games `simulate` plays."""

from __future__ import annotations

import random

import pytest

from tabletape import engine
from tabletape.engine import agents, playout, simulate
from tabletape.engine.simulate import header_for

PLAYERS = {"cards-of-war": 2, "liberation": 3, "global-domination": 4, "battlecards-pacific": 2}
NAMES = ("alice", "bob", "carol", "dave")


def agree(bound, states) -> int:
    """Asserts the fast paths of a bound ruleset's legality on each state; returns how many
    answers they gave (None is always allowed: the playout then counts through `legal`)."""
    fast = bound.extras  # the game's `Extras` (playouts.py)
    odds, nth, actor, pick, chance = fast.odds, fast.nth, fast.actor, fast.pick, fast.chance
    by_chance, by_player = playout.samplers(bound)
    answered = 0
    for state in states:
        decision = bound.pending(state)
        if actor is not None:
            assert actor(bound.lk, state) == (decision.actor if decision else None)
        if fast.draw is not None:  # the move whole: `pending`'s actor, the samplers' event
            for seed in (1, 2):
                mine, theirs = random.Random(seed), random.Random(seed)
                want = None if decision is None else (decision.actor, (
                    by_chance(state, theirs.random) if decision.actor == engine.CHANCE
                    else by_player(state, playout.below_of(theirs))))
                assert fast.draw(bound.lk, state, mine.random, playout.below_of(mine)) == want
                assert mine.getstate() == theirs.getstate()  # the same numbers drawn
            answered += 1
        if decision is None:
            continue
        options = list(bound.legal(state))
        if chance is not None and decision.actor == engine.CHANCE:
            weights = bound.weights(state, options)
            for r in (0.0, 0.3, 0.5, 0.999999):  # random.choices's pick with that number drawn
                drawing = Drawing(r)
                assert chance(bound.lk, state, drawing.random) == \
                    Drawing(r).choices(options, weights)[0]
                assert drawing.asked == 1
            answered += 1
        w = odds(bound.lk, state) if odds else None
        if w is not None:
            assert w == bound.weights(state, options)
            answered += 1
        for i, option in enumerate(options):
            got = nth(bound.lk, state, i) if nth else None
            assert got is None or got == option, i
            answered += got is not None
            if pick is None:
                continue
            asked: list[int] = []

            def below(n: int, i: int = i, asked: list[int] = asked) -> int:
                asked.append(n)
                return i
            got = pick(bound.lk, state, below)
            if got is None:  # no answer here: `below` was not asked
                assert not asked
                break
            assert (asked, got) == ([len(options)], option), i
            answered += 1
    return answered


class Drawing(random.Random):
    """A generator whose `random()` is always the number it was made with."""

    def __init__(self, r: float) -> None:
        super().__init__(0)
        self.r, self.asked = r, 0

    def random(self) -> float:
        self.asked += 1
        return self.r


def simulated(game: str, seeds=range(3)):
    rs = engine.get(game)
    header = header_for(rs, NAMES[:PLAYERS[game]])
    bound = rs.bind(header)
    states = []
    for seed in seeds:
        states.append(bound.initial())
        states += [after for _event, after in simulate.play(rs, header, seed)]
    return bound, states


@pytest.mark.parametrize("game", sorted(PLAYERS))
def test_odds_nth_pick_and_actor_agree_with_weights_legal_and_pending(game):
    bound, states = simulated(game)
    fast = bound.extras
    assert agree(bound, states) or not any((fast.odds, fast.nth, fast.pick))


@pytest.mark.parametrize("n, seed, rules, old, options", [
    (4, 3, None, False, {}), (5, 5, None, False, {"turn_over": "optional"}),
    (4, 7, "1.0", False, {}), (3, 8, "1.0", True, {}),
    (4, 10, None, True, {"turn_over": "optional"}), (3, 11, "1.1", False, {})])
def test_liberations_fast_paths_under_other_options_and_rules(n, seed, rules, old, options):
    """Every ability's answers (turn-overs optional or not, rules 1.0's turn-downs only, the
    earlier cards' turn-ups) at 3 to 5 seats."""
    from tests.games.liberation.test_fast_paths import walk
    bound, states = walk(n, seed, rules, old, **options)
    assert agree(bound, states)


@pytest.mark.parametrize("support", ["every-shot", "allocated"])
def test_battlecards_fast_paths_with_either_kind_of_support(support):
    from tests.games.battlecards_pacific.test_fast_paths import played
    bound, _events, states = played(support, 5)
    assert agree(bound, states)


@pytest.mark.parametrize("game", sorted(PLAYERS))
def test_random_agents_play_the_games_simulate_plays_seed_for_seed(game):
    rs = engine.get(game)
    header = header_for(rs, NAMES[:PLAYERS[game]])
    bound = rs.bind(header)
    seats = {p: agents.RandomAgent() for p in header.players}
    for seed in (3, 11, 12):
        events: list = []
        playout.play(bound, seats, seed, visit=lambda e, s, out=events: out.append(e))  # type: ignore[misc]  # (mypy cannot type a lambda's default)
        assert events == [e for e, _ in simulate.play(rs, header, seed)]
        drawn: list = []  # the agents' door (engine.agents.rollout): the same draws
        by_chance, by_player = playout.samplers(bound)
        state, rng = bound.initial(), random.Random(seed)
        rand, below = rng.random, playout.below_of(rng)
        while (d := bound.pending(state)) is not None:
            drawn.append(by_chance(state, rand) if d.actor == engine.CHANCE
                         else by_player(state, below))
            state = bound.apply(state, drawn[-1])
        assert drawn == events


@pytest.mark.parametrize("game", ["liberation", "battlecards-pacific"])
def test_chance_is_drawn_whole_and_pinned_where_the_game_declares_it(game):
    """Liberation (a country turned, a force card dealt or drawn) and BATTLECARDS draw
    chance's event whole (`Extras.chance`): `agree` pins it to `random.choices` on every
    state of their simulated games where chance decides, and there are such states."""
    bound, states = simulated(game, seeds=range(1))
    assert bound.extras.chance is not None
    chance_states = [s for s in states if bound.extras.actor(bound.lk, s) == engine.CHANCE]
    assert chance_states
    assert agree(bound, chance_states) >= len(chance_states)
