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

    def generator(self, seed: numpy.random.SeedSequence) -> Any:
        # CuPy's Generator (XORWOW, cuRAND) takes one integer seed: the sequence's first word.
        state = int(seed.generate_state(1, numpy.uint64)[0])
        return self.xp.random.Generator(self.xp.random.XORWOW(seed=state))


def make_backend() -> CupyBackend:
    try:
        import cupy
    except ImportError as error:  # pragma: no cover - depends on the machine
        raise ImportError(
            "gpunumeric.backend='cupy' needs CuPy: pip install 'dask_gpunumeric[gpu]' "
            "(cupy-cuda12x, dask-cuda, distributed-ucxx)"
        ) from error
    return CupyBackend(name="cupy", xp=cupy, chunk_type=cupy.ndarray)
