"""NumPy chunks on the host: the CPU backend."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy

from .._codegen import cpu
from .._ir.scalar_program import ScalarProgram


@dataclass(frozen=True)
class NumpyBackend:
    name: str = "numpy"
    xp: Any = numpy
    chunk_type: type = numpy.ndarray

    def from_host(self, host: numpy.ndarray) -> numpy.ndarray:
        return numpy.asarray(host)

    def to_host(self, chunk: Any) -> numpy.ndarray:
        return numpy.asarray(chunk)

    def evaluate_program(
        self, program: ScalarProgram, *operands: Any, out: numpy.ndarray | None = None
    ) -> numpy.ndarray:
        return cpu.evaluate(program, *operands, out=out)

    def evaluates_quietly(self, program: ScalarProgram) -> bool:
        return cpu.evaluates_quietly(program)

    def generator(self, seed: numpy.random.SeedSequence) -> numpy.random.Generator:
        return numpy.random.Generator(numpy.random.PCG64(seed))


def make_backend() -> NumpyBackend:
    return NumpyBackend()
