"""CUDA C++ for ``cupy.ElementwiseKernel`` from a ``ScalarProgram``.

``generate_cuda(program)`` returns the strings ``cupy.ElementwiseKernel(in_params,
out_params, operation, name, preamble=..., options=...)`` takes. For ``0.2 * (a + b)`` with
``a`` int32 and ``b`` float64 (the ``ScalarProgram`` docstring's example) it emits::

    in_params   "int32 in0, float64 in1"
    out_params  "float64 out0"
    operation   const double v2 = ((double)in0);
                const double v3 = (v2 + in1);
                const double v4 = 0.2;
                const double v5 = (v4 * v3);
                out0 = v5;
    name        "gn_fused_117e69cdd2e33c08"   (a hash of the three strings above)
    preamble    ""
    options     ("--fmad=false",)

and for ``a // b`` on int64, where C++ truncates and NumPy floors::

    operation   const long long v2 = gn_floor_divide_int(in0, in1);
                out0 = v2;
    preamble    template <class T> __device__ inline T gn_floor_divide_int(T a, T b) {
                  if (b == 0) return 0;
                  ...

The program is typed SSA with explicit casts, so the generator never promotes: it spells
each instruction with the ``cuda`` form of its row (``_ir/ufunc_table.py``,
``_ir/program_op_table.py``) for its operand kind, placeholders filled in
(``_ir/cuda_templates.py``).
``--fmad=false`` keeps NVRTC from contracting ``a * b + c`` into one rounding: NumPy rounds
the product, so a fused kernel must too (explicit ``fma()`` calls, as in complex multiply,
are kept).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

import numpy

from .._ir.program_op_table import instruction_spec
from .._ir.scalar_program import Instruction, ScalarProgram
from .._ir.ufunc_spec import UfuncSpec
from .cuda_helpers import preamble_for
from .cuda_types import (
    CPP_TYPES,
    NotFusibleError,
    compute_unsigned,
    cpp_type,
    kind_of,
    literal,
    real_dtype,
    real_type,
)

NVRTC_OPTIONS = ("--fmad=false",)


@dataclass(frozen=True)
class ElementwiseKernelSource:
    """The arguments of ``cupy.ElementwiseKernel``, in its order (``preamble`` and
    ``options`` are its keyword arguments)."""

    in_params: str
    out_params: str
    operation: str
    name: str
    preamble: str
    options: tuple[str, ...] = NVRTC_OPTIONS


def generate_cuda(program: ScalarProgram) -> ElementwiseKernelSource:
    """The ``cupy.ElementwiseKernel`` source that computes ``program`` element by element.

    Raises ``NotFusibleError`` (with the reason) for an operation ``unfusible_reason``
    names: the fusion pass keeps such operations out of fused kernels.
    """
    lines = [
        f"const {cpp_type(ins.dtype)} v{ins.result} = {instruction_expression(program, ins)};"
        for ins in program.instructions
    ]
    lines += [f"out{k} = {_value(program, v)};" for k, v in enumerate(program.outputs)]
    operation = "\n".join(lines)
    in_params = ", ".join(f"{_param_type(d)} in{k}" for k, d in enumerate(program.inputs))
    out_dtypes = [program.dtype_of(v) for v in program.outputs]
    out_params = ", ".join(f"{_param_type(d)} out{k}" for k, d in enumerate(out_dtypes))
    digest = hashlib.sha1(f"{in_params};{out_params};{operation}".encode()).hexdigest()
    return ElementwiseKernelSource(
        in_params, out_params, operation, f"gn_fused_{digest[:16]}", preamble_for(operation)
    )


def unfusible_reason(op: str, operand_dtypes: tuple[numpy.dtype, ...]) -> str | None:
    """Why ``op`` on ``operand_dtypes`` has no CUDA spelling here, or ``None`` if it has."""
    for dtype in operand_dtypes:
        if numpy.dtype(dtype).name not in CPP_TYPES:
            return f"{dtype} has no C++ type in fused kernels"
    spec = instruction_spec(op)
    if not isinstance(spec, UfuncSpec):
        return None if spec is not None else f"{op!r} is not a ufunc of ufunc_table"
    kind = kind_of(operand_dtypes[0]) if operand_dtypes else "f"
    reason = next((why for kinds, why in spec.unfusible.items() if kind in kinds), None)
    if reason is not None:
        return reason
    if not any(kind in kinds for kinds in spec.cuda):
        return f"NumPy has no {op} loop for {operand_dtypes[0]} operands"
    return None


def instruction_expression(program: ScalarProgram, ins: Instruction) -> str:
    """The C++ expression of one instruction, operands spelled as value names."""
    operands = [_value(program, a) for a in ins.args]
    operand_dtypes = tuple(program.dtype_of(a) for a in ins.args)
    reason = unfusible_reason(ins.op, operand_dtypes + (ins.dtype,))
    if reason is not None:
        raise NotFusibleError(f"cannot generate CUDA for {ins.op}: {reason}")
    if ins.op == "const":
        return literal(dict(ins.params)["value"], ins.dtype)
    if ins.op == "astype":
        return cast_expression(operands[0], operand_dtypes[0], ins.dtype)
    template = _template(ins, [kind_of(d) for d in operand_dtypes])
    return _fill(template, operands, operand_dtypes[0], ins.dtype)


def cast_expression(operand: str, source: numpy.dtype, target: numpy.dtype) -> str:
    """``astype``: C++ conversions, except float to integer, which C++ leaves undefined
    out of range: there the x86-64 result NumPy gives on this machine's CPUs (NaN and
    overflow give the "integer indefinite" value; see ``cuda_helpers``)."""
    source, target = numpy.dtype(source), numpy.dtype(target)
    to, real = cpp_type(target), real_type(target)
    if source == target:
        return operand
    if target.kind == "b":
        if source.kind == "c":
            return f"({operand}.real() != 0 || {operand}.imag() != 0)"
        return f"({operand} != 0)"
    if source.kind == "c" and target.kind != "c":  # NumPy drops the imaginary part
        return cast_expression(f"{operand}.real()", real_dtype(source), target)
    if target.kind == "c":
        if source.kind == "c":
            return f"{to}({operand})"
        return f"{to}(({real}){operand}, ({real})0)"
    if target.kind in "iu" and source.kind == "f":
        return f"{_double_to(target)}((double){operand})"
    return f"(({to}){operand})"


def _double_to(target: numpy.dtype) -> str:
    """A function-like prefix converting a ``double`` to ``target`` as x86-64 code does."""
    name = numpy.dtype(target).name
    special = {
        "int32": "gn_cvtt32",
        "int64": "gn_cvtt64",
        "uint32": "gn_cvtt_u32",
        "uint64": "gn_cvtt_u64",
    }
    return special.get(name, f"({cpp_type(target)})gn_cvtt32")


def _template(ins: Instruction, kinds: list[str]) -> str:
    """The row's template for the first operand's kind; for NumPy's int64-against-uint64
    comparisons (``qQ->?``), the row's ``cuda_mixed`` form."""
    spec = instruction_spec(ins.op)
    assert spec is not None and spec.cuda is not None  # unfusible_reason checked it
    if isinstance(spec, UfuncSpec) and spec.cuda_mixed and kinds[0] != kinds[1]:
        return spec.cuda_mixed[0] if kinds[0] == "i" else spec.cuda_mixed[1]
    kind = kinds[0] if kinds else "b"
    template = next(t for letters, t in spec.cuda.items() if kind in letters)
    if isinstance(template, tuple):
        return template[dict(ins.params).get("output", 0)]
    return template


def _fill(template: str, operands: list[str], operand: numpy.dtype, result: numpy.dtype) -> str:
    operand_type = cpp_type(operand)
    replacements = {"{T}": operand_type, "{R}": cpp_type(result)}
    if operand.kind in "iu":
        replacements["{U}"] = compute_unsigned(operand)
        replacements["{W}"] = str(operand.itemsize * 8)
    if result.kind in "iu":
        replacements["{D2T}"] = _double_to(result)
    for placeholder, text in replacements.items():
        template = template.replace(placeholder, text)
    for k, name in enumerate(operands):
        template = template.replace("{" + str(k) + "}", name)
    return template


def _value(program: ScalarProgram, value: int) -> str:
    return f"in{value}" if value < len(program.inputs) else f"v{value}"


def _param_type(dtype: numpy.dtype) -> str:
    cpp_type(dtype)  # raises for dtypes with no C++ type
    return numpy.dtype(dtype).name
