"""Basic indexing as data: ``Region`` (a canonical slice/int/newaxis/transpose map) and the
nodes that read (``Slice``, ``Reshape``, ``TakePoints``) and write (``SetItem``, ``Scatter``).
"""

from __future__ import annotations

import functools
import operator
from dataclasses import dataclass
from typing import Any

import numpy

from .expr import Expr


@dataclass(frozen=True)
class NewAxis:
    """An output axis that is not a source axis (``None`` in an index): size 1, or 0 once
    sliced empty."""

    size: int = 1


Span = tuple[int, int, int]  # (start, step, count) of a sliced source axis
AxisIndex = int | Span


@dataclass(frozen=True)
class Region:
    """What a chain of basic indices and transposes selects from an array of ``source_shape``.

    ``axes[k]`` is, for source axis k, a fixed index (int) or a span (start, step, count).
    ``out[j]`` says what output axis j is: the number of a spanned source axis, or a
    ``NewAxis``. Every spanned source axis appears in ``out`` exactly once; composing two
    regions gives a region, which is what makes views of views cheap and exact.
    """

    source_shape: tuple[int, ...]
    axes: tuple[AxisIndex, ...]
    out: tuple[int | NewAxis, ...]

    @staticmethod
    @functools.lru_cache(maxsize=1024)
    def identity(shape: tuple[int, ...]) -> Region:
        # Cached (regions are immutable): every whole-array write (``out=``, ``x += y``)
        # takes one, and a frozen dataclass is slow to build.
        return Region(shape, tuple((0, 1, n) for n in shape), tuple(range(len(shape))))

    @staticmethod
    def transposition(shape: tuple[int, ...], axes: tuple[int, ...]) -> Region:
        return Region(shape, tuple((0, 1, n) for n in shape), tuple(axes))

    @staticmethod
    def from_index(shape: tuple[int, ...], index: tuple[Any, ...]) -> Region:
        """The region of a basic ``index`` (ints, slices, None, one Ellipsis), which the
        caller has already checked with NumPy (``check_basic_index``)."""
        if _is_everything(index):
            return Region.identity(tuple(shape))
        consumed = sum(1 for item in index if item is not None and item is not Ellipsis)
        expanded: list[Any] = []
        for item in index:
            if item is Ellipsis:
                expanded.extend([slice(None)] * (len(shape) - consumed))
            else:
                expanded.append(item)
        expanded.extend([slice(None)] * (len(shape) - sum(1 for i in expanded if i is not None)))
        axes: list[AxisIndex] = []
        out: list[int | NewAxis] = []
        for item in expanded:
            if item is None:
                out.append(NewAxis())
                continue
            length = shape[len(axes)]
            if isinstance(item, slice):
                start, stop, step = item.indices(length)
                out.append(len(axes))
                axes.append(_span(start, step, len(range(start, stop, step))))
            else:
                position = operator.index(item)
                axes.append(position + length if position < 0 else position)
        return Region(tuple(shape), tuple(axes), tuple(out))

    @property
    def shape(self) -> tuple[int, ...]:
        """The output shape."""
        return tuple(
            entry.size if isinstance(entry, NewAxis) else self.axes[entry][2]  # type: ignore[index]
            for entry in self.out
        )

    @property
    def is_identity(self) -> bool:
        """Equal to ``Region.identity(self.source_shape)`` (checked without building it)."""
        return self.out == tuple(range(len(self.source_shape))) and all(
            axis == (0, 1, n) for axis, n in zip(self.axes, self.source_shape, strict=True)
        )

    def then(self, inner: Region) -> Region:
        """The region selecting ``inner`` (a region of this region's output) from the source."""
        axes = list(self.axes)
        replaced: list[int | NewAxis | None] = []  # what each of our output axes becomes
        for entry, index in zip(self.out, inner.axes, strict=True):
            if isinstance(entry, NewAxis):
                replaced.append(None if isinstance(index, int) else NewAxis(index[2]))
                continue
            start, step, _ = axes[entry]  # type: ignore[misc]
            if isinstance(index, int):
                axes[entry] = start + index * step
                replaced.append(None)
            else:
                axes[entry] = _span(start + index[0] * step, step * index[1], index[2])
                replaced.append(entry)
        out = tuple(entry if isinstance(entry, NewAxis) else replaced[entry] for entry in inner.out)
        return Region(self.source_shape, tuple(axes), out)  # type: ignore[arg-type]


def _span(start: int, step: int, count: int) -> Span:
    # One canonical form per selection, so equal regions compare equal.
    if count == 0:
        return (0, 1, 0)
    if count == 1:
        return (start, 1, 1)
    return (start, step, count)


_BASIC_SCALARS = (int, numpy.integer)


def is_basic_index(index: tuple[Any, ...]) -> bool:
    """True when every item is an int, slice, None or Ellipsis (no arrays, lists or bools)."""
    for item in index:
        if item is None or item is Ellipsis or isinstance(item, slice):
            continue
        if isinstance(item, (bool, numpy.bool_)) or not isinstance(item, _BASIC_SCALARS):
            return False
    return True


def _is_everything(index: tuple[Any, ...]) -> bool:
    """``(...,)``: what ``out=`` and ``x[...] = v`` write through; valid for any shape."""
    return len(index) == 1 and index[0] is Ellipsis


def basic_region(shape: tuple[int, ...], index: tuple[Any, ...]) -> Region:
    """``Region.from_index(shape, index)`` of a basic ``index`` after NumPy's checks
    (``check_basic_index``: its errors raised), kept per shape and index: a loop's
    ``u[1:-1, 2:]`` indexes the same shape the same way every iteration (the check and
    the region cost about 10 us, NumPy's own view 2 us)."""
    key = (shape, tuple(_index_key(item) for item in index))
    try:
        region = _regions.get(key)
    except TypeError:  # a slice of unhashable bounds: NumPy's check says what it is
        check_basic_index(shape, index)
        return Region.from_index(shape, index)
    if region is None:
        check_basic_index(shape, index)
        region = Region.from_index(shape, index)
        if len(_regions) >= _KEPT_REGIONS:
            _regions.clear()
        _regions[key] = region
    return region


_regions: dict[Any, Region] = {}
_KEPT_REGIONS = 4096


def _index_key(item: Any) -> Any:
    """A hashable stand-in of one basic index item (slices hash from Python 3.12 only);
    NumPy's integers as Python's (their regions are the same)."""
    if type(item) is slice:
        return (item.start, item.stop, item.step)
    if type(item) is int or item is None or item is Ellipsis:
        return item
    return operator.index(item)


def check_basic_index(shape: tuple[int, ...], index: tuple[Any, ...]) -> None:
    """Raise exactly what NumPy raises for ``array_of_shape[index]`` (bounds, too many
    indices, two ellipses), using a zero-stride stand-in that owns one byte."""
    if _is_everything(index):
        return
    stand_in = numpy.lib.stride_tricks.as_strided(
        numpy.zeros(1, dtype=numpy.uint8), shape=shape, strides=(0,) * len(shape)
    )
    if not any(item is Ellipsis for item in index):
        index = index + (Ellipsis,)  # keeps a full-integer index a view: nothing is read
    stand_in[index]


class Slice(Expr):
    """``region`` of ``source``: a basic-indexing view's value."""

    __slots__ = ("region",)

    def __init__(self, source: Expr, region: Region) -> None:
        super().__init__(region.shape, source.dtype, (source,))
        self.region = region


class Reshape(Expr):
    __slots__ = ()

    def __init__(self, source: Expr, shape: tuple[int, ...]) -> None:
        super().__init__(shape, source.dtype, (source,))


class SetItem(Expr):
    """``target`` with ``region`` replaced by ``value`` (cast to target's dtype, broadcast
    to the region's shape)."""

    __slots__ = ("region",)

    def __init__(self, target: Expr, region: Region, value: Expr) -> None:
        super().__init__(target.shape, target.dtype, (target, value))
        self.region = region


class TakePoints(Expr):
    """Advanced (fancy) indexing: element i of the result is ``source[coords[:, i]]``.

    ``coords`` holds one host integer array per source axis, all of the result's shape;
    NumPy computed them (and checked bounds) from the user's index.
    """

    __slots__ = ("coords",)

    def __init__(self, source: Expr, coords: tuple[numpy.ndarray, ...]) -> None:
        shape = coords[0].shape if coords else ()
        super().__init__(shape, source.dtype, (source,))
        self.coords = coords


class Scatter(Expr):
    """``target`` with the points ``coords`` set to ``value`` (broadcast to the coords'
    shape; later points win, as in NumPy)."""

    __slots__ = ("coords",)

    def __init__(self, target: Expr, coords: tuple[numpy.ndarray, ...], value: Expr) -> None:
        super().__init__(target.shape, target.dtype, (target, value))
        self.coords = coords


def advanced_index_coords(
    shape: tuple[int, ...], index: tuple[Any, ...]
) -> tuple[numpy.ndarray, ...]:
    """The source coordinates NumPy selects for ``array_of_shape[index]``, for any mix of
    basic and advanced (host) indices. Per axis, NumPy indexes a zero-memory broadcast of
    ``arange``, so its own placement rules and errors apply; memory is O(result)."""
    coords = []
    for axis, length in enumerate(shape):
        ramp = numpy.arange(length, dtype=numpy.intp).reshape(
            (1,) * axis + (length,) + (1,) * (len(shape) - axis - 1)
        )
        # numpy.array, not ascontiguousarray: that one makes a 0-d selection 1-d.
        coords.append(numpy.array(numpy.broadcast_to(ramp, shape)[index], order="C"))
    return tuple(coords)


def _as_slice(span: Span) -> slice:
    start, step, count = span
    stop = start + step * count
    return slice(start, None if stop < 0 else stop, step)


def apply_region(array: Any, region: Region) -> Any:
    """``region`` of any array supporting NumPy's basic indexing and ``transpose`` (host,
    device or dask arrays alike)."""
    index, order, expand, empty = _indexing_of(region)
    result = array[index]
    if order is not None:
        result = result.transpose(order)
    if expand is not None:
        result = result[expand][empty]
    return result


@functools.lru_cache(maxsize=1024)
def _indexing_of(region: Region) -> tuple[Any, Any, Any, Any]:
    """``apply_region``'s steps for ``region``, kept (a loop applies the same few regions
    again and again): the basic index, the transpose's order (``None``: none), and the
    indices that add its new axes (``None``: none)."""
    # The Ellipsis keeps an all-integer index a 0-d view: NumPy would return a scalar copy.
    index: tuple[Any, ...] = (
        *(a if isinstance(a, int) else _as_slice(a) for a in region.axes),
        Ellipsis,
    )
    spanned = [k for k, a in enumerate(region.axes) if not isinstance(a, int)]
    order = [spanned.index(e) for e in region.out if not isinstance(e, NewAxis)]
    if len(order) == len(region.out):
        return index, None if order == sorted(order) else order, None, None
    expand = tuple(None if isinstance(e, NewAxis) else slice(None) for e in region.out)
    empty = tuple(slice(0, e.size) if isinstance(e, NewAxis) else slice(None) for e in region.out)
    return index, None if order == sorted(order) else order, expand, empty
