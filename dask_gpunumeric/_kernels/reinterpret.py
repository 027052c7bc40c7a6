"""A block's bytes read as another dtype of the same item size (``ndarray.view(dtype)``):
NumPy's ``view`` on the block, CuPy's on a device block."""

from __future__ import annotations

from typing import Any


def view_block(block: Any, target: Any) -> Any:
    """``block``'s elements reinterpreted as ``target`` (same shape, any strides)."""
    return block.view(target)
