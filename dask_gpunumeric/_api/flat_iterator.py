"""``a.flat``: NumPy's ``numpy.flatiter`` over one of our arrays, in C order.

Reading (``a.flat[i]``, slices, integer or boolean arrays) gives copies, as NumPy's does;
writing (``a.flat[idx] = v``, ``a.flat = v``) writes into ``a``, cycling the values over
the elements selected as ``numpy.flatiter`` does (``a.flat[:] = [1, 2]`` gives 1, 2, 1,
2, ...). Both go through ``a``'s flat form, ``a.reshape(-1)``: a live view where NumPy's
would be one; otherwise a copy, written back into ``a`` as a whole (still lazy).

NumPy reads the index: a stand-in flat iterator over zero-stride memory raises its errors
and warnings (and says which elements are selected) without a host array of ``a``'s size.
"""

from __future__ import annotations

import math
from typing import Any

import numpy

from .._array.flags import check_writeable
from .broadcasting import broadcast_to
from .creation import asarray, copy
from .ndarray import ndarray

_TOO_MANY = (
    "too many indices for flat iterator: flat iterator is 1-dimensional, but {} were indexed"
)


class FlatIterator:
    """dask_gpunumeric implementation of :class:`numpy.flatiter` (``a.flat``).

    Differences from NumPy: elements read by indexing or iteration are 0-d arrays (as
    ``a[i]`` gives here), not NumPy scalars.
    """

    __slots__ = ("_array", "_index", "_elements")

    def __init__(self, array: ndarray) -> None:
        self._array = array
        self._index = 0
        self._elements: Any = None

    @property
    def base(self) -> ndarray:
        """The array iterated over."""
        return self._array

    @property
    def index(self) -> int:
        """The flat position of the next element iteration gives."""
        return self._index

    @property
    def coords(self) -> tuple[int, ...]:
        """The coordinates of the next element iteration gives."""
        shape = self._array.shape
        if self._index >= self._array.size:  # NumPy's: past the end, the last row's next
            return (shape[0], *([0] * (len(shape) - 1))) if shape else ()
        return tuple(int(c) for c in numpy.unravel_index(self._index, shape))

    def __len__(self) -> int:
        return self._array.size

    def __iter__(self) -> FlatIterator:
        return self

    def __next__(self) -> ndarray:
        """The next element in C order; the array is computed in pieces, not per element
        (``ndarray.__iter__`` of its flat form)."""
        if self._index >= self._array.size:
            raise StopIteration
        if self._elements is None:
            self._elements = iter(self._array.reshape(-1)[self._index :])
        self._index += 1
        return next(self._elements)

    def __getitem__(self, index: Any) -> ndarray:
        selection = _selection(index, self._array.size)
        flat = self._array.reshape(-1)
        if isinstance(selection, slice):
            return copy(flat[selection])  # NumPy's is a copy, never a view
        return flat[selection]  # an element (0-d) or integer-array selection: copies

    def __setitem__(self, index: Any, value: Any) -> None:
        check_writeable(self._array, "underlying array is read-only")
        if isinstance(index, tuple) and (not index or index[0] is Ellipsis):
            raise IndexError("Assigning to a flat iterator with a 0-D index is not supported")
        write(self._array, _selection(index, self._array.size), value)

    def copy(self) -> ndarray:
        """A copy of the array, flattened (NumPy's ``flatiter.copy``)."""
        return copy(self._array.reshape(-1))

    def __array__(self, dtype: Any = None, copy: bool | None = None) -> numpy.ndarray:
        return self.copy().__array__(dtype, copy)

    def __eq__(self, other: object) -> ndarray:  # type: ignore[override] # NumPy's: an array
        return self.copy() == other

    def __ne__(self, other: object) -> ndarray:  # type: ignore[override] # NumPy's: an array
        return self.copy() != other

    def __lt__(self, other: Any) -> ndarray:
        return self.copy() < other

    def __le__(self, other: Any) -> ndarray:
        return self.copy() <= other

    def __gt__(self, other: Any) -> ndarray:
        return self.copy() > other

    def __ge__(self, other: Any) -> ndarray:
        return self.copy() >= other

    __hash__ = None  # type: ignore[assignment]


def assign_all(array: ndarray, value: Any) -> None:
    """``a.flat = value``: every element, the values cycled (NumPy's own message when
    ``a`` is read-only)."""
    check_writeable(array, "array is read-only")
    write(array, slice(None), value)


def write(array: ndarray, selection: int | slice | numpy.ndarray, value: Any) -> None:
    """``array.flat[selection] = value`` with ``selection`` read by ``_selection``."""
    flat = array.reshape(-1)
    if isinstance(selection, int):
        flat[selection] = _single_value(value, array.dtype)
    else:
        count = (
            len(range(*selection.indices(array.size)))
            if isinstance(selection, slice)
            else selection.size
        )
        values = _values(value, array.dtype)
        if count == 0 or values.size == 0:
            return
        values = _cycled(values, count)
        flat[selection] = (
            values if isinstance(selection, slice) else values.reshape(selection.shape)
        )
    if flat._store is not array._store:  # the flat form was a copy: the whole back into it
        array[...] = flat.reshape(array.shape)


def _selection(index: Any, size: int) -> int | slice | numpy.ndarray:
    """The elements ``flat[index]`` selects, as NumPy's flat iterator reads ``index``: a
    position, a slice, or an array of positions (of the index's shape), with NumPy's
    errors and deprecation warnings."""
    if isinstance(index, tuple):
        if len(index) > 1:
            raise IndexError(_TOO_MANY.format(len(index)))
        index = index[0] if index else Ellipsis
    if index is Ellipsis:
        return slice(None)
    if isinstance(index, slice):
        return index
    if isinstance(index, (int, numpy.integer)) and not isinstance(index, (bool, numpy.bool_)):
        position = int(index)
        if not -size <= position < size:
            raise IndexError(f"index {position} is out of bounds for size {size}")
        return position % size
    if isinstance(index, ndarray):
        index = numpy.asarray(index)
    stand_in = numpy.broadcast_to(numpy.zeros((), dtype=numpy.uint8), (size,)).flat
    selected = stand_in[index]  # NumPy's errors and warnings; its result's shape
    host = numpy.asarray(index)
    if host.dtype == bool:
        positions = numpy.flatnonzero(host) if host.ndim else numpy.zeros(int(host), numpy.intp)
    else:
        positions = host.astype(numpy.intp).reshape(numpy.shape(selected) if host.ndim else ())
        positions = numpy.where(positions < 0, positions + size, positions)
    if not isinstance(selected, numpy.ndarray):  # one element: NumPy's scalar
        return int(positions.reshape(-1)[0])
    return positions.reshape(selected.shape)


def _single_value(value: Any, dtype: numpy.dtype) -> Any:
    """The value of a one-element write, as NumPy's flat iterator sets one item (its
    ``Error setting single item of array.`` for a sequence, or a value it cannot cast)."""
    probe = numpy.zeros(1, dtype=dtype)
    if isinstance(value, ndarray):
        probe.flat[0] = numpy.zeros(value.shape, dtype=value.dtype)  # NumPy's shape checks
        return value.astype(dtype).reshape(())
    probe.flat[0] = value
    return probe.reshape(())


def _values(value: Any, dtype: numpy.dtype) -> ndarray:
    """The values of a write, flattened, as NumPy's flat iterator converts them: arrays
    cast unsafely, anything else converted to ``dtype`` (NumPy's errors)."""
    if isinstance(value, (ndarray, numpy.ndarray)) or hasattr(value, "__dask_graph__"):
        return asarray(value).astype(dtype).reshape(-1)
    return asarray(numpy.array(value, dtype=dtype)).reshape(-1)


def _cycled(values: ndarray, count: int) -> ndarray:
    """The first ``count`` of ``values`` repeated cyclically (lazily: no host index)."""
    if values.size < count:  # rows of the values, flattened (``tile`` joins one per row)
        rows = math.ceil(count / values.size)
        values = broadcast_to(values, (rows, values.size)).reshape(-1)
    return values[:count] if values.size != count else values
