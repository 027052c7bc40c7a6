"""Building the ``ScalarProgram`` of a fused tree of ``Elementwise`` nodes.

Each node becomes one or a few instructions whose operands are first cast, explicitly, to
the dtypes of the loop NumPy picks for it (``ufunc.resolve_dtypes``, weak Python scalars
included), so every value has the dtype NumPy gives it and a code generator never
promotes on its own. ``clip`` becomes ``maximum`` then ``minimum`` (NaN-propagating, as
NumPy's clip); ``where`` casts its condition to bool and its branches to the result dtype.
"""

from __future__ import annotations

import functools
import warnings
from collections.abc import Callable, Iterable
from typing import Any

import numpy

from .._ir.elementwise import Elementwise
from .._ir.expr import Expr
from .._ir.scalar_program import Instruction, ScalarProgram
from .._ir.ufunc_table import ufunc_by_name

PYTHON_SCALARS = (bool, int, float, complex)
_FLOAT64 = numpy.dtype(numpy.float64)


class NotFusableError(Exception):
    """The node has no exact scalar-program form (e.g. a scalar not representable in its
    loop dtype); it stays an ``Elementwise`` node."""


class ProgramBuilder:
    """Accumulates instructions; values are numbered inputs first, then results."""

    def __init__(self, input_dtypes: Iterable[numpy.dtype]) -> None:
        self.dtypes: list[numpy.dtype] = list(input_dtypes)
        self.n_inputs = len(self.dtypes)
        self.instructions: list[Instruction] = []
        self._casts: dict[tuple[int, numpy.dtype], int] = {}
        self._consts: dict[tuple[type, str, numpy.dtype], int] = {}

    def emit(self, op: str, args: tuple[int, ...], dtype: Any, params: tuple = ()) -> int:
        result = len(self.dtypes)
        dtype = numpy.dtype(dtype)
        self.dtypes.append(dtype)
        self.instructions.append(Instruction(result, op, args, dtype, params))
        return result

    def cast(self, value: int, dtype: Any) -> int:
        """``value`` as ``dtype`` (itself when equal; one cast per value and dtype)."""
        dtype = numpy.dtype(dtype)
        if self.dtypes[value] == dtype:
            return value
        key = (value, dtype)
        if key not in self._casts:
            self._casts[key] = self.emit("astype", (value,), dtype, (("dtype", dtype),))
        return self._casts[key]

    def const(self, scalar: Any, dtype: Any) -> int:
        """A constant: ``scalar`` converted to ``dtype`` as NumPy converts it."""
        dtype = numpy.dtype(dtype)
        value = exact_scalar(scalar, dtype)
        key = (type(value), repr(value), dtype)  # repr: -0.0 and 0.0 are two constants
        if key not in self._consts:
            self._consts[key] = self.emit("const", (), dtype, (("value", value),))
        return self._consts[key]

    def program(self, outputs: tuple[int, ...]) -> ScalarProgram:
        return ScalarProgram(tuple(self.dtypes[: self.n_inputs]), tuple(self.instructions), outputs)


def exact_scalar(scalar: Any, dtype: numpy.dtype) -> Any:
    """``scalar`` in ``dtype`` as a Python scalar; ``NotFusableError`` if NumPy would refuse it."""
    if type(scalar) is float and dtype == _FLOAT64:  # the common case, exact as it is
        return scalar
    try:
        with warnings.catch_warnings(), numpy.errstate(all="ignore"):
            warnings.simplefilter("ignore")
            return dtype.type(scalar).item()
    except (OverflowError, ValueError, TypeError) as error:
        raise NotFusableError(f"{scalar!r} as {dtype}: {error}") from None


def scalar_dtype_hint(scalar: Any) -> Any:
    """What ``resolve_dtypes`` takes for a scalar: its type when weak, its dtype else."""
    if isinstance(scalar, bool):
        return numpy.dtype(bool)
    if isinstance(scalar, PYTHON_SCALARS):
        return type(scalar)
    return numpy.asarray(scalar).dtype


Operand = tuple[str, Any]  # ("value", value number) or ("scalar", Python/NumPy scalar)


def translate(builder: ProgramBuilder, node: Elementwise, operands: list[Operand]) -> int:
    """Emit ``node``'s instructions on ``operands``; the value holding its result, in
    ``node.dtype``."""
    translation = _translations.get(node.op, _translate_ufunc)
    result = translation(builder, node, operands)
    if builder.dtypes[result] != node.dtype:
        raise NotFusableError(
            f"{node.op} gives {builder.dtypes[result]}, the node says {node.dtype}"
        )
    return result


def _as_value(builder: ProgramBuilder, operand: Operand, dtype: Any) -> int:
    kind, payload = operand
    return builder.cast(payload, dtype) if kind == "value" else builder.const(payload, dtype)


def _operand_hint(builder: ProgramBuilder, operand: Operand) -> Any:
    kind, payload = operand
    return builder.dtypes[payload] if kind == "value" else scalar_dtype_hint(payload)


def _translate_ufunc(builder: ProgramBuilder, node: Elementwise, operands: list[Operand]) -> int:
    if node.op not in ufunc_by_name:
        raise NotFusableError(f"no scalar form for {node.op!r}")
    spec = ufunc_by_name[node.op]
    params = dict(node.params)
    output = params.get("output", 0)
    hints = tuple(_operand_hint(builder, x) for x in operands) + (None,) * spec.nout
    loop = _loop_dtypes(spec.name, hints, params.get("dtype"), params.get("casting"))
    args = tuple(_as_value(builder, x, dtype) for x, dtype in zip(operands, loop, strict=False))
    extra = (("output", output),) if spec.nout > 1 else ()
    if _is_real_square(spec.name, operands, loop):
        result = builder.emit("square", args[:1], loop[0])
    else:
        result = builder.emit(spec.name, args, loop[spec.nin + output], extra)
    return builder.cast(result, node.dtype)


def _is_real_square(name: str, operands: list[Operand], loop: tuple[numpy.dtype, ...]) -> bool:
    """``x ** 2`` on real floats: NumPy's ``**`` computes it as ``square(x)`` (its scalar
    power fast path), exact, and 7x faster than the ``pow`` call of ``power``."""
    if name != "power" or loop[0].kind != "f":
        return False
    kind, payload = operands[1]
    return kind == "scalar" and type(payload) in (int, float) and payload == 2


@functools.lru_cache(maxsize=4096)
def _loop_dtypes(
    name: str, hints: tuple[Any, ...], dtype: numpy.dtype | None, casting: str | None
) -> tuple[numpy.dtype, ...]:
    """The loop NumPy picks (``resolve_dtypes``), cached: a long chain asks the same."""
    ufunc = getattr(numpy, name)
    options: dict[str, Any] = {"casting": casting or "same_kind"}
    if dtype is not None:
        options["signature"] = (None,) * ufunc.nin + (dtype,) * ufunc.nout
    try:
        return tuple(ufunc.resolve_dtypes(hints, **options))
    except (TypeError, ValueError) as error:  # the call's probe accepted it: be safe
        raise NotFusableError(str(error)) from None


def _translate_astype(builder: ProgramBuilder, node: Elementwise, operands: list[Operand]) -> int:
    return _as_value(builder, operands[0], node.dtype)


def _translate_where(builder: ProgramBuilder, node: Elementwise, operands: list[Operand]) -> int:
    condition = _as_value(builder, operands[0], numpy.dtype(bool))
    x, y = (_as_value(builder, operand, node.dtype) for operand in operands[1:])
    return builder.emit("where", (condition, x, y), node.dtype)


def _translate_clip(builder: ProgramBuilder, node: Elementwise, operands: list[Operand]) -> int:
    value = _as_value(builder, operands[0], node.dtype)
    for op, bound in (("maximum", operands[1]), ("minimum", operands[2])):
        if bound != ("scalar", None):
            value = builder.emit(op, (value, _as_value(builder, bound, node.dtype)), node.dtype)
    return value


def _translate_component(
    builder: ProgramBuilder, node: Elementwise, operands: list[Operand]
) -> int:
    kind, payload = operands[0]
    if kind != "value":
        raise NotFusableError("real/imag of a scalar")
    return builder.emit(node.op, (payload,), node.dtype)


def _translate_from_parts(
    builder: ProgramBuilder, node: Elementwise, operands: list[Operand]
) -> int:
    component = numpy.finfo(node.dtype).dtype
    real, imag = (_as_value(builder, x, component) for x in operands)
    return builder.emit("from_parts", (real, imag), node.dtype)


_translations: dict[str, Callable[[ProgramBuilder, Elementwise, list[Operand]], int]] = {
    "astype": _translate_astype,
    "where": _translate_where,
    "clip": _translate_clip,
    "real": _translate_component,
    "imag": _translate_component,
    "from_parts": _translate_from_parts,
}


def build_program(root: Elementwise, members: set[int]) -> tuple[ScalarProgram, list[Expr]]:
    """The program computing ``root`` from the nodes outside ``members`` (node numbers of
    the fused ``Elementwise`` nodes, ``root`` included), and those input nodes in order.

    Iterative post-order: fused trees can be thousands of nodes deep.
    """
    inputs = _collect_inputs(root, members)
    builder = ProgramBuilder(node.dtype for node in inputs)
    values: dict[int, int] = {node.number: k for k, node in enumerate(inputs)}
    stack: list[tuple[Expr, bool]] = [(root, False)]
    while stack:
        node, ready = stack.pop()
        if node.number in values:
            continue
        if not ready:
            stack.append((node, True))
            stack.extend((child, False) for child in node.children if child.number not in values)
            continue
        assert isinstance(node, Elementwise)
        operands: list[Operand] = [
            ("value", values[x.number]) if isinstance(x, Expr) else ("scalar", x)
            for x in node.operands
        ]
        values[node.number] = translate(builder, node, operands)
    return builder.program((values[root.number],)), inputs


def _collect_inputs(root: Expr, members: set[int]) -> list[Expr]:
    """The distinct non-member children of members, in first-seen depth-first order."""
    inputs: dict[int, Expr] = {}
    seen: set[int] = set()
    stack = [root]
    while stack:
        node = stack.pop()
        if node.number in seen:
            continue
        seen.add(node.number)
        for child in node.children:
            if child.number in members:
                stack.append(child)
            else:
                inputs.setdefault(child.number, child)
    return list(inputs.values())


def is_translatable(node: Elementwise) -> bool:
    """Whether ``node`` alone has a scalar-program form (its children as inputs)."""
    try:
        build_program(node, {node.number})
    except NotFusableError:
        return False
    return True
