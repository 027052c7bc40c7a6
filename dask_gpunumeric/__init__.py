"""dask_gpunumeric: a drop-in NumPy whose arrays live partitioned across Dask workers.

``import dask_gpunumeric as np`` and write sequential NumPy; the library partitions,
defers and distributes it (CuPy chunks on GPUs, NumPy chunks on CPUs).
"""

from __future__ import annotations

import sys as _sys

from numpy import (  # dtypes, constants and type helpers are NumPy's own
    bool,  # NumPy 2's name for bool_
    bool_,
    byte,
    can_cast,
    cdouble,
    clongdouble,
    complex64,
    complex128,
    csingle,
    double,
    dtype,
    e,
    euler_gamma,
    finfo,
    float16,
    float32,
    float64,
    half,
    iinfo,
    inf,
    int8,
    int16,
    int32,
    int64,
    intc,
    intp,
    isdtype,
    issubdtype,
    longdouble,
    nan,
    newaxis,
    pi,
    promote_types,
    result_type,
    short,
    single,
    ubyte,
    uint,
    uint8,
    uint16,
    uint32,
    uint64,
    uintc,
    uintp,
    ushort,
)

from . import _api
from . import fft as fft  # subpackages, as numpy's: fft, linalg, random
from . import linalg as linalg
from . import random as random
from ._api.adding_removing import *  # noqa: F403
from ._api.array_api import *  # noqa: F403
from ._api.broadcasting import *  # noqa: F403
from ._api.building_matrices import *  # noqa: F403
from ._api.convolution import *  # noqa: F403
from ._api.correlating import *  # noqa: F403
from ._api.creation import *  # noqa: F403
from ._api.diagonals import *  # noqa: F403
from ._api.differences import *  # noqa: F403
from ._api.elementwise import *  # noqa: F403
from ._api.exceptions import *  # noqa: F403
from ._api.functional import *  # noqa: F403
from ._api.histograms import *  # noqa: F403
from ._api.insertion import *  # noqa: F403
from ._api.io import *  # noqa: F403
from ._api.joining import *  # noqa: F403
from ._api.linear_algebra import *  # noqa: F403
from ._api.logic import *  # noqa: F403
from ._api.manipulation import *  # noqa: F403
from ._api.materialization import *  # noqa: F403
from ._api.math_misc import *  # noqa: F403
from ._api.miscellaneous import *  # noqa: F403
from ._api.ndarray import ndarray
from ._api.numerical_ranges import *  # noqa: F403
from ._api.order_statistics import *  # noqa: F403
from ._api.polynomials import *  # noqa: F403
from ._api.reductions import *  # noqa: F403
from ._api.selection import *  # noqa: F403
from ._api.set_operations import *  # noqa: F403
from ._api.sorting import *  # noqa: F403
from ._api.statistics import *  # noqa: F403
from ._api.tiling import *  # noqa: F403
from ._api.type_testing import *  # noqa: F403
from ._api.ufuncs import ufunc
from ._api.ufuncs import ufuncs as _ufuncs
from ._api.window_functions import *  # noqa: F403
from ._runtime import config

# One module per NumPy reference section; each lists its public names in ``__all__``.
# A new section module is added to this tuple and star-imported above.
_api_modules = (
    _api.adding_removing,
    _api.array_api,
    _api.broadcasting,
    _api.building_matrices,
    _api.convolution,
    _api.correlating,
    _api.creation,
    _api.diagonals,
    _api.differences,
    _api.elementwise,
    _api.exceptions,
    _api.functional,
    _api.histograms,
    _api.insertion,
    _api.io,
    _api.joining,
    _api.linear_algebra,
    _api.logic,
    _api.manipulation,
    _api.materialization,
    _api.math_misc,
    _api.miscellaneous,
    _api.numerical_ranges,
    _api.order_statistics,
    _api.polynomials,
    _api.reductions,
    _api.selection,
    _api.set_operations,
    _api.sorting,
    _api.statistics,
    _api.tiling,
    _api.type_testing,
    _api.window_functions,
)

globals().update(_ufuncs)

# Every name not defined above: NumPy's types and constants, functions through the fallback.
from ._api.fallback import fallback_getattr as _fallback_getattr  # noqa: E402

__getattr__ = _fallback_getattr("numpy")

__version__ = "0.1.0"

__all__ = [  # noqa: RUF022 - NumPy's own names first, then ours by module
    "bool_",
    "byte",
    "can_cast",
    "cdouble",
    "clongdouble",
    "complex64",
    "complex128",
    "csingle",
    "double",
    "dtype",
    "e",
    "euler_gamma",
    "finfo",
    "float16",
    "float32",
    "float64",
    "half",
    "iinfo",
    "inf",
    "int8",
    "int16",
    "int32",
    "int64",
    "intc",
    "intp",
    "isdtype",
    "issubdtype",
    "longdouble",
    "nan",
    "newaxis",
    "pi",
    "promote_types",
    "result_type",
    "short",
    "single",
    "ubyte",
    "uint",
    "uint8",
    "uint16",
    "uint32",
    "uint64",
    "uintc",
    "uintp",
    "ushort",
    "bool",
    "ufunc",
    "ndarray",
    "config",
]
for _module in _api_modules:
    __all__ += _module.__all__
__all__ += sorted(_ufuncs)

# The namespace is complete: numpy.f(ours) dispatches into it (``ndarray.__array_function__``).
_api.ndarray.dispatch_numpy_functions_to(_sys.modules[__name__])
