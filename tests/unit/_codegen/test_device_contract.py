"""The fused loops' contract on a GPU (docs/numpy-differences.md) as the GPU test checks
it: NumPy's result, or for float32/complex64 NumPy's result on flushed subnormals."""

from __future__ import annotations

import numpy

from tests.unit._codegen.numpy_oracle import (
    correction_term_mismatches,
    device_mismatches,
    evaluate_with_numpy,
    flush_subnormals,
    mismatches,
    single_op_program,
)

F4, F8 = numpy.dtype("float32"), numpy.dtype("float64")
TINY = numpy.finfo(F4).smallest_subnormal


def test_flushing_keeps_the_sign_and_leaves_other_dtypes() -> None:
    values = numpy.array([TINY, -TINY, 1.0, numpy.nan, -0.0], F4)
    flushed = flush_subnormals(values)
    assert flushed[:2].tolist() == [0.0, 0.0] and numpy.signbit(flushed[:2]).tolist() == [
        False,
        True,
    ]
    assert numpy.isnan(flushed[3]) and flushed[2] == 1.0 and numpy.signbit(flushed[4])
    assert flush_subnormals(values.astype(F8))[0] == numpy.float64(TINY)
    both = flush_subnormals(numpy.array([complex(TINY, 1.0)], "complex64"))
    assert both[0] == complex(0.0, 1.0)


def test_a_flushed_float32_result_keeps_the_contract_a_wrong_one_does_not() -> None:
    """``subnormal * 1`` is the subnormal in NumPy and zero where CuPy's ``-ftz=true``
    flushes it (the H100's float32 loops did): either keeps the contract, 1.0 neither."""
    program = single_op_program("multiply", (F4, F4), (F4,))
    inputs = [numpy.array([TINY, -TINY, 3.0], F4), numpy.array([1.0, 1.0, 2.0], F4)]
    numpy_says = evaluate_with_numpy(program, inputs)[0]
    flushed = evaluate_with_numpy(program, inputs, flush_float32=True)[0]
    assert numpy_says.tolist() == [TINY, -TINY, 6.0] and flushed.tolist() == [0.0, 0.0, 6.0]
    for keeps in (numpy_says, flushed):
        assert device_mismatches(program, inputs, [keeps], 0)[0].size == 0
    wrong = numpy.array([1.0, -0.0, 6.0], F4)
    assert device_mismatches(program, inputs, [wrong], 0)[0].tolist() == [0]


def test_float64_is_never_flushed() -> None:
    program = single_op_program("multiply", (F8, F8), (F8,))
    tiny = numpy.finfo(F8).smallest_subnormal
    inputs = [numpy.array([tiny]), numpy.array([1.0])]
    assert device_mismatches(program, inputs, [numpy.array([0.0])], 0)[0].tolist() == [0]


def test_logaddexp2_is_compared_in_ulps_of_the_term_its_result_cancels() -> None:
    """The H100's one float64 logaddexp2 value (inferred: CUDA 13's libdevice exp2 and
    log1p, compiled for x86-64 and run on the loop test's inputs, differ there and nowhere
    else). NumPy's logaddexp2(x, y) is x + LOG2E * log1p(exp2(y - x)) for x > y: 0.7427
    added to -0.7198. CUDA's exp2 rounds up there (correctly; glibc's is 0.57 ulp low), its
    log1p one ulp above glibc's: two ulps of the term, 64 of the 0.0229 result."""
    x, y = numpy.array([-0.7198290649207855]), numpy.array([-1.2904066200251507])
    expected = numpy.logaddexp2(x, y)
    log1p_on_the_gpu = numpy.nextafter(numpy.log1p(numpy.exp2(y - x)), 1.0)
    gpu = x + numpy.float64(1.4426950408889634) * log1p_on_the_gpu
    assert gpu[0] == 0.022907730546078753  # what the libdevice run gives
    assert (gpu - expected)[0] == 64 * numpy.spacing(expected[0])
    assert mismatches(gpu, expected, 3).tolist() == [0]  # the report's failure
    assert correction_term_mismatches("logaddexp2", [x, y], gpu, 3).size == 0
    term = expected - x
    wrong = expected + 4 * numpy.spacing(term)
    assert correction_term_mismatches("logaddexp2", [x, y], wrong, 3).tolist() == [0]


def test_the_correction_term_tolerance_keeps_infinities_nans_and_plain_results_strict() -> None:
    x = numpy.array([numpy.inf, numpy.nan, 1000.0, 3.0, -numpy.inf])
    y = numpy.array([numpy.inf, 1.0, 1.0, 2.0, -numpy.inf])
    for op in ("logaddexp", "logaddexp2"):
        expected = getattr(numpy, op)(x, y)
        assert correction_term_mismatches(op, [x, y], expected, 3).size == 0
        wrong = numpy.array([1e308, 0.0, 1000.0, 0.0, 0.0])
        wrong[2] = numpy.nextafter(expected[2], 2000.0)
        wrong[3] = expected[3] + 4 * numpy.spacing(expected[3])
        bad = correction_term_mismatches(op, [x, y], wrong, 3).tolist()
        assert bad == [0, 1, 3, 4], op
