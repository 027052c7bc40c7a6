"""``lattice_block``, a stepped stencil's block: on the host it goes band by band (a band's
rows copied from the old block just before its lattice cells are written over them), on
a device in one pass. Any band size gives NumPy's bits."""

from __future__ import annotations

from typing import Any

import numpy
import pytest

import dask_gpunumeric as dnp
from dask_gpunumeric._backends import numpy_backend
from dask_gpunumeric._kernels import stencil_lattice
from dask_gpunumeric.testing import assert_eq
from tests.unit._passes.test_exchange_halos import red_black


def sweeps(u: Any, weights: Any) -> Any:
    """Red-black half-sweeps (steps 2, 2), then a step-(2, 1) write with a broadcast row
    of ``weights`` (read whole, along the axis of step 1)."""
    n0 = u.shape[0] - 2
    red_black(None, u)
    u[1 : n0 + 1 : 2, 1:-1] = (u[0:n0:2, 1:-1] + u[2 : n0 + 2 : 2, 1:-1]) * weights
    return u


# Rows of 23 float64 (184 bytes), at step 2: a band of 1 or 300 bytes is one lattice row,
# one of 4000 bytes ten (more than a block holds).
BANDS = {"band-1": (1, True), "band-300": (300, True), "band-4000": (4000, False)}
BANDS["no-bands"] = (None, False)


@pytest.mark.parametrize(("band_bytes", "several"), BANDS.values(), ids=BANDS)
def test_any_band_size_gives_numpys_bits(
    monkeypatch: pytest.MonkeyPatch, band_bytes: int | None, several: bool
) -> None:
    counts: list[int] = []  # bands per block interior
    bands = stencil_lattice.bands
    monkeypatch.setattr(numpy_backend, "BAND_BYTES", band_bytes)
    monkeypatch.setattr(
        stencil_lattice, "bands", lambda *a: counts.append(len(bands(*a))) or bands(*a)
    )
    rng = numpy.random.default_rng(5)
    host, weights = rng.random((27, 23)), rng.random(21)
    u = dnp.array(host, chunks=((5, 4, 7, 11), (11, 12)))  # rows from 0, 5, 9, 16
    expected = host.copy()
    for _ in range(2):
        sweeps(u, dnp.array(weights))
        sweeps(expected, weights)
    assert_eq(u, expected)
    on_host = type(u.to_dask()._meta) is numpy.ndarray  # a device has no band size
    assert (max(counts) > 1) == (several and on_host)
