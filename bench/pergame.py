"""Per game, in process: CPU microseconds an event for validating and for corpus check's
judging, of this tree and of another tree side by side (interleaved runs, best of N).

    python bench/pergame.py [--before SRC] [--games 20] [--runs 5] [--only GAME]

The inputs are simulated games (seeds 0..games-1 of each ruleset), written once with this
tree's simulator into build/pergame/ (BENCH_DIR/pergame). Each measurement runs in a fresh
child process whose PYTHONPATH is the tree's src/, so both trees read the same bytes:

- read: decode and chain check only (the visitor `Chain`): the reading cost of an event;
- validate: `engine.reading.walk` with the rules (`Visitor`: what `validate` does per log);
- judge: `app.judge.judge` (what `corpus check` does per log, legal moves counted at every
  seq, the latest rules' verdict, the fingerprints).

Times are CPU time (time.process_time) over all the logs of a game (after one untimed log: the imports), the best of `runs`
interleaved rounds, divided by the events read. Not a test: a yardstick for the rules'
speed-ups (docs/performance.md).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BUILD = os.path.join(os.environ.get("BENCH_DIR") or os.path.join(ROOT, "build"), "pergame")
GAMES = {"cards-of-war": 2, "global-domination": 4, "liberation": 3, "battlecards-pacific": 2}


def inputs(n: int) -> dict[str, list[str]]:
    """Writes (once) and returns n simulated logs of each game."""
    sys.path.insert(0, os.path.join(ROOT, "src"))
    from tabletape import engine
    from tabletape.engine import simulate
    from tabletape.tape import log
    out: dict[str, list[str]] = {}
    for game, players in GAMES.items():
        folder = os.path.join(BUILD, game)
        os.makedirs(folder, exist_ok=True)
        files = []
        for seed in range(n):
            f = os.path.join(folder, f"{seed:04}.jsonl")
            if not os.path.exists(f):
                rs = engine.get(game)
                header = simulate.header_for(rs, ("alice", "bob", "carol", "dave")[:players])
                tmp = f + ".tmp"
                tail = log.create(tmp, header, rs.codec)
                events = [e for e, _ in simulate.play(rs, header, seed)]
                log.append(tmp, events, rs.codec, expect=tail, durable=False)
                os.replace(tmp, f)
            files.append(f)
        out[game] = files
    return out


def child(kind: str, files: list[str]) -> None:
    """Runs in the measured tree: prints {"events": n, "cpu": seconds}."""
    import time

    from tabletape.app import judge
    from tabletape.engine import reading

    def one(f: str) -> int:
        if kind == "judge":
            judge.judge(f)
            return sum(1 for _ in open(f, "rb"))
        if not hasattr(reading, "Chain"):  # a tree from before the visitors (issue 36)
            return reading.walk(reading.Replay(file=f), reading.iter_records(f),
                                rules=kind == "validate").events
        visitor = reading.Visitor() if kind == "validate" else reading.Chain()
        return reading.walk(reading.Replay(file=f), reading.iter_records(f), visitor).events

    one(files[0])  # imports (the game's modules) are start-up, not an event's cost
    t = time.process_time()
    events = sum(one(f) for f in files)
    cpu = time.process_time() - t
    print(json.dumps({"events": events, "cpu": cpu}))


def measure(src: str, kind: str, files: list[str]) -> tuple[int, float]:
    env = {**os.environ, "PYTHONPATH": src, "TABLETAPE_CLOCK": "off"}
    out = subprocess.run([sys.executable, os.path.abspath(__file__), "--child", kind, *files],
                         env=env, check=True, capture_output=True, text=True).stdout
    d = json.loads(out)
    return d["events"], d["cpu"]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--before", metavar="SRC", help="another tree's src/ to run beside this")
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--only", action="append", default=[], metavar="GAME")
    ap.add_argument("--kinds", default="read,validate,judge")
    ap.add_argument("--child", nargs="+", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        return child(args.child[0], args.child[1:])
    trees = {"after": os.path.join(ROOT, "src")}
    if args.before:
        trees = {"before": os.path.abspath(args.before), **trees}
    games = inputs(args.games)
    kinds = args.kinds.split(",")
    print(f"{'game':<20} {'kind':<9}" + "".join(f"{t:>12}" for t in trees)
          + ("      ratio" if args.before else "") + "   (CPU us an event, best of "
          f"{args.runs})")
    for game, files in games.items():
        if args.only and game not in args.only:
            continue
        for kind in kinds:
            best = {t: float("inf") for t in trees}
            n = 0
            for _ in range(args.runs):  # interleaved: each round runs every tree once
                for t, src in trees.items():
                    n, cpu = measure(src, kind, files)
                    best[t] = min(best[t], cpu)
            us = {t: best[t] / n * 1e6 for t in trees}
            line = f"{game:<20} {kind:<9}" + "".join(f"{us[t]:>12.2f}" for t in trees)
            if args.before:
                line += f"   {us['before'] / us['after']:>7.2f}x"
            print(line, flush=True)


if __name__ == "__main__":
    main()
