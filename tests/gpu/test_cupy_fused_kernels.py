"""The generated kernels on a real GPU through ``cupy.ElementwiseKernel``, against NumPy:
every fusible ufunc loop and the multi-instruction programs of tests/unit/_codegen.

The loops' contract (docs/numpy-differences.md, "On GPUs (CuPy chunks)"): NumPy's
result, bit for bit where NumPy's loop is exact and within the ulps of
tests/unit/_codegen/test_cuda_ufunc_loops.py (plus CUDA's libdevice bounds) where it
approximates; for float32 and complex64 also NumPy's result on subnormals flushed to zero,
as CuPy compiles every kernel, its own ufuncs' included, with ``-ftz=true``
(``numpy_oracle.device_mismatches``). The H100 check (docs/gpu-results.md) failed 35
float32 loops and the complex64 exp where subnormals were met: that is this flush.
``logaddexp`` and ``logaddexp2`` are within those ulps of the larger of the result and
the correction term it adds to max(x, y), where the two nearly cancel
(``numpy_oracle.correction_term_mismatches``): the H100's one float64 logaddexp2 value."""

from __future__ import annotations

import numpy
import pytest

cupy = pytest.importorskip("cupy")
pytestmark = pytest.mark.gpu

if not cupy.is_available():
    pytest.skip("CuPy sees no CUDA device", allow_module_level=True)

from dask_gpunumeric._backends.cupy_backend import make_backend  # noqa: E402
from dask_gpunumeric._ir.scalar_program import ScalarProgram  # noqa: E402
from tests.unit._codegen.numpy_oracle import (  # noqa: E402
    CORRECTION_TERM_OPS,
    correction_term_mismatches,
    device_mismatches,
    evaluate_with_numpy,
    mismatches,
)
from tests.unit._codegen.test_cuda_programs import ALL, PROGRAMS  # noqa: E402
from tests.unit._codegen.test_cuda_programs import _inputs as program_inputs  # noqa: E402
from tests.unit._codegen.test_cuda_ufunc_loops import (  # noqa: E402
    CASES,
    COMPLEX_FINITE_ONLY,
    allowed_ulps,
)
from tests.unit._codegen.test_cuda_ufunc_loops import _inputs as loop_inputs  # noqa: E402

# CUDA's libdevice bounds (2 ulp for most float32 and some float64 functions) on top of
# NumPy's own error: transcendental results within 2 more ulps than on the CPU run.
DEVICE_EXTRA_ULPS = 2


def run_on_device(program: ScalarProgram, inputs: list[numpy.ndarray]) -> list[numpy.ndarray]:
    device = make_backend()
    result = device.evaluate_program(program, *(cupy.asarray(x) for x in inputs))
    outputs = result if isinstance(result, tuple) else (result,)
    return [device.to_host(chunk) for chunk in outputs]


@pytest.mark.parametrize("k", range(len(CASES)), ids=[f"{op}-{p.inputs}" for op, p in CASES])
def test_ufunc_loop_on_the_gpu_matches_numpy(k: int) -> None:
    op, program = CASES[k]
    inputs = loop_inputs(op, program, seed=k)
    loop = program.inputs[0].char
    ulps = allowed_ulps(op, loop)
    ulps += DEVICE_EXTRA_ULPS if ulps else 0
    keep = numpy.ones(inputs[0].size, bool)
    if loop in "FD" and op in COMPLEX_FINITE_ONLY:
        keep = numpy.isfinite(inputs[0])
    kept = [x[keep] for x in inputs]
    actual = [got[keep] for got in run_on_device(program, inputs)]
    for got, bad in zip(actual, device_mismatches(program, kept, actual, ulps), strict=True):
        if op in CORRECTION_TERM_OPS:  # within ulps of the term the result cancels (H100: 1)
            bad = numpy.intersect1d(bad, correction_term_mismatches(op, kept, got, ulps))
        shown = [(tuple(x[i] for x in kept), got[i]) for i in bad[:4]]
        assert bad.size == 0, f"{bad.size} differ, e.g. (inputs, result): {shown}"


@pytest.mark.parametrize("name", sorted(ALL))
def test_program_on_the_gpu_matches_numpy(name: str) -> None:
    program = ALL[name]
    inputs = program_inputs(name, program, seed=0)
    rtol = PROGRAMS[name][1] * 4 if name in PROGRAMS else 0.0
    for got, want in zip(
        run_on_device(program, inputs), evaluate_with_numpy(program, inputs), strict=True
    ):
        if rtol:
            numpy.testing.assert_allclose(got, want, rtol=rtol, atol=rtol)
        else:
            assert mismatches(got, numpy.asarray(want), 0).size == 0
