"""A chunk-wise fallback whose device function refuses an argument NumPy takes runs
NumPy's on a host copy (CuPy's polyval wants an array of coefficients, not a list)."""

from __future__ import annotations

import numpy
import pytest

from dask_gpunumeric._backends import get_backend
from dask_gpunumeric._kernels.chunkwise import BlockSlot, call_on_blocks


def test_a_list_refused_on_the_device_is_taken_on_the_host() -> None:
    device = get_backend("simulated-device")
    block = device.from_host(numpy.arange(4.0))
    with pytest.raises(TypeError, match="p must be 1d ndarray"):
        device.xp.polyval([1.0, -2.0, 0.5], block)  # as cupy.polyval refuses it
    result = call_on_blocks(device, "polyval", ([1.0, -2.0, 0.5], BlockSlot(0)), (), block)
    assert isinstance(result, device.chunk_type)
    numpy.testing.assert_array_equal(
        device.to_host(result), numpy.polyval([1.0, -2.0, 0.5], numpy.arange(4.0))
    )


def test_a_type_error_without_host_values_is_the_users() -> None:
    device = get_backend("simulated-device")
    block = device.from_host(numpy.arange(4.0))
    with pytest.raises(TypeError):
        call_on_blocks(device, "sinc", (BlockSlot(0), "not a number"), (), block)
