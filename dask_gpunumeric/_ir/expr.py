"""The expression node every other node derives from."""

from __future__ import annotations

import itertools
import math
import uuid
from collections.abc import Callable
from typing import Any

import numpy

# A ``dask.annotate`` context, frozen: sorted (key, value) pairs, nested dicts frozen alike.
Annotations = tuple[tuple[str, Any], ...]


def _no_annotations() -> Annotations:
    return ()


# Where nodes read the annotations active at their construction. ``_ir`` reaches no dask:
# the array layer, which builds nodes for the user, installs the runtime's reader of
# ``dask.annotate`` blocks (``record_annotations_from``) when it is imported.
_current_annotations: Callable[[], Annotations] = _no_annotations


def record_annotations_from(current: Callable[[], Annotations]) -> None:
    """Make every node built from now on record ``current()`` as its annotations."""
    global _current_annotations
    _current_annotations = current


_node_numbers = itertools.count()
# Keys of lowered graphs carry this so two processes' nodes never collide on one scheduler.
SESSION_TOKEN = uuid.uuid4().hex[:8]


def current_annotations() -> Annotations:
    """The annotations a node built now records (see ``record_annotations_from``)."""
    return _current_annotations()


# A node number never given before: numbers grow, so a node's exceed its children's. The
# counter's own ``__next__``: a node is built per tiny operation, and this is no call of
# Python's.
fresh_number: Callable[[], int] = _node_numbers.__next__


class Expr:
    """An immutable lazy array value: ``shape``, ``dtype`` and the nodes it is computed from.

    ``depth`` is the longest chain of nodes below this one; the runtime persists a store
    whose version gets too deep, which keeps loops' graphs bounded. ``annotations`` is the
    ``dask.annotate`` context the node was built in (frozen; ``()`` for none).
    """

    __slots__ = ("shape", "dtype", "children", "depth", "number", "annotations", "__weakref__")
    shape: tuple[int, ...]
    dtype: numpy.dtype
    children: tuple[Expr, ...]
    depth: int
    number: int
    annotations: Annotations

    def __init__(self, shape: tuple[int, ...], dtype: Any, children: tuple[Expr, ...] = ()) -> None:
        self.shape = tuple(map(int, shape))
        self.dtype = numpy.dtype(dtype)
        self.children = children
        self.depth = 1 + max([child.depth for child in children], default=0)
        self.number = next(_node_numbers)  # fresh_number(), inlined: nodes are built per op
        self.annotations = _current_annotations()

    @property
    def ndim(self) -> int:
        return len(self.shape)

    @property
    def size(self) -> int:
        return math.prod(self.shape)

    @property
    def name(self) -> str:
        """A name for the dask layer this node lowers to, unique to the node."""
        return f"{type(self).__name__.lower()}-{SESSION_TOKEN}-{self.number}"

    def __repr__(self) -> str:
        return f"{type(self).__name__}(shape={self.shape}, dtype={self.dtype})"
