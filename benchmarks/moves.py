"""What moving a persisted array into the client costs, by route (issue 27).

The placement rule moves a small array persisted on workers of this machine into the
client once (dense CG on a persisted 1,000 x 1,000 matrix); the move is on the user's
clock, in the middle of their loop. Measured side by side on the embedded cluster, the
two routes alternating, each array persisted anew (``dask.persist``, ``distributed.wait``)
before its clock:

- ``socket``: the blocks' owners send them over a Unix socket straight into the result
  (``_runtime/local_moves.py``, ``gpunumeric.local-moves: true``, the default);
- ``gather``: distributed's gather (the scheduler's ``who_has``, then the workers' frames)
  and the blocks joined here (``gpunumeric.local-moves: false``).

Run from the repository root::

    python -m benchmarks.moves                    # 8 MB and 48 MB of float64
    python -m benchmarks.moves --megabytes 8,64 --repeats 15
"""

from __future__ import annotations

import argparse
import gc
import statistics
import time
from dataclasses import dataclass

import numpy

ROUTES = {"socket": True, "gather": False}


@dataclass(frozen=True)
class Move:
    """Median seconds of a move by each route, of an array of ``megabytes`` (rows of
    1,000 float64) in ``blocks`` blocks, and whether every moved value equalled the host
    array it was made from."""

    megabytes: int
    blocks: int
    seconds: dict[str, float]
    correct: bool

    def line(self) -> str:
        socket, gather = self.seconds["socket"], self.seconds["gather"]
        return (
            f"{self.megabytes:5d} MB in {self.blocks} blocks: socket {socket * 1e3:7.2f} ms, "
            f"gather {gather * 1e3:7.2f} ms, socket/gather {socket / gather:5.2f}"
            f"{'' if self.correct else '  VALUES DIFFER'}"
        )


def measure(megabytes: int, repeats: int) -> Move:
    """Both routes' median move of a ``megabytes`` float64 array persisted on the
    embedded cluster, ``repeats`` moves each, the routes alternating."""
    import dask
    import distributed

    import dask_gpunumeric
    from dask_gpunumeric._runtime import data_moves

    rows = max(2, megabytes * 2**20 // 8000)
    host = numpy.random.default_rng(megabytes).random((rows, 1000))
    times: dict[str, list[float]] = {route: [] for route in ROUTES}
    correct, blocks = True, 0
    for _ in range(repeats):
        for route, on in ROUTES.items():
            (held,) = dask.persist(dask_gpunumeric.array(host))
            distributed.wait(distributed.futures_of(held))
            gc.collect()
            array = held.to_dask()
            blocks = array.npartitions
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
    parser.add_argument("--megabytes", default="8,48", help="comma-separated sizes")
    parser.add_argument("--repeats", type=int, default=9, help="moves per route and size")
    args = parser.parse_args(argv)
    import os

    print(f"moves into the client from the embedded cluster ({os.cpu_count()} cores)")
    for megabytes in map(int, args.megabytes.split(",")):
        print(measure(megabytes, args.repeats).line(), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
