"""dask_gpunumeric: a drop-in NumPy whose arrays live partitioned across Dask workers.

``import dask_gpunumeric as np`` and write sequential NumPy; the library partitions,
defers and distributes it (CuPy chunks on GPUs, NumPy chunks on CPUs).
"""

from __future__ import annotations

from numpy import (  # dtypes, constants and type helpers are NumPy's own
    bool_, byte, can_cast, cdouble, clongdouble, complex64, complex128, csingle, double,
    dtype, e, euler_gamma, finfo, float16, float32, float64, half, iinfo, inf, int8, int16,
    int32, int64, intc, intp, issubdtype, longdouble, nan, newaxis, pi, promote_types,
    result_type, short, single, ubyte, uint, uint8, uint16, uint32, uint64, uintc, uintp,
    ushort,
)
from numpy import bool as bool  # noqa: PLC0414 - NumPy 2's name for bool_

from ._api import array_methods as _array_methods  # noqa: F401 - attaches ndarray methods
from ._api.creation import (
    arange, array, asanyarray, asarray, copy, empty, empty_like, eye, from_dask, full,
    full_like, identity, linspace, ones, ones_like, to_dask, zeros, zeros_like,
)
from ._api.elementwise import astype, clip, imag, real, where
from ._api.linear_algebra import dot, inner, matmul, outer, tensordot, vdot
from ._api.manipulation import ravel, reshape, shape, ndim, size, swapaxes, transpose
from ._api.materialization import asnumpy
from ._api.reductions import (
    all, amax, amin, any, argmax, argmin, cumprod, cumsum, max, mean, min, prod, std, sum,
    var,
)
from ._api.ufuncs import ufunc, ufuncs as _ufuncs
from ._array.ndarray import ndarray
from ._runtime import config

globals().update(_ufuncs)

__version__ = "0.1.0"
