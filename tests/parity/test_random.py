"""numpy.random: a distributed generator cannot match NumPy's values, so it is tested for
what it promises. Dtypes, shapes, scalar types and errors equal NumPy's; the same seed and
chunking give the same values (on every backend, and across the two CPU backends, which
both draw with NumPy's PCG64); seeds, draws and chunks are independent streams;
distributions are right (moments within 6 standard errors, Kolmogorov-Smirnov and
chi-square statistics below their 0.1% critical values); tasks carry seeds, never data."""

from __future__ import annotations

import math
import pickle
from typing import Any

import numpy
import pytest

import dask_gpunumeric as dnp
import dask_gpunumeric.random as drandom
from dask_gpunumeric.testing import assert_raises_like

N = 40_000
CHUNKS = (10_000,)

# method -> (arguments, mean, variance) of the distribution
MOMENTS: dict[str, tuple[tuple[Any, ...], float, float]] = {
    "uniform": ((2.0, 5.0), 3.5, 9 / 12),
    "normal": ((1.0, 2.0), 1.0, 4.0),
    "exponential": ((2.0,), 2.0, 4.0),
    "poisson": ((3.0,), 3.0, 3.0),
    "binomial": ((10, 0.3), 3.0, 2.1),
    "beta": ((2.0, 3.0), 0.4, 6 / (25 * 6)),
    "gamma": ((2.0, 1.5), 3.0, 4.5),
    "geometric": ((0.25,), 4.0, 12.0),
    "laplace": ((1.0, 2.0), 1.0, 8.0),
    "logistic": ((0.0, 1.0), 0.0, math.pi**2 / 3),
    "gumbel": ((0.0, 1.0), numpy.euler_gamma, math.pi**2 / 6),
    "lognormal": ((0.0, 0.5), math.exp(0.125), (math.exp(0.25) - 1) * math.exp(0.25)),
    "chisquare": ((4.0,), 4.0, 8.0),
    "rayleigh": ((1.0,), math.sqrt(math.pi / 2), (4 - math.pi) / 2),
    "negative_binomial": ((5, 0.5), 5.0, 10.0),
    "triangular": ((0.0, 1.0, 3.0), 4 / 3, (9 + 1 - 3) / 18),
    "wald": ((1.0, 2.0), 1.0, 0.5),
    "weibull": ((1.0,), 1.0, 1.0),
    "noncentral_chisquare": ((3.0, 2.0), 5.0, 14.0),
    "hypergeometric": ((10, 20, 6), 2.0, 6 * (1 / 3) * (2 / 3) * (24 / 29)),
    "logseries": (
        (0.5,),
        -0.5 / (0.5 * math.log(0.5)),
        -0.5 * (0.5 + math.log(0.5)) / (0.25 * math.log(0.5) ** 2),
    ),
}


def test_namespace() -> None:
    assert dnp.random is drandom
    assert {"default_rng", "Generator", "RandomState", "seed", "rand", "randint"} <= set(
        drandom.__all__
    )


@pytest.mark.parametrize("method", sorted(MOMENTS))
def test_moments(method: str) -> None:
    arguments, mean, variance = MOMENTS[method]
    values = getattr(drandom.default_rng(7), method)(*arguments, size=N, chunks=CHUNKS).compute()
    standard_error = math.sqrt(variance / N)
    assert abs(values.mean() - mean) < 6 * standard_error, (values.mean(), mean)
    assert abs(values.var() / variance - 1) < 0.1, (values.var(), variance)


def kolmogorov_smirnov(values: numpy.ndarray, cdf: Any) -> float:
    ordered = numpy.sort(values)
    expected = cdf(ordered)
    ranks = numpy.arange(1, len(ordered) + 1) / len(ordered)
    return float(max((ranks - expected).max(), (expected - (ranks - 1 / len(ordered))).max()))


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_kolmogorov_smirnov_uniform_and_normal(dtype: str) -> None:
    rng = drandom.default_rng(11)
    critical = 1.95 / math.sqrt(N)  # 0.1% level
    uniform = rng.random(N, dtype=dtype, chunks=CHUNKS).compute()
    assert kolmogorov_smirnov(uniform, lambda x: x) < critical
    normal = rng.standard_normal(N, dtype=dtype, chunks=CHUNKS).compute()
    erf = numpy.vectorize(math.erf)
    assert kolmogorov_smirnov(normal, lambda x: 0.5 * (1 + erf(x / math.sqrt(2)))) < critical


@pytest.mark.parametrize(("low", "high", "endpoint"), [(0, 10, False), (-3, 4, True)])
def test_integers_chi_square(low: int, high: int, endpoint: bool) -> None:
    values = drandom.default_rng(3).integers(low, high, N, endpoint=endpoint, chunks=CHUNKS)
    counts = numpy.bincount(values.compute() - low)
    cells = high - low + endpoint
    assert len(counts) == cells
    expected = N / cells
    statistic = float(((counts - expected) ** 2 / expected).sum())
    assert statistic < 30.0  # chi-square, <= 10 degrees of freedom, 0.1% level is 29.6


def test_same_seed_and_chunks_same_values() -> None:
    first = drandom.default_rng(5).normal(size=(300, 40), chunks=(100, 20)).compute()
    again = drandom.default_rng(5).normal(size=(300, 40), chunks=(100, 20)).compute()
    numpy.testing.assert_array_equal(first, again)
    reference = numpy.random.SeedSequence(5)
    assert reference.entropy == 5


@pytest.mark.not_on_cupy(
    reason="CuPy draws with cuRAND's XORWOW (cupy_backend.generator), not NumPy's PCG64: "
    "the same seed gives other values there, by design"
)
def test_same_seed_and_chunks_same_values_as_on_the_numpy_backend() -> None:
    first = drandom.default_rng(5).normal(size=(300, 40), chunks=(100, 20)).compute()
    with dnp.config.set(backend="numpy"):
        on_numpy = drandom.default_rng(5).normal(size=(300, 40), chunks=(100, 20)).compute()
    numpy.testing.assert_array_equal(first, on_numpy)


def test_seeds_draws_and_chunks_are_independent_streams() -> None:
    rng = drandom.default_rng(1)
    a = rng.random(N, chunks=CHUNKS).compute()
    b = rng.random(N, chunks=CHUNKS).compute()  # the next draw of the same generator
    c = drandom.default_rng(2).random(N, chunks=CHUNKS).compute()
    blocks = a.reshape(4, -1)
    for x, y in [(a, b), (a, c), (blocks[0], blocks[1]), (blocks[1], blocks[3])]:
        assert not numpy.array_equal(x, y)
        assert abs(numpy.corrcoef(x, y)[0, 1]) < 6 / math.sqrt(len(x))


def test_tasks_carry_seeds_never_data() -> None:
    array = drandom.default_rng(0).random((2_000, 1_000), chunks=(500, 1_000))
    # ours, not to_dask()'s: with query planning on that adds an alias per block
    tasks = list(dict(array.__dask_graph__()).values())
    assert len(tasks) == 4
    assert max(len(pickle.dumps(task)) for task in tasks) < 2_000  # a 4 MB block is drawn there


@pytest.mark.parametrize(
    ("method", "arguments", "keywords"),
    [
        ("random", (), {}),
        ("random", (), {"dtype": "float32"}),
        ("standard_normal", (), {"dtype": "float32"}),
        ("standard_exponential", (), {}),
        ("standard_gamma", (2.0,), {"dtype": "float32"}),
        ("integers", (5,), {}),
        ("integers", (-5, 5), {"dtype": "int8", "endpoint": True}),
        ("integers", (0, 300), {"dtype": "uint16"}),
        ("poisson", (2.0,), {}),
        ("binomial", (4, 0.5), {}),
        ("normal", (), {}),
        ("standard_cauchy", (), {}),
        ("choice", (5,), {}),
        ("choice", ([1.5, 2.5],), {"p": [0.25, 0.75]}),
    ],
)
@pytest.mark.parametrize("size", [None, 7, (3, 4), ()])
def test_dtypes_shapes_and_scalar_types(
    method: str, arguments: Any, keywords: Any, size: Any
) -> None:
    expected = getattr(numpy.random.default_rng(0), method)(*arguments, size=size, **keywords)
    actual = getattr(drandom.default_rng(0), method)(*arguments, size=size, **keywords)
    if size is None and not isinstance(expected, numpy.ndarray):
        assert type(actual) is type(expected)
        return
    assert isinstance(actual, dnp.ndarray)
    host = actual.compute()
    assert (host.shape, host.dtype) == (expected.shape, expected.dtype)


@pytest.mark.parametrize(
    "call",
    [
        lambda r: r.default_rng(0).normal(0.0, -1.0, size=3),
        lambda r: r.default_rng(0).integers(5, 2, size=3),
        lambda r: r.default_rng(0).random(size=3, dtype="int32"),
        lambda r: r.default_rng(0).random(size=-1),
        lambda r: r.default_rng(0).binomial(-1, 0.5, size=2),
        lambda r: r.default_rng(0).choice(3, size=2, p=[0.5, 0.6, 0.1]),
        lambda r: r.default_rng(0).choice(3, size=5, replace=False),
        lambda r: r.default_rng(0).uniform(0, numpy.inf, size=2),
        lambda r: r.default_rng(0).gamma(size=2),
        lambda r: r.default_rng(-1),
        lambda r: r.randint(5, 1),
        lambda r: r.rand(-2),
        lambda r: r.seed(-1),
    ],
)
def test_errors(call: Any) -> None:
    assert_raises_like(lambda: call(numpy.random), lambda: call(drandom))


def test_array_parameters_broadcast() -> None:
    loc = dnp.arange(4.0) * 100
    values = drandom.default_rng(0).normal(loc, 1.0, size=(500, 4)).compute()
    assert values.shape == (500, 4) and values.dtype == numpy.float64
    numpy.testing.assert_allclose(values.mean(axis=0), numpy.arange(4.0) * 100, atol=0.3)
    low = numpy.array([0.0, 10.0])
    uniform = drandom.default_rng(1).uniform(low, low + 1).compute()
    assert uniform.shape == (2,) and ((uniform >= low) & (uniform < low + 1)).all()


def test_permutation_shuffle_and_choice_without_replacement() -> None:
    rng = drandom.default_rng(4)
    assert sorted(rng.permutation(50).compute()) == list(range(50))
    host = numpy.arange(40).reshape(10, 4)
    permuted = rng.permutation(dnp.array(host, chunks=(3, 4))).compute()
    assert sorted(map(tuple, permuted)) == sorted(map(tuple, host))
    columns = rng.permutation(dnp.array(host), axis=1).compute()
    numpy.testing.assert_array_equal(numpy.sort(columns, axis=1), host)
    ours = dnp.array(host, chunks=(5, 2))
    rng.shuffle(ours)
    assert sorted(map(tuple, ours.compute())) == sorted(map(tuple, host))
    picked = rng.choice(dnp.arange(100) * 3, size=20, replace=False).compute()
    assert len(set(picked.tolist())) == 20 and all(x % 3 == 0 for x in picked)
    mine = numpy.arange(10)
    rng.shuffle(mine)  # a NumPy array is shuffled in place on the host
    assert sorted(mine) == list(range(10))


def test_choice_with_probabilities() -> None:
    values = drandom.default_rng(9).choice(3, size=N, p=[0.2, 0.5, 0.3]).compute()
    frequencies = numpy.bincount(values, minlength=3) / N
    numpy.testing.assert_allclose(frequencies, [0.2, 0.5, 0.3], atol=0.01)


def test_legacy_functions_and_random_state() -> None:
    drandom.seed(12)
    first = drandom.rand(3, 4).compute()
    drandom.seed(12)
    numpy.testing.assert_array_equal(drandom.rand(3, 4).compute(), first)
    assert first.shape == (3, 4) and ((first >= 0) & (first < 1)).all()
    assert type(drandom.randint(5)) is type(numpy.random.randint(5))
    assert drandom.randint(0, 5, size=6).compute().dtype == numpy.random.randint(0, 5, 6).dtype
    assert drandom.randn(5).shape == (5,) and isinstance(drandom.random(), float)
    state = drandom.RandomState(3)
    assert state.normal(size=4).shape == (4,) and state.poisson(2.0, size=3).dtype == numpy.int64
    sample = drandom.RandomState(3).random_sample((2, 2)).compute()
    numpy.testing.assert_array_equal(sample, drandom.RandomState(3).random_sample((2, 2)).compute())
    assert drandom.uniform(size=3).shape == (3,) and drandom.choice(4, size=2).shape == (2,)
    for name in ("beta", "binomial", "gamma", "poisson", "zipf", "ranf", "sample"):
        assert name in drandom.__all__ and callable(getattr(drandom, name))
    assert drandom.beta(2.0, 3.0, size=5).compute().shape == numpy.random.beta(2.0, 3.0, 5).shape


def test_size_given_by_position_as_numpy_takes_it() -> None:
    expected = numpy.random.default_rng(0).uniform(-1, 1, 7)
    drawn = dnp.random.default_rng(0).uniform(-1, 1, 7)
    assert drawn.shape == expected.shape and drawn.dtype == expected.dtype
    assert dnp.random.uniform(-1, 1, (2, 3)).shape == numpy.random.uniform(-1, 1, (2, 3)).shape
    assert float(dnp.random.normal(0.0, 1.0, 1000).std()) > 0.5
