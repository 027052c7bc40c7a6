"""Random sampling, legacy API (NumPy reference: "Legacy random generation"):
``RandomState`` and the module-level functions (``seed``, ``rand``, ``randn``, ``randint``,
...) drawing from one global ``RandomState``.

A ``RandomState`` draws through a ``Generator`` (see ``random_generator``), so chunks are
drawn on the workers in independent streams. Differences from NumPy: the values are not
those of NumPy's MT19937 for the same seed; dtypes, shapes and errors are.
"""

from __future__ import annotations

from typing import Any

import numpy

from .random_generator import Generator, distribution_table

__all__ = [
    "RandomState",
    "choice",
    "permutation",
    "rand",
    "randint",
    "randn",
    "random",
    "random_sample",
    "seed",
    "shuffle",
    "standard_normal",
]


class RandomState:
    """dask_gpunumeric implementation of :class:`numpy.random.RandomState`."""

    def __init__(self, seed: Any = None) -> None:
        self.seed(seed)

    def seed(self, seed: Any = None) -> None:
        """dask_gpunumeric implementation of :meth:`numpy.random.RandomState.seed`."""
        numpy.random.RandomState(seed)  # NumPy's errors for a bad seed
        self._generator = Generator(seed)

    def random_sample(self, size: Any = None) -> Any:
        """dask_gpunumeric implementation of :meth:`numpy.random.RandomState.random_sample`."""
        return self._generator.random(size)

    random = random_sample

    def rand(self, *shape: int) -> Any:
        """dask_gpunumeric implementation of :meth:`numpy.random.RandomState.rand`."""
        return self._generator.random(shape or None)

    def randn(self, *shape: int) -> Any:
        """dask_gpunumeric implementation of :meth:`numpy.random.RandomState.randn`."""
        return self._generator.standard_normal(shape or None)

    def standard_normal(self, size: Any = None) -> Any:
        """dask_gpunumeric implementation of :meth:`numpy.random.RandomState.standard_normal`."""
        return self._generator.standard_normal(size)

    def randint(self, low: Any, high: Any = None, size: Any = None, dtype: Any = int) -> Any:
        """dask_gpunumeric implementation of :meth:`numpy.random.RandomState.randint`."""
        numpy.random.RandomState(0).randint(low, high, size=1, dtype=dtype)  # NumPy's errors
        result = self._generator.integers(low, high, size=size, dtype=dtype)
        return int(result) if size is None and dtype is int else result

    def choice(self, a: Any, size: Any = None, replace: bool = True, p: Any = None) -> Any:
        """dask_gpunumeric implementation of :meth:`numpy.random.RandomState.choice`."""
        return self._generator.choice(a, size=size, replace=replace, p=p)

    def permutation(self, x: Any) -> Any:
        """dask_gpunumeric implementation of :meth:`numpy.random.RandomState.permutation`."""
        return self._generator.permutation(x)

    def shuffle(self, x: Any) -> None:
        """dask_gpunumeric implementation of :meth:`numpy.random.RandomState.shuffle`."""
        self._generator.shuffle(x)


def _delegate(method: str) -> Any:
    def draw(self: RandomState, *args: Any, **kwargs: Any) -> Any:
        return getattr(self._generator, method)(*args, **kwargs)

    draw.__name__ = method
    draw.__doc__ = f"dask_gpunumeric implementation of :meth:`numpy.random.RandomState.{method}`."
    return draw


for _method in distribution_table:
    setattr(RandomState, _method, _delegate(_method))

_global_state = RandomState()


def seed(seed: Any = None) -> None:
    """dask_gpunumeric implementation of :func:`numpy.random.seed`."""
    _global_state.seed(seed)


def rand(*shape: int) -> Any:
    """dask_gpunumeric implementation of :func:`numpy.random.rand`."""
    return _global_state.rand(*shape)


def randn(*shape: int) -> Any:
    """dask_gpunumeric implementation of :func:`numpy.random.randn`."""
    return _global_state.randn(*shape)


def randint(low: Any, high: Any = None, size: Any = None, dtype: Any = int) -> Any:
    """dask_gpunumeric implementation of :func:`numpy.random.randint`."""
    return _global_state.randint(low, high, size, dtype)


def random_sample(size: Any = None) -> Any:
    """dask_gpunumeric implementation of :func:`numpy.random.random_sample`."""
    return _global_state.random_sample(size)


def random(size: Any = None) -> Any:
    """dask_gpunumeric implementation of :func:`numpy.random.random`."""
    return _global_state.random_sample(size)


def standard_normal(size: Any = None) -> Any:
    """dask_gpunumeric implementation of :func:`numpy.random.standard_normal`."""
    return _global_state.standard_normal(size)


def _module_function(method: str) -> Any:
    """``numpy.random.<method>``: the global ``RandomState``'s method."""

    def draw(*args: Any, **kwargs: Any) -> Any:
        return getattr(_global_state, method)(*args, **kwargs)

    draw.__name__ = method
    draw.__doc__ = f"dask_gpunumeric implementation of :func:`numpy.random.{method}`."
    return draw


# The distributions (beta, binomial, normal, uniform, ...) of the global RandomState.
for _method in distribution_table:
    globals()[_method] = _module_function(_method)
__all__ += sorted(distribution_table)
ranf = sample = random_sample
__all__ += ["ranf", "sample"]


def choice(a: Any, size: Any = None, replace: bool = True, p: Any = None) -> Any:
    """dask_gpunumeric implementation of :func:`numpy.random.choice`."""
    return _global_state.choice(a, size, replace, p)


def permutation(x: Any) -> Any:
    """dask_gpunumeric implementation of :func:`numpy.random.permutation`."""
    return _global_state.permutation(x)


def shuffle(x: Any) -> None:
    """dask_gpunumeric implementation of :func:`numpy.random.shuffle`."""
    _global_state.shuffle(x)
