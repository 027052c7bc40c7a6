"""NumPy chunks on the host: the CPU backend.

It does two things better than the defaults: blocks a kernel writes whole come from a
pool of released host buffers (``host_buffers``: no first touch of fresh pages), and the
flat interiors and sweeps of large stencil blocks run compiled loops once the program is
hot (``compiled_loops``, Numba), else the CPU evaluator (numexpr or a tiled ufunc chain).
"""

from __future__ import annotations

from typing import Any

import numpy

from .._codegen import cpu
from .._ir.scalar_program import ScalarProgram
from . import compiled_loops, host_buffers
from .base import ChunkBackend, Kernel


class NumpyBackend(ChunkBackend):
    name = "numpy"
    xp: Any = numpy
    chunk_type: type = numpy.ndarray
    device = "cpu"  # NumPy's own name: ``x.device == "cpu"`` holds as it does in NumPy

    def from_host(self, host: numpy.ndarray) -> numpy.ndarray:
        return numpy.asarray(host)

    def to_host(self, chunk: Any) -> numpy.ndarray:
        return numpy.asarray(chunk)

    def empty_block(self, shape: tuple[int, ...], dtype: numpy.dtype) -> numpy.ndarray:
        return host_buffers.empty_block(shape, dtype)

    def copy_block(self, block: Any) -> Any:
        """A large block is copied into a released block's buffer when there is one."""
        if type(block) is not numpy.ndarray or block.nbytes < host_buffers.MIN_BYTES:
            return block.copy()
        copy = host_buffers.empty_block(block.shape, block.dtype)
        numpy.copyto(copy, block)
        return copy

    def evaluate_program(
        self, program: ScalarProgram, *operands: Any, out: numpy.ndarray | None = None
    ) -> numpy.ndarray:
        return cpu.evaluate(program, *operands, out=out)

    def evaluates_quietly(self, program: ScalarProgram) -> bool:
        return cpu.evaluates_quietly(program)

    def compiled_loop(self, program: ScalarProgram, elements: int) -> Kernel | None:
        if elements < compiled_loops.MIN_ELEMENTS:
            return None
        return compiled_loops.compiled_kernel(program, elements)

    def compiled_sweeps(self, program: ScalarProgram, elements: int) -> Kernel | None:
        return compiled_loops.compiled_sweeps(program, elements)

    def generator(self, seed: numpy.random.SeedSequence) -> numpy.random.Generator:
        return numpy.random.Generator(numpy.random.PCG64(seed))


def make_backend() -> NumpyBackend:
    return NumpyBackend()
