"""Histograms on blocks: one block's counts into every bin (a tree sum adds them up)."""

from __future__ import annotations

from typing import Any

import numpy

from .._backends.base import ChunkBackend


def block_counts(
    backend: ChunkBackend,
    edges: numpy.ndarray | None,
    length: int,
    dtype: numpy.dtype,
    values: Any,
    weights: Any = None,
) -> Any:
    """One block's counts, shape ``(1, bins)``: ``histogram`` into ``edges``, or
    ``bincount`` with ``length`` bins when there are none."""
    xp = backend.xp
    if edges is not None:
        counts = xp.histogram(values, xp.asarray(edges), weights=weights)[0]
    else:
        counts = xp.bincount(values, weights=weights, minlength=length)
    return counts.astype(dtype)[None, :]
