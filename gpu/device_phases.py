"""The phases that run on the GPU machine (and, all but the device's, skip in a dry run):
the offline install, the device, the GPU tests, the suite on CuPy chunks, the examples on
a LocalCUDACluster, the warm benchmark at real sizes (``benchmarks/device``)."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

from gpu.context import CheckContext, phase_result, pytest_result
from gpu.report import PhaseResult

# imported from the install (carried), the repository, or the environment: each must be
REQUIRED: tuple[str, ...] = ("dask_gpunumeric", "dask", "distributed", "dask_cuda", "numexpr")
REQUIRED += ("numpy", "numba", "pytest", "xdist", "pytest_timeout", "hypothesis")
CARRIED = ("dask", "distributed", "dask_cuda", "numexpr", "tornado", "bokeh", "cryptography")
# the image has pytest-benchmark, which warns under xdist (warnings are errors here): off;
# short tracebacks keep the log small (junit XML, in the archive, has them whole). A test
# that hangs costs one worker TEST_TIMEOUT_S, not the phase.
TEST_TIMEOUT_S = 60
PYTEST_OPTIONS: tuple[str, ...] = ("-p", "no:cacheprovider", "-p", "no:benchmark")
PYTEST_OPTIONS += ("--timeout", str(TEST_TIMEOUT_S), "-q", "-rfE", "--tb=short")
# Left out of the suite on CuPy chunks: test files whose result cannot depend on the chunk
# backend, which every CPU run has run already: they import nothing of the package but
# its IR and code emitters, which reach neither dask nor cupy (DESIGN.md section 2;
# tests/unit/test_gpu_report.py checks each file's imports), or test the check itself.
BACKEND_INDEPENDENT = (
    "tests/unit/_ir/test_ufunc_table.py",
    "tests/unit/_ir/test_rolling.py",
    "tests/unit/_codegen/test_cuda_generator.py",
    "tests/unit/_codegen/test_cuda_programs.py",
    "tests/unit/_codegen/test_cuda_ufunc_loops.py",
    "tests/unit/_codegen/test_forms_from_the_tables.py",
    "tests/unit/test_gpu_report.py",
    "tests/unit/test_gpu_wheelhouse.py",
)
STENCIL = ("examples/stencil.py", "--check", "-n", "4000", "-i", "50")
CONJUGATE_GRADIENT = ("examples/conjugate_gradient.py", "-n", "2000")
CG_TOLERANCE = 1e-6


def _read_json(path: Path) -> dict:
    return json.loads(path.read_text()) if path.exists() else {}


def install(ctx: CheckContext, budget: float) -> PhaseResult:
    """The wheelhouse installed offline into a fresh ``--target`` folder, then imported.

    Every module's version and origin are recorded; carried ones must come from the folder.
    """
    wheels = sorted(ctx.wheels.glob("*.whl"))
    if not wheels:
        absent = f"no wheels in {ctx.wheels}: bash gpu/build-wheelhouse builds them (carry .whl)"
        return PhaseResult("install", "failed", absent, budget_s=budget)
    shutil.rmtree(ctx.site, ignore_errors=True)
    pip: list[str | Path] = [ctx.python, "-m", "pip", "install", "--quiet", "--no-index"]
    pip += ["--no-deps", "--no-compile"]
    pip += ["--no-cache-dir", "--disable-pip-version-check", "--target", ctx.site, *wheels]
    results = [ctx.run(pip, budget)]
    probe = ctx.work / "imports.json"
    if results[0].ok:
        results.append(ctx.run([ctx.python, "-m", "gpu.probes", "imports", probe], budget / 2))
    ctx.versions = _read_json(probe)
    required = REQUIRED + (() if ctx.dry_run else ("cupy",))
    missing = [m for m in required if results[-1].ok and not ctx.versions.get(m, {}).get("version")]
    misplaced = [m for m in CARRIED if ctx.versions.get(m, {}).get("from") not in (None, "carried")]
    summary: str | None = None
    if missing or misplaced:
        summary = f"not importable: {missing}; not from the wheelhouse: {misplaced}"
    elif results[-1].ok:
        summary = f"{len(wheels)} wheels installed from {ctx.wheels.name}/; every module imports"
    return phase_result(
        "install", results, budget, summary=summary, failed=bool(missing or misplaced)
    )


def device(ctx: CheckContext, budget: float) -> PhaseResult:
    """nvidia-smi (in the log) and the device CuPy sees, with a kernel run on it."""
    results = []
    if shutil.which("nvidia-smi"):
        results.append(ctx.run(["nvidia-smi"], budget / 3))
    probe = ctx.work / "device.json"
    results.append(ctx.run([ctx.python, "-m", "gpu.probes", "device", probe], budget))
    ctx.device = _read_json(probe)
    if not ctx.device.get("available"):
        reason = ctx.device.get("reason", "the probe wrote nothing")
        ctx.device.setdefault("reason", reason)
        if ctx.dry_run:
            summary = f"no device: {reason}"
            return phase_result("device", results, budget, summary=summary, skipped=True)
        return phase_result("device", results, budget, summary=f"no device: {reason}", failed=True)
    name, check = ctx.device.get("name"), ctx.device.get("kernel check")
    summary = f"{name}, {ctx.device.get('memory (GiB)')} GiB; kernel check {check}"
    return phase_result("device", results, budget, summary=summary, failed=check != "ok")


def suite_selection(root: Path) -> list[str]:
    """pytest's arguments for the suite on CuPy chunks: ``tests`` but ``tests/gpu`` (its own
    phase) and BACKEND_INDEPENDENT; a path of it that no longer exists is an error (the
    dry run's collection finds it in CI)."""
    missing = [path for path in BACKEND_INDEPENDENT if not (root / path).exists()]
    if missing:
        raise FileNotFoundError(f"BACKEND_INDEPENDENT names what is not there: {missing}")
    ignored = ["tests/gpu", *BACKEND_INDEPENDENT]
    return [*(f"--ignore={path}" for path in ignored), "tests"]


def gpu_tests(ctx: CheckContext, budget: float) -> PhaseResult:
    """``pytest tests/gpu -n WORKERS``: the tests written for the CuPy path."""
    junit = ctx.work / "junit-gpu-tests.xml"
    command: list[str | Path] = [ctx.python, "-m", "pytest", "tests/gpu", "--backends", "cupy"]
    command += ["-n", str(ctx.workers), *PYTEST_OPTIONS]
    return pytest_result(
        "gpu-tests", ctx.run([*command, "--junitxml", junit], budget), junit, budget
    )


def suite(ctx: CheckContext, budget: float) -> PhaseResult:
    """The suite on CuPy chunks, ``-n WORKERS``, but tests/gpu and BACKEND_INDEPENDENT.

    tests/gpu ran in its own phase; the backend-independent tests every CPU run runs."""
    junit = ctx.work / "junit-suite.xml"
    command: list[str | Path] = [ctx.python, "-m", "pytest", "--backends", "cupy"]
    command += ["-n", str(ctx.workers)]
    command += [*PYTEST_OPTIONS, "--junitxml", junit, *suite_selection(ctx.root)]
    return pytest_result("suite", ctx.run(command, budget), junit, budget)


def _kept_lines(output: str) -> list[str]:
    keep = ("N=", "NumPy checksum", "dgn-run:", "max abs difference", "Error", "differs")
    return [line for line in output.splitlines() if line.startswith(keep) or "Error" in line]


def examples(ctx: CheckContext, budget: float) -> PhaseResult:
    """The stencil and CG examples on ``dgn-run --gpus 1`` (LocalCUDACluster, CuPy chunks).

    The stencil's checksum must equal NumPy's, CG's answer be within 1e-6 of NumPy's.
    """
    launcher = [ctx.python, "-m", "dask_gpunumeric.cli", "--gpus", "1", "--verbose"]
    # One pool for both: the first report gave 37 s for the two, not how they split (the
    # stencil also runs NumPy's 50 iterations for --check), so neither is held to half.
    stencil = ctx.run([*launcher, *STENCIL], budget * 2 / 3)
    cg = ctx.run([*launcher, *CONJUGATE_GRADIENT], max(1.0, budget - stencil.seconds))
    problems = []
    if stencil.ok and "backend=cupy" not in stencil.output:
        problems.append("the stencil did not run on the cupy backend")
    difference = re.search(r"max abs difference vs NumPy: (\S+)", cg.output)
    if cg.ok and "backend: cupy" not in cg.output:
        problems.append("CG did not run on the cupy backend")
    if cg.ok and (difference is None or not float(difference.group(1)) <= CG_TOLERANCE):
        problems.append(f"CG differs from NumPy by {difference and difference.group(1)}")
    lines = [
        "# stencil",
        *_kept_lines(stencil.output),
        "# conjugate gradient",
        *_kept_lines(cg.output),
    ]
    summary = "; ".join(problems) if problems else None
    return phase_result(
        "examples",
        [stencil, cg],
        budget,
        summary=summary,
        failed=bool(problems),
        details={"lines": lines},
    )


BENCH_REPORT_S = 15  # of the bench's budget: for its own report, after its last lane
BENCH_LANE_S = 5  # seconds of warm runs per lane and size (up to 5 runs)
BENCH_EXIT = {1: "a lane failed or differs from hand-written CuPy",
              2: "its budget cut it short (see Not run)", 3: "CuPy sees no device"}  # fmt: skip


def bench(ctx: CheckContext, budget: float) -> PhaseResult:
    """``python -m benchmarks.device``: warm figures beside hand-written CuPy and NumPy.

    At real sizes, with the copy-bandwidth floor; a dry run: toy sizes on the simulated
    device."""
    out = ctx.work / "bench"
    own_budget = max(1.0, min(budget, ctx.remaining()) - BENCH_REPORT_S)
    command: list[str | Path] = [ctx.python, "-m", "benchmarks.device", "--out", out]
    command += ["--budget", f"{own_budget:.0f}", "--lane-budget", str(BENCH_LANE_S)]
    if ctx.dry_run:
        command += ["--sizes", "toy", "--device", "simulated", "--repeats", "1"]
    result = ctx.run(command, budget)
    markdown = out / "device-bench.md"
    details = {"markdown": markdown.read_text()} if markdown.exists() else {}
    summary = BENCH_EXIT.get(result.exit_code or 0) if not result.timed_out else None
    return phase_result("bench", [result], budget, summary=summary, details=details)
