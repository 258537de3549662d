"""Running one function over many inputs: in this process, in a pool of processes, or on
a Dask cluster.

`validate --jobs`, `corpus check --jobs` and `balance` share `pmap`; `corpus check --dask`
and `balance --scheduler` reach their cluster through `dask_client` and keep their own
runners (tabletape.app.corpus, tabletape.app.balance_dask) with the same contract.
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Iterator, Sequence
from contextlib import contextmanager
from typing import Any, TypeVar

from tabletape.tape.errors import UsageError

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


DASK_TIMEOUT = 30.0  # seconds to reach a scheduler and to see its first worker


class RunFailed(UsageError):
    """A run the cluster could not do (unreachable, no workers, a worker's error): exit 2."""


def needs_dask(option: str) -> None:
    """Raises a UsageError naming `option` (the command's own) without the dask extra."""
    try:
        import dask.distributed  # noqa: F401
    except ImportError:
        raise UsageError(f"{option} needs the dask extra: pip install 'tabletape[dask]'"
                         ) from None


@contextmanager
def dask_client(scheduler: str, option: str, workers: int = 2, processes: bool = True,
                timeout: float = DASK_TIMEOUT) -> Iterator[Any]:
    """Yields a Dask client of the scheduler at `scheduler` (tcp://host:8786), or of a
    LocalCluster of `workers` workers ("local": processes, or threads when `processes` is
    False), once it has a worker; closes both after. A scheduler that cannot be reached, or
    has no worker within `timeout` seconds, is RunFailed; without the dask extra, `option`
    (the command's own) is named in the UsageError (`needs_dask`)."""
    needs_dask(option)
    from dask.distributed import Client, LocalCluster
    cluster = None
    if scheduler == "local":
        cluster = LocalCluster(n_workers=workers, threads_per_worker=1, processes=processes,
                               dashboard_address=None)
        client = Client(cluster)
    else:
        try:
            client = Client(scheduler, timeout=timeout)
        except (OSError, TimeoutError) as e:
            raise RunFailed(f"cannot reach the Dask scheduler {scheduler} within {timeout:g} s: "
                            f"{e}") from None
    try:
        try:
            client.wait_for_workers(1, timeout=timeout)
        except TimeoutError:
            raise RunFailed(f"the Dask scheduler {scheduler} has no workers (waited "
                            f"{timeout:g} s): start some with `dask worker {scheduler}`"
                            ) from None
        yield client
    finally:
        client.close()
        if cluster is not None:
            cluster.close()
