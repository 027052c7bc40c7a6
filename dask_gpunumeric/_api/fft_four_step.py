"""A distributed 1-D FFT: the "four-step" algorithm (Bailey, 1990).

dask.array.fft needs the transformed axis in one chunk: a long 1-D signal would be
gathered whole onto one worker. Above ``gpunumeric.fft-whole-axis-limit`` bytes, a length
``n = n1 * n2`` transform is instead done as a 2-D one on the (n1, n2) view of the signal:

    B = fft(x.reshape(n1, n2), axis=0)              # n2 transforms of length n1
    C = B * exp(-+2 pi i (k1 * j2 mod n) / n)       # twiddle factors
    X = fft(C, axis=1).T.reshape(n)                 # n1 transforms of length n2

Each step transforms one axis of a 2-D array whose other axis is split across blocks.
The normalization of each step is the requested one: the factors multiply to NumPy's.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy

from .._runtime import config
from .creation import asarray
from .elementwise import astype
from .ndarray import ndarray
from .numerical_ranges import arange
from .ufuncs import ufuncs


def factor(n: int) -> int | None:
    """The largest divisor of ``n`` not above sqrt(n), or None when ``n`` is prime-like
    (no divisor of at least 2 that keeps both factors worth splitting)."""
    for candidate in range(math.isqrt(n), 1, -1):
        if n % candidate == 0:
            return candidate
    return None


def worth_splitting(length: int, itemsize: int) -> bool:
    return length * itemsize > config.get("fft-whole-axis-limit") and factor(length) is not None


def four_step(
    transform: Callable[..., ndarray], inverse: bool, signal: ndarray, norm: str | None
) -> ndarray:
    """``transform`` (our ``fft`` or ``ifft``) of the 1-D ``signal``, four-step."""
    n = signal.shape[0]
    n1 = factor(n)
    assert n1 is not None
    n2 = n // n1
    columns = transform(asarray(signal).reshape((n1, n2)), axis=0, norm=norm)
    exponents = ufuncs["remainder"](
        ufuncs["multiply"](arange(n1).reshape((n1, 1)), arange(n2).reshape((1, n2))), n
    )
    sign = 1.0 if inverse else -1.0
    angles = ufuncs["multiply"](exponents, sign * 2 * numpy.pi / n)
    twiddles = astype(ufuncs["exp"](ufuncs["multiply"](angles, 1j)), columns.dtype)
    rows = transform(ufuncs["multiply"](columns, twiddles), axis=1, norm=norm)
    return rows.transpose().reshape((n,))
