"""Compiled loops for large stencil blocks on the host (Numba): compile threads, the
disk cache and the heat counters that decide when a program is worth compiling.

numexpr runs a program in its virtual machine, one operation at a time over small buffers:
on a memory-bound stencil that is about twice the time of copying the block. A loop
compiled for the program (its source from ``_codegen/numba_source.py``) reads each input
once and writes the result once, at about the copy's time. Compiling costs under a second
of CPU (and importing Numba a third of one), so it is done once per program and machine,
in a background thread; until it is ready (or when Numba is not installed or fails to
import, or the program is not one of those ``numba_source`` covers) blocks are evaluated
by numexpr as before.

When to compile. Compiled loops are cached on disk, as CuPy caches its kernels: the source
goes to a file named by its digest in ``gpunumeric.kernel-cache`` (default
``~/.cache/dask_gpunumeric``, or ``$XDG_CACHE_HOME``), and Numba keeps the machine code
beside it. A compile there serves every later process, so it starts at a program's first
block of ``MIN_ELEMENTS`` elements or more (sweeps counted): a user's first run of a large
stencil then pays one background compile, not a second of numexpr per worker before it
(``python -m benchmarks.first_run``). Without a disk cache (``kernel-cache: false``, or an
unwritable directory: compiled in memory) a compile serves this process only and starts
once blocks have run the program on ``HOT_ELEMENTS`` elements in all (about a second of
numexpr: it pays back on long loops over big grids and is not spent on short ones). A
program whose source file is there already is loaded at its first block, hot or not
(Numba's import and a few milliseconds).

One compile per machine: the workers of a machine reach the same program together, so the
compile holds a lock file beside the source (``flock``, released by the kernel when a
process dies); the other workers' threads wait for it, up to ``LOCK_SECONDS``, and then
load Numba's cache instead of compiling again. A ``.compiled`` file beside the source
says the loops are in the cache: loads take no lock.
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib.util
import os
import sys
import threading
import time
import warnings
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

from .._codegen.numba_source import kernel_source
from .._ir.scalar_program import ScalarProgram
from .._runtime import config
from .base import Kernel

MIN_ELEMENTS = 1 << 22  # 32 MiB of float64 per block; also the block that starts a cached compile
HOT_ELEMENTS = 1 << 28  # without a disk cache, evaluated by numexpr before compiling
LOCK_SECONDS = 120.0  # the longest a worker waits for another process's compile

_kernels: dict[str | None, Kernel | None] = {None: None}  # by source; None: not (yet)
_sweepers: dict[str | None, Kernel | None] = {None: None}  # ``sweeps``, likewise
_evaluated: dict[str, int] = {}  # elements evaluated without a kernel, by source
_lock = threading.Lock()
_compiling: list[threading.Thread] = []
_warned: set[str] = set()  # causes already warned about, once per process
_writable_directories: dict[Path, bool] = {}


class CompiledLoopsWarning(UserWarning):
    """The compiled loops are off in this process (Numba failed to import or to compile);
    blocks are evaluated by numexpr, with the same results, at about half the speed."""


def compiled_kernel(program: ScalarProgram, elements: int) -> Kernel | None:
    """The compiled loop of ``program`` over 1-D contiguous float64 views (``kernel(*inputs,
    out)``) for a block of ``elements``, or None (the caller evaluates with numexpr) until
    the program is hot, while it compiles, or when it cannot be compiled."""
    return _compiled(program, elements, _kernels)


def compiled_sweeps(program: ScalarProgram, elements: int) -> Kernel | None:
    """The compiled ``sweeps`` of ``program`` (``compiled_kernel``'s companion, compiled
    with it: see ``_codegen/numba_source.py``), or None likewise."""
    return _compiled(program, elements, _sweepers)


def _compiled(
    program: ScalarProgram, elements: int, table: dict[str | None, Kernel | None]
) -> Kernel | None:
    """``table``'s function for ``program`` once compiled; counts ``elements`` towards
    the program being hot, and starts the compile when it is, when it is cached, or at a
    block of ``MIN_ELEMENTS`` with a disk cache to compile into."""
    source = kernel_source(program)  # the key: 0.0 == -0.0 in programs, not in sources
    with _lock:
        if source in _kernels:
            return table.get(source)
        assert source is not None  # _kernels has None
        _evaluated[source] = _evaluated.get(source, 0) + elements
        path = source_path(source)
        cached = path is not None and path.exists()
        eager = elements >= MIN_ELEMENTS and _writable(path)  # a compile for later runs too
        if _evaluated[source] < HOT_ELEMENTS and not cached and not eager:
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


def _writable(path: Path | None) -> bool:
    """Whether ``path``'s directory takes files (made if need be; asked once a directory)."""
    if path is None:
        return False
    directory = path.parent
    if directory not in _writable_directories:
        try:
            directory.mkdir(parents=True, exist_ok=True)
            usable = os.access(directory, os.W_OK)
        except OSError:
            usable = False
        _writable_directories[directory] = usable
    return _writable_directories[directory]


def _compile(source: str, inputs: int, path: Path | None) -> None:
    try:
        import_numba()  # while another process may hold the lock: off the wait's end
        with _machine_lock(path):
            kernels = _numba_kernels(source, inputs, path)
            if kernels is not None and path is not None:
                with contextlib.suppress(OSError):  # then the next loads take the lock too
                    _done_marker(path).touch()
    except Exception as error:  # noqa: BLE001 - any failure leaves numexpr, said once
        warn_once(f"compiling a stencil loop failed ({type(error).__name__}: {error})")
        kernels = None
    with _lock:
        _kernels[source], _sweepers[source] = kernels or (None, None)


@contextlib.contextmanager
def _machine_lock(path: Path | None) -> Iterator[None]:
    """Held while this process compiles ``path``'s source: another process holding it is
    compiling the same loops into the cache, which this one then loads. No lock once they
    are in the cache (loads do not wait for each other), without a disk cache, where
    ``flock`` is missing or refused (some network file systems), or after
    ``LOCK_SECONDS`` of waiting (compiling twice is only slower)."""
    try:
        import fcntl
    except ImportError:  # not POSIX
        yield
        return
    try:
        if path is None or _done_marker(path).exists():
            raise OSError("no disk cache, or nothing left to compile")
        path.parent.mkdir(parents=True, exist_ok=True)
        handle = open(path.with_suffix(".lock"), "a")  # noqa: SIM115 - closed below
    except OSError:
        yield
        return
    with handle:
        deadline = time.monotonic() + LOCK_SECONDS
        while True:
            try:
                fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:  # another process compiles it
                if time.monotonic() > deadline:
                    break
                time.sleep(0.05)
            except OSError:  # not supported here
                break
        yield  # closing the file releases the lock


def _done_marker(path: Path) -> Path:
    """The file that says ``path``'s loops are in Numba's cache beside it."""
    return path.with_suffix(".compiled")


def import_numba() -> ModuleType | None:
    """Numba (a dependency), or None with a warning naming the cause (once per process)
    when importing it fails in any way: not only ``ImportError`` (a module named
    ``coverage`` earlier on ``sys.path`` than the real one makes Numba's import raise
    ``AttributeError``)."""
    try:
        import numba
    except Exception as error:  # noqa: BLE001 - whatever a broken install raises
        warn_once(f"importing numba failed ({type(error).__name__}: {error})")
        return None
    return numba


def warn_once(cause: str) -> None:
    """A ``CompiledLoopsWarning`` for ``cause``, the first time this process meets it."""
    with _lock:
        if cause in _warned:
            return
        _warned.add(cause)
    warnings.warn(
        f"dask_gpunumeric's compiled stencil loops are off in this process: {cause}; "
        "numexpr evaluates the stencils instead (same results, about half the speed)",
        CompiledLoopsWarning,
        stacklevel=2,
    )


def _numba_kernels(source: str, inputs: int, path: Path | None) -> tuple[Kernel, Kernel] | None:
    """``kernel`` compiled for writable C-contiguous 1-D float64 arrays, and for nothing else
    (a call with other types, read-only inputs among them, raises TypeError), and
    ``sweeps``, through the disk cache at ``path`` when it can be written; None without
    Numba."""
    numba = import_numba()
    if numba is None:
        return None
    functions, cached = _python_kernels(source, path)
    readonly = numba.types.Array(numba.float64, 1, "C", readonly=True)
    signatures = [
        (*(array,) * inputs, numba.float64[::1]) for array in (numba.float64[::1], readonly)
    ]
    kernel = numba.njit(signatures, nogil=True, error_model="numpy", cache=cached)(
        functions["kernel"]
    )
    flat, index = numba.float64[::1], numba.int64[::1]
    boxes: Any = numba.types.Array(numba.int64, 3, "C")
    sweeps = numba.njit(
        [(flat, flat, index, boxes, index)], nogil=True, error_model="numpy", cache=cached
    )(functions["sweeps"])
    for dispatcher in (kernel, sweeps):
        dispatcher.disable_compile()
    return kernel, sweeps


def _python_kernels(source: str, path: Path | None) -> tuple[dict[str, Any], bool]:
    """The functions ``source`` defines, and whether Numba may cache them: loaded from
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
                return vars(module), True
        except OSError:
            pass
    namespace: dict[str, Any] = {}
    exec(compile(source, "<stencil kernel>", "exec"), namespace)  # generated above
    return namespace, False
