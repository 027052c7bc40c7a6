"""The machine a run was measured on: what the report's header says."""

from __future__ import annotations

import datetime
import os
import platform
import subprocess
from importlib import metadata
from pathlib import Path
from typing import Any

import psutil

PACKAGES = ("numpy", "dask", "distributed", "numexpr", "numba", "matplotlib")


def cpu_model() -> str:
    """The CPU's model name from /proc/cpuinfo (Linux), else what platform reports."""
    cpuinfo = Path("/proc/cpuinfo")
    if cpuinfo.exists():
        for line in cpuinfo.read_text().splitlines():
            if line.startswith("model name"):
                return line.partition(":")[2].strip()
    return platform.processor() or platform.machine()


def versions() -> dict[str, str]:
    found = {"python": platform.python_version()}
    for name in PACKAGES:
        try:
            found[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            found[name] = "not installed"
    return found


def git_commit() -> str:
    """The commit measured (``+dirty`` with uncommitted changes), or ``unknown``."""
    root = Path(__file__).resolve().parents[2]
    try:
        commit = subprocess.run(
            ["git", "-C", str(root), "describe", "--always", "--dirty=+dirty"],
            capture_output=True, text=True, check=True, timeout=10,
        ).stdout.strip()  # fmt: skip
    except (OSError, subprocess.SubprocessError):
        return "unknown"
    return commit


def describe_machine() -> dict[str, Any]:
    """Cores, RAM, CPU, versions, date, and the load average when the run starts."""
    return {
        "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        "cores": os.cpu_count(),
        "ram_bytes": psutil.virtual_memory().total,
        "cpu_model": cpu_model(),
        "platform": platform.platform(),
        "gpu": "none",
        "versions": versions(),
        "commit": git_commit(),
        "load_average_start": list(os.getloadavg()),
    }
