"""NumPy's memory orders (``'C'``, ``'F'``, ``'A'``, ``'K'``) on our arrays.

A view keeps NumPy's layout (``ViewSpec.layout_stand_in``: ``a.T`` is F-contiguous, a
strided slice is neither), so the orders that follow a layout read it as NumPy does:
``'A'`` is ``'F'`` for a Fortran array (F- and not C-contiguous), ``'K'`` the order of
the strides. An array laid out in Fortran order is a transposed view of a store that holds
it in C order: ``zeros((3, 4), order='F')`` is a (4, 3) store seen through ``.T``, with
the blocks a C array of (3, 4) would have. Everything here is a view or a lazy copy; no
order gathers anything.

Orders are checked by NumPy itself, on an empty stand-in, so a bad one raises NumPy's
exception and message (``order must be one of 'C', 'F', 'A', or 'K' (got 'X')``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Literal, TypeVar, cast

import numpy

from .._ir.indexing import Region
from .._runtime.partitioning import Chunks, default_chunks

T = TypeVar("T")
Order = Literal["C", "F", "A", "K"]

# The empty array NumPy checks an order argument on.
ORDER_STAND_IN = numpy.zeros(0)


def order_of(
    order: Any, numpy_check: Callable[[Any], object] | None = None, none_means: Order = "C"
) -> Order:
    """``order`` as one of ``'C'``, ``'F'``, ``'A'``, ``'K'`` (``None``: ``none_means``,
    ``'K'`` for NumPy's copying functions), once ``numpy_check(order)`` has raised NumPy's
    error for an order its function refuses (no ``numpy_check``: NumPy checked it)."""
    if numpy_check is not None:
        numpy_check(order)
    if order is None:
        return none_means
    if isinstance(order, bytes):
        order = order.decode()
    return cast(Order, str(order).upper())


def is_fortran(array: Any) -> bool:
    """NumPy's ``isfortran``: ``array``'s layout is F- and not C-contiguous."""
    flags = array._view.layout_stand_in().flags
    return bool(flags.f_contiguous and not flags.c_contiguous)


def reads_fortran(array: Any, order: str) -> bool:
    """Whether ``order`` means Fortran order for ``array``: ``'F'``, or ``'A'`` of a
    Fortran array (NumPy's ``'A'``)."""
    return order == "F" or (order == "A" and is_fortran(array))


def is_laid_out(array: Any, order: str) -> bool:
    """Whether ``array`` already has the layout ``order`` asks of it (``asarray``'s pass
    through): ``'A'`` and ``'K'`` take any layout, as NumPy's ``asarray`` does."""
    if order not in ("C", "F"):
        return True  # before the layout: asarray's default path reads none
    flags = array._view.layout_stand_in().flags
    return bool(flags.c_contiguous if order == "C" else flags.f_contiguous)


def reading_axes(array: Any, order: str) -> tuple[int, ...]:
    """The axes, outermost first, whose C order reads ``array`` in ``order`` (``ravel``'s
    reading): ``'F'`` reverses them; ``'K'`` follows the strides as NumPy's iterator does."""
    ndim = array.ndim
    if reads_fortran(array, order):
        return tuple(reversed(range(ndim)))
    if order == "K":
        return _keep_order_axes(array._view.layout_stand_in())
    return tuple(range(ndim))


def _keep_order_axes(layout: numpy.ndarray) -> tuple[int, ...]:
    """NumPy's ``'K'`` reading of an array of ``layout``: C or F order when the array is
    contiguous so; else the axes by decreasing absolute stride, an axis of stride 0 (or of
    length 1) keeping its place, as ``numpy.nditer`` sorts them (a stable insertion sort
    from the innermost axis; checked against ``ravel(order='K')`` on random views)."""
    ndim = layout.ndim
    if layout.flags.c_contiguous:
        return tuple(range(ndim))
    if layout.flags.f_contiguous:
        return tuple(reversed(range(ndim)))
    strides = [0 if n == 1 else s for n, s in zip(layout.shape, layout.strides, strict=True)]
    innermost_first = list(reversed(range(ndim)))
    for position in range(1, ndim):
        axis = innermost_first[position]
        insert_at = position
        for before in range(position - 1, -1, -1):
            other = innermost_first[before]
            if strides[axis] == 0 or strides[other] == 0:
                continue  # no order between them: look further out
            if abs(strides[other]) <= abs(strides[axis]):
                break
            insert_at = before
        innermost_first.insert(insert_at, innermost_first.pop(position))
    return tuple(reversed(innermost_first))


def made_in_order(
    make: Callable[[tuple[int, ...], Chunks | None], T],
    shape: tuple[int, ...],
    chunks: Chunks | None,
    fortran: bool,
) -> T:
    """``make(shape, chunks)``, laid out in Fortran order when ``fortran``: then made as
    the transposed store (blocks transposed too) and seen through ``.T``, so its blocks
    are those a C array of ``shape`` gets."""
    if not fortran or len(shape) < 2:
        return make(shape, chunks)
    blocks = chunks if chunks is not None else default_chunks(shape)
    return _owning(_transposed(make(shape[::-1], blocks[::-1])))


def copied_in_order(array: T, copy: Callable[[T], T], fortran: bool) -> T:
    """``copy(array)``, laid out in Fortran order when ``fortran``: the copy of ``array.T``
    seen through ``.T`` (blocks as ``array``'s)."""
    if not fortran or getattr(array, "ndim", 0) < 2:
        return copy(array)
    return _owning(_transposed(copy(_transposed(array))))


def _owning(array: Any) -> Any:
    """``array``, the one view its store is made for, as the array owning the store
    (NumPy's ``OWNDATA``; its ``WRITEABLE`` flag is the store's: views of it obey it)."""
    array._owns_data = True
    return array


def _transposed(array: Any) -> Any:
    """``array.T``, a view (``views.transpose``, which reads orders from here)."""
    axes = tuple(reversed(range(array.ndim)))
    view = array._view.then_region(Region.transposition(array.shape, axes))
    return type(array)._from_parts(array._store, view)
