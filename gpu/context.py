"""What every phase of the check shares: where things are, the interpreter checked, the
time left, and how a phase turns its commands' results into a PhaseResult."""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from gpu.junit import JunitCounts, read_junit
from gpu.report import PhaseResult
from gpu.runner import CommandResult, first_error_line, run_command

RESERVE_S = 15.0  # kept back from every budget for the report and the archive
TARGET_PYTHON = "3.12"


@dataclass
class CheckContext:
    """``python`` is the interpreter checked (the image's python3; in a dry run the
    stand-in venv's), ``site`` the folder the wheelhouse is installed into (``--target``),
    ``wheels`` the wheelhouse installed from."""

    root: Path
    work: Path
    log: Path
    dry_run: bool
    python: str
    site: Path
    wheels: Path
    workers: int
    deadline: float
    device: dict[str, Any] = field(default_factory=dict)
    versions: dict[str, Any] = field(default_factory=dict)

    @classmethod
    def create(
        cls, root: Path, log: Path, dry_run: bool, workers: int, seconds: float
    ) -> CheckContext:
        state = root / ".gpu-check"
        work = state / "work"
        work.mkdir(parents=True, exist_ok=True)
        python, wheels = sys.executable, root / ".whl"
        if dry_run:
            python = str(state / "venv" / "bin" / "python")
            host = f"{sys.version_info.major}.{sys.version_info.minor}"
            if host != TARGET_PYTHON:
                wheels = state / f"wheels-cp{host.replace('.', '')}"
        return cls(
            root=root,
            work=work,
            log=log,
            dry_run=dry_run,
            python=python,
            site=state / "site",
            wheels=wheels,
            workers=workers,
            deadline=time.monotonic() + seconds,
        )

    def relative(self, path: str | Path) -> str:
        """``path`` from the repository root (the commands' folder), for shorter logs."""
        text = str(path)
        return text.removeprefix(f"{self.root}{os.sep}") if os.path.isabs(text) else text

    def remaining(self) -> float:
        return self.deadline - time.monotonic() - RESERVE_S

    def env(self) -> dict[str, str]:
        """The environment of every command: the carried wheels first, then the
        repository, on PYTHONPATH; no user site; the backend left to the check."""
        env = {k: v for k, v in os.environ.items() if k != "DASK_GPUNUMERIC__BACKEND"}
        env.update(
            PYTHONPATH=f"{self.site}{os.pathsep}{self.root}",
            PYTHONNOUSERSITE="1",
            PYTHONUNBUFFERED="1",
            GPU_CHECK_SITE=str(self.site),
            GPU_CHECK_ROOT=str(self.root),
        )
        return env

    def run(self, args: Sequence[str | Path], budget: float) -> CommandResult:
        """``args`` within ``budget`` seconds and the check's deadline."""
        timeout = min(budget, self.remaining())
        args = [self.relative(arg) for arg in args]
        return run_command(
            [str(a) for a in args], timeout=timeout, log=self.log, cwd=self.root, env=self.env()
        )


def phase_result(
    name: str,
    results: Sequence[CommandResult],
    budget: float,
    *,
    summary: str | None = None,
    failed: bool = False,
    skipped: bool = False,
    tests: JunitCounts | None = None,
    details: dict[str, Any] | None = None,
) -> PhaseResult:
    """The phase's status from its commands (``failed``, ``skipped``: the phase's verdict);
    its summary, unless given, the first error line of the first command that failed."""
    status = "passed"
    if any(r.timed_out for r in results):
        status = "timed out"
    elif failed or not all(r.ok for r in results):
        status = "failed"
    elif skipped:
        status = "skipped"
    if summary is None:
        bad = next((r for r in results if not r.ok), None)
        summary = "ok" if bad is None else first_error_line(bad.output)
        if bad is not None and bad.timed_out:
            summary = f"stopped at its budget after {bad.seconds:.0f} s; {summary}"
    commands = [
        {
            "command": r.command,
            "exit_code": r.exit_code,
            "seconds": round(r.seconds, 1),
            "timed_out": r.timed_out,
        }
        for r in results
    ]
    seconds = round(sum(r.seconds for r in results), 1)
    return PhaseResult(name, status, summary, seconds, budget, commands, tests, details or {})


def pytest_result(name: str, result: CommandResult, junit: Path, budget: float) -> PhaseResult:
    """A pytest phase: counts and failures from its junit XML (written even when it was
    stopped at its budget), the exit status for the rest (4: usage, 5: nothing ran).
    Every test skipped is a failure: on the GPU machine nothing may skip for want of one."""
    tests = read_junit(junit) if junit.exists() else None
    everything_skipped = tests is not None and tests.skipped == tests.tests
    if tests is None:
        summary = (
            f"no junit XML (pytest exit {result.exit_code}); {first_error_line(result.output)}"
        )
    elif tests.tests == 0:
        summary = f"no test ran (pytest exit {result.exit_code})"
    elif everything_skipped:
        summary = f"every test skipped ({tests.skipped}): {first_error_line(result.output)}"
    else:
        summary = f"{tests.line()} in {tests.seconds:.0f} s (pytest exit {result.exit_code})"
    if result.timed_out:
        summary = f"stopped at its budget after {result.seconds:.0f} s; {summary}"
    failed = tests is None or everything_skipped
    return phase_result(name, [result], budget, summary=summary, failed=failed, tests=tests)
