"""float64 loops at the extremes where the H100's libdevice differed from NumPy: hypot
next to DBL_MAX (inf there) and the logarithms of subnormals. The generated helpers
scale by exact powers of two; run on the CPU, they give NumPy's values."""

from __future__ import annotations

import pathlib

import numpy

from dask_gpunumeric._codegen.cuda import generate_cuda
from tests.unit._codegen.cuda_harness import run_on_cpu
from tests.unit._codegen.numpy_oracle import mismatches, single_op_program

F8 = numpy.dtype("float64")
HUGE, SUB = numpy.finfo(F8).max, numpy.finfo(F8).smallest_subnormal


def test_hypot_next_to_the_largest_double_and_logarithms_of_subnormals(
    build_cache: pathlib.Path,
) -> None:
    x = numpy.array([HUGE, -HUGE, HUGE, 1e305, 3.0, numpy.inf, numpy.nan])
    y = numpy.array([1.0, -7.0, HUGE, -2e304, 4.0, numpy.nan, 1.0])
    tiny = numpy.array([SUB, 7 * SUB, 2.0**-1050, 2.2e-308, 1.0, 0.0, -SUB])
    cases = [(single_op_program("hypot", (F8, F8), (F8,)), [x, y])]
    cases += [(single_op_program(op, (F8,), (F8,)), [tiny]) for op in ("log", "log2", "log10")]
    sources = [generate_cuda(program) for program, _ in cases]
    assert "gn_hypot(" in sources[0].operation and "gn_log(" in sources[1].operation
    outputs = run_on_cpu(
        [(source, inputs, [F8]) for source, (_, inputs) in zip(sources, cases, strict=True)],
        build_cache,
    )
    with numpy.errstate(all="ignore"):
        expected = [numpy.hypot(x, y), numpy.log(tiny), numpy.log2(tiny), numpy.log10(tiny)]
    assert numpy.isfinite(outputs[0][0][:2]).all()  # not CUDA's inf
    for (got,), want in zip(outputs, expected, strict=True):
        assert mismatches(got, want, 1).size == 0, (got, want)
