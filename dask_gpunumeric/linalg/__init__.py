"""``dask_gpunumeric.linalg``: NumPy's ``numpy.linalg`` on distributed arrays.

Products and norms are distributed; ``qr``/``svd`` of tall-skinny matrices use dask's
tsqr; other routines gather each matrix onto one worker (up to
``gpunumeric.linalg-gather-limit`` bytes). See ``_api/linalg*.py``.
"""

from __future__ import annotations

from .._api.linalg import *  # noqa: F403
from .._api.linalg import __all__ as _decompositions
from .._api.linalg_norms import *  # noqa: F403
from .._api.linalg_norms import __all__ as _norms
from .._api.linalg_products import *  # noqa: F403
from .._api.linalg_products import __all__ as _products

__all__ = [*_decompositions, *_norms, *_products]

from .._api.fallback import fallback_getattr as _fallback_getattr

__getattr__ = _fallback_getattr("numpy.linalg")
