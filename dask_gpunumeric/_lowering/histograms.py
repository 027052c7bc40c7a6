"""Lowering of ``Binned``: per-block counts into every bin, then a tree sum."""

from __future__ import annotations

from typing import Any

import dask.array as da
import numpy

from .._backends import get_backend
from .._ir.histograms import Binned
from .layers import meta


def block_counts(
    backend_name: str,
    edges: numpy.ndarray | None,
    length: int,
    dtype: numpy.dtype,
    values: Any,
    weights: Any = None,
) -> Any:
    """One block's counts, shape ``(1, bins)``; runs on the worker."""
    xp = get_backend(backend_name).xp
    if edges is not None:
        counts = xp.histogram(values, xp.asarray(edges), weights=weights)[0]
    else:
        counts = xp.bincount(values, weights=weights, minlength=length)
    return counts.astype(dtype)[None, :]


def lower_binned(node: Binned, inputs: list[da.Array], backend: str) -> da.Array:
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
        meta=meta(backend, 2, node.dtype),
    )
    return per_block.sum(axis=0, dtype=node.dtype)


lowerings: dict[type, Any] = {Binned: lower_binned}
