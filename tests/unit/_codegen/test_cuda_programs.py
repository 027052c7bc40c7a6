"""Multi-instruction programs and casts: generated CUDA compiled with nvcc, and the same
operation text run on the CPU against the program evaluated by NumPy."""

from __future__ import annotations

import pathlib

import numpy
import pytest

from dask_gpunumeric._codegen.cuda import ElementwiseKernelSource, generate_cuda
from dask_gpunumeric._codegen.cuda_types import CPP_TYPES
from dask_gpunumeric._ir.scalar_program import Instruction, ScalarProgram
from tests.unit._codegen.cuda_harness import compile_with_nvcc, run_on_cpu
from tests.unit._codegen.numpy_oracle import (
    ProgramBuilder,
    Weak,
    evaluate_with_numpy,
    mismatches,
    sample_inputs,
)

DTYPES = [numpy.dtype(name) for name in CPP_TYPES]


def cast_program(source: numpy.dtype, target: numpy.dtype) -> ScalarProgram:
    return ScalarProgram((source,), (Instruction(1, "astype", (0,), target),), (1,))


def const_program(dtype: numpy.dtype) -> ScalarProgram:
    """Every special value of ``dtype`` as a literal, selected by the input index."""
    values = sample_inputs([dtype])[0][:24]
    b = ProgramBuilder("int64")
    result = b.emit("const", (), dtype, (("value", values[0].item()),))
    for k, value in enumerate(values[1:], start=1):
        literal = b.emit("const", (), dtype, (("value", value.item()),))
        chosen = b.call("equal", 0, Weak(k))
        result = b.where(chosen, literal, result)
    return b.build(result)


def black_scholes(dtype: str) -> ScalarProgram:
    """Call and put prices (the CUDA SDK's BlackScholes, normal CDF by polynomial)."""
    b = ProgramBuilder(dtype, dtype, dtype, dtype, dtype)
    price, strike, years, rate, volatility = range(5)
    sqrt_t = b.call("sqrt", years)
    drift = b.call(
        "multiply",
        b.call(
            "add", rate, b.call("multiply", Weak(0.5), b.call("multiply", volatility, volatility))
        ),
        years,
    )
    vol_t = b.call("multiply", volatility, sqrt_t)
    d1 = b.call(
        "divide", b.call("add", b.call("log", b.call("divide", price, strike)), drift), vol_t
    )
    d2 = b.call("subtract", d1, vol_t)
    discount = b.call("exp", b.call("multiply", b.call("negative", rate), years))
    cnd1, cnd2 = _normal_cdf(b, d1), _normal_cdf(b, d2)
    strike_discounted = b.call("multiply", strike, discount)
    call = b.call(
        "subtract", b.call("multiply", price, cnd1), b.call("multiply", strike_discounted, cnd2)
    )
    put = b.call(
        "subtract",
        b.call("multiply", strike_discounted, b.call("subtract", Weak(1.0), cnd2)),
        b.call("multiply", price, b.call("subtract", Weak(1.0), cnd1)),
    )
    return b.build(call, put)


def _normal_cdf(b: ProgramBuilder, d: int) -> int:
    k = b.call(
        "reciprocal",
        b.call("add", Weak(1.0), b.call("multiply", Weak(0.2316419), b.call("absolute", d))),
    )
    poly = b.call("multiply", k, Weak(1.330274429))
    for coefficient in (-1.821255978, 1.781477937, -0.356563782, 0.31938153):
        poly = b.call("multiply", k, b.call("add", Weak(coefficient), poly))
    density = b.call(
        "multiply",
        Weak(0.3989422804014327),
        b.call("exp", b.call("multiply", Weak(-0.5), b.call("square", d))),
    )
    tail = b.call("subtract", Weak(1.0), b.call("multiply", density, poly))
    return b.where(b.call("greater", d, Weak(0.0)), tail, b.call("subtract", Weak(1.0), tail))


def long_chain(dtype: str) -> ScalarProgram:
    """``sin(x)**2 + cos(x)**2 * 0.5 - x / 3``."""
    b = ProgramBuilder(dtype)
    sin2 = b.call("power", b.call("sin", 0), Weak(2))
    cos2 = b.call("multiply", b.call("power", b.call("cos", 0), Weak(2)), Weak(0.5))
    return b.build(b.call("subtract", b.call("add", sin2, cos2), b.call("divide", 0, Weak(3))))


def mixed_sum() -> ScalarProgram:
    """``0.2 * (a + b + c + d + e)`` over int32, float32, int64, uint8, float64: casts."""
    b = ProgramBuilder("int32", "float32", "int64", "uint8", "float64")
    total = 0
    for value in range(1, 5):
        total = b.call("add", total, value)
    return b.build(b.call("multiply", Weak(0.2), total))


def complex_program() -> ScalarProgram:
    """``where(|z| > 1, conj(z) / z, from_parts(real(z), imag(z) * 2)) ** 2`` and ``frexp``."""
    b = ProgramBuilder("complex128", "float32")
    z, x = 0, 1
    big = b.call("greater", b.call("absolute", z), Weak(1.0))
    ratio = b.call("divide", b.call("conjugate", z), z)
    real = b.emit("real", (z,), "float64")
    imag = b.call("multiply", b.emit("imag", (z,), "float64"), Weak(2.0))
    rebuilt = b.emit("from_parts", (real, imag), "complex128")
    chosen = b.call("square", b.where(big, ratio, rebuilt))
    mantissa = b.call("frexp", x, output=0)
    exponent = b.call("frexp", x, output=1)
    return b.build(chosen, mantissa, exponent)


PROGRAMS = {
    "black_scholes_float64": (black_scholes("float64"), 1e-12),
    "black_scholes_float32": (black_scholes("float32"), 1e-5),
    "long_chain_float64": (long_chain("float64"), 1e-13),
    "long_chain_float32": (long_chain("float32"), 1e-6),
    "mixed_sum": (mixed_sum(), 0.0),
    "complex": (complex_program(), 0.0),
}
CASTS = [(s, t) for s in DTYPES for t in DTYPES if s != t]


def _finance_inputs(program: ScalarProgram, seed: int) -> list[numpy.ndarray]:
    rng = numpy.random.default_rng(seed)
    low = [5.0, 1.0, 0.25, 0.01, 0.05]
    high = [30.0, 100.0, 10.0, 0.05, 0.5]
    return [
        rng.uniform(lo, hi, 2000).astype(d)
        for lo, hi, d in zip(low, high, program.inputs, strict=True)
    ]


def _inputs(name: str, program: ScalarProgram, seed: int) -> list[numpy.ndarray]:
    if name.startswith("black_scholes"):
        return _finance_inputs(program, seed)
    if name.startswith("const"):
        return [numpy.arange(30, dtype="int64")]
    return sample_inputs(program.inputs, seed)


ALL = {
    **{name: p for name, (p, _) in PROGRAMS.items()},
    **{f"cast_{s}_{t}": cast_program(s, t) for s, t in CASTS},
    **{f"const_{d}": const_program(d) for d in DTYPES},
}
for name in ("power_int8", "power_int64", "power_uint8"):
    _builder = ProgramBuilder(name[6:], name[6:])
    ALL[name] = _builder.build(_builder.call("power", 0, 1))


@pytest.fixture(scope="module")
def results(build_cache: pathlib.Path) -> dict[str, tuple[list, list]]:
    names = list(ALL)
    inputs = [_inputs(name, ALL[name], seed) for seed, name in enumerate(names)]
    cases = [
        (generate_cuda(ALL[n]), i, [ALL[n].dtype_of(v) for v in ALL[n].outputs])
        for n, i in zip(names, inputs, strict=True)
    ]
    outputs = run_on_cpu(cases, build_cache)
    return {
        n: (out, None if n.startswith("power") else evaluate_with_numpy(ALL[n], i), i)
        for n, i, out in zip(names, inputs, outputs, strict=True)
    }


def test_every_program_compiles_with_nvcc(build_cache: pathlib.Path) -> None:
    compile_with_nvcc([generate_cuda(program) for program in ALL.values()], build_cache)


def test_a_compile_error_fails_the_test(build_cache: pathlib.Path) -> None:
    broken = ElementwiseKernelSource("float64 in0", "float64 out0", "out0 = nope(in0);", "b", "")
    with pytest.raises(pytest.fail.Exception, match="nope"):
        compile_with_nvcc([broken], build_cache)
    with pytest.raises(pytest.fail.Exception, match="nope"):
        run_on_cpu([(broken, [numpy.zeros(1)], [numpy.dtype("float64")])], build_cache)


@pytest.mark.parametrize("source", DTYPES, ids=str)
def test_casts_match_numpy_bit_for_bit(source: numpy.dtype, results) -> None:
    """Float to integer included: NaN, infinities and out-of-range values give what NumPy
    gives on x86-64 (C++ leaves them undefined; CUDA saturates)."""
    for target in DTYPES:
        if target != source:
            (got,), (want,), _ = results[f"cast_{source}_{target}"]
            assert mismatches(got, numpy.asarray(want), 0).size == 0, (source, target)


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
def test_constants_are_exact(dtype: numpy.dtype, results) -> None:
    (got,), (want,), _ = results[f"const_{dtype}"]
    assert mismatches(got, numpy.asarray(want), 0).size == 0


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_program_matches_numpy(name: str, results) -> None:
    """Bit for bit where every op is exact; else to a relative tolerance (the transcendental
    ops inside are each within 1-2 ulp of NumPy, see test_cuda_ufunc_loops)."""
    rtol = PROGRAMS[name][1]
    for got, want in zip(*results[name][:2], strict=True):
        if rtol:
            numpy.testing.assert_allclose(got, want, rtol=rtol, atol=rtol)
        else:
            assert mismatches(got, numpy.asarray(want), 0).size == 0
        assert got.dtype == want.dtype


@pytest.mark.parametrize("name", ["power_int8", "power_int64", "power_uint8"])
def test_integer_power_of_a_negative_exponent(name: str, results) -> None:
    """NumPy raises ValueError for any negative integer exponent; a kernel cannot raise,
    so it gives the exact power for exponents >= 0 (wrapping as NumPy does) and 1 / a**b
    truncated toward zero otherwise (0 for a == 0; documented in cuda_helpers)."""
    (got,), _, (base, exponent) = results[name]
    negative = exponent < 0
    assert negative.any() == (base.dtype.kind == "i") and not negative.all()
    with numpy.errstate(over="ignore"):
        expected = numpy.power(base, numpy.where(negative, 0, exponent))
    # trunc(1 / a**n) for n >= 1: 0 when |a| >= 2 (|1 / a**n| <= 1/2), a**n when |a| == 1.
    truncated = [
        int(a) ** (-int(b) % 2) if abs(int(a)) == 1 else 0
        for a, b in zip(base[negative], exponent[negative], strict=True)
    ]
    expected[negative] = numpy.array(truncated).astype(base.dtype)
    assert numpy.array_equal(got, expected)
