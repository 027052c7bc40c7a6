"""The default partitioning: which chunks an array gets when the user names none.

The policy (``docs/partitioning.md`` has a table of its decisions):

- Chunks depend on the shape and the cluster only, never the dtype (blocks are sized with
  a nominal 8-byte itemsize), so arrays of equal shape always get identical chunks and
  elementwise work between them needs no rechunk.
- Arrays with fewer than ``gpunumeric.min-chunk-elements`` elements stay one chunk, and no
  block is made smaller than that.
- Larger arrays get ``workers * m`` blocks, ``m`` the smallest power of two that keeps a
  block within ``gpunumeric.max-chunk-bytes`` (``cpu`` or ``gpu``; a GPU block is also at
  most ``1/gpu-memory-fraction`` of the device memory, room for operands and temporaries;
  a CPU block at most ``1/cpu-memory-fraction`` of a worker's memory limit).
- The blocks split the two leading axes (the last axis of a 3-D array stays contiguous):
  each prime factor of the block count goes to the axis whose tiles are longest, so 2-D
  tiles are near-square and a tall-skinny array is split along its rows only.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterator

from dask.utils import parse_bytes

from . import config
from .cluster_shape import ClusterShape, cluster_shape

Chunks = tuple[tuple[int, ...], ...]

__all__ = [
    "Chunks",
    "ClusterShape",
    "block_count",
    "block_regions",
    "current_cluster",
    "default_chunks",
    "split_evenly",
]

NOMINAL_ITEMSIZE = 8  # bytes; chunks must not depend on the dtype
SPLIT_AXES = 2  # how many leading axes the blocks may split


def current_cluster() -> ClusterShape:
    """The cluster arrays are partitioned for: the active client's, else the embedded
    cluster that would start on this machine (``cluster_shape``)."""
    return cluster_shape()


def split_evenly(length: int, parts: int) -> tuple[int, ...]:
    """``parts`` nearly equal pieces of ``length`` (larger ones first), none empty."""
    parts = max(1, min(parts, length))
    base, extra = divmod(length, parts)
    return tuple(base + 1 if i < extra else base for i in range(parts)) if length else (0,)


def block_regions(chunks: Chunks) -> Iterator[tuple[slice, ...]]:
    """Each block's slices of the whole array of ``chunks``, in C order of the blocks'
    indices (the order of ``flatten(array.__dask_keys__())``)."""
    starts = [tuple(itertools.accumulate(sizes, initial=0)) for sizes in chunks]
    for index in itertools.product(*(range(len(sizes)) for sizes in chunks)):
        yield tuple(slice(axis[i], axis[i + 1]) for axis, i in zip(starts, index, strict=True))


def max_block_bytes(cluster: ClusterShape) -> int:
    """The largest block the backend of ``cluster`` should get, in nominal bytes."""
    if not cluster.device:  # also room in a worker's memory limit (spill, not pause)
        worker_share = cluster.memory_per_worker // config.get("cpu-memory-fraction")
        return max(1, min(parse_bytes(config.get("max-chunk-bytes.cpu")), worker_share))
    device_share = cluster.memory_per_worker // config.get("gpu-memory-fraction")
    return max(1, min(parse_bytes(config.get("max-chunk-bytes.gpu")), device_share))


def block_count(size: int, cluster: ClusterShape) -> int:
    """How many blocks an array of ``size`` elements is split into."""
    min_elements = max(1, config.get("min-chunk-elements"))
    if size < min_elements:
        return 1
    blocks = max(1, cluster.workers)
    while size * NOMINAL_ITEMSIZE > blocks * max_block_bytes(cluster):
        blocks *= 2
    return max(1, min(blocks, size // min_elements))


def default_chunks(shape: tuple[int, ...], cluster: ClusterShape | None = None) -> Chunks:
    """The chunks of an array of ``shape`` on ``cluster`` (``None``: the current cluster)."""
    shape = tuple(int(n) for n in shape)
    blocks = block_count(math.prod(shape), cluster or current_cluster()) if shape else 1
    splits = [1] * len(shape)
    splittable = range(min(SPLIT_AXES, len(shape)))
    for factor in _prime_factors(blocks):
        # The axis whose tiles are longest takes the factor, if it has rows enough.
        candidates = [a for a in splittable if splits[a] * factor <= shape[a]]
        if not candidates:
            continue
        axis = max(candidates, key=lambda a: (shape[a] / splits[a], -a))
        splits[axis] *= factor
    return tuple(split_evenly(n, k) for n, k in zip(shape, splits, strict=True))


def _prime_factors(number: int) -> list[int]:
    """The prime factors of ``number``, largest first (``12 -> [3, 2, 2]``)."""
    factors: list[int] = []
    divisor = 2
    while divisor * divisor <= number:
        while number % divisor == 0:
            factors.append(divisor)
            number //= divisor
        divisor += 1
    if number > 1:
        factors.append(number)
    return sorted(factors, reverse=True)
