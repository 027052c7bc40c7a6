"""The records of ``ufunc_table``: ``UfuncSpec`` (one row: a ufunc's names, NumPy ufunc,
family and the forms each emitter spells it with) and ``NumexprForm``.

The forms are data, never code: C++ templates (placeholders: ``cuda_templates.py``),
numexpr and Python expressions over ``{0}``, ``{1}`` (the operands' text). A form is
present only where its emitter computes NumPy's bits; ``_codegen`` fills them in.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import numpy

from .cuda_templates import CudaForms


@dataclass(frozen=True)
class NumexprForm:
    """numexpr's spelling of an operation and the one NumPy loop on which numexpr gives
    NumPy's bits (IEEE 754 rounds ``+ - * /`` and ``sqrt`` exactly; numexpr's own
    transcendental functions, integer arithmetic and promotion differ from NumPy's)."""

    expression: str  # "({0} + {1})": {k} is operand k's numexpr text
    loop: str  # NumPy's loop signature it is exact on: "dd->d" (float64, float64 -> float64)
    constant_divisor: bool = True  # False: numexpr turns ``x / c`` into ``x * (1 / c)``

    def is_exact_for(self, operands: Sequence[numpy.dtype], result: numpy.dtype) -> bool:
        return "".join(d.char for d in operands) + "->" + result.char == self.loop


@dataclass(frozen=True, eq=False)
class UfuncSpec:
    """One row of ``ufunc_table`` (its docstring shows a sample row)."""

    name: str  # NumPy's name for it: numpy.<name> is the ufunc, programs use this name
    family: str  # the NumPy reference section it belongs to
    cuda: CudaForms  # operand kind letters -> C++ template (a tuple: one per output)
    aliases: tuple[str, ...] = ()  # other names NumPy exports it under (np.abs)
    unfusible: Mapping[str, str] = field(default_factory=dict)  # kinds -> why not fused
    cuda_mixed: tuple[str, ...] = ()  # qQ->? and Qq->? loops (comparisons): C++ templates
    numexpr: NumexprForm | None = None
    numba: str | None = None  # a Python expression, float64 loops only

    @property
    def names(self) -> tuple[str, ...]:
        return (self.name, *self.aliases)

    @functools.cached_property
    def numpy_ufunc(self) -> numpy.ufunc:
        return getattr(numpy, self.name)

    @property
    def nin(self) -> int:
        return self.numpy_ufunc.nin

    @property
    def nout(self) -> int:
        return self.numpy_ufunc.nout
