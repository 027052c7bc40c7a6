"""NumPy's ``ValueError`` for ``int ** -n`` on backends whose loops cannot raise.

NumPy's integer ``power`` loop raises "Integers to negative integer powers are not
allowed." when it meets a negative exponent. A device kernel cannot raise: CuPy's
``power`` (and our generated CUDA, ``gn_power_int``) returns 0, 1 or -1 there instead,
and the H100 check found ``a ** b``, ``a **= b`` and failed writes of them not raising.
On such a backend (``ChunkBackend.loops_raise_for_negative_integer_powers`` False) a
block whose integer powers have exponents not known to be non-negative is checked first:
one more kernel over the exponents and one boolean read back (a device synchronization),
paid only by integer powers with array exponents. Tiny ufunc calls computed in the client
(``_array/tiny_ufuncs.py``) check their ``power`` the same way.

The check of a fused program is the program cut down to the exponents it feeds those
powers, each compared with zero and the comparisons or-ed together::

    v0: int64 = input 0             v0: int64 = input 0
    v1: int64 = input 1             v1: int64 = input 1
    v2: int64 = power v0 v1   ->    v2: int64 = const 0
    outputs (v2,)                   v3: bool  = less v1 v2
                                    outputs (v3,)
"""

from __future__ import annotations

import functools
from typing import Any

import numpy

from .._backends.base import ChunkBackend
from .._ir.scalar_program import Instruction, ScalarProgram

MESSAGE = "Integers to negative integer powers are not allowed."


def check_program(backend: ChunkBackend, program: ScalarProgram, operands: tuple[Any, ...]) -> None:
    """Raise NumPy's ``ValueError`` where ``program`` would meet ``int ** -n`` on these
    ``operands``, on a backend whose loops do not raise it themselves."""
    if backend.loops_raise_for_negative_integer_powers:
        return
    check = negative_exponents(program)
    if check is not None and bool(backend.xp.any(backend.evaluate_program(check, *operands))):
        raise ValueError(MESSAGE)


def check_power(backend: ChunkBackend, base: Any, exponent: Any) -> None:
    """The same for one ``power(base, exponent)`` (chunks or Python scalars)."""
    if backend.loops_raise_for_negative_integer_powers:
        return
    # NumPy's own errors first: a Python integer out of the other operand's range
    # (``uint8_array ** -1``) is its OverflowError, raised before its loop runs.
    numpy.power(_dtype_probe(base), _dtype_probe(exponent))
    if _kind(base) not in "biu" or _kind(exponent) not in "iu":
        return  # a float or complex power: NumPy does not raise
    shapes = (getattr(base, "shape", ()), getattr(exponent, "shape", ()))
    if 0 in numpy.broadcast_shapes(*shapes):
        return  # no element: NumPy's loop meets no exponent
    if bool(backend.xp.any(backend.as_chunk(exponent) < 0)):
        raise ValueError(MESSAGE)


def _dtype_probe(value: Any) -> Any:
    """A Python scalar as it is (NumPy converts it to the other operand's dtype); anything
    else an empty host array of its dtype (no element: NumPy's loop meets no exponent)."""
    if type(value) in (bool, int, float, complex):
        return value
    dtype = getattr(value, "dtype", None)
    return numpy.empty(0, numpy.asarray(value).dtype if dtype is None else dtype)


def _kind(value: Any) -> str:
    dtype = getattr(value, "dtype", None)
    return str(numpy.asarray(value).dtype.kind if dtype is None else dtype.kind)


@functools.lru_cache(maxsize=256)
def negative_exponents(program: ScalarProgram) -> ScalarProgram | None:
    """A program over ``program``'s inputs whose boolean output is True where one of its
    integer powers has a negative exponent; None when it has none that could."""
    constants = {
        ins.result: dict(ins.params)["value"] for ins in program.instructions if ins.op == "const"
    }
    exponents = sorted(
        {
            ins.args[1]
            for ins in program.instructions
            if ins.op == "power" and ins.dtype.kind in "iu"
            if not (ins.args[1] in constants and constants[ins.args[1]] >= 0)
        }
    )
    if not exponents:
        return None
    kept = _feeding(program, exponents)
    next_value = 1 + max([len(program.inputs) - 1, *(ins.result for ins in program.instructions)])
    flag = None
    for exponent in exponents:
        zero, below = next_value, next_value + 1
        kept += [
            Instruction(zero, "const", (), program.dtype_of(exponent), (("value", 0),)),
            Instruction(below, "less", (exponent, zero), numpy.dtype(bool)),
        ]
        next_value += 2
        if flag is not None:
            kept.append(Instruction(next_value, "logical_or", (flag, below), numpy.dtype(bool)))
            below, next_value = next_value, next_value + 1
        flag = below
    assert flag is not None
    return ScalarProgram(program.inputs, tuple(kept), (flag,))


def _feeding(program: ScalarProgram, values: list[int]) -> list[Instruction]:
    """The instructions of ``program`` that ``values`` depend on, in program order."""
    needed = set(values)
    kept = []
    for ins in reversed(program.instructions):
        if ins.result in needed:
            kept.append(ins)
            needed.update(ins.args)
    return kept[::-1]
