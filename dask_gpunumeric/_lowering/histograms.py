"""Lowering of ``Binned``: per-block counts into every bin, then a tree sum."""

from __future__ import annotations

from typing import Any

from .._backends.base import ChunkBackend
from .._ir.histograms import Binned
from .._kernels.histograms import block_counts
from .._runtime import dask_arrays as da
from .layers import Lowering


def lower_binned(node: Binned, inputs: list[da.Array], backend: ChunkBackend) -> da.Array:
    values = inputs[0]
    pairs: list[Any] = [values, "i"]
    if node.weighted:
        pairs += [inputs[1].rechunk(values.chunks), "i"]
    (length,) = node.shape
    per_block = da.blockwise(
        block_counts,
        "ib",
        backend,
        None,
        node.edges,
        None,
        length,
        None,
        node.dtype,
        None,
        *pairs,
        new_axes={"b": length},
        adjust_chunks={"i": 1},
        dtype=node.dtype,
        meta=backend.meta(2, node.dtype),
    )
    return da.sum(per_block, axis=0, dtype=node.dtype)


lowerings: dict[type, Lowering] = {Binned: lower_binned}
