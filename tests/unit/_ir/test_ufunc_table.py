"""The op tables (``ufunc_table``, ``program_op_table``) are complete and well formed:
every ufunc has a CUDA form or a reason for each kind NumPy has loops for, names are
NumPy's, and no form reads an operand the op does not have."""

from __future__ import annotations

import re

import numpy
import pytest

from dask_gpunumeric._ir.program_op_table import (
    instruction_spec,
    program_op_by_name,
    program_op_table,
)
from dask_gpunumeric._ir.ufunc_table import UfuncSpec, ufunc_by_name, ufunc_table

KERNEL_CHARS = "?bBhHiIlLqQfdFD"  # the dtypes fused kernels have C++ types for


def first_operand_kinds(row: UfuncSpec) -> set[str]:
    """Kinds of the first operand of NumPy's loops over kernel dtypes."""
    loops = [t.split("->") for t in row.numpy_ufunc.types]
    return {numpy.dtype(ins[0]).kind for ins, outs in loops if set(ins + outs) <= set(KERNEL_CHARS)}


def placeholders(template: str) -> set[int]:
    return {int(k) for k in re.findall(r"\{(\d)\}", template)}


@pytest.mark.parametrize("row", ufunc_table, ids=[row.name for row in ufunc_table])
def test_every_kind_numpy_has_a_loop_for_has_a_cuda_form_or_a_reason(row: UfuncSpec) -> None:
    covered = "".join(row.cuda) + "".join(row.unfusible)
    assert first_operand_kinds(row) <= set(covered)
    assert row.cuda or row.unfusible  # isnat: no kernel dtype at all, and says why
    assert not set("".join(row.cuda)) & set("".join(row.unfusible))


@pytest.mark.parametrize("row", ufunc_table, ids=[row.name for row in ufunc_table])
def test_every_form_reads_the_operands_the_ufunc_has(row: UfuncSpec) -> None:
    operands = set(range(row.nin))
    for template in row.cuda.values():
        outputs = template if isinstance(template, tuple) else (template,)
        assert len(outputs) == row.nout
        assert all(placeholders(t) <= operands for t in outputs)  # isnan of ints: "false"
    assert all(placeholders(t) == operands for t in row.cuda_mixed)
    if row.numexpr is not None:
        assert placeholders(row.numexpr.expression) == operands
        assert row.numexpr.loop in row.numpy_ufunc.types  # a loop NumPy has
    if row.numba is not None:
        assert placeholders(row.numba) == operands


def test_names_are_numpys_and_aliases_are_the_same_ufunc() -> None:
    names = [name for row in ufunc_table for name in row.names]
    assert len(names) == len(set(names)) == len(ufunc_by_name)
    for row in ufunc_table:
        assert isinstance(row.numpy_ufunc, numpy.ufunc) and row.numpy_ufunc.__name__ == row.name
        for name in row.names:
            assert getattr(numpy, name) is row.numpy_ufunc and ufunc_by_name[name] is row


def test_an_instruction_names_a_row_by_numpys_name_never_an_alias() -> None:
    assert instruction_spec("absolute") is ufunc_by_name["abs"]
    assert instruction_spec("abs") is None
    assert instruction_spec("where") is program_op_by_name["where"]
    assert instruction_spec("clip") is None  # the pass writes it as maximum and minimum


def test_program_ops_are_not_ufuncs_and_their_forms_read_their_operands() -> None:
    assert not set(program_op_by_name) & set(ufunc_by_name)
    assert [row.name for row in program_op_table if row.cuda is None] == ["const", "astype"]
    for row in program_op_table:
        for template in (row.cuda or {}).values():
            assert isinstance(template, str) and placeholders(template) <= set(range(row.nin))
        if row.numexpr is not None:
            assert placeholders(row.numexpr.expression) == set(range(row.nin))
