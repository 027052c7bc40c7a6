"""What "failed writes leave the target unchanged" costs, each row next to its reference
measured in the same run (ratios, never absolute targets).

1. The write journal (``_array/rollback.py``) on the write path: ``x[i % 1024] += 1``
   on a tiny array (in the client) and through tasks (``in_process_evaluation=False``),
   with the journal and with it switched off.
2. Validating a fancy write's index eagerly (NumPy's order: ``IndexError`` at the write):
   ``x[index] = 1.0`` with ``index`` one of our arrays, whose values are read to the
   client at the write, next to the same write with a NumPy index (nothing to read); then
   the whole write computed.
3. The failure path: computing a failing write, rollback included, next to computing the
   same array without the failing write.

Run from the repository root::

    python -m benchmarks.failed_writes           # 2,000 writes; 10**7 target, 10**6 index
    python -m benchmarks.failed_writes --quick   # 200 writes; 10**6 target, 10**5 index
"""

from __future__ import annotations

import argparse
import contextlib
import os
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

TINY = 1024


@dataclass(frozen=True)
class CostSpec:
    """One row: ``seconds`` measured, next to ``reference_seconds`` in the same run."""

    name: str
    seconds: float
    reference: str
    reference_seconds: float
    checksum: float

    @property
    def ratio(self) -> float:
        return self.seconds / self.reference_seconds


REPEATS = 3


def _seconds(program: Callable[[], float]) -> tuple[float, float]:
    start = time.perf_counter()
    checksum = program()
    return time.perf_counter() - start, checksum


def _best_pair(
    measured: Callable[[], tuple[float, float]], reference: Callable[[], tuple[float, float]]
) -> tuple[tuple[float, float], tuple[float, float]]:
    """The fastest of ``REPEATS`` interleaved runs of each (a loaded shared machine)."""
    runs = [(measured(), reference()) for _ in range(REPEATS)]
    return min(r[0] for r in runs), min(r[1] for r in runs)


@contextlib.contextmanager
def _journal_off() -> Iterator[None]:
    from dask_gpunumeric._array import store

    recording = store.record_write
    store.record_write = lambda *args: None
    try:
        yield
    finally:
        store.record_write = recording


def _journal_off_seconds(writes: int) -> tuple[float, float]:
    with _journal_off():
        return _seconds(lambda: small_writes(writes))


def small_writes(writes: int) -> float:
    import dask_gpunumeric as np

    x = np.zeros(TINY)
    for i in range(writes):
        x[i % TINY] += 1.0
    return float(x.sum())


def journal_rows(writes: int) -> list[CostSpec]:
    import dask_gpunumeric

    rows = []
    for label, in_process in (("in the client", True), ("through tasks", False)):
        with dask_gpunumeric.config.set(in_process_evaluation=in_process):
            (on, checksum), (off, _) = _best_pair(
                lambda: _seconds(lambda: small_writes(writes)), lambda: _journal_off_seconds(writes)
            )
        rows.append(CostSpec(f"{writes} writes {label}, journal", on, "journal off", off, checksum))
    return rows


def _fancy_write(size: int, index: Any) -> tuple[float, float, float]:
    """Seconds of ``x[index] = 1.0`` and of computing ``x.sum()`` after it, and the sum."""
    import dask_gpunumeric as np

    x = np.zeros(size)
    write, _ = _seconds(lambda: x.__setitem__(index, 1.0) or 0.0)
    whole, checksum = _seconds(lambda: float(x.sum()))
    return write, whole, checksum


def fancy_rows(size: int, points: int) -> list[CostSpec]:
    import numpy

    import dask_gpunumeric as np

    host_index = numpy.random.default_rng(0).integers(0, size, points)
    index = np.array(host_index)
    runs = [(_fancy_write(size, index), _fancy_write(size, host_index)) for _ in range(REPEATS)]
    ours, theirs = min(r[0] for r in runs), min(r[1] for r in runs)
    assert ours[2] == theirs[2]
    label = f"{points:.0e} points into {size:.0e}"
    return [
        CostSpec(f"write, our index ({label})", ours[0], "NumPy index", theirs[0], 0.0),
        CostSpec(
            "write with our index + compute",
            ours[0] + ours[1],
            "same, NumPy index",
            theirs[0] + theirs[1],
            ours[2],
        ),
    ]


def failure_rows(size: int) -> list[CostSpec]:
    import numpy

    import dask_gpunumeric as np

    def program(fail: bool) -> float:
        x = np.arange(size)
        x[: size // 2] += 1
        if fail:
            x[:10] = x[:10] ** np.array(numpy.full(10, -1))
        with contextlib.suppress(ValueError):
            x.compute()
        return float(x.sum())

    (failing, failed_checksum), (good, checksum) = _best_pair(
        lambda: _seconds(lambda: program(True)), lambda: _seconds(lambda: program(False))
    )
    assert failed_checksum == checksum, "the failed write was not undone"
    return [
        CostSpec(
            f"failing write on {size:.0e}, rolled back", failing, "no failing write", good, checksum
        )
    ]


def measure_all(writes: int, size: int, points: int) -> list[CostSpec]:
    return [*journal_rows(writes), *fancy_rows(size, points), *failure_rows(size)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="200 writes, 10**6 elements")
    args = parser.parse_args()
    writes, size, points = (200, 10**6, 10**5) if args.quick else (2_000, 10**7, 10**6)
    import dask_gpunumeric

    print(
        f"failed-writes benchmark: backend={dask_gpunumeric.config.get('backend')}, "
        f"{os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f}"
    )
    print(f"{'':52} {'ms':>9} {'reference':>20} {'ms':>9} {'ratio':>6}")
    for row in measure_all(writes, size, points):
        print(
            f"{row.name:52} {row.seconds * 1e3:>9.1f} {row.reference:>20} "
            f"{row.reference_seconds * 1e3:>9.1f} {row.ratio:>6.2f}",
            flush=True,
        )


if __name__ == "__main__":
    from benchmarks import run_threaded_unless_told

    run_threaded_unless_told(main)
