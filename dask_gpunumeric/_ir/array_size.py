"""The byte size of an array value, and NumPy's "array is too big" error for shapes whose
size overflows ``intp``: raised when a creation leaf is built, before anything else is."""

from __future__ import annotations

import math

import numpy

INTP_MAX = int(numpy.iinfo(numpy.intp).max)
# NumPy's own message (numpy/_core/src/multiarray/ctors.c), so callers matching it agree.
TOO_BIG_MESSAGE = (
    "array is too big; `arr.size * arr.dtype.itemsize` is larger than the maximum possible size."
)


def nbytes_of(shape: tuple[int, ...], dtype: numpy.dtype) -> int:
    """Bytes of a C-contiguous array of ``shape`` and ``dtype``, exact (no overflow)."""
    return math.prod(shape) * dtype.itemsize


def check_addressable(shape: tuple[int, ...], dtype: numpy.dtype) -> None:
    """Raise NumPy's ``ValueError`` when no array of ``shape`` and ``dtype`` can exist.

    NumPy's rule: the item size times every non-zero dimension must fit ``intp`` (so
    ``(0, 2**62)`` float64 is too big, though empty). A lazy array larger than memory is
    legitimate (it may only be reduced); one beyond ``intp`` is not.
    """
    nonzero_dims = [n for n in shape if n != 0]
    if dtype.itemsize * math.prod(nonzero_dims) > INTP_MAX:
        raise ValueError(TOO_BIG_MESSAGE)
