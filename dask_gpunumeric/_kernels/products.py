"""Products on blocks: the tensordot of a block pair's contracted pieces, and linear
algebra on whole matrices (one call per batch block)."""

from __future__ import annotations

import functools
from typing import Any

import numpy

from .._backends.base import ChunkBackend


def tensordot_blocks(
    backend: ChunkBackend,
    dtype: numpy.dtype,
    left_axes: tuple[int, ...],
    right_axes: tuple[int, ...],
    slices: tuple[tuple[tuple[slice, ...], tuple[slice, ...]], ...],
    *blocks: Any,
) -> Any:
    """The sum over the contracted pieces of their tensordot products."""
    products = (
        _piece_product(backend.xp, left_axes, right_axes, blocks[2 * k][left_slices],
                       blocks[2 * k + 1][right_slices])
        for k, (left_slices, right_slices) in enumerate(slices)
    )  # fmt: skip
    return _summed(backend.xp, dtype, products)


def tensordot_piece(
    backend: ChunkBackend,
    left_axes: tuple[int, ...],
    right_axes: tuple[int, ...],
    slices: tuple[tuple[slice, ...], tuple[slice, ...]],
    left: Any,
    right: Any,
) -> Any:
    """One contracted piece's tensordot product, as it is (not cast), with a leading axis
    of length 1: a block of the pieces' stack that ``pieces_summed`` adds up."""
    left_slices, right_slices = slices
    product = _piece_product(backend.xp, left_axes, right_axes, left[left_slices],
                             right[right_slices])  # fmt: skip
    return backend.xp.asarray(product)[None]


def pieces_summed(backend: ChunkBackend, dtype: numpy.dtype, stacked: Any) -> Any:
    """The products stacked along the first axis (``tensordot_piece``'s) added up in
    their order and cast as ``tensordot_blocks`` does: the same bits."""
    return _summed(backend.xp, dtype, (stacked[k] for k in range(stacked.shape[0])))


def _piece_product(
    xp: Any, left_axes: tuple[int, ...], right_axes: tuple[int, ...], left: Any, right: Any
) -> Any:
    if _is_matmul(left.ndim, right.ndim, left_axes, right_axes):
        # matmul hands strided blocks (views of a larger array) to BLAS as they are;
        # tensordot copies them first: 284 ms against 28 ms for a matrix-vector
        # product over the 16 views of a 10,000 x 10,000 array.
        return xp.matmul(left, right)
    return xp.tensordot(left, right, axes=(left_axes, right_axes))


def _summed(xp: Any, dtype: numpy.dtype, products: Any) -> Any:
    total = None
    for product in products:
        total = product if total is None else total + product
    result = xp.asarray(total)
    return result if result.dtype == dtype else result.astype(dtype)


def _is_matmul(
    left_ndim: int, right_ndim: int, left_axes: tuple[int, ...], right_axes: tuple[int, ...]
) -> bool:
    """Whether ``tensordot`` over these axes is ``matmul``: vectors or matrices, the last
    axis of the left against the first of the right."""
    return (
        left_ndim <= 2 and right_ndim <= 2 and left_axes == (left_ndim - 1,) and right_axes == (0,)
    )


def linalg_call(
    backend: ChunkBackend, function: str, keywords: dict[str, Any], *blocks: Any
) -> Any:
    """The backend's ``function`` (a path such as ``linalg.svd``) on whole matrices; a
    singular matrix raises ``numpy.linalg.LinAlgError`` here, at compute time (on every
    backend: CuPy is asked to check, ``raising_linalg_errors``, for the functions NumPy
    raises from; ``det`` of a singular matrix is 0, not an error)."""
    call = functools.reduce(getattr, function.split("."), backend.xp)
    if function == "linalg.solve":
        blocks = _solve_operands(backend.xp, *blocks)
    if function not in RAISES_FOR_SINGULAR_INPUT:
        return call(*blocks, **keywords)
    with backend.raising_linalg_errors():
        return call(*blocks, **keywords)


def _solve_operands(xp: Any, matrices: Any, rhs: Any) -> tuple[Any, Any]:
    """``solve``'s operands with their batch dimensions broadcast: NumPy broadcasts a
    right-hand side of shape ``(..., M, K)`` against the matrices' batch; CuPy requires
    the same batch dimensions on both ("b must have (..., M, K) for multidimensional b")."""
    if rhs.ndim == 1:
        return matrices, rhs
    batch = numpy.broadcast_shapes(matrices.shape[:-2], rhs.shape[:-2])
    return (
        xp.broadcast_to(matrices, batch + matrices.shape[-2:]),
        xp.broadcast_to(rhs, batch + rhs.shape[-2:]),
    )


# NumPy raises LinAlgError from these for a singular or not positive definite matrix.
RAISES_FOR_SINGULAR_INPUT = frozenset({"linalg.inv", "linalg.solve", "linalg.cholesky"})


def linalg_pick(backend: ChunkBackend, output: int | None, dtype: numpy.dtype, result: Any) -> Any:
    """Result ``output`` of a ``linalg_call`` (all of it for ``None``) as a chunk of ``dtype``."""
    chosen = backend.as_chunk(result if output is None else result[output])
    return chosen if chosen.dtype == dtype else chosen.astype(dtype)


def matmul_blocks(backend: ChunkBackend, dtype: numpy.dtype, *blocks: Any) -> Any:
    """The sum of the ``matmul`` products of block pairs ``(left, right, left, right...)``
    along the contracted axis."""
    xp = backend.xp
    total = None
    for left, right in zip(blocks[::2], blocks[1::2], strict=True):
        product = xp.matmul(left, right)
        total = product if total is None else total + product
    result = xp.asarray(total)
    return result if result.dtype == dtype else result.astype(dtype)
