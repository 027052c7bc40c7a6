"""``gpunumeric.backend: auto``: CuPy chunks when the workers' CuPy sees a device, NumPy
chunks otherwise.

The *workers* are asked (``client.run``), not this process: a Jupyter client on a login
node has no GPU while its workers do. Without a cluster (``threads`` mode, or before the
embedded cluster starts, whose workers are this machine) the probe runs here. Answers
are cached per cluster (scheduler address).
"""

from __future__ import annotations

from collections.abc import Callable

from .._runtime import config, execution
from .._runtime.cluster import active_client
from . import cupy_backend

LOCAL = "this process"


class _Probe:
    """The probe function (a test replaces it) and the answers so far, per cluster."""

    function: Callable[[], bool] = cupy_backend.device_available
    answers: dict[str, tuple[str, str]] = {}


def resolve_auto() -> str:
    """The backend ``auto`` stands for on the current cluster."""
    return auto_choice()[0]


def auto_choice() -> tuple[str, str]:
    """``(backend name, how it was chosen)`` for ``auto`` on the current cluster."""
    client = active_client() if config.get("scheduler") == "distributed" else None
    where = LOCAL if client is None else client.scheduler.address
    if where not in _Probe.answers:
        _Probe.answers[where] = _ask(where)
    return _Probe.answers[where]


def _ask(where: str) -> tuple[str, str]:
    if where == LOCAL:
        seen = {LOCAL: _Probe.function()}
    else:
        seen = execution.run_on_workers(_Probe.function) or {}
    devices = sum(bool(answer) for answer in seen.values())
    name = "cupy" if seen and devices == len(seen) else "numpy"
    if where == LOCAL:
        return (
            name,
            f"auto: no cluster yet, probed here: CuPy sees {'a' if devices else 'no'} device",
        )
    return name, f"auto: CuPy sees a device on {devices} of {len(seen)} worker(s) of {where}"


def forget_answers() -> None:
    """Drop the cached answers (after the probe or the cluster changes)."""
    _Probe.answers.clear()
