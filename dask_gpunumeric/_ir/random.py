"""``RandomDraw``: a leaf of random numbers, drawn on the workers chunk by chunk.

A task carries only the seed and the draw's parameters, never data: the chunk at offset
``o`` is drawn by the backend's generator seeded with
``SeedSequence(entropy, spawn_key=stream + o)``, so chunks are independent streams and
the values depend only on the seed, the draw's place in its generator's sequence
(``stream``) and the chunking.
"""

from __future__ import annotations

from typing import Any

from .leaves import Chunks, Leaf


class RandomDraw(Leaf):
    """``generator.<method>(*arguments, size=chunk_shape, **keywords)`` for every chunk."""

    __slots__ = ("method", "arguments", "keywords", "entropy", "stream")

    def __init__(
        self,
        shape: tuple[int, ...],
        dtype: Any,
        method: str,
        arguments: tuple[Any, ...],
        keywords: tuple[tuple[str, Any], ...],
        entropy: int | tuple[int, ...],
        stream: tuple[int, ...],
        chunks: Chunks | None = None,
    ) -> None:
        super().__init__(shape, dtype, chunks)
        self.method = method
        self.arguments = arguments
        self.keywords = keywords
        self.entropy = entropy
        self.stream = stream
