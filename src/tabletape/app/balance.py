"""The balance lab: many games of one rules configuration played by agents, and their figures.

A `Config` names what is measured: the game, its rules version, its options, the number of
players and the agent in each seat (rotated through the seats game by game, if asked).
`run` plays games `0..n-1` of it, game i from `playout.game_seed(seed, i)`, in chunks of
CHUNK games: in this process, in a pool of processes, or on a Dask scheduler's workers.
Every chunk's result depends on its games' seeds alone, so the figures are the same
whatever plays them; whole chunks are cached under the code's fingerprint and the
configuration, so that a longer run extends a shorter one. `write_game` plays one game of
a run again into a log.
"""

from __future__ import annotations

import functools
import hashlib
import os
import random
from collections.abc import Callable, Generator, Sequence
from typing import Any

import msgspec

from tabletape import engine
from tabletape.app import balance_dask, entries, judge
from tabletape.app.parallel import pmap
from tabletape.engine import agents as agentlib
from tabletape.engine import playout, seats
from tabletape.engine.simulate import header_for
from tabletape.tape import files
from tabletape.tape import log as tapelog
from tabletape.tape.errors import UsageError

CHUNK = 50  # games per unit of work, and per cache entry
CACHE_VERSION = 1
PLAYERS = ("alice", "bob", "carol", "dave", "erin", "frank")


class Config(msgspec.Struct, frozen=True, kw_only=True):
    """One configuration of a game: what `balance` measures."""

    game: str
    rules: str  # a released rules version of the game
    options: tuple[tuple[str, Any], ...] = ()  # as `--option` takes them, NAME=VALUE
    players: int = 2
    agents: tuple[str, ...] = ("random",)  # by seat; the last fills the seats left
    rotate: bool = False  # seat i of game g plays agent (i + g) mod players
    max_events: int = playout.MAX_EVENTS

    def label(self) -> str:
        """Returns a short name: the rules version, the options, the agents."""
        parts = [f"{self.game} {self.rules}"]
        parts += [f"{k}={v}" for k, v in self.options]
        parts.append(",".join(self.seat_agents(0)) + (" rotated" if self.rotate else ""))
        return " ".join(parts)

    def seat_agents(self, index: int) -> tuple[str, ...]:
        """Returns the agent of each seat in game `index`."""
        base = (self.agents + (self.agents[-1],) * self.players)[:self.players]
        if not self.rotate:
            return base
        k = index % self.players
        return base[-k:] + base[:-k] if k else base


class GameRow(msgspec.Struct, frozen=True, array_like=True):
    """One game of a run: what the report lists (seats by index)."""

    index: int
    seed: int
    winners: tuple[int, ...]
    completed: bool
    events: int
    turns: int
    rounds: int
    lead_from: float | None


class Chunk(msgspec.Struct, frozen=True, array_like=True):
    """The games `start..start+len(games)-1` and what their seats' own events exercised:
    feature -> [winning seat-games that used it, losing seat-games that used it]."""

    start: int
    games: list[GameRow]
    tally: dict[str, list[int]]
    agent_share: dict[str, list[float]]  # agent -> [share of wins, seat-games]


def check_config(config: Config) -> engine.Ruleset[Any, Any, Any]:
    """Returns the game's ruleset bound to the configuration, or raises UsageError naming
    the bad version, option, player count or agent."""
    return _bound(config)[0]


@functools.lru_cache(maxsize=8)
def _bound(config: Config) -> tuple[engine.Ruleset[Any, Any, Any], Any]:
    rs = engine.get(config.game)
    if config.rules not in rs.versions:
        raise UsageError(f"{config.game} has no rules version {config.rules!r}; its versions: "
                         f"{', '.join(rs.versions)}")
    for spec in config.agents:
        agentlib.agent(spec)
    if config.max_events < 1:
        raise UsageError(f"--max-events must be at least 1, got {config.max_events}")
    header = header_for(rs, seat_names(config.players), entries.options_for(rs, config.options))
    header = msgspec.structs.replace(header, rules_version=config.rules)
    bound = rs.bind(header)
    problem = rs.version_problem(header, bound.edition)
    if problem:
        raise UsageError(problem)
    return bound, header


def seat_names(players: int) -> tuple[str, ...]:
    """Returns the players' names of a run's games."""
    return PLAYERS[:players] if players <= len(PLAYERS) else \
        tuple(f"p{i + 1}" for i in range(players))


def play_one(config: Config, seed: int, index: int,
             visit: Callable[[Any, Any], None] | None = None) -> playout.Played:
    """Plays game `index` of a run: fresh agents (they keep per-game memory), its seed."""
    rs = _bound(config)[0]
    names = rs.header.players
    seat_agents = config.seat_agents(index)
    agents = {p: agentlib.agent(a) for p, a in zip(names, seat_agents, strict=True)}
    return playout.play(rs, agents, playout.game_seed(seed, index),
                        max_events=config.max_events, visit=visit)


def play_chunk(config: Config, seed: int, start: int, count: int) -> Chunk:
    """Plays games start..start+count-1 and tallies them (the unit of work of a run)."""
    games: list[GameRow] = []
    tally: dict[str, list[int]] = {}
    share: dict[str, list[float]] = {}
    for index in range(start, start + count):
        p = play_one(config, seed, index)
        games.append(GameRow(index, p.seed, p.winners, p.completed, p.events, p.turns,
                             p.rounds, p.lead_from))
        for seat, agent in enumerate(config.seat_agents(index)):
            s = share.setdefault(agent, [0.0, 0.0])
            s[0] += 1 / len(p.winners) if seat in p.winners else 0.0
            s[1] += 1
            if not p.winners:
                continue  # (a draw or a game cut off: neither side of "what wins")
            side = 0 if seat in p.winners else 1
            for f in p.used[seat]:
                tally.setdefault(f, [0, 0])[side] += 1
    return Chunk(start, games, tally, share)


def play_chunk_args(args: tuple[Config, int, int, int]) -> Chunk:
    return play_chunk(*args)


# -- running: chunks, in order, from the cache or played -------------------------------------

def fingerprint(config: Config, seed: int) -> str:
    """Returns the cache key of a run: the code that plays and judges, the configuration,
    the run's seed."""
    h = hashlib.sha256(f"balance {CACHE_VERSION} {CHUNK} {seed} ".encode())
    h.update(judge.source_fingerprint(config.game).encode())
    h.update(msgspec.json.encode(config))
    return h.hexdigest()[:32]


def _cache_path(cache_dir: str, config: Config, seed: int) -> str:
    return os.path.join(cache_dir, "balance", f"{fingerprint(config, seed)}.msgpack")


def load_cached(cache_dir: str | None, config: Config, seed: int) -> dict[int, Chunk]:
    """Returns the whole chunks a run of this configuration and seed has played, by start."""
    if cache_dir is None:
        return {}
    try:
        with open(_cache_path(cache_dir, config, seed), "rb") as f:
            chunks = msgspec.msgpack.decode(f.read(), type=list[Chunk])
    except (OSError, msgspec.DecodeError, msgspec.ValidationError):
        return {}
    return {c.start: c for c in chunks if len(c.games) == CHUNK}


def save_cached(cache_dir: str | None, config: Config, seed: int,
                chunks: dict[int, Chunk]) -> None:
    """Writes a run's whole chunks, with the ones already cached (a failure costs only speed)."""
    if cache_dir is None:
        return
    keep = {**load_cached(cache_dir, config, seed),
            **{s: c for s, c in chunks.items() if len(c.games) == CHUNK}}
    path = _cache_path(cache_dir, config, seed)
    try:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        files.write(path, msgspec.msgpack.encode([keep[s] for s in sorted(keep)]), force=True)
    except OSError:
        pass


def plan(games: int) -> list[tuple[int, int]]:
    """Returns the chunks (start, count) of games 0..games-1."""
    return [(s, min(CHUNK, games - s)) for s in range(0, games, CHUNK)]


def run(configs: Sequence[Config], seed: int, games: int, *, jobs: int = 1,
        scheduler: str | None = None, cache_dir: str | None = None
        ) -> Generator[tuple[Chunk, ...], None, None]:
    """Yields, chunk by chunk of games 0..games-1 and in order, each configuration's chunk
    (game i of every configuration shares its seed): cached ones looked up, the rest
    played in `jobs` processes or on the Dask `scheduler` ("local": a LocalCluster).
    Closing the generator early stops the run and caches what it played."""
    for c in configs:
        check_config(c)
    cached = [load_cached(cache_dir, c, seed) for c in configs]
    chunks = plan(games)

    def hit(k: int, s: int, n: int) -> bool:
        return s in cached[k] and len(cached[k][s].games) == n

    todo = [(c, seed, s, n) for s, n in chunks for k, c in enumerate(configs) if not hit(k, s, n)]
    played = _play(todo, jobs, scheduler)
    fresh: list[dict[int, Chunk]] = [{} for _ in configs]
    try:
        for s, n in chunks:
            out = []
            for k in range(len(configs)):
                if hit(k, s, n):
                    out.append(cached[k][s])
                else:
                    chunk = next(played)
                    fresh[k][s] = chunk
                    out.append(chunk)
            yield tuple(out)
    finally:
        played.close()
        for k, c in enumerate(configs):
            save_cached(cache_dir, c, seed, fresh[k])


def _play(todo: Sequence[tuple[Config, int, int, int]], jobs: int, scheduler: str | None
          ) -> Generator[Chunk, None, None]:
    if scheduler:
        yield from balance_dask.run(play_chunk_args, todo, scheduler)
        return
    yield from pmap(play_chunk_args, todo, jobs, chunksize=1)


def write_game(config: Config, seed: int, index: int, path: str) -> playout.Played:
    """Plays game `index` of a run again and writes it as a log (`view` replays it)."""
    rs, header = _bound(config)
    events: list[Any] = []
    played = play_one(config, seed, index, visit=lambda e, s: events.append(e))
    written, tail = entries.start_log(path, rs, header.players, config.options,
                                      rules=config.rules)
    if written != header:
        raise RuntimeError("the log's header is not the one the game was played under")
    # its secret lines salted from the run's seed and the game's index, as `simulate` salts
    # from its seed: the game is written again byte for byte
    bound, salts = rs.bind(header), random.Random(f"salts-{seed}-{index}")
    state, salted = bound.initial(), []
    for e in events:
        salted.append(seats.salted(bound, state, e, lambda: f"{salts.getrandbits(128):032x}"))
        state = bound.apply(state, e)
    tapelog.append(path, salted, rs.codec, expect=tail)
    return played
