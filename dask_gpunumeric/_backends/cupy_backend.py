"""CuPy chunks on a GPU. The only module of dask_gpunumeric that imports cupy."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy


@dataclass(frozen=True)
class CupyBackend:
    name: str
    xp: Any
    chunk_type: type

    def from_host(self, host: numpy.ndarray) -> Any:
        return self.xp.asarray(host)

    def to_host(self, chunk: Any) -> numpy.ndarray:
        if isinstance(chunk, numpy.ndarray):
            return chunk
        return self.xp.asnumpy(chunk)


def make_backend() -> CupyBackend:
    try:
        import cupy
    except ImportError as error:  # pragma: no cover - depends on the machine
        raise ImportError(
            "gpunumeric.backend='cupy' needs CuPy: pip install 'dask_gpunumeric[gpu]' "
            "(cupy-cuda12x, dask-cuda, distributed-ucxx)"
        ) from error
    return CupyBackend(name="cupy", xp=cupy, chunk_type=cupy.ndarray)


def device_available() -> bool:
    """Whether CuPy is installed here and sees a CUDA device: the ``backend: auto`` probe,
    run on each worker (``client.run``) or, without a cluster, in this process."""
    try:
        import cupy
    except ImportError:
        return False
    try:
        return bool(cupy.is_available())
    except Exception:  # a broken driver or runtime is no usable device
        return False
