"""Small expressions evaluated in the client process, without a task.

A dask task costs far more than NumPy's work on a few thousand elements (the design
measured 4 us for ``x += 2 * y`` on 1,024 elements in NumPy, 6-8 ms in plain dask.array).
So an expression whose nodes are all small (the placement rule's ``now_limits``: one
block, or at most 4 MiB with the small-work policy on), and whose leaves are creation
routines, host data or values already computed here, is computed at once with the
backend's ``xp`` by the same chunk kernels the workers run and becomes a ``ChunkValue``
leaf (``evaluate_small``). The small-work policy's eager path (``evaluate_here``) is the
same interpreter under the policy's limits.

Before/after, for ``x += 2 * y`` with ``x`` and ``y`` small::

    SetItem(ChunkValue(x), all, Elementwise(add, ChunkValue(x), Elementwise(multiply, 2, ChunkValue(y))))
    -> ChunkValue(x + 2 * y)

On the simulated device the chunks are device chunks (no implicit host conversion), as on
the workers. A backend takes this path only where it says this process can make its chunks
(``ChunkBackend.evaluates_in_client``): CuPy where this process sees a device, which a
login node's client need not.
"""

from __future__ import annotations

import dataclasses
import itertools
import math
import weakref
from collections.abc import Callable
from typing import Any

import numpy

from .._backends import get_backend
from .._backends.base import ChunkBackend
from .._ir import indexing, leaves
from .._ir.elementwise import Elementwise
from .._ir.expr import Expr
from .._ir.products import Matmul, Tensordot
from .._ir.random import RandomDraw
from .._ir.reductions import Reduction
from .._ir.rolling import Roll
from .._runtime.partitioning import default_chunks
from . import boxes, creation
from .elementwise import elementwise
from .reductions import check_nan_arg, nanargmax_block, nanargmin_block

# A bound on the nodes looked at per evaluation: only small trees built by one call are
# ever evaluated here (stored values are leaves already), so the bound is never reached
# by them, and a large unevaluable graph is not walked.
_MAX_NODES = 64


def evaluate_small(
    expr: Expr, elements: int, nbytes: int, backend: str, *, materializing: bool = False
) -> Expr:
    """``expr``, or a ``ChunkValue`` leaf holding its value when it can be computed here:
    each of its arrays has fewer than ``elements`` elements or at most ``nbytes`` bytes
    (the placement rule's limits, ``_array/work_placement.now_limits``), computed on the
    configured ``backend`` (``auto``: the one its values were made on, as tiny
    operations take it, with no lookup of the cluster). Reductions and random draws are
    computed only ``materializing`` (see ``_materialization_table``)."""
    if (
        type(expr) is leaves.ChunkValue
        or expr.depth > _MAX_NODES  # more nodes than are ever planned for it
        or not _small(expr, elements, nbytes)  # before any walk below it
    ):
        return expr
    if type(expr) is leaves.HostData and math.prod(expr.shape) >= elements:
        return expr  # host data of several blocks stays as the user brought it, in blocks
    chunks = get_backend(_made_on(expr) if backend == "auto" else backend)
    if (
        type(expr) is leaves.HostData
        and chunks.evaluates_in_client
        and not _partitioned_by_user(expr)
        and not expr.annotations
    ):
        # what the plan makes of a lone leaf, without planning it (an element of ``for v
        # in a``, ``np.asarray(small host array)``)
        return leaves.ChunkValue(chunks.from_host(expr.data), chunks.name)
    limits = EagerLimits(
        _MAX_NODES, 0, 0, small=(elements, nbytes), reductions=materializing, anywhere=False
    )
    computed = _computed(expr, chunks, limits)
    return expr if computed is None else leaves.ChunkValue(computed[0], chunks.name)


def _made_on(expr: Expr) -> str | None:
    """The backend of the first value held here that ``expr`` reads (``None``: the
    configured one, resolved)."""
    stack = [expr]
    for _ in range(_MAX_NODES):
        if not stack:
            break
        node = stack.pop()
        if type(node) is leaves.ChunkValue:
            return node.backend
        stack.extend(node.children)
    return None


def _computed(
    expr: Expr, backend: ChunkBackend, limits: EagerLimits
) -> tuple[Any, dict[int, Any]] | None:
    """``evaluate_here(expr, backend, set(), limits)`` (a hook for tests)."""
    return evaluate_here(expr, backend, set(), limits)


def evaluate_here(
    expr: Expr,
    backend: ChunkBackend,
    keep: set[int],
    limits: EagerLimits,
    arriving: frozenset[int] = frozenset(),
    bring: Callable[[], None] | None = None,
) -> tuple[Any, dict[int, Any]] | None:
    """The small-work policy's eager path (``_array/work_placement.py``): ``expr``'s value
    as one chunk of ``backend``, computed here node by node as NumPy would (no graph, no
    task, no thread pool), and the values of the nodes numbered in ``keep`` that were
    computed on the way; ``None`` (nothing computed) unless every node is of a kind
    evaluated here, and there are few of them or they make little (``limits``: the
    placement rule's, ``_array/work_placement.py``, which decided the sizes). Each
    value is dropped once its last consumer has run (as NumPy's temporaries are), unless
    kept. The nodes numbered in ``arriving`` are planned as leaves whose values
    ``bring()`` remembers (``remember``: data moved here, parts computed elsewhere),
    called once the plan says the evaluation runs here, before it does. The one
    interpreter of expressions in this process: ``evaluate_small`` is this with limits
    on each node's size."""
    if not backend.evaluates_in_client:
        return None
    plan = _plan(expr, backend, limits, arriving)
    if plan is None:
        return None
    if bring is not None:
        bring()
    order, consumers = plan
    values: dict[int, Any] = {}
    buffers = _Buffers()
    for node in order:
        if type(node) is leaves.ChunkValue:
            values[node.number] = node.value
            continue
        known = _Remembered.values.get(node)
        if known is not None:
            values[node.number] = known.value
            continue
        inputs = [values[child.number] for child in node.children]
        kind = type(node)
        if isinstance(node, indexing.SetItem) and buffers.writable(node, consumers, keep):
            target, value = inputs  # ``out[1:, :] -= u[:-1, :]``: NumPy writes in place too
            indexing.apply_region(target, node.region)[...] = value
            values[node.number] = target
            buffers.passed_on(node)
        else:
            values[node.number] = result = _materialization_table[kind](node, inputs, backend)
            buffers.made(node, result, inputs)
        for child in {child.number for child in node.children}:
            consumers[child] -= 1
            if not consumers[child] and child not in keep:
                del values[child]
                buffers.dropped(child)
    return values[expr.number], {n: values[n] for n in keep if n in values}


class _Buffers:
    """Which values of one evaluation are memory it made (``owned``: a ufunc's result, a
    written copy) and which values are views of them, so that a write whose target is
    such memory, read by nothing else any more, updates it in place as NumPy's in-place
    operators do (``out[1:, :] -= u[:-1, :]``) instead of copying it. A node's value is
    taken as a view of its inputs' memory when it may be one (a slice, a reshape, a whole
    array written: the value itself)."""

    __slots__ = ("owned", "base_of", "views")

    def __init__(self) -> None:
        self.owned: set[int] = set()
        self.base_of: dict[int, int] = {}  # a view's node -> the owned node it views
        self.views: dict[int, set[int]] = {}  # an owned node -> its views still held

    def made(self, node: Expr, result: Any, inputs: list[Any]) -> None:
        if isinstance(node, (indexing.Slice, indexing.Reshape)):
            self._viewed(node, node.children[0].number)
        elif isinstance(node, indexing.SetItem) and _replaces_whole(node):
            self._viewed(node, node.children[1].number)
        elif isinstance(node, _FRESH) and all(result is not value for value in inputs):
            self.owned.add(node.number)

    def _viewed(self, view: Expr, child: int) -> None:
        base = self.base_of.get(child, child)
        if base in self.owned:
            self.base_of[view.number] = base
            self.views.setdefault(base, set()).add(view.number)

    def writable(self, node: indexing.SetItem, consumers: dict[int, int], keep: set[int]) -> bool:
        """Whether ``node`` may write into its target's value: made here, not viewed by
        a value still held, read by no later node (this write is its last consumer) and
        kept by no store."""
        target = node.children[0].number
        return (
            target in self.owned
            and not self.views.get(target)
            and consumers[target] == 1
            and target not in keep
            and node.children[1].number != target
            and not _replaces_whole(node)
        )

    def passed_on(self, node: indexing.SetItem) -> None:
        """``node`` wrote into its target's memory: the memory is now ``node``'s."""
        self.owned.discard(node.children[0].number)
        self.owned.add(node.number)

    def dropped(self, number: int) -> None:
        """The value of node ``number`` is no longer held."""
        base = self.base_of.pop(number, None)
        if base is not None:
            self.views[base].discard(number)
        self.owned.discard(number)


# Nodes whose value is new memory (a ufunc's result, a written block's copy), unless it is
# one of their inputs.
_FRESH = (Elementwise, indexing.SetItem)


class _Remembered:
    """Values computed here for nodes that live stores held when they were computed
    (``remember``), for as long as the node lives: a later graph that still names the
    node (``x = x + alpha * p`` names every ``p`` and ``alpha`` of the loop) reads the
    value instead of computing it again, as a cluster reuses a persisted key."""

    values: weakref.WeakKeyDictionary[Expr, leaves.ChunkValue] = weakref.WeakKeyDictionary()


def remember(node: Expr, value: leaves.ChunkValue) -> None:
    """``node``'s value is ``value`` (see ``_Remembered``)."""
    _Remembered.values[node] = value


def remembered(node: Expr) -> leaves.ChunkValue | None:
    """The value computed here for ``node``, if any."""
    return _Remembered.values.get(node)


# Nodes that make no array here: host data (NumPy's own array, as the user brought it)
# and views of their input's value (NumPy's slices, transposes, reshapes of contiguous
# values). They count as nodes only: a loop reading a large host matrix through
# products with small results (logistic regression's ``x @ w`` and ``x.T @ (p - y)``)
# makes small arrays.
_MAKE_NOTHING = (leaves.HostData, indexing.Slice, indexing.Reshape)
_MAX_EAGER_NODES = 4096


@dataclasses.dataclass(frozen=True)
class EagerLimits:
    """When an evaluation here is a loop's body better left to dask's threads (the
    placement rule's numbers, ``_array/work_placement.py``): more than ``nodes`` nodes to
    compute, making more than ``made_bytes`` together, an array of ``split_elements``
    or more among them. With ``anywhere`` off, more than ``nodes`` nodes is never
    evaluated. With ``small`` (``evaluate_small``: a value computed when built), every
    node, a leaf's value included, has fewer than ``small[0]`` elements or at most
    ``small[1]`` bytes, and none was built under ``dask.annotate``. Reductions and random
    draws only with ``reductions``."""

    nodes: int
    made_bytes: int
    split_elements: int
    small: tuple[int, int] | None = None
    reductions: bool = True
    anywhere: bool = True


def _plan(
    expr: Expr, backend: ChunkBackend, limits: EagerLimits, arriving: frozenset[int]
) -> tuple[list[Expr], dict[int, int]] | None:
    """``expr``'s nodes in an order where children come first, and each node's number of
    consumers; ``None`` when one cannot be evaluated here (see ``evaluate_here``)."""
    order: list[Expr] = []
    consumers: dict[int, int] = {}
    computed = computed_bytes = largest = 0
    as_leaf: set[int] = set()  # values known: their children are not needed
    table = _materialization_table if limits.reductions else _kernel_table
    most = _MAX_EAGER_NODES if limits.anywhere else limits.nodes
    small = limits.small
    stack: list[tuple[Expr, bool]] = [(expr, False)]
    while stack:
        node, children_done = stack.pop()
        if children_done:
            order.append(node)
            continue
        if node.number in consumers:
            continue
        consumers[node.number] = 0
        if len(consumers) > most:
            return None
        if small is not None and not _small(node, *small):
            return None
        if node.number in arriving:  # remembered before the evaluation runs
            order.append(node)
            as_leaf.add(node.number)
            continue
        known = _Remembered.values.get(node)
        if known is not None or type(node) is leaves.ChunkValue:
            if getattr(known or node, "backend", None) != backend.name:
                return None
            order.append(node)
            as_leaf.add(node.number)
            continue
        if type(node) not in table or _partitioned_by_user(node):
            return None
        if small is not None and node.annotations:
            return None  # built under dask.annotate: placed by the user
        computed += 1
        if type(node) not in _MAKE_NOTHING:  # ``x.T`` of a solver's ``x.T @ r``
            size = math.prod(node.shape)
            computed_bytes += size * node.dtype.itemsize
            largest = max(largest, size)
        if (
            computed > limits.nodes
            and computed_bytes > limits.made_bytes
            and largest >= limits.split_elements
        ):
            return None
        stack.append((node, True))
        stack.extend((child, False) for child in node.children)
    for node in order:
        if node.number not in as_leaf:
            for child in {child.number for child in node.children}:
                consumers[child] += 1
    return order, consumers


def _small(node: Expr, elements: int, nbytes: int) -> bool:
    size = math.prod(node.shape)
    return size < elements or size * node.dtype.itemsize <= nbytes


def _partitioned_by_user(node: Expr) -> bool:
    """A leaf given explicit chunks of several blocks: the user wants it partitioned (and
    its value stays in those blocks rather than becoming one chunk here)."""
    chunks = node.chunks if isinstance(node, leaves.Leaf) else None
    return bool(chunks) and max(map(len, chunks)) > 1  # type: ignore[arg-type]


Kernel = Callable[[Any, list[Any], ChunkBackend], Any]


def _origin(node: Expr) -> tuple[int, ...]:
    return (0,) * node.ndim


def _elementwise(node: Elementwise, inputs: list[Any], backend: ChunkBackend) -> Any:
    lowered = iter(inputs)
    operands = [next(lowered) if isinstance(x, Expr) else x for x in node.operands]
    return elementwise(backend, node.op, node.params, node.dtype, *operands)


def _slice(node: indexing.Slice, inputs: list[Any], backend: ChunkBackend) -> Any:
    return backend.as_chunk(indexing.apply_region(inputs[0], node.region))


def _set_item(node: indexing.SetItem, inputs: list[Any], backend: ChunkBackend) -> Any:
    target, value = inputs
    if _replaces_whole(node):  # ``x += ...``: the new value is the whole new version
        return value
    updated = target.copy()  # values are shared and never mutated
    indexing.apply_region(updated, node.region)[...] = value
    return updated


def _replaces_whole(node: indexing.SetItem) -> bool:
    """True when the value, already of the target's dtype (``SetItem``'s contract), covers
    the target exactly: no broadcast, no transpose, no partial region."""
    value = node.children[1]
    return value.shape == node.shape and value.dtype == node.dtype and node.region.is_identity


def _fill(node: leaves.Fill, inputs: list[Any], backend: ChunkBackend) -> Any:
    return creation.fill(backend, node.dtype, node.value, node.shape, _origin(node), node.paints)


def _arange(node: leaves.Arange, inputs: list[Any], backend: ChunkBackend) -> Any:
    return creation.arange(
        backend, node.dtype, node.start, node.step, node.second, node.shape, _origin(node)
    )


def _linspace(node: leaves.Linspace, inputs: list[Any], backend: ChunkBackend) -> Any:
    return creation.linspace(
        backend,
        node.dtype,
        node.computing,
        node.start,
        node.stop,
        node.endpoint,
        node.shape[0],
        node.shape,
        _origin(node),
    )


def _eye(node: leaves.Eye, inputs: list[Any], backend: ChunkBackend) -> Any:
    return creation.eye(backend, node.dtype, node.k, node.shape, _origin(node))


def _reduction(node: Reduction, inputs: list[Any], backend: ChunkBackend) -> Any:
    """NumPy's (CuPy's) own reduction of the one chunk: NumPy's result, as dask's tree
    reduction of several blocks is only up to rounding."""
    function = getattr(numpy, node.kind)  # a Reduction's kind is NumPy's function name
    axis: Any = node.axis
    if node.kind in _ONE_AXIS and axis is not None:
        axis = axis[0]
    if node.kind in _NAN_ARG:  # CuPy's nanarg* return -1 for an all-NaN lane: not NumPy's
        check_nan_arg(node.kind, inputs[0], axis)
        function = _NAN_ARG[node.kind]
    return _of_dtype(
        node,
        backend.as_chunk(
            function(inputs[0], axis=axis, keepdims=node.keepdims, **dict(node.params))
        ),
    )


_ONE_AXIS = ("argmax", "argmin", "nanargmax", "nanargmin")
_NAN_ARG = {"nanargmax": nanargmax_block, "nanargmin": nanargmin_block}


def _matmul(node: Matmul, inputs: list[Any], backend: ChunkBackend) -> Any:
    return _of_dtype(node, backend.as_chunk(numpy.matmul(*inputs)))


def _tensordot(node: Tensordot, inputs: list[Any], backend: ChunkBackend) -> Any:
    left, right = inputs
    axes = (node.left_axes, node.right_axes)
    return _of_dtype(node, backend.as_chunk(numpy.tensordot(left, right, axes=axes)))


def product(node: Expr, inputs: list[Any], backend: ChunkBackend) -> Any:
    """The product ``node`` (a ``Matmul`` or ``Tensordot``) of the chunks ``inputs``, as
    NumPy computes it."""
    return _materialization_table[type(node)](node, inputs, backend)


def _of_dtype(node: Expr, chunk: Any) -> Any:
    """``chunk`` cast to ``node``'s dtype (NumPy's result type, probed at the call)."""
    return chunk if chunk.dtype == node.dtype else chunk.astype(node.dtype)


def _random_draw(node: RandomDraw, inputs: list[Any], backend: ChunkBackend) -> Any:
    """The draw block by block, in the chunks the cluster would draw it in (its values
    depend on them), put together."""
    draw = creation.draw_function(backend, node)
    chunks = node.chunks or default_chunks(node.shape)
    if node.method == "permutation" or max(map(len, chunks), default=1) <= 1:
        return draw(node.shape, _origin(node))
    result = backend.empty_block(node.shape, node.dtype)
    edges = boxes.boundaries(chunks)
    for index in itertools.product(*map(range, map(len, chunks))):
        box = boxes.block_box(edges, index)
        result[boxes.slices(box)] = draw(boxes.box_shape(box), tuple(low for low, _ in box))
    return result


_kernel_table: dict[type, Kernel] = {
    Elementwise: _elementwise,
    indexing.Slice: _slice,
    indexing.Reshape: lambda node, inputs, backend: inputs[0].reshape(node.shape),
    indexing.SetItem: _set_item,
    Roll: lambda node, inputs, backend: backend.xp.roll(inputs[0], node.shifts, node.axes),
    leaves.Fill: _fill,
    leaves.Arange: _arange,
    leaves.Linspace: _linspace,
    leaves.Eye: _eye,
    leaves.HostData: lambda node, inputs, backend: backend.from_host(node.data),
    # Products of tiny arrays, when built, as NumPy computes them (a solver's ``r @ r``
    # is then a value, not a node every later operation on it walks again).
    Matmul: _matmul,
    Tensordot: _tensordot,
}
# A materialization kept here by the small-work policy also reduces and draws (a tiny
# array's reduction stays lazy when built: its errors and warnings come from the probes
# at the call, and its value when materialized).
_materialization_table: dict[type, Kernel] = {
    **_kernel_table,
    Reduction: _reduction,
    RandomDraw: _random_draw,
}
