"""Random sampling, legacy API (NumPy reference: "Legacy random generation"):
``RandomState``; the module-level functions (``seed``, ``rand``, ``normal``, ...) drawing
from one global ``RandomState`` are ``random_legacy_functions``'s.

A ``RandomState`` draws through a ``Generator`` (see ``random_generator``), so chunks are
drawn on the workers in independent streams. Differences from NumPy: the values are not
those of NumPy's MT19937 for the same seed; dtypes, shapes and errors are.
"""

from __future__ import annotations

from typing import Any

import numpy

from .random_generator import Generator

__all__ = ["RandomState"]


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

    # -- the distributions (NumPy's signatures, plus chunks=): the Generator's draws
    def beta(self, a: Any, b: Any, size: Any = None, *, chunks: Any = None) -> Any:
        """dask_gpunumeric implementation of :meth:`numpy.random.RandomState.beta`."""
        return self._generator.beta(a, b, size, chunks=chunks)

    def binomial(self, n: Any, p: Any, size: Any = None, *, chunks: Any = None) -> Any:
        """dask_gpunumeric implementation of :meth:`numpy.random.RandomState.binomial`."""
        return self._generator.binomial(n, p, size, chunks=chunks)

    def chisquare(self, df: Any, size: Any = None, *, chunks: Any = None) -> Any:
        """dask_gpunumeric implementation of :meth:`numpy.random.RandomState.chisquare`."""
        return self._generator.chisquare(df, size, chunks=chunks)

    def exponential(self, scale: Any = 1.0, size: Any = None, *, chunks: Any = None) -> Any:
        """dask_gpunumeric implementation of :meth:`numpy.random.RandomState.exponential`."""
        return self._generator.exponential(scale, size, chunks=chunks)

    def f(self, dfnum: Any, dfden: Any, size: Any = None, *, chunks: Any = None) -> Any:
        """dask_gpunumeric implementation of :meth:`numpy.random.RandomState.f`."""
        return self._generator.f(dfnum, dfden, size, chunks=chunks)

    def gamma(self, shape: Any, scale: Any = 1.0, size: Any = None, *, chunks: Any = None) -> Any:
        """dask_gpunumeric implementation of :meth:`numpy.random.RandomState.gamma`."""
        return self._generator.gamma(shape, scale, size, chunks=chunks)

    def geometric(self, p: Any, size: Any = None, *, chunks: Any = None) -> Any:
        """dask_gpunumeric implementation of :meth:`numpy.random.RandomState.geometric`."""
        return self._generator.geometric(p, size, chunks=chunks)

    def gumbel(
        self, loc: Any = 0.0, scale: Any = 1.0, size: Any = None, *, chunks: Any = None
    ) -> Any:
        """dask_gpunumeric implementation of :meth:`numpy.random.RandomState.gumbel`."""
        return self._generator.gumbel(loc, scale, size, chunks=chunks)

    def hypergeometric(
        self, ngood: Any, nbad: Any, nsample: Any, size: Any = None, *, chunks: Any = None
    ) -> Any:
        """dask_gpunumeric implementation of :meth:`numpy.random.RandomState.hypergeometric`."""
        return self._generator.hypergeometric(ngood, nbad, nsample, size, chunks=chunks)

    def laplace(
        self, loc: Any = 0.0, scale: Any = 1.0, size: Any = None, *, chunks: Any = None
    ) -> Any:
        """dask_gpunumeric implementation of :meth:`numpy.random.RandomState.laplace`."""
        return self._generator.laplace(loc, scale, size, chunks=chunks)

    def logistic(
        self, loc: Any = 0.0, scale: Any = 1.0, size: Any = None, *, chunks: Any = None
    ) -> Any:
        """dask_gpunumeric implementation of :meth:`numpy.random.RandomState.logistic`."""
        return self._generator.logistic(loc, scale, size, chunks=chunks)

    def logseries(self, p: Any, size: Any = None, *, chunks: Any = None) -> Any:
        """dask_gpunumeric implementation of :meth:`numpy.random.RandomState.logseries`."""
        return self._generator.logseries(p, size, chunks=chunks)

    def lognormal(
        self, mean: Any = 0.0, sigma: Any = 1.0, size: Any = None, *, chunks: Any = None
    ) -> Any:
        """dask_gpunumeric implementation of :meth:`numpy.random.RandomState.lognormal`."""
        return self._generator.lognormal(mean, sigma, size, chunks=chunks)

    def negative_binomial(self, n: Any, p: Any, size: Any = None, *, chunks: Any = None) -> Any:
        """dask_gpunumeric implementation of :meth:`numpy.random.RandomState.negative_binomial`."""
        return self._generator.negative_binomial(n, p, size, chunks=chunks)

    def noncentral_chisquare(
        self, df: Any, nonc: Any, size: Any = None, *, chunks: Any = None
    ) -> Any:
        """dask_gpunumeric implementation of :meth:`numpy.random.RandomState.noncentral_chisquare`."""
        return self._generator.noncentral_chisquare(df, nonc, size, chunks=chunks)

    def noncentral_f(
        self, dfnum: Any, dfden: Any, nonc: Any, size: Any = None, *, chunks: Any = None
    ) -> Any:
        """dask_gpunumeric implementation of :meth:`numpy.random.RandomState.noncentral_f`."""
        return self._generator.noncentral_f(dfnum, dfden, nonc, size, chunks=chunks)

    def normal(
        self, loc: Any = 0.0, scale: Any = 1.0, size: Any = None, *, chunks: Any = None
    ) -> Any:
        """dask_gpunumeric implementation of :meth:`numpy.random.RandomState.normal`."""
        return self._generator.normal(loc, scale, size, chunks=chunks)

    def pareto(self, a: Any, size: Any = None, *, chunks: Any = None) -> Any:
        """dask_gpunumeric implementation of :meth:`numpy.random.RandomState.pareto`."""
        return self._generator.pareto(a, size, chunks=chunks)

    def poisson(self, lam: Any = 1.0, size: Any = None, *, chunks: Any = None) -> Any:
        """dask_gpunumeric implementation of :meth:`numpy.random.RandomState.poisson`."""
        return self._generator.poisson(lam, size, chunks=chunks)

    def power(self, a: Any, size: Any = None, *, chunks: Any = None) -> Any:
        """dask_gpunumeric implementation of :meth:`numpy.random.RandomState.power`."""
        return self._generator.power(a, size, chunks=chunks)

    def rayleigh(self, scale: Any = 1.0, size: Any = None, *, chunks: Any = None) -> Any:
        """dask_gpunumeric implementation of :meth:`numpy.random.RandomState.rayleigh`."""
        return self._generator.rayleigh(scale, size, chunks=chunks)

    def standard_cauchy(self, size: Any = None, *, chunks: Any = None) -> Any:
        """dask_gpunumeric implementation of :meth:`numpy.random.RandomState.standard_cauchy`."""
        return self._generator.standard_cauchy(size, chunks=chunks)

    def standard_t(self, df: Any, size: Any = None, *, chunks: Any = None) -> Any:
        """dask_gpunumeric implementation of :meth:`numpy.random.RandomState.standard_t`."""
        return self._generator.standard_t(df, size, chunks=chunks)

    def triangular(
        self, left: Any, mode: Any, right: Any, size: Any = None, *, chunks: Any = None
    ) -> Any:
        """dask_gpunumeric implementation of :meth:`numpy.random.RandomState.triangular`."""
        return self._generator.triangular(left, mode, right, size, chunks=chunks)

    def uniform(
        self, low: Any = 0.0, high: Any = 1.0, size: Any = None, *, chunks: Any = None
    ) -> Any:
        """dask_gpunumeric implementation of :meth:`numpy.random.RandomState.uniform`."""
        return self._generator.uniform(low, high, size, chunks=chunks)

    def vonmises(self, mu: Any, kappa: Any, size: Any = None, *, chunks: Any = None) -> Any:
        """dask_gpunumeric implementation of :meth:`numpy.random.RandomState.vonmises`."""
        return self._generator.vonmises(mu, kappa, size, chunks=chunks)

    def wald(self, mean: Any, scale: Any, size: Any = None, *, chunks: Any = None) -> Any:
        """dask_gpunumeric implementation of :meth:`numpy.random.RandomState.wald`."""
        return self._generator.wald(mean, scale, size, chunks=chunks)

    def weibull(self, a: Any, size: Any = None, *, chunks: Any = None) -> Any:
        """dask_gpunumeric implementation of :meth:`numpy.random.RandomState.weibull`."""
        return self._generator.weibull(a, size, chunks=chunks)

    def zipf(self, a: Any, size: Any = None, *, chunks: Any = None) -> Any:
        """dask_gpunumeric implementation of :meth:`numpy.random.RandomState.zipf`."""
        return self._generator.zipf(a, size, chunks=chunks)
