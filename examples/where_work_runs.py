"""Where work runs, and why: ``np.explain`` on data persisted on the workers.

Run it with ``python examples/where_work_runs.py`` (the embedded default cluster starts on
the first computation that needs it). It prints the placement rule's decision before and
after a few computations; docs/performance.md ("Asking where work ran") shows its output.
"""

from __future__ import annotations

import dask
import distributed
import numpy

import dask_gpunumeric as np


def main() -> None:
    rng = numpy.random.default_rng(0)
    matrix, vector = rng.random((2000, 2000)), rng.random(2000)  # 32 MB and 16 kB
    a, v = dask.persist(np.array(matrix), np.array(vector))  # on the workers, as users do
    distributed.wait(distributed.futures_of([a, v]))
    y = a @ v
    print("explain(a @ v)        ", np.explain(y))
    total = float(y.sum())
    print("after float(...sum()) ", np.explain())
    with np.config.set(client_work_bytes="16 MiB"):  # the matrix now stays on the workers
        (b,) = dask.persist(np.array(matrix))
        distributed.wait(distributed.futures_of(b))
        print("explain(b @ v)        ", np.explain(b @ v))
        print("explain(b * 2)        ", np.explain(b * 2))
        again = float((b @ v).sum())
        print("after float(...sum()) ", np.explain())
    expected = float((matrix @ vector).sum())
    print("equal to NumPy's      ", numpy.isclose(total, expected), numpy.isclose(again, expected))


if __name__ == "__main__":
    main()
