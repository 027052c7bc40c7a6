"""The fused loops' contract on a GPU (docs/numpy-differences.md) as the GPU test checks
it: NumPy's result, or for float32/complex64 NumPy's result on flushed subnormals."""

from __future__ import annotations

import numpy

from tests.unit._codegen.numpy_oracle import (
    device_mismatches,
    evaluate_with_numpy,
    flush_subnormals,
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
