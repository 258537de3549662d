"""`balance --scheduler`: a run's chunks played on a Dask cluster's workers, in order."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

from tabletape.tape.errors import UsageError

TIMEOUT = 30.0  # seconds to reach a scheduler and to see its first worker


class RunFailed(UsageError):
    """The cluster could not play the run (unreachable, no workers, a worker's error)."""


def run(args: Sequence[tuple[Any, ...]], scheduler: str, workers: int = 2,
        timeout: float = TIMEOUT) -> Iterator[Any]:
    """Yields `balance.play_chunk(*a)` for every `a`, in order, played on the scheduler at
    `scheduler` (tcp://host:8786), or on a LocalCluster of `workers` processes ("local")."""
    try:
        from dask.distributed import Client, LocalCluster
    except ImportError:
        raise UsageError("--scheduler needs the dask extra: pip install 'tabletape[dask]'"
                         ) from None
    from tabletape.app.balance import play_chunk_args
    if not args:
        return
    cluster = None
    if scheduler == "local":
        cluster = LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                               dashboard_address=None)
        client = Client(cluster)
    else:
        try:
            client = Client(scheduler, timeout=timeout)
        except (OSError, TimeoutError) as e:
            raise RunFailed(f"cannot reach the Dask scheduler {scheduler} within "
                            f"{timeout:g} s: {e}") from None
    try:
        try:
            client.wait_for_workers(1, timeout=timeout)
        except TimeoutError:
            raise RunFailed(f"the Dask scheduler {scheduler} has no workers (waited "
                            f"{timeout:g} s): start some with `dask worker {scheduler}`"
                            ) from None
        futures = client.map(play_chunk_args, list(args), pure=False)
        for fut in futures:
            try:
                yield fut.result()
            except UsageError:
                raise
            except Exception as e:  # noqa: BLE001 - a worker's failure, whatever it is
                raise RunFailed(f"a Dask worker failed: {type(e).__name__}: {e}") from None
    finally:
        client.close()
        if cluster is not None:
            cluster.close()
