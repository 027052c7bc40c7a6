"""The small interface every chunk backend implements."""

from __future__ import annotations

from typing import Any, Protocol

import numpy

from .._ir.scalar_program import ScalarProgram


class ChunkBackend(Protocol):
    """Where chunks live (host or device) and the namespace that computes on them.

    ``xp`` is a NumPy-like module (``numpy``, ``cupy``, or the simulated device's).
    Transfers between host and device are explicit: ``from_host`` and ``to_host``.
    """

    name: str
    xp: Any
    chunk_type: type

    def from_host(self, host: numpy.ndarray) -> Any:
        """Copy a host NumPy array into a chunk of this backend."""
        ...

    def to_host(self, chunk: Any) -> numpy.ndarray:
        """Copy a chunk of this backend into a host NumPy array."""
        ...

    def evaluate_program(self, program: ScalarProgram, *operands: Any, out: Any = None) -> Any:
        """A new chunk: the fused elementwise ``program`` over the chunks ``operands``
        (broadcast together), computed on this backend's device; with ``out`` (a chunk or
        a strided view of one, of the broadcast shape and the program's output dtype) the
        result is written there instead and ``out`` returned."""
        ...

    def evaluates_quietly(self, program: ScalarProgram) -> bool:
        """Whether ``evaluate_program`` never emits floating-point warnings for ``program``
        (so it may compute scratch cells, as a stencil's flat interior does)."""
        ...

    def generator(self, seed: numpy.random.SeedSequence) -> Any:
        """A random generator seeded by ``seed`` whose draws are chunks of this backend
        (NumPy's ``Generator`` API; a distribution it lacks is drawn on the host)."""
        ...
