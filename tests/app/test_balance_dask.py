"""`balance --scheduler ADDRESS` against a separate `dask scheduler` process and a `dask worker`
process on loopback (ephemeral ports): the same figures as a local run with the same seed."""

from __future__ import annotations

import json

from tests.app.test_corpus import scheduler  # noqa: F401 - the fixture: a real scheduler


def test_balance_on_a_separate_dask_scheduler_gives_the_local_figures(
        run, scheduler, tmp_path):  # noqa: F811
    address, start_worker = scheduler
    assert address.startswith("tcp://127.0.0.1:")
    start_worker(tmp_path)
    args = ("balance", "liberation", "--against-option", "turn_over=optional", "-n", "120",
            "--seed", "5", "--no-cache", "--json")
    local = run(*args, "--jobs", "1")
    assert local.exit_code == 0, local.output
    dask = run(*args, "--scheduler", address)
    assert dask.exit_code == 0, dask.output
    assert json.loads(dask.stdout) == json.loads(local.stdout)
    assert len(json.loads(local.stdout)["a"]["games"]) == 120
