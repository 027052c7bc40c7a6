"""The NumPy fallback: every NumPy name we do not implement is still present.

A module gets it with one line (PEP 562's module ``__getattr__``)::

    __getattr__ = fallback_getattr("numpy.linalg")

Functions become ``FallbackFunction``s (chunk-wise or gathering, see ``calls``); types,
dtypes and constants are NumPy's own objects; ``linalg``, ``fft`` and ``random`` are our
subpackages (a fallback module stands in for one not written yet); the type-only
submodules (``exceptions``, ``dtypes``, ``typing``) are NumPy's; other submodules
(``ma``, ``char``, ``polynomial``...) are unsupported and say so.
"""

from __future__ import annotations

import functools
import importlib
import types
from collections.abc import Callable
from typing import Any

from .calls import FallbackFunction
from .classification import numpy_own_table, passthrough_submodules, subpackages
from .policy import FallbackSizeError

__all__ = [
    "FallbackFunction",
    "FallbackModule",
    "FallbackSizeError",
    "fallback_for",
    "fallback_getattr",
]


@functools.cache
def fallback_for(path: str) -> FallbackFunction:
    """The fallback of ``numpy.<path>`` (``"sinc"``, ``"linalg.inv"``), whether or not we
    also implement it natively: tests and benchmarks compare the two."""
    module, _, name = f"numpy.{path}".rpartition(".")
    return FallbackFunction(path, getattr(importlib.import_module(module), name))


def fallback_getattr(numpy_module: str) -> Callable[[str], Any]:
    """A module ``__getattr__`` giving NumPy's ``numpy_module.<name>`` through the fallback
    for every name the module does not define itself."""
    source = importlib.import_module(numpy_module)
    prefix = numpy_module.partition(".")[2]  # "" for numpy, "linalg" for numpy.linalg
    cache: dict[str, Any] = {}

    def __getattr__(name: str) -> Any:  # noqa: N807 - PEP 562's name
        if name.startswith("__") or not hasattr(source, name):
            raise AttributeError(
                f"module 'dask_gpunumeric{'.' + prefix if prefix else ''}' has no attribute "
                f"{name!r} (neither has {numpy_module})"
            )
        if name not in cache:
            cache[name] = _stand_in_for(prefix, name, getattr(source, name))
        return cache[name]

    return __getattr__


def _stand_in_for(prefix: str, name: str, value: Any) -> Any:
    path = f"{prefix}.{name}" if prefix else name
    if isinstance(value, types.ModuleType):
        return _submodule(path, value)
    if isinstance(value, type) or not callable(value) or path in numpy_own_table:
        return value  # dtypes, scalar types, classes, constants, utilities: NumPy's own
    return FallbackFunction(path, value)


def _submodule(path: str, module: types.ModuleType) -> types.ModuleType:
    if path in passthrough_submodules:
        return module
    if path in subpackages:
        try:
            return importlib.import_module(f"dask_gpunumeric.{path}")
        except ModuleNotFoundError:
            return FallbackModule(path)
    raise AttributeError(
        f"numpy.{path} is not supported by dask_gpunumeric: compute your arrays to NumPy "
        f"(.compute() or dask_gpunumeric.asnumpy) and use numpy.{path} on them"
    )


class FallbackModule(types.ModuleType):
    """Stands in for our subpackage ``dask_gpunumeric.<path>`` until it exists: every name
    falls back to ``numpy.<path>``."""

    def __init__(self, path: str) -> None:
        super().__init__(f"dask_gpunumeric.{path}", f"NumPy's numpy.{path} through the fallback")
        # A module's own ``__getattr__`` (PEP 562) answers the names it does not hold.
        self.__getattr__ = fallback_getattr(f"numpy.{path}")  # type: ignore[method-assign]
