"""``dask_gpunumeric.random``: NumPy's ``numpy.random`` with chunks drawn on the workers
(see ``_api/random_generator.py``, ``_api/random_distributions.py``,
``_api/random_legacy.py`` and ``_api/random_legacy_functions.py``)."""

from __future__ import annotations

from numpy.random import SeedSequence as SeedSequence

from .._api.random_generator import *  # noqa: F403
from .._api.random_generator import __all__ as _generator_names
from .._api.random_legacy import *  # noqa: F403
from .._api.random_legacy import __all__ as _legacy_names
from .._api.random_legacy_functions import *  # noqa: F403
from .._api.random_legacy_functions import __all__ as _function_names

__all__ = ["SeedSequence", *_generator_names, *_legacy_names, *_function_names]

from .._api.fallback import fallback_getattr as _fallback_getattr

__getattr__ = _fallback_getattr("numpy.random")
