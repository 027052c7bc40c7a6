"""Lowering of ``Concatenate``: the operands' blocks are reused along the joined axis; along
the others, every operand takes the first operand's chunks (no sliver blocks)."""

from __future__ import annotations

import dask.array as da

from .._backends.base import ChunkBackend
from .._ir.joining import Concatenate
from .layers import Lowering


def lower_concatenate(node: Concatenate, inputs: list[da.Array], backend: ChunkBackend) -> da.Array:
    template = inputs[0].chunks
    aligned = []
    for operand in inputs:
        wanted = {
            axis: template[axis]
            for axis in range(node.ndim)
            if axis != node.axis and operand.chunks[axis] != template[axis]
        }
        aligned.append(operand.rechunk(wanted) if wanted else operand)
    return da.concatenate(aligned, axis=node.axis)


lowerings: dict[type, Lowering] = {Concatenate: lower_concatenate}
