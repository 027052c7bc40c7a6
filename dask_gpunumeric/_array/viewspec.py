"""``ViewSpec``: how a view's coordinates map onto its store's (DESIGN.md §1).

A chain of steps, each a ``Region`` (slices, integers, new axes, transposes, composed into
one) or a reshape, then optionally a component (``.real``/``.imag`` of a complex store).
Reading applies the steps to the store's current value; writing goes back through them, so
a write through any view lands in the store.

A component is elementwise, so it commutes with every step as far as values go: it is kept
last (``c.real[1:]`` reads ``c[1:]``, then its real part) and a write through it rebuilds
only the complex elements it reaches. It still counts for the layout (NumPy's strides of
``c.real``), which decides whether a later reshape can be a view.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, replace

import numpy

from .._ir.dask_call import DaskCall
from .._ir.elementwise import component_node, from_parts_node
from .._ir.expr import Expr
from .._ir.indexing import Region, Reshape, SetItem, Slice, apply_region
from .._kernels.reinterpret import view_block


@dataclass(frozen=True)
class ReshapeStep:
    shape: tuple[int, ...]


@dataclass(frozen=True)
class ComputedStep:
    """A read-only view NumPy computes by strides (``broadcast_to``, ``diagonal``): read
    as ``dask.array.<function>(value, *arguments)``, laid out by ``numpy.<function>``.
    Only read-only views hold one, so nothing is ever written back through it."""

    function: str
    arguments: tuple[object, ...]
    shape: tuple[int, ...]


@dataclass(frozen=True)
class ReinterpretStep:
    """The elements' bytes read as ``dtype`` (``a.view(numpy.int32)``). Of the same item
    size it is elementwise: it commutes with every other step, and a write through it
    writes the bytes of its values. Of another item size the last axis is scaled as
    NumPy scales it, and the view is read-only (a write would reach parts of elements)."""

    dtype: numpy.dtype
    shape: tuple[int, ...]
    resized: bool


Step = Region | ReshapeStep | ComputedStep | ReinterpretStep


# The layout stand-in's element: a complex type, so that NumPy's own ``.real``/``.imag``
# give a component's strides (twice its itemsize apart).
_LAYOUT_DTYPE = numpy.dtype(numpy.complex64)


@dataclass(frozen=True)
class ViewSpec:
    """``steps`` map view coordinates to store coordinates; ``part`` (``"real"`` or
    ``"imag"``, complex stores only) selects a component of the elements they reach.
    ``read_only`` views refuse writes (``a.imag`` of a real ``a``: NumPy's read-only zeros).
    """

    store_shape: tuple[int, ...]
    steps: tuple[Step, ...] = ()
    part: str | None = None
    read_only: bool = False

    @property
    def shape(self) -> tuple[int, ...]:
        if not self.steps:
            return self.store_shape
        last = self.steps[-1]
        return last.shape

    @property
    def is_identity(self) -> bool:
        return not self.steps and self.part is None

    @property
    def is_computed(self) -> bool:
        """Whether a step is computed (``broadcast_to``, ``diagonal``, a view of another
        item size): such a view can never be written through."""
        return any(_is_computed(step) for step in self.steps)

    def dtype(self, store_dtype: numpy.dtype) -> numpy.dtype:
        """The view's dtype given its store's: a component's is the matching float type."""
        for step in reversed(self.steps):
            if isinstance(step, ReinterpretStep):
                store_dtype = step.dtype
                break
        if self.part is None:
            return store_dtype
        return getattr(numpy, self.part)(numpy.empty(0, dtype=store_dtype)).dtype

    def then_part(self, part: str) -> ViewSpec:
        """This view's ``part`` component (this view must not be a component already)."""
        assert self.part is None, "a component has no components of its own"
        return replace(self, part=part)

    def then_reinterpret(
        self, dtype: numpy.dtype, shape: tuple[int, ...], resized: bool
    ) -> ViewSpec:
        """This view's bytes as ``dtype`` (of ``shape``; ``resized``: another item size,
        read-only from then on). Not of a component: the part is read last."""
        if self.part is not None:
            raise NotImplementedError(
                "dask_gpunumeric: .view(dtype) of .real/.imag is not supported; view a "
                "copy (.copy())"
            )
        step = ReinterpretStep(dtype, shape, resized)
        return replace(self, steps=(*self.steps, step), read_only=self.read_only or resized)

    def then_region(self, region: Region) -> ViewSpec:
        """This view, further indexed by ``region`` (a region of this view's shape)."""
        steps = list(self.steps)
        last = steps[-1] if steps else None
        if isinstance(last, Region):
            steps.pop()
            region = last.then(region)
        if not region.is_identity:
            steps.append(region)
        # Built directly: ``replace`` costs more than the rest (``x[1:, :]`` in a loop)
        return ViewSpec(self.store_shape, tuple(steps), self.part, self.read_only)

    def then_computed(self, step: ComputedStep) -> ViewSpec:
        """This view through ``step``: read-only from then on, as NumPy's is."""
        return replace(self, steps=(*self.steps, step), read_only=True)

    def then_reshape(self, shape: tuple[int, ...]) -> ViewSpec:
        if shape == self.shape:
            return self
        steps = self.steps
        if steps and isinstance(steps[-1], ReshapeStep):
            steps = steps[:-1]
        if not steps and shape == self.store_shape:
            return replace(self, steps=())
        return replace(self, steps=steps + (ReshapeStep(shape),))

    def read(self, value: Expr) -> Expr:
        """The view's value, given its store's current value."""
        value = _read(value, self.steps)
        return value if self.part is None else component_node(self.part, value)

    @property
    def read_only_message(self) -> str:
        """NumPy's refusal of a write, with why where NumPy would have written."""
        if any(isinstance(step, ReinterpretStep) and step.resized for step in self.steps):
            return (
                "assignment destination is read-only: dask_gpunumeric's view of another "
                "item size (a.view(dtype)) cannot be written through; write to its base"
            )
        return "assignment destination is read-only"

    def write(self, value: Expr, region: Region, rhs: Expr) -> Expr:
        """The store's new value after ``view[region] = rhs``."""
        if self.read_only:
            raise ValueError(self.read_only_message)
        if self.part is not None:
            # The complex elements reached, rebuilt from the new component and the other,
            # old one: the same write, through the steps, with a complex right-hand side.
            old = Slice(_read(value, self.steps), region)
            if self.part == "real":
                rhs = from_parts_node(rhs, component_node("imag", old), old.dtype)
            else:
                rhs = from_parts_node(component_node("real", old), rhs, old.dtype)
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
        size = _LAYOUT_DTYPE.itemsize  # an imaginary part's offset rounds down to its element
        origin = (stand_in.__array_interface__["data"][0] - _stand_in_origin(stand_in)) // size
        extents = [
            (n - 1) * (stride // size)
            for n, stride in zip(stand_in.shape, stand_in.strides, strict=True)
        ]
        low = origin + sum(min(0, e) for e in extents)
        high = origin + sum(max(0, e) for e in extents)
        row_size = max(1, int(numpy.prod(self.store_shape[1:], dtype=numpy.int64)))
        first, last = low // row_size, high // row_size
        index = (slice(first, last + 1),)
        return Region.from_index(self.store_shape, index)

    def layout_stand_in(self) -> numpy.ndarray:
        """A NumPy array with this view's shape and layout that owns one element: NumPy
        itself then says whether a reshape can be a view. Its elements are complex64 (8
        bytes: strides are 8 times the store's element strides), so a component is
        NumPy's own strided ``.real``/``.imag`` of it. Never read."""
        shape = self.store_shape
        size = _LAYOUT_DTYPE.itemsize
        strides = tuple(
            size * int(numpy.prod(shape[i + 1 :], dtype=numpy.int64)) for i in range(len(shape))
        )
        stand_in = numpy.lib.stride_tricks.as_strided(
            numpy.zeros(1, dtype=_LAYOUT_DTYPE), shape=shape, strides=strides
        )
        for step in self.steps:
            if isinstance(step, Region):
                stand_in = apply_region(stand_in, step)
            elif isinstance(step, ComputedStep):
                stand_in = getattr(numpy, step.function)(stand_in, *step.arguments)
            elif isinstance(step, ReinterpretStep):
                stand_in = _resized_layout(stand_in, step.shape) if step.resized else stand_in
            else:
                stand_in = numpy.reshape(stand_in, step.shape, copy=False)
        if self.part is not None:
            stand_in = getattr(stand_in, self.part)
        return stand_in


def _stand_in_origin(stand_in: numpy.ndarray) -> int:
    """The address of the one byte a layout stand-in owns (its element 0 of the store)."""
    base = stand_in
    while base.base is not None and isinstance(base.base, numpy.ndarray):
        base = base.base
    return base.__array_interface__["data"][0]


def _is_computed(step: Step) -> bool:
    return isinstance(step, ComputedStep) or (isinstance(step, ReinterpretStep) and step.resized)


def _resized_layout(stand_in: numpy.ndarray, shape: tuple[int, ...]) -> numpy.ndarray:
    """The layout of a view of another item size: ``stand_in``'s strides with the last
    axis's elements resized (NumPy's own ``view`` of its bytes), as a stand-in of
    ``_LAYOUT_DTYPE`` elements again; a fresh C-contiguous one where the strides are not
    whole elements of the new size."""
    size = _LAYOUT_DTYPE.itemsize
    last = stand_in.shape[-1] if stand_in.ndim else 1
    new_last = shape[-1] if shape else 1
    if last and new_last and (size * last) % new_last == 0:
        resized = stand_in.view(numpy.dtype(f"V{size * last // new_last}"))
        item = resized.itemsize
        if all(stride % item == 0 for stride in resized.strides):
            strides = tuple(stride // item * size for stride in resized.strides)
            return numpy.lib.stride_tricks.as_strided(stand_in, shape=shape, strides=strides)
    return ViewSpec(shape).layout_stand_in()


def _reinterpreted(value: Expr, dtype: numpy.dtype) -> Expr:
    """``value``'s elements' bytes read as ``dtype`` of the same item size, block by block."""
    keywords = (("dtype", dtype), ("target", dtype))
    return DaskCall("map_blocks", (view_block, value), value.shape, dtype, keywords)


def _reinterpreted_resized(value: Expr, step: ReinterpretStep) -> Expr:
    """``value``'s bytes as ``step.dtype`` of another item size: the last axis in one
    block (NumPy's shape rule scales it), then dask's ``view``."""
    if value.ndim and value.shape[-1]:
        chunks = (("chunks", {value.ndim - 1: -1}),)
        value = DaskCall("rechunk", (value,), value.shape, value.dtype, chunks)
    return DaskCall("Array.view", (value, step.dtype), step.shape, step.dtype)


def _read(value: Expr, steps: tuple[Step, ...]) -> Expr:
    for step in steps:
        if isinstance(step, Region):
            value = Slice(value, step)
        elif isinstance(step, ComputedStep):
            arguments = (value, *step.arguments)
            value = DaskCall(step.function, arguments, step.shape, value.dtype)
        elif isinstance(step, ReinterpretStep) and step.resized:
            value = _reinterpreted_resized(value, step)
        elif isinstance(step, ReinterpretStep):
            value = _reinterpreted(value, step.dtype)
        else:
            value = Reshape(value, step.shape)
    return value


def _write(value: Expr, steps: tuple[Step, ...], region: Region, rhs: Expr) -> Expr:
    if not steps:
        return SetItem(value, region, rhs)
    first, rest = steps[0], steps[1:]
    assert not _is_computed(first), "a read-only view"
    if isinstance(first, ReinterpretStep):
        # Elementwise: the same write, of the values' bytes as the elements' dtype.
        return _write(value, rest, region, _reinterpreted(rhs, value.dtype))
    if isinstance(first, Region) and not rest:
        return SetItem(value, first.then(region), rhs)
    inner = Slice(value, first) if isinstance(first, Region) else Reshape(value, first.shape)
    inner_new = _write(inner, rest, region, rhs)
    if isinstance(first, Region):
        return SetItem(value, first, inner_new)
    return Reshape(inner_new, value.shape)


@functools.lru_cache(maxsize=256)
def whole_view(shape: tuple[int, ...]) -> ViewSpec:
    """The view of a whole store of ``shape``: one object per shape (views are immutable),
    for the tiny values made per operation (``tiny_ufuncs``)."""
    return ViewSpec(shape)
