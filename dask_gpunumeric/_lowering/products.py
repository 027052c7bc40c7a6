"""Lowering of tensordot and matmul through dask.array (chunk type dispatch included)."""

from __future__ import annotations

import dask.array as da

from .._ir.products import Matmul, Tensordot


def lower_tensordot(node: Tensordot, inputs: list[da.Array], backend: str) -> da.Array:
    left, right = inputs
    result = da.tensordot(left, right, axes=(node.left_axes, node.right_axes))
    return result if result.dtype == node.dtype else result.astype(node.dtype)


def lower_matmul(node: Matmul, inputs: list[da.Array], backend: str) -> da.Array:
    result = da.matmul(*inputs)
    return result if result.dtype == node.dtype else result.astype(node.dtype)


lowerings = {Tensordot: lower_tensordot, Matmul: lower_matmul}
