"""No hidden cost per iteration on a GPU worker (issue 29): the seed stencil of
``examples/stencil.py`` and the CG of ``examples/conjugate_gradient.py``, as written, on a
one-worker cluster (a worker process, as ``dgn-run --gpus 1`` makes) with the simulated
device, whose copies between host and device and kernel launches the worker counts
(``_backends/device_counts.py``); the scheduler's transition log says which tasks ran.

An iteration's cost is the difference between two runs of the program that differ only in
their iterations (the set-up and the final read cancel), over the extra iterations. A
stencil iteration copies nothing to or from the host, runs one task per block per merged
sweep group (``merge_sweeps``: ``gpunumeric.halo-sweeps`` iterations per group) besides
its ghost slabs' slicing, and launches one or two fused kernels per block and sweep (the
interior, and the rim of a block at the grid's edge, when it is not merged). A CG
iteration keeps the matrix on the device (nothing goes there again) and reads one scalar
on the host: the ``if sqrt(rsnew) < tol``.
"""

from __future__ import annotations

import math
import time
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import dask
import numpy
import pytest
from dask.utils import key_split
from distributed import Client, LocalCluster, wait

import dask_gpunumeric as dnp
from dask_gpunumeric._backends.device_counts import (
    DeviceCounts,
    device_counts,
    reset_device_counts,
)
from examples.conjugate_gradient import conjugate_gradient, make_system
from examples.stencil import stencil

pytestmark = [
    pytest.mark.slow,
    pytest.mark.not_on_cupy(reason="counts the simulated device's copies and kernel launches"),
]

N = 254  # the grid is (N+2)^2: several blocks at the suite's min-chunk-elements
BLOCK_BYTES = 128 << 10
SWEEPS = 4  # gpunumeric.halo-sweeps here: iterations per merged group
FEW, MANY = 4, 12  # stencil iterations of the two runs (whole groups of SWEEPS)
CG_N, CG_FEW, CG_MANY = 400, 2, 6
# Kernels of one stencil task besides its sweeps' fused ones (_kernels/stencil_sweeps.py,
# stencil_block.py): the cells of the block no sweep writes (one copy per face, 2 x ndim),
# the box the sweeps read assembled from the pieces met (the block and a neighbour's slab
# per face, 1 + 2 x ndim), the second buffer's ring (2 x ndim) and the result copied into
# the block (1).
COPIES_PER_TASK = 2 * 2 + (1 + 2 * 2) + 2 * 2 + 1


@dataclass(frozen=True)
class Costs:
    """What a run cost on the worker: its tasks by kind (``key_split``: ``stencil``,
    ``tensordot``, ...; a ghost slab's ``stencil-slab``), the tasks of each stencil layer
    (one layer per merged sweep group) and the device's counts."""

    tasks: Counter[str]
    stencil_layers: Counter[str]
    device: DeviceCounts

    def __sub__(self, other: Costs) -> Costs:
        return Costs(
            _difference(self.tasks, other.tasks),
            Counter(),  # layer names differ between runs: compared within one run
            self.device - other.device,
        )


def _difference(more: Counter[str], fewer: Counter[str]) -> Counter[str]:
    """``more - fewer`` keeping what went down (Counter's ``-`` drops it)."""
    return Counter({kind: more[kind] - fewer[kind] for kind in more | fewer})


@pytest.fixture(scope="module")
def client() -> Iterator[Client]:
    """One single-threaded worker process: one GPU's worker, its counts its own."""
    with (
        LocalCluster(
            n_workers=1, threads_per_worker=1, host="127.0.0.1", dashboard_address=":0"
        ) as cluster,
        Client(cluster) as client,
    ):
        yield client


@pytest.fixture(autouse=True)
def on_one_device_worker(backend: str, client: Client) -> Iterator[None]:
    if backend != "simulated-device":
        pytest.skip("counts the simulated device's copies and kernel launches")
    # persist-depth: no automatic persist inside the runs (it would cut a sweep group);
    # checkpoint-every: no lineage cut (one per 16 automatic persists, counted per process:
    # whether one falls inside a measured run would depend on the tests run before)
    with dnp.config.set(
        scheduler="distributed",
        halo_sweeps=SWEEPS,
        persist_depth=10_000,
        checkpoint_every=10**9,
    ):
        yield


@pytest.fixture
def small_blocks() -> Iterator[None]:
    """Blocks of at most 128 KiB: the grid in several blocks on the one worker, as the
    N=10,000 grid (800 MB) is on one GPU (blocks of at most 512 MiB)."""
    with dask.config.set(
        {f"gpunumeric.max-chunk-bytes.{kind}": BLOCK_BYTES for kind in ("cpu", "gpu")}
    ):
        yield


def _now(dask_scheduler: Any) -> float:
    return time.time()


def _tasks_since(dask_scheduler: Any, since: float) -> list[str]:
    """The name of each task sent to a worker since ``since`` (its key's first part)."""
    log = list(dask_scheduler.transition_log)
    # The log keeps its last distributed.admin.low-level-log-length transitions: a window
    # it no longer holds whole would undercount, and the bounds below would hold vacuously.
    full = len(log) == dask_scheduler.transition_log.maxlen
    assert not full or log[0].timestamp < since, "the scheduler's transition log wrapped"
    keys = [entry.key for entry in log if entry.finish == "processing" and entry.timestamp >= since]
    return [key[0] if isinstance(key, tuple) else str(key) for key in keys]


def is_stencil_block(name: str) -> bool:
    """A stencil's block task (``stencil``; ``stencil-sum`` where the read after the loop
    fused into the last group), not a ghost slab's."""
    return key_split(name).startswith("stencil") and not name.endswith("-slab")


def costs_of(client: Client, run: Callable[[], Any]) -> Costs:
    """``run()``'s tasks and the worker's device counts."""
    client.run(reset_device_counts)
    since = client.run_on_scheduler(_now)
    run()
    names = client.run_on_scheduler(_tasks_since, since=since)
    (device,) = client.run(device_counts).values()
    kinds = Counter("stencil-slab" if name.endswith("-slab") else key_split(name) for name in names)
    layers = Counter(n for n in names if is_stencil_block(n))
    return Costs(kinds, layers, device)


def stencil_checksum(iterations: int) -> float:
    return float(stencil(dnp, N, iterations).sum())


@pytest.mark.usefixtures("small_blocks")
def test_a_stencil_iteration_copies_nothing_and_runs_a_task_per_block_and_group(
    client: Client,
) -> None:
    blocks = math.prod(dnp.zeros((N + 2, N + 2)).to_dask().numblocks)
    assert blocks > 1, "one block: the test would not see the ghost slabs"
    stencil_checksum(FEW)  # warm: the worker's imports and compiled programs
    few = costs_of(client, lambda: stencil_checksum(FEW))
    many = costs_of(client, lambda: stencil_checksum(MANY))
    extra, iterations = many - few, MANY - FEW
    print(f"per stencil iteration ({blocks} blocks, {SWEEPS} sweeps per group): "
          f"{extra.tasks.total() / iterations:.2f} tasks, {extra.device}")  # fmt: skip

    assert (extra.device.to_host, extra.device.to_device) == (0, 0), extra.device
    # merged: one stencil layer per group of SWEEPS iterations, a task per block in each
    for run, done in ((few, FEW), (many, MANY)):
        assert len(run.stencil_layers) == done // SWEEPS, run.stencil_layers
        assert max(run.stencil_layers.values()) <= blocks, run.stencil_layers
    changed = {kind for kind, n in extra.tasks.items() if n}
    assert changed <= {"stencil", "stencil-sum", "stencil-slab"}, extra.tasks
    groups = iterations // SWEEPS
    block_tasks = extra.tasks["stencil"] + extra.tasks["stencil-sum"]
    assert block_tasks <= blocks * groups, extra.tasks
    assert extra.tasks["stencil-slab"] <= 2 * 2 * blocks * groups, extra.tasks  # one per face
    fused = extra.device.fused_kernels
    assert blocks * iterations <= fused <= 2 * blocks * iterations, extra.device
    assert extra.device.kernels <= fused + COPIES_PER_TASK * block_tasks, extra.device


def test_a_cg_iteration_keeps_the_matrix_on_the_device_and_reads_one_scalar(
    client: Client,
) -> None:
    a, b = make_system(dnp, CG_N)
    a, b = a.persist(), b.persist()
    wait([a.to_dask(), b.to_dask()])
    matrix_blocks, row_blocks = math.prod(a.to_dask().numblocks), a.to_dask().numblocks[0]
    vector_blocks = math.prod(b.to_dask().numblocks)

    def solve(iterations: int) -> numpy.ndarray:
        x = conjugate_gradient(dnp, a, b, tol=0.0, max_iterations=iterations)
        return dnp.asnumpy(x)

    solve(CG_FEW)  # warm
    extra = costs_of(client, lambda: solve(CG_MANY)) - costs_of(client, lambda: solve(CG_FEW))
    iterations = CG_MANY - CG_FEW
    print(f"per CG iteration ({matrix_blocks} matrix blocks, {vector_blocks} vector "
          f"blocks): {extra.tasks.total() / iterations:.2f} tasks {dict(extra.tasks)}, "
          f"{extra.device}")  # fmt: skip

    assert (extra.device.to_device, extra.device.to_device_bytes) == (0, 0), extra.device
    assert extra.device.to_host == iterations, extra.device  # the `if`'s scalar
    assert extra.device.to_host_bytes <= 8 * iterations, extra.device
    # a.dot(p): a product per matrix block, a sum per row of blocks; p.dot(ap) and
    # r.dot(r): a product per vector block and their sum
    products = matrix_blocks + row_blocks + 2 * (vector_blocks + 1)
    # x, r and p's updates (a fused task per vector block each); alpha, rsnew / rsold and
    # sqrt(rsnew) < tol (one scalar task each, the last one's read finalized)
    elementwise = 3 * vector_blocks + 3 + 1
    assert extra.tasks["tensordot"] <= products * iterations, extra.tasks
    assert extra.tasks.total() - extra.tasks["tensordot"] <= elementwise * iterations + iterations
    assert extra.device.kernels <= 2 * extra.tasks.total(), extra.device
