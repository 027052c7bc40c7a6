"""``ViewSpec``: how a view's coordinates map onto its store's (DESIGN.md §1).

A chain of steps, each a ``Region`` (slices, integers, new axes, transposes, composed into
one) or a reshape. Reading applies the steps to the store's current value; writing goes
back through them, so a write through any view lands in the store.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy

from .._ir.expr import Expr
from .._ir.indexing import Region, Reshape, SetItem, Slice, apply_region


@dataclass(frozen=True)
class ReshapeStep:
    shape: tuple[int, ...]


Step = Region | ReshapeStep


@dataclass(frozen=True)
class ViewSpec:
    store_shape: tuple[int, ...]
    steps: tuple[Step, ...] = ()

    @property
    def shape(self) -> tuple[int, ...]:
        if not self.steps:
            return self.store_shape
        last = self.steps[-1]
        return last.shape

    @property
    def is_identity(self) -> bool:
        return not self.steps

    def then_region(self, region: Region) -> ViewSpec:
        """This view, further indexed by ``region`` (a region of this view's shape)."""
        steps = list(self.steps)
        last = steps[-1] if steps else None
        if isinstance(last, Region):
            steps.pop()
            region = last.then(region)
        if not region.is_identity:
            steps.append(region)
        return ViewSpec(self.store_shape, tuple(steps))

    def then_reshape(self, shape: tuple[int, ...]) -> ViewSpec:
        if shape == self.shape:
            return self
        steps = self.steps
        if steps and isinstance(steps[-1], ReshapeStep):
            steps = steps[:-1]
        if not steps and shape == self.store_shape:
            return ViewSpec(self.store_shape)
        return ViewSpec(self.store_shape, steps + (ReshapeStep(shape),))

    def read(self, value: Expr) -> Expr:
        """The view's value, given its store's current value."""
        for step in self.steps:
            value = Slice(value, step) if isinstance(step, Region) else Reshape(value, step.shape)
        return value

    def write(self, value: Expr, region: Region, rhs: Expr) -> Expr:
        """The store's new value after ``view[region] = rhs``."""
        new_value = _write(value, self.steps, region, rhs)
        if not any(isinstance(step, ReshapeStep) for step in self.steps):
            return new_value
        # Through a reshape the new value is a reshaped whole: keep the store's own blocks
        # (its chunking) and rewrite only the rows the write can reach.
        rows = self._rows_written(region)
        if rows is None:
            return value
        return SetItem(value, rows, Slice(new_value, rows))

    def _rows_written(self, region: Region) -> Region | None:
        """The store's leading-axis rows holding every element ``view[region]`` reaches
        (from the view's strides in store elements), or None when it reaches none."""
        stand_in = apply_region(self.layout_stand_in(), region)
        if stand_in.size == 0:
            return None
        if not self.store_shape:
            return Region.identity(())
        origin = stand_in.__array_interface__["data"][0] - _stand_in_origin(stand_in)
        extents = [
            (n - 1) * stride for n, stride in zip(stand_in.shape, stand_in.strides, strict=True)
        ]
        low = origin + sum(min(0, e) for e in extents)
        high = origin + sum(max(0, e) for e in extents)
        row_size = max(1, int(numpy.prod(self.store_shape[1:], dtype=numpy.int64)))
        first, last = low // row_size, high // row_size
        index = (slice(first, last + 1),)
        return Region.from_index(self.store_shape, index)

    def layout_stand_in(self, itemsize: int = 1) -> numpy.ndarray:
        """A NumPy array with this view's shape and strides (in elements of the store) that
        owns one byte: NumPy itself then says whether a reshape can be a view. Never read."""
        shape = self.store_shape
        strides = tuple(
            int(numpy.prod(shape[i + 1 :], dtype=numpy.int64)) for i in range(len(shape))
        )
        stand_in = numpy.lib.stride_tricks.as_strided(
            numpy.zeros(1, dtype=numpy.uint8), shape=shape, strides=strides
        )
        for step in self.steps:
            if isinstance(step, Region):
                stand_in = apply_region(stand_in, step)
            else:
                stand_in = numpy.reshape(stand_in, step.shape, copy=False)
        return stand_in


def _stand_in_origin(stand_in: numpy.ndarray) -> int:
    """The address of the one byte a layout stand-in owns (its element 0 of the store)."""
    base = stand_in
    while base.base is not None and isinstance(base.base, numpy.ndarray):
        base = base.base
    return base.__array_interface__["data"][0]


def _write(value: Expr, steps: tuple[Step, ...], region: Region, rhs: Expr) -> Expr:
    if not steps:
        return SetItem(value, region, rhs)
    first, rest = steps[0], steps[1:]
    if isinstance(first, Region) and not rest:
        return SetItem(value, first.then(region), rhs)
    inner = Slice(value, first) if isinstance(first, Region) else Reshape(value, first.shape)
    inner_new = _write(inner, rest, region, rhs)
    if isinstance(first, Region):
        return SetItem(value, first, inner_new)
    return Reshape(inner_new, value.shape)
