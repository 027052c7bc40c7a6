"""``ViewSpec``: how a view's coordinates map onto its store's (DESIGN.md §1).

A chain of steps, each a ``Region`` (slices, integers, new axes, transposes, composed into
one) or a reshape. Reading applies the steps to the store's current value; writing goes
back through them, so a write through any view lands in the store.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Union

import numpy

from .._ir.expr import Expr
from .._ir.indexing import Region, Reshape, SetItem, Slice, apply_region


@dataclass(frozen=True)
class ReshapeStep:
    shape: tuple[int, ...]


Step = Union[Region, ReshapeStep]


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
        if steps and isinstance(steps[-1], Region):
            region = steps.pop().then(region)
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
        return _write(value, self.steps, region, rhs)

    def layout_stand_in(self, itemsize: int = 1) -> numpy.ndarray:
        """A NumPy array with this view's shape and strides (in elements of the store) that
        owns one byte: NumPy itself then says whether a reshape can be a view. Never read."""
        shape = self.store_shape
        strides = tuple(int(numpy.prod(shape[i + 1:], dtype=numpy.int64)) for i in range(len(shape)))
        stand_in = numpy.lib.stride_tricks.as_strided(
            numpy.zeros(1, dtype=numpy.uint8), shape=shape, strides=strides
        )
        for step in self.steps:
            if isinstance(step, Region):
                stand_in = apply_region(stand_in, step)
            else:
                stand_in = numpy.reshape(stand_in, step.shape, copy=False)
        return stand_in


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
