"""The ``dask.annotate(...)`` context active when a NumPy call builds its nodes.

Nodes record it at construction (``Expr.annotations``) because lowering happens later,
outside the user's ``with dask.annotate(...)`` block; lowering re-applies it to every
layer the node becomes, and passes never merge nodes whose annotations differ.
"""

from __future__ import annotations

from typing import Any

import dask

# A hashable, comparable snapshot: sorted (key, value) pairs, nested dicts frozen alike.
Annotations = tuple[tuple[str, Any], ...]


def current() -> Annotations:
    """The active annotations, frozen (``()`` outside any ``dask.annotate`` block)."""
    active = dask.get_annotations()
    return freeze(active) if active else ()


def freeze(mapping: dict[str, Any]) -> Annotations:
    return tuple(
        sorted(
            (key, freeze(value) if isinstance(value, dict) else value)
            for key, value in mapping.items()
        )
    )


def thaw(annotations: Annotations) -> dict[str, Any]:
    """The ``dict`` form dask layers take (``Layer.annotations``)."""
    return {key: _thaw_value(value) for key, value in annotations}


def _thaw_value(value: Any) -> Any:
    is_frozen_mapping = isinstance(value, tuple) and all(
        isinstance(item, tuple) and len(item) == 2 and isinstance(item[0], str) for item in value
    )
    return thaw(value) if is_frozen_mapping and value else value
