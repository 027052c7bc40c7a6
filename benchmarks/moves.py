"""What moving a persisted array into the client costs, by route (issue 27).

The placement rule moves a small array persisted on workers of this machine into the
client once (dense CG on a persisted 1,000 x 1,000 matrix); the move is on the user's
clock, in the middle of their loop. Measured side by side on the embedded cluster, the
two routes alternating, each array persisted anew (``dask.persist``, ``distributed.wait``)
before its clock:

- ``read``: the blocks read out of the workers' memory straight into the result
  (``_runtime/worker_memory.py``, ``gpunumeric.local-moves: true``, the default);
- ``gather``: distributed's gather (the scheduler's ``who_has``, then the workers' frames)
  and the blocks joined here (``gpunumeric.local-moves: false``).

Run from the repository root::

    python -m benchmarks.moves                    # 8 KB in one block, 8 MB, 48 MB
    python -m benchmarks.moves --megabytes 8,64 --repeats 15

A size under 1 MB is one block of that many bytes (a tiny array, as a loop's vector);
the larger ones are rows of 1,000 float64 in the blocks ours chooses for them.
"""

from __future__ import annotations

import argparse
import gc
import statistics
import time
import warnings
from dataclasses import dataclass

import numpy

ROUTES = {"read": True, "gather": False}


@dataclass(frozen=True)
class Move:
    """Median seconds of a move by each route, of an array of ``megabytes`` (rows of
    1,000 float64) in ``blocks`` blocks, and whether every moved value equalled the host
    array it was made from."""

    megabytes: float
    blocks: int
    seconds: dict[str, float]
    correct: bool

    def line(self) -> str:
        read, gather = self.seconds["read"], self.seconds["gather"]
        return (
            f"{self.megabytes:8.3f} MB in {self.blocks} blocks: read {read * 1e3:7.2f} ms, "
            f"gather {gather * 1e3:7.2f} ms, read/gather {read / gather:5.2f}"
            f"{'' if self.correct else '  VALUES DIFFER'}"
        )


def measure(megabytes: float, repeats: int) -> Move:
    """Both routes' median move of a ``megabytes`` float64 array persisted on the
    embedded cluster, ``repeats`` moves each, the routes alternating."""
    import dask.array
    import distributed

    import dask_gpunumeric
    from dask_gpunumeric._runtime import data_moves
    from dask_gpunumeric._runtime.cluster import client_for_computation

    rng = numpy.random.default_rng(0)
    if megabytes < 1:
        host = rng.random(max(1, int(megabytes * 2**20) // 8))
        chunks = host.shape
    else:
        host = rng.random((max(2, int(megabytes * 2**20) // 8000), 1000))
        chunks = dask_gpunumeric.empty(host.shape).to_dask().chunks
    # Persisted as dask arrays: ours keeps an array this small in the client (it would
    # be a task's result on the workers, as a solver's vector is).
    client = client_for_computation()
    times: dict[str, list[float]] = {route: [] for route in ROUTES}
    correct, blocks = True, 0
    for _ in range(repeats):
        for route, on in ROUTES.items():
            with warnings.catch_warnings():  # "Sending large graph": the host data, once
                warnings.simplefilter("ignore", UserWarning)
                array = client.persist(dask.array.from_array(host, chunks=chunks))
            distributed.wait(distributed.futures_of(array))
            gc.collect()
            blocks = len(distributed.futures_of(array))
            with dask_gpunumeric.config.set(local_moves=on):
                start = time.perf_counter()
                (value,) = data_moves.fetch(array)
                times[route].append(time.perf_counter() - start)
            if not isinstance(value, numpy.ndarray):  # a device's chunk (CuPy, simulated)
                value = value.get()
            correct = correct and numpy.array_equal(value, host)
    medians = {route: statistics.median(seconds) for route, seconds in times.items()}
    return Move(megabytes, blocks, medians, correct)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.moves", description=__doc__)
    parser.add_argument("--megabytes", default="0.008,8,48", help="comma-separated sizes")
    parser.add_argument("--repeats", type=int, default=9, help="moves per route and size")
    args = parser.parse_args(argv)
    import os

    print(f"moves into the client from the embedded cluster ({os.cpu_count()} cores)")
    for megabytes in map(float, args.megabytes.split(",")):
        print(measure(megabytes, args.repeats).line(), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
