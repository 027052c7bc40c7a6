"""Reused host buffers for stencil blocks: a buffer is reused only once no array reads it,
so older versions, live views and persisted values keep their values (NumPy is the oracle:
the same program keeps copies there)."""

from __future__ import annotations

import time
from typing import Any

import numpy
import pytest

import dask_gpunumeric as dnp
from dask_gpunumeric._backends import get_backend, host_buffers
from dask_gpunumeric._backends.host_buffers import (
    empty_block,
    free_buffers,
    idle_bytes,
    reused_buffers,
)
from dask_gpunumeric.testing import assert_eq

SHAPE = (512, 512)  # 2 MiB of float64: above MIN_BYTES


@pytest.fixture
def every_block_pooled(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(host_buffers, "MIN_BYTES", 0)


def test_a_released_buffer_is_the_next_block_of_its_size() -> None:
    first = empty_block(SHAPE, numpy.dtype(numpy.float64))
    address = first.ctypes.data
    del first
    again = empty_block(SHAPE, numpy.dtype(numpy.float64))
    assert again.ctypes.data == address
    assert again.shape == SHAPE and again.dtype == numpy.float64 and again.flags.writeable


def test_a_view_of_a_block_keeps_its_buffer_from_reuse() -> None:
    block = empty_block(SHAPE, numpy.dtype(numpy.float64))
    block[...] = 7.0
    slab = block[-1:, :]  # what a ghost-slab task holds
    address = block.ctypes.data
    del block
    other = empty_block(SHAPE, numpy.dtype(numpy.float64))
    other[...] = -1.0
    assert other.ctypes.data != address
    numpy.testing.assert_array_equal(slab, numpy.full((1, 512), 7.0))


def test_idle_buffers_stay_within_the_configured_bytes() -> None:
    nbytes = 512 * 512 * 4
    with dnp.config.set(halo_buffer_pool=3 * nbytes):
        blocks = [empty_block(SHAPE, numpy.dtype(numpy.float32)) for _ in range(5)]
        addresses = [block.ctypes.data for block in blocks]
        del blocks
        assert idle_bytes() <= 3 * nbytes and free_buffers() == 3
        again = empty_block(SHAPE, numpy.dtype(numpy.float32))
    assert again.ctypes.data == addresses[0]  # the last released (first in the list) first


def test_idle_buffers_are_freed_after_a_while(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(host_buffers, "IDLE_SECONDS", 0.05)
    monkeypatch.setattr(host_buffers, "_trimmer", [])  # not waiting for an earlier trim
    blocks = [empty_block(SHAPE, numpy.dtype(numpy.float64)) for _ in range(3)]
    del blocks
    assert free_buffers() >= 3
    deadline = time.monotonic() + 5
    while free_buffers() and time.monotonic() < deadline:
        time.sleep(0.02)
    assert free_buffers() == 0


def test_small_blocks_are_plain_arrays() -> None:
    small = empty_block((8, 8), numpy.dtype(numpy.float64))
    assert small.flags.owndata


def seed_with_snapshots(np: Any) -> tuple[Any, ...]:
    """The seed stencil on a 3 x 3 block grid, holding its values at iteration 3 as a
    lazy expression, a copy and a live view, then iterating on."""
    values = (numpy.arange(90 * 90).reshape(90, 90) % 97).astype(float)
    g = numpy.array(values) if np is numpy else dnp.array(values, chunks=(30, 30))
    center = g[1:-1, 1:-1]
    north, south, east, west = g[:-2, 1:-1], g[2:, 1:-1], g[1:-1, 2:], g[1:-1, :-2]
    live = g[1:-1, 1:-1]
    for step in range(12):
        center[:] = 0.2 * (center + north + east + west + south)
        if step == 2:
            early, copied = center * 1.0, g.copy()
    return g, early, copied, live


def test_older_versions_and_live_views_keep_their_values(
    backend: str, every_block_pooled: None
) -> None:
    before = reused_buffers()
    for ours, expected in zip(seed_with_snapshots(dnp), seed_with_snapshots(numpy), strict=True):
        assert_eq(ours, expected)
    if get_backend(backend).chunk_type is numpy.ndarray:  # a device keeps its own pool
        assert reused_buffers() > before


def setitems_with_snapshots(np: Any) -> tuple[Any, ...]:
    """Writes into a grid's blocks (copied into released buffers) while an older version
    and a view are held."""
    g = np.zeros((96, 96))
    view = g[10:50, :]
    g[:, 0] = -273.15
    older = g * 1.0
    g[0, :] = 40.0
    g[40:60, 40:60] = 1.5
    return g, view, older


def test_writes_into_blocks_keep_older_versions(every_block_pooled: None) -> None:
    for ours, expected in zip(
        setitems_with_snapshots(dnp), setitems_with_snapshots(numpy), strict=True
    ):
        assert_eq(ours, expected)


@pytest.mark.parametrize("value", [0, 0.0, -0.0, 2.5])
def test_filled_blocks_keep_the_sign_of_zero(value: float) -> None:
    shape = (100, 100)  # several blocks: filled by tasks
    assert_eq(dnp.signbit(dnp.full(shape, value)), numpy.signbit(numpy.full(shape, value)))
    assert_eq(dnp.full(shape, value), numpy.full(shape, value))
