"""A first run of the compiled loops (``_backends/compiled_loops.py``): with a fresh disk
cache the compile starts at the first large block (the blocks before it, and a run without
a disk cache, take the numexpr route), results equal NumPy's bit for bit either way; of two processes reaching a program
together one compiles and the other loads what it wrote (a compile waits on the machine's
lock, a load does not); and a Numba that fails to import, whatever it raises, turns the
loops off with one warning naming the cause."""

from __future__ import annotations

import builtins
import fcntl
import subprocess
import sys
import textwrap
import threading
from pathlib import Path
from typing import Any

import numpy
import pytest

import dask_gpunumeric as dnp
from dask_gpunumeric._backends import compiled_loops, get_backend
from dask_gpunumeric._codegen.numba_source import kernel_source
from dask_gpunumeric._ir.scalar_program import ScalarProgram
from tests.unit._backends.test_compiled_loops import PROGRAMS, sweeps
from tests.unit._codegen.test_numba_source import F8, scaled_sum

pytest.importorskip("numba")


@pytest.fixture
def nothing_compiled(monkeypatch: pytest.MonkeyPatch) -> None:
    """A process that has compiled, started and warned about nothing yet."""
    monkeypatch.setattr(compiled_loops, "_kernels", {None: None})
    monkeypatch.setattr(compiled_loops, "_sweepers", {None: None})
    monkeypatch.setattr(compiled_loops, "_evaluated", {})
    monkeypatch.setattr(compiled_loops, "_compiling", [])
    monkeypatch.setattr(compiled_loops, "_warned", set())


@pytest.fixture
def sweeps_returned(monkeypatch: pytest.MonkeyPatch) -> list[bool]:
    """Whether each ask for a block's compiled sweeps got them (True) or the numexpr route."""
    returned: list[bool] = []
    original = compiled_loops.compiled_sweeps

    def recorded(program: ScalarProgram, elements: int) -> Any:
        kernel = original(program, elements)
        returned.append(kernel is not None)
        return kernel

    monkeypatch.setattr(compiled_loops, "compiled_sweeps", recorded)
    return returned


@pytest.mark.parametrize("cache", ["fresh", "off"])
def test_a_first_run_compiles_at_its_first_large_block_with_a_disk_cache(
    cache: str,
    backend: str,
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    nothing_compiled: None,
    sweeps_returned: list[bool],
) -> None:
    monkeypatch.setattr(compiled_loops, "MIN_ELEMENTS", 1)  # every block of the test is large
    monkeypatch.setattr(compiled_loops, "HOT_ELEMENTS", 1 << 60)  # and none ever hot
    with numpy.errstate(all="ignore"):
        expected = sweeps(numpy, PROGRAMS["seed"], 9)
    with dnp.config.set(kernel_cache=str(tmp_path / "kernels") if cache == "fresh" else False):
        first = sweeps(dnp, PROGRAMS["seed"], 9).compute()
        compiled_loops.wait_for_compiles(timeout=120)
        in_first_run = list(sweeps_returned)
        second = sweeps(dnp, PROGRAMS["seed"], 9).compute()
        sources = [s for s in compiled_loops._evaluated if s is not None]
        paths = [compiled_loops.source_path(s) for s in sources]
    numpy.testing.assert_array_equal(first, expected, strict=True)
    numpy.testing.assert_array_equal(second, expected, strict=True)
    if get_backend(backend).chunk_type is not numpy.ndarray:
        assert not sweeps_returned  # a device sweeps itself
        return
    assert in_first_run and in_first_run[0] is False  # the first block: numexpr, compiling
    assert len(sources) == 1  # the loop's one program
    if cache == "off":  # nothing for later runs: waits to be hot, which it never is
        assert not compiled_loops._compiling and not any(sweeps_returned)
        assert not (tmp_path / "kernels").exists()
        return
    assert len(compiled_loops._compiling) == 1  # one compile, at the first block
    assert all(sweeps_returned[len(in_first_run) :])  # the second run: compiled, every block
    (path,) = paths
    assert path is not None and path.parent.parent == tmp_path / "kernels"
    assert path.read_text() == sources[0]
    assert list(path.parent.glob("__pycache__/*sweeps*.nbi"))  # Numba's, for later runs


def test_a_compile_waits_for_another_process_holding_the_lock_a_load_does_not(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, nothing_compiled: None
) -> None:
    program = scaled_sum((F8, F8), op="subtract")
    with dnp.config.set(kernel_cache=str(tmp_path)):
        source = kernel_source(program)
        assert source is not None
        path = compiled_loops.source_path(source)
        assert path is not None
        path.parent.mkdir(parents=True)
        with open(path.with_suffix(".lock"), "a") as other:  # another process compiling
            fcntl.flock(other, fcntl.LOCK_EX)  # (flock: per open file, so per process too)
            assert compiled_loops.compiled_kernel(program, compiled_loops.MIN_ELEMENTS) is None
            (thread,) = compiled_loops._compiling
            thread.join(0.5)
            assert thread.is_alive()  # cannot finish: the lock is held
            assert compiled_loops.compiled_kernel(program, 1) is None  # numexpr meanwhile
        compiled_loops.wait_for_compiles(timeout=120)  # closing the file released it
        kernel: Any = compiled_loops.compiled_kernel(program, 1)  # a Numba dispatcher
        assert kernel is not None and not kernel.stats.cache_hits  # compiled here
        monkeypatch.setattr(compiled_loops, "_kernels", {None: None})  # a later process
        monkeypatch.setattr(compiled_loops, "_compiling", [])
        with open(path.with_suffix(".lock"), "a") as other:  # a third compiling: no wait
            fcntl.flock(other, fcntl.LOCK_EX)
            assert compiled_loops.compiled_kernel(program, 1) is None  # cached: loading
            compiled_loops.wait_for_compiles(timeout=120)
            loaded: Any = compiled_loops.compiled_kernel(program, 1)
    assert loaded is not None and sum(loaded.stats.cache_hits.values()) == 2
    for compiled in (kernel, loaded):
        out = numpy.empty(2)
        compiled(numpy.array([1.0, -0.0]), numpy.array([0.5, 0.0]), out)
        numpy.testing.assert_array_equal(out, 0.2 * numpy.array([0.5, -0.0]), strict=True)


def failing_numba_import(monkeypatch: pytest.MonkeyPatch, error: Exception) -> list[int]:
    """Make ``import numba`` raise ``error``; the list counts the attempts."""
    attempts: list[int] = []
    real_import = builtins.__import__

    def importing(name: str, *args: Any, **kwargs: Any) -> Any:
        if name == "numba" or name.startswith("numba."):
            attempts.append(1)
            raise error
        return real_import(name, *args, **kwargs)

    monkeypatch.delitem(sys.modules, "numba", raising=False)
    monkeypatch.setattr(builtins, "__import__", importing)
    return attempts


@pytest.mark.parametrize(
    "error",
    [
        AttributeError("module 'coverage' has no attribute 'types'"),
        ImportError("libllvmlite.so: cannot open shared object file"),
        OSError("no space left on device"),
    ],
    ids=lambda error: type(error).__name__,
)
def test_a_failed_numba_import_warns_once_naming_the_cause(
    error: Exception, monkeypatch: pytest.MonkeyPatch, nothing_compiled: None
) -> None:
    attempts = failing_numba_import(monkeypatch, error)
    first, second = scaled_sum((F8, F8)), scaled_sum((F8, F8), op="multiply")
    with (
        dnp.config.set(kernel_cache=False),
        pytest.warns(compiled_loops.CompiledLoopsWarning) as caught,
    ):
        for program in (first, second):  # two programs, two compiles, one warning
            source = kernel_source(program)
            assert source is not None
            compiled_loops._compile(source, 2, None)  # the compile thread's body, here
            assert compiled_loops.compiled_kernel(program, 1 << 30) is None  # numexpr, not None
            assert compiled_loops.compiled_sweeps(program, 1 << 30) is None
    assert len(attempts) >= 2  # each compile tried the import: the warning is what is once
    (warning,) = caught
    message = str(warning.message)
    assert f"importing numba failed ({type(error).__name__}: {error})" in message
    assert "numexpr" in message


def test_a_coverage_module_shadowing_the_real_one_is_reported(tmp_path: Path) -> None:
    """The issue's case, for real: a ``coverage.py`` earlier on ``sys.path``."""
    (tmp_path / "coverage.py").write_text("# not the coverage package\n")
    script = textwrap.dedent(
        """
        import warnings
        warnings.simplefilter("always")
        from dask_gpunumeric._backends import compiled_loops
        print("numba:", compiled_loops.import_numba(), compiled_loops.import_numba())
        """
    )
    root = Path(__file__).resolve().parents[3]
    done = subprocess.run(
        [sys.executable, "-c", script],
        cwd=tmp_path,
        env={"PYTHONPATH": f"{tmp_path}:{root}", "PATH": ""},
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    assert "numba: None None" in done.stdout
    assert done.stderr.count("CompiledLoopsWarning") == 1, done.stderr
    assert "importing numba failed (AttributeError: module 'coverage'" in done.stderr


def test_threads_asking_together_start_one_compile(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, nothing_compiled: None
) -> None:
    program = scaled_sum((F8, F8), op="divide")
    barrier = threading.Barrier(4)

    def ask() -> None:
        barrier.wait()
        compiled_loops.compiled_kernel(program, compiled_loops.MIN_ELEMENTS)

    with dnp.config.set(kernel_cache=str(tmp_path)):
        askers = [threading.Thread(target=ask) for _ in range(4)]
        for asker in askers:
            asker.start()
        for asker in askers:
            asker.join()
        compiled_loops.wait_for_compiles(timeout=120)
        assert len(compiled_loops._compiling) == 1
        assert compiled_loops.compiled_kernel(program, 1) is not None


COMPILING_PROCESS = """
import sys, time
from pathlib import Path
import numpy
import dask_gpunumeric as dnp
from dask_gpunumeric._backends import compiled_loops
from tests.unit._codegen.test_numba_source import F8, scaled_sum

cache, name = Path(sys.argv[1]), sys.argv[2]
(cache.parent / f"ready-{name}").touch()
while len(list(cache.parent.glob("ready-*"))) < 2:  # both processes reach it together
    time.sleep(0.01)
program = scaled_sum((F8, F8), op="add")
with dnp.config.set(kernel_cache=str(cache)):
    assert compiled_loops.compiled_kernel(program, compiled_loops.MIN_ELEMENTS) is None
    compiled_loops.wait_for_compiles(timeout=300)
    kernel = compiled_loops.compiled_kernel(program, 1)
    sweeps = compiled_loops.compiled_sweeps(program, 1)
out = numpy.empty(2)
kernel(numpy.array([1.0, 2.0]), numpy.array([3.0, -0.5]), out)
assert out.tolist() == (0.2 * numpy.array([4.0, 1.5])).tolist()
hits = [sum(f.stats.cache_hits.values()) for f in (kernel, sweeps)]
print("hits", *hits)
"""


def test_two_processes_reaching_a_program_together_compile_it_once(tmp_path: Path) -> None:
    root = Path(__file__).resolve().parents[3]
    processes = [
        subprocess.Popen(
            [sys.executable, "-c", COMPILING_PROCESS, str(tmp_path / "kernels"), name],
            cwd=root,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for name in ("first", "second")
    ]
    outputs = [process.communicate(timeout=300) for process in processes]
    for process, (_, stderr) in zip(processes, outputs, strict=True):
        assert process.returncode == 0, stderr
    hits = sorted(stdout.split("hits")[1].split() for stdout, _ in outputs)
    # One compiled both loops (no hits), the other loaded both signatures of ``kernel``
    # and ``sweeps`` from the cache the first wrote, after waiting on its lock.
    assert hits == [["0", "0"], ["2", "1"]], outputs
