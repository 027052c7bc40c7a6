"""The CPU evaluator of ``ScalarProgram``s: one call per chunk, no full-size temporaries.

Two strategies, chosen once per program (``compile_program``, cached per process by
program and ``ndim``; only programs travel to workers):

- **numexpr**, for the programs it computes bit for bit as NumPy does
  (``numexpr_source``), single-threaded: dask already runs one task per core.
- **tiled ufunc chain** for everything else: the chunk is cut into tiles of about
  ``TILE_ELEMENTS`` elements along its leading axes; each instruction is the NumPy ufunc
  itself (so NumPy's exact semantics) writing with ``out=`` into a tile-sized buffer that
  is reused once its value is dead. Temporaries stay in cache; memory is read once.

Sample (``sin(x)**2 + cos(x)**2 * 0.5 - x / 3``, float64), per tile::

    sin(x, out=b0); power(b0, 2.0, out=b1); cos(x, out=b0); power(b0, 2.0, out=b2)
    multiply(b2, 0.5, out=b0); add(b1, b0, out=b2); divide(x, 3.0, out=b0)
    subtract(b2, b0, out=result[tile])
"""

from __future__ import annotations

import functools
import itertools
import math
import threading
from collections.abc import Callable, Iterator
from typing import Any

import numexpr
import numpy

from .._ir.scalar_program import Instruction, ScalarProgram
from .._ir.ufunc_table import ufunc_by_name
from .numexpr_source import numexpr_source, value_dtypes

TILE_ELEMENTS = 1 << 14
Evaluator = Callable[[tuple[numpy.ndarray, ...], numpy.ndarray | None], numpy.ndarray]


def evaluate(
    program: ScalarProgram, *operands: numpy.ndarray, out: numpy.ndarray | None = None
) -> numpy.ndarray:
    """``program`` over host ``operands`` broadcast together: a new array, or ``out`` (of
    the broadcast shape and the program's dtype, possibly a strided view) written in place."""
    operands = tuple(numpy.asarray(x) for x in operands)
    shape = numpy.broadcast_shapes(*(x.shape for x in operands))
    return compile_program(program, _constants_key(program), len(shape))(operands, out)


def evaluates_quietly(program: ScalarProgram) -> bool:
    """Whether ``evaluate`` runs numexpr for ``program``: numexpr emits no floating-point
    warnings (the tiled ufunc chain emits NumPy's)."""
    return not isinstance(compile_program(program, _constants_key(program), 1), _TiledChain)


def _constants_key(program: ScalarProgram) -> tuple[str, ...]:
    # 0.0 == -0.0 and nan != nan: programs equal as values may differ in their constants.
    return tuple(repr(ins.params) for ins in program.instructions if ins.op == "const")


@functools.lru_cache(maxsize=512)
def compile_program(program: ScalarProgram, constants: tuple[str, ...], ndim: int) -> Evaluator:
    """The evaluator of ``program`` for ``ndim``-dimensional chunks (cached per process)."""
    source = numexpr_source(program)
    evaluator = None if source is None else _numexpr_evaluator(program, source)
    return evaluator or _TiledChain(program)


def _numexpr_evaluator(program: ScalarProgram, source: str) -> Evaluator | None:
    """numexpr, single-threaded (dask runs one task per core already), one compiled object
    per thread: a compiled ``NumExpr`` keeps its work buffers on itself, so two threads
    calling one object corrupt each other's results (pydata/numexpr#569)."""
    numexpr.set_num_threads(1)
    signature = [
        (f"v{k}", numexpr.necompiler.getType(numpy.empty(0, dtype)))
        for k, dtype in enumerate(program.inputs)
    ]
    try:
        numexpr.NumExpr(source, signature)
    except ValueError:  # numexpr folded an input away (``where(False, a, b)``)
        return None
    per_thread = threading.local()

    def run(operands: tuple[numpy.ndarray, ...], out: numpy.ndarray | None) -> numpy.ndarray:
        compiled = getattr(per_thread, "compiled", None)
        if compiled is None:
            compiled = per_thread.compiled = numexpr.NumExpr(source, signature)
        return compiled(*operands, out=out, order="K", casting="safe", ex_uses_vml=False)

    return run


class _TiledChain:
    """A program as steps over tiles, each value in a buffer slot freed after last use."""

    def __init__(self, program: ScalarProgram) -> None:
        self.program = program
        self.n_inputs = len(program.inputs)
        self.output = program.outputs[0]
        dtypes = value_dtypes(program)
        self.dtype = dtypes[self.output]
        last_use = {a: i for i, ins in enumerate(program.instructions) for a in ins.args}
        self.slots: dict[int, int] = {}  # value -> buffer slot
        self.slot_dtypes: list[numpy.dtype] = []
        free: dict[numpy.dtype, list[int]] = {}
        for i, ins in enumerate(program.instructions):
            if ins.op != "const" and ins.result != self.output:
                pool = free.setdefault(ins.dtype, [])
                self.slots[ins.result] = pool.pop() if pool else self._new_slot(ins.dtype)
            for arg in set(ins.args):
                if last_use[arg] == i and arg in self.slots:
                    free.setdefault(dtypes[arg], []).append(self.slots[arg])
        self.constants = {
            ins.result: ins.dtype.type(dict(ins.params)["value"])
            for ins in program.instructions
            if ins.op == "const"
        }
        # (function, argument values, result value, buffer slot or None for the output)
        self.steps = [
            (step_function(ins), ins.args, ins.result, self.slots.get(ins.result))
            for ins in program.instructions
            if ins.op != "const"
        ]

    def _new_slot(self, dtype: numpy.dtype) -> int:
        self.slot_dtypes.append(dtype)
        return len(self.slot_dtypes) - 1

    def __call__(
        self, operands: tuple[numpy.ndarray, ...], out: numpy.ndarray | None = None
    ) -> numpy.ndarray:
        shape = numpy.broadcast_shapes(*(x.shape for x in operands))
        result = numpy.empty(shape, dtype=self.dtype) if out is None else out
        if result.size == 0:
            return result
        inputs = [numpy.broadcast_to(x, shape) for x in operands]
        buffers: list[numpy.ndarray] | None = None
        for index in _tiles(shape):
            target = result[index]
            if buffers is None:
                buffers = [numpy.empty(target.shape, dtype=d) for d in self.slot_dtypes]
            views = [b[: target.shape[0]] if b.ndim else b for b in buffers]
            self._run_tile([x[index] for x in inputs], views, target)
        return result

    def _run_tile(
        self, inputs: list[numpy.ndarray], buffers: list[numpy.ndarray], target: numpy.ndarray
    ) -> None:
        values: dict[int, Any] = dict(enumerate(inputs))
        values.update(self.constants)
        for function, args, result, slot in self.steps:
            out = target if slot is None else buffers[slot]
            function([values[a] for a in args], out)
            values[result] = out
        if self.output < self.n_inputs or self.output in self.constants:
            numpy.copyto(target, values[self.output], casting="unsafe")


def _tiles(shape: tuple[int, ...]) -> Iterator[tuple[Any, ...]]:
    """Index tuples cutting ``shape`` into tiles of at most ~``TILE_ELEMENTS`` elements:
    integers on the leading axes, a slice on the first axis whose trailing block fits."""
    if not shape:
        return iter([(Ellipsis,)])
    axis = next(
        (k for k in range(len(shape)) if math.prod(shape[k + 1 :]) <= TILE_ELEMENTS),
        len(shape) - 1,
    )
    rows = max(1, TILE_ELEMENTS // max(1, math.prod(shape[axis + 1 :])))
    return _tile_indices(shape, axis, rows)


def _tile_indices(shape: tuple[int, ...], axis: int, rows: int) -> Iterator[tuple[Any, ...]]:
    for leading in itertools.product(*(range(n) for n in shape[:axis])):
        for start in range(0, shape[axis], rows):
            yield leading + (slice(start, min(start + rows, shape[axis])),)


Step = Callable[[list[Any], numpy.ndarray], None]


def step_function(ins: Instruction) -> Step:
    """What computes ``ins`` on its arguments (tiles or scalars of the right dtypes) into
    ``out``: the NumPy ufunc of its ``ufunc_table`` row, copies for casts and ``where``."""
    if ins.op in _COPIES:
        return _COPIES[ins.op]
    ufunc = ufunc_by_name[ins.op].numpy_ufunc
    if ufunc.nout == 1:
        return lambda args, out: ufunc(*args, out=out)
    output = dict(ins.params).get("output", 0)
    return lambda args, out: numpy.copyto(out, ufunc(*args)[output])


def _where(args: list[Any], out: numpy.ndarray) -> None:
    numpy.copyto(out, args[2])
    numpy.copyto(out, args[1], where=args[0])


def _from_parts(args: list[Any], out: numpy.ndarray) -> None:
    out.real[...] = args[0]
    out.imag[...] = args[1]


# The ops of program_op_table but const (a constant is a value, not a step).
_COPIES: dict[str, Step] = {
    "astype": lambda args, out: numpy.copyto(out, args[0], casting="unsafe"),
    "where": _where,
    "real": lambda args, out: numpy.copyto(out, numpy.real(args[0])),
    "imag": lambda args, out: numpy.copyto(out, numpy.imag(args[0])),
    "from_parts": _from_parts,
}
