"""NumPy chunks on the host: the CPU backend.

It does three things better than the defaults: blocks a kernel writes whole come from a
pool of released host buffers (``host_buffers``: no first touch of fresh pages), the
flat interiors and sweeps of large stencil blocks run compiled loops once the program is
hot (``compiled_loops``, Numba), else the CPU evaluator (numexpr or a tiled ufunc chain),
and a kernel passing over a block twice (a stepped stencil's) goes in cache-sized bands.
"""

from __future__ import annotations

from typing import Any

import numpy

from .._codegen import cpu
from .._ir.scalar_program import ScalarProgram
from . import compiled_loops, host_buffers
from .base import ChunkBackend, Kernel

# A core's L2 cache here (1 MiB): one red-black block of n=4000 (2001 x 4002) took 11.7 ms
# in one pass, 8.3 ms in bands of 1 MiB, 9-10 ms in bands of 256 KiB to 2 MiB (one thread;
# two blocks on two threads 30 -> 18 ms), and 15 ms in 64 KiB bands (a call per band).
BAND_BYTES: int | None = 1 << 20


class NumpyBackend(ChunkBackend):
    name = "numpy"
    xp: Any = numpy
    chunk_type: type = numpy.ndarray
    device = "cpu"  # NumPy's own name: ``x.device == "cpu"`` holds as it does in NumPy

    loops_raise_for_negative_integer_powers = True  # NumPy's ufunc loops and numexpr's

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

    @property
    def band_bytes(self) -> int | None:
        """``BAND_BYTES``: about a core's L2 cache."""
        return BAND_BYTES

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
