"""``chain_stencils``: runs of different written stencils of one base (red-black's four
half-sweeps) become one ``StencilChain``, lowered to one task per block fed once by ghost
slabs as deep as the writes' reaches together. By structure (which runs chain, tasks per
block) and by value: chained == unchained (``halo-sweeps: 1``) == NumPy, bit for bit, for
lattices of steps 1 to 3, blocks thinner than the halo, writes reading their own cells,
casts, and hypothesis-generated runs of writes."""

from __future__ import annotations

from collections import Counter
from typing import Any

import numpy
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import dask_gpunumeric as dnp
from dask_gpunumeric._ir.stencil import Stencil, StencilChain
from dask_gpunumeric._lowering.core import pass_settings
from dask_gpunumeric._passes.pipeline import run_passes
from dask_gpunumeric._passes.rebuild import nodes_children_first
from tests.unit._passes.test_exchange_halos import red_black, step_three, stepped_offset_two


@pytest.fixture(autouse=True)
def whole_chains() -> Any:
    with dnp.config.set(persist_depth=10**6):  # no auto-persist cuts the runs
        yield


def nodes_of(array: Any) -> list[Any]:
    (root,) = run_passes([array._read()], pass_settings())
    return nodes_children_first([root])


def chains_of(array: Any) -> list[int]:
    """The number of writes of every chain the passes make of ``array``, oldest first."""
    return [len(node.stages) for node in nodes_of(array) if isinstance(node, StencilChain)]


def grid_of(xp: Any, shape: tuple[int, ...], chunks: Any, dtype: Any = float) -> Any:
    host = ((numpy.arange(numpy.prod(shape)).reshape(shape) * 0.37) % 11.0).astype(dtype)
    return host.copy() if xp is numpy else dnp.array(host, chunks=chunks)


def red_black_iterations(xp: Any, u: Any, iterations: int = 3) -> Any:
    for _ in range(iterations):
        red_black(xp, u)
    return u


def test_red_black_iterations_chain_into_nodes_of_at_most_halo_sweeps_writes() -> None:
    u = red_black_iterations(dnp, grid_of(dnp, (26, 26), (8, 9)))  # 12 writes of reach 1
    assert chains_of(u) == [8, 4]
    assert not [node for node in nodes_of(u) if isinstance(node, Stencil)]
    with dnp.config.set(halo_sweeps=3):
        assert chains_of(u) == [3, 3, 3, 3]
    with dnp.config.set(halo_max_depth=2):  # the halo of a chain: its reaches together
        assert chains_of(u) == [2] * 6
    with dnp.config.set(halo_sweeps=1):  # every write its own exchange
        assert chains_of(u) == []
        assert len([node for node in nodes_of(u) if isinstance(node, Stencil)]) == 12


def test_a_chain_is_one_task_per_block_and_slabs() -> None:
    u = red_black_iterations(dnp, grid_of(dnp, (26, 26), (8, 9)), iterations=2)
    graph = dict(u.to_dask().__dask_graph__())
    names = Counter(key[0].rsplit("-", 1)[-1] if key[0].endswith("-slab") else key[0].split("-")[0]
                    for key in graph if isinstance(key, tuple))  # fmt: skip
    blocks = 4 * 3
    assert names["stencilchain"] == blocks  # 8 writes, one task per block
    assert names["stencil"] == 0
    with dnp.config.set(halo_sweeps=1):
        graph = dict(
            red_black_iterations(dnp, grid_of(dnp, (26, 26), (8, 9)), 2).to_dask().__dask_graph__()
        )
    unchained = Counter(key[0].split("-")[0] for key in graph if isinstance(key, tuple))
    assert unchained["stencil"] >= 8 * blocks


def twice_different(xp: Any, u: Any) -> Any:
    """A box write, then two stepped writes, the second reading cells of its own lattice
    (``u[1:-1:2]`` from ``u[3::2]``, evaluated whole before it is written, as NumPy's)."""
    n = u.shape[0]
    for _ in range(3):
        u[1:-1, 1:-1] = 0.5 * (u[:-2, 1:-1] + u[2:, 1:-1]) - 0.25 * u[1:-1, :-2]
        u[1 : n - 2 : 2, 1:-1] = u[3:n:2, 1:-1] + 0.5 * u[1 : n - 2 : 2, 2:]
        u[2:-1:3, 1:-1:2] = u[1:-2:3, 1:-1:2] * 0.75 - u[3::3, 2::2]
    return u


def cast_on_write(xp: Any, u: Any) -> Any:
    """An integer grid written by float programs: each write casts as NumPy's does."""
    for _ in range(2):
        red_black(xp, u)
    return u


CASES = [
    ("red-black", red_black_iterations, (26, 26), (8, 9), float),
    ("red-black-uneven", red_black_iterations, (27, 31), ((5, 4, 7, 11), (16, 15)), float),
    ("blocks-thinner-than-the-halo", red_black_iterations, (30, 30), (3, 30), float),
    ("step-three", lambda xp, u: [step_three(xp, u) for _ in range(4)] and u, (25, 26), (8, 9), float),
    ("stepped-offset-two", lambda xp, u: [stepped_offset_two(xp, u) for _ in range(3)] and u,
     (25, 26), (8, 9), float),
    ("writes-reading-their-own-lattice", twice_different, (23, 19), (6, 7), float),
    ("cast-on-write", cast_on_write, (22, 22), (7, 8), numpy.int64),
]  # fmt: skip


@pytest.mark.parametrize("sweeps", [2, 3, 8])
@pytest.mark.parametrize("case", CASES, ids=[case[0] for case in CASES])
def test_equals_unchained_and_numpy_bit_for_bit(case: Any, sweeps: int) -> None:
    _, program, shape, chunks, dtype = case
    expected = program(numpy, grid_of(numpy, shape, chunks, dtype))
    with dnp.config.set(halo_sweeps=sweeps):
        chained = program(dnp, grid_of(dnp, shape, chunks, dtype))
        assert max(chains_of(chained)) > 1
        got = chained.compute()
    with dnp.config.set(halo_sweeps=1):
        unchained = program(dnp, grid_of(dnp, shape, chunks, dtype)).compute()
    numpy.testing.assert_array_equal(got, expected, strict=True)
    numpy.testing.assert_array_equal(unchained, expected, strict=True)


def test_a_roll_or_a_version_read_elsewhere_ends_a_chain() -> None:
    def run(xp: Any) -> tuple[Any, Any]:
        u = grid_of(xp, (20, 20), (7, 7))
        red_black(xp, u)
        snapshot = u * 1.0  # the fourth version has a second reader
        red_black(xp, u)
        u[...] = u + 0.5 * xp.roll(u, 1, 0)  # reads around the base's ends
        red_black(xp, u)
        return u, snapshot

    u, snapshot = run(dnp)
    (root, _) = run_passes([u._read(), snapshot._read()], pass_settings())
    chains = [len(n.stages) for n in nodes_children_first([root]) if isinstance(n, StencilChain)]
    assert chains == [4, 4, 4]
    for ours, expected in zip((u, snapshot), run(numpy), strict=True):
        numpy.testing.assert_array_equal(ours.compute(), expected, strict=True)


def test_writes_under_other_annotations_are_not_chained() -> None:
    import dask

    u = grid_of(dnp, (20, 20), (7, 7))
    red_black(dnp, u)
    with dask.annotate(priority=3):
        red_black(dnp, u)
    assert chains_of(u) == [4, 4]


@st.composite
def writes(draw: Any) -> tuple[tuple[int, int], list[Any]]:
    """A grid shape and a run of 2 to 5 stepped writes reading inside it."""
    shape = (draw(st.integers(9, 24)), draw(st.integers(9, 24)))
    run = []
    for _ in range(draw(st.integers(2, 5))):
        steps = (draw(st.integers(1, 3)), draw(st.integers(1, 3)))
        reach = draw(st.integers(0, 2))
        origin = tuple(draw(st.integers(reach, reach + s - 1)) for s in steps)
        counts = tuple(
            (n - 1 - reach - o) // s + 1 for n, o, s in zip(shape, origin, steps, strict=True)
        )
        offsets = draw(
            st.lists(st.tuples(*[st.integers(-reach, reach)] * 2), min_size=1, max_size=4)
        )
        run.append((steps, origin, counts, offsets))
    return shape, run


def lattice(
    origin: tuple[int, ...], steps: tuple[int, ...], counts: tuple[int, ...], offset: Any
) -> tuple[slice, ...]:
    """The slices of the cells ``origin + offset + steps * k``, ``k`` below ``counts``."""
    return tuple(
        slice(o + d, o + d + s * (k - 1) + 1, s)
        for o, d, s, k in zip(origin, offset, steps, counts, strict=True)
    )


def apply(xp: Any, u: Any, run: list[Any]) -> Any:
    for steps, origin, counts, offsets in run:
        total = 0.5 * u[lattice(origin, steps, counts, offsets[0])]
        for weight, offset in enumerate(offsets[1:], 2):
            total = total + (weight / 4) * u[lattice(origin, steps, counts, offset)]
        u[lattice(origin, steps, counts, (0, 0))] = total
    return u


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(writes(), st.integers(2, 9), st.integers(2, 9))
def test_generated_runs_of_writes_equal_numpy(case: Any, rows: int, columns: int) -> None:
    shape, run = case
    expected = apply(numpy, grid_of(numpy, shape, None), run)
    got = apply(dnp, grid_of(dnp, shape, (rows, columns)), run)
    numpy.testing.assert_array_equal(got.compute(), expected, strict=True)
