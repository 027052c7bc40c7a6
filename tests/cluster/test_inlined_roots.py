"""Monte Carlo pi on two worker processes: each block's draws, comparison and partial mean
are one task on the block's owner (``_lowering/inline_roots.py``), and the value is the
one the threaded scheduler gives."""

from __future__ import annotations

import pytest
from distributed import Client

import dask_gpunumeric as dnp
from tests.cluster.conftest import prefixes_sent_to_workers

pytestmark = pytest.mark.usefixtures("distributed_scheduler")  # tests/cluster/conftest.py


def pi(n: int) -> float:
    rng = dnp.random.default_rng(7)
    x, y = rng.random(n, chunks=n // 8), rng.random(n, chunks=n // 8)
    return 4.0 * float(((x * x + y * y) < 1.0).mean())


def test_a_draw_is_computed_in_the_task_that_reads_it(shared_client: Client) -> None:
    pi(80_000)  # the cluster's workers known, the placement in force
    values: list[float] = []
    sent = prefixes_sent_to_workers(shared_client, lambda: values.append(pi(80_000)))
    assert sent and not {"randomdraw", "elementwise"} & sent, sent
    assert "mean_chunk" in sent
    with dnp.config.set(scheduler="threads"):
        assert pi(80_000) == values[0]
