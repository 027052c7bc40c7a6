"""``dask_gpunumeric.fft``: NumPy's ``numpy.fft`` on distributed arrays (see ``_api/fft.py``)."""

from __future__ import annotations

from .._api.fft import *  # noqa: F403
from .._api.fft import __all__ as __all__

# fallback __getattr__ installed here
