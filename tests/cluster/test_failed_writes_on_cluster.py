"""Failed writes on a real ``LocalCluster``: persists are asynchronous there (futures), so
the rollback waits for a tried version's futures before keeping it; the target ends as
it was before the failing write, its persisted value on the workers."""

from __future__ import annotations

import numpy
import pytest

import dask_gpunumeric as dnp
from dask_gpunumeric._array.rollback import pending_writes
from dask_gpunumeric._ir.leaves import DaskData
from dask_gpunumeric.testing import assert_eq

pytestmark = [pytest.mark.slow, pytest.mark.usefixtures("distributed_scheduler")]


@pytest.mark.usefixtures("client")
def test_failed_write_rolls_back_on_the_cluster() -> None:
    host = numpy.arange(20_000)
    ours = dnp.array(host, chunks=5_000)
    view = ours[50:150]
    ours[10_000:] = 3
    expected = host.copy()
    expected[10_000:] = 3
    for _ in range(6):  # deep enough for the materialization to persist the store
        ours[:100] = ours[:100] ** dnp.array(numpy.full(100, -1), chunks=50)
    with pytest.raises(ValueError, match="negative"):
        ours.compute()
    assert isinstance(ours._store.version, DaskData)
    assert pending_writes(ours._store) == 0
    assert_eq(ours, expected)
    assert_eq(view, expected[50:150])
    ours[:2] = 9
    expected[:2] = 9
    assert int(ours.sum()) == int(expected.sum())
