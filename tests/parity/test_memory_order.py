"""Memory orders (``order='C'/'F'/'A'/'K'``) against NumPy: the values each order reads,
the layout each copy or creation makes (``flags``, read back by ``ravel('K')``), the views
NumPy gives and the copies it makes, its errors for a bad order, and no gathering."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy
import pytest

import dask_gpunumeric as dnp
from dask_gpunumeric.testing import assert_eq, numbered_values

# (shape, chunks): 0-d, 1-d, 2-d and 3-d, each cut into several blocks where it can be.
SHAPES = [((), None), ((7,), 3), ((4, 6), (3, 4)), ((2, 3, 4), (1, 2, 3))]

# Views of a (4, 6) or (2, 3, 4) array whose layouts differ: C, F (a transpose), strided,
# reversed, permuted with a new axis, and broadcast (strides of 0).
VIEWS: dict[str, Callable[[Any, Any], Any]] = {
    "whole": lambda xp, a: a,
    "transpose": lambda xp, a: a.T,
    "strided": lambda xp, a: a[..., ::2],
    "reversed transpose": lambda xp, a: a[::-1, 1:].T,
    "new axis, moved": lambda xp, a: xp.moveaxis(a[:, None], 0, -1),
    "broadcast": lambda xp, a: xp.broadcast_to(a[:1], (3, *a.shape[1:])),
    "first rows": lambda xp, a: a[:, :1],
}


def _pair(shape: tuple[int, ...], chunks: Any) -> tuple[numpy.ndarray, Any]:
    host = numbered_values(shape)
    return host, dnp.array(host, chunks=chunks)


def assert_same_layout(ours: Any, expected: numpy.ndarray) -> None:
    """Values, and the layout NumPy's copy has: its flags and its ``'K'`` reading."""
    assert_eq(ours, expected)
    flags = (ours.flags.c_contiguous, ours.flags.f_contiguous)
    assert flags == (expected.flags.c_contiguous, expected.flags.f_contiguous)
    assert_eq(ours.ravel(order="K"), expected.ravel(order="K"))


@pytest.mark.parametrize(("shape", "chunks"), SHAPES)
@pytest.mark.parametrize("order", ["C", "F", "A", None])
def test_reshape_reads_in_order(shape: tuple[int, ...], chunks: Any, order: Any) -> None:
    host, ours = _pair(shape, chunks)
    size = host.size
    for target in [(size,), (-1, 1), tuple(reversed(shape)), (1, size, 1)]:
        assert_eq(ours.reshape(target, order=order), host.reshape(target, order=order))
        assert_eq(dnp.reshape(ours, target, order=order), numpy.reshape(host, target, order=order))
        assert_eq(ours.T.reshape(target, order=order), host.T.reshape(target, order=order))


def test_the_issue_example_flatten_in_fortran_order() -> None:
    host = numpy.arange(24.0).reshape(4, 6)
    ours = dnp.arange(24.0).reshape(4, 6)
    assert_eq(ours.flatten(order="F"), host.flatten(order="F"))


@pytest.mark.parametrize("view", sorted(VIEWS))
@pytest.mark.parametrize("shape", [(4, 6), (2, 3, 4)])
@pytest.mark.parametrize("order", ["C", "F", "A", "K", None])
def test_ravel_and_flatten_read_the_view_as_numpy_does(
    view: str, shape: tuple[int, ...], order: Any
) -> None:
    host, ours = _pair(shape, 2)
    host_view, our_view = VIEWS[view](numpy, host), VIEWS[view](dnp, ours)
    assert_eq(our_view.ravel(order=order), host_view.ravel(order=order))
    assert_eq(dnp.ravel(our_view, order), numpy.ravel(host_view, order))
    assert_eq(our_view.flatten(order=order), host_view.flatten(order=order))


@pytest.mark.parametrize(("shape", "chunks"), SHAPES)
@pytest.mark.parametrize("order", ["C", "F", "A", "K"])
def test_ravel_of_each_shape(shape: tuple[int, ...], chunks: Any, order: Any) -> None:
    host, ours = _pair(shape, chunks)
    assert_eq(ours.ravel(order), host.ravel(order))
    assert_eq(ours.T.ravel(order), host.T.ravel(order))
    assert_eq(ours.flatten(order), host.flatten(order))


@pytest.mark.parametrize(("shape", "chunks"), SHAPES)
@pytest.mark.parametrize("order", ["C", "F"])
def test_creation_functions_in_order(shape: tuple[int, ...], chunks: Any, order: Any) -> None:
    calls: list[Callable[[Any], Any]] = [
        lambda xp: xp.zeros(shape, order=order),
        lambda xp: xp.ones(shape, dtype="int32", order=order),
        lambda xp: xp.full(shape, 2.5, order=order),
        lambda xp: xp.full(shape, numpy.arange(shape[-1]) if shape else 3, order=order),
    ]
    for call in calls:
        assert_same_layout(call(dnp), call(numpy))
    empty = dnp.empty(shape, order=order, chunks=chunks)
    expected = numpy.empty(shape, order=order)
    assert empty.shape == expected.shape and empty.dtype == expected.dtype
    assert empty.flags.f_contiguous == expected.flags.f_contiguous


def test_a_fortran_array_has_the_blocks_of_a_c_array() -> None:
    """Made as its transpose, it is cut as a C array of its shape: elementwise work with one
    moves no block."""
    fortran = dnp.zeros((40, 60), order="F", chunks=(10, 20))
    assert fortran.to_dask().chunks == dnp.zeros((40, 60), chunks=(10, 20)).to_dask().chunks
    with dnp.config.set(client_work_bytes=0):  # blocks, not values computed when built
        default = dnp.ones((300, 50), order="F")
        assert default.to_dask().chunks == dnp.ones((300, 50)).to_dask().chunks


@pytest.mark.parametrize(("n", "m", "k"), [(3, None, 0), (3, 5, 1), (5, 3, -2), (4, 4, 3)])
@pytest.mark.parametrize("order", ["C", "F"])
def test_eye_in_order(n: int, m: int | None, k: int, order: Any) -> None:
    ours = dnp.eye(n, m, k, order=order, chunks=2)
    assert_same_layout(ours, numpy.eye(n, m, k, order=order))


@pytest.mark.parametrize(("shape", "chunks"), SHAPES)
@pytest.mark.parametrize("order", ["C", "F", "A"])
@pytest.mark.parametrize("transposed", [False, True])
def test_copies_in_order(shape: tuple[int, ...], chunks: Any, order: Any, transposed: bool) -> None:
    host, ours = _pair(shape, chunks)
    if transposed:
        host, ours = host.T, ours.T
    assert_same_layout(ours.copy(order=order), host.copy(order=order))
    assert_same_layout(dnp.copy(ours, order=order), numpy.copy(host, order=order))
    assert_same_layout(dnp.array(ours, order=order), numpy.array(host, order=order))
    assert_same_layout(dnp.array(host, order=order), numpy.array(host, order=order))
    assert_same_layout(dnp.asarray(ours, order=order), numpy.asarray(host, order=order))
    assert_same_layout(dnp.asarray(host, order=order), numpy.asarray(host, order=order))
    assert_same_layout(ours.astype("float32", order=order), host.astype("float32", order=order))
    for like in (dnp.zeros_like, dnp.ones_like, dnp.empty_like):
        made = like(ours, order=order)
        expected = getattr(numpy, like.__name__)(host, order=order)
        assert made.flags.f_contiguous == expected.flags.f_contiguous
    assert_same_layout(dnp.full_like(ours, 4, order=order), numpy.full_like(host, 4, order=order))


def test_the_layout_functions() -> None:
    host, ours = _pair((4, 6), (3, 4))
    for make in ("asfortranarray", "ascontiguousarray"):
        for source, expected_source in ((ours, host), (ours.T, host.T)):
            made = getattr(dnp, make)(source)
            assert_same_layout(made, getattr(numpy, make)(expected_source))
    assert not dnp.isfortran(ours) and dnp.isfortran(ours.T)
    assert dnp.isfortran(dnp.zeros((2, 3), order="F"))
    assert_same_layout(dnp.require(ours, requirements="F"), numpy.require(host, requirements="F"))
    assert_same_layout(
        dnp.require(ours.T, requirements=["C_CONTIGUOUS"]),
        numpy.require(host.T, requirements=["C_CONTIGUOUS"]),
    )


def test_asarray_passes_through_an_array_already_in_order() -> None:
    ours = dnp.ones((4, 6), chunks=(2, 3))
    assert dnp.asarray(ours, order="C") is ours
    transposed = ours.T
    assert dnp.asarray(transposed, order="F") is transposed
    fortran = dnp.asfortranarray(ours)
    assert dnp.asarray(fortran, order="F") is fortran
    assert dnp.asarray(fortran, order="A") is fortran
    assert dnp.asarray(fortran, order="C") is not fortran
    assert dnp.array(fortran, copy=None, order="K") is fortran
    with pytest.raises(ValueError, match="Unable to avoid copy"):
        dnp.array(fortran, copy=False, order="C")


def test_asarray_in_any_order_passes_a_strided_view_through() -> None:
    """NumPy's ``asarray(order='A')`` (and ``'K'``) returns a non-contiguous view itself:
    writes to the result reach the base."""
    host, ours = _pair((4, 6), (2, 3))
    for order in ("A", "K"):
        host_view, our_view = host[:, ::2], ours[:, ::2]
        assert numpy.asarray(host_view, order=order) is host_view
        assert dnp.asarray(our_view, order=order) is our_view
        assert dnp.array(our_view, copy=False, order=order) is our_view
        dnp.asarray(our_view, order=order)[0, 0] = -7.0
        numpy.asarray(host_view, order=order)[0, 0] = -7.0
        assert_eq(ours, host)


def test_a_read_only_fortran_array_keeps_its_views_read_only() -> None:
    """A Fortran-ordered array owns its data, as NumPy's does: set read-only, a view of it
    cannot be made writeable (NumPy's ``ValueError``)."""
    host, ours = numpy.zeros((3, 4), order="F"), dnp.zeros((3, 4), order="F")
    assert ours.flags.owndata == host.flags.owndata
    for array in (host, ours):
        array.setflags(write=False)
    with pytest.raises(ValueError, match="cannot set WRITEABLE flag to True"):
        host[1:].setflags(write=True)
    with pytest.raises(ValueError, match="cannot set WRITEABLE flag to True"):
        ours[1:].setflags(write=True)
    assert_eq(ours, host)


@pytest.mark.parametrize("requirement", ["W", "O", "E", ["F", "O"]])
def test_require_copies_what_the_requirements_refuse(requirement: Any) -> None:
    """``require`` with ``'W'``/``'O'`` copies a read-only array or a view (``'E'``
    always): the result's flags are NumPy's."""
    host, ours = _pair((4, 6), (2, 3))
    for array in (host, ours):
        array.setflags(write=False)
    for host_input, our_input in ((host, ours), (host[1:], ours[1:])):
        expected = numpy.require(host_input, requirements=requirement)
        result = dnp.require(our_input, requirements=requirement)
        for flag in ("writeable", "owndata", "f_contiguous", "c_contiguous"):
            assert getattr(result.flags, flag) == getattr(expected.flags, flag), flag
        assert_eq(result, expected)


def test_reshape_in_fortran_order_is_a_view_where_numpy_gives_one() -> None:
    host, ours = _pair((4, 6), (3, 4))
    # A Fortran array reshaped in Fortran order: a view, writes reach the base.
    host_view, our_view = host.T.reshape((3, 8), order="F"), ours.T.reshape((3, 8), order="F")
    assert numpy.shares_memory(host_view, host)
    host_view[0] = -1
    our_view[0] = -1
    assert_eq(ours, host)
    # A C array in Fortran order: NumPy copies, and so do we (writes stay in the copy).
    host_copy, our_copy = host.reshape((3, 8), order="F"), ours.reshape((3, 8), order="F")
    assert not numpy.shares_memory(host_copy, host)
    host_copy[...] = 0
    our_copy[...] = 0
    assert_eq(ours, host)
    assert our_copy.flags.f_contiguous == host_copy.flags.f_contiguous
    with pytest.raises(ValueError, match="Unable to avoid creating a copy while reshaping"):
        ours.reshape((3, 8), order="F", copy=False)
    numpy.testing.assert_equal(
        ours.T.reshape(24, order="A", copy=False).compute(), host.T.ravel("A")
    )


def test_ravel_copies_where_numpy_copies() -> None:
    host, ours = _pair((4, 6), (3, 4))
    for make in (lambda a: a.ravel(), lambda a: a.T.ravel("F"), lambda a: a.T.ravel("K")):
        our_view, host_view = make(ours), make(host)
        assert numpy.shares_memory(host_view, host)
        host_view[0] = -5
        our_view[0] = -5
    for make in (
        lambda a: a[:, :1].ravel(),
        lambda a: a.ravel("F"),
        lambda a: a[:, ::2].ravel("K"),
    ):
        our_copy, host_copy = make(ours), make(host)
        assert not numpy.shares_memory(host_copy, host)
        host_copy[0] = -7
        our_copy[0] = -7
    assert_eq(ours, host)


def test_writes_through_a_fortran_array() -> None:
    host = numpy.zeros((4, 6), order="F")
    ours = dnp.zeros((4, 6), order="F", chunks=(3, 4))
    for target in (host, ours):
        target[1:3, ::2] = 5.0
        target[:, 5] += 1.0
    assert_same_layout(ours, host)


BAD_ORDERS: list[tuple[str, Callable[[Any, Any, Any], Any]]] = [
    ("reshape", lambda xp, a, o: a.reshape((6, 4), order=o)),
    ("np.reshape", lambda xp, a, o: xp.reshape(a, (6, 4), order=o)),
    ("ravel", lambda xp, a, o: a.ravel(order=o)),
    ("np.ravel", lambda xp, a, o: xp.ravel(a, order=o)),
    ("flatten", lambda xp, a, o: a.flatten(order=o)),
    ("copy", lambda xp, a, o: a.copy(order=o)),
    ("np.copy", lambda xp, a, o: xp.copy(a, order=o)),
    ("array", lambda xp, a, o: xp.array(a, order=o)),
    ("asarray", lambda xp, a, o: xp.asarray(a, order=o)),
    ("astype", lambda xp, a, o: a.astype("float32", order=o)),
    ("zeros", lambda xp, a, o: xp.zeros(3, order=o)),
    ("ones", lambda xp, a, o: xp.ones(3, order=o)),
    ("empty", lambda xp, a, o: xp.empty(3, order=o)),
    ("full", lambda xp, a, o: xp.full(3, 1.0, order=o)),
    ("eye", lambda xp, a, o: xp.eye(3, order=o)),
    ("zeros_like", lambda xp, a, o: xp.zeros_like(a, order=o)),
    ("full_like", lambda xp, a, o: xp.full_like(a, 2, order=o)),
]


@pytest.mark.parametrize("bad", ["X", "fortran", "", 1, "K", "A"], ids=repr)
@pytest.mark.parametrize(("name", "call"), BAD_ORDERS, ids=[name for name, _ in BAD_ORDERS])
def test_errors_for_an_order_are_numpys(name: str, call: Callable[..., Any], bad: Any) -> None:
    host, ours = _pair((4, 6), 2)
    try:
        call(numpy, host, bad)
    except (TypeError, ValueError) as error:
        with pytest.raises(type(error)) as ours_raised:
            call(dnp, ours, bad)
        assert str(ours_raised.value) == str(error)
    else:
        call(dnp, ours, bad)  # NumPy takes it ("K", "A" where allowed): so do we


def test_orders_gather_nothing(scheduler_runs: list[str]) -> None:
    """Every order is a view or a lazy copy: nothing is computed until the value is read,
    and the results keep several blocks."""
    host, ours = _pair((12, 10), (4, 5))
    made = {
        "reshape F": ours.reshape((5, 24), order="F"),
        "ravel F": ours.ravel(order="F"),
        "ravel K": ours[:, ::2].T.ravel(order="K"),
        "flatten F": ours.flatten(order="F"),
        "copy F": ours.copy(order="F"),
        "asarray F": dnp.asarray(ours, order="F"),
        "zeros F": dnp.zeros((12, 10), order="F", chunks=(4, 5)),
        "asfortranarray": dnp.asfortranarray(ours),
    }
    # numblocks: dask's expression arrays (array.query-planning) have no npartitions
    blocks = {name: math.prod(array.to_dask().numblocks) for name, array in made.items()}
    assert scheduler_runs == []
    assert all(count > 1 for count in blocks.values()), blocks
    expected = {
        "reshape F": host.reshape((5, 24), order="F"),
        "ravel F": host.ravel(order="F"),
        "ravel K": host[:, ::2].T.ravel(order="K"),
        "flatten F": host.flatten(order="F"),
        "copy F": host.copy(order="F"),
        "asarray F": numpy.asarray(host, order="F"),
        "zeros F": numpy.zeros((12, 10), order="F"),
        "asfortranarray": numpy.asfortranarray(host),
    }
    for name, array in made.items():
        scheduler_runs.clear()
        assert_eq(array, expected[name])
        assert "persist" not in scheduler_runs, (
            name,
            scheduler_runs,
        )  # one computation of the result itself
