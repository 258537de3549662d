"""`balance --scheduler`: a run's chunks played on a Dask cluster's workers, in order."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import Any

from tabletape.app.parallel import DASK_TIMEOUT, RunFailed, dask_client, needs_dask
from tabletape.tape.errors import UsageError

TIMEOUT = DASK_TIMEOUT  # seconds to reach a scheduler and to see its first worker


def run(play: Callable[[Any], Any], args: Sequence[tuple[Any, ...]], scheduler: str,
        workers: int = 2, timeout: float = TIMEOUT) -> Iterator[Any]:
    """Yields `play(a)` (app.balance's `play_chunk_args`, passed in: balance imports this
    module, never the other way) for every `a`, in order, played on the scheduler at
    `scheduler` (tcp://host:8786), or on a LocalCluster of `workers` processes ("local")."""
    needs_dask("--scheduler")
    if not args:
        return
    with dask_client(scheduler, "--scheduler", workers, timeout=timeout) as client:
        futures = client.map(play, list(args), pure=False)
        for fut in futures:
            try:
                yield fut.result()
            except UsageError:
                raise
            except Exception as e:  # noqa: BLE001 - a worker's failure, whatever it is
                raise RunFailed(f"a Dask worker failed: {type(e).__name__}: {e}") from None
