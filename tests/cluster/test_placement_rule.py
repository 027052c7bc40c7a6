"""The placement rule as a table (``_array/work_placement.py``, docs/performance.md "Where
work runs"): each row builds a computation and says where ``dnp.explain`` puts it, what
it moves and what it computes on the cluster; then the computation runs and the last
placement says the same, and the value is NumPy's. A change to any row of the rule fails
its row here.

Limits for every row: ``client-work-bytes`` 100 kB, ``client-data-bytes`` 1 MB; two
single-threaded workers on this machine.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import dask
import distributed
import numpy
import pytest

import dask_gpunumeric as dnp
from dask_gpunumeric.testing import assert_eq

WORK, DATA = "100 kB", "1 MB"


@pytest.fixture(autouse=True)
def limits(client: distributed.Client, distributed_scheduler: None) -> Iterator[None]:
    """``conftest.client``'s cluster (two single-threaded in-process workers), with
    computations going to it, at this module's limits."""
    with dnp.config.set(client_work_bytes=WORK, client_data_bytes=DATA):
        yield


def on_workers(host: numpy.ndarray) -> Any:
    (array,) = dask.persist(dnp.array(host))
    distributed.wait(distributed.futures_of(array))
    return array


rng = numpy.random.default_rng(5)
SMALL = rng.random(5_000)  # 40 kB
MATRIX = rng.random((200, 300))  # 480 kB: over client-work-bytes, under client-data-bytes
HUGE = rng.random((400, 400))  # 1.28 MB: over client-data-bytes
VECTOR = rng.random(300)

# name -> (build: np -> (ours, expected), where, moved_bytes, parts_elsewhere)
Row = tuple[Callable[[], tuple[Any, Any]], str, int, int]
RULE: dict[str, Row] = {
    "host data within client-data-bytes: here": (
        lambda: (dnp.array(MATRIX) @ dnp.array(VECTOR), MATRIX @ VECTOR),
        "client", 0, 0,
    ),
    "host data over client-data-bytes: the cluster": (
        lambda: ((dnp.array(HUGE) * 2).sum(), (HUGE * 2).sum()),
        "cluster", 0, 0,
    ),
    "made from nothing over client-work-bytes: the cluster": (
        lambda: ((dnp.ones((200, 100)) * 2).sum(), (numpy.ones((200, 100)) * 2).sum()),
        "cluster", 0, 0,
    ),
    "a result larger than the work limit and than any input: the cluster": (
        lambda: (dnp.outer(dnp.array(VECTOR), dnp.array(SMALL)).sum(),
                 numpy.outer(VECTOR, SMALL).sum()),
        "cluster", 0, 0,
    ),
    "persisted within client-work-bytes on workers here: moved here": (
        lambda: (on_workers(SMALL) * 3 + 1, SMALL * 3 + 1),
        "client", SMALL.nbytes, 0,
    ),
    "persisted over client-work-bytes, elementwise: the cluster": (
        lambda: (on_workers(MATRIX) * 3 + 1, MATRIX * 3 + 1),
        "cluster", 0, 0,
    ),
    "persisted over client-work-bytes, a reduction: computed there, the result here": (
        lambda: (on_workers(MATRIX).sum() * 2, MATRIX.sum() * 2),
        "client", 0, 1,
    ),
    "persisted matrix over client-work-bytes times a host vector: a product there": (
        lambda: ((on_workers(MATRIX) @ dnp.array(VECTOR)) * 2, (MATRIX @ VECTOR) * 2),
        "client", 0, 1,
    ),
    "built under dask.annotate: the cluster, however small": (
        lambda: (_annotated(dnp.array(MATRIX)), MATRIX * 2),
        "cluster", 0, 0,
    ),
}  # fmt: skip


def _annotated(x: Any) -> Any:
    with dask.annotate(priority=1):
        return x * 2


@pytest.mark.parametrize("row", list(RULE))
def test_the_rule(client, row: str) -> None:
    build, where, moved, parts = RULE[row]
    ours, expected = build()
    decided = dnp.explain(ours)
    assert (decided.where, decided.moved_bytes, decided.parts_elsewhere) == (where, moved, parts)
    assert decided.reason
    assert_eq(ours, expected, rtol=1e-12)
    ran = dnp.explain()
    assert ran.where == where
    assert (ran.moved_bytes, ran.parts_elsewhere) == (moved, parts)


def test_with_the_policy_off_everything_goes_to_the_cluster(client) -> None:
    with dnp.config.set(client_work_bytes=0):
        x = dnp.array(SMALL) * 2
        decided = dnp.explain(x)
        assert decided.where == "cluster"
        assert "client-work-bytes: 0" in decided.reason
        assert_eq(x, SMALL * 2)
        assert dnp.explain().where == "cluster"


def test_explain_reads_as_a_sentence_and_refuses_other_types(client) -> None:
    x = on_workers(MATRIX).sum()
    text = str(dnp.explain(x))
    assert text.startswith("client: ")
    assert "computed where their data is" in text
    with pytest.raises(TypeError, match="dask_gpunumeric array"):
        dnp.explain(MATRIX)
