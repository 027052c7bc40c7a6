"""The Numba source of a program (``_codegen/numba_source.py``): one statement per
instruction, and no source for what it does not cover (the compiled loops themselves:
``tests/unit/_backends/test_compiled_loops.py``)."""

from __future__ import annotations

import numpy
import pytest

from dask_gpunumeric._codegen.numba_source import kernel_source
from dask_gpunumeric._ir.scalar_program import Instruction, ScalarProgram

F8, F4 = numpy.dtype(numpy.float64), numpy.dtype(numpy.float32)


def scaled_sum(inputs: tuple[numpy.dtype, ...], op: str = "add") -> ScalarProgram:
    """``0.2 * (v0 <op> v1)``."""
    return ScalarProgram(
        inputs=inputs,
        instructions=(
            Instruction(2, op, (0, 1), inputs[0]),
            Instruction(3, "const", (), inputs[0], (("value", 0.2),)),
            Instruction(4, "multiply", (3, 2), inputs[0]),
        ),
        outputs=(4,),
    )


def test_the_source_is_one_statement_per_instruction() -> None:
    source = kernel_source(scaled_sum((F8, F8)))
    assert source is not None
    imports, kernel, sweeps = source.split("\n\n\n")
    assert imports == "import numpy as np"
    assert kernel == (
        "def kernel(v0, v1, out):\n"
        "    for i in range(out.shape[0]):\n"
        "        v2 = v0[i] + v1[i]\n"
        "        out[i] = (0.2) * v2"
    )
    # the sweeps' inner loop: the same statements over row views at each input's shift
    assert (
        "            x0 = src[start + d0 : start + d0 + n]\n"
        "            x1 = src[start + d1 : start + d1 + n]\n"
        "            row = dst[start : start + n]\n"
        "            for i in range(n):\n"
        "                v2 = x0[i] + x1[i]\n"
        "                row[i] = (0.2) * v2\n"
    ) in sweeps


@pytest.mark.parametrize(
    "program",
    [scaled_sum((F4, F4)), scaled_sum((F8, F8), op="maximum"), scaled_sum((F8, F8), "power")],
    ids=["float32", "maximum", "power"],
)
def test_programs_it_does_not_cover_have_no_source(program: ScalarProgram) -> None:
    assert kernel_source(program) is None
