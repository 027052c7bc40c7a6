"""Boxes (one half-open ``(low, high)`` range per axis) and the block grids they meet:
the arithmetic of output-block lowering, shared by the client (planning) and the workers
(assembling pieces). Plain tuples, so plans pickle small."""

from __future__ import annotations

import bisect
import itertools
from collections.abc import Iterator

Box = tuple[tuple[int, int], ...]
Chunks = tuple[tuple[int, ...], ...]


def box_shape(box: Box) -> tuple[int, ...]:
    return tuple(high - low for low, high in box)


def is_empty(box: Box) -> bool:
    return any(high <= low for low, high in box)


def intersect(first: Box, second: Box) -> Box:
    return tuple((max(a, c), min(b, d)) for (a, b), (c, d) in zip(first, second, strict=True))


def contains(outer: Box, inner: Box) -> bool:
    return all(a <= c and d <= b for (a, b), (c, d) in zip(outer, inner, strict=True))


def shift(box: Box, by: tuple[int, ...]) -> Box:
    return tuple((low + k, high + k) for (low, high), k in zip(box, by, strict=True))


def bounding(boxes: list[Box]) -> Box:
    """The smallest box holding every one of ``boxes`` (non-empty list)."""
    return tuple(
        (min(axis[0] for axis in column), max(axis[1] for axis in column))
        for column in zip(*boxes, strict=True)
    )


def slices(box: Box) -> tuple[slice, ...]:
    return tuple(slice(low, high) for low, high in box)


def local(box: Box, origin: Box) -> tuple[slice, ...]:
    """``box`` as slices of an array that holds ``origin``."""
    return tuple(slice(low - o, high - o) for (low, high), (o, _) in zip(box, origin, strict=True))


def difference(outer: Box, inner: Box) -> list[Box]:
    """``outer`` minus ``inner`` (a box inside it) as at most ``2 * ndim`` disjoint boxes:
    slabs along axis 0 spanning everything, then along axis 1 within inner's axis-0 range..."""
    pieces = []
    current = list(outer)
    for axis, ((low, high), (inner_low, inner_high)) in enumerate(zip(outer, inner, strict=True)):
        if inner_low > low:
            pieces.append(tuple(current[:axis] + [(low, inner_low)] + current[axis + 1 :]))
        if inner_high < high:
            pieces.append(tuple(current[:axis] + [(inner_high, high)] + current[axis + 1 :]))
        current[axis] = (inner_low, inner_high)
    return [p for p in pieces if not is_empty(p)]


def boundaries(chunks: Chunks) -> list[tuple[int, ...]]:
    """Per axis, the block edges: ``(0, c0, c0 + c1, ..., n)``."""
    return [tuple(itertools.accumulate((0,) + c)) for c in chunks]


def block_box(edges: list[tuple[int, ...]], index: tuple[int, ...]) -> Box:
    return tuple((e[i], e[i + 1]) for e, i in zip(edges, index, strict=True))


def blocks_meeting(edges: list[tuple[int, ...]], box: Box) -> Iterator[tuple[int, ...]]:
    """The indices of the blocks (of a grid with these edges) that ``box`` meets."""
    ranges = [
        range(bisect.bisect_right(axis_edges, low) - 1, bisect.bisect_left(axis_edges, high))
        for axis_edges, (low, high) in zip(edges, box, strict=True)
    ]
    return itertools.product(*ranges)


# -- lattices: the cells ``origin + steps * k`` of a stepped write (``u[1::2, 2::2]``) ------
Steps = tuple[int, ...]


def lattice_indices(box: Box, origin: tuple[int, ...], steps: Steps, extent: Box) -> Box:
    """The indices ``k`` within ``extent`` (a box of them) whose cells ``origin + steps * k``
    lie in ``box``: each axis from ``ceil((low - origin) / step)``, clipped."""
    return tuple(
        (min(max(-((o - low) // s), first), last), min(max(-((o - high) // s), first), last))
        for (low, high), o, s, (first, last) in zip(box, origin, steps, extent, strict=True)
    )


def lattice_cells(indices: Box, origin: tuple[int, ...], steps: Steps) -> Box:
    """The smallest box holding the cells ``origin + steps * k`` of the non-empty box of
    indices ``indices``: from the first cell to just past the last."""
    return tuple(
        (o + s * low, o + s * (high - 1) + 1)
        for (low, high), o, s in zip(indices, origin, steps, strict=True)
    )


def lattice_shape(box: Box, steps: Steps) -> tuple[int, ...]:
    """How many cells of ``box`` the slices ``low:high:step`` select per axis."""
    return tuple(-((low - high) // s) for (low, high), s in zip(box, steps, strict=True))


def strided(box: Box, origin: Box, steps: Steps) -> tuple[slice, ...]:
    """The cells ``low:high:step`` of ``box`` as slices of an array that holds ``origin``
    (``local`` with steps)."""
    return tuple(
        slice(low - o, high - o, s)
        for (low, high), (o, _), s in zip(box, origin, steps, strict=True)
    )
