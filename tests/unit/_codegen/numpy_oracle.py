"""NumPy side of the CUDA verification: programs built from NumPy's own loops, inputs
full of edge cases, the program evaluated by NumPy, and a bit-level comparison."""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass

import numpy

from dask_gpunumeric._ir.scalar_program import Instruction, ScalarProgram

SUPPORTED_CHARS = "?bBhHiIlLqQfdFD"  # float16 ('e') has no C++ type in fused kernels
N_RANDOM = 1500


def loops_of(ufunc: numpy.ufunc) -> list[tuple[tuple[numpy.dtype, ...], tuple[numpy.dtype, ...]]]:
    """NumPy's loops for ``ufunc`` over supported dtypes: (input dtypes, output dtypes)."""
    loops = []
    for signature in ufunc.types:
        ins, outs = signature.split("->")
        if set(ins + outs) <= set(SUPPORTED_CHARS):
            loop = (tuple(map(numpy.dtype, ins)), tuple(map(numpy.dtype, outs)))
            if loop not in loops:
                loops.append(loop)
    return loops


def single_op_program(
    op: str, inputs: tuple[numpy.dtype, ...], outputs: tuple[numpy.dtype, ...]
) -> ScalarProgram:
    """One ufunc call; a two-output ufunc gives one instruction per output."""
    n = len(inputs)
    args = tuple(range(n))
    if len(outputs) == 1:
        instructions: tuple[Instruction, ...] = (Instruction(n, op, args, outputs[0]),)
    else:
        instructions = tuple(
            Instruction(n + k, op, args, dtype, (("output", k),)) for k, dtype in enumerate(outputs)
        )
    return ScalarProgram(inputs, instructions, tuple(ins.result for ins in instructions))


FLUSHED_KINDS = (numpy.dtype("float32"), numpy.dtype("complex64"))


def flush_subnormals(values: numpy.ndarray) -> numpy.ndarray:
    """``values`` with float32 (and complex64 parts) subnormals made zeros of their sign,
    as CUDA's ``-ftz=true`` reads and writes them; other dtypes unchanged."""
    values = numpy.asarray(values)
    if values.dtype not in FLUSHED_KINDS:
        return values
    if values.dtype.kind == "c":
        flushed = numpy.empty_like(values)
        flushed.real, flushed.imag = flush_subnormals(values.real), flush_subnormals(values.imag)
        return flushed
    tiny = numpy.finfo(values.dtype).tiny
    subnormal = (values != 0) & (numpy.abs(values) < tiny)
    return numpy.where(subnormal, numpy.copysign(numpy.zeros_like(values), values), values)


def evaluate_with_numpy(
    program: ScalarProgram, inputs: Sequence[numpy.ndarray], flush_float32: bool = False
) -> list:
    """The program run by NumPy, one instruction at a time (the oracle); with
    ``flush_float32``, every float32/complex64 value read or made is flushed
    (``flush_subnormals``): the contract of a kernel compiled as CuPy compiles it."""
    flush = flush_subnormals if flush_float32 else (lambda values: values)
    values: dict[int, numpy.ndarray] = {k: flush(x) for k, x in enumerate(inputs)}
    for ins in program.instructions:
        args = [values[a] for a in ins.args]
        params = dict(ins.params)
        if ins.op == "const":
            result = numpy.asarray(params["value"], dtype=ins.dtype)
        elif ins.op == "astype":
            result = args[0].astype(ins.dtype)
        elif ins.op == "where":
            result = numpy.where(*args)
        elif ins.op in ("real", "imag"):
            result = getattr(numpy, ins.op)(args[0]).astype(ins.dtype)
        elif ins.op == "from_parts":
            result = numpy.empty(numpy.broadcast(*args).shape, ins.dtype)
            result.real, result.imag = args
        else:
            result = getattr(numpy, ins.op)(*args)
            if isinstance(result, tuple):
                result = result[params.get("output", 0)]
        assert result.dtype == ins.dtype, (ins, result.dtype)
        values[ins.result] = flush(result)
    n = max(a.size for a in inputs)
    return [numpy.broadcast_to(values[v], (n,)) for v in program.outputs]


def special_values(dtype: numpy.dtype) -> numpy.ndarray:
    """Edge cases of ``dtype``: extremes, zeros, small signed values; NaN, infinities,
    -0.0, subnormals, halves (rounding ties) for floats; their pairs for complex."""
    dtype = numpy.dtype(dtype)
    if dtype.kind == "b":
        return numpy.array([False, True])
    if dtype.kind in "iu":
        info = numpy.iinfo(dtype)
        small = [v for v in range(-9, 10) if info.min <= v <= info.max]
        extremes = [info.min, info.min + 1, info.max - 1, info.max, info.max // 2]
        values = small + extremes + [8, 16, 31, 32, 63, 64]
        return numpy.array([v for v in values if info.min <= v <= info.max], dtype=dtype)
    if dtype.kind == "f":
        info = numpy.finfo(dtype)
        values = [numpy.nan, numpy.inf, -numpy.inf, 0.0, -0.0, 1.0, -1.0, 0.5, -0.5, 1.5]
        values += [2.5, -2.5, 3.0, -7.0, 1e-3, info.max, -info.max, info.tiny]
        values += [info.smallest_subnormal, -info.smallest_subnormal, 2.0**31, 2.0**63, 1e10]
        return numpy.array(values, dtype=dtype)
    parts = special_values(numpy.dtype(f"float{dtype.itemsize * 4}"))[:12]
    return numpy.array([complex(r, i) for r, i in itertools.product(parts, parts)], dtype)


def random_values(dtype: numpy.dtype, n: int, rng: numpy.random.Generator) -> numpy.ndarray:
    dtype = numpy.dtype(dtype)
    if dtype.kind == "b":
        return rng.random(n) < 0.5
    if dtype.kind in "iu":
        info = numpy.iinfo(dtype)
        wide = rng.integers(info.min, info.max, n, dtype=dtype, endpoint=True)
        small = rng.integers(max(info.min, -40), 41, n).astype(dtype)
        return numpy.where(rng.random(n) < 0.5, wide, small)
    if dtype.kind == "f":
        scale = 10.0 ** rng.integers(-8, 9, n)
        return (rng.standard_normal(n) * scale).astype(dtype)
    part = numpy.dtype(f"float{dtype.itemsize * 4}")
    return random_values(part, n, rng) + 1j * random_values(part, n, rng).astype(dtype)


def sample_inputs(dtypes: Sequence[numpy.dtype], seed: int = 0) -> list[numpy.ndarray]:
    """Every pair of special values (for two operands), then random values."""
    rng = numpy.random.default_rng(seed)
    specials = [special_values(d) for d in dtypes]
    if len(dtypes) == 2:
        grid = numpy.meshgrid(*specials, indexing="ij")
        specials = [g.ravel() for g in grid]
    else:
        size = max(s.size for s in specials)
        specials = [numpy.resize(s, size) for s in specials]
    return [
        numpy.concatenate([s, random_values(d, N_RANDOM, rng)]).astype(d)
        for s, d in zip(specials, dtypes, strict=True)
    ]


def mismatches(
    actual: numpy.ndarray,
    expected: numpy.ndarray,
    ulps: float,
    scale: numpy.ndarray | None = None,
) -> numpy.ndarray:
    """Indices where ``actual`` differs from ``expected``: any two NaNs agree; otherwise
    bits must match (sign of zero included) when ``ulps == 0``, else be within ``ulps``
    units in the last place of ``expected``, or of ``scale`` where given (infinities must
    match exactly)."""
    assert actual.dtype == expected.dtype, (actual.dtype, expected.dtype)
    if expected.dtype.kind == "c":
        real = mismatches(actual.real, expected.real, ulps)
        imag = mismatches(actual.imag, expected.imag, ulps)
        return numpy.union1d(real, imag)
    if expected.dtype.kind != "f":
        return numpy.flatnonzero(actual != expected)
    both_nan = numpy.isnan(actual) & numpy.isnan(expected)
    same = (actual == expected) & (numpy.signbit(actual) == numpy.signbit(expected))
    if ulps:
        finite = numpy.isfinite(actual) & numpy.isfinite(expected)
        size = numpy.abs(expected if scale is None else numpy.asarray(scale))
        tolerance = ulps * numpy.spacing(size.astype(actual.dtype))
        close = numpy.abs(actual.astype(float) - expected.astype(float)) <= tolerance
        same |= finite & close
    return numpy.flatnonzero(~(same | both_nan))


def device_mismatches(
    program: ScalarProgram,
    inputs: Sequence[numpy.ndarray],
    actual: Sequence[numpy.ndarray],
    ulps: float,
) -> list[numpy.ndarray]:
    """Per output of ``program``, the indices where a GPU's ``actual`` breaks the fused
    loops' contract (docs/numpy-differences.md): NumPy's result within ``ulps``, or, for
    float32/complex64, NumPy's result on subnormals flushed to zero (CuPy compiles every
    kernel with ``-ftz=true``: an instruction may read and make them as zeros)."""
    plain = evaluate_with_numpy(program, inputs)
    flushes = any(
        d in FLUSHED_KINDS for d in (*program.inputs, *(i.dtype for i in program.instructions))
    )
    flushed = evaluate_with_numpy(program, inputs, flush_float32=True) if flushes else plain
    return [
        numpy.intersect1d(
            mismatches(got, numpy.asarray(want), ulps), mismatches(got, numpy.asarray(ftz), ulps)
        )
        for got, want, ftz in zip(actual, plain, flushed, strict=True)
    ]


# NumPy's logaddexp(x, y) is max(x, y) + log1p(exp(-|x - y|)), logaddexp2 the same in base 2
# (npy_logaddexp2: + LOG2E * log1p(exp2(-|x - y|))), and our fused loops spell the same.
# Where a negative max(x, y) nearly cancels that correction term, one ulp of the term is
# many of the result, and CUDA's exp/exp2/log1p round the term differently from glibc's.
CORRECTION_TERM_OPS = ("logaddexp", "logaddexp2")


def correction_term_mismatches(
    op: str, inputs: Sequence[numpy.ndarray], actual: numpy.ndarray, ulps: float
) -> numpy.ndarray:
    """Indices where a GPU's ``actual`` for ``op`` (one of CORRECTION_TERM_OPS) is further
    from NumPy's result than ``ulps`` of the larger of the result and its correction term
    (docs/numpy-differences.md, "On GPUs"); NaNs, infinities and zeros' signs as
    ``mismatches`` has them."""
    x, y = inputs
    with numpy.errstate(all="ignore"):
        expected = getattr(numpy, op)(x, y)
        gap = -numpy.abs(x - y)
        if op == "logaddexp2":
            term = numpy.log1p(numpy.exp2(gap)) / numpy.log(2.0)
        else:
            term = numpy.log1p(numpy.exp(gap))
        return mismatches(actual, expected, ulps, scale=numpy.fmax(numpy.abs(expected), term))


@dataclass(frozen=True)
class Weak:
    """A Python scalar operand (NEP 50 "weak": it takes the other operand's dtype)."""

    value: int | float | complex


class ProgramBuilder:
    """Builds a ``ScalarProgram`` the way the fusion pass must: each ufunc's loop from
    ``resolve_dtypes`` (Python scalars weak), explicit ``astype`` to the loop's dtypes."""

    def __init__(self, *input_dtypes: str) -> None:
        self.inputs = tuple(numpy.dtype(d) for d in input_dtypes)
        self.instructions: list[Instruction] = []

    def dtype(self, value: int) -> numpy.dtype:
        if value < len(self.inputs):
            return self.inputs[value]
        return self.instructions[value - len(self.inputs)].dtype

    def emit(self, op: str, args: tuple[int, ...], dtype, params=()) -> int:
        result = len(self.inputs) + len(self.instructions)
        self.instructions.append(Instruction(result, op, args, numpy.dtype(dtype), params))
        return result

    def cast(self, value: int, dtype) -> int:
        if self.dtype(value) == numpy.dtype(dtype):
            return value
        return self.emit("astype", (value,), dtype)

    def call(self, op: str, *args: int | Weak, output: int = 0) -> int:
        """``op(*args)``: ``args`` are values, or ``Weak`` Python scalars as in NumPy."""
        ufunc = getattr(numpy, op)
        kinds = tuple(type(a.value) if isinstance(a, Weak) else self.dtype(a) for a in args)
        loop = ufunc.resolve_dtypes(kinds + (None,) * ufunc.nout)
        operands = tuple(
            self.emit("const", (), d, (("value", a.value),))
            if isinstance(a, Weak)
            else self.cast(a, d)
            for a, d in zip(args, loop[: ufunc.nin], strict=True)
        )
        params = (("output", output),) if ufunc.nout > 1 else ()
        return self.emit(op, operands, loop[ufunc.nin + output], params)

    def where(self, condition: int, a: int, b: int) -> int:
        dtype = numpy.result_type(self.dtype(a), self.dtype(b))
        return self.emit("where", (condition, self.cast(a, dtype), self.cast(b, dtype)), dtype)

    def build(self, *outputs: int) -> ScalarProgram:
        return ScalarProgram(self.inputs, tuple(self.instructions), outputs)
