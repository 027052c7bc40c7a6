"""Random blocks drawn inside their one reader and small client values copied into their
readers (``_lowering/inline_roots.py``), by structure (the tasks the optimized graph keeps, the owners they keep, what is left as
it is) and by equivalence (the optimized graph's values are the unoptimized one's)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from typing import Any

import dask
import numpy
import pytest
from dask.highlevelgraph import HighLevelGraph, MaterializedLayer
from dask.utils import key_split

import dask_gpunumeric as dnp
from dask_gpunumeric._backends import get_backend
from dask_gpunumeric._lowering import lower
from dask_gpunumeric._lowering.inline_roots import inline_roots
from dask_gpunumeric._runtime import placement

WORKERS = ("tcp://10.0.0.1:1", "tcp://10.0.0.2:1")


@pytest.fixture
def workers(monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[str, ...]]:
    """Lowering sees two distributed workers (the computation itself runs on threads)."""
    monkeypatch.setattr(placement, "current_workers", lambda: WORKERS)
    yield WORKERS


def optimized(array: Any) -> tuple[Any, Any, Any]:
    """``array``'s lowered graph as dask's optimization leaves it, the graph as lowered,
    and the output key."""
    lowered = lower(array._read(), get_backend())
    (key,) = lowered.__dask_keys__() if lowered.ndim == 0 else [lowered.__dask_keys__()]
    graph = lowered.__dask_optimize__(lowered.__dask_graph__(), [key])
    return graph, lowered.__dask_graph__(), key


def pi_fraction(n: int) -> Any:
    rng = dnp.random.default_rng(0)
    x, y = rng.random(n, chunks=n // 4), rng.random(n, chunks=n // 4)
    return ((x * x + y * y) < 1.0).mean()


@pytest.mark.usefixtures("workers")
def test_monte_carlo_pi_is_one_task_per_block_on_its_blocks_owner() -> None:
    graph, as_lowered, key = optimized(pi_fraction(40_000))
    tasks = Counter(key_split(k) for k in dict(graph))
    assert tasks["randomdraw"] == tasks["elementwise"] == 0, tasks
    assert tasks["mean_chunk"] == 4  # draw, draw, compare and partial mean in each
    assert Counter(key_split(k) for k in dict(as_lowered))["randomdraw"] == 8
    (chunk_layer,) = [layer for name, layer in graph.layers.items() if "mean_chunk" in name]
    owners = {k[1]: chunk_layer.annotations["workers"](k) for k in chunk_layer}
    assert owners == {0: [WORKERS[0]], 1: [WORKERS[0]], 2: [WORKERS[1]], 3: [WORKERS[1]]}
    assert dask.get(dict(graph), key) == dask.get(dict(as_lowered), key)


def test_the_values_are_the_unoptimized_graphs_and_near_numpys() -> None:
    graph, as_lowered, key = optimized(pi_fraction(400_000))
    inside = dask.get(dict(graph), key)
    assert inside == dask.get(dict(as_lowered), key)
    assert float(pi_fraction(400_000)) == inside
    assert abs(4.0 * float(inside) - numpy.pi) < 0.02  # its own streams, not NumPy's


def call(value: Any) -> Any:
    return value


def add(*values: Any) -> Any:
    return sum(values)


def two_layer_graph(
    reader: dict[Any, Any], roots: dict[Any, Any] | None = None, **annotations: Any
) -> HighLevelGraph:
    """A random draw's layer (two dependency-free calls, or ``roots``) read by layer ``b``."""
    a = (
        roots
        if roots is not None
        else {("randomdraw-a", 0): (call, 1), ("randomdraw-a", 1): (call, 2)}
    )
    return HighLevelGraph(
        {
            "randomdraw-a": MaterializedLayer(a, annotations=annotations.get("a")),
            "b": MaterializedLayer(reader, annotations=annotations.get("b")),
        },
        {"randomdraw-a": set(), "b": {"randomdraw-a"}},
    )


ONE_EACH = {("b", 0): (add, ("randomdraw-a", 0), 10), ("b", 1): (add, ("randomdraw-a", 1), 20)}


def test_a_block_goes_into_its_one_reader_and_takes_its_owner() -> None:
    owners = {("randomdraw-a", 0): ["w1"], ("randomdraw-a", 1): ["w2"]}
    graph = two_layer_graph(ONE_EACH, a=placement.annotations_of(owners))
    folded = inline_roots(graph, [("b", 0), ("b", 1)])
    assert list(folded.layers) == ["b"] and folded.dependencies == {"b": set()}
    assert dask.get(dict(folded), [("b", 0), ("b", 1)]) == (11, 22)
    layer = folded.layers["b"]
    assert [layer.annotations["workers"](k) for k in (("b", 0), ("b", 1))] == [["w1"], ["w2"]]


def test_a_reader_keeps_its_own_owners() -> None:
    own = {("b", 0): ["w2"], ("b", 1): ["w1"]}
    graph = two_layer_graph(
        ONE_EACH,
        a=placement.annotations_of({("randomdraw-a", 0): ["w1"], ("randomdraw-a", 1): ["w2"]}),
        b=placement.annotations_of(own),
    )
    layer = inline_roots(graph, [("b", 0), ("b", 1)]).layers["b"]
    assert [layer.annotations["workers"](k) for k in (("b", 0), ("b", 1))] == [["w2"], ["w1"]]


@pytest.mark.parametrize(
    "case",
    ["an output", "read twice", "several in one task", "not a draw", "a user's annotation", "data"],
)
def test_what_stays_a_task_of_its_own(case: str) -> None:
    reader, keys, roots, annotations = ONE_EACH, [("b", 0), ("b", 1)], None, {}
    if case == "an output":  # persisting a with b keeps a's blocks
        keys = [*keys, ("randomdraw-a", 0), ("randomdraw-a", 1)]
    elif case == "read twice":
        reader = {**ONE_EACH, ("b", 2): (add, ("randomdraw-a", 0), 30)}
    elif case == "several in one task":  # a reduction's combine: parallel work in one task
        reader = {("b", 0): (add, ("randomdraw-a", 0), ("randomdraw-a", 1))}
        keys = [("b", 0)]
    elif case == "not a draw":  # a fill, a value: as lowered
        graph = HighLevelGraph(
            {"fill-a": MaterializedLayer({("fill-a", 0): (call, 1)}),
             "b": MaterializedLayer({("b", 0): (add, ("fill-a", 0), 1)})},
            {"fill-a": set(), "b": {"fill-a"}},
        )  # fmt: skip
        assert inline_roots(graph, [("b", 0)]) is graph
        return
    elif case == "a user's annotation":
        annotations = {"b": {"retries": 2}}
    else:  # blocks already made (persisted, scattered): never copied into a task
        roots = {("randomdraw-a", 0): numpy.ones(3), ("randomdraw-a", 1): numpy.ones(3)}
    graph = two_layer_graph(reader, roots, **annotations)
    assert inline_roots(graph, keys) is graph


# --- small client values copied into their readers (``copy_client_values``) -------------


def value_and_readers(
    value: numpy.ndarray, readers: int, blockwise: bool = False
) -> tuple[HighLevelGraph, list[Any]]:
    """A client value's layer (one block, ``copy`` of it, as ``lower_chunk_value`` makes
    it) read by ``readers`` product-like tasks (a table of tasks, or dask's blockwise
    layer), each ``value * i``; the readers' keys."""
    import operator

    name = "chunkvalue-test-1"
    key = (name, 0)
    value_layer = MaterializedLayer({key: (operator.methodcaller("copy"), value)})
    if blockwise:
        source = dask.array.from_array(numpy.arange(float(readers)), chunks=1, name="source")
        read = dask.array.Array(
            HighLevelGraph({name: value_layer}, {name: set()}), name, ((value.size,),),
            dtype=value.dtype,
        )  # fmt: skip
        product = dask.array.blockwise(
            lambda s, v: s * v[:1], "i", source, "i", read, "j", dtype=value.dtype,
            concatenate=True,
        )  # fmt: skip
        graph = product.__dask_graph__()
        return graph, list(product.__dask_keys__())
    reader_layer = MaterializedLayer(
        {("matmul-test-2", i): (operator.mul, key, float(i)) for i in range(readers)}
    )
    graph = HighLevelGraph(
        {name: value_layer, "matmul-test-2": reader_layer},
        {name: set(), "matmul-test-2": {name}},
    )
    return graph, [("matmul-test-2", i) for i in range(readers)]


def test_a_small_client_value_is_copied_into_each_task_that_reads_it() -> None:
    from dask_gpunumeric._lowering.inline_roots import copy_client_values

    value = numpy.arange(1000.0)  # 8 kB, 4 readers: 32 kB in the graph
    graph, keys = value_and_readers(value, 4)
    copied = copy_client_values(graph, outputs={"matmul-test-2"})
    assert set(copied.layers) == {"matmul-test-2"}
    assert copied.dependencies == {"matmul-test-2": set()}
    values = dask.get(dict(copied), keys)
    assert all(numpy.array_equal(v, value * i) for i, v in enumerate(values))
    assert all(
        numpy.array_equal(a, b) for a, b in zip(values, dask.get(dict(graph), keys), strict=True)
    )


@pytest.mark.parametrize(
    ("size", "readers", "outputs", "blockwise"),
    [
        (40_000, 4, {"matmul-test-2"}, False),  # 4 x 320 kB: over the scatter threshold
        (1000, 4, {"matmul-test-2", "chunkvalue-test-1"}, False),  # persisted itself
        (1000, 4, set(), True),  # a blockwise reader is not materialized for it
    ],
    ids=["copies too large", "an output", "blockwise reader"],
)
def test_a_client_value_stays_a_task_of_its_own(
    size: int, readers: int, outputs: set[str], blockwise: bool
) -> None:
    from dask_gpunumeric._lowering.inline_roots import copy_client_values

    graph, _ = value_and_readers(numpy.arange(float(size)), readers, blockwise)
    assert "chunkvalue-test-1" in graph.layers
    assert copy_client_values(graph, outputs) is graph
