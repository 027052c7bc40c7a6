"""The fusion pass by structure: which nodes fuse, how many tasks and kernel calls a fused
expression takes, and that results stay NumPy's (the oracle) with fusion on and off."""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator
from typing import Any

import dask
import numpy
import pytest

import dask_gpunumeric as dnp
from benchmarks.fusion import black_scholes, long_chain, trigonometric
from dask_gpunumeric._codegen import cpu
from dask_gpunumeric._ir.elementwise import Elementwise, ufunc_node
from dask_gpunumeric._ir.expr import Expr
from dask_gpunumeric._ir.fused import FusedElementwise
from dask_gpunumeric._ir.leaves import HostData
from dask_gpunumeric._lowering import lower, lower_all
from dask_gpunumeric._passes.fuse_elementwise import fuse_elementwise
from dask_gpunumeric._passes.rebuild import nodes_children_first, with_children
from dask_gpunumeric.testing import assert_eq

SHAPE, CHUNKS = (30, 40), (10, 20)  # 6 output chunks


def host_inputs(count: int) -> list[numpy.ndarray]:
    generator = numpy.random.default_rng(0)
    return [generator.uniform(1.0, 100.0, SHAPE) for _ in range(count)]


CASES: list[tuple[Callable[..., Any], int]] = [
    (long_chain, 5),
    (trigonometric, 1),
    (black_scholes, 3),
]


@pytest.fixture
def kernel_calls(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[tuple[int, ...]]]:
    """The shapes of the chunks each CPU evaluator call computes (both CPU backends call it)."""
    calls: list[tuple[int, ...]] = []
    evaluate = cpu.evaluate

    def counting(program: Any, *operands: Any, out: Any = None) -> numpy.ndarray:
        result = evaluate(program, *operands, out=out)
        calls.append(result.shape)
        return result

    monkeypatch.setattr(cpu, "evaluate", counting)
    yield calls


@pytest.mark.parametrize(("expression", "n_inputs"), CASES, ids=lambda x: getattr(x, "__name__", x))
def test_one_task_and_one_kernel_call_per_chunk(
    expression: Callable[..., Any], n_inputs: int, kernel_calls: list[tuple[int, ...]]
) -> None:
    hosts = host_inputs(n_inputs)
    ours = [dnp.array(host, chunks=CHUNKS) for host in hosts]
    result = expression(dnp, *ours)
    graph = lower(result._read()).__dask_graph__()
    computing = {name: layer for name, layer in graph.layers.items() if "hostdata" not in name}
    n_chunks = math.prod(math.ceil(n / c) for n, c in zip(SHAPE, CHUNKS, strict=True))
    (layer_name,) = computing  # the fused layer: the root's name and a digest of its kernel
    assert layer_name.split("~")[0] == result._read().name
    assert len(next(iter(computing.values()))) == n_chunks
    with numpy.errstate(all="ignore"):
        expected = expression(numpy, *hosts)
    assert_eq(result, expected, rtol=1e-15)
    assert len(kernel_calls) == n_chunks and set(kernel_calls) == {(10, 20)}


@pytest.mark.parametrize(("expression", "n_inputs"), CASES, ids=lambda x: getattr(x, "__name__", x))
def test_fusion_off_lowers_one_layer_per_operation(
    expression: Callable[..., Any], n_inputs: int, kernel_calls: list[tuple[int, ...]]
) -> None:
    ours = [dnp.array(host, chunks=CHUNKS) for host in host_inputs(n_inputs)]
    with dnp.config.set(fusion=False):
        result = expression(dnp, *ours)
        layers = lower(result._read()).__dask_graph__().layers
        result.compute()
    assert sum(name.startswith("elementwise") for name in layers) > 3
    assert kernel_calls == []


def test_reduction_reads_its_fused_producer_in_its_chunk_tasks(
    kernel_calls: list[tuple[int, ...]],
) -> None:
    """``sum(x * x + 1)``: after dask's blockwise optimization (what ``compute`` runs), each
    chunk task evaluates the fused program and sums that one chunk-sized result."""
    host = host_inputs(1)[0]
    x = dnp.array(host, chunks=CHUNKS)
    total = dnp.sum(x * x + 1)
    (optimized,) = dask.optimize(lower(total._read()))
    keys = {key[0] if isinstance(key, tuple) else key for key in optimized.__dask_graph__()}
    producer = total._read().children[0].name  # the fused layer's root
    assert not any(key.split("~")[0] == producer for key in keys)
    assert_eq(total, numpy.sum(host * host + 1), rtol=1e-14)
    assert len(kernel_calls) == 6


def _leaf(shape: tuple[int, ...] = (4, 5), dtype: str = "float64") -> HostData:
    return HostData(numpy.ones(shape, dtype=dtype), owned=True)


def _add(x: Any, y: Any) -> Elementwise:
    return ufunc_node("add", numpy.add, (x, y))[0]


def test_a_value_used_outside_the_tree_stays_an_array() -> None:
    a, b = _leaf(), _leaf()
    shared = _add(a, b)
    first, second = _add(shared, 2.0), _add(shared, 3.0)
    new_first, new_second = fuse_elementwise([first, second])
    assert isinstance(new_first, FusedElementwise) and isinstance(new_second, FusedElementwise)
    (shared_first,) = new_first.children
    (shared_second,) = new_second.children
    assert shared_first is shared_second and isinstance(shared_first, FusedElementwise)
    assert shared_first.children == (a, b)


def test_a_rebuilt_fused_node_has_a_name_of_its_own() -> None:
    """``with_children`` (used by later passes) gives the copy the name of what it reads:
    one dask key must never stand for two different tasks."""
    a, b = _leaf(), _leaf()
    (fused,) = fuse_elementwise([_add(_add(a, 1.0), 2.0)])
    rebuilt = with_children(fused, (b,))
    assert rebuilt.name != fused.name
    assert rebuilt.name == rebuilt.digest_name()
    assert with_children(rebuilt, (b,)) is rebuilt


def test_a_value_used_twice_inside_the_tree_is_computed_once() -> None:
    a = _leaf()
    square = ufunc_node("multiply", numpy.multiply, (a, a))[0]
    (fused,) = fuse_elementwise([_add(square, square)])
    assert fused.children == (a,)
    ops = [ins.op for ins in fused.program.instructions]
    assert ops == ["multiply", "add"]


def test_no_fusion_across_annotations() -> None:
    a, b = _leaf(), _leaf()
    with dask.annotate(priority=5):
        inner = _add(a, b)
    (outer,) = fuse_elementwise([_add(inner, 1.0)])
    assert isinstance(outer, FusedElementwise) and outer.children[0].annotations == (
        ("priority", 5),
    )


def test_inputs_are_bounded() -> None:
    leaves = [_leaf() for _ in range(9)]
    total = leaves[0]
    for leaf in leaves[1:]:
        total = _add(total, leaf)
    (fused,) = fuse_elementwise([total], max_inputs=4)
    nodes = [n for n in nodes_children_first([fused]) if isinstance(n, FusedElementwise)]
    assert len(nodes) > 1 and all(len(n.children) <= 4 for n in nodes)


def test_broadcast_operands_are_inputs_and_lower_dimensional_trees_stay_apart() -> None:
    row, column, full = _leaf((5,)), _leaf((4, 1)), _leaf((4, 5))
    scaled_row = ufunc_node("multiply", numpy.multiply, (row, 2.0))[0]
    (fused,) = fuse_elementwise([_add(_add(full, column), scaled_row)])
    shapes = sorted(child.shape for child in fused.children)
    assert shapes == [(4, 1), (4, 5), (5,)]
    assert any(isinstance(child, FusedElementwise) for child in fused.children)


def test_the_pass_is_pure_and_handles_10000_node_chains() -> None:
    x = _leaf((3,))
    chain: Expr = x
    for k in range(10_000):
        chain = _add(chain, float(k % 3))
    (fused,) = fuse_elementwise([chain])
    assert isinstance(chain, Elementwise)  # the input graph is untouched
    assert isinstance(fused, FusedElementwise) and fused.children == (x,)
    result = cpu.evaluate(fused.program, numpy.ones(3))
    expected = numpy.ones(3)
    for k in range(10_000):
        expected = expected + float(k % 3)
    numpy.testing.assert_array_equal(result, expected)


def test_a_reduction_used_as_a_scalar_is_a_zero_dimensional_input() -> None:
    host = host_inputs(1)[0]
    x = dnp.array(host, chunks=CHUNKS)
    centered = (x - x.mean()) * 2.0
    (fused,) = fuse_elementwise([centered._read()])
    assert isinstance(fused, FusedElementwise)
    assert sorted(child.ndim for child in fused.children) == [0, 2]
    assert_eq(centered, (host - host.mean()) * 2.0, rtol=1e-13)


def test_a_root_fused_two_ways_gets_two_keys() -> None:
    """``t + 1`` fuses ``t = x * 2`` when it is the only consumer, not when ``t`` is also
    computed: one key may never stand for both tasks (a distributed scheduler that holds
    the first would deadlock or return it for the second)."""
    x = dnp.array(host_inputs(1)[0], chunks=CHUNKS)
    t = x * 2
    y = t + 1
    (alone,) = lower_all([y._read()])
    together, _ = lower_all([y._read(), t._read()])
    assert alone.name.split("~")[0] == together.name.split("~")[0] == y._read().name
    assert alone.name != together.name
    assert_eq(y, host_inputs(1)[0] * 2 + 1)
