"""The compiled loop of large host blocks: its source, and its bits equal NumPy's (the
oracle) on stencils whose blocks it evaluates once compiled (``MIN_ELEMENTS`` lowered to
and ``HOT_ELEMENTS`` to 0 so the suite's small blocks qualify at once)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import dask
import numpy
import pytest

import dask_gpunumeric as dnp
from dask_gpunumeric._ir.scalar_program import Instruction, ScalarProgram
from dask_gpunumeric._lowering import stencil_compiled, stencil_kernels
from dask_gpunumeric._lowering.stencil_compiled import kernel_source
from dask_gpunumeric.testing import assert_eq

F8, F4 = numpy.dtype(numpy.float64), numpy.dtype(numpy.float32)

pytest.importorskip("numba")


def scaled_sum(inputs: tuple[numpy.dtype, ...], op: str = "add") -> ScalarProgram:
    """``0.2 * (v0 <op> v1)``."""
    return ScalarProgram(
        inputs=inputs,
        instructions=(
            Instruction(2, op, (0, 1), inputs[0]),
            Instruction(3, "const", (), inputs[0], (("value", 0.2),)),
            Instruction(4, "multiply", (3, 2), inputs[0]),
        ),
        outputs=(4,),
    )


def test_the_source_is_one_statement_per_instruction() -> None:
    source = kernel_source(scaled_sum((F8, F8)))
    assert source is not None
    imports, kernel, sweeps = source.split("\n\n\n")
    assert imports == "import numpy as np"
    assert kernel == (
        "def kernel(v0, v1, out):\n"
        "    for i in range(out.shape[0]):\n"
        "        v2 = v0[i] + v1[i]\n"
        "        out[i] = (0.2) * v2"
    )
    # the sweeps' inner loop: the same statements over row views at each input's shift
    assert (
        "            x0 = src[start + d0 : start + d0 + n]\n"
        "            x1 = src[start + d1 : start + d1 + n]\n"
        "            row = dst[start : start + n]\n"
        "            for i in range(n):\n"
        "                v2 = x0[i] + x1[i]\n"
        "                row[i] = (0.2) * v2\n"
    ) in sweeps


@pytest.mark.parametrize(
    "program",
    [scaled_sum((F4, F4)), scaled_sum((F8, F8), op="maximum"), scaled_sum((F8, F8), "power")],
    ids=["float32", "maximum", "power"],
)
def test_programs_it_does_not_cover_have_no_source(program: ScalarProgram) -> None:
    assert kernel_source(program) is None


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
    monkeypatch.setattr(stencil_kernels, "MIN_ELEMENTS", 0)
    monkeypatch.setattr(stencil_compiled, "HOT_ELEMENTS", 0)
    ran: list[bool] = []
    original = stencil_kernels.compiled_kernel

    def counted(program: ScalarProgram, elements: int) -> Any:
        kernel = original(program, elements)
        ran.append(kernel is not None)
        return kernel

    monkeypatch.setattr(stencil_kernels, "compiled_kernel", counted)
    # One sweep per task: this is the single-sweep kernel's test (test_stencil_sweeps.py
    # has the multi-sweep one's).
    monkeypatch.setitem(dask.config.config["gpunumeric"], "halo-sweeps", 1)
    with numpy.errstate(all="ignore"):  # x / 0 in NumPy's oracle: inf and nan, as ours
        expected = sweeps(numpy, PROGRAMS[name], 3)
    # The first sweep reads the grid's creation blocks (views of the host array, not the
    # flat route); the second reads blocks written by the first, and starts the compile.
    sweeps(dnp, PROGRAMS[name], 2).compute()
    stencil_compiled.wait_for_compiles(timeout=120)
    assert_eq(sweeps(dnp, PROGRAMS[name], 3), expected)
    assert any(ran) == (backend == "numpy"), ran  # the device path never runs it


@pytest.fixture
def nothing_compiled(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(stencil_compiled, "_kernels", {None: None})
    monkeypatch.setattr(stencil_compiled, "_evaluated", {})


def test_a_program_compiles_once_hot(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(stencil_compiled, "HOT_ELEMENTS", 1000)
    with dnp.config.set(kernel_cache=False):  # compiled when hot, not when cached
        monkeypatch.setattr(stencil_compiled, "_kernels", {None: None})  # none compiled yet
        monkeypatch.setattr(stencil_compiled, "_evaluated", {})
        program = scaled_sum((F8, F8), op="subtract")
        assert stencil_compiled.compiled_kernel(program, 600) is None  # 600 evaluated: cold
        assert stencil_compiled.compiled_kernel(program, 600) is None  # hot: compiling
        stencil_compiled.wait_for_compiles(timeout=120)
        kernel = stencil_compiled.compiled_kernel(program, 600)
        assert kernel is not None
        first, second, out = numpy.array([1.0, -0.0]), numpy.array([0.5, 0.0]), numpy.empty(2)
        kernel(first, second, out)
        numpy.testing.assert_array_equal(out, 0.2 * (first - second), strict=True)


def test_a_cached_program_is_loaded_at_its_first_block(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Any, nothing_compiled: None
) -> None:
    monkeypatch.setattr(stencil_compiled, "HOT_ELEMENTS", 1000)
    program = scaled_sum((F8, F8), op="divide")
    with dnp.config.set(kernel_cache=str(tmp_path)):
        assert stencil_compiled.compiled_kernel(program, 2000) is None  # hot: compiling
        stencil_compiled.wait_for_compiles(timeout=120)
        path = stencil_compiled.source_path(kernel_source(program))
        assert path is not None and path.parent.parent == tmp_path
        assert path.read_text() == kernel_source(program)
        assert list(path.parent.glob("__pycache__/*.nbi"))  # Numba's index beside it
        monkeypatch.setattr(stencil_compiled, "_kernels", {None: None})  # a new process
        monkeypatch.setattr(stencil_compiled, "_evaluated", {})
        assert stencil_compiled.compiled_kernel(program, 1) is None  # cold, but cached
        stencil_compiled.wait_for_compiles(timeout=120)
        kernel = stencil_compiled.compiled_kernel(program, 1)
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
    monkeypatch.setattr(stencil_compiled, "HOT_ELEMENTS", 0)
    blocker = tmp_path / "a-file"
    blocker.write_text("not a directory")
    program = scaled_sum((F8, F8), op="multiply")
    with dnp.config.set(kernel_cache=False if setting == "off" else str(blocker / "cache")):
        stencil_compiled.compiled_kernel(program, 1)
        stencil_compiled.wait_for_compiles(timeout=120)
        kernel = stencil_compiled.compiled_kernel(program, 1)
    assert kernel is not None and not kernel.stats.cache_hits
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a-file"]
    out = numpy.empty(2)
    kernel(numpy.array([2.0, 3.0]), numpy.array([0.5, -1.0]), out)
    numpy.testing.assert_array_equal(out, 0.2 * (numpy.array([2.0, 3.0]) * [0.5, -1.0]))
