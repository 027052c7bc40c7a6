"""``DaskCall`` functions lowered by our own task graphs instead of dask.array's: those
dask has not written for its expression arrays (``array.query-planning``; its task-graph
versions then call the namespace's functions, expressions), lowered the same way under
both settings.

- ``tril``/``triu``: one task per block, the block's ``tril`` with the diagonal offset
  moved to its own coordinates (``k + row offset - column offset``).
- ``tile``: no task: each output block is the source block it repeats (a key alias).
- ``searchsorted``: one task per block of values, summing each sorted block's positions.
- ``einsum``: a label's axes chunked alike in every operand (rechunked to its first
  chunking), one task per output block summing the ``einsum`` of the operands' blocks over
  every combination of the contracted labels' blocks; ``...`` spelled out as labels.

The last two read every block they sum in one task (dask's read them in parallel tasks,
then reduce by a tree): with query planning off, dask's own are kept
(``EXPRESSIONS_ONLY``).
"""

from __future__ import annotations

import itertools
import string
from collections.abc import Callable
from functools import partial
from typing import Any

from .._backends.base import ChunkBackend
from .._ir.dask_call import DaskCall
from .._kernels.block_calls import einsum_blocks, searchsorted_blocks, triangle_block
from .._runtime import dask_arrays as da
from .layers import block_offsets, from_block_tasks

# lower_<function>(node, its lowered arguments, its keywords, backend)
BlockCall = Callable[[DaskCall, list[Any], dict[str, Any], ChunkBackend], da.Array]


def lower_triangle(
    node: DaskCall, arguments: list[Any], keywords: dict[str, Any], backend: ChunkBackend
) -> da.Array:
    array, k = arguments
    rows, columns = block_offsets(array.chunks[-2:])
    tasks = {}
    for index in itertools.product(*map(range, array.numblocks)):
        local = k + rows[index[-2]] - columns[index[-1]]
        tasks[index] = (
            partial(triangle_block, backend, node.function, local),
            (array.name, *index),
        )
    return from_block_tasks(node.name, tasks, array.chunks, node.dtype, backend, [array])


def lower_tile(
    node: DaskCall, arguments: list[Any], keywords: dict[str, Any], backend: ChunkBackend
) -> da.Array:
    array, reps = arguments
    chunks = tuple(c * r for c, r in zip(array.chunks, reps, strict=True))
    tasks: dict[tuple[int, ...], Any] = {
        index: (array.name, *(i % n for i, n in zip(index, array.numblocks, strict=True)))
        for index in itertools.product(*(range(len(c)) for c in chunks))
    }
    return from_block_tasks(node.name, tasks, chunks, node.dtype, backend, [array])


def lower_searchsorted(
    node: DaskCall, arguments: list[Any], keywords: dict[str, Any], backend: ChunkBackend
) -> da.Array:
    array, values = arguments
    kernel = partial(searchsorted_blocks, backend, keywords.get("side", "left"))
    sorted_keys = [(array.name, i) for i in range(array.numblocks[0])]
    tasks: dict[tuple[int, ...], Any] = {
        (j,): (kernel, (values.name, j), *sorted_keys) for j in range(values.numblocks[0])
    }
    return from_block_tasks(node.name, tasks, values.chunks, node.dtype, backend, [array, values])


def lower_einsum(
    node: DaskCall, arguments: list[Any], keywords: dict[str, Any], backend: ChunkBackend
) -> da.Array:
    subscripts, *operands = arguments
    terms, output = _spelled_out(subscripts, [o.ndim for o in operands])
    sizes: dict[str, int] = {}
    for term, operand in zip(terms, operands, strict=True):
        for label, size in zip(term, operand.shape, strict=True):
            sizes[label] = max(sizes.get(label, 1), size)  # 1 broadcasts (``...``)
    label_chunks: dict[str, tuple[int, ...]] = {}
    for term, operand in zip(terms, operands, strict=True):
        for label, size, chunks in zip(term, operand.shape, operand.chunks, strict=True):
            if size == sizes[label]:
                label_chunks.setdefault(label, chunks)
    operands = [
        _rechunked(o, term, sizes, label_chunks) for o, term in zip(operands, terms, strict=True)
    ]
    contracted = sorted(set("".join(terms)) - set(output))
    kernel = partial(
        einsum_blocks,
        backend,
        f"{','.join(terms)}->{output}",
        len(operands),
        node.dtype,
        {k: v for k, v in keywords.items() if v is not None},
    )
    tasks = {}
    chunks = tuple(label_chunks[label] for label in output)
    for index in itertools.product(*map(range, map(len, chunks))):
        keys = []
        for inner in itertools.product(*(range(len(label_chunks[c])) for c in contracted)):
            blocks = dict(zip(output, index, strict=True)) | dict(
                zip(contracted, inner, strict=True)
            )
            for term, operand in zip(terms, operands, strict=True):
                at = (
                    0 if size != sizes[c] else blocks[c]
                    for c, size in zip(term, operand.shape, strict=True)
                )
                keys.append((operand.name, *at))
        tasks[index] = (kernel, *keys)
    return from_block_tasks(node.name, tasks, chunks, node.dtype, backend, operands)


def _spelled_out(subscripts: str, ndims: list[int]) -> tuple[list[str], str]:
    """Each operand's labels and the output's, ``...`` replaced by unused letters (right
    aligned, as NumPy broadcasts them) and an implicit output made explicit (the
    broadcast axes, then the labels used once, sorted). ``einsum_path`` checked them."""
    subscripts = subscripts.replace(" ", "")
    inputs, arrow, output = subscripts.partition("->")
    free = [c for c in string.ascii_letters if c not in subscripts]
    spread = max(
        (
            n - len(t.replace("...", ""))
            for t, n in zip(inputs.split(","), ndims, strict=True)
            if "..." in t
        ),
        default=0,
    )
    letters = "".join(free[:spread])
    terms = []
    for term, ndim in zip(inputs.split(","), ndims, strict=True):
        own = ndim - len(term.replace("...", ""))
        terms.append(term.replace("...", letters[spread - own :] if own else ""))
    if not arrow:
        counts = "".join(inputs.split(",")).replace(".", "")
        output = letters + "".join(sorted(c for c in set(counts) if counts.count(c) == 1))
    return terms, output.replace("...", letters)


def _rechunked(
    operand: da.Array,
    term: str,
    sizes: dict[str, int],
    label_chunks: dict[str, tuple[int, ...]],
) -> da.Array:
    wanted = {
        axis: label_chunks[label]
        for axis, label in enumerate(term)
        if operand.shape[axis] == sizes[label] and operand.chunks[axis] != label_chunks[label]
    }
    return operand.rechunk(wanted) if wanted else operand


# Lowered here only where dask's arrays are expressions (see above).
EXPRESSIONS_ONLY = frozenset({"searchsorted", "einsum"})

block_calls: dict[str, BlockCall] = {
    "tril": lower_triangle,
    "triu": lower_triangle,
    "tile": lower_tile,
    "searchsorted": lower_searchsorted,
    "einsum": lower_einsum,
}
