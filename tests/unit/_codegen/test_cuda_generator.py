"""What the CUDA generator emits and refuses (no compiler needed)."""

from __future__ import annotations

import numpy
import pytest

from dask_gpunumeric._codegen import cuda
from dask_gpunumeric._codegen.cuda import NotFusibleError, generate_cuda, unfusible_reason
from dask_gpunumeric._codegen.cuda_helpers import HELPERS, preamble_for
from dask_gpunumeric._ir.scalar_program import Instruction, ScalarProgram
from tests.unit._codegen.numpy_oracle import single_op_program

F8, I4 = numpy.dtype("float64"), numpy.dtype("int32")


def docstring_example() -> ScalarProgram:
    """``0.2 * (a + b)``, a int32 and b float64: the ScalarProgram docstring's example."""
    return ScalarProgram(
        (I4, F8),
        (
            Instruction(2, "astype", (0,), F8),
            Instruction(3, "add", (2, 1), F8),
            Instruction(4, "const", (), F8, (("value", 0.2),)),
            Instruction(5, "multiply", (4, 3), F8),
        ),
        (5,),
    )


def test_the_module_docstring_shows_what_is_emitted() -> None:
    source = generate_cuda(docstring_example())
    assert (source.in_params, source.out_params) == ("int32 in0, float64 in1", "float64 out0")
    doc = cuda.__doc__ or ""
    for line in source.operation.splitlines():
        assert line in doc
    assert source.name in doc and source.preamble == "" and source.options == ("--fmad=false",)


def test_the_name_is_a_hash_of_the_kernel_text() -> None:
    assert generate_cuda(docstring_example()).name == generate_cuda(docstring_example()).name
    other = single_op_program("add", (F8, F8), (F8,))
    assert generate_cuda(other).name != generate_cuda(docstring_example()).name


def test_the_preamble_holds_only_the_helpers_called_and_their_helpers_first() -> None:
    source = generate_cuda(single_op_program("lcm", (I4, I4), (I4,)))
    assert source.preamble.index("gn_gcd_unsigned(") < source.preamble.index("gn_lcm(")
    assert "gn_floor_divide_int" not in source.preamble
    assert preamble_for("no helper here") == ""
    assert all(name.startswith("gn_") for name in HELPERS)


@pytest.mark.parametrize(
    ("op", "dtypes", "reason"),
    [
        ("isnat", ("M8[s]", "?"), "datetime"),
        ("exp2", ("complex128", "complex128"), "thrust"),
        ("add", ("float16", "float16", "float16"), "float16"),
        ("gcd", ("float64", "float64", "float64"), "no gcd loop"),
    ],
)
def test_unfusible_operations_say_why(op: str, dtypes: tuple[str, ...], reason: str) -> None:
    assert reason in (unfusible_reason(op, tuple(map(numpy.dtype, dtypes))) or "")


def test_generating_an_unfusible_operation_raises_with_the_reason() -> None:
    with pytest.raises(NotFusibleError, match="float16"):
        generate_cuda(single_op_program("add", (numpy.dtype("float16"),) * 2, (F8,)))


def test_constants_are_spelled_exactly() -> None:
    literals = {
        (0.1, "float32"): "0.1f",
        (-0.0, "float64"): "(-0.0)",
        (float("nan"), "float64"): "gn_nan()",
        (float("-inf"), "float32"): "(-gn_inf_f())",
        (-(2**63), "int64"): "((long long)(-9223372036854775807LL - 1))",
        (1 + 2j, "complex64"): "complex<float>(1.0f, 2.0f)",
    }
    for (value, dtype), spelled in literals.items():
        program = ScalarProgram(
            (), (Instruction(0, "const", (), numpy.dtype(dtype), (("value", value),)),), (0,)
        )
        assert f"= {spelled};" in generate_cuda(program).operation
