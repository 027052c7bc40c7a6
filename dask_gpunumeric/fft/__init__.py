"""``dask_gpunumeric.fft``: NumPy's ``numpy.fft`` on distributed arrays (see ``_api/fft.py``)."""

from __future__ import annotations

from .._api.fallback import fallback_getattr as _fallback_getattr
from .._api.fft import *  # noqa: F403
from .._api.fft import __all__ as __all__

__getattr__ = _fallback_getattr("numpy.fft")
