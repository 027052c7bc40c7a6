"""The phases of a dry run (``gpu/check --dry-run``, no device): the stand-in for the GPU
image, the wheelhouse and its checks, a short test run through the offline install, and
the suite's collection on the cupy backend (the bench phase, shared with the device, runs
at toy sizes on the simulated device)."""

from __future__ import annotations

import os
import re
import shutil
import sys
from pathlib import Path

from gpu.context import TARGET_PYTHON, CheckContext, phase_result, pytest_result
from gpu.device_phases import BACKEND_INDEPENDENT, suite_selection
from gpu.lists import DRY_VENV_TXT
from gpu.report import PhaseResult
from gpu.wheelhouse import target_flags

# a few files on the numpy backend through the offline install: dask's and distributed's
# internals we rely on, chunked parity, and a real cluster started by dgn-run (bokeh's
# profile, TLS certificates from cryptography: carried wheels)
SMOKE_TESTS = (
    "tests/unit/_runtime/test_distributed_internals.py",
    "tests/parity/test_reductions.py",
    "tests/cluster/test_launcher.py::test_stencil_on_the_embedded_cluster_with_every_diagnostic",
    "tests/cluster/test_tls.py",
)


def image_venv(ctx: CheckContext, budget: float) -> PhaseResult:
    """A fresh venv holding only the image's packages we use (gpu/dry-venv.txt)."""
    venv = ctx.root / ".gpu-check" / "venv"
    shutil.rmtree(venv, ignore_errors=True)
    results = [ctx.run([sys.executable, "-m", "venv", venv], budget)]
    if results[0].ok:
        pip = [ctx.python, "-m", "pip", "install", "--quiet", "--disable-pip-version-check"]
        results.append(ctx.run([*pip, "-r", DRY_VENV_TXT], budget))
    return phase_result("image-venv", results, budget)


def wheelhouse(ctx: CheckContext, budget: float) -> PhaseResult:
    """``.whl/`` for CPython 3.12 (what travels), and the same pins for this Python."""
    build: list[str | Path] = [ctx.python, "-m", "gpu.wheelhouse", "--no-check"]
    results = [ctx.run(build, budget)]
    if results[0].ok and ctx.wheels != ctx.root / ".whl":
        host = f"{sys.version_info.major}.{sys.version_info.minor}"
        command = [*build, "--dest", ctx.wheels, "--python-version", host]
        results.append(ctx.run(command, budget))
    lines = [line for line in results[0].output.splitlines() if "MiB" in line]
    lines = [line.replace(f"{ctx.root}{os.sep}", "") for line in lines]
    summary = "; ".join(lines) if results[-1].ok else None
    return phase_result("wheelhouse", results, budget, summary=summary, details={"lines": lines})


def coverage(ctx: CheckContext, budget: float) -> PhaseResult:
    """Every requirement carried, on the image or excused (gpu/requirement_coverage.py)."""
    result = ctx.run([ctx.python, "-m", "gpu.wheelhouse", "--check-only"], budget)
    problems = [line for line in result.output.splitlines() if line.startswith("coverage: ")]
    summary = "every requirement is carried, on the image or excused" if result.ok else None
    return phase_result("coverage", [result], budget, summary=summary, details={"lines": problems})


def resolve(ctx: CheckContext, budget: float) -> PhaseResult:
    """pip resolves the package with its ``gpu-cu13`` extra for CPython 3.12 (PyPI)."""
    result = ctx.run([ctx.python, "-m", "gpu.wheelhouse", "--resolve"], budget)
    wanted = re.compile(r'"(dask|distributed|dask-cuda|cupy-cuda13x|numpy)": "([^"]+)"')
    found = dict(wanted.findall(result.output))
    notes = [line for line in result.output.splitlines() if line.startswith("note:")]
    summary = ", ".join(f"{k} {v}" for k, v in found.items()) if result.ok else None
    return phase_result(
        "resolve-gpu-cu13", [result], budget, summary=summary, details={"lines": notes}
    )


def target_tags(ctx: CheckContext, budget: float) -> PhaseResult:
    """``.whl/`` installs for CPython 3.12 manylinux x86-64 (tags; one version each)."""
    target = ctx.work / "site-cp312"
    shutil.rmtree(target, ignore_errors=True)
    command: list[str | Path] = [ctx.python, "-m", "pip", "install", "--quiet", "--no-index"]
    command += ["--no-deps", "--no-compile", "--disable-pip-version-check", "--target", target]
    command += [*target_flags(TARGET_PYTHON), *sorted((ctx.root / ".whl").glob("*.whl"))]
    return phase_result("install-cp312-tags", [ctx.run(command, budget)], budget)


def smoke(ctx: CheckContext, budget: float) -> PhaseResult:
    """A few test files on the numpy backend with only the stand-in and the install."""
    junit = ctx.work / "junit-smoke.xml"
    options = ["--backends", "numpy", "-n", "2", "-p", "no:cacheprovider", "--timeout", "120"]
    command: list[str | Path] = [ctx.python, "-m", "pytest", *options, "-q", "-rfE"]
    command += ["--junitxml", junit, *SMOKE_TESTS]
    return pytest_result("smoke", ctx.run(command, budget), junit, budget)


def collect(ctx: CheckContext, budget: float) -> PhaseResult:
    """``pytest --backends cupy --collect-only`` of the suite phase's selection.

    ``device_phases.suite_selection``: a path it leaves out that is gone fails it."""
    command = [ctx.python, "-m", "pytest", "--backends", "cupy", "--collect-only", "-qq"]
    command += ["-p", "no:cacheprovider", *suite_selection(ctx.root)]
    result = ctx.run(command, budget)
    # -qq prints "path: count" per file (the log stays short): the total is their sum
    per_file = re.findall(r"^tests/\S+: (\d+)$", result.output, re.MULTILINE)
    total = sum(map(int, per_file))
    summary = (
        f"{total} tests in {len(per_file)} files collected on the cupy backend (the suite "
        f"phase's selection: tests/gpu and {len(BACKEND_INDEPENDENT)} backend-independent "
        "paths left out)"
    )
    return phase_result(
        "collect-cupy", [result], budget, summary=summary if result.ok else None, failed=total == 0
    )
