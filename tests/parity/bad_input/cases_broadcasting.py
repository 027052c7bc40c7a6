"""Wrong shapes for broadcasting: binary ufuncs and operators, in-place operators, ``out=``,
assignment, and functions that broadcast their operands."""

from __future__ import annotations

import operator

import numpy

from .case import BadCase

F = numpy.arange(1.0, 7.0)

# (left shape, right shape): neither broadcasts to the other.
SHAPE_PAIRS = [((3,), (4,)), ((2, 3), (3, 2)), ((2, 3, 4), (3, 3))]

BINARY_UFUNCS = [
    "add",
    "subtract",
    "multiply",
    "true_divide",
    "maximum",
    "minimum",
    "power",
    "arctan2",
    "hypot",
    "equal",
    "less",
    "logical_and",
    "copysign",
]


def _values(shape: tuple[int, ...]) -> numpy.ndarray:
    return numpy.arange(1.0, 1.0 + numpy.prod(shape)).reshape(shape)


def _shape_text(shape: tuple[int, ...]) -> str:
    return str(shape).replace(" ", "")


def _ufunc_cases() -> list[BadCase]:
    cases = []
    for name in BINARY_UFUNCS:
        for left, right in SHAPE_PAIRS:
            cases.append(
                BadCase(
                    f"{name}{left}{right}",
                    (_values(left), _values(right)),
                    lambda xp, a, b, name=name: getattr(xp, name)(a, b),
                    mentions=("broadcast", _shape_text(left), _shape_text(right)),
                )
            )
    return cases


OPERATORS = {
    "a+b": operator.add,
    "a-b": operator.sub,
    "a*b": operator.mul,
    "a/b": operator.truediv,
    "a//b": operator.floordiv,
    "a%b": operator.mod,
    "a**b": operator.pow,
    "a<b": operator.lt,
    "a==b": operator.eq,
    "a!=b": operator.ne,
}

IN_PLACE = {
    "a+=b": operator.iadd,
    "a-=b": operator.isub,
    "a*=b": operator.imul,
    "a/=b": operator.itruediv,
    "a//=b": operator.ifloordiv,
    "a%=b": operator.imod,
    "a**=b": operator.ipow,
}


def _operator_cases() -> list[BadCase]:
    cases = [
        BadCase(
            text,
            (_values((2, 3)), _values((2, 4))),
            lambda xp, a, b, op=op: op(a, b),
            mentions=("broadcast", "(2,3)", "(2,4)"),
        )
        for text, op in OPERATORS.items()
    ]
    for text, op in IN_PLACE.items():
        # The result's shape (2, 3) is not the target's (3,); and mismatching outright.
        cases.append(
            BadCase(
                f"{text} grows target",
                (_values((3,)), _values((2, 3))),
                lambda xp, a, b, op=op: op(a, b),
                mentions=("(3,)", "(2,3)"),
            )
        )
        cases.append(
            BadCase(
                f"{text} mismatch",
                (_values((2, 3)), _values((2, 2))),
                lambda xp, a, b, op=op: op(a, b),
                mentions=("(2,3)", "(2,2)"),
            )
        )
    cases.append(
        BadCase(
            "a&=b ints mismatch",
            (numpy.arange(3), numpy.arange(4)),
            lambda xp, a, b: operator.iand(a, b),
            mentions=("(3,)", "(4,)"),
        )
    )
    return cases


def _out_cases() -> list[BadCase]:
    out_shapes = [("add", 2), ("multiply", 2), ("maximum", 2), ("negative", 1), ("sqrt", 1)]
    cases = []
    for name, arity in out_shapes:
        for out_shape in [(4,), (2, 2)]:
            cases.append(
                BadCase(
                    f"{name} out={out_shape}",
                    (F[:3].copy(), F[3:].copy(), numpy.zeros(out_shape)),
                    lambda xp, a, b, out, name=name, arity=arity: getattr(xp, name)(
                        *(a, b)[:arity], out=out
                    ),
                    mentions=(_shape_text(out_shape),),
                )
            )
    return cases


def _setitem(index, value_shape):
    def call(xp, a, v):
        a[index] = v

    return call


SETITEMS = [
    ("a[:]=v", slice(None), (4,), (3, 3)),
    ("a[0]=v", 0, (2,), (3, 3)),
    ("a[1:3]=v", slice(1, 3), (3, 3), (3, 3)),
    ("a[:, 0]=v", (slice(None), 0), (2,), (3, 3)),
    ("a[...]=v", Ellipsis, (2, 2), (3, 3)),
    ("a[::2]=v", slice(None, None, 2), (2,), (5,)),
    ("a[[0, 1]]=v", [0, 1], (3,), (4,)),
    ("a[[0, 2], 1:]=v", ([0, 2], slice(1, None)), (3, 2), (3, 3)),
]


def _setitem_cases() -> list[BadCase]:
    return [
        BadCase(
            name,
            (_values(target), _values(value)),
            _setitem(index, value),
            mentions=("shape", _shape_text(value)),
        )
        for name, index, value, target in SETITEMS
    ]


def _function_cases() -> list[BadCase]:
    return [
        BadCase(
            "where(c, x, y)",
            (numpy.ones(3, bool), _values((4,)), _values((3,))),
            lambda xp, c, x, y: xp.where(c, x, y),
            mentions=("broadcast",),
        ),
        BadCase(
            "broadcast_to",
            (_values((3,)),),
            lambda xp, a: xp.broadcast_to(a, (4,)),
            mentions=("broadcast",),
        ),
        BadCase(
            "broadcast_arrays",
            (_values((3,)), _values((2,))),
            lambda xp, a, b: xp.broadcast_arrays(a, b),
            mentions=("(3,)", "(2,)"),
        ),
        BadCase(
            "clip bounds",
            (_values((3,)), _values((2,))),
            lambda xp, a, low: xp.clip(a, low, 10.0),
            mentions=("broadcast",),
        ),
        BadCase(
            "matmul core dims",
            (_values((2, 3)), _values((2, 3))),
            lambda xp, a, b: a @ b,
            mentions=("matmul", "mismatch"),
        ),
        BadCase("dot aligned", (_values((2, 3)), _values((2, 3))), lambda xp, a, b: xp.dot(a, b)),
        BadCase("inner", (_values((3,)), _values((4,))), lambda xp, a, b: xp.inner(a, b)),
        BadCase(
            "outer out=",
            (_values((2,)), _values((3,)), numpy.zeros((3, 2))),
            lambda xp, a, b, out: xp.outer(a, b, out=out),
        ),
    ]


CASES = [
    *_ufunc_cases(),
    *_operator_cases(),
    *_out_cases(),
    *_setitem_cases(),
    *_function_cases(),
]
