"""The default partitioning: which chunks an array gets when the user names none.

Chunks depend on the shape only (not the dtype), so arrays of equal shape always get
identical chunks and elementwise work between them needs no rechunk. Arrays with fewer
than ``gpunumeric.min-chunk-elements`` elements stay one chunk; larger ones split their
leading axes into about ``gpunumeric.target-blocks`` blocks.
"""

from __future__ import annotations

import math

from . import config

Chunks = tuple[tuple[int, ...], ...]


def split_evenly(length: int, parts: int) -> tuple[int, ...]:
    """``parts`` nearly equal pieces of ``length`` (larger ones first), none empty."""
    parts = max(1, min(parts, length))
    base, extra = divmod(length, parts)
    return tuple(base + 1 if i < extra else base for i in range(parts)) if length else (0,)


def default_chunks(shape: tuple[int, ...]) -> Chunks:
    size = math.prod(shape)
    if size < config.get("min-chunk-elements") or not shape:
        return tuple((n,) for n in shape)
    blocks_wanted = min(config.get("target-blocks"), size // config.get("min-chunk-elements"))
    splits = [1] * len(shape)
    # Split the leading axes round-robin until enough blocks: near-square tiles in 2-D.
    leading = [axis for axis in range(min(2, len(shape))) if shape[axis] > 1]
    while leading and math.prod(splits) < blocks_wanted:
        progressed = False
        for axis in leading:
            if math.prod(splits) >= blocks_wanted:
                break
            if splits[axis] < shape[axis]:
                splits[axis] *= 2
                progressed = True
        if not progressed:
            break
    return tuple(split_evenly(n, k) for n, k in zip(shape, splits, strict=True))
