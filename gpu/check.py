"""``bash gpu/check``: the GPU check, one command on a bare, offline GPU machine.

    bash gpu/check                  # there, with .whl carried: every phase, budgets 495 s
    bash gpu/check suite examples   # some phases again (after the install, which always runs)
    bash gpu/check --dry-run        # here, no device: everything but the device (CI runs it)
    bash gpu/check --list           # the phases, their budgets, where they run

Each phase has a time budget (``--budget suite=300`` changes one) and the whole check a
deadline (``--deadline``, default 540 s: a device command may run 600), and each records
its result even when it fails or runs out of time. The report, ``gpu-results.md`` and
``gpu-results.json``, is rewritten after every phase into ``$OUT`` (the device tool's
folder) when set, else ``--out``, else ``.gpu-check/out``; beside it ``gpu-check.log``
(every command's output) and ``gpu-check-files.tar.gz`` (junit XML, probes, benchmarks).
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import shutil
import subprocess
import sys
import tarfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from gpu import device_phases, dry_phases
from gpu.context import CheckContext
from gpu.lists import ROOT
from gpu.report import PhaseResult, document, markdown, write

DEVICE, DRY = frozenset({"device"}), frozenset({"dry"})
BOTH = DEVICE | DRY
DEADLINE_S = {"device": 540.0, "dry": 900.0}
LOG_LIMIT = 15 << 20


@dataclass(frozen=True)
class PhaseSpec:
    """A phase: what runs it, its budget in seconds, the modes it runs in."""

    name: str
    run: Callable[[CheckContext, float], PhaseResult]
    budget_s: float
    modes: frozenset[str]


# In order. The device's budgets (sum 495 s, within the 540 s deadline with the 15 s each
# phase keeps back) come from the first H100 report (docs/gpu-results.md; docs/gpu.md
# says how): install 8 s, device 2 s, tests/gpu 56 s serial, 5,668 suite tests in 215 s
# on 8 workers (0.30 worker-seconds a test), examples 37 s.
phase_table = (
    PhaseSpec("image-venv", dry_phases.image_venv, 240, DRY),
    PhaseSpec("wheelhouse", dry_phases.wheelhouse, 120, DRY),
    PhaseSpec("coverage", dry_phases.coverage, 30, DRY),
    PhaseSpec("resolve-gpu-cu13", dry_phases.resolve, 90, DRY),
    PhaseSpec("install-cp312-tags", dry_phases.target_tags, 60, DRY),
    PhaseSpec("install", device_phases.install, 20, BOTH),
    PhaseSpec("device", device_phases.device, 10, BOTH),
    PhaseSpec("smoke", dry_phases.smoke, 150, DRY),
    PhaseSpec("collect-cupy", dry_phases.collect, 90, DRY),
    PhaseSpec("gpu-tests", device_phases.gpu_tests, 40, DEVICE),
    PhaseSpec("suite", device_phases.suite, 255, DEVICE),
    PhaseSpec("examples", device_phases.examples, 45, DEVICE),
    PhaseSpec("bench", device_phases.bench, 125, BOTH),
)


def chosen_phases(names: Sequence[str], dry_run: bool) -> list[PhaseSpec]:
    """The phases to run or report, in table order: those of the mode (all, or those
    named, the install included); in a dry run the device's too, to be reported skipped."""
    wanted = set(names) | ({"install"} if names else set())
    mode = "dry" if dry_run else "device"
    return [
        spec
        for spec in phase_table
        if (not names or spec.name in wanted) and (mode in spec.modes or dry_run)
    ]


def source_commit(root: Path) -> tuple[str, str]:
    """The commit checked and how it is known: $GPU_CHECK_COMMIT, git, or the one
    gpu/build-wheelhouse recorded in .whl/SOURCE.json (the GPU machine has no .git)."""
    if os.environ.get("GPU_CHECK_COMMIT"):
        return os.environ["GPU_CHECK_COMMIT"], "GPU_CHECK_COMMIT"
    try:
        done = subprocess.run(
            ["git", "-C", str(root), "describe", "--always", "--dirty=+dirty", "--abbrev=12"],
            capture_output=True,
            text=True,
            timeout=10,
        )
        if done.returncode == 0:
            return done.stdout.strip(), "git"
    except (OSError, subprocess.SubprocessError):
        pass
    source = root / ".whl" / "SOURCE.json"
    if source.exists():
        recorded = json.loads(source.read_text())
        return recorded["commit"], f"recorded by gpu/build-wheelhouse at {recorded['built']}"
    return "unknown", "no .git and no .whl/SOURCE.json"


def host() -> dict[str, Any]:
    pages = os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    return {
        "cores": os.cpu_count(),
        "memory (GiB)": round(pages / 2**30),
        "python": platform.python_version(),
        "platform": platform.platform(),
    }


def shorten_log(log: Path, limit: int = LOG_LIMIT) -> None:
    """Keep the log under ``limit`` bytes (the device tool returns files up to 16 MiB):
    its first MiB and its end, with a line saying what was cut."""
    size = log.stat().st_size
    if size <= limit:
        return
    data = log.read_bytes()
    head, tail = data[: 1 << 20], data[-(limit - (2 << 20)) :]
    note = f"\n[... {size - len(head) - len(tail)} bytes cut: gpu-check-files.tar.gz has the junit XML ...]\n"
    log.write_bytes(head + note.encode() + tail)


def archive(work: Path, out: Path) -> Path:
    """The work folder's small files (junit XML, probes, benchmarks) as one archive."""
    path = out / "gpu-check-files.tar.gz"
    with tarfile.open(path, "w:gz") as tar:
        for item in sorted(work.rglob("*")):
            if item.is_file() and "site-cp312" not in item.parts and item.stat().st_size < 32 << 20:
                tar.add(item, arcname=str(item.relative_to(work)))
    return path


def skipped(spec: PhaseSpec) -> PhaseResult:
    about = (spec.run.__doc__ or "").strip().splitlines()[0]
    summary = f"skipped: no device (dry run); on the GPU machine: {about}"
    return PhaseResult(spec.name, "skipped", summary, budget_s=spec.budget_s)


def run_phase(spec: PhaseSpec, ctx: CheckContext, budget: float) -> PhaseResult:
    """The phase's result; an error of the check itself is the phase's failure."""
    if ctx.dry_run and "dry" not in spec.modes:
        return skipped(spec)
    try:
        return spec.run(ctx, budget)
    except Exception as error:  # noqa: BLE001 - recorded, and the next phase runs
        return PhaseResult(
            spec.name,
            "failed",
            f"the check failed: {type(error).__name__}: {error}",
            budget_s=budget,
        )


def parse(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="bash gpu/check",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("phases", nargs="*", help="phases to run (default: all of the mode)")
    parser.add_argument("--dry-run", action="store_true", help="no device: what CI runs")
    parser.add_argument(
        "--out", type=Path, help="report folder (default $OUT, else .gpu-check/out)"
    )
    parser.add_argument(
        "--workers",
        type=int,
        default=os.cpu_count() or 2,
        help="pytest -n for tests/gpu and the suite (default: every core)",
    )
    parser.add_argument("--deadline", type=float, help="seconds for the whole check")
    parser.add_argument("--budget", action="append", default=[], metavar="PHASE=SECONDS")
    parser.add_argument("--list", action="store_true", help="print the phases and exit")
    return parser.parse_args(argv)


def budgets(overrides: Sequence[str]) -> dict[str, float]:
    found = {spec.name: spec.budget_s for spec in phase_table}
    for item in overrides:
        name, _, seconds = item.partition("=")
        if name not in found:
            raise SystemExit(f"--budget {item}: no phase {name!r}")
        found[name] = float(seconds)
    return found


def main(argv: Sequence[str] | None = None) -> int:
    args = parse(argv)
    unknown = set(args.phases) - {spec.name for spec in phase_table}
    if unknown:
        raise SystemExit(f"no phase {sorted(unknown)}: bash gpu/check --list names them")
    given = budgets(args.budget)
    if args.list:
        for spec in phase_table:
            where = " and ".join(sorted(spec.modes))
            print(
                f"{spec.name:<20} {given[spec.name]:>5.0f} s  ({where})  {(spec.run.__doc__ or '').splitlines()[0]}"
            )
        return 0
    mode = "dry-run" if args.dry_run else "device"
    out = args.out or Path(os.environ.get("OUT") or ROOT / ".gpu-check" / "out")
    out.mkdir(parents=True, exist_ok=True)
    shutil.rmtree(ROOT / ".gpu-check" / "work", ignore_errors=True)
    log = out / "gpu-check.log"
    log.write_text("")
    deadline = args.deadline or DEADLINE_S["dry" if args.dry_run else "device"]
    ctx = CheckContext.create(ROOT, log, args.dry_run, args.workers, deadline)
    commit, commit_source = source_commit(ROOT)
    start = time.monotonic()
    meta: dict[str, Any] = {
        "mode": mode,
        "command": " ".join(["bash gpu/check", *(sys.argv[1:] if argv is None else argv)]),
        "commit": commit,
        "commit_source": commit_source,
        "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        "host": host(),
        "deadline_s": deadline,
    }
    results: list[PhaseResult] = []
    for spec in chosen_phases(args.phases, args.dry_run):
        print(f"== {spec.name} (budget {given[spec.name]:.0f} s)", flush=True)
        result = run_phase(spec, ctx, given[spec.name])
        print(
            f"== {spec.name}: {result.status} in {result.seconds:.0f} s: {result.summary}",
            flush=True,
        )
        results.append(result)
        meta.update(device=ctx.device, versions=ctx.versions, seconds=time.monotonic() - start)
        report = document(meta, results)
        write(report, out)
    archive(ctx.work, out)
    shorten_log(log)
    print()
    print(markdown(report).split("\n## Failures")[0].split("\n## Versions")[0])
    print(f"report: {out / 'gpu-results.md'} (and .json, gpu-check.log, gpu-check-files.tar.gz)")
    return 0 if report["outcome"] == "passed" else 1


if __name__ == "__main__":
    sys.exit(main())
