"""The emitters take their forms from the op tables and from nowhere else: an instruction
goes to numexpr or Numba exactly when its row has a form for its loop, the source is that
form filled in, and changing a row changes what every emitter writes."""

from __future__ import annotations

import dataclasses

import numpy
import pytest

from dask_gpunumeric._codegen import cpu
from dask_gpunumeric._codegen.cuda import generate_cuda
from dask_gpunumeric._codegen.numba_source import kernel_source
from dask_gpunumeric._codegen.numexpr_source import DEEPEST, numexpr_source
from dask_gpunumeric._ir.program_op_table import program_op_by_name, program_op_table
from dask_gpunumeric._ir.scalar_program import Instruction, ScalarProgram
from dask_gpunumeric._ir.ufunc_table import ufunc_by_name, ufunc_table
from tests.unit._codegen.numpy_oracle import loops_of, single_op_program

F8, BOOL = numpy.dtype(numpy.float64), numpy.dtype(bool)
WHERE_CASES = [(BOOL, x, x) for x in map(numpy.dtype, "?qfdD")]


@pytest.mark.parametrize("row", ufunc_table, ids=[row.name for row in ufunc_table])
def test_numexpr_and_numba_get_an_instruction_exactly_where_its_row_has_a_form(row) -> None:
    for ins, outs in loops_of(row.numpy_ufunc):
        if len(outs) > 1:
            continue  # programs of two outputs go to neither
        program = single_op_program(row.name, ins, outs)
        operands = [f"v{k}" for k in range(len(ins))]
        numexpr = row.numexpr
        if numexpr is not None and numexpr.is_exact_for(ins, outs[0]):
            assert numexpr_source(program) == numexpr.expression.format(*operands)
        else:
            assert numexpr_source(program) is None
        source = kernel_source(program)
        if row.numba is not None and set(ins + outs) == {F8}:
            assert source is not None
            assert f"out[i] = {row.numba.format(*(f'{v}[i]' for v in operands))}\n" in source
        else:
            assert source is None


@pytest.mark.parametrize("dtypes", WHERE_CASES, ids=[d[1].name for d in WHERE_CASES])
def test_where_goes_to_numexpr_only_on_its_forms_loop(dtypes) -> None:
    program = ScalarProgram(dtypes, (Instruction(3, "where", (0, 1, 2), dtypes[1]),), (3,))
    form = program_op_by_name["where"].numexpr
    assert form is not None
    expected = form.expression.format("v0", "v1", "v2") if dtypes[1] == F8 else None
    assert numexpr_source(program) == expected
    assert kernel_source(program) is None  # no Numba form


def add_program() -> ScalarProgram:
    return single_op_program("add", (F8, F8), (F8,))


def test_a_row_without_numexpr_and_numba_forms_is_never_sent_there(monkeypatch) -> None:
    assert numexpr_source(add_program()) == "(v0 + v1)"
    assert kernel_source(add_program()) is not None
    bare = dataclasses.replace(ufunc_by_name["add"], numexpr=None, numba=None)
    monkeypatch.setitem(ufunc_by_name, "add", bare)
    assert numexpr_source(add_program()) is None
    assert kernel_source(add_program()) is None


def test_the_cuda_operation_is_the_rows_form(monkeypatch) -> None:
    assert "(in0 + in1)" in generate_cuda(add_program()).operation
    forms = {**ufunc_by_name["add"].cuda, "f": "gn_add_differently({0}, {1})"}
    monkeypatch.setitem(ufunc_by_name, "add", dataclasses.replace(ufunc_by_name["add"], cuda=forms))
    assert "gn_add_differently(in0, in1)" in generate_cuda(add_program()).operation


def test_the_cpu_chain_copies_every_program_op_but_constants() -> None:
    assert set(cpu._COPIES) == {row.name for row in program_op_table} - {"const"}


def _heat_program(shared_value: bool) -> ScalarProgram:
    """``u + 0.1 * (n - 4.0 * u)`` (the periodic heat step: the input ``u`` read twice), or
    with ``d = n - u`` read twice (``d * d + d``) where ``shared_value``."""
    const = lambda result, value: Instruction(result, "const", (), F8, (("value", value),))  # noqa: E731
    if shared_value:
        instructions = (
            Instruction(2, "subtract", (1, 0), F8),
            Instruction(3, "multiply", (2, 2), F8),
            Instruction(4, "add", (3, 2), F8),
        )
        return ScalarProgram((F8, F8), instructions, (4,))
    instructions = (
        const(2, 4.0),
        Instruction(3, "multiply", (2, 0), F8),
        Instruction(4, "subtract", (1, 3), F8),
        const(5, 0.1),
        Instruction(6, "multiply", (5, 4), F8),
        Instruction(7, "add", (0, 6), F8),
    )
    return ScalarProgram((F8, F8), instructions, (7,))


def test_an_input_read_twice_goes_to_numexpr_with_numpys_bits() -> None:
    program = _heat_program(shared_value=False)
    assert numexpr_source(program) == "(v0 + (0.1 * (v1 - (4.0 * v0))))"
    assert cpu.evaluates_quietly(program)  # numexpr, not the tiled chain
    generator = numpy.random.default_rng(0)
    u, n = generator.standard_normal(10_001), generator.standard_normal(10_001) * 4
    expected = u + 0.1 * (n - 4.0 * u)
    numpy.testing.assert_array_equal(cpu.evaluate(program, u, n), expected)


def test_a_computed_value_read_twice_stays_off_numexpr() -> None:
    program = _heat_program(shared_value=True)
    assert numexpr_source(program) is None  # numexpr would compute ``d`` twice
    u, n = numpy.arange(5.0), numpy.arange(5.0) ** 2
    d = n - u
    numpy.testing.assert_array_equal(cpu.evaluate(program, u, n), d * d + d)


def _chain_program(length: int) -> ScalarProgram:
    """``((v0 + 1.0) + 1.0) + 1.0 ...``: ``length`` additions, one constant read by all."""
    const = Instruction(1, "const", (), F8, (("value", 1.0),))
    adds = tuple(Instruction(k + 2, "add", (k + 1 if k else 0, 1), F8) for k in range(length))
    return ScalarProgram((F8,), (const, *adds), (length + 1,))


def test_numexpr_takes_trees_up_to_the_depth_pythons_parser_reads() -> None:
    """A tree ``DEEPEST`` additions deep is numexpr's; a deeper one (at 1,000 it would pass
    Python's 200 nested parentheses) runs on the tiled chain, with NumPy's bits either way."""
    x = numpy.linspace(-1.0, 1.0, 1001)
    for length in (DEEPEST, DEEPEST + 1, 10 * DEEPEST):
        program = _chain_program(length)
        assert (numexpr_source(program) is not None) == (length <= DEEPEST)
        assert cpu.evaluates_quietly(program) == (length <= DEEPEST)
        expected = x
        for _ in range(length):
            expected = expected + 1.0
        numpy.testing.assert_array_equal(cpu.evaluate(program, x), expected)
