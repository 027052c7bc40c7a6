"""Live views, step by step against NumPy: chains of views of views, writes through each,
and every view read again after every write (DESIGN.md §1)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy
import pytest

import dask_gpunumeric as dnp
from dask_gpunumeric.testing import assert_eq, assert_raises_like

ViewMaker = Callable[[Any], Any]


def _host(shape: tuple[int, ...], dtype: str) -> numpy.ndarray:
    values = numpy.arange(1, 1 + int(numpy.prod(shape))).reshape(shape)
    if dtype == "bool":
        return values % 3 == 0
    if dtype.startswith("complex"):
        return (values + 1j * values[::-1].reshape(shape)).astype(dtype)
    return values.astype(dtype)


class Twins:
    """The same program run on NumPy and on ours; every view is kept and re-read."""

    def __init__(self, host: numpy.ndarray, chunks: Any) -> None:
        self.pairs = [(host.copy(), dnp.array(host, chunks=chunks))]

    def view(self, parent: int, make: ViewMaker, make_ours: ViewMaker | None = None) -> int:
        """A view of view ``parent``; ``make_ours`` where our spelling differs from NumPy's."""
        expected, ours = self.pairs[parent]
        self.pairs.append((make(expected), (make_ours or make)(ours)))
        self.check()
        return len(self.pairs) - 1

    def do(self, target: int, action: Callable[[Any], Any]) -> None:
        expected, ours = self.pairs[target]
        action(expected)
        action(ours)
        self.check()

    def check(self) -> None:
        for expected, ours in self.pairs:
            assert_eq(ours, expected)


def _set(index: Any, value: Any) -> Callable[[Any], None]:
    def action(array: Any) -> None:
        array[index] = value

    return action


def _add_in_place(array: Any) -> None:
    array += 1


def _fill(array: Any) -> None:
    array.fill(3)


CHAINS_2D: list[tuple[str, list[ViewMaker]]] = [
    ("slices", [lambda a: a[1:, ::2], lambda a: a[::-1, 1:]]),
    ("negative steps", [lambda a: a[::-2, ::-1], lambda a: a[:, 1::-1]]),
    ("int then slice", [lambda a: a[2], lambda a: a[::-3]]),
    ("ellipsis newaxis", [lambda a: a[..., None, 1:], lambda a: a[:, 0]]),
    ("transpose", [lambda a: a.T, lambda a: a[1:4, ::-1]]),
    ("transpose axes", [lambda a: a.transpose(1, 0), lambda a: a[None].swapaxes(0, 2)]),
    ("ravel", [lambda a: a.ravel(), lambda a: a[3:20:4]]),
    ("reshape split", [lambda a: a.reshape(2, 2, 6), lambda a: a[:, 1, ::5]]),
    ("reshape of slice", [lambda a: a[1:3], lambda a: a.reshape(3, 4)]),
    (
        "view reshaped differently",
        [lambda a: a.reshape(2, 12), lambda a: a[:, 3:9].reshape(2, 2, 3)],
    ),
]

# Each chain on two of the base chunkings (cycled), which keeps the suite within its time
# budget; the property tests draw chunkings at random.
CHUNKS_2D = [None, (2, 3), (1, 6), (3, 5)]
CASES_2D = [
    (name, chain, CHUNKS_2D[(i + k) % len(CHUNKS_2D)])
    for i, (name, chain) in enumerate(CHAINS_2D)
    for k in (0, 2)
]


@pytest.mark.parametrize(
    "name,chain,chunks", CASES_2D, ids=[f"{name}-{chunks}" for name, _, chunks in CASES_2D]
)
def test_writes_through_chain_reach_every_view(
    name: str, chain: list[ViewMaker], chunks: Any
) -> None:
    twins = Twins(_host((4, 6), "float64"), chunks)
    for make in chain:
        twins.view(len(twins.pairs) - 1, make)
    writes = [
        lambda shape: _set(..., -1.5),
        lambda shape: _add_in_place,
        lambda shape: _set(slice(None), numpy.arange(shape[-1]) * 10.0 if shape else 2.0),
        lambda shape: _fill,
    ]
    for target in range(len(twins.pairs)):  # two kinds of write per view, all kinds overall
        shape = twins.pairs[target][0].shape
        for kind in (target, target + 1):
            twins.do(target, writes[kind % len(writes)](shape))


RANK_CASES = [
    ((7,), 3, [lambda a: a[::-2], lambda a: a[1:]]),
    ((3, 4, 5), (2, 3, 2), [lambda a: a[:, ::-1].transpose(2, 0, 1), lambda a: a[1:, 1]]),
    (
        (2, 3, 4, 5),
        (1, 2, 3, 2),
        [
            lambda a: a.transpose(2, 0, 3, 1)[::-1, :, 1:4, None],
            lambda a: a.swapaxes(0, 3)[..., 0, :],
        ],
    ),
    ((2, 3, 4, 5), (2, 1, 2, 5), [lambda a: a.reshape(6, 20)[::5], lambda a: a.T]),
]
DTYPES = ["float64", "int32", "bool", "complex128"]


# Every rank with two dtypes, every dtype with two ranks (the time budget).
@pytest.mark.parametrize(
    "dtype,shape,chunks,chain",
    [(DTYPES[(i + k) % 4], *case) for i, case in enumerate(RANK_CASES) for k in (0, 1)],
    ids=[
        f"{len(c[0])}d-{i}-{DTYPES[(i + k) % 4]}" for i, c in enumerate(RANK_CASES) for k in (0, 1)
    ],
)
def test_dtypes_and_ranks(
    dtype: str, shape: tuple[int, ...], chunks: Any, chain: list[ViewMaker]
) -> None:
    twins = Twins(_host(shape, dtype), chunks)
    for make in chain:
        twins.view(len(twins.pairs) - 1, make)
    rhs = numpy.ones(1, dtype=dtype)  # broadcasts along the last axis
    for target in reversed(range(len(twins.pairs))):
        twins.do(target, _set(..., rhs * 0))
        twins.do(target, _set((0,) * (twins.pairs[target][0].ndim - 1), rhs))
    if dtype != "bool":
        twins.do(2, _add_in_place)


def test_views_taken_before_a_write_see_it() -> None:
    twins = Twins(_host((5, 5), "int32"), (2, 2))
    views = [twins.view(0, lambda a: a[1:4, 1:4]), twins.view(0, lambda a: a[::2].T)]
    twins.do(views[0], _set((1, slice(None)), numpy.array([7, 8, 9], dtype=numpy.int32)))
    twins.do(0, _set((slice(None), 2), 0))
    twins.do(views[1], _set(0, 5))


def test_result_of_an_operation_is_not_a_view() -> None:
    a = dnp.arange(6)
    b = a + 1
    c = a[1:] * 1
    a[0] = 9
    a[3] = 9
    assert_eq(b, numpy.arange(6) + 1)
    assert_eq(c, numpy.arange(1, 6))


def test_copying_reshape_does_not_write_back() -> None:
    expected = numpy.arange(24.0).reshape(4, 6)
    base = dnp.array(expected, chunks=(2, 3))
    copy_expected = expected[:, 1:4].reshape(-1)
    copy = base[:, 1:4].reshape(-1)
    assert not numpy.shares_memory(copy_expected, expected)  # the case is a NumPy copy
    copy[:] = 5
    copy_expected[:] = 5
    assert_eq(base, expected)
    assert_eq(copy, copy_expected)
    assert_raises_like(
        lambda: expected.T.reshape(24, copy=False), lambda: base.T.reshape(24, copy=False)
    )


def test_copy_of_a_view_is_not_a_view() -> None:
    base = dnp.zeros((3, 3))
    copy = base[1].copy()
    copy[0] = 4
    assert_eq(base, numpy.zeros((3, 3)))
    assert_eq(copy, numpy.array([4.0, 0.0, 0.0]))


@pytest.mark.parametrize("dtype", ["float64", "int32", "bool", "complex128"])
def test_zero_d_views(dtype: str) -> None:
    twins = Twins(_host((3, 4), dtype), (2, 2))
    # NumPy's 0-d view is a[1, 2, ...] (a[1, 2] is a scalar copy, tested below): ours too.
    point = twins.view(0, lambda a: a[1, 2, ...], lambda a: a[1, 2, ...])
    expected, ours = twins.pairs[point]
    scalar = twins.pairs[0][0][1, 2]
    for convert in (float, int, bool, complex) if dtype != "complex128" else (complex, bool):
        assert convert(ours) == convert(scalar)
        assert type(convert(ours)) is type(convert(scalar))
    twins.do(0, _set((1, 2), 1))
    assert ours.item() == expected.item()
    twins.do(point, _set(..., 0))
    twins.do(point, _set((), 1))
    assert_raises_like(lambda: expected[0], lambda: ours[0])
    assert_raises_like(
        lambda: expected.__setitem__(slice(None), 1), lambda: ours.__setitem__(slice(None), 1)
    )
    assert_eq(ours[None], expected[None])
    assert_eq(ours[...], expected[...])


def test_view_of_zero_d_through_newaxis_writes_back() -> None:
    twins = Twins(_host((3, 4), "float64"), None)
    point = twins.view(0, lambda a: a[2, -1, ...], lambda a: a[2, -1, ...])
    lifted = twins.view(point, lambda a: a[None, None])
    twins.do(lifted, _set((0, 0), 42.0))


def test_in_place_ops_through_views() -> None:
    twins = Twins(_host((6, 4), "float64"), (4, 3))
    rows = twins.view(0, lambda a: a[::2])
    column = twins.view(0, lambda a: a[:, 1])

    def multiply(array: Any) -> None:
        array *= numpy.array([1.0, 2.0, 3.0, 4.0])

    def subtract_view(array: Any) -> None:
        array -= array[::-1]

    twins.do(rows, multiply)
    twins.do(column, subtract_view)
    twins.do(0, lambda a: a.__setitem__((slice(1, 3), slice(None)), a[3:5]))


def test_empty_views() -> None:
    twins = Twins(_host((4, 5), "int32"), (2, 2))
    empty = twins.view(0, lambda a: a[2:2, ::-1])
    twins.do(empty, _set(..., 7))
    twins.view(empty, lambda a: a.T[None])


def test_real_and_imag_are_views() -> None:
    twins = Twins(_host((2, 3), "complex128"), None)
    real = twins.view(0, lambda a: a.real)
    twins.do(real, _set(0, 5.0))
    imag = twins.view(0, lambda a: a.imag)
    twins.do(imag, _add_in_place)


# Chains of views mixing components (.real, .imag) with slices, transposes and reshapes,
# on a (4, 6) complex array; every view is written twice and all are re-read each time.
COMPONENT_CHAINS: list[tuple[str, list[ViewMaker]]] = [
    ("real then slices", [lambda a: a.real, lambda a: a[1:, ::2], lambda a: a[::-1, 1]]),
    ("slice then imag", [lambda a: a[::-1, 1:], lambda a: a.imag, lambda a: a.T]),
    ("transpose then real", [lambda a: a.T, lambda a: a.real[::2], lambda a: a[None, :, -1]]),
    ("imag then reshape", [lambda a: a.imag, lambda a: a.reshape(-1), lambda a: a[3:20:4]]),
    ("reshape then imag", [lambda a: a.reshape(2, 12), lambda a: a.imag.reshape(2, 3, 4)]),
    ("real split reshape", [lambda a: a[:, 2:], lambda a: a.real.reshape(4, 2, 2)]),
    ("real copying reshape", [lambda a: a[:, 1:4], lambda a: a.real, lambda a: a.reshape(-1)]),
    ("real of real", [lambda a: a.imag[..., None], lambda a: a.real, lambda a: a.swapaxes(0, 2)]),
]
COMPONENT_CASES = [
    (name, chain, dtype, [None, (2, 3), (1, 6), (3, 5)][i % 4])
    for i, (name, chain) in enumerate(COMPONENT_CHAINS)
    for dtype in ("complex64", "complex128")
]


@pytest.mark.parametrize(
    "name,chain,dtype,chunks",
    COMPONENT_CASES,
    ids=[f"{name}-{dtype}-{chunks}" for name, _, dtype, chunks in COMPONENT_CASES],
)
def test_writes_through_component_chains(
    name: str, chain: list[ViewMaker], dtype: str, chunks: Any
) -> None:
    twins = Twins(_host((4, 6), dtype), chunks)
    for make in chain:
        twins.view(len(twins.pairs) - 1, make)
    writes = [
        lambda shape: _set(..., -1.5),
        lambda shape: _add_in_place,
        lambda shape: _set(slice(None), numpy.arange(shape[-1]) * 10.0 if shape else 2.0),
        lambda shape: _fill,
    ]
    for target in range(len(twins.pairs)):
        shape = twins.pairs[target][0].shape
        for kind in (target, target + 1):
            twins.do(target, writes[kind % len(writes)](shape))


@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
def test_component_views_see_later_writes_to_the_base(dtype: str) -> None:
    twins = Twins(_host((3, 4), dtype), (2, 3))
    real = twins.view(0, lambda a: a.real)
    imag = twins.view(0, lambda a: a.imag)
    twins.view(real, lambda a: a.T[::2])
    twins.do(0, _set((1, slice(None)), 2 - 3j))
    twins.do(0, _add_in_place)
    twins.do(real, _set((slice(None), 0), numpy.array([7.0, 8.0, 9.0])))
    twins.do(imag, lambda a: a.__isub__(a[::-1]))
    twins.do(0, lambda a: a.__imul__(1j))


def test_component_of_a_view_writes_into_the_base() -> None:
    twins = Twins(_host((4, 5), "complex128"), (3, 2))
    window = twins.view(0, lambda a: a[1:, ::2].T)
    real = twins.view(window, lambda a: a.real)
    imag = twins.view(window, lambda a: a.imag)
    twins.do(real, _set((slice(None), 1), -4.0))
    twins.do(imag, _set((0, slice(None, None, -1)), numpy.array([1.0, 2.0, 3.0])))

    def through_name(array: Any) -> None:
        r = array.real
        r[0] = 5

    twins.do(window, through_name)


@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
def test_advanced_index_writes_through_components(dtype: str) -> None:
    twins = Twins(_host((3, 4), dtype), (2, 3))
    real = twins.view(0, lambda a: a.real)
    imag = twins.view(0, lambda a: a.imag)
    transposed = twins.view(0, lambda a: a.T.real)
    twins.do(real, _set([0, 2], 1.0))
    twins.do(imag, lambda a: a.__setitem__(a > 5, -1.0))
    twins.do(transposed, _set((1, [2, 0]), 7.0))
    twins.do(0, lambda a: a[1].imag.__setitem__(a[1].real > 4, 0.0))


@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
def test_component_dtypes(dtype: str) -> None:
    host = _host((2, 3), dtype)
    ours = dnp.array(host)
    for part in ("real", "imag"):
        assert getattr(ours, part).dtype == getattr(host, part).dtype
        assert_eq(getattr(ours, part), getattr(host, part))
        assert_eq(getattr(dnp, part)(ours), getattr(numpy, part)(host))


@pytest.mark.parametrize("part", ["real", "imag"])
def test_writing_one_component_keeps_the_other_exactly(part: str) -> None:
    """The other component is copied bit for bit: infinities stay (``re + 1j * im`` would
    make ``inf`` imaginary parts NaN real parts), NaN payloads and signed zeros too."""
    special = numpy.array([numpy.inf, -numpy.inf, numpy.nan, -0.0, 0.0, 1e-310])
    host = numpy.empty((2, 6), dtype=numpy.complex128)
    host.real, host.imag = special, special[::-1]
    ours = dnp.array(host, chunks=(1, 4))
    getattr(host, part)[:, 1:] = 2.5
    getattr(ours, part)[:, 1:] = 2.5
    assert_eq(ours, host)
    assert (ours.compute().view(numpy.uint64) == host.view(numpy.uint64)).all()
    getattr(host, part)[0] = special[::-1]
    getattr(ours, part)[0] = special[::-1]
    assert (ours.compute().view(numpy.uint64) == host.view(numpy.uint64)).all()


def test_numpy_functions_give_the_views() -> None:
    twins = Twins(_host((3, 2), "complex64"), None)
    real = twins.view(0, numpy.real)
    imag = twins.view(0, numpy.imag, dnp.imag)
    twins.do(real, _set(1, 6.0))
    twins.do(imag, _set((slice(None), 0), -1.0))


@pytest.mark.parametrize("dtype", ["float64", "int32", "bool", "float32"])
def test_real_of_a_real_array_is_itself(dtype: str) -> None:
    twins = Twins(_host((3, 4), dtype), (2, 2))
    expected, ours = twins.pairs[0]
    assert ours.real is ours
    assert numpy.real(ours) is ours
    real = twins.view(0, lambda a: a.real[1:])
    twins.do(real, _set(0, 1))
    twins.view(real, lambda a: a.T.real)


@pytest.mark.parametrize("dtype", ["float64", "int32", "bool", "complex64"])
def test_imag_of_a_real_array_is_read_only_zeros(dtype: str) -> None:
    host = _host((3, 4), dtype)
    ours = dnp.array(host, chunks=(2, 2))
    if dtype.startswith("complex"):  # the imaginary parts of a real view
        host, ours = host.real, ours.real
    expected_zeros, zeros = host.imag, ours.imag
    assert_eq(zeros, expected_zeros)
    one = numpy.ones((), dtype=host.dtype)
    writes: list[Callable[[Any], Any]] = [
        _set(0, one),
        _set((slice(1, None), slice(None)), one),
        _fill,
        lambda a: a.__iadd__(one),
        lambda a: a[::2].__setitem__(..., one),
        lambda a: a.T.__setitem__(0, one),
        lambda a: a.reshape(-1).__setitem__(0, one),
        lambda a: numpy.add(a, one, out=a),
    ]
    for write in writes:
        assert_raises_like(lambda: write(expected_zeros), lambda: write(zeros))  # noqa: B023
    host[...] = one  # the zeros are a new array: writes to the base do not change them
    ours[...] = one
    assert_eq(zeros, expected_zeros)
    assert_eq(ours, host)
    assert_eq(zeros.imag, expected_zeros.imag)
    copy = zeros + 1  # results computed from it are ordinary arrays
    copy[0] = 0
    assert_eq(copy, numpy.where(numpy.arange(3)[:, None] == 0, 0, expected_zeros + 1))


def test_integer_write_through_reshape_view_lands_in_its_row() -> None:
    """Regression (found by hypothesis): an all-integer index on the layout stand-in gave
    NumPy a scalar copy, so the write was mapped to the wrong row of the store."""
    host = numpy.zeros((2, 1))
    ours = dnp.array(host, chunks=(1, 1))
    host_view, our_view = host.reshape((2,)), ours.reshape((2,))
    for view in (host_view, our_view):
        view[...] += 1
        view[1] = 0
    assert_eq(ours, host)
    assert_eq(our_view, host_view)


@pytest.mark.parametrize(
    "write",
    [
        lambda z: z.__setitem__(100, 1.0),  # out of bounds: still the read-only error first
        lambda z: z.__setitem__([0, 100], 1.0),
        lambda z: z.__setitem__(0, "not a number"),
        lambda z: z[1:].__setitem__(0, 1.0),
    ],
)
def test_read_only_imag_refuses_before_checking_index_or_value(write) -> None:
    host = numpy.arange(4.0)
    ours = dnp.array(host, chunks=2)
    assert_raises_like(lambda: write(host.imag), lambda: write(ours.imag))
    assert_eq(ours.imag, host.imag)


def test_integer_index_gives_a_copy_not_a_view() -> None:
    """NumPy's ``a[2]`` is a scalar, a copy: changing it never reaches ``a``."""
    host = numpy.arange(6.0)
    ours = dnp.array(host, chunks=3)
    host_element, our_element = host[2], ours[2]
    host_element += 1000
    our_element += 1000
    assert_eq(ours, host)
    assert float(our_element) == float(host_element)
    for row in ours.reshape(2, 3)[0]:  # iteration over a 1-d array yields copies too
        row *= 10
    assert_eq(ours, host)


def test_asarray_copy_true_copies() -> None:
    ours = dnp.arange(4)
    copied = dnp.asarray(ours, copy=True)
    copied[0] = 7
    assert_eq(ours, numpy.arange(4))
    assert dnp.asarray(ours) is ours


def test_host_operands_are_captured_at_the_call() -> None:
    host = numpy.ones(3)
    result = dnp.add(host, 1)
    assigned = dnp.zeros(3)
    assigned[...] = host
    host[:] = 100
    assert_eq(result, numpy.full(3, 2.0))
    assert_eq(assigned, numpy.ones(3))
