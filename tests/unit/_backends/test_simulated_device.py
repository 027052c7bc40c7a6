"""The simulated device behaves like CuPy where CuPy differs from NumPy."""

from __future__ import annotations

import pickle

import dask.array as da
import numpy
import pytest

from dask_gpunumeric._backends import backend_names, get_backend
from dask_gpunumeric._backends.device_counts import DeviceCounts, device_counts
from dask_gpunumeric._backends.device_counts import reset_device_counts as reset
from dask_gpunumeric._backends.simulated_device_backend import SimulatedDeviceArray
from dask_gpunumeric._ir.scalar_program import Instruction, ScalarProgram


@pytest.fixture
def device():
    return get_backend("simulated-device")


def test_implicit_host_conversion_raises(device) -> None:
    chunk = device.from_host(numpy.arange(4.0))
    with pytest.raises(TypeError, match="Implicit conversion"):
        numpy.asarray(chunk)


def test_mixing_with_host_arrays_raises(device) -> None:
    chunk = device.from_host(numpy.arange(4.0))
    with pytest.raises(TypeError):
        chunk + numpy.arange(4.0)
    with pytest.raises(TypeError):
        numpy.concatenate([chunk, numpy.arange(4.0)])


def test_device_operations_stay_on_device(device) -> None:
    chunk = device.from_host(numpy.arange(6.0).reshape(2, 3))
    for result in (
        chunk + 1,
        numpy.sin(chunk),
        chunk.sum(axis=0),
        numpy.sum(chunk),
        chunk.T,
        chunk[0],
        device.xp.zeros((2, 2)),
        device.xp.where(chunk > 1, chunk, 0.0),
    ):
        assert isinstance(result, SimulatedDeviceArray), type(result)


def test_explicit_transfer_round_trips(device) -> None:
    host = numpy.arange(6.0).reshape(2, 3)
    chunk = device.from_host(host)
    back = device.to_host(chunk)
    assert type(back) is numpy.ndarray
    numpy.testing.assert_array_equal(back, host)
    numpy.testing.assert_array_equal(chunk.get(), host)


def test_scalars_cross_implicitly_as_in_cupy(device) -> None:
    chunk = device.from_host(numpy.array(2.5))
    assert float(chunk) == 2.5
    assert chunk.item() == 2.5


def test_a_device_integer_is_no_index_as_in_cupy(device) -> None:
    """cupy.ndarray has no ``__index__`` (an implicit device read, cupy/cupy#5784): a 0-d
    device integer indexing a host array reaches ``__array__``; ``int()`` still reads it."""
    position = device.from_host(numpy.array(2))
    with pytest.raises(TypeError, match="Implicit conversion"):
        numpy.arange(5.0)[position]
    for index in (lambda: [10, 20, 30][position], lambda: range(position)):
        with pytest.raises(TypeError):
            index()
    assert numpy.arange(5.0)[int(position)] == 2.0


def test_asarray_takes_device_arrays_in_a_sequence_only_stacked_as_in_cupy(device) -> None:
    """``cupy.asarray`` concatenates a (nested) sequence of device arrays of one shape on
    the device; any other sequence holding one (with a scalar, a host array, another
    shape) goes to ``numpy.array``, which asks it for ``__array__``."""
    chunk = device.from_host(numpy.arange(3.0))
    stacked = device.xp.asarray([chunk[0], chunk[2]])
    numpy.testing.assert_array_equal(stacked.get(), [0.0, 2.0])
    assert device.xp.array([[chunk, chunk]]).shape == (1, 2, 3)
    for mixed in ([chunk[0], 1.0], [chunk, numpy.arange(3.0)], [chunk, chunk[:2]], ([chunk[0]], 2)):
        for make in (device.xp.asarray, device.xp.array):
            with pytest.raises(TypeError, match="Implicit conversion"):
                make(mixed)
    numpy.testing.assert_array_equal(device.xp.asarray([1.0, numpy.float64(2.0)]).get(), [1, 2])


def test_dask_drives_simulated_chunks(device) -> None:
    """dask's concatenate, tensordot, reductions and rechunk dispatch on the chunk type."""
    host = numpy.arange(24.0).reshape(4, 6)
    array = da.from_array(host, chunks=(2, 3)).map_blocks(
        device.from_host, meta=device.xp.empty((0, 0))
    )
    results = [
        array.rechunk((4, 2)),
        array.sum(axis=0),
        da.tensordot(array, array.T, axes=1),
        array.mean(),
        array.var(axis=1),
    ]
    expected = [host, host.sum(axis=0), host @ host.T, host.mean(), host.var(axis=1)]
    for result, want in zip(results, expected, strict=True):
        (value,) = __import__("dask").compute(result)
        assert isinstance(value, SimulatedDeviceArray), type(value)
        numpy.testing.assert_allclose(value.get(), want)


def test_unknown_backend_name_is_a_clear_error() -> None:
    with pytest.raises(ValueError, match="simulated-device"):
        get_backend("tpu")
    assert set(backend_names()) == {"auto", "numpy", "simulated-device", "cupy"}


def test_namespace_functions_refuse_host_arrays(device) -> None:
    """CuPy's functions raise on host arrays; a silent host computation would hide a bug."""
    with pytest.raises(TypeError):
        device.xp.sin(numpy.arange(3.0))
    with pytest.raises(TypeError):
        device.xp.where(numpy.ones(3, bool), 1.0, 2.0)
    assert isinstance(device.xp.asarray(numpy.arange(3.0)), SimulatedDeviceArray)
    assert device.xp.float64 is numpy.float64


def test_structured_dtypes_are_refused_as_in_cupy(device) -> None:
    """dask's arg reductions then take the dict path they take with CuPy chunks."""
    values = device.from_host(numpy.arange(4.0))
    with pytest.raises(TypeError, match="structured"):
        numpy.empty_like(values, dtype=[("vals", "f8"), ("arg", "i8")])


def test_host_ufuncs_are_refused_as_in_cupy(device) -> None:
    # CuPy's __array_ufunc__ runs only its own ufuncs; NumPy then raises TypeError.
    chunk = device.from_host(numpy.arange(4.0))
    host_ufunc = numpy.frompyfunc(lambda x: x + 1, 1, 1)
    with pytest.raises(TypeError, match="NotImplemented"):
        host_ufunc(chunk)
    numba = pytest.importorskip("numba")

    @numba.vectorize(["float64(float64)"])
    def plus_one(x):  # type: ignore[no-untyped-def]
        return x + 1

    @numba.guvectorize(["void(float64[:], float64[:])"], "(n)->()")
    def total(x, out):  # type: ignore[no-untyped-def]
        out[0] = x.sum()

    for function in (plus_one, total):
        with pytest.raises(TypeError, match="NotImplemented"):
            function(chunk)
    # NumPy's own ufuncs stand for CuPy's and still run on the device.
    result = numpy.add.reduce(numpy.sin(chunk))
    assert isinstance(result, SimulatedDeviceArray)


def test_it_counts_copies_each_way_and_kernel_launches(device) -> None:
    """What ``device_counts`` counts, as CuPy would copy or launch it."""
    reset()
    chunk = device.from_host(numpy.arange(6.0).reshape(2, 3))
    assert reset() == DeviceCounts(to_device=1, to_device_bytes=48)
    view = chunk[1:, ::2].T  # views: metadata only
    element = chunk[0, 1]
    chunk.reshape(3, 2)
    assert reset() == DeviceCounts()
    chunk[numpy.array([1, 0])]  # a gather: a kernel
    total = (chunk * 2).sum()  # a ufunc and a reduction
    chunk[0] = 7.0  # an assignment
    device.xp.zeros(4), device.xp.empty(4)  # a fill, and an allocation
    assert reset() == DeviceCounts(kernels=5)
    float(total), bool(element), view.get()
    assert reset() == DeviceCounts(to_host=3, to_host_bytes=8 + 8 + 16)
    double = Instruction(1, "add", (0, 0), numpy.dtype("float64"))
    device.evaluate_program(ScalarProgram((numpy.dtype("float64"),), (double,), (1,)), chunk)
    pickle.loads(pickle.dumps(chunk))  # leaves the device to be sent
    assert device_counts() == DeviceCounts(to_host=1, to_host_bytes=48, kernels=1, fused_kernels=1)
