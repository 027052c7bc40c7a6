"""The numexpr form of a ``ScalarProgram``, for the programs numexpr computes exactly as
NumPy does.

numexpr's transcendental functions, integer arithmetic (C's sign for ``%``, division),
``**`` (rewritten to ``sqrt``/products) and mixed-type promotion differ from NumPy's, so an
instruction is sent to numexpr only through the ``numexpr`` form of its row
(``_ir/ufunc_table.py``, ``_ir/program_op_table.py``), on the one NumPy loop the form names:
float64 arithmetic that IEEE 754 rounds exactly (``+ - * /``, ``sqrt``, ``abs``,
negation), float64 comparisons, ``where`` and boolean logic today. Finite float64 and bool
constants are written as literals. Only trees over the inputs are sent (numexpr would
recompute a shared computed value; an input or constant may be read more than once), and
only trees up to ``DEEPEST`` operations deep: numexpr parses its expression with Python's
parser, which refuses more than 200 nested parentheses. Sample::

    0.2 * (a + b + c)  ->  "(0.2 * ((v0 + v1) + v2))"
"""

from __future__ import annotations

import math
from collections import Counter

import numpy

from .._ir.program_op_table import instruction_spec
from .._ir.scalar_program import Instruction, ScalarProgram

_F8 = numpy.dtype(numpy.float64)
_BOOL = numpy.dtype(bool)
# Each operation's source adds a level of parentheses; Python's parser takes 200.
DEEPEST = 100


def numexpr_source(program: ScalarProgram) -> str | None:
    """The numexpr expression over ``v0, v1, ...`` computing ``program``, or ``None`` when
    numexpr would not give NumPy's bits."""
    if len(program.outputs) != 1 or any(d not in (_F8, _BOOL) for d in program.inputs):
        return None
    uses = Counter(arg for ins in program.instructions for arg in ins.args)
    constants = {ins.result for ins in program.instructions if ins.op == "const"}
    # A tree over its inputs and constants (named twice, each is read twice: ``u + 0.1 *
    # (... - 4.0 * u)``), reading every input (numexpr wants each named input in the
    # expression); a computed value read twice would be computed twice.
    leaves = constants | set(range(len(program.inputs)))
    if any(count > 1 for value, count in uses.items() if value not in leaves) or any(
        uses[k] == 0 for k in range(len(program.inputs))
    ):
        return None
    text: dict[int, str] = {k: f"v{k}" for k in range(len(program.inputs))}
    depth = dict.fromkeys(text, 0)
    dtypes = value_dtypes(program)
    for ins in program.instructions:
        # one level of parentheses per operation; a constant (no arguments) is a literal
        depth[ins.result] = 1 + max((depth[a] for a in ins.args), default=-1)
        if depth[ins.result] > DEEPEST:
            return None
        arg_dtypes = [dtypes[a] for a in ins.args]
        source = _instruction_source(ins, [text[a] for a in ins.args], arg_dtypes, constants)
        if source is None:
            return None
        text[ins.result] = source
    return text[program.outputs[0]]


def value_dtypes(program: ScalarProgram) -> dict[int, numpy.dtype]:
    """Every value's dtype at once (``dtype_of`` one by one is quadratic on long programs)."""
    dtypes = dict(enumerate(program.inputs))
    dtypes.update((ins.result, ins.dtype) for ins in program.instructions)
    return dtypes


def _instruction_source(
    ins: Instruction, args: list[str], arg_dtypes: list[numpy.dtype], constants: set[int]
) -> str | None:
    """``ins`` in numexpr's syntax over ``args``; None where its row has no numexpr form
    for this loop."""
    if ins.op == "const":
        return _constant(dict(ins.params)["value"], ins.dtype)
    spec = instruction_spec(ins.op)
    form = None if spec is None else spec.numexpr
    if form is None or not form.is_exact_for(arg_dtypes, ins.dtype):
        return None
    if not form.constant_divisor and ins.args[1] in constants:
        return None
    return form.expression.format(*args)


def _constant(value: object, dtype: numpy.dtype) -> str | None:
    if dtype == _BOOL:
        return "True" if value else "False"
    if dtype == _F8 and isinstance(value, float) and math.isfinite(value):
        # repr round-trips a float64 exactly; a negative one (or -0.0) as a negation.
        return f"(-{-value!r})" if math.copysign(1.0, value) < 0 else repr(value)
    return None
