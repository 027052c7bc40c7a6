"""Lowering of ``GatheredLinalg``: core axes rechunked whole, one call per batch block.

Two layers: the call (``linalg-call-<token>``, a name derived from the function, its
keywords and its inputs, so every output node of one ``svd`` lowers to the same layer and
the call runs once), and a pick of this node's result from each call's output.
"""

from __future__ import annotations

import string
from functools import partial

import numpy
from dask.base import tokenize

from .._backends.base import ChunkBackend
from .._ir.linalg import GatheredLinalg
from .._kernels.products import linalg_call, linalg_pick
from .._runtime import dask_arrays as da
from .layers import Lowering


def lower_gathered_linalg(
    node: GatheredLinalg, inputs: list[da.Array], backend: ChunkBackend
) -> da.Array:
    batch_ndim = node.ndim - node.output_core_ndim
    batch = string.ascii_lowercase[:batch_ndim]
    core_letters = iter(string.ascii_uppercase)
    pairs: list = []
    for operand, core_ndim in zip(inputs, node.core_ndims, strict=True):
        whole = {axis: -1 for axis in range(operand.ndim - core_ndim, operand.ndim)}
        operand_batch = batch[batch_ndim - (operand.ndim - core_ndim) :]
        core = "".join(next(core_letters) for _ in range(core_ndim))
        pairs += [operand.rechunk(whole), operand_batch + core]
    keywords = dict(node.keywords)
    calls = da.blockwise(
        partial(linalg_call, backend, node.function, keywords),
        batch,
        *pairs,
        concatenate=True,
        name=f"linalg-call-{tokenize(node.function, keywords, [p.name for p in pairs[::2]])}",
        meta=numpy.empty((0,) * batch_ndim, dtype=object),
    )
    output_core = "".join(next(core_letters) for _ in range(node.output_core_ndim))
    sizes = node.shape[batch_ndim:]
    return da.blockwise(
        partial(linalg_pick, backend, node.output, node.dtype),
        batch + output_core,
        calls,
        batch,
        new_axes=dict(zip(output_core, sizes, strict=True)),
        name=node.name,
        meta=backend.meta(node.ndim, node.dtype),
    )


lowerings: dict[type, Lowering] = {GatheredLinalg: lower_gathered_linalg}
