"""program_op_table: the operations of a ``ScalarProgram`` that are not ufuncs, one row
each, with the forms the emitters spell them with (as ``ufunc_table`` does for ufuncs).

A sample row::

    ProgramOpSpec(
        "where",                                        # the instruction's op
        3,                                              # operands: condition, x, y
        cuda={"biufc": "({0} ? {1} : {2})"},            # any operand kind
        numexpr=NumexprForm("where({0}, {1}, {2})", "?dd->d"),
    )

``cuda`` is ``None`` where the CUDA emitter spells the op from the instruction's params:
``const`` as a literal exact in its dtype, ``astype`` as NumPy's conversion
(``_codegen/cuda.py`` ``cast_expression``). ``const`` has no numexpr or Numba form either:
each emitter writes its value itself, when the value is exact there. No row has a Numba
form: the Numba loops cover float64 ``+ - * /``, negation and constants only. The CPU
tiled chain copies these ops with NumPy (``_codegen/cpu.py``); ufunc instructions call
their row's NumPy ufunc.

``clip`` is an ``Elementwise`` op but never an instruction: the fusion pass writes it as
``maximum`` then ``minimum`` (``_passes/scalar_programs.py``).
"""

from __future__ import annotations

from dataclasses import dataclass

from .cuda_templates import CudaForms
from .ufunc_spec import NumexprForm, UfuncSpec
from .ufunc_table import ufunc_by_name


@dataclass(frozen=True, eq=False)
class ProgramOpSpec:
    """One row of ``program_op_table`` (its docstring shows a sample row)."""

    name: str  # the instruction's op
    nin: int  # how many operands it reads
    cuda: CudaForms | None = None  # as UfuncSpec.cuda; None: spelled from params
    numexpr: NumexprForm | None = None
    numba: str | None = None


program_op_table: tuple[ProgramOpSpec, ...] = (
    ProgramOpSpec("const", 0),  # params: (("value", v),), v exact in the dtype
    ProgramOpSpec("astype", 1),  # params: (("dtype", d),) (the instruction's dtype)
    ProgramOpSpec(
        "where",
        3,
        cuda={"biufc": "({0} ? {1} : {2})"},
        numexpr=NumexprForm("where({0}, {1}, {2})", "?dd->d"),
    ),
    ProgramOpSpec("real", 1, cuda={"c": "{0}.real()", "biuf": "{0}"}),
    ProgramOpSpec("imag", 1, cuda={"c": "{0}.imag()", "biuf": "(({R})0)"}),
    # a complex number from its parts, copied: real + 1j * imag turns inf parts into NaNs
    ProgramOpSpec("from_parts", 2, cuda={"biufc": "{R}({0}, {1})"}),
)

program_op_by_name: dict[str, ProgramOpSpec] = {row.name: row for row in program_op_table}


def instruction_spec(op: str) -> UfuncSpec | ProgramOpSpec | None:
    """The row of an instruction's ``op``: its ufunc's (by NumPy's name, never an alias) or
    its program op's; None for neither."""
    ufunc = ufunc_by_name.get(op)
    return ufunc if ufunc is not None and ufunc.name == op else program_op_by_name.get(op)
