"""Bytes moved between workers per stencil iteration on a real 2-worker ``LocalCluster``
(worker processes): the seed stencil of ``examples/stencil.py`` on an (N+2)^2 grid of four
row blocks, two per worker. The workers' incoming-transfer
logs (``Worker.transfer_incoming_log``: one entry per fetch from another worker, with the
bytes of each key) say what crossed between them.

A 5-point stencil needs, per iteration and per block boundary that lies between the two
workers, one ghost row each way: 2 x N x 8 bytes (the issue's acceptance). With
``gpunumeric.halo`` on that is asserted, up to a factor 2 for corners and slab metadata,
and far below one block; with it off the bytes are printed for the log only. Ghost-only
traffic needs each block position to stay on one worker: lowering's owner map
(``_runtime/placement.py``) pins the per-block tasks there."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy
import pytest
from distributed import Client, LocalCluster, wait

import dask_gpunumeric as dnp

pytestmark = pytest.mark.slow

N = 512
ROW_BLOCKS = 4  # two per worker
WARM_UP, MEASURED = 3, 6
SLAB_ALLOWANCE = 2  # corners, the odd extra column: at most twice the ghost rows


@pytest.fixture(scope="module")
def client(shared_cluster: LocalCluster) -> Iterator[Client]:
    with Client(shared_cluster) as client:
        yield client


@pytest.fixture(autouse=True)
def distributed_scheduler(backend: str) -> Iterator[None]:
    """Computations go to the active client (the suite's default is threads), with the
    default configuration otherwise (owner placement, ``gpunumeric.placement``, on)."""
    with dnp.config.set(scheduler="distributed"):
        yield


def seed_stencil(np: Any, n: int, chunks: Any) -> tuple[Any, Iterator[None]]:
    """``examples/stencil.py``'s grid and loop (one iteration per ``next``), in ``chunks``."""
    grid = np.zeros((n + 2, n + 2)) if chunks is None else np.zeros((n + 2, n + 2), chunks=chunks)
    grid[:, 0] = grid[:, -1] = grid[-1, :] = -273.15
    grid[0, :] = 40.0
    center, north, south = grid[1:-1, 1:-1], grid[:-2, 1:-1], grid[2:, 1:-1]
    east, west = grid[1:-1, 2:], grid[1:-1, :-2]

    def steps() -> Iterator[None]:
        while True:
            center[:] = 0.2 * (center + north + east + west + south)
            yield

    return grid, steps()


def drain_incoming(client: Client) -> list[int]:
    """The bytes of every key fetched from another worker since the last call."""

    def drain(dask_worker: Any) -> list[int]:
        sizes = [n for entry in dask_worker.transfer_incoming_log for n in entry["keys"].values()]
        dask_worker.transfer_incoming_log.clear()
        return sizes

    return [n for sizes in client.run(drain).values() for n in sizes]


def block_workers(client: Client, grid: Any) -> list[str]:
    """The worker holding each row block of the persisted grid, top to bottom."""
    blocks = grid._store.version.array  # the persisted store: a DaskData leaf
    assert blocks.numblocks == (ROW_BLOCKS, 1), blocks.chunks
    wait(blocks)  # persisting is asynchronous
    who_has = client.who_has(blocks)
    return [who_has[key][0] for key in (row[0] for row in blocks.__dask_keys__())]


def measure(client: Client) -> tuple[float, list[int], list[str], Any]:
    """Bytes fetched between workers per iteration (after warming up), the fetched key
    sizes, the block placement, and the grid."""
    grid, steps = seed_stencil(dnp, N, chunks=(-(-(N + 2) // ROW_BLOCKS), N + 2))
    for _ in range(WARM_UP):
        next(steps)
    float(grid[1, 1])
    drain_incoming(client)
    for _ in range(MEASURED):
        next(steps)
    float(grid[1, 1])
    sizes = drain_incoming(client)
    return sum(sizes) / MEASURED, sizes, block_workers(client, grid), grid


@pytest.mark.parametrize("halo", [True, False], ids=["halo-on", "halo-off"])
def test_stencil_moves_ghost_slabs_between_workers(client: Client, halo: bool) -> None:
    with dnp.config.set(halo=halo):
        per_iteration, sizes, workers, grid = measure(client)
        values = grid.compute()
    expected, steps = seed_stencil(numpy, N, chunks=None)
    for _ in range(WARM_UP + MEASURED):
        next(steps)
    numpy.testing.assert_array_equal(values, expected)

    crossings = sum(a != b for a, b in zip(workers, workers[1:], strict=False))
    ghost_rows = crossings * 2 * N * 8  # one row each way per boundary between workers
    block = (N + 2) ** 2 * 8 / ROW_BLOCKS
    print(
        f"halo={'on' if halo else 'off'}: {per_iteration:.0f} bytes/iteration between "
        f"workers ({len(sizes)} fetches, largest {max(sizes, default=0)} bytes); ghost rows "
        f"{ghost_rows} bytes ({crossings} boundaries between workers), block {block:.0f} bytes"
    )
    if halo:
        assert len(set(workers)) == 2, f"all blocks on one worker: {workers}"
        assert 0 < per_iteration <= SLAB_ALLOWANCE * ghost_rows
        assert max(sizes) < block / 20
