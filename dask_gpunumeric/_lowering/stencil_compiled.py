"""A compiled loop for the flat interior of large stencil blocks on the host (Numba).

numexpr runs a program in its virtual machine, one operation at a time over small buffers:
on a memory-bound stencil that is about twice the time of copying the block. A loop
compiled for the program reads each input once and writes the result once, at about the
copy's time. Compiling costs about half a second of CPU (and importing Numba as much), so
it is done once per program and process, in a background thread, and only for a program
that blocks of at least ``MIN_ELEMENTS`` elements have already run on for ``HOT_ELEMENTS``
elements in all (about a second of numexpr: the compile pays back on long loops over big
grids and is not spent on short ones). Until it is ready (or when Numba is not installed,
or the program is not one of these) blocks are evaluated by numexpr as before.

Only float64 programs of ``+ - * /``, negation and finite constants, written as a tree of
one statement per instruction: Numba compiles them without fast-math (no reassociation,
no fused multiply-add) and with NumPy's error model (``x / 0`` is inf or nan, no
exception), so the bits are NumPy's. Sample, ``0.2 * (c + n + s)``::

    def kernel(v0, v1, v2, out):
        for i in range(out.shape[0]):
            v3 = v0[i] + v1[i]
            v4 = v3 + v2[i]
            out[i] = 0.2 * v4
"""

from __future__ import annotations

import math
import threading
from collections.abc import Callable
from typing import Any

import numpy

from .._ir.scalar_program import ScalarProgram

MIN_ELEMENTS = 1 << 22  # 32 MiB of float64 per block
HOT_ELEMENTS = 1 << 28  # evaluated by numexpr before compiling: about a second of its time
Kernel = Callable[..., None]

_INFIX = {"add": "+", "subtract": "-", "multiply": "*", "divide": "/"}
_F8 = numpy.dtype(numpy.float64)
_kernels: dict[str | None, Kernel | None] = {None: None}  # by source; None: not (yet)
_evaluated: dict[str, int] = {}  # elements evaluated without a kernel, by source
_lock = threading.Lock()
_compiling: list[threading.Thread] = []


def compiled_kernel(program: ScalarProgram, elements: int) -> Kernel | None:
    """The compiled loop of ``program`` over 1-D contiguous float64 views (``kernel(*inputs,
    out)``) for a block of ``elements``, or None (the caller evaluates with numexpr) until
    the program is hot, while it compiles, or when it cannot be compiled."""
    source = kernel_source(program)  # the key: 0.0 == -0.0 in programs, not in sources
    with _lock:
        if source in _kernels:
            return _kernels[source]
        assert source is not None  # _kernels has None
        _evaluated[source] = _evaluated.get(source, 0) + elements
        if _evaluated[source] < HOT_ELEMENTS:
            return None
        _kernels[source] = None
    thread = threading.Thread(target=_compile, args=(source, len(program.inputs)), daemon=True)
    _compiling.append(thread)
    thread.start()
    return None


def wait_for_compiles(timeout: float) -> None:
    """Wait until the compiles started so far are done (at most ``timeout`` seconds each)."""
    for thread in list(_compiling):
        thread.join(timeout)


def kernel_source(program: ScalarProgram) -> str | None:
    """The Python source of ``kernel`` (see the module docstring), or None when the program
    has an operation, a dtype or a constant it does not cover."""
    if len(program.outputs) != 1 or any(d != _F8 for d in program.inputs):
        return None
    names = {k: f"v{k}[i]" for k in range(len(program.inputs))}
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
        args = [names[a] for a in ins.args]
        if ins.op in _INFIX:
            expression = f"{args[0]} {_INFIX[ins.op]} {args[1]}"
        elif ins.op == "negative":
            expression = f"-{args[0]}"
        else:
            return None
        names[ins.result] = f"v{ins.result}"
        lines.append(f"v{ins.result} = {expression}")
    if not lines or program.instructions[-1].result != program.outputs[0]:
        return None  # an output that is an input or a constant: nothing to compile
    lines[-1] = f"out[i] = {lines[-1].split(' = ', 1)[1]}"
    inputs = ", ".join(f"v{k}" for k in range(len(program.inputs)))
    body = "".join(f"        {line}\n" for line in lines)
    return f"def kernel({inputs}, out):\n    for i in range(out.shape[0]):\n{body}"


def _compile(source: str, inputs: int) -> None:
    kernel = _numba_kernel(source, inputs)
    with _lock:
        _kernels[source] = kernel


def _numba_kernel(source: str, inputs: int) -> Kernel | None:
    """``kernel`` compiled for writable C-contiguous 1-D float64 arrays, and for nothing else
    (a call with other types, read-only inputs among them, raises TypeError); None
    without Numba."""
    try:
        import numba
    except ImportError:
        return None
    namespace: dict[str, Any] = {}
    exec(compile(source, "<stencil kernel>", "exec"), namespace)  # generated above
    readonly = numba.types.Array(numba.float64, 1, "C", readonly=True)
    signatures = [
        (*(array,) * inputs, numba.float64[::1]) for array in (numba.float64[::1], readonly)
    ]
    dispatcher = numba.njit(signatures, nogil=True, error_model="numpy", cache=False)
    kernel = dispatcher(namespace["kernel"])
    kernel.disable_compile()
    return kernel
