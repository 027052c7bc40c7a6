"""Data-dependent selections on blocks: how many elements of a mask block are true, and
their positions (only the counts ever reach the client)."""

from __future__ import annotations

from typing import Any

import numpy

from .._backends.base import ChunkBackend


def count_true(backend: ChunkBackend, block: Any) -> numpy.ndarray:
    """How many elements of a boolean block are true, as a one-element host array."""
    count = backend.to_host(backend.xp.count_nonzero(block))
    return numpy.array([int(count)], dtype=numpy.intp)


def true_positions(backend: ChunkBackend, offset: int, block: Any) -> Any:
    """The flat positions (plus ``offset``) of a boolean block's true elements."""
    return backend.xp.flatnonzero(block).astype(numpy.intp) + offset
