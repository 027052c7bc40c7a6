"""The host backend's compiled loops of large stencil blocks: bits equal NumPy's (the
oracle) on stencils whose blocks it evaluates once compiled (``MIN_ELEMENTS`` and
``HOT_ELEMENTS`` lowered to 0 so the suite's small blocks qualify at once), compiled once
hot, cached on disk. Their source: ``tests/unit/_codegen/test_numba_source.py``."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import dask
import numpy
import pytest

import dask_gpunumeric as dnp
from dask_gpunumeric._backends import compiled_loops, get_backend
from dask_gpunumeric._codegen.numba_source import kernel_source
from dask_gpunumeric._ir.scalar_program import ScalarProgram
from dask_gpunumeric.testing import assert_eq
from tests.unit._codegen.test_numba_source import F8, scaled_sum

pytest.importorskip("numba")


Program = Callable[[Any, Any], Any]  # (library, grid) -> the written interior's value

PROGRAMS: dict[str, Program] = {
    "seed": lambda np, g: 0.2 * (g[1:-1, 1:-1] + g[:-2, 1:-1] + g[1:-1, 2:] + g[1:-1, :-2]),
    "quotient": lambda np, g: (g[:-2, 1:-1] - g[2:, 1:-1]) / (g[1:-1, 1:-1] - g[1:-1, :-2]),
    "signs": lambda np, g: -g[1:-1, 1:-1] * -0.0 + (-g[:-2, 1:-1] - 1.5e300 * g[2:, 1:-1]),
}


def sweeps(np: Any, program: Program, iterations: int) -> Any:
    values = (numpy.arange(90 * 90).reshape(90, 90) % 7).astype(float) - 3.0
    g = numpy.array(values) if np is numpy else dnp.array(values, chunks=(30, 30))
    for _ in range(iterations):
        g[1:-1, 1:-1] = program(np, g)
    return g


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_compiled_blocks_match_numpy_bit_for_bit(
    name: str, backend: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(compiled_loops, "MIN_ELEMENTS", 0)
    monkeypatch.setattr(compiled_loops, "HOT_ELEMENTS", 0)
    ran: list[bool] = []
    original = compiled_loops.compiled_kernel

    def counted(program: ScalarProgram, elements: int) -> Any:
        kernel = original(program, elements)
        ran.append(kernel is not None)
        return kernel

    monkeypatch.setattr(compiled_loops, "compiled_kernel", counted)
    # One sweep per task: this is the single-sweep kernel's test (test_merge_sweeps.py
    # has the multi-sweep one's).
    monkeypatch.setitem(dask.config.config["gpunumeric"], "halo-sweeps", 1)
    with numpy.errstate(all="ignore"):  # x / 0 in NumPy's oracle: inf and nan, as ours
        expected = sweeps(numpy, PROGRAMS[name], 3)
    # The first sweep reads the grid's creation blocks (views of the host array, not the
    # flat route); the second reads blocks written by the first, and starts the compile.
    sweeps(dnp, PROGRAMS[name], 2).compute()
    compiled_loops.wait_for_compiles(timeout=120)
    assert_eq(sweeps(dnp, PROGRAMS[name], 3), expected)
    host_blocks = get_backend(backend).chunk_type is numpy.ndarray
    assert any(ran) == host_blocks, ran  # the device path never runs it


@pytest.fixture
def nothing_compiled(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(compiled_loops, "_kernels", {None: None})
    monkeypatch.setattr(compiled_loops, "_evaluated", {})


def test_a_program_compiles_once_hot(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(compiled_loops, "HOT_ELEMENTS", 1000)
    with dnp.config.set(kernel_cache=False):  # compiled when hot, not when cached
        monkeypatch.setattr(compiled_loops, "_kernels", {None: None})  # none compiled yet
        monkeypatch.setattr(compiled_loops, "_evaluated", {})
        program = scaled_sum((F8, F8), op="subtract")
        assert compiled_loops.compiled_kernel(program, 600) is None  # 600 evaluated: cold
        assert compiled_loops.compiled_kernel(program, 600) is None  # hot: compiling
        compiled_loops.wait_for_compiles(timeout=120)
        kernel = compiled_loops.compiled_kernel(program, 600)
        assert kernel is not None
        first, second, out = numpy.array([1.0, -0.0]), numpy.array([0.5, 0.0]), numpy.empty(2)
        kernel(first, second, out)
        numpy.testing.assert_array_equal(out, 0.2 * (first - second), strict=True)


def test_a_cached_program_is_loaded_at_its_first_block(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Any, nothing_compiled: None
) -> None:
    monkeypatch.setattr(compiled_loops, "HOT_ELEMENTS", 1000)
    program = scaled_sum((F8, F8), op="divide")
    with dnp.config.set(kernel_cache=str(tmp_path)):
        assert compiled_loops.compiled_kernel(program, 2000) is None  # hot: compiling
        compiled_loops.wait_for_compiles(timeout=120)
        path = compiled_loops.source_path(kernel_source(program))
        assert path is not None and path.parent.parent == tmp_path
        assert path.read_text() == kernel_source(program)
        assert list(path.parent.glob("__pycache__/*.nbi"))  # Numba's index beside it
        monkeypatch.setattr(compiled_loops, "_kernels", {None: None})  # a new process
        monkeypatch.setattr(compiled_loops, "_evaluated", {})
        assert compiled_loops.compiled_kernel(program, 1) is None  # cold, but cached
        compiled_loops.wait_for_compiles(timeout=120)
        kernel = compiled_loops.compiled_kernel(program, 1)
    assert kernel is not None
    assert sum(kernel.stats.cache_hits.values()) == 2  # both signatures, from the disk
    first, second, out = numpy.array([1.0, -0.0, 3.0]), numpy.array([0.0, 0.0, 0.5]), numpy.empty(3)
    with numpy.errstate(all="ignore"):
        expected = 0.2 * (first / second)
    kernel(first, second, out)
    numpy.testing.assert_array_equal(out, expected, strict=True)


@pytest.mark.parametrize("setting", ["off", "unwritable"])
def test_without_a_usable_cache_it_compiles_in_memory(
    setting: str, monkeypatch: pytest.MonkeyPatch, tmp_path: Any, nothing_compiled: None
) -> None:
    monkeypatch.setattr(compiled_loops, "HOT_ELEMENTS", 0)
    blocker = tmp_path / "a-file"
    blocker.write_text("not a directory")
    program = scaled_sum((F8, F8), op="multiply")
    with dnp.config.set(kernel_cache=False if setting == "off" else str(blocker / "cache")):
        compiled_loops.compiled_kernel(program, 1)
        compiled_loops.wait_for_compiles(timeout=120)
        kernel = compiled_loops.compiled_kernel(program, 1)
    assert kernel is not None and not kernel.stats.cache_hits
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a-file"]
    out = numpy.empty(2)
    kernel(numpy.array([2.0, 3.0]), numpy.array([0.5, -1.0]), out)
    numpy.testing.assert_array_equal(out, 0.2 * (numpy.array([2.0, 3.0]) * [0.5, -1.0]))
