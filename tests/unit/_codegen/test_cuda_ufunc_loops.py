"""Every fusible ufunc, on every loop NumPy defines for our dtypes, generated as CUDA,
compiled with nvcc and, as the same operation text, run on the CPU against NumPy."""

from __future__ import annotations

import pathlib

import numpy
import pytest

from dask_gpunumeric._codegen.cuda import ElementwiseKernelSource, generate_cuda, unfusible_reason
from dask_gpunumeric._ir.scalar_program import ScalarProgram
from dask_gpunumeric._ir.ufunc_table import ufunc_by_name, ufunc_table
from tests.unit._codegen.cuda_harness import compile_with_nvcc, run_on_cpu
from tests.unit._codegen.numpy_oracle import (
    evaluate_with_numpy,
    loops_of,
    mismatches,
    sample_inputs,
    single_op_program,
)

CANONICAL = sorted(row.name for row in ufunc_table)
# Results NumPy computes with a libm or SIMD approximation, each within 1 ulp of the exact
# value for float64; the CPU run calls glibc, a GPU libdevice (CUDA's documented bounds).
TRANSCENDENTAL = set(
    "exp exp2 expm1 log log2 log10 log1p logaddexp logaddexp2 sin cos tan arcsin arccos "
    "arctan arctan2 hypot sinh cosh tanh arcsinh arccosh arctanh cbrt power float_power".split()
)
# Measured here (AVX-512 NumPy against glibc): float32 loops are NumPy's own SIMD
# approximations (up to 1 ulp off on their own, so 2 between the two); these float64 ones.
FLOAT64_ULPS = {"cbrt": 3, "tanh": 2}
# Complex functions are thrust's (as in CuPy), not the C99 ones NumPy calls: compared on
# finite inputs (thrust's infinities and NaNs differ, see _ir/cuda_templates), within these ulps.
COMPLEX_ULPS = {"absolute": 2, "sqrt": 1, "exp": 1, "log": 2, "log10": 2, "sin": 1, "cos": 1}
COMPLEX_ULPS |= {"sinh": 2, "cosh": 1, "tan": 5, "tanh": 5, "arcsin": 5, "arccos": 5}
COMPLEX_ULPS |= {"arctan": 5, "arcsinh": 5, "arccosh": 5, "arctanh": 5}
COMPLEX_FINITE_ONLY = set(COMPLEX_ULPS) - {"absolute", "sqrt"}


def allowed_ulps(op: str, loop: str) -> int:
    """0 (bit for bit) unless NumPy itself approximates: see the tables above."""
    if loop in "FD":
        return COMPLEX_ULPS.get(op, 0)
    if op not in TRANSCENDENTAL:
        return 0
    return FLOAT64_ULPS.get(op, 1) if loop == "d" else 2


def fusible_loops() -> list[tuple[str, ScalarProgram]]:
    cases = []
    for op in CANONICAL:
        for ins, outs in loops_of(getattr(numpy, op)):
            if unfusible_reason(op, ins + outs) is None:
                cases.append((op, single_op_program(op, ins, outs)))
    return cases


CASES = fusible_loops()


@pytest.fixture(scope="module")
def sources() -> list[ElementwiseKernelSource]:
    return [generate_cuda(program) for _, program in CASES]


@pytest.fixture(scope="module")
def cpu_results(sources, build_cache: pathlib.Path) -> dict[int, tuple[list, list, list]]:
    """Case index -> (inputs, CPU outputs, NumPy outputs)."""
    inputs = [_inputs(op, program, seed=k) for k, (op, program) in enumerate(CASES)]
    out_dtypes = [[p.dtype_of(v) for v in p.outputs] for _, p in CASES]
    outputs = run_on_cpu(list(zip(sources, inputs, out_dtypes, strict=True)), build_cache)
    return {
        k: (inputs[k], outputs[k], evaluate_with_numpy(program, inputs[k]))
        for k, (_, program) in enumerate(CASES)
    }


def test_the_unfusible_loops_are_exactly_these() -> None:
    """What is left out of fused kernels, NumPy loop by loop, is what the rows' ``unfusible``
    say, and changing it is a deliberate edit of this list."""
    left_out = {
        (op, ins[0].kind)
        for op in CANONICAL
        for ins, outs in loops_of(getattr(numpy, op))
        if unfusible_reason(op, ins + outs) is not None
    }
    listed = {
        (row.name, kind)
        for row in ufunc_table
        if row.cuda
        for kinds in row.unfusible
        for kind in kinds
    }
    assert left_out == listed
    assert {op for op, _ in left_out} == {"exp2", "expm1", "log2", "log1p", "power", "float_power"}
    assert [row.name for row in ufunc_table if not row.cuda] == ["isnat"]
    assert unfusible_reason("isnat", ()) == ufunc_by_name["isnat"].unfusible["biufc"]
    assert len(CASES) > 600


def test_generated_sources_compile_with_nvcc(sources, build_cache: pathlib.Path) -> None:
    compile_with_nvcc(sources, build_cache)


@pytest.mark.parametrize("op", sorted({op for op, _ in CASES}))
def test_cpu_run_of_the_cuda_operation_matches_numpy(op: str, cpu_results) -> None:
    failures = []
    for k, (case_op, program) in enumerate(CASES):
        if case_op != op:
            continue
        inputs, actual, expected = cpu_results[k]
        loop = program.inputs[0].char
        ulps = allowed_ulps(op, loop)
        keep = numpy.ones(inputs[0].size, bool)
        if loop in "FD" and op in COMPLEX_FINITE_ONLY:
            keep = numpy.isfinite(inputs[0])
        for got, want in zip(actual, expected, strict=True):
            bad = mismatches(got[keep], numpy.asarray(want)[keep], ulps)
            shown = [
                (tuple(a[keep][i] for a in inputs), got[keep][i], want[keep][i]) for i in bad[:4]
            ]
            if bad.size:
                failures.append(f"{program.inputs}: {bad.size} differ, e.g. {shown}")
    assert failures == []


def _inputs(op: str, program: ScalarProgram, seed: int) -> list[numpy.ndarray]:
    """Edge cases and random values; integer ``power`` gets no negative exponent (NumPy
    raises ValueError, a kernel cannot: see test_integer_power_of_a_negative_exponent)."""
    inputs = sample_inputs(program.inputs, seed)
    if op == "power" and program.inputs[1].kind == "i":
        inputs[1] = numpy.where(inputs[1] < 0, ~inputs[1], inputs[1])
    return inputs
