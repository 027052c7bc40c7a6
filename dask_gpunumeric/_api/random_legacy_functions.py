"""Random sampling, legacy API: the module-level functions of ``numpy.random`` (``seed``,
``rand``, ``randn``, ``randint``, ``normal``, ...), each drawing from one global
``RandomState`` (``random_legacy``), as NumPy's draw from its own.
"""

from __future__ import annotations

from typing import Any

from .random_legacy import RandomState

__all__ = [
    "beta",
    "binomial",
    "chisquare",
    "choice",
    "exponential",
    "f",
    "gamma",
    "geometric",
    "gumbel",
    "hypergeometric",
    "laplace",
    "logistic",
    "lognormal",
    "logseries",
    "negative_binomial",
    "noncentral_chisquare",
    "noncentral_f",
    "normal",
    "pareto",
    "permutation",
    "poisson",
    "power",
    "rand",
    "randint",
    "randn",
    "random",
    "random_sample",
    "ranf",
    "rayleigh",
    "sample",
    "seed",
    "shuffle",
    "standard_cauchy",
    "standard_normal",
    "standard_t",
    "triangular",
    "uniform",
    "vonmises",
    "wald",
    "weibull",
    "zipf",
]

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


def choice(a: Any, size: Any = None, replace: bool = True, p: Any = None) -> Any:
    """dask_gpunumeric implementation of :func:`numpy.random.choice`."""
    return _global_state.choice(a, size, replace, p)


def permutation(x: Any) -> Any:
    """dask_gpunumeric implementation of :func:`numpy.random.permutation`."""
    return _global_state.permutation(x)


def shuffle(x: Any) -> None:
    """dask_gpunumeric implementation of :func:`numpy.random.shuffle`."""
    _global_state.shuffle(x)


ranf = sample = random_sample


# The distributions of the global RandomState (NumPy's signatures, plus chunks=).
def beta(a: Any, b: Any, size: Any = None, *, chunks: Any = None) -> Any:
    """dask_gpunumeric implementation of :func:`numpy.random.beta`."""
    return _global_state.beta(a, b, size, chunks=chunks)


def binomial(n: Any, p: Any, size: Any = None, *, chunks: Any = None) -> Any:
    """dask_gpunumeric implementation of :func:`numpy.random.binomial`."""
    return _global_state.binomial(n, p, size, chunks=chunks)


def chisquare(df: Any, size: Any = None, *, chunks: Any = None) -> Any:
    """dask_gpunumeric implementation of :func:`numpy.random.chisquare`."""
    return _global_state.chisquare(df, size, chunks=chunks)


def exponential(scale: Any = 1.0, size: Any = None, *, chunks: Any = None) -> Any:
    """dask_gpunumeric implementation of :func:`numpy.random.exponential`."""
    return _global_state.exponential(scale, size, chunks=chunks)


def f(dfnum: Any, dfden: Any, size: Any = None, *, chunks: Any = None) -> Any:
    """dask_gpunumeric implementation of :func:`numpy.random.f`."""
    return _global_state.f(dfnum, dfden, size, chunks=chunks)


def gamma(shape: Any, scale: Any = 1.0, size: Any = None, *, chunks: Any = None) -> Any:
    """dask_gpunumeric implementation of :func:`numpy.random.gamma`."""
    return _global_state.gamma(shape, scale, size, chunks=chunks)


def geometric(p: Any, size: Any = None, *, chunks: Any = None) -> Any:
    """dask_gpunumeric implementation of :func:`numpy.random.geometric`."""
    return _global_state.geometric(p, size, chunks=chunks)


def gumbel(loc: Any = 0.0, scale: Any = 1.0, size: Any = None, *, chunks: Any = None) -> Any:
    """dask_gpunumeric implementation of :func:`numpy.random.gumbel`."""
    return _global_state.gumbel(loc, scale, size, chunks=chunks)


def hypergeometric(
    ngood: Any, nbad: Any, nsample: Any, size: Any = None, *, chunks: Any = None
) -> Any:
    """dask_gpunumeric implementation of :func:`numpy.random.hypergeometric`."""
    return _global_state.hypergeometric(ngood, nbad, nsample, size, chunks=chunks)


def laplace(loc: Any = 0.0, scale: Any = 1.0, size: Any = None, *, chunks: Any = None) -> Any:
    """dask_gpunumeric implementation of :func:`numpy.random.laplace`."""
    return _global_state.laplace(loc, scale, size, chunks=chunks)


def logistic(loc: Any = 0.0, scale: Any = 1.0, size: Any = None, *, chunks: Any = None) -> Any:
    """dask_gpunumeric implementation of :func:`numpy.random.logistic`."""
    return _global_state.logistic(loc, scale, size, chunks=chunks)


def logseries(p: Any, size: Any = None, *, chunks: Any = None) -> Any:
    """dask_gpunumeric implementation of :func:`numpy.random.logseries`."""
    return _global_state.logseries(p, size, chunks=chunks)


def lognormal(mean: Any = 0.0, sigma: Any = 1.0, size: Any = None, *, chunks: Any = None) -> Any:
    """dask_gpunumeric implementation of :func:`numpy.random.lognormal`."""
    return _global_state.lognormal(mean, sigma, size, chunks=chunks)


def negative_binomial(n: Any, p: Any, size: Any = None, *, chunks: Any = None) -> Any:
    """dask_gpunumeric implementation of :func:`numpy.random.negative_binomial`."""
    return _global_state.negative_binomial(n, p, size, chunks=chunks)


def noncentral_chisquare(df: Any, nonc: Any, size: Any = None, *, chunks: Any = None) -> Any:
    """dask_gpunumeric implementation of :func:`numpy.random.noncentral_chisquare`."""
    return _global_state.noncentral_chisquare(df, nonc, size, chunks=chunks)


def noncentral_f(dfnum: Any, dfden: Any, nonc: Any, size: Any = None, *, chunks: Any = None) -> Any:
    """dask_gpunumeric implementation of :func:`numpy.random.noncentral_f`."""
    return _global_state.noncentral_f(dfnum, dfden, nonc, size, chunks=chunks)


def normal(loc: Any = 0.0, scale: Any = 1.0, size: Any = None, *, chunks: Any = None) -> Any:
    """dask_gpunumeric implementation of :func:`numpy.random.normal`."""
    return _global_state.normal(loc, scale, size, chunks=chunks)


def pareto(a: Any, size: Any = None, *, chunks: Any = None) -> Any:
    """dask_gpunumeric implementation of :func:`numpy.random.pareto`."""
    return _global_state.pareto(a, size, chunks=chunks)


def poisson(lam: Any = 1.0, size: Any = None, *, chunks: Any = None) -> Any:
    """dask_gpunumeric implementation of :func:`numpy.random.poisson`."""
    return _global_state.poisson(lam, size, chunks=chunks)


def power(a: Any, size: Any = None, *, chunks: Any = None) -> Any:
    """dask_gpunumeric implementation of :func:`numpy.random.power`."""
    return _global_state.power(a, size, chunks=chunks)


def rayleigh(scale: Any = 1.0, size: Any = None, *, chunks: Any = None) -> Any:
    """dask_gpunumeric implementation of :func:`numpy.random.rayleigh`."""
    return _global_state.rayleigh(scale, size, chunks=chunks)


def standard_cauchy(size: Any = None, *, chunks: Any = None) -> Any:
    """dask_gpunumeric implementation of :func:`numpy.random.standard_cauchy`."""
    return _global_state.standard_cauchy(size, chunks=chunks)


def standard_t(df: Any, size: Any = None, *, chunks: Any = None) -> Any:
    """dask_gpunumeric implementation of :func:`numpy.random.standard_t`."""
    return _global_state.standard_t(df, size, chunks=chunks)


def triangular(left: Any, mode: Any, right: Any, size: Any = None, *, chunks: Any = None) -> Any:
    """dask_gpunumeric implementation of :func:`numpy.random.triangular`."""
    return _global_state.triangular(left, mode, right, size, chunks=chunks)


def uniform(low: Any = 0.0, high: Any = 1.0, size: Any = None, *, chunks: Any = None) -> Any:
    """dask_gpunumeric implementation of :func:`numpy.random.uniform`."""
    return _global_state.uniform(low, high, size, chunks=chunks)


def vonmises(mu: Any, kappa: Any, size: Any = None, *, chunks: Any = None) -> Any:
    """dask_gpunumeric implementation of :func:`numpy.random.vonmises`."""
    return _global_state.vonmises(mu, kappa, size, chunks=chunks)


def wald(mean: Any, scale: Any, size: Any = None, *, chunks: Any = None) -> Any:
    """dask_gpunumeric implementation of :func:`numpy.random.wald`."""
    return _global_state.wald(mean, scale, size, chunks=chunks)


def weibull(a: Any, size: Any = None, *, chunks: Any = None) -> Any:
    """dask_gpunumeric implementation of :func:`numpy.random.weibull`."""
    return _global_state.weibull(a, size, chunks=chunks)


def zipf(a: Any, size: Any = None, *, chunks: Any = None) -> Any:
    """dask_gpunumeric implementation of :func:`numpy.random.zipf`."""
    return _global_state.zipf(a, size, chunks=chunks)
