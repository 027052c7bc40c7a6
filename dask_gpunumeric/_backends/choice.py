"""``gpunumeric.backend: auto``: CuPy chunks when the workers' CuPy sees a device, NumPy
chunks otherwise.

The *workers* are asked (``client.run``), not this process: a Jupyter client on a login
node has no GPU while its workers do. Without a cluster (``threads`` mode, or before the
embedded cluster starts, whose workers are this machine) the probe runs here. Answers
are cached per cluster (scheduler address).
"""

from __future__ import annotations

import time
from collections.abc import Callable

from .._runtime import config, execution
from .._runtime.cluster import active_client
from .._runtime.scheduler_loss import scheduler_timeout
from . import cupy_backend

LOCAL = "this process"
_RETRY_PAUSE = 0.1  # seconds between probes while no worker answers (being restarted)


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
        seen = _answers_of_workers()
    devices = sum(bool(answer) for answer in seen.values())
    name = "cupy" if seen and devices == len(seen) else "numpy"
    if where == LOCAL:
        return (
            name,
            f"auto: no cluster yet, probed here: CuPy sees {'a' if devices else 'no'} device",
        )
    return name, f"auto: CuPy sees a device on {devices} of {len(seen)} worker(s) of {where}"


def _answers_of_workers() -> dict[str, bool]:
    """The probe's answer of each worker of the active client. Where none answered (each
    worker lost while asked, and being restarted), asked again until one does, within
    ``gpunumeric.scheduler-timeout``; then a ``RuntimeError`` says so."""
    timeout = scheduler_timeout()
    deadline = time.monotonic() + timeout
    while not (seen := execution.run_on_workers(_Probe.function) or {}):
        if time.monotonic() > deadline:
            raise RuntimeError(
                f"gpunumeric.backend 'auto': no worker answered the device probe within "
                f"{timeout:g} s (gpunumeric.scheduler-timeout); set the backend "
                "('numpy' or 'cupy') to skip the probe"
            )
        time.sleep(_RETRY_PAUSE)
    return seen


def forget_answers() -> None:
    """Drop the cached answers (after the probe or the cluster changes)."""
    _Probe.answers.clear()
