"""Lowering of ``Concatenate``: the operands' blocks are reused along the joined axis; along
the others, every operand takes the first operand's chunks (no sliver blocks)."""

from __future__ import annotations

from functools import partial

from .._backends.base import ChunkBackend
from .._ir.joining import Concatenate
from .._kernels import creation
from .._runtime import dask_arrays as da
from .layers import Lowering, from_block_function


def lower_concatenate(node: Concatenate, inputs: list[da.Array], backend: ChunkBackend) -> da.Array:
    template = inputs[0].chunks
    aligned = []
    for number, operand in enumerate(inputs):
        wanted = {
            axis: template[axis]
            for axis in range(node.ndim)
            if axis != node.axis and operand.chunks[axis] != template[axis]
        }
        if wanted and operand.size == 0:
            # dask rechunks an empty array into host (NumPy) blocks whatever its chunk type:
            # the backend makes the empty blocks instead.
            chunks = tuple(wanted.get(axis, c) for axis, c in enumerate(operand.chunks))
            kernel = partial(creation.fill, backend, operand.dtype, 0)
            name = f"{node.name}-empty-{number}"
            aligned.append(from_block_function(name, chunks, operand.dtype, backend, kernel))
        else:
            aligned.append(operand.rechunk(wanted) if wanted else operand)
    return da.concatenate(aligned, axis=node.axis)


lowerings: dict[type, Lowering] = {Concatenate: lower_concatenate}
