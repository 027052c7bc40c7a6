"""The CuPy backend's kernel cache, without CuPy: a stand-in ``xp`` records every
``ElementwiseKernel`` built and refuses to be pickled, as a compiled kernel must never
travel in a task."""

from __future__ import annotations

import pickle
import types
from typing import Any

import numpy
import pytest

from dask_gpunumeric._backends.cupy_backend import CupyBackend, elementwise_kernel
from dask_gpunumeric._codegen.cuda import generate_cuda
from dask_gpunumeric._ir.scalar_program import Instruction, ScalarProgram


class RecordingKernel:
    built: list[RecordingKernel] = []

    def __init__(
        self,
        in_params: str,
        out_params: str,
        operation: str,
        name: str,
        *,
        preamble: str = "",
        options: tuple[str, ...] = (),
    ) -> None:
        self.source = (in_params, out_params, operation, name, preamble, options)
        self.calls = 0
        RecordingKernel.built.append(self)

    def __call__(self, *operands: Any) -> numpy.ndarray:
        self.calls += 1
        return numpy.zeros(numpy.broadcast_shapes(*(numpy.shape(x) for x in operands)))

    def __reduce__(self) -> Any:
        raise pickle.PicklingError("a compiled kernel must not travel to workers")


class FakeCupy:
    ElementwiseKernel = RecordingKernel


@pytest.fixture
def device() -> CupyBackend:
    RecordingKernel.built.clear()
    elementwise_kernel.cache_clear()
    return CupyBackend(xp=FakeCupy, chunk_type=numpy.ndarray)


def scaled(constant: float) -> ScalarProgram:
    """``x * constant`` in float64."""
    f8 = numpy.dtype("float64")
    return ScalarProgram(
        (f8,),
        (
            Instruction(1, "const", (), f8, (("value", constant),)),
            Instruction(2, "multiply", (0, 1), f8),
        ),
        (2,),
    )


def test_a_kernel_is_built_once_per_program_and_ndim(device: CupyBackend) -> None:
    device.evaluate_program(scaled(2.0), numpy.ones((3, 4)))
    device.evaluate_program(scaled(2.0), numpy.ones((5, 6)))
    assert len(RecordingKernel.built) == 1 and RecordingKernel.built[0].calls == 2
    device.evaluate_program(scaled(2.0), numpy.ones(7))
    device.evaluate_program(scaled(3.0), numpy.ones(7))
    assert len(RecordingKernel.built) == 3


def test_the_kernel_is_built_from_the_generated_source(device: CupyBackend) -> None:
    device.evaluate_program(scaled(2.0), numpy.ones(3))
    source = generate_cuda(scaled(2.0))
    assert RecordingKernel.built[0].source == (
        source.in_params,
        source.out_params,
        source.operation,
        source.name,
        source.preamble,
        source.options,
    )


def test_constants_equal_as_floats_but_not_as_bits_get_their_own_kernels(
    device: CupyBackend,
) -> None:
    assert scaled(0.0) == scaled(-0.0)
    device.evaluate_program(scaled(0.0), numpy.ones(3))
    device.evaluate_program(scaled(-0.0), numpy.ones(3))
    assert [k.source[2] for k in RecordingKernel.built] == [
        generate_cuda(scaled(0.0)).operation,
        generate_cuda(scaled(-0.0)).operation,
    ]
    assert "(-0.0)" in RecordingKernel.built[1].source[2]


def test_only_the_program_travels(device: CupyBackend) -> None:
    """What a task carries (backend name, program, operands) pickles after the kernel
    was built and cached; the kernel itself refuses to pickle (so this test can fail)."""
    program = scaled(2.0)
    device.evaluate_program(program, numpy.ones(3))
    payload = pickle.dumps(("cupy", program, numpy.ones(3)))
    assert pickle.loads(payload)[1] == program
    with pytest.raises(pickle.PicklingError):
        pickle.dumps(RecordingKernel.built[0])


def test_a_program_the_generator_refuses_runs_op_by_op_without_a_kernel() -> None:
    """float16 has no kernel type: CuPy's own ufuncs (here NumPy's) run it instead."""
    RecordingKernel.built.clear()
    elementwise_kernel.cache_clear()
    xp = types.ModuleType("stand_in_cupy")
    xp.__dict__.update({n: getattr(numpy, n) for n in dir(numpy) if n[0] != "_"})
    xp.ElementwiseKernel = RecordingKernel  # type: ignore[attr-defined]
    device = CupyBackend(xp=xp, chunk_type=numpy.ndarray)
    f2, f8, c16 = numpy.dtype("float16"), numpy.dtype("float64"), numpy.dtype("complex128")
    program = ScalarProgram(
        (f2, f8),
        (
            Instruction(2, "sqrt", (0,), f2),
            Instruction(3, "astype", (2,), f8),
            Instruction(4, "from_parts", (3, 1), c16),
        ),
        (4, 2),
    )
    half = numpy.array([4.0, 2.0, numpy.inf], f2)
    other = numpy.array([numpy.inf, -1.0, 0.5])
    parts, root = device.evaluate_program(program, half, other)
    assert RecordingKernel.built == []
    assert root.dtype == f2 and numpy.array_equal(root, numpy.sqrt(half))
    assert numpy.array_equal(parts.real, numpy.sqrt(half).astype(f8))
    assert numpy.array_equal(parts.imag, other) and parts.dtype == c16
