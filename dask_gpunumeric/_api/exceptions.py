"""Exceptions and warnings (NumPy reference: "Exceptions and Warnings"): NumPy's own are
raised where NumPy raises them; these are the faults a distributed runtime adds."""

from __future__ import annotations

from .._runtime.cluster import EmbeddedClusterRestartedWarning
from .._runtime.memory import ArrayMemoryError
from .._runtime.scheduler_loss import DataLostError, SchedulerLostError

__all__ = [
    "ArrayMemoryError",
    "DataLostError",
    "EmbeddedClusterRestartedWarning",
    "SchedulerLostError",
]
