"""What a workload of the suite is: sizes, a run per system, a floor, a comparison."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy

# system -> size -> a run (inputs placed: only the run is timed), or None: no such variant
RunFactory = Callable[[str, int], Callable[[], Any] | None]
# (a system's result, NumPy's, the size) -> whether they agree
Check = Callable[[Any, Any, int], bool]


def close(rtol: float = 1e-9, atol: float = 0.0) -> Check:
    """A comparison with NumPy's result: equal shape and dtype kind, values within
    ``rtol``/``atol`` (summation order differs between chunkings)."""

    def check(result: Any, expected: Any, size: int) -> bool:
        result, expected = numpy.asarray(result), numpy.asarray(expected)
        if result.shape != expected.shape or result.dtype.kind != expected.dtype.kind:
            return False
        return bool(numpy.allclose(result, expected, rtol=rtol, atol=atol, equal_nan=True))

    return check


def close_items(rtol: float = 1e-9, atol: float = 0.0) -> Check:
    """``close`` for a result that may be a tuple or list (of arrays, floats, tuples):
    the same length, each item ``close`` to NumPy's."""
    plain = close(rtol, atol)

    def check(result: Any, expected: Any, size: int) -> bool:
        if not isinstance(expected, tuple | list):
            return plain(result, expected, size)
        if not isinstance(result, tuple | list) or len(result) != len(expected):
            return False
        return all(check(r, e, size) for r, e in zip(result, expected, strict=True))

    return check


@dataclass(frozen=True)
class Workload:
    """One workload: ``make_run(system, size)`` places the inputs and returns the timed
    run; ``iterations(size)`` divides its time into time per iteration;
    ``floor_bytes(size)`` is what one iteration must move at least (``None``: not bound by
    memory bandwidth, ``floor_note`` says why); ``reference(size, iterations)`` is NumPy's
    result after fewer iterations than planned (a run that stopped at its budget).
    ``family``: ``core`` (issue 9's workloads) or ``user-programs`` (issue 16's);
    ``systems``: the systems it runs on (``None``: the suite's, ``systems.SYSTEMS``);
    ``in_turns``: its systems' timed runs are taken in turns, not one system's after the
    other's (``runner.measure_in_turns``)."""

    name: str
    sizes: tuple[int, ...]
    size_label: str
    make_run: RunFactory
    iterations: Callable[[int], int] = lambda size: 1
    floor_bytes: Callable[[int], float] | None = None
    floor_note: str = ""
    check: Check = field(default_factory=close)
    reference: Callable[[int, int], Any] | None = None
    note: str = ""
    family: str = "core"
    systems: tuple[str, ...] | None = None
    in_turns: bool = False
