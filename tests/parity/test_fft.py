"""numpy.fft against NumPy: every transform along any axis, n=/s=/axes=/norm=, several
chunkings (the transformed axes are rechunked whole automatically), dtypes as NumPy 2's
(complex64 stays complex64), NumPy's errors; helpers fftfreq, rfftfreq, fftshift."""

from __future__ import annotations

from typing import Any

import numpy
import pytest

import dask_gpunumeric as dnp
import dask_gpunumeric.fft as dfft
from dask_gpunumeric.testing import assert_eq, assert_raises_like

ONE_D = ["fft", "ifft", "rfft", "irfft", "hfft", "ihfft"]
N_D = ["fftn", "ifftn", "rfftn", "irfftn", "fft2", "ifft2", "rfft2", "irfft2"]
REAL_INPUT = {"rfft", "ihfft", "rfftn", "rfft2"}
CHUNKINGS = [(6, 10), (2, 3), (4, 10)]


def make_host(kind: str, dtype: Any, shape: tuple[int, ...] = (6, 10)) -> numpy.ndarray:
    rng = numpy.random.default_rng(1)
    values = rng.standard_normal(shape)
    if numpy.dtype(dtype).kind == "c":
        values = values + 1j * rng.standard_normal(shape)
    if numpy.dtype(dtype).kind in "iu":
        values = values * 10
    return values.astype(dtype)


def tolerance(dtype: numpy.dtype) -> float:
    return 1e-4 if dtype in (numpy.float32, numpy.complex64) else 1e-12


def check(name: str, host: numpy.ndarray, chunks: Any, **kwargs: Any) -> None:
    expected = getattr(numpy.fft, name)(host, **kwargs)
    actual = getattr(dfft, name)(dnp.array(host, chunks=chunks), **kwargs)
    assert_eq(actual, expected, rtol=tolerance(expected.dtype), atol=tolerance(expected.dtype))


@pytest.mark.parametrize("chunks", CHUNKINGS)
@pytest.mark.parametrize("axis", [0, 1, -1])
@pytest.mark.parametrize("name", ONE_D)
def test_one_dimensional_along_any_axis(name: str, axis: int, chunks: Any) -> None:
    dtype = "float64" if name in REAL_INPUT else "complex128"
    check(name, make_host(name, dtype), chunks, axis=axis)


@pytest.mark.parametrize("norm", [None, "backward", "ortho", "forward"])
@pytest.mark.parametrize("n", [4, 9, 16])
@pytest.mark.parametrize("name", ONE_D)
def test_one_dimensional_n_and_norm(name: str, n: int, norm: Any) -> None:
    dtype = "float64" if name in REAL_INPUT else "complex128"
    check(name, make_host(name, dtype), (2, 3), n=n, axis=0, norm=norm)


@pytest.mark.parametrize(
    ("name", "dtype"),
    [
        (name, dtype)
        for name in ["fft", "ifft", "rfft", "irfft"]
        for dtype in ["float32", "float64", "complex64", "complex128", "int32", "bool"]
        if not (name in REAL_INPUT and dtype.startswith("complex"))  # refused: test_errors
    ],
)
def test_dtypes_are_numpy_2s(name: str, dtype: str) -> None:
    check(name, make_host(name, dtype), (3, 5))


@pytest.mark.parametrize(
    "kwargs",
    [{}, {"axes": (0,)}, {"axes": (1, 0)}, {"s": (4, 12), "axes": (0, 1)}, {"norm": "ortho"}],
)
@pytest.mark.parametrize("name", N_D)
def test_n_dimensional(name: str, kwargs: dict[str, Any]) -> None:
    if name.endswith("2") and kwargs.get("axes") == (0,):
        kwargs = {"axes": (0, 1)}  # the 2-D transforms take two axes
    dtype = "float32" if name in REAL_INPUT else "complex64"
    check(name, make_host(name, dtype), (2, 3), **kwargs)


@pytest.mark.parametrize("name", ["fftn", "rfftn", "irfftn"])
def test_three_dimensional_over_two_axes(name: str) -> None:
    dtype = "float64" if name in REAL_INPUT else "complex128"
    check(name, make_host(name, dtype, (4, 6, 8)), (2, 3, 4), axes=(0, 2))


def test_out_receives_the_result() -> None:
    host = make_host("fft", "complex128")
    out = dnp.zeros(host.shape, dtype="complex128")
    result = dfft.fft(dnp.array(host, chunks=(2, 5)), out=out)
    assert result is out
    assert_eq(out, numpy.fft.fft(host), rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize(
    "call",
    [
        lambda fft: fft.fft(ARRAY(), n=0),
        lambda fft: fft.fft(ARRAY(), axis=2),
        lambda fft: fft.ifft(ARRAY(), norm="sideways"),
        lambda fft: fft.rfft(ARRAY().astype("complex128")),
        lambda fft: fft.irfft(ARRAY()[:, :1]),
        lambda fft: fft.fftn(ARRAY(), s=(3,), axes=(0, 1)),
        lambda fft: fft.fftshift(ARRAY(), axes=3),
    ],
)
def test_errors(call: Any) -> None:
    assert_raises_like(lambda: call(numpy.fft), lambda: call(_OurArrays(dfft)))


class _OurArrays:
    """Runs a test's call with ``ARRAY()`` giving one of our arrays."""

    def __init__(self, module: Any) -> None:
        self.module = module

    def __getattr__(self, name: str) -> Any:
        function = getattr(self.module, name)
        return lambda a, *args, **kwargs: function(dnp.array(a, chunks=(2, 3)), *args, **kwargs)


def ARRAY() -> numpy.ndarray:  # noqa: N802 - reads as a placeholder in the calls above
    return make_host("fft", "float64")


@pytest.mark.parametrize("n", [1, 6, 7])
@pytest.mark.parametrize("d", [1.0, 0.25])
def test_frequencies(n: int, d: float) -> None:
    assert_eq(dfft.fftfreq(n, d), numpy.fft.fftfreq(n, d))
    assert_eq(dfft.rfftfreq(n, d), numpy.fft.rfftfreq(n, d))


@pytest.mark.parametrize("axes", [None, 0, (1,), (0, 1)])
def test_shifts(axes: Any) -> None:
    host = make_host("fft", "float64", (5, 8))
    assert_eq(dfft.fftshift(dnp.array(host, chunks=(2, 3)), axes), numpy.fft.fftshift(host, axes))
    assert_eq(dfft.ifftshift(dnp.array(host, chunks=(2, 3)), axes), numpy.fft.ifftshift(host, axes))


@pytest.mark.usefixtures("four_workers")
def test_round_trip_keeps_chunks_distributed() -> None:
    """fft2 then ifft2 of a chunked array: the graph never holds the array in one block."""
    host = make_host("fft", "complex128", (128, 128))
    spectrum = dfft.fft2(dnp.array(host, chunks=(32, 32)))
    assert max(len(c) for c in spectrum.to_dask().chunks) > 1
    assert_eq(dfft.ifft2(spectrum), numpy.fft.ifft2(numpy.fft.fft2(host)), rtol=1e-12, atol=1e-12)


def test_numpy_functions_dispatch_to_the_subpackages() -> None:
    """``numpy.fft.fft(ours)`` / ``numpy.linalg.norm(ours)`` reach our subpackages."""
    host = make_host("fft", "float64")
    result = numpy.fft.fft(dnp.array(host, chunks=(2, 3)))
    assert isinstance(result, dnp.ndarray)
    assert_eq(result, numpy.fft.fft(host), rtol=1e-12, atol=1e-12)
    norm = numpy.linalg.norm(dnp.array(host))
    assert isinstance(norm, dnp.ndarray)
    assert_eq(norm, numpy.linalg.norm(host), rtol=1e-12)


@pytest.mark.usefixtures("four_workers")
@pytest.mark.parametrize("norm", [None, "ortho", "forward"])
@pytest.mark.parametrize("dtype", ["complex128", "float32"])
@pytest.mark.parametrize("name", ["fft", "ifft"])
@pytest.mark.parametrize("length", [4096, 1200, 997])
def test_long_signals_four_step(name: str, dtype: str, norm: Any, length: int) -> None:
    """Above gpunumeric.fft-whole-axis-limit a 1-D transform is four-step (distributed);
    a prime length cannot split and is gathered: NumPy's values either way."""
    host = make_host(name, dtype, (length,))
    with dnp.config.set(fft_whole_axis_limit=1_000, min_chunk_elements=256):
        result = getattr(dfft, name)(dnp.array(host, chunks=length // 4), norm=norm)
        graph = result.__dask_graph__()  # ours: layers whatever dask.array is
    expected = getattr(numpy.fft, name)(host, norm=norm)
    assert_eq(result, expected, rtol=tolerance(expected.dtype), atol=tolerance(expected.dtype))
    fft_layers = [len(layer) for key, layer in graph.layers.items() if key.startswith(f"{name}-")]
    if length == 997:
        assert fft_layers == [1]
    else:
        assert len(fft_layers) == 2 and min(fft_layers) > 1  # two steps, each over blocks
