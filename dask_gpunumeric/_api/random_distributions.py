"""The distribution methods of ``Generator`` (``beta`` ... ``zipf``), in their own module
so that ``random_generator.py`` stays a readable size: a base class of ``Generator``.

Each method has NumPy's signature (parameter names, defaults, ``size``) plus our keyword-only
``chunks=``, and is one call to ``Generator._distribution`` with NumPy's parameters in
NumPy's order; ``tests/unit/_api/test_random_methods.py`` compares every signature with
NumPy's. Differences from NumPy: the parameters are scalars, except for ``uniform``,
``normal`` and ``exponential``, whose array parameters are applied to standard draws
elementwise (``random_generator._affine``).
"""

from __future__ import annotations

from typing import Any

__all__ = ["GeneratorDistributions"]


class GeneratorDistributions:
    """``numpy.random.Generator``'s distributions, each drawn by ``_distribution``."""

    def _distribution(
        self, method: str, parameters: tuple[Any, ...], size: Any, chunks: Any
    ) -> Any:
        """A draw from ``method``'s distribution: ``Generator`` implements it."""
        raise NotImplementedError

    def beta(self, a: Any, b: Any, size: Any = None, *, chunks: Any = None) -> Any:
        """dask_gpunumeric implementation of :meth:`numpy.random.Generator.beta`."""
        return self._distribution("beta", (a, b), size, chunks)

    def binomial(self, n: Any, p: Any, size: Any = None, *, chunks: Any = None) -> Any:
        """dask_gpunumeric implementation of :meth:`numpy.random.Generator.binomial`."""
        return self._distribution("binomial", (n, p), size, chunks)

    def chisquare(self, df: Any, size: Any = None, *, chunks: Any = None) -> Any:
        """dask_gpunumeric implementation of :meth:`numpy.random.Generator.chisquare`."""
        return self._distribution("chisquare", (df,), size, chunks)

    def exponential(self, scale: Any = 1.0, size: Any = None, *, chunks: Any = None) -> Any:
        """dask_gpunumeric implementation of :meth:`numpy.random.Generator.exponential`."""
        return self._distribution("exponential", (scale,), size, chunks)

    def f(self, dfnum: Any, dfden: Any, size: Any = None, *, chunks: Any = None) -> Any:
        """dask_gpunumeric implementation of :meth:`numpy.random.Generator.f`."""
        return self._distribution("f", (dfnum, dfden), size, chunks)

    def gamma(self, shape: Any, scale: Any = 1.0, size: Any = None, *, chunks: Any = None) -> Any:
        """dask_gpunumeric implementation of :meth:`numpy.random.Generator.gamma`."""
        return self._distribution("gamma", (shape, scale), size, chunks)

    def geometric(self, p: Any, size: Any = None, *, chunks: Any = None) -> Any:
        """dask_gpunumeric implementation of :meth:`numpy.random.Generator.geometric`."""
        return self._distribution("geometric", (p,), size, chunks)

    def gumbel(
        self, loc: Any = 0.0, scale: Any = 1.0, size: Any = None, *, chunks: Any = None
    ) -> Any:
        """dask_gpunumeric implementation of :meth:`numpy.random.Generator.gumbel`."""
        return self._distribution("gumbel", (loc, scale), size, chunks)

    def hypergeometric(
        self, ngood: Any, nbad: Any, nsample: Any, size: Any = None, *, chunks: Any = None
    ) -> Any:
        """dask_gpunumeric implementation of :meth:`numpy.random.Generator.hypergeometric`."""
        return self._distribution("hypergeometric", (ngood, nbad, nsample), size, chunks)

    def laplace(
        self, loc: Any = 0.0, scale: Any = 1.0, size: Any = None, *, chunks: Any = None
    ) -> Any:
        """dask_gpunumeric implementation of :meth:`numpy.random.Generator.laplace`."""
        return self._distribution("laplace", (loc, scale), size, chunks)

    def logistic(
        self, loc: Any = 0.0, scale: Any = 1.0, size: Any = None, *, chunks: Any = None
    ) -> Any:
        """dask_gpunumeric implementation of :meth:`numpy.random.Generator.logistic`."""
        return self._distribution("logistic", (loc, scale), size, chunks)

    def logseries(self, p: Any, size: Any = None, *, chunks: Any = None) -> Any:
        """dask_gpunumeric implementation of :meth:`numpy.random.Generator.logseries`."""
        return self._distribution("logseries", (p,), size, chunks)

    def lognormal(
        self, mean: Any = 0.0, sigma: Any = 1.0, size: Any = None, *, chunks: Any = None
    ) -> Any:
        """dask_gpunumeric implementation of :meth:`numpy.random.Generator.lognormal`."""
        return self._distribution("lognormal", (mean, sigma), size, chunks)

    def negative_binomial(self, n: Any, p: Any, size: Any = None, *, chunks: Any = None) -> Any:
        """dask_gpunumeric implementation of :meth:`numpy.random.Generator.negative_binomial`."""
        return self._distribution("negative_binomial", (n, p), size, chunks)

    def noncentral_chisquare(
        self, df: Any, nonc: Any, size: Any = None, *, chunks: Any = None
    ) -> Any:
        """dask_gpunumeric implementation of :meth:`numpy.random.Generator.noncentral_chisquare`."""
        return self._distribution("noncentral_chisquare", (df, nonc), size, chunks)

    def noncentral_f(
        self, dfnum: Any, dfden: Any, nonc: Any, size: Any = None, *, chunks: Any = None
    ) -> Any:
        """dask_gpunumeric implementation of :meth:`numpy.random.Generator.noncentral_f`."""
        return self._distribution("noncentral_f", (dfnum, dfden, nonc), size, chunks)

    def normal(
        self, loc: Any = 0.0, scale: Any = 1.0, size: Any = None, *, chunks: Any = None
    ) -> Any:
        """dask_gpunumeric implementation of :meth:`numpy.random.Generator.normal`."""
        return self._distribution("normal", (loc, scale), size, chunks)

    def pareto(self, a: Any, size: Any = None, *, chunks: Any = None) -> Any:
        """dask_gpunumeric implementation of :meth:`numpy.random.Generator.pareto`."""
        return self._distribution("pareto", (a,), size, chunks)

    def poisson(self, lam: Any = 1.0, size: Any = None, *, chunks: Any = None) -> Any:
        """dask_gpunumeric implementation of :meth:`numpy.random.Generator.poisson`."""
        return self._distribution("poisson", (lam,), size, chunks)

    def power(self, a: Any, size: Any = None, *, chunks: Any = None) -> Any:
        """dask_gpunumeric implementation of :meth:`numpy.random.Generator.power`."""
        return self._distribution("power", (a,), size, chunks)

    def rayleigh(self, scale: Any = 1.0, size: Any = None, *, chunks: Any = None) -> Any:
        """dask_gpunumeric implementation of :meth:`numpy.random.Generator.rayleigh`."""
        return self._distribution("rayleigh", (scale,), size, chunks)

    def standard_cauchy(self, size: Any = None, *, chunks: Any = None) -> Any:
        """dask_gpunumeric implementation of :meth:`numpy.random.Generator.standard_cauchy`."""
        return self._distribution("standard_cauchy", (), size, chunks)

    def standard_t(self, df: Any, size: Any = None, *, chunks: Any = None) -> Any:
        """dask_gpunumeric implementation of :meth:`numpy.random.Generator.standard_t`."""
        return self._distribution("standard_t", (df,), size, chunks)

    def triangular(
        self, left: Any, mode: Any, right: Any, size: Any = None, *, chunks: Any = None
    ) -> Any:
        """dask_gpunumeric implementation of :meth:`numpy.random.Generator.triangular`."""
        return self._distribution("triangular", (left, mode, right), size, chunks)

    def uniform(
        self, low: Any = 0.0, high: Any = 1.0, size: Any = None, *, chunks: Any = None
    ) -> Any:
        """dask_gpunumeric implementation of :meth:`numpy.random.Generator.uniform`."""
        return self._distribution("uniform", (low, high), size, chunks)

    def vonmises(self, mu: Any, kappa: Any, size: Any = None, *, chunks: Any = None) -> Any:
        """dask_gpunumeric implementation of :meth:`numpy.random.Generator.vonmises`."""
        return self._distribution("vonmises", (mu, kappa), size, chunks)

    def wald(self, mean: Any, scale: Any, size: Any = None, *, chunks: Any = None) -> Any:
        """dask_gpunumeric implementation of :meth:`numpy.random.Generator.wald`."""
        return self._distribution("wald", (mean, scale), size, chunks)

    def weibull(self, a: Any, size: Any = None, *, chunks: Any = None) -> Any:
        """dask_gpunumeric implementation of :meth:`numpy.random.Generator.weibull`."""
        return self._distribution("weibull", (a,), size, chunks)

    def zipf(self, a: Any, size: Any = None, *, chunks: Any = None) -> Any:
        """dask_gpunumeric implementation of :meth:`numpy.random.Generator.zipf`."""
        return self._distribution("zipf", (a,), size, chunks)
