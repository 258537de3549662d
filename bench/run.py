"""tabletape's benchmark: the floor, tabletape's commands and two peers, measured side by side.

Run with `make bench` (installs the `bench` extra). Inputs are generated with
tabletape's own simulator and cached in build/bench/; every row runs in its own
process, its time is the median of several rounds, its memory the process's
peak RSS (ru_maxrss from wait4) less that of a bare interpreter. Rows of
tabletape commands are whole processes (start-up included); "in process" rows
time only the work.

    python bench/run.py [--markdown] [--rounds N]
    BENCH_QUICK=1: tiny sizes (a smoke run); BENCH_DIR=DIR: where the inputs are cached
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass

QUICK = os.environ.get("BENCH_QUICK", "") not in ("", "0")
LONG = 5_000 if QUICK else 1_000_000  # events in the long log
CORPUS = 8 if QUICK else 1000  # simulated games
STDIN = 500 if QUICK else 100_000  # events appended from stdin in one command
CHESS_GAMES = 4 if QUICK else 500
ES_EVENTS = 500 if QUICK else 100_000
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(1, ROOT)  # tests/session.py writes the long legal sessions (the inputs)
BUILD = os.environ.get("BENCH_DIR") or os.path.join(ROOT, "build",
                                                    "bench-quick" if QUICK else "bench")
PY = sys.executable
TT = [PY, "-m", "tabletape"]
ENV = {**os.environ, "TABLETAPE_CLOCK": "off", "COLUMNS": "120"}
ONLY: list[str] = []  # --only: run the rows whose names contain one of these
BEFORE: str | None = None  # --before SRC: run each tabletape row with that tree too
# games simulated per ruleset for the simulate and balance rows: enough that each row's
# playouts take a few tenths of a second (a Liberation game is ~30x shorter than a BATTLECARDS one)
SIM_GAMES = {game: 4 if QUICK else n for game, n in (
    ("cards-of-war", 200), ("global-domination", 80), ("liberation", 240),
    ("battlecards-pacific", 40))}
GAMES = tuple(SIM_GAMES)  # the games' rows, ratio lines and in-turn pairs, in this order
VIEW = 500 if QUICK else 20_000  # events of the prefix the viewer exports
PAIR_ROUNDS = 2 if QUICK else 5  # rounds of the games played in turn by simulate and the lab
PUSH_EVENTS = 2_000  # events of the game `serve --play` pushes a write of to PAGES pages
PAGES = 100  # pages connected to `serve --play` (streams of server-sent events, one process)
GD6_LINES = 300  # lines of the six-player Global Domination game one write is made at


def wanted(name: str) -> bool:
    return not ONLY or any(o in name for o in ONLY)


def path(name: str) -> str:
    return os.path.join(BUILD, name)


# -- inputs ------------------------------------------------------------------------------

def long_log(name: str, events: int, seed: int) -> str:
    """Writes a legal Cards of War session of `events` events (see tests/session.py)."""
    from tests import session

    from tabletape import engine
    from tabletape.engine import simulate
    from tabletape.tape import log
    out = path(name)
    if os.path.exists(out):
        return out
    rs = engine.get("cards-of-war")
    header = simulate.header_for(rs, ("alice", "bob"))
    tmp = out + ".tmp"
    if os.path.exists(tmp):
        os.unlink(tmp)
    tail = log.create(tmp, header, rs.codec)
    batch = []
    for event in session.session(rs, header, seed, events):
        batch.append(event)
        if len(batch) == 10_000:
            tail = log.append(tmp, batch, rs.codec, expect=tail, durable=False)
            batch = []
    log.append(tmp, batch, rs.codec, expect=tail)
    os.replace(tmp, out)
    return out


def diverging(name: str, base: str, keep: int) -> str:
    """Writes a copy of `base` up to seq `keep`, then notes instead of what followed."""
    from tabletape import engine
    from tabletape.tape import log
    from tabletape.tape.events import Note
    out = path(name)
    if os.path.exists(out):
        return out
    with open(base, "rb") as src, open(out + ".tmp", "wb") as dst:
        for _ in range(keep + 1):
            dst.write(src.readline())
    rs = engine.get("cards-of-war")
    tail = log.read_tail(os.open(out + ".tmp", os.O_RDONLY))
    log.append(out + ".tmp", [Note(text=f"another ending {i}") for i in range(20)], rs.codec,
               expect=tail)
    os.replace(out + ".tmp", out)
    return out


def prefix(name: str, base: str, events: int) -> str:
    """Writes the first `events` events of `base` (a legal log's prefix is a legal log)."""
    out = path(name)
    if not os.path.exists(out):
        with open(base, "rb") as src, open(out + ".tmp", "wb") as dst:
            for _ in range(events + 1):
                dst.write(src.readline())
        os.replace(out + ".tmp", out)
    return out


def corpus() -> str:
    """Writes CORPUS simulated games of the four rulesets (as `tabletape simulate` does)."""
    from tabletape import engine
    from tabletape.engine import simulate
    from tabletape.tape import log
    out = path("corpus")
    if os.path.isdir(out):
        return out
    tmp = out + ".tmp"
    shutil.rmtree(tmp, ignore_errors=True)
    os.makedirs(tmp)
    games = [("cards-of-war", 2), ("global-domination", 4), ("liberation", 3),
             ("battlecards-pacific", 2)]
    for i in range(CORPUS):
        game, n = games[i % len(games)]
        rs = engine.get(game)
        header = simulate.header_for(rs, ("alice", "bob", "carol", "dave")[:n])
        f = os.path.join(tmp, f"{game}-{i:04}.jsonl")
        tail = log.create(f, header, rs.codec)
        events = [e for e, _ in simulate.play(rs, header, i)]
        log.append(f, events, rs.codec, expect=tail, durable=False)
    os.replace(tmp, out)
    return out


def stdin_events() -> str:
    """Writes STDIN legal events (game fields only) for one `append` to read from stdin."""
    import msgspec
    from tests import session

    from tabletape import engine
    from tabletape.engine import simulate
    out = path(f"stdin-{STDIN}.jsonl")
    if os.path.exists(out):
        return out
    rs = engine.get("cards-of-war")
    header = simulate.header_for(rs, ("alice", "bob"))
    enc = msgspec.json.Encoder()
    with open(out + ".tmp", "wb") as f:
        for e in session.session(rs, header, 3, STDIN, notes=0.0, disputes=0.0):
            f.write(enc.encode(e) + b"\n")
    os.replace(out + ".tmp", out)
    return out


def pgn() -> str:
    """Writes CHESS_GAMES games of random legal moves with python-chess itself."""
    import chess
    import chess.pgn
    out = path(f"random-{CHESS_GAMES}.pgn")
    if os.path.exists(out):
        return out
    rng = random.Random(0)
    with open(out + ".tmp", "w") as f:
        for i in range(CHESS_GAMES):
            board = chess.Board()
            while not board.is_game_over() and board.ply() < 300:
                board.push(rng.choice(list(board.legal_moves)))
            game = chess.pgn.Game.from_board(board)
            game.headers["Round"] = str(i)
            print(game, file=f, end="\n\n")
    os.replace(out + ".tmp", out)
    return out


def inputs() -> dict[str, str]:
    """Returns the paths of the inputs (made by `prepare`)."""
    long = path(f"long-{LONG}.jsonl")
    return {"long": long, "long_b": path(f"long-{LONG}-b.jsonl"), "corpus": path("corpus"),
            "stdin": path(f"stdin-{STDIN}.jsonl"), "empty": path("empty.jsonl"),
            "pgn": path(f"random-{CHESS_GAMES}.pgn"), "view": path(f"long-{VIEW}.jsonl"),
            "push": path(f"long-{PUSH_EVENTS}.jsonl")}


def prepare() -> None:
    """Generates every missing input (cached in build/bench)."""
    os.makedirs(BUILD, exist_ok=True)
    print(f"inputs in {BUILD} (cached) ...", file=sys.stderr)
    paths = inputs()
    long = long_log(os.path.basename(paths["long"]), LONG, 1)
    diverging(os.path.basename(paths["long_b"]), long, LONG - 100)
    prefix(os.path.basename(paths["view"]), long, VIEW)
    prefix(os.path.basename(paths["push"]), long, PUSH_EVENTS)
    corpus()
    stdin_events()
    if not os.path.exists(paths["empty"]):
        subprocess.run([*TT, "new", "cards-of-war", paths["empty"], "--players", "alice,bob"],
                       env=ENV, check=True, capture_output=True)
    try:
        pgn()
    except ImportError:
        print("python-chess is not installed (pip install -e '.[bench]'): no chess row",
              file=sys.stderr)


# -- measuring ---------------------------------------------------------------------------

def run(argv: list[str], stdin: str | None = None, check: bool = True,
        env: dict | None = None) -> tuple[float, int, str]:
    """Runs a process; returns (wall seconds, its own peak RSS in KiB from wait4, stdout)."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err, \
            open(stdin or os.devnull, "rb") as fin:
        t = time.perf_counter()
        p = subprocess.Popen(argv, stdin=fin, stdout=out, stderr=err, env=env or ENV)
        _, status, usage = os.wait4(p.pid, 0)
        wall = time.perf_counter() - t
        p.returncode = os.waitstatus_to_exitcode(status)
        # only the end of the output (an in-process row's report is its last line): a child
        # forked from a big process reports the parent's size as its own peak (see main), so
        # this process never holds a long output such as `log`'s
        out.seek(max(0, out.seek(0, os.SEEK_END) - (1 << 16)))
        err.seek(max(0, err.seek(0, os.SEEK_END) - (1 << 16)))
        if check and p.returncode != 0:
            raise SystemExit(f"{' '.join(argv)} failed ({p.returncode}):\n"
                             f"{err.read().decode(errors='replace')[-2000:]}")
        return wall, usage.ru_maxrss, out.read().decode(errors="replace")


@dataclass
class Row:
    """One line of the table: what was measured, its median time and its peak memory."""

    name: str
    events: int
    nbytes: int
    seconds: float
    rss_kib: int
    note: str = ""


def median_run(name: str, argv: list[str], events: int, nbytes: int, rounds: int,
               before=None, stdin: str | None = None, note: str = "",
               inner: bool = False, check: bool = True, env: dict | None = None,
               compare: bool = True, ours: bool = False,
               outputs: list[str] | None = None) -> Row | None:
    """Runs a command `rounds` times; its time is the median (inner: the time it reports).

    With --before, a tabletape row is also run with the other tree (`before` in its
    name), on links to the inputs in their own folder (each tree keeps its own index).
    `before` (a hook run before each round) is given the path mapping of its tree.
    `ours`: an in-process row that times tabletape's own code (run with both trees too).
    `outputs` receives each round's output (its last 64 KiB).
    """
    if not wanted(name):
        return None
    if BEFORE is not None and env is None and (argv[:3] == TT or ours) and compare:
        before_argv = [_before_path(a) for a in argv]
        old = median_run(name + " [before]", before_argv, events, nbytes, rounds, before,
                         _before_path(stdin) if stdin else None, note, inner, check,
                         env={**ENV, "PYTHONPATH": BEFORE})
        if old is not None:
            BEFORE_ROWS.append(old)
    mapping = _before_path if env is not None else (lambda a: a)
    times, peaks = [], []
    for _ in range(rounds):
        if before:
            before(mapping)
        wall, rss, out = run(argv, stdin, check, env)
        if outputs is not None:
            outputs.append(out)
        if inner:
            report = json.loads(out.strip().splitlines()[-1])
            wall, events = report["seconds"], report["events"]
        times.append(wall)
        peaks.append(rss)
    print(f"  {name}: {statistics.median(times):.3f} s", file=sys.stderr)
    return Row(name, events, nbytes, statistics.median(times), max(peaks), note)


BEFORE_ROWS: list[Row] = []


def _before_path(a: str) -> str:
    """Returns the before tree's link to an input (made on first use), or `a` itself."""
    if not a.startswith(BUILD + os.sep):
        return a
    rel = os.path.relpath(a, BUILD)
    out = os.path.join(BUILD, "before", rel)
    if not os.path.exists(out):
        os.makedirs(os.path.dirname(out), exist_ok=True)
        if not os.path.exists(a):
            return out
        if os.path.isdir(a):
            shutil.copytree(a, out, copy_function=os.link)
        else:
            os.link(a, out)
    return out


def lines_of(p: str) -> int:
    with open(p, "rb") as f:
        return sum(chunk.count(b"\n") for chunk in iter(lambda: f.read(1 << 20), b""))


def measure(inputs: dict[str, str], rounds: int) -> tuple[list[Row], int]:
    """Returns every row and the baseline peak RSS (KiB) of a bare interpreter."""
    long, size = inputs["long"], os.path.getsize(inputs["long"])
    n = lines_of(long)
    me = [PY, os.path.abspath(__file__), "--inner"]
    _, baseline, _ = run([PY, "-c", "pass"])
    rows = []
    print("measuring ...", file=sys.stderr)
    for kind, label in (("read", "floor: read the bytes"),
                        ("decode", "floor: msgspec decode of each line"),
                        ("chain", "floor: decode + SHA-256 chain check")):
        rows.append(median_run(label, [*me, kind, long], n, size, rounds, inner=True,
                               note="in process"))
    short = os.path.join(inputs["corpus"], sorted(os.listdir(inputs["corpus"]))[0])
    rows.append(median_run("tabletape validate, one short game (start-up, memory floor)",
                           [*TT, "validate", short], lines_of(short), os.path.getsize(short),
                           rounds))
    rows.append(median_run("tabletape verify", [*TT, "verify", long], n, size, rounds))
    rows.append(median_run("tabletape validate", [*TT, "validate", long], n, size, rounds))
    # tabletape.engine.index.index_path(long), spelled out: importing tabletape here would
    # grow this process, and every child would report its size (see main).
    index = os.path.join(os.path.dirname(long), f".{os.path.basename(long)}.tabletape-index")

    def no_index(p):
        if os.path.exists(p(index)):
            os.unlink(p(index))

    rows.append(median_run("tabletape replay --json (no index; writes it)",
                           [*TT, "replay", long, "--json"],
                           n, size, rounds, before=no_index))
    mid = n // 2 + 1001  # not on a checkpoint: folds on from the one before
    rows.append(median_run(f"tabletape replay --to {mid} --json",
                           [*TT, "replay", long, "--to", str(mid), "--json"], mid, 0, rounds,
                           note="index fresh"))
    rows.append(median_run(f"tabletape replay --to {mid}, the table drawn (rich)",
                           [*TT, "replay", long, "--to", str(mid)], mid, 0, rounds,
                           note="index fresh"))
    diff = [*TT, "diff", long, inputs["long_b"], "--json"]
    name = "tabletape diff --json (the logs differ 100 events before the end)"
    if wanted(name):  # writes both indexes, so that every round measures the same
        run(diff, check=False)
        if BEFORE is not None:
            run([_before_path(a) for a in diff], check=False, env={**ENV, "PYTHONPATH": BEFORE})
    rows.append(median_run(name, diff, 2 * n, size + os.path.getsize(inputs["long_b"]), rounds,
                           check=False, note="indexes fresh"))
    rows += _streaming_rows(inputs, n, size, rounds)
    rows += _play_rows(inputs, rounds)
    rows.append(_append_one(long, rounds))
    rows.append(_append_stdin(inputs, rounds))
    rows += _jobs_rows(inputs["corpus"], rounds)
    rows += _corpus_rows(inputs["corpus"], rounds)
    if os.path.exists(inputs["pgn"]):
        rows.append(median_run("peer: python-chess reads a PGN, every move legality-checked",
                               [*me, "chess", inputs["pgn"]], 0, os.path.getsize(inputs["pgn"]),
                               rounds, inner=True, note="in process"))
    if importlib.util.find_spec("eventsourcing"):
        rows.append(median_run(f"peer: eventsourcing rebuilds an aggregate from {ES_EVENTS} events",
                               [*me, "eventsourcing", str(ES_EVENTS)], ES_EVENTS, 0, rounds,
                               inner=True, note="in process"))
    else:
        print("eventsourcing is not installed: no eventsourcing row", file=sys.stderr)
    rows += _playout_rows(rounds)
    return [r for r in rows if r is not None], baseline


def _playout_rows(rounds: int) -> list[Row | None]:
    """Per game: `simulate`'s random games per second and, side by side in the same run, the
    balance lab's random playouts of the same games (engine.playout: the same seeds give the
    same games as simulate), their floor (the same games' events applied, with `pending`
    asked before each: what any playout pays) and the Monte Carlo agent's decisions."""
    me = [PY, os.path.abspath(__file__), "--inner"]
    rows: list[Row | None] = []
    for game in GAMES:
        rows.append(median_run(f"simulate {game}: games per second", [*me, "simulate", game],
                               SIM_GAMES[game], 0, rounds, inner=True, note="in process",
                               ours=True))
        # the balance lab's loop on the same games (engine.playout: the same seeds give the
        # same games as simulate), and the Monte Carlo agent's cost per decision
        rows.append(median_run(f"balance {game}: random games per second",
                               [*me, "playout", game], SIM_GAMES[game], 0, rounds, inner=True,
                               note="in process", ours=True, compare=False))
        rows.append(median_run(f"balance {game}: floor, the same games' pending + apply",
                               [*me, "floor", game], SIM_GAMES[game], 0, rounds, inner=True,
                               note="in process", ours=True, compare=False))
        rows.append(median_run(f"balance {game}: mc:8 decisions per second",
                               [*me, "mc", game], 0, 0, rounds, inner=True,
                               note="in process", ours=True, compare=False))
    return rows


def pair_lines() -> list[str]:
    """Per game, `simulate` over the lab's random playouts with the games played in turn in
    one process (`_inner_pair`): the median of PAIR_ROUNDS rounds and each round's."""
    out = []
    for game in GAMES:
        if not wanted(f"balance {game}: random games per second"):
            continue
        _, _, text = run([PY, os.path.abspath(__file__), "--inner", "pair", game])
        ratios = json.loads(text.strip().splitlines()[-1])["ratios"]
        out.append(f"- balance {game}: random playouts vs simulate, game by game in turn in one "
                   f"process: **{statistics.median(ratios):.2f}x** (the median of "
                   f"{len(ratios)} rounds: {', '.join(f'{r:.2f}' for r in ratios)}; at least 2x)")
    return out


def _streaming_rows(inputs: dict[str, str], n: int, size: int, rounds: int) -> list[Row | None]:
    """The commands that read a whole log and print as they go: their peak memory is the row."""
    long, me = inputs["long"], [PY, os.path.abspath(__file__), "--inner"]
    mid = n // 2 + 1001
    rows: list[Row | None] = []
    # before streaming `log` took ~4 KiB an event (1M: some GB, minutes): no [before] rows
    rows.append(median_run("tabletape log (text lines, to a file)", [*TT, "log", long], n, size,
                           rounds, check=False, compare=False))
    rows.append(median_run("tabletape log --json (JSON lines, to a file)",
                           [*TT, "log", long, "--json"], n, size, rounds, check=False,
                           compare=False))
    rows.append(median_run("tabletape log: its first event's line, read through a pipe",
                           [*me, "head", long], 1, 0, rounds, inner=True,
                           note="then the reader goes away; in process"))
    rows.append(median_run(f"tabletape log --from {mid} --to {mid + 1000} --json",
                           [*TT, "log", long, "--from", str(mid), "--to", str(mid + 1000),
                            "--json"], 1001, 0, rounds, check=False, compare=False,
                           note="index fresh"))
    rows.append(median_run(f"tabletape explain {mid} --json (the whole log is read)",
                           [*TT, "explain", long, str(mid), "--json"], n, size, rounds,
                           check=False))
    out = path("view.html")
    rows.append(median_run(f"tabletape view -o (the viewer's page) of a {VIEW}-event log",
                           [*TT, "view", inputs["view"], "-o", out, "--force"], VIEW + 1,
                           os.path.getsize(inputs["view"]), rounds))
    return rows


def _play_rows(inputs: dict[str, str], rounds: int) -> list[Row | None]:
    """`serve --play`: what one write costs the server with every seat looking, and how soon
    PAGES connected pages see it."""
    me = [PY, os.path.abspath(__file__), "--inner"]
    return [
        median_run("serve --play: one write with 6 seats connected, every page drawn again "
                   "(events: fold steps)", [*me, "play_write", str(GD6_LINES)], 0, 0, rounds,
                   inner=True, note="in process; Global Domination, 6 players + umpire + shared"),
        median_run(f"serve --play: {PAGES} pages (server-sent events) see one write, "
                   f"{PUSH_EVENTS}-event game (events: pages)",
                   [*me, "push", inputs["push"]], 0, 0, rounds, inner=True,
                   note="server a process of its own; time until the last page has it")]


def _append_one(long: str, rounds: int) -> Row | None:
    """One `append` of a note to a copy of the long log whose index is fresh."""
    if not wanted("tabletape append one event (whole process, fsync)"):
        return None
    copy = path("append-target.jsonl")
    shutil.copyfile(long, copy)
    run([*TT, "replay", copy, "--json"])  # builds the index
    if BEFORE is not None:  # the before tree appends to a copy of its own (not a link to
        theirs = os.path.join(BUILD, "before", os.path.relpath(copy, BUILD))  # this one)
        os.makedirs(os.path.dirname(theirs), exist_ok=True)
        if os.path.exists(theirs):
            os.unlink(theirs)
        shutil.copyfile(long, theirs)
        run([*TT, "replay", theirs, "--json"], env={**ENV, "PYTHONPATH": BEFORE})
    return median_run("tabletape append one event (whole process, fsync)",
                      [*TT, "append", copy, '{"type":"note","text":"benchmark"}'], 1, 0, rounds,
                      note="index fresh")


def _append_stdin(inputs: dict[str, str], rounds: int) -> Row | None:
    target = path("stdin-target.jsonl")

    def fresh(_):
        shutil.copyfile(inputs["empty"], target)

    return median_run(f"tabletape append {STDIN} events from stdin", [*TT, "append", target],
                      STDIN, os.path.getsize(inputs["stdin"]), rounds, before=fresh,
                      stdin=inputs["stdin"], compare=False)


def _jobs_rows(folder: str, rounds: int) -> list[Row | None]:
    """validate --jobs 1 and 2 over the corpus, and what two processes get on this machine."""
    files = sorted(os.path.join(folder, f) for f in os.listdir(folder))
    n = sum(lines_of(f) for f in files)
    size = sum(os.path.getsize(f) for f in files)
    me = [PY, os.path.abspath(__file__), "--inner"]
    rows: list[Row | None] = []
    rows.append(median_run(f"floor: decode + SHA-256 chain check of the {len(files)} games",
                           [*me, "corpus_chain", folder], n, size, rounds, inner=True,
                           note="in process"))
    for j in (1, 2):
        rows.append(median_run(f"tabletape validate {len(files)} games --jobs {j}",
                               [*TT, "validate", "--jobs", str(j), *files], n, size, rounds))
    for j in (1, 2):  # a shared machine may not give two processes two cores' worth
        rows.append(median_run(f"control: pure-Python arithmetic in {j} process(es)",
                               [*me, "spin", str(j)], 0, 0, rounds, inner=True,
                               note="ops; in process"))
    return rows


def _corpus_rows(folder: str, rounds: int) -> list[Row | None]:
    """corpus check over the corpus: first run (no cache yet) and cached run, --jobs 1 and 2,
    and --dask local with 2 workers (processes, then threads) when the dask extra is there."""
    files = sorted(os.path.join(folder, f) for f in os.listdir(folder))
    n = sum(lines_of(f) for f in files)
    size = sum(os.path.getsize(f) for f in files)
    cache = path("corpus-cache")
    check = [*TT, "corpus", "check", folder, "--json", "--cache-dir", cache]

    def cold(p):
        shutil.rmtree(p(cache), ignore_errors=True)

    rows: list[Row | None] = []
    for j in (1, 2):
        rows.append(median_run(f"tabletape corpus check {len(files)} games --jobs {j}, first run",
                               [*check, "--jobs", str(j)], n, size, rounds, before=cold,
                               note="writes the cache"))
    first = rows[-1]
    name = f"tabletape corpus check {len(files)} games, cached run"
    if wanted(name):
        run([*check, "--jobs", "2"])  # the cache is warm
        if BEFORE is not None:
            run([_before_path(a) for a in [*check, "--jobs", "2"]],
                env={**ENV, "PYTHONPATH": BEFORE})
    cached = median_run(name, [*check, "--jobs", "2"], n, size, rounds)
    if cached is not None and first is not None:
        cached.note = f"nothing changed; {first.seconds / cached.seconds:.0f}x the first run --jobs 2"
    rows.append(cached)
    rows.append(_edited_rules_row(folder, files, n, size, rounds))
    if importlib.util.find_spec("distributed") is None:
        print("dask is not installed (pip install -e '.[dask]'): no --dask rows", file=sys.stderr)
        return rows
    for how, extra in (("processes", []), ("threads", ["--dask-threads"])):
        rows.append(median_run(f"tabletape corpus check {len(files)} games --dask local "
                               f"(2 worker {how})",
                               [*check, "--no-cache", "--dask", "local", *extra], n, size, rounds,
                               note="cluster start-up included"))
    rows.append(_real_cluster_row(folder, files, n, size, rounds))
    return rows


EDITED_GAME = "liberation"  # the game whose rules the one-line edit changes
EDITED = ("games/liberation/state.py", r"^WIN_POINTS = (\d+)", "WIN_POINTS = {}")  # one value


def _edited_tree() -> str:
    """Returns a copy of this tree's package with one line of one game's rules edited (the
    points that win Liberation, one more), under build/: its src folder for PYTHONPATH."""
    import re
    out = path("edited-src")
    shutil.rmtree(out, ignore_errors=True)
    shutil.copytree(os.path.join(ROOT, "src", "tabletape"), os.path.join(out, "tabletape"),
                    ignore=shutil.ignore_patterns("__pycache__"))
    rel, pattern, line = EDITED
    f = os.path.join(out, "tabletape", rel)
    text = open(f, encoding="utf-8").read()
    edited, count = re.subn(pattern, lambda m: line.format(int(m.group(1)) + 1), text,
                            flags=re.M)
    if count != 1:
        raise SystemExit(f"bench: the one-line rules edit found {count} lines in {rel}")
    with open(f, "w", encoding="utf-8") as w:
        w.write(edited)
    subprocess.run([PY, "-m", "compileall", "-q", out], check=False, stdout=subprocess.DEVNULL)
    return out


def _edited_rules_row(folder: str, files: list[str], n: int, size: int,
                      rounds: int) -> Row | None:
    """corpus check after a one-line edit of one game's rules, in a copy of the tree: the
    content fingerprint sees it, and only that game's logs are judged again (each round
    from the cache the unedited tree left)."""
    name = (f"tabletape corpus check {len(files)} games after a one-line rules edit "
            f"({EDITED_GAME})")
    if not wanted(name):
        return None
    tree = _edited_tree()
    warm, cache = path("corpus-cache-unedited"), path("corpus-cache-edited")
    shutil.rmtree(warm, ignore_errors=True)
    run([*TT, "corpus", "check", folder, "--json", "--jobs", "2", "--cache-dir", warm])

    def from_unedited(_):
        shutil.rmtree(cache, ignore_errors=True)
        shutil.copytree(warm, cache)

    outputs: list[str] = []
    row = median_run(name, [*TT, "corpus", "check", folder, "--jobs", "2", "--cache-dir", cache],
                     n, size, rounds, before=from_unedited, check=False,
                     env={**ENV, "PYTHONPATH": tree}, outputs=outputs)
    game = sum(1 for f in files if os.path.basename(f).startswith(EDITED_GAME + "-"))
    import re
    seen = re.search(r"^(\d+) logs \((\d+) from the cache\)", outputs[-1] if outputs else "",
                     flags=re.M)
    if seen is None or int(seen.group(1)) - int(seen.group(2)) != game:
        raise SystemExit(f"bench: after the edit, {game} {EDITED_GAME} logs should be judged "
                         f"again; the check printed:\n{(outputs or [''])[-1][:2000]}")
    if row is not None:
        row.note = f"{game} {EDITED_GAME} logs judged again, {seen.group(2)} from the cache"
    return row


def _real_cluster_row(folder: str, files: list[str], n: int, size: int,
                      rounds: int) -> Row | None:
    """corpus check on a real Dask cluster: `dask scheduler` and 2 `dask worker` processes
    on 127.0.0.1, started in another folder (the logs' paths leave the client absolute),
    running before the rounds and torn down after."""
    name = f"tabletape corpus check {len(files)} games --dask tcp:// (scheduler + 2 workers)"
    if not wanted(name):
        return None
    where = path("dask-cluster")
    shutil.rmtree(where, ignore_errors=True)
    os.makedirs(where)
    dask = os.path.join(os.path.dirname(PY), "dask")
    info = os.path.join(where, "scheduler.json")
    procs: list[subprocess.Popen] = []
    with open(os.path.join(where, "dask.log"), "wb") as out:
        def start(*args: str) -> None:
            procs.append(subprocess.Popen([dask, *args], cwd=where, stdout=out, stderr=out,
                                          env=ENV))
        try:
            start("scheduler", "--host", "127.0.0.1", "--port", "0", "--no-dashboard",
                  "--scheduler-file", info)
            deadline = time.monotonic() + 60
            while not (os.path.exists(info) and os.path.getsize(info)):
                if time.monotonic() > deadline or procs[0].poll() is not None:
                    raise SystemExit(f"bench: the dask scheduler did not start (see {where})")
                time.sleep(0.1)
            address = json.load(open(info))["address"]
            for _ in range(2):
                start("worker", address, "--nworkers", "1", "--nthreads", "1", "--host",
                      "127.0.0.1", "--no-dashboard", "--no-nanny")
            subprocess.run([PY, "-c", "import sys; from distributed import Client; "
                            "c = Client(sys.argv[1], timeout=60); "
                            "c.wait_for_workers(2, timeout=60); c.close()", address],
                           check=True, env=ENV, capture_output=True)
            return median_run(name, [*TT, "corpus", "check", folder, "--json", "--no-cache",
                                     "--dask", address], n, size, rounds, compare=False,
                              note="the cluster already running; workers in another folder")
        finally:
            for p in reversed(procs):
                p.terminate()
            for p in reversed(procs):
                try:
                    p.wait(15)
                except subprocess.TimeoutExpired:
                    p.kill()
                    p.wait()


# -- the in-process rows (run in a child: python bench/run.py --inner KIND ARG) -----------

def inner(kind: str, arg: str) -> None:
    """Runs one in-process row and prints its events and seconds (setup excluded) as JSON."""
    t = time.perf_counter()
    events, seconds, *more = globals()[f"_inner_{kind}"](arg)  # more: a row's other figures
    print(json.dumps({"seconds": seconds or time.perf_counter() - t, "events": events,
                      **(more[0] if more else {})}))


def _chunks(p: str):
    with open(p, "rb") as f:
        rest = b""
        for block in iter(lambda: f.read(1 << 20), b""):
            block = rest + block
            cut = block.rfind(b"\n") + 1
            rest = block[cut:]
            yield block[:cut]


def _inner_read(p: str) -> int:
    return sum(block.count(b"\n") for block in _chunks(p)), None


def _inner_decode(p: str) -> int:
    import msgspec
    decode = msgspec.json.Decoder().decode
    n = 0
    for block in _chunks(p):
        for line in block.split(b"\n")[:-1]:
            decode(line)
            n += 1
    return n, None


def _inner_chain(p: str) -> int:
    import hashlib

    import msgspec
    decode = msgspec.json.Decoder().decode
    sha256 = hashlib.sha256
    n, prev = 0, None
    for block in _chunks(p):
        for line in block.split(b"\n")[:-1]:
            if decode(line).get("prev") != prev:
                raise SystemExit(f"chain broken at line {n + 1}")
            prev = sha256(line).hexdigest()
            n += 1
    return n, None


def _inner_corpus_chain(folder: str) -> tuple[int, None]:
    """The floor for a corpus: each file read, each line decoded and its chain checked."""
    files = sorted(os.path.join(folder, f) for f in os.listdir(folder))
    return sum(_inner_chain(f)[0] for f in files), None


def _inner_head(p: str) -> tuple[int, float]:
    """Starts `tabletape log`, reads up to its first event's line, then closes the pipe;
    returns the time to that line (and checks that the process then ends quietly)."""
    t = time.perf_counter()
    proc = subprocess.Popen([*TT, "log", p], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            env=ENV)
    assert proc.stdout is not None and proc.stderr is not None
    for _ in range(3):  # the file's name, the columns, seq 0
        proc.stdout.readline()
    first = time.perf_counter() - t
    proc.stdout.close()
    code = proc.wait(timeout=30)
    ended = time.perf_counter() - t
    err = proc.stderr.read()
    if b"Traceback" in err:
        raise SystemExit(err.decode()[-2000:])
    print(f"    first line {first:.3f} s, exit {code} at {ended:.3f} s", file=sys.stderr)
    return 1, first


def _inner_play_write(lines: str) -> tuple[int, float]:
    """One write at a six-player table whose every seat's page (6 players, the umpire, the
    shared page) is drawn before it and again after it; returns the fold steps it cost."""
    from tabletape import engine
    from tabletape.app import play
    from tabletape.engine import simulate
    from tabletape.tape import log as tapelog
    rs = engine.get("global-domination")
    names = ("alice", "bob", "carol", "dave", "erin", "frank")
    header = simulate.header_for(rs, names)
    folder = tempfile.mkdtemp()
    log = os.path.join(folder, "gd6.jsonl")
    tail = tapelog.create(log, header, rs.codec)
    events = [e for e, _ in simulate.play(rs, header, 1, max_events=int(lines) - 1)]
    tapelog.append(log, events, rs.codec, expect=tail)
    table = play.Table(log)
    umpire = play.Seat(play.UMPIRE, umpire=True)
    seats = [*(play.Seat(p) for p in names), umpire, play.PUBLIC]
    for seat in seats:
        table.shown(seat)
    steps, reads = table.folded.steps, table.folded.reads
    page = table.shown(umpire)
    t = time.perf_counter()
    table.enter(umpire, {"event": page.groups[0].events[0].event, "after": page.version})
    for seat in seats:
        table.shown(seat)
    took = time.perf_counter() - t
    if table.folded.reads != reads:
        raise SystemExit("a write read the log again")
    shutil.rmtree(folder)
    return table.folded.steps - steps, took


def _inner_push(log: str) -> tuple[int, float]:
    """Serves a copy of `log` for play (`tabletape serve --play`, a process of its own),
    connects PAGES pages' streams from this process, makes one write from the umpire's
    page, and returns how long until the last page was sent the table with it."""
    import asyncio
    import re
    folder = tempfile.mkdtemp()
    copy = os.path.join(folder, "game.jsonl")
    shutil.copyfile(log, copy)
    server = subprocess.Popen([*TT, "serve", copy, "--play", "--umpire", "--port", "0"],
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
                              env={**ENV, "PYTHONUNBUFFERED": "1"})
    links: dict[str, str] = {}
    port = 0
    assert server.stdout is not None
    for line in server.stdout:
        m = re.match(r"serving .* at http://127\.0\.0\.1:(\d+)/", line)
        if m:
            port = int(m[1])
        m = re.fullmatch(r"(\w+): http://127\.0\.0\.1:\d+(/p/[\w-]+)\n", line)
        if m:
            links[m[1]] = m[2]
        if "umpire" in links:
            break
    paths = [f"{links['alice']}/events", f"{links['bob']}/events",
             f"{links['umpire']}/events", "/events"]

    async def page_of(reader: asyncio.StreamReader) -> bytes:
        while True:
            block = await reader.readuntil(b"\n\n")
            if block.startswith(b"event: page\n"):
                return block

    async def main() -> float:
        streams = []
        for i in range(PAGES):
            reader, writer = await asyncio.open_connection("127.0.0.1", port, limit=1 << 24)
            writer.write(f"GET {paths[i % 4]} HTTP/1.0\r\nHost: 127.0.0.1:{port}\r\n\r\n"
                         .encode())
            streams.append((reader, writer))
        firsts = await asyncio.gather(*(page_of(r) for r, _ in streams))
        umpire = json.loads(firsts[2].split(b"data: ", 1)[1])
        body = json.dumps({"event": umpire["groups"][0]["events"][0]["event"],
                           "after": umpire["version"]}).encode()
        t = time.perf_counter()
        waiting = [asyncio.ensure_future(page_of(r)) for r, _ in streams]
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write((f"POST {links['umpire']}/event HTTP/1.0\r\nHost: 127.0.0.1:{port}\r\n"
                      f"Origin: http://127.0.0.1:{port}\r\nContent-Type: application/json\r\n"
                      f"Content-Length: {len(body)}\r\n\r\n").encode() + body)
        answer = await reader.read()
        if b" 200 " not in answer.split(b"\r\n", 1)[0]:
            raise SystemExit(f"the write was refused: {answer[:300]!r}")
        seq = umpire["seq"] + 1
        for block in await asyncio.gather(*waiting):
            if f'"seq":{seq},'.encode() not in block:
                raise SystemExit("a page was sent another table than the one written")
        took = time.perf_counter() - t
        for _, w in streams:
            w.close()
        return took

    try:
        return PAGES, asyncio.run(main())
    finally:
        server.terminate()
        server.wait()
        shutil.rmtree(folder)


def _table(game: str) -> tuple:
    """The game's ruleset and a header for its bench table (2 players; 4 of Global Domination,
    3 of Liberation): all a `simulate` row asks of a tree, which --before's may be (the tree of
    the issue's day has no lab: no `engine.agents`, no `engine.playout`)."""
    from tabletape import engine
    from tabletape.engine import simulate
    rs = engine.get(game)
    n = {"global-domination": 4, "liberation": 3}.get(game, 2)
    return rs, simulate.header_for(rs, ("alice", "bob", "carol", "dave")[:n])


def _random_table(game: str) -> tuple:
    """`_table`'s ruleset and header, the ruleset bound to it and a random agent in each seat."""
    from tabletape.engine import agents
    rs, header = _table(game)
    return rs, header, rs.bind(header), {p: agents.RandomAgent() for p in header.players}


def _inner_simulate(game: str) -> tuple[int, float]:
    """Plays SIM_GAMES[game] random games of `game` (as `tabletape simulate` does)."""
    from tabletape.engine import simulate
    rs, header = _table(game)
    t = time.process_time()
    for seed in range(SIM_GAMES[game]):
        for _ in simulate.play(rs, header, seed):
            pass
    return SIM_GAMES[game], time.process_time() - t


def _inner_playout(game: str) -> tuple[int, float]:
    """Plays the same SIM_GAMES[game] games with the balance lab's loop and random agents."""
    from tabletape.engine import playout
    _, _, bound, seats = _random_table(game)
    t = time.process_time()
    for seed in range(SIM_GAMES[game]):
        playout.play(bound, seats, seed)
    return SIM_GAMES[game], time.process_time() - t


def _inner_pair(game: str) -> tuple[int, float, dict[str, list[float]]]:
    """Plays the same SIM_GAMES[game] games with `simulate` and with the lab's random playouts,
    game by game in turn in this one process, PAIR_ROUNDS times; reports simulate's CPU time
    over the playouts' for each round (a ratio the machine's drift moves far less than two
    rows run one after the other: both sides share every moment of it)."""
    from tabletape.engine import playout, simulate
    rs, header, bound, seats = _random_table(game)
    clock = time.process_time
    ratios, total = [], 0.0
    for _ in range(PAIR_ROUNDS):
        sim = lab = 0.0
        for seed in range(SIM_GAMES[game]):
            t0 = clock()
            for _ in simulate.play(rs, header, seed):
                pass
            t1 = clock()
            playout.play(bound, seats, seed)
            t2 = clock()
            sim, lab = sim + t1 - t0, lab + t2 - t1
        ratios.append(round(sim / lab, 3))
        total += lab
    return SIM_GAMES[game] * PAIR_ROUNDS, total, {"ratios": ratios}


def _inner_floor(game: str) -> tuple[int, float]:
    """Applies the events of the same SIM_GAMES[game] games, `pending` asked before each: the part
    of a game's time that any playout pays, whatever it draws with."""
    from tabletape.engine import simulate
    rs, header = _table(game)
    bound = rs.bind(header)
    games = [[e for e, _ in simulate.play(rs, header, seed)] for seed in range(SIM_GAMES[game])]
    pending, apply = bound.pending, bound.apply
    t = time.process_time()
    for events in games:
        state = bound.initial()
        for e in events:
            pending(state)
            state = apply(state, e)
    return SIM_GAMES[game], time.process_time() - t


def _inner_mc(game: str) -> tuple[int, float]:
    """Plays one game with an mc:8 agent in the first seat; returns its decisions (of two
    events or more) and their time."""
    from tabletape.engine import agents, playout
    _, header, bound, seats = _random_table(game)
    mc = agents.MonteCarloAgent(8)
    seats[header.players[0]] = mc
    t = time.process_time()
    playout.play(bound, seats, 1, max_events=60 if QUICK else 2_000)
    return mc.decisions, time.process_time() - t


def _spin(n: int) -> int:
    total = 0
    for i in range(n):
        total += i
    return total


def _inner_spin(jobs: str) -> tuple[int, None]:
    from concurrent.futures import ProcessPoolExecutor
    tasks = [20_000 if QUICK else 5_000_000] * 8
    with ProcessPoolExecutor(int(jobs)) as pool:
        list(pool.map(_spin, tasks))
    return sum(tasks), None


def _inner_chess(p: str) -> int:
    import chess.pgn
    moves = 0
    with open(p) as f:
        while (game := chess.pgn.read_game(f)) is not None:  # SAN parsed against the board
            board = game.board()
            for move in game.mainline_moves():
                board.push(move)
                moves += 1
    return moves, None


def _inner_eventsourcing(n: str) -> int:
    from eventsourcing.application import Application
    from eventsourcing.domain import Aggregate, event

    class Table(Aggregate):
        @event("Created")
        def __init__(self, players: list[str]):
            self.players = players
            self.hands: dict[str, list[str]] = {p: [] for p in players}

        @event("CardDrawn")
        def draw(self, player: str, card: str) -> None:
            self.hands[player].append(card)

    class Games(Application):
        pass

    app = Games(env={"AGGREGATE_CACHE_MAXSIZE": "0"})
    table = Table(["alice", "bob"])
    for i in range(int(n) - 1):
        table.draw(("alice", "bob")[i % 2], f"card{i % 52}")
    app.save(table)
    t = time.perf_counter()
    app.repository.get(table.id)  # the timed part: rebuild from every stored event
    return int(n), time.perf_counter() - t


# -- the table ---------------------------------------------------------------------------

def table(rows: list[Row], baseline: int, markdown: bool) -> None:
    decode = next((r for r in rows if r.name.startswith("floor: msgspec")), None)
    ref = decode.events / decode.seconds if decode else 0.0
    head = ("row", "events", "time s", "events/s", "MB/s", "peak MiB above python", "vs decode")
    body = []
    for r in rows:
        rate = r.events / r.seconds if r.seconds and r.events else 0
        body.append((r.name + (f" ({r.note})" if r.note else ""), f"{r.events:,}",
                     f"{r.seconds:.3f}", f"{rate:,.0f}" if rate else "—",
                     f"{r.nbytes / r.seconds / 1e6:.1f}" if r.nbytes else "—",
                     f"{(r.rss_kib - baseline) / 1024:+.1f}",
                     f"{rate / ref:.3f}" if rate and ref else "—"))
    if markdown:
        print("| " + " | ".join(head) + " |")
        print("|" + "---|" * len(head))
        for b in body:
            print("| " + " | ".join(b) + " |")
        return
    from rich.console import Console
    from rich.table import Table
    t = Table(title=f"tabletape bench ({'quick' if QUICK else 'full'}); peak memory above "
                    f"a bare interpreter ({baseline / 1024:.1f} MiB)")
    for h in head:
        t.add_column(h, justify="left" if h == "row" else "right")
    for b in body:
        t.add_row(*b)
    Console().print(t)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--markdown", action="store_true", help="Print a markdown table too.")
    ap.add_argument("--rounds", type=int, default=2 if QUICK else 3,
                    help="Rounds per row (the median is kept).")
    ap.add_argument("--inner", nargs=2, metavar=("KIND", "ARG"), help=argparse.SUPPRESS)
    ap.add_argument("--prepare", action="store_true", help="Only generate the inputs.")
    ap.add_argument("--playouts", action="store_true",
                    help="Only the games' rows: simulate beside the balance lab (no inputs).")
    ap.add_argument("--only", action="append", default=[], metavar="TEXT",
                    help="Run only the rows whose names contain TEXT (repeatable).")
    ap.add_argument("--before", metavar="SRC",
                    help="Also run each tabletape row with PYTHONPATH=SRC (another tree's "
                         "src/, e.g. from `git archive`), side by side in this run.")
    args = ap.parse_args()
    global BEFORE
    ONLY.extend(args.only)
    BEFORE = os.path.abspath(args.before) if args.before else None
    if args.inner:
        return inner(*args.inner)
    if args.prepare:
        return prepare()
    if args.playouts:  # CPU time of each row (per core), no inputs needed
        _, baseline, _ = run([PY, "-c", "pass"])
        rows = _with_before([r for r in _playout_rows(args.rounds) if r is not None])
        table(rows, baseline, markdown=args.markdown)
        for line in ratios(rows) + pair_lines():
            print(line)
        return None
    # Generating the inputs grows a process; a child forked from a big process reports
    # the parent's size as its own peak (Linux keeps the high-water mark across exec),
    # so this process stays small: inputs are made in a child too.
    subprocess.run([PY, os.path.abspath(__file__), "--prepare"], check=True)
    # start-up rows measure running, not compiling: write the bytecode of each tree first
    # (a PYTHONDONTWRITEBYTECODE environment would otherwise recompile every module each run)
    trees = [os.path.join(ROOT, "src"), *([BEFORE] if BEFORE else [])]
    subprocess.run([PY, "-m", "compileall", "-q", *trees], check=False, stdout=subprocess.DEVNULL,
                   env={k: v for k, v in ENV.items() if k != "PYTHONDONTWRITEBYTECODE"})
    rows, baseline = measure(inputs(), args.rounds)
    rows = _with_before(rows)
    table(rows, baseline, markdown=False)
    if args.markdown:
        table(rows, baseline, markdown=True)
    for line in ratios(rows) + pair_lines():
        print(line)


def _with_before(rows: list[Row]) -> list[Row]:
    """Returns the rows with each [before] row just above its own."""
    before = {r.name[:-len(" [before]")]: r for r in BEFORE_ROWS}
    out = []
    for r in rows:
        if r.name in before:
            out.append(before[r.name])
        out.append(r)
    return out


def ratios(rows: list[Row]) -> list[str]:
    """Returns the validation targets as ratios to their floors, from this run's rows."""
    def rate(r: Row) -> float:
        return r.events / r.seconds

    def find(prefix: str, before: bool) -> Row | None:
        return next((r for r in rows if r.name.startswith(prefix)
                     and r.name.endswith(" [before]") == before), None)

    out = []
    for parts, goal in ((("corpus check", "--jobs 2, first run"), "at least 2x"),
                        (("tabletape append one event",), "within 10%"),
                        (("tabletape replay --to",), "within 10%")):
        for then in rows:  # the targets beside today's (the before tree's rows)
            if not then.name.endswith(" [before]") or not all(p in then.name for p in parts):
                continue
            now = next((r for r in rows if r.name == then.name[:-len(" [before]")]), None)
            if now is not None:
                out.append(f"- {now.name}: {then.seconds:.3f} s before, {now.seconds:.3f} s "
                           f"after: **{then.seconds / now.seconds:.2f}x** ({goal})")
    for game in GAMES:
        sim = find(f"simulate {game}: games per second", False)
        lab = find(f"balance {game}: random games per second", False)
        if sim is not None and lab is not None and sim.seconds and lab.seconds:
            out.append(f"- balance {game}: random playouts {rate(lab):,.0f} games/s vs simulate's "
                       f"{rate(sim):,.0f}/s in this run: **{rate(lab) / rate(sim):.2f}x** "
                       "(at least 2x)")
        then = find(f"simulate {game}: games per second", True)  # --before: another tree's
        if then is not None and lab is not None and then.seconds and lab.seconds:
            out.append(f"- balance {game}: random playouts {rate(lab):,.0f} games/s vs the before "
                       f"tree's simulate {rate(then):,.0f}/s in this run: "
                       f"**{rate(lab) / rate(then):.2f}x** (at least 2x)")
    for before in (True, False):
        tag = " [before]" if before else ""
        chain = next((r for r in rows if r.name == "floor: decode + SHA-256 chain check"), None)
        validate = next((r for r in rows if r.name == "tabletape validate" + tag), None)
        if chain is not None and validate is not None:
            out.append(f"- validate of the long log{tag}: {rate(validate):,.0f} events/s vs "
                       f"decode + chain {rate(chain):,.0f}/s: **{rate(validate) / rate(chain):.2f}**")
        floor = find("floor: decode + SHA-256 chain check of the", False)
        games = next((r for r in rows if r.name.startswith("tabletape validate ")
                      and "--jobs 1" in r.name and r.name.endswith(tag)
                      and r.name.endswith(" [before]") == before), None)
        one = next((r for r in rows if r.name.startswith("tabletape validate, one short game")
                    and r.name.endswith(" [before]") == before), None)
        if floor is not None and games is not None and one is not None:
            marginal = games.seconds - one.seconds
            out.append(f"- validate of the corpus{tag}, marginal (less one process's start-up): "
                       f"{marginal:.2f} s vs the floor's {floor.seconds:.2f} s: "
                       f"**{floor.seconds / marginal:.2f}**")
    return out


if __name__ == "__main__":
    main()
