"""Running one function over many inputs: in this process, or in a pool of processes.

`validate --jobs` and `corpus check --jobs` share this; `corpus check --dask` has its
own runner (tabletape.app.corpus) with the same contract: the same results in order.
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Sequence
from typing import TypeVar

T = TypeVar("T")
R = TypeVar("R")


def pmap(fn: Callable[[T], R], items: Sequence[T], jobs: int, chunksize: int | None = None
         ) -> Generator[R, None, None]:
    """Yields fn(item) for every item, in order, in `jobs` processes (1: in this one).

    The work is handed out in chunks (a few per process, at most 16 items each) so that
    short items do not pay a round trip each (`chunksize`: items that are long already). Closing the generator early cancels the rest.
    """
    jobs = max(1, min(jobs, len(items)))
    if jobs == 1:
        yield from map(fn, items)
        return
    from concurrent.futures import ProcessPoolExecutor
    pool = ProcessPoolExecutor(jobs)
    try:
        chunk = chunksize or max(1, min(16, len(items) // (4 * jobs)))
        yield from pool.map(fn, items, chunksize=chunk)
    finally:
        pool.shutdown(cancel_futures=True)
