"""CuPy chunks on a GPU. The only module of dask_gpunumeric that imports cupy."""

from __future__ import annotations

import contextlib
import functools
from typing import Any

import numpy

from .._codegen.cuda import NotFusibleError, generate_cuda
from .._ir.scalar_program import ScalarProgram
from .base import ChunkBackend


class CupyBackend(ChunkBackend):
    name = "cupy"
    device = "cuda"

    def __init__(self, xp: Any, chunk_type: type) -> None:
        self.xp = xp
        self.chunk_type = chunk_type

    @property
    def evaluates_in_client(self) -> bool:
        """Only where this process sees a device: a Jupyter client on a login node need not,
        while its workers do (then tiny values are computed on the workers)."""
        return _device_here()

    def raising_linalg_errors(self) -> contextlib.AbstractContextManager[Any]:
        """CuPy's linalg returns NaNs for a singular or not positive definite matrix unless
        asked to check cuSOLVER's status (a device synchronization): asked here, so
        ``inv``, ``solve`` and ``cholesky`` raise ``LinAlgError`` as NumPy's do."""
        import cupyx

        return cupyx.errstate(linalg="raise")  # type: ignore[no-any-return]

    def lane_keywords(self, kind: str, keywords: dict[str, Any]) -> dict[str, Any]:
        """CuPy sorts stably and accepts no other ``kind``."""
        return {k: v for k, v in keywords.items() if k != "kind"}

    def from_host(self, host: numpy.ndarray) -> Any:
        return self.xp.asarray(host)

    def to_host(self, chunk: Any) -> numpy.ndarray:
        if isinstance(chunk, numpy.ndarray):
            return chunk
        return self.xp.asnumpy(chunk)

    def evaluates_quietly(self, program: ScalarProgram) -> bool:
        return True  # device kernels never emit NumPy's floating-point warnings

    def generator(self, seed: numpy.random.SeedSequence) -> Any:
        # CuPy's Generator (XORWOW, cuRAND) takes one integer seed: the sequence's first word.
        state = int(seed.generate_state(1, numpy.uint64)[0])
        return self.xp.random.Generator(self.xp.random.XORWOW(seed=state))

    def evaluate_program(self, program: ScalarProgram, *operands: Any, out: Any = None) -> Any:
        """``program`` over device arrays or scalars ``operands`` (broadcast together) in
        one ``cupy.ElementwiseKernel`` launch: a new chunk, or a tuple of chunks when the
        program has several outputs (as ``ElementwiseKernel`` returns them).

        The kernel is built once per process for each (program, ndim) from the source
        ``_codegen.cuda`` generates; tasks carry only the program (plain data). ``out``
        (one output array or view, e.g. the interior of a stencil's block) is passed to
        the kernel as its output argument.
        """
        ndim = max((numpy.ndim(operand) for operand in operands), default=0)
        try:
            kernel = elementwise_kernel(self.xp, program, _constants_key(program), ndim)
        except NotFusibleError:  # float16, complex exp2...: CuPy's own ufuncs, one by one
            result = evaluate_op_by_op(self.xp, program, operands)
            if out is None:
                return result
            out[...] = result
            return out
        return kernel(*operands) if out is None else kernel(*operands, out)


@functools.lru_cache(maxsize=512)
def elementwise_kernel(
    xp: Any, program: ScalarProgram, constants: tuple[str, ...], ndim: int
) -> Any:
    """The ``ElementwiseKernel`` of ``program`` (cached per process; CuPy compiles it on
    the first launch and caches the binary per dtype and ndim itself)."""
    source = generate_cuda(program)
    return xp.ElementwiseKernel(
        source.in_params,
        source.out_params,
        source.operation,
        source.name,
        preamble=source.preamble,
        options=source.options,
    )


def evaluate_op_by_op(xp: Any, program: ScalarProgram, operands: tuple[Any, ...]) -> Any:
    """``program`` with one ``xp`` call per instruction (temporaries, no generated kernel):
    for the operations ``_codegen.cuda`` cannot spell exactly."""
    values = dict(enumerate(operands))
    for ins in program.instructions:
        args = [values[a] for a in ins.args]
        if ins.op == "const":
            values[ins.result] = xp.asarray(dict(ins.params)["value"], dtype=ins.dtype)
        elif ins.op == "astype":
            values[ins.result] = xp.asarray(args[0]).astype(ins.dtype)
        elif ins.op == "from_parts":  # parts copied, never multiplied (inf * 1j is NaN)
            shape = numpy.broadcast_shapes(*(numpy.shape(a) for a in args))
            values[ins.result] = out = xp.empty(shape, dtype=ins.dtype)
            out.real[...], out.imag[...] = args
        else:
            result = getattr(xp, ins.op)(*args)
            if isinstance(result, tuple):
                result = result[dict(ins.params).get("output", 0)]
            values[ins.result] = xp.asarray(result).astype(ins.dtype, copy=False)
    outputs = tuple(values[v] for v in program.outputs)
    return outputs[0] if len(outputs) == 1 else outputs


def _constants_key(program: ScalarProgram) -> tuple[str, ...]:
    # 0.0 == -0.0 and nan != nan: equal programs may differ in their constants' bits.
    return tuple(repr(ins.params) for ins in program.instructions if ins.op == "const")


def make_backend() -> CupyBackend:
    try:
        import cupy
    except ImportError as error:  # pragma: no cover - depends on the machine
        raise ImportError(
            "gpunumeric.backend='cupy' needs CuPy: pip install 'dask_gpunumeric[gpu]' "
            "for CUDA 12 or 'dask_gpunumeric[gpu-cu13]' for CUDA 13 "
            "(cupy, dask-cuda, distributed-ucxx)"
        ) from error
    return CupyBackend(xp=cupy, chunk_type=cupy.ndarray)


@functools.cache
def _device_here() -> bool:
    """``device_available()`` in this process, asked once."""
    return device_available()


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
