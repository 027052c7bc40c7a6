"""The Numba source of a ``ScalarProgram``: a flat loop (``kernel``) and a multi-sweep
stencil loop (``sweeps``), for the host backend's compiled loops
(``_backends/compiled_loops.py`` compiles and caches them).

Only float64 programs of finite constants and the instructions whose row has a ``numba``
form (``_ir/ufunc_table.py``: ``+ - * /`` and negation today), one statement per
instruction: Numba compiles them without fast-math (no reassociation, no fused
multiply-add) and with NumPy's error model (``x / 0`` is inf or nan, no exception), so the
bits are NumPy's. Sample, ``0.2 * (c + n + s)``::

    def kernel(v0, v1, v2, out):
        for i in range(out.shape[0]):
            v3 = v0[i] + v1[i]
            v4 = v3 + v2[i]
            out[i] = 0.2 * v4
"""

from __future__ import annotations

import math

import numpy

from .._ir.program_op_table import instruction_spec
from .._ir.scalar_program import ScalarProgram

_F8 = numpy.dtype(numpy.float64)


def kernel_source(program: ScalarProgram) -> str | None:
    """The Python source of ``kernel`` and ``sweeps`` (see the module docstring), or None
    when the program has an operation, a dtype or a constant it does not cover."""
    count = len(program.inputs)
    if len(program.outputs) != 1 or any(d != _F8 for d in program.inputs):
        return None
    flat = _statements(program, [f"v{k}[i]" for k in range(count)], "out[i]")
    shifted = _statements(program, [f"x{k}[i]" for k in range(count)], "row[i]")
    if flat is None or shifted is None:
        return None
    inputs = ", ".join(f"v{k}" for k in range(count))
    deltas = "".join(f"    d{k} = deltas[{k}]\n" for k in range(count))
    views = "".join(
        f"{' ' * 12}x{k} = src[start + d{k} : start + d{k} + n]\n" for k in range(count)
    )
    return (
        "import numpy as np\n\n\n"
        f"def kernel({inputs}, out):\n    for i in range(out.shape[0]):\n"
        + "".join(f"        {line}\n" for line in flat)
        + "\n\n"
        + _SWEEPS.format(
            deltas=deltas, views=views, body="".join(f"{' ' * 16}{line}\n" for line in shifted)
        )
    )


def _statements(program: ScalarProgram, inputs: list[str], target: str) -> list[str] | None:
    """The program as one statement per instruction, reading ``inputs`` and assigning the
    result to ``target``; None when it has something not covered."""
    names = dict(enumerate(inputs))
    lines = []
    for ins in program.instructions:
        if ins.dtype != _F8:
            return None
        if ins.op == "const":
            value = dict(ins.params)["value"]
            if not isinstance(value, float | int) or not math.isfinite(value):
                return None
            names[ins.result] = f"({float(value)!r})"
            continue
        spec = instruction_spec(ins.op)
        if spec is None or spec.numba is None:
            return None
        names[ins.result] = f"v{ins.result}"
        lines.append(f"v{ins.result} = " + spec.numba.format(*(names[a] for a in ins.args)))
    if not lines or program.instructions[-1].result != program.outputs[0]:
        return None  # an output that is an input or a constant: nothing to compile
    lines[-1] = f"{target} = {lines[-1].split(' = ', 1)[1]}"
    return lines


# Sweeps of a stencil over two C-ordered arrays of one shape, flat (``a`` and ``b``):
# sweep ``j`` writes box ``j`` (``boxes[j]``: per axis, low and high) of ``b`` from ``a``
# if ``j`` is even, of ``a`` from ``b`` if odd; input ``k`` reads ``deltas[k]`` cells
# from the cell written. Rows along the last axis are the inner loops, over views that
# start at the row (indices that cannot be negative: Numba then drops its wraparound
# test, and the loop vectorizes as ``kernel``'s does). Scalar loops only outside the rows:
# ``np.any`` of an array expression and a slice assignment (``index[:] = ...``) cost Numba
# 3 s of a fresh process's compile, of 4 (2 cores); without them the sweeps take 1 s.
_SWEEPS = """def sweeps(a, b, shape, boxes, deltas):
{deltas}    ndim = shape.shape[0]
    strides = np.empty(ndim, np.int64)
    size = 1
    for axis in range(ndim - 1, -1, -1):
        strides[axis] = size
        size *= shape[axis]
    index = np.empty(ndim, np.int64)
    for j in range(boxes.shape[0]):
        src, dst = (a, b) if j % 2 == 0 else (b, a)
        empty = False
        for axis in range(ndim):
            index[axis] = boxes[j, axis, 0]
            empty = empty or boxes[j, axis, 1] <= boxes[j, axis, 0]
        if empty:
            continue
        low, high = boxes[j, ndim - 1, 0], boxes[j, ndim - 1, 1]
        while True:
            start = low
            for axis in range(ndim - 1):
                start += index[axis] * strides[axis]
            n = high - low
{views}            row = dst[start : start + n]
            for i in range(n):
{body}            axis = ndim - 2
            while axis >= 0:
                index[axis] += 1
                if index[axis] < boxes[j, axis, 1]:
                    break
                index[axis] = boxes[j, axis, 0]
                axis -= 1
            if axis < 0:
                break
"""
