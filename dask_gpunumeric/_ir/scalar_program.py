"""``ScalarProgram``: what one fused elementwise kernel computes for one element.

The contract between the fusion pass (``_passes``), which builds programs from trees of
``Elementwise`` nodes, and the code generators (``_codegen``), which turn a program into
CUDA C++ or a CPU evaluator. A program is typed SSA: value ``k`` is either input ``k``
(``k < len(inputs)``) or the result of the instruction that defines it, and every value
has the dtype NumPy would give it.

Casts are explicit: every operand of an instruction already has the dtype the NumPy loop
for that operation reads (``numpy.add.resolve_dtypes`` picks it; weak Python scalars
included), so a generator never promotes on its own. Example: ``0.2 * (a + b)`` with
``a`` int32 and ``b`` float64 is::

    v0: int32    = input 0
    v1: float64  = input 1
    v2: float64  = astype v0
    v3: float64  = add v2 v1
    v4: float64  = const 0.2
    v5: float64  = multiply v4 v3
    outputs (v5,)

Programs are hashable values (the kernel cache key together with ``ndim``) and picklable:
they are what travels to the workers, never a compiled kernel.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy


@dataclass(frozen=True)
class Instruction:
    """``op`` applied to the values ``args``, defining value ``result`` of ``dtype``.

    ``op``: a row of ``ufunc_table`` (NumPy's name: ``"add"``, ``"maximum"``...) or of
    ``program_op_table`` (``const``, ``astype``, ``where``...). ``params``:
    ``(("value", 0.2),)`` for ``const`` (a Python scalar, exact in ``dtype``);
    ``(("output", k),)`` picks result ``k`` of a two-output ufunc (``divmod``, ``modf``,
    ``frexp``); empty otherwise. ``clip`` is lowered to ``maximum`` and ``minimum`` by the
    pass, so it never appears.
    """

    result: int
    op: str
    args: tuple[int, ...]
    dtype: numpy.dtype
    params: tuple[tuple[str, Any], ...] = ()


@dataclass(frozen=True)
class ScalarProgram:
    """Inputs' dtypes, instructions in dependency order, and the values returned."""

    inputs: tuple[numpy.dtype, ...]
    instructions: tuple[Instruction, ...]
    outputs: tuple[int, ...]

    def dtype_of(self, value: int) -> numpy.dtype:
        if value < len(self.inputs):
            return self.inputs[value]
        return self._instruction_dtypes()[value]

    def _instruction_dtypes(self) -> dict[int, numpy.dtype]:
        return {instruction.result: instruction.dtype for instruction in self.instructions}

    def __str__(self) -> str:
        lines = [f"v{k}: {dtype} = input {k}" for k, dtype in enumerate(self.inputs)]
        for ins in self.instructions:
            operands = " ".join(f"v{a}" for a in ins.args)
            extra = " ".join(f"{key}={value!r}" for key, value in ins.params)
            lines.append(f"v{ins.result}: {ins.dtype} = {ins.op} {operands} {extra}".rstrip())
        lines.append("outputs (" + ", ".join(f"v{v}" for v in self.outputs) + ")")
        return "\n".join(lines)
