"""The chunk backend: one object that says where chunks live and how a chunk is computed.

Every function that runs on a chunk (``_kernels/``) receives the backend as an object and
asks it; nothing above this package compares backend names. A backend travels in a task
as its name (``__reduce__``) and is looked up again where the task runs, so tasks carry
plain data, never modules or compiled objects. A new backend is one module of this
package named ``*_backend.py`` with a ``make_backend()`` (``__init__.py`` finds it), or a
``dask_gpunumeric.backends`` entry point of another distribution.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from typing import Any, ClassVar

import numpy

from .._ir.scalar_program import ScalarProgram

Kernel = Callable[..., None]


class ChunkBackend:
    """Where chunks live (host or device) and the namespace that computes on them.

    ``xp`` is a NumPy-like module (``numpy``, ``cupy``, or the simulated device's);
    ``chunk_type`` the type of its arrays. Transfers between host and device are explicit:
    ``from_host`` and ``to_host``. The defaults here are what a device backend does; the
    host backend overrides the ones it does better (pooled blocks, compiled loops).
    """

    name: ClassVar[str]
    xp: Any
    chunk_type: type

    # -- identity: a task carries the name, the worker looks the backend up ---------------
    def __reduce__(self) -> tuple[Any, tuple[str]]:
        return (_backend_named, (self.name,))

    def __dask_tokenize__(self) -> tuple[str, str]:
        return ("dask_gpunumeric-backend", self.name)

    def __repr__(self) -> str:
        return f"<chunk backend {self.name!r}>"

    @property
    def device(self) -> str:
        """The array API standard's device of arrays on this backend (``x.device``)."""
        return self.name

    # -- what the client may do ------------------------------------------------------------
    @property
    def evaluates_in_client(self) -> bool:
        """Whether this process may compute tiny values itself (``_kernels/in_process.py``):
        its chunks can be made here."""
        return True

    # -- chunks and transfers ----------------------------------------------------------------
    def meta(self, ndim: int, dtype: numpy.dtype) -> Any:
        """An empty chunk: tells dask what the chunks are."""
        return self.xp.empty((0,) * ndim, dtype=dtype)

    def from_host(self, host: numpy.ndarray) -> Any:
        """Copy a host NumPy array into a chunk of this backend."""
        raise NotImplementedError

    def to_host(self, chunk: Any) -> numpy.ndarray:
        """Copy a chunk of this backend into a host NumPy array."""
        raise NotImplementedError

    def as_chunk(self, value: Any) -> Any:
        """A value computed here as a chunk: NumPy returns scalars from 0-d operations."""
        return value if isinstance(value, self.chunk_type) else self.xp.asarray(value)

    def from_any(self, chunk: Any) -> Any:
        """A chunk of any backend (or a host array) as a chunk of this one: ``.get()`` is
        CuPy's (and the simulated device's) explicit transfer to the host."""
        if isinstance(chunk, self.chunk_type):
            return chunk
        is_device = hasattr(chunk, "get") and not isinstance(chunk, numpy.ndarray)
        return self.from_host(numpy.asarray(chunk.get() if is_device else chunk))

    def empty_block(self, shape: tuple[int, ...], dtype: numpy.dtype) -> Any:
        """An uninitialised block that a kernel writes whole (device pools reuse memory)."""
        return self.xp.empty(shape, dtype=dtype)

    def owns_its_memory(self, chunk: Any) -> bool:
        """Whether ``chunk`` is the one array over its memory, which may be written: not a
        view of another array, not read-only, and (the caller having checked that nothing
        else refers to ``chunk``) viewed by no other array, whose references to its base
        would be counted there (NumPy's and CuPy's views hold their base)."""
        if getattr(chunk, "base", None) is not None:
            return False
        flags = getattr(chunk, "flags", None)
        return bool(getattr(flags, "writeable", True))

    def copy_block(self, block: Any) -> Any:
        """A writable copy of ``block`` (a new version of it: old versions stay intact)."""
        return block.copy()

    # -- computing ------------------------------------------------------------------------
    def evaluate_program(self, program: ScalarProgram, *operands: Any, out: Any = None) -> Any:
        """A new chunk: the fused elementwise ``program`` over the chunks ``operands``
        (broadcast together), computed on this backend's device; with ``out`` (a chunk or
        a strided view of one, of the broadcast shape and the program's output dtype) the
        result is written there instead and ``out`` returned."""
        raise NotImplementedError

    @property
    def loops_raise_for_negative_integer_powers(self) -> bool:
        """Whether this backend's loops raise NumPy's ``ValueError`` for ``int ** -n``
        themselves (NumPy's do); a device kernel cannot, so the blocks are checked first
        (``_kernels/integer_powers.py``)."""
        return False

    def evaluates_quietly(self, program: ScalarProgram) -> bool:
        """Whether ``evaluate_program`` never emits floating-point warnings for ``program``
        (so it may compute scratch cells, as a stencil's flat interior does)."""
        return True

    @property
    def band_bytes(self) -> int | None:
        """How many bytes of a block's leading rows a kernel that passes over the block
        twice (a stepped stencil: the old block copied, then a lattice written into it)
        takes at a time, so that its second pass finds them in cache; None: the whole
        block per pass (a device runs one kernel over it)."""
        return None

    def compiled_loop(self, program: ScalarProgram, elements: int) -> Kernel | None:
        """A compiled loop ``kernel(*flat_inputs, flat_out)`` for ``program`` over blocks of
        ``elements``, or None: ``evaluate_program`` is then the way (it is one kernel on a
        device already)."""
        return None

    def compiled_sweeps(self, program: ScalarProgram, elements: int) -> Kernel | None:
        """A compiled multi-sweep loop of ``program`` (``_kernels/stencil_sweeps.py``), or
        None: each sweep is then one ``evaluate_program`` call."""
        return None

    def raising_linalg_errors(self) -> contextlib.AbstractContextManager[Any]:
        """A context in which ``xp.linalg`` raises ``numpy.linalg.LinAlgError`` for a
        singular or not positive definite matrix, as NumPy does (NumPy always raises)."""
        return contextlib.nullcontext()

    def lane_keywords(self, kind: str, keywords: dict[str, Any]) -> dict[str, Any]:
        """The keywords ``xp.<kind>`` (sort, argsort, partition, ...) takes of NumPy's."""
        return keywords

    def generator(self, seed: numpy.random.SeedSequence) -> Any:
        """A random generator seeded by ``seed`` whose draws are chunks of this backend
        (NumPy's ``Generator`` API; a distribution it lacks is drawn on the host)."""
        raise NotImplementedError


def _backend_named(name: str) -> ChunkBackend:
    from . import get_backend

    return get_backend(name)
