"""A user's first run against a warm one: the stencil example in fresh processes.

Each pair is two fresh processes of the same command with one kernel cache
(``gpunumeric.kernel-cache``, through ``DASK_GPUNUMERIC__KERNEL_CACHE``) that is empty
before the first: the *first* run compiles what it needs, the *warm* run finds it on disk.
Each row prints the process's wall-clock seconds (import, cluster start, the run, NumPy's
check when asked, shutdown), the CPU seconds of the process and everything it started (the
workers and the scheduler are its children), and the seconds the script timed itself
(build and compute: ``time/iteration`` times the iterations); the ratio is first over warm,
per pair, measured side by side. Both runs of a pair must print the same checksum.

Workloads (``--workloads``): ``readme``, README command 1 (``dgn-run examples/stencil.py
--check -n 500 -i 20``) and ``defaults`` (``dgn-run examples/stencil.py``: N=4000,
I=100). On a loaded machine the wall-clock figures mostly measure the load: the CPU
figures less so.

Run from the repository root::

    python -m benchmarks.first_run                     # both workloads, 2 pairs each
    python -m benchmarks.first_run --workloads defaults --pairs 3
"""

from __future__ import annotations

import argparse
import os
import re
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
WORKLOADS = {
    "readme": ("examples/stencil.py", "--check", "-n", "500", "-i", "20"),
    "defaults": ("examples/stencil.py",),
}
LAUNCHERS = {
    "dgn-run": (sys.executable, "-m", "dask_gpunumeric.cli"),
    "python": (sys.executable,),  # the scheduler the environment says (tests: threads)
}
REPORT = re.compile(
    r"I=(?P<iterations>\d+) checksum=(?P<checksum>\S+) time/iteration=(?P<ms>\S+) ms"
)


@dataclass(frozen=True)
class RunSpec:
    """One process: its wall-clock and CPU seconds (with its children), the seconds the
    script timed itself, and the checksum it printed."""

    wall: float
    cpu: float
    script: float
    checksum: str


@dataclass(frozen=True)
class PairSpec:
    workload: str
    first: RunSpec
    warm: RunSpec

    def ratio(self, field: str) -> float:
        return float(getattr(self.first, field)) / float(getattr(self.warm, field))


def run_once(command: Sequence[str], cache: Path, env: dict[str, str] | None = None) -> RunSpec:
    """``command`` in a fresh process with ``cache`` as its kernel cache."""
    environment = {**os.environ, **(env or {}), "DASK_GPUNUMERIC__KERNEL_CACHE": str(cache)}
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(
        command, cwd=ROOT, env=environment, capture_output=True, text=True, check=False
    )
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(command)} failed:\n{done.stdout}\n{done.stderr}")
    found = REPORT.search(done.stdout)
    if found is None:
        raise RuntimeError(f"no checksum line in the output of {' '.join(command)}:\n{done.stdout}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    script = float(found["ms"]) * int(found["iterations"]) / 1e3
    return RunSpec(wall, cpu, script, found["checksum"])


def measure_pair(
    workload: Sequence[str], launcher: Sequence[str], env: dict[str, str] | None = None
) -> tuple[RunSpec, RunSpec]:
    """A first run with an empty kernel cache, then a warm run with the cache it left."""
    with tempfile.TemporaryDirectory(prefix="dgn-first-run-") as directory:
        cache = Path(directory) / "kernels"
        command = [*launcher, *workload]
        first = run_once(command, cache, env)
        warm = run_once(command, cache, env)
    if first.checksum != warm.checksum:
        raise RuntimeError(f"checksums differ: first {first.checksum}, warm {warm.checksum}")
    return first, warm


def measure_all(
    workloads: Sequence[str],
    pairs: int,
    launcher: str = "dgn-run",
    env: dict[str, str] | None = None,
    overrides: Mapping[str, Sequence[str]] | None = None,
) -> list[PairSpec]:
    """``pairs`` pairs of each workload, in turn (a pair's two runs side by side)."""
    commands = {**WORKLOADS, **(overrides or {})}
    return [
        PairSpec(name, *measure_pair(commands[name], LAUNCHERS[launcher], env))
        for _ in range(pairs)
        for name in workloads
    ]


def report(specs: Sequence[PairSpec]) -> str:
    lines = [
        f"{'workload':<9} {'run':<6} {'wall s':>7} {'cpu s':>7} {'script s':>9}  checksum",
    ]
    for spec in specs:
        for label, run in (("first", spec.first), ("warm", spec.warm)):
            lines.append(
                f"{spec.workload:<9} {label:<6} {run.wall:7.2f} {run.cpu:7.2f} "
                f"{run.script:9.2f}  {run.checksum}"
            )
        lines.append(
            f"{spec.workload:<9} {'ratio':<6} {spec.ratio('wall'):7.2f} {spec.ratio('cpu'):7.2f} "
            f"{spec.ratio('script'):9.2f}  first/warm"
        )
    for name in dict.fromkeys(spec.workload for spec in specs):
        mine = [spec for spec in specs if spec.workload == name]
        medians = [
            statistics.median(spec.ratio(f) for spec in mine) for f in ("wall", "cpu", "script")
        ]
        lines.append(
            f"{name}: median first/warm over {len(mine)} pair(s): wall {medians[0]:.2f}, "
            f"cpu {medians[1]:.2f}, script {medians[2]:.2f}"
        )
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--workloads", default="readme,defaults", help="readme, defaults")
    parser.add_argument("--pairs", type=int, default=2, help="first/warm pairs per workload")
    parser.add_argument("--launcher", choices=sorted(LAUNCHERS), default="dgn-run")
    args = parser.parse_args(argv)
    names = [name for name in args.workloads.split(",") if name]
    unknown = sorted(set(names) - set(WORKLOADS))
    if unknown:
        parser.error(f"unknown workloads {unknown}; choose from {sorted(WORKLOADS)}")
    print(f"{os.cpu_count()} cores; launcher {args.launcher}", flush=True)
    print(report(measure_all(names, args.pairs, args.launcher)))


if __name__ == "__main__":
    main()
