"""Array methods against NumPy on the same input: ``setflags`` and settable ``flags``
(read-only arrays refuse every write, views inherit it), ``flat``, ``tobytes`` and ``view``.

Each case runs the same program on a NumPy array and on ours (several blocks: small
``chunks=``; a large one too, lowered to dask, where the route differs), and compares
values, dtypes, shapes, and the exception's type and message."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy
import pytest

import dask_gpunumeric as dnp
from dask_gpunumeric.testing import assert_eq, assert_raises_like, numbered_values

Program = Callable[[Any, Any], Any]


def _twins(shape: tuple[int, ...], chunks: Any = 2, dtype: str = "float64") -> tuple[Any, Any]:
    host = numbered_values(shape, dtype)
    return host.copy(), dnp.array(host, chunks=chunks)


def _same_error(program: Program, expected: Any, ours: Any) -> None:
    """``program(module, array)`` raises on both, the same class and message."""
    error = assert_raises_like(lambda: program(numpy, expected), lambda: program(dnp, ours))
    try:
        program(numpy, expected)
    except Exception as numpy_error:  # noqa: BLE001 - the oracle's message, whatever it is
        assert str(error) == str(numpy_error)


# -- read-only arrays: setflags(write=False), flags.writeable = False ------------------------


def _iadd(m: Any, a: Any) -> None:
    a += 1


# Every route a write takes, each with the message NumPy gives for it.
WRITES: dict[str, Program] = {
    "setitem": lambda m, a: a.__setitem__((0, slice(None)), 5.0),
    "element": lambda m, a: a.__setitem__((1, 2, 0), 5.0),
    "integer array": lambda m, a: a.__setitem__(([0, 1],), 5.0),
    "mask": lambda m, a: a.__setitem__(a > 3, 5.0),
    "in place": _iadd,
    "ufunc out": lambda m, a: m.multiply(a, 2, out=a),
    "reduction out": lambda m, a: m.sum(a, axis=0, out=a[0]),
    "cumsum out": lambda m, a: m.cumsum(a, axis=1, out=a),
    "clip out": lambda m, a: m.clip(a, 2, 4, out=a),
    "matmul out": lambda m, a: m.matmul(a, a.transpose(0, 2, 1)[..., :2], out=a),
    "copyto": lambda m, a: m.copyto(a, 7.0),
    "fill": lambda m, a: a.fill(7.0),
    "put": lambda m, a: m.put(a, [0, 3], [1.0, 2.0]),
    "put method": lambda m, a: a.put([0, 3], [1.0, 2.0]),
    "putmask": lambda m, a: m.putmask(a, a > 3, 0.0),
    "place": lambda m, a: m.place(a, a > 3, [0.0]),
    "put_along_axis": lambda m, a: m.put_along_axis(a, m.zeros((2, 3, 1), int), 1.0, axis=2),
    "sort": lambda m, a: a.sort(axis=1),
    "partition": lambda m, a: a.partition(1, axis=1),
    "fill_diagonal": lambda m, a: m.fill_diagonal(a[:2, :2, 0], 9.0),
    "real": lambda m, a: a.real.__setitem__(0, 1.0),
}

MAKE_READ_ONLY: dict[str, Callable[[Any], None]] = {
    "setflags": lambda a: a.setflags(write=False),
    "flags.writeable": lambda a: setattr(a.flags, "writeable", False),
    "flags['W']": lambda a: a.flags.__setitem__("W", False),
}


@pytest.mark.parametrize("how", MAKE_READ_ONLY)
@pytest.mark.parametrize("write", WRITES)
def test_a_read_only_array_refuses_every_write(how: str, write: str) -> None:
    expected, ours = _twins((2, 3, 2), chunks=(1, 2, 1))
    MAKE_READ_ONLY[how](expected)
    MAKE_READ_ONLY[how](ours)
    assert ours.flags.writeable is False and ours.flags["W"] is False
    _same_error(WRITES[write], expected, ours)
    assert_eq(ours, expected)


@pytest.mark.parametrize("shape", [(), (7,), (2, 3, 4)])
def test_read_only_arrays_of_any_rank_refuse_writes_and_keep_their_values(
    shape: tuple[int, ...],
) -> None:
    expected, ours = _twins(shape)
    for array in (expected, ours):
        array.setflags(write=False)
    _same_error(lambda m, a: a.__setitem__(..., 0.0), expected, ours)
    _same_error(_iadd, expected, ours)
    assert_eq(ours, expected)
    assert_eq(ours + 1, expected + 1)  # reading is unaffected


def test_views_made_after_are_read_only_views_made_before_still_write() -> None:
    expected, ours = _twins((4, 6), chunks=(3, 4))
    before = (expected[1:, ::2], ours[1:, ::2])
    for array in (expected, ours):
        array.flags.writeable = False
    makers: list[Callable[[Any], Any]] = [
        lambda a: a[1:3],
        lambda a: a.T,
        lambda a: a[..., None],
        lambda a: a.reshape(2, 12),
        lambda a: a.ravel(),
        lambda a: a[2, ...],
        lambda a: a[1:][::-1, 1:][0],
    ]
    for make in makers:
        view_expected, view_ours = make(expected), make(ours)
        assert view_ours.flags.writeable is view_expected.flags.writeable is False
        _same_error(lambda m, v: v.__setitem__(..., 0.0), view_expected, view_ours)
        _same_error(lambda m, v: v.setflags(write=True), view_expected, view_ours)
    for view in before:
        assert view.flags.writeable
        view[0] = -1.0  # NumPy's views keep the flag they were made with
    assert_eq(ours, expected)
    assert_eq(before[1], before[0])


def test_copies_of_a_read_only_array_are_writeable() -> None:
    expected, ours = _twins((3, 4))
    for array in (expected, ours):
        array.setflags(write=False)
    makers: list[Callable[[Any], Any]] = [
        lambda a: a.copy(),
        lambda a: a + 0,
        lambda a: a[[0, 2]],
        lambda a: a.astype(numpy.int32),
        lambda a: a.flatten(),
        lambda a: a.T.reshape(12),  # not a view: a copy
    ]
    for make in makers:
        copy_expected, copy_ours = make(expected), make(ours)
        assert copy_ours.flags.writeable and copy_expected.flags.writeable
        copy_expected[...] = 1
        copy_ours[...] = 1
        assert_eq(copy_ours, copy_expected)
    assert_eq(ours, expected)


def test_writeable_again_where_numpy_allows_it() -> None:
    expected, ours = _twins((5,))
    pairs = [(expected, ours)]
    earlier = (expected[:2], ours[:2])  # made while the base is writeable
    for array in (expected, ours):
        array.flags.writeable = False
    pairs.append((expected[1:], ours[1:]))  # read-only, of a read-only base
    # A view of a read-only base, even a writeable one, cannot be made writeable.
    _same_error(lambda m, v: v.setflags(write=True), *pairs[1])
    _same_error(lambda m, v: v.setflags(write=True), *earlier)
    assert earlier[1].flags.writeable  # and the refused call changed nothing
    # The base can, and then its views can too.
    for array in (expected, ours):
        array.flags.writeable = True
        array[0] = 10.0
    for view_expected, view_ours in pairs[1:]:
        assert view_ours.flags.writeable is view_expected.flags.writeable is False
        view_expected.setflags(write=True)
        view_ours.setflags(write=True)
        view_expected[0] += 100
        view_ours[0] += 100
    assert_eq(ours, expected)


def test_a_read_only_view_leaves_its_base_writeable() -> None:
    expected, ours = _twins((3, 4), chunks=(2, 3))
    views = (expected[1:], ours[1:])
    for view in views:
        view.setflags(write=False)
    _same_error(lambda m, v: v.__setitem__(0, 1.0), *views)
    expected[1, 1] = -5.0
    ours[1, 1] = -5.0
    assert_eq(views[1], views[0])  # still a live view
    for view in views:
        view.setflags(write=True)  # its base is writeable
        view[0, 0] = -7.0
    assert_eq(ours, expected)


def test_a_flags_object_sets_the_array_it_came_from() -> None:
    expected, ours = _twins((3,))
    flags_expected, flags_ours = expected.flags, ours.flags
    flags_expected.writeable = False
    flags_ours.writeable = False
    assert flags_ours.writeable is flags_expected.writeable is True  # NumPy's: a snapshot
    assert ours.flags.writeable is expected.flags.writeable is False
    flags_expected["WRITEABLE"] = True
    flags_ours["WRITEABLE"] = True
    ours[0] = expected[0] = 3.0
    assert_eq(ours, expected)


SET_FLAGS: dict[str, Program] = {
    "c_contiguous": lambda m, a: setattr(a.flags, "c_contiguous", True),
    "f_contiguous": lambda m, a: setattr(a.flags, "f_contiguous", False),
    "owndata": lambda m, a: setattr(a.flags, "owndata", False),
    "upper case": lambda m, a: setattr(a.flags, "WRITEABLE", False),
    "unknown attribute": lambda m, a: setattr(a.flags, "nonsense", False),
    "item C": lambda m, a: a.flags.__setitem__("C", True),
    "item O": lambda m, a: a.flags.__setitem__("OWNDATA", True),
    "unknown item": lambda m, a: a.flags.__setitem__("NONSENSE", True),
    "writebackifcopy": lambda m, a: setattr(a.flags, "writebackifcopy", True),
    "uic": lambda m, a: a.setflags(write=False, uic=True),
    "four arguments": lambda m, a: a.setflags(True, None, None, None),
}


@pytest.mark.parametrize("name", SET_FLAGS)
def test_flags_numpy_does_not_let_be_set(name: str) -> None:
    expected, ours = _twins((2, 3))
    error = assert_raises_like(
        lambda: SET_FLAGS[name](numpy, expected), lambda: SET_FLAGS[name](dnp, ours)
    )
    if isinstance(error, ValueError):
        _same_error(SET_FLAGS[name], expected, ours)
    assert ours.flags.writeable  # a refused setflags changes nothing
    assert ours.flags == ours.flags and ours.flags.c_contiguous


def test_flags_numpy_lets_be_set_change_nothing_else() -> None:
    expected, ours = _twins((2, 3))
    for array in (expected, ours):
        array.flags.aligned = True
        array.flags.writebackifcopy = False
        array.setflags(align=True, uic=False)
        array.setflags()
        array[0, 0] = 9.0
    assert_eq(ours, expected)
    assert ours.flags["A"] is expected.flags["A"] is True


def test_imag_of_a_real_array_can_be_made_writeable_as_in_numpy() -> None:
    expected, ours = _twins((4,))
    imaginary = (expected.imag, ours.imag)
    for part in imaginary:
        assert not part.flags.writeable
        part.setflags(write=True)
        part[1:] = 2.0
    assert_eq(imaginary[1], imaginary[0])
    assert_eq(ours, expected)


def test_owndata_is_false_for_every_view() -> None:
    expected, ours = _twins((3, 4))
    for make in (lambda a: a, lambda a: a[...], lambda a: a[:], lambda a: a.T, lambda a: a[1]):
        assert make(ours).flags.owndata is make(expected).flags.owndata


def test_broadcast_and_diagonal_views_cannot_be_made_writeable() -> None:
    # Differences from NumPy: NumPy lets them be written (memory they share with their
    # base); ours are computed views that cannot be written through.
    ours = dnp.arange(9.0).reshape(3, 3)
    for view in (dnp.broadcast_to(ours[0], (2, 3)), ours.diagonal()):
        with pytest.raises(ValueError, match="cannot set WRITEABLE flag to True"):
            view.setflags(write=True)
        assert not view.flags.writeable
        view.setflags(write=False)  # clearing it is fine


# -- a.flat ------------------------------------------------------------------------------

# Shapes and chunks: 0-d, 1-d, 3-d in several blocks, and one large enough to be lowered
# to dask (tests lower min-chunk-elements to 4096), in 4 blocks.
FLAT_ARRAYS: dict[str, Callable[[], tuple[Any, Any]]] = {
    "0-d": lambda: _twins(()),
    "1-d": lambda: _twins((7,), chunks=3),
    "3-d": lambda: _twins((2, 3, 4), chunks=(1, 2, 3)),
    "large": lambda: _twins((4, 5_000), chunks=(2, 2_500)),
}

FLAT_INDICES: dict[str, Callable[[int], Any]] = {
    "int": lambda n: 1 % n,
    "negative int": lambda n: -1,
    "numpy int": lambda n: numpy.int64(n - 1),
    "one-tuple": lambda n: (0,),
    "slice": lambda n: slice(1, None, 2),
    "reversed slice": lambda n: slice(None, None, -3),
    "empty slice": lambda n: slice(3, 1),
    "ellipsis": lambda n: ...,
    "list": lambda n: [0, n - 1, 0],
    "2-d integer array": lambda n: numpy.array([[0, n - 1], [n // 2, -1]]),
    "0-d integer array": lambda n: numpy.array(n // 2),
    "empty list": lambda n: [],
    "one-tuple of a slice": lambda n: (slice(None, 2),),
    "boolean array": lambda n: numpy.arange(n) % 3 == 1,
}


@pytest.mark.parametrize("index", FLAT_INDICES)
@pytest.mark.parametrize("shape", FLAT_ARRAYS)
def test_flat_reads_copies(shape: str, index: str) -> None:
    expected, ours = FLAT_ARRAYS[shape]()
    item = FLAT_INDICES[index](expected.size)
    ours_item = dnp.asarray(item) if isinstance(item, numpy.ndarray) and item.ndim else item
    result_expected, result_ours = expected.flat[item], ours.flat[ours_item]
    assert_eq(result_ours, numpy.asarray(result_expected))
    if result_ours.ndim:
        result_ours[...] = -1.0  # a copy: the array is unchanged
    assert_eq(ours, expected)


@pytest.mark.parametrize("index", FLAT_INDICES)
@pytest.mark.parametrize("shape", FLAT_ARRAYS)
def test_flat_writes_cycle_values_in_c_order(shape: str, index: str) -> None:
    expected, ours = FLAT_ARRAYS[shape]()
    item = FLAT_INDICES[index](expected.size)
    for value in (-3.0, [-1.0, -2.0, -3.0], numpy.array([[-4.0], [-5.0]])):
        if numpy.ndim(expected.flat[item]) == 0 and numpy.size(value) > 1:
            continue  # one element takes one value (below)
        expected.flat[item] = value
        ours.flat[item] = value
        assert_eq(ours, expected)


@pytest.mark.parametrize(
    "make",
    [lambda a: a.T, lambda a: a[:, ::-2], lambda a: a[1], lambda a: a[..., None, 1:]],
    ids=["transpose", "reversed columns", "row", "new axis"],
)
def test_flat_writes_through_views_reach_the_base(make: Callable[[Any], Any]) -> None:
    expected, ours = _twins((3, 4), chunks=(2, 3))
    views = (make(expected), make(ours))
    for view in views:
        view.flat[1:4] = [10.0, 20.0]
        view.flat[[0, -1]] = 30.0
        view.flat = numpy.array([7.0, 8.0, 9.0]) if view.size % 3 == 0 else 7.0
        view.flat[2] = 1.5
    assert_eq(ours, expected)
    assert_eq(views[1], views[0])


def test_flat_assignment_sets_every_element() -> None:
    for shape in [(), (5,), (2, 3, 4)]:
        expected, ours = _twins(shape, dtype="int64")
        for value in (4, [1, 2, 3], [[1.5, 2.5]], numpy.array([9, 8, 7, 6, 5, 4, 3])):
            expected.flat = value
            ours.flat = value
            assert_eq(ours, expected)
        ours.flat = dnp.arange(3) * 2
        expected.flat = numpy.arange(3) * 2
        assert_eq(ours, expected)


def test_flat_writes_take_values_of_our_arrays_and_cast_them() -> None:
    expected, ours = _twins((3, 4), chunks=2, dtype="int32")
    values = numpy.array([1.7, -2.2, 3.9])
    expected.flat[::2] = values
    ours.flat[::2] = dnp.asarray(values)
    expected.flat[5] = numpy.array(8.5)
    ours.flat[5] = dnp.asarray(8.5)
    expected.flat[numpy.array([True, False] * 6)] = values[:2]
    ours.flat[dnp.asarray(numpy.array([True, False] * 6))] = values[:2]
    assert_eq(ours, expected)


FLAT_ERRORS: dict[str, Program] = {
    "out of bounds": lambda m, a: a.flat[24],
    "negative out of bounds": lambda m, a: a.flat[-25],
    "array out of bounds": lambda m, a: a.flat[[0, 24]],
    "two indices": lambda m, a: a.flat[0, 1],
    "boolean of another size": lambda m, a: a.flat[numpy.array([True, False])],
    "2-d boolean": lambda m, a: a.flat[numpy.ones((2, 12), bool)],
    "boolean list": lambda m, a: a.flat[[True, False]],
    "None": lambda m, a: a.flat[None],
    "string": lambda m, a: a.flat["a"],
    "write out of bounds": lambda m, a: a.flat.__setitem__(24, 1.0),
    "write two indices": lambda m, a: a.flat.__setitem__((0, 1), 1.0),
    "write empty tuple": lambda m, a: a.flat.__setitem__((), 1.0),
    "write ellipsis tuple": lambda m, a: a.flat.__setitem__((...,), 1.0),
    "sequence into one element": lambda m, a: a.flat.__setitem__(3, [1.0, 2.0]),
    "string into one element": lambda m, a: a.flat.__setitem__(3, "x"),
    "string into a slice": lambda m, a: a.flat.__setitem__(slice(2), "x"),
    "read-only": lambda m, a: _read_only(a).flat.__setitem__(0, 1.0),
    "read-only flat =": lambda m, a: setattr(_read_only(a), "flat", 1.0),
}


def _read_only(array: Any) -> Any:
    array.setflags(write=False)
    return array


@pytest.mark.parametrize("name", FLAT_ERRORS)
def test_flat_errors_are_numpys(name: str) -> None:
    expected, ours = _twins((2, 3, 4), chunks=(1, 2, 3))
    _same_error(FLAT_ERRORS[name], expected, ours)
    assert_eq(ours, expected)


def _flat_setter(index: Any, value: Any) -> Program:
    return lambda m, a: a.flat.__setitem__(index, value)


def test_flat_integer_writes_check_the_value_as_numpy_does() -> None:
    expected, ours = _twins((5,), dtype="uint8")
    values: list[Any] = [300, numpy.nan, [7], None, "x"]
    for value in values:
        _same_error(_flat_setter(1, value), expected, ours)
    for value in values[:1] + values[3:]:
        _same_error(_flat_setter(slice(2), value), expected, ours)
    _same_error(lambda m, a: setattr(a, "flat", numpy.nan), expected, ours)
    assert_eq(ours, expected)


def test_flat_reads_with_tuples_holding_everything() -> None:
    expected, ours = _twins((2, 3))
    for item in ((), (...,)):
        assert_eq(ours.flat[item], expected.flat[item])


def test_flat_deprecated_indices_warn_as_numpy_does() -> None:
    expected, ours = _twins((2, 3))
    for item in (1.0, True, False):
        with pytest.warns(DeprecationWarning) as numpy_warnings:
            result_expected = expected.flat[item]
        with pytest.warns(DeprecationWarning) as our_warnings:
            result_ours = ours.flat[item]
        assert [str(w.message) for w in our_warnings] == [str(w.message) for w in numpy_warnings]
        assert_eq(result_ours, numpy.asarray(result_expected))


def test_flat_iterates_in_c_order_and_keeps_its_place() -> None:
    for shape, chunks in [((), 1), ((5,), 2), ((2, 3, 2), (1, 2, 1)), ((3, 4_000), (2, 1_500))]:
        expected, ours = _twins(shape, chunks=chunks)
        views = [(expected, ours), (expected.T, ours.T)]
        for view_expected, view_ours in views:
            assert len(view_ours.flat) == len(view_expected.flat)
            assert [float(v) for v in view_ours.flat] == [float(v) for v in view_expected.flat]
        transposed = ours.T
        flat_expected, flat_ours = expected.T.flat, transposed.flat
        assert iter(flat_ours) is flat_ours and flat_ours.base is transposed
        for _ in range(min(3, expected.size)):
            assert float(next(flat_ours)) == float(next(flat_expected))
            assert (flat_ours.index, flat_ours.coords) == (
                flat_expected.index,
                flat_expected.coords,
            )


def test_flat_iterator_ends_where_numpys_does() -> None:
    expected, ours = _twins((2, 3))
    flat_expected, flat_ours = expected.flat, ours.flat
    assert list(map(float, flat_ours)) == list(map(float, flat_expected))
    assert (flat_ours.index, flat_ours.coords) == (flat_expected.index, flat_expected.coords)
    with pytest.raises(StopIteration):
        next(flat_ours)


def test_flat_base_copy_array_and_comparisons() -> None:
    expected, ours = _twins((3, 4), chunks=2)
    flat = ours.flat
    assert flat.base is ours
    assert_eq(flat.copy(), expected.flat.copy())
    numpy.testing.assert_array_equal(numpy.asarray(flat), numpy.asarray(expected.flat))
    for compare in ("__eq__", "__ne__", "__lt__", "__le__", "__gt__", "__ge__"):
        assert_eq(getattr(flat, compare)(5.0), getattr(expected.flat, compare)(5.0))


# -- tobytes -----------------------------------------------------------------------------

TOBYTES_VIEWS: dict[str, Callable[[Any], Any]] = {
    "whole": lambda a: a,
    "transpose": lambda a: a.T,
    "axes moved": lambda a: a.transpose(1, 0, 2),
    "strided": lambda a: a[:, ::2],
    "reversed": lambda a: a[::-1],
    "fortran part": lambda a: a.T[:2],
    "0-d": lambda a: a[1, 2, 3, ...],
    "1-d": lambda a: a[1, :, 2],
    "empty": lambda a: a[:, 3:],
}


@pytest.mark.parametrize("dtype", ["int16", "float64", "complex64", "bool"])
@pytest.mark.parametrize("view", TOBYTES_VIEWS)
def test_tobytes_gives_numpys_bytes_in_every_order(view: str, dtype: str) -> None:
    expected, ours = _twins((2, 3, 4), chunks=(1, 2, 3), dtype=dtype)
    view_expected, view_ours = TOBYTES_VIEWS[view](expected), TOBYTES_VIEWS[view](ours)
    for order in ("C", "F", "A", "K", "c", "f", "a", "k", None, b"A"):
        assert view_ours.tobytes(order) == view_expected.tobytes(order), order
    assert view_ours.tobytes() == view_expected.tobytes()
    assert view_ours.tobytes(order="F") == view_expected.tobytes(order="F")


def test_tobytes_of_a_large_array_sees_writes() -> None:
    expected, ours = _twins((4, 5_000), chunks=(2, 2_500))
    for array in (expected, ours):
        array[1:3, 10:4_000] *= -1
        array.T[7] = 0.5
    for order in "CFAK":
        assert ours.tobytes(order) == expected.tobytes(order)
        assert ours.T.tobytes(order) == expected.T.tobytes(order)


@pytest.mark.parametrize("order", ["X", "", "CC", "Fortran", 1, 2.0])
def test_tobytes_refuses_orders_as_numpy_does(order: Any) -> None:
    expected, ours = _twins((2, 3))
    _same_error(lambda m, a: a.tobytes(order), expected, ours)


def test_tostring_is_gone_as_in_numpy() -> None:
    assert hasattr(numpy.ndarray, "tostring") is hasattr(dnp.ndarray, "tostring") is False


# -- view --------------------------------------------------------------------------------

VIEW_ARRAYS: dict[str, Callable[[], tuple[Any, Any]]] = {
    "0-d": lambda: _twins((), dtype="int32"),
    "1-d": lambda: _twins((8,), chunks=3, dtype="int32"),
    "3-d": lambda: _twins((2, 3, 4), chunks=(1, 2, 3), dtype="int32"),
    "large": lambda: _twins((4, 6_000), chunks=(2, 2_500), dtype="int32"),
}


@pytest.mark.parametrize("shape", VIEW_ARRAYS)
def test_view_is_a_new_live_view(shape: str) -> None:
    expected, ours = VIEW_ARRAYS[shape]()
    views = (expected.view(), ours.view())
    assert views[1] is not ours and views[1].flags.owndata is views[0].flags.owndata is False
    for view in views:
        view[...] += 5
    assert_eq(ours, expected)
    for array in (expected, ours):
        array *= 3
    assert_eq(views[1], views[0])


@pytest.mark.parametrize("dtype", ["float32", "uint32", "int32"])
@pytest.mark.parametrize("shape", VIEW_ARRAYS)
def test_view_as_a_dtype_of_the_same_size_is_live_both_ways(shape: str, dtype: str) -> None:
    expected, ours = VIEW_ARRAYS[shape]()
    views = (expected.view(dtype), ours.view(numpy.dtype(dtype)))
    assert_eq(views[1], views[0])
    for view in views:
        view[...] = view * 2 if view.ndim == 0 else view[::-1] * 2  # written as dtype
    assert_eq(ours, expected)
    for array in (expected, ours):
        array -= 1
    assert_eq(views[1], views[0])
    back = (views[0].view("i4")[..., None], views[1].view("i4")[..., None])
    for view in back:
        view[...] = 11
    assert_eq(ours, expected)


def test_views_of_a_dtype_compose_with_slices_and_transposes() -> None:
    expected, ours = _twins((4, 6), chunks=(3, 4), dtype="float64")
    makers: list[Callable[[Any], Any]] = [
        lambda a: a[1:, ::2].view(numpy.int64),
        lambda a: a.T.view("u8")[2],
        lambda a: a.view(numpy.complex64)[::-1],  # a float64 as two float32s: complex64
        lambda a: a.view(numpy.int64).view(numpy.float64).T,
    ]
    pairs = [(make(expected), make(ours)) for make in makers]
    for view_expected, view_ours in pairs:
        assert_eq(view_ours, view_expected)
        view_expected[0] = 3
        view_ours[0] = 3
        assert_eq(ours, expected)
    for view_expected, view_ours in pairs:
        assert_eq(view_ours, view_expected)


RESIZED: dict[str, Callable[[Any], Any]] = {
    "int8": lambda a: a.view(numpy.int8),
    "uint16": lambda a: a.view("u2"),
    "int64": lambda a: a.view(numpy.int64),
    "complex128": lambda a: a.view(numpy.complex128),
    "bool": lambda a: a.view(bool),
    "part of rows": lambda a: (a[::-1] if a.ndim > 1 else a)[..., 2:6].view(numpy.int64),
}


@pytest.mark.parametrize("make", RESIZED)
@pytest.mark.parametrize(
    "shape, chunks", [((8,), 3), ((3, 8), (2, 3)), ((2, 2, 4), (1, 2, 3)), ((4, 6_000), (2, 2_500))]
)
def test_view_as_another_item_size_follows_numpys_shape_rule(
    make: str, shape: tuple[int, ...], chunks: Any
) -> None:
    # Differences from NumPy: read-only (NumPy's is a writeable view of the same bytes).
    expected, ours = _twins(shape, chunks=chunks, dtype="int32")
    views = (RESIZED[make](expected), RESIZED[make](ours))
    assert_eq(views[1], views[0])
    for array in (expected, ours):
        array[..., 1:3] = -7  # the view sees the write
    assert_eq(views[1], views[0])
    with pytest.raises(ValueError, match="read-only"):
        views[1][...] = 0
    assert not views[1].flags.writeable
    assert views[1].flags.c_contiguous is views[0].flags.c_contiguous
    assert_eq(views[1][..., ::-1], views[0][..., ::-1])  # views of it too


VIEW_ERRORS: dict[str, Program] = {
    "transposed, other size": lambda m, a: a.T.view(numpy.int8),
    "strided last axis": lambda m, a: a[:, ::2].view(numpy.int64),
    "not a divisor": lambda m, a: a[:, :3].view(numpy.int64),
    "0-d, other size": lambda m, a: a[0, 0, ...].view(numpy.int16),
    "bad dtype": lambda m, a: a.view("nonsense"),
    "objects": lambda m, a: a.view(object),
    "a list": lambda m, a: a.view(list),
    "type not an array": lambda m, a: a.view(type=dict),
    "dtype and bad type": lambda m, a: a.view(numpy.int8, int),
}


@pytest.mark.parametrize("name", VIEW_ERRORS)
def test_view_errors_are_numpys(name: str) -> None:
    expected, ours = _twins((3, 4), chunks=2, dtype="int32")
    _same_error(VIEW_ERRORS[name], expected, ours)


def test_view_as_none_is_float64_as_in_numpy() -> None:
    expected, ours = _twins((2, 4), dtype="int64")
    assert_eq(ours.view(None), expected.view(None))
    assert_eq(ours.view(dtype=None), expected.view(dtype=None))


def test_view_as_numpys_ndarray_gives_its_values() -> None:
    # Differences from NumPy: a copy of the values (ours are not in this process).
    expected, ours = _twins((3, 4), chunks=2, dtype="int32")
    for args, kwargs in [((numpy.ndarray,), {}), ((), {"type": numpy.ndarray})]:
        result = ours.view(*args, **kwargs)
        assert type(result) is numpy.ndarray
        numpy.testing.assert_array_equal(result, expected.view(*args, **kwargs))
    result = ours.view("f4", numpy.ndarray)
    numpy.testing.assert_array_equal(result, expected.view("f4", numpy.ndarray))
    assert result.dtype == numpy.float32
    assert_eq(ours.view(type(ours)), expected)
    assert_eq(ours.view(dtype="u4", type=dnp.ndarray), expected.view("u4"))


def test_view_as_another_ndarray_subclass_is_refused() -> None:
    # NumPy makes a matrix; ours refuse with NumPy's exception type for a refused type.
    ours = dnp.arange(6).reshape(2, 3)
    for subclass in (numpy.matrix, numpy.recarray, numpy.ma.MaskedArray):
        with pytest.raises(ValueError, match="cannot be viewed as"):
            ours.view(subclass)


def test_view_of_a_read_only_array_is_read_only() -> None:
    expected, ours = _twins((2, 4), dtype="int32")
    for array in (expected, ours):
        array.setflags(write=False)
    _same_error(lambda m, a: a.view().__setitem__(0, 1), expected, ours)
    _same_error(lambda m, a: a.view(numpy.float32).__setitem__(0, 1), expected, ours)


def test_unsupported_dtypes_are_refused_with_what_to_do() -> None:
    # Differences from NumPy: strings are not array dtypes here.
    ours = dnp.arange(4, dtype=numpy.int32)
    with pytest.raises(TypeError, match="does not support arrays of dtype"):
        ours.view("U1")
