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

Compiled loops are cached on disk, as CuPy caches its kernels: the source goes to a file
named by its digest in ``gpunumeric.kernel-cache`` (default ``~/.cache/dask_gpunumeric``,
or ``$XDG_CACHE_HOME``), and Numba keeps the machine code beside it. A program whose
source file is there already is loaded at its first large block, without waiting to be
hot (loading takes Numba's import and a few milliseconds). An unwritable directory, or
``kernel-cache: false``, compiles in memory as before.

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

import hashlib
import importlib.util
import math
import os
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy

from .._ir.scalar_program import ScalarProgram
from .._runtime import config

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
        path = source_path(source)
        cached = path is not None and path.exists()
        if _evaluated[source] < HOT_ELEMENTS and not cached:
            return None
        _kernels[source] = None
    thread = threading.Thread(
        target=_compile, args=(source, len(program.inputs), path), daemon=True
    )
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


def source_path(source: str) -> Path | None:
    """The file ``source`` is compiled from when kernels are cached on disk, else None."""
    directory = config.get("kernel-cache")
    if directory is False:
        return None
    if directory in (None, True):
        home = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
        directory = os.path.join(home, "dask_gpunumeric")
    digest = hashlib.sha256(source.encode()).hexdigest()[:24]
    return Path(directory) / "stencil" / f"kernel_{digest}.py"


def _compile(source: str, inputs: int, path: Path | None) -> None:
    kernel = _numba_kernel(source, inputs, path)
    with _lock:
        _kernels[source] = kernel


def _numba_kernel(source: str, inputs: int, path: Path | None) -> Kernel | None:
    """``kernel`` compiled for writable C-contiguous 1-D float64 arrays, and for nothing else
    (a call with other types, read-only inputs among them, raises TypeError), through the
    disk cache at ``path`` when it can be written; None without Numba."""
    try:
        import numba
    except ImportError:
        return None
    function, cached = _python_kernel(source, path)
    readonly = numba.types.Array(numba.float64, 1, "C", readonly=True)
    signatures = [
        (*(array,) * inputs, numba.float64[::1]) for array in (numba.float64[::1], readonly)
    ]
    dispatcher = numba.njit(signatures, nogil=True, error_model="numpy", cache=cached)
    kernel = dispatcher(function)
    kernel.disable_compile()
    return kernel


def _python_kernel(source: str, path: Path | None) -> tuple[Callable[..., None], bool]:
    """``kernel`` as a Python function, and whether Numba may cache it: loaded from
    ``path`` (written first if absent; Numba needs a source file to cache against), or,
    when the file cannot be written, executed from the source in memory."""
    if path is not None:
        try:
            if not path.exists():
                path.parent.mkdir(parents=True, exist_ok=True)
                partial = path.with_suffix(f".{os.getpid()}.{threading.get_ident()}.tmp")
                partial.write_text(source)
                os.replace(partial, path)  # atomic: a concurrent writer wrote the same
            if path.read_text() == source:  # whatever wrote the file
                # Importable by name: Numba imports a cached function's module to load it.
                name = f"dask_gpunumeric_stencil_{path.stem}"
                spec = importlib.util.spec_from_file_location(name, path)
                assert spec is not None and spec.loader is not None
                module = importlib.util.module_from_spec(spec)
                spec.loader.exec_module(module)
                sys.modules[name] = module
                return module.kernel, True
        except OSError:
            pass
    namespace: dict[str, Any] = {}
    exec(compile(source, "<stencil kernel>", "exec"), namespace)  # generated above
    return namespace["kernel"], False
