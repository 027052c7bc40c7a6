"""``int ** -n`` raises NumPy's ValueError on backends whose loops cannot raise it."""

from __future__ import annotations

import re

import numpy
import pytest

import dask_gpunumeric as dnp
from dask_gpunumeric._backends import get_backend
from dask_gpunumeric._ir.scalar_program import Instruction, ScalarProgram
from dask_gpunumeric._kernels.integer_powers import check_power, check_program, negative_exponents

INT = numpy.dtype("int64")
# (a + 1) ** b, then ** 2 (a constant, non-negative exponent: never checked)
PROGRAM = ScalarProgram(
    (INT, INT),
    (
        Instruction(2, "const", (), INT, (("value", 1),)),
        Instruction(3, "add", (0, 2), INT),
        Instruction(4, "power", (3, 1), INT),
        Instruction(5, "const", (), INT, (("value", 2),)),
        Instruction(6, "power", (4, 5), INT),
    ),
    (6,),
)


def test_the_check_compares_the_array_exponents_with_zero() -> None:
    check = negative_exponents(PROGRAM)
    assert check is not None and [ins.op for ins in check.instructions] == ["const", "less"]
    assert check.instructions[1].args[0] == 1 and check.dtype_of(check.outputs[0]) == numpy.dtype(
        bool
    )
    float_power = ScalarProgram(
        (numpy.dtype("float64"),) * 2,
        (Instruction(2, "power", (0, 1), numpy.dtype("float64")),),
        (2,),
    )
    assert negative_exponents(float_power) is None


@pytest.mark.parametrize(
    "name", ["simulated-device", "numpy"], ids=["device-chunks", "host-chunks"]
)
def test_a_device_block_with_a_negative_exponent_raises(name: str) -> None:
    backend = get_backend(name)
    base, exponent = (
        backend.from_host(numpy.arange(4)),
        backend.from_host(numpy.array([1, 2, -1, 0])),
    )
    if name == "numpy":  # NumPy's loop raises by itself: nothing is checked before it
        assert backend.loops_raise_for_negative_integer_powers
        check_program(backend, PROGRAM, (base, exponent))
        return
    with pytest.raises(ValueError, match="Integers to negative integer powers are not allowed"):
        check_program(backend, PROGRAM, (base, exponent))
    check_program(backend, PROGRAM, (base, backend.from_host(numpy.array([1, 2, 3, 0]))))


@pytest.mark.parametrize(("dtype", "exponent"), [("uint8", -1), ("int8", -1000), ("int8", -1)])
def test_numpy_s_own_error_for_a_python_integer_exponent_comes_first(
    dtype: str, exponent: int
) -> None:
    """``uint8_array ** -1`` is NumPy's OverflowError (the Python integer does not fit the
    array's dtype), not the negative-power ValueError the check raises for ``int8 ** -1``:
    in the check and through the operator on a tiny array held in the client."""
    host = numpy.arange(1, 4, dtype=dtype)
    with pytest.raises((OverflowError, ValueError)) as theirs:
        numpy.power(host, exponent)
    backend = get_backend("simulated-device")
    with pytest.raises(theirs.type, match=re.escape(str(theirs.value))):
        check_power(backend, backend.from_host(host), exponent)
    with dnp.config.set(backend="simulated-device"):
        with pytest.raises(theirs.type, match=re.escape(str(theirs.value))):
            dnp.asarray(host) ** exponent
