"""NaN and inf (errors and NumPy's warnings with NumPy's values; errors that need the
values, raised at the first synchronization), empty and 0-d arrays, non-array inputs
(strings, objects, ragged lists)."""

from __future__ import annotations

import numpy

from .case import BadCase

NAN = numpy.array([1.0, numpy.nan, 3.0])
INF = numpy.array([1.0, numpy.inf, -numpy.inf])
EMPTY = numpy.zeros(0)
EMPTY_2D = numpy.zeros((0, 3))
SCALAR = numpy.array(2.0)
V = numpy.arange(1.0, 7.0)

NEGATIVE_POWER = "integers to negative powers: NumPy checks the exponent's values"


def _nan_inf_cases() -> list[BadCase]:
    warn = RuntimeWarning
    return [
        BadCase("int(nan 0-d)", (numpy.array(numpy.nan),), lambda xp, a: int(a), mentions=("NaN",)),
        BadCase(
            "int(inf 0-d)", (numpy.array(numpy.inf),), lambda xp, a: int(a), mentions=("infinity",)
        ),
        BadCase("int(a[1]) nan", (NAN,), lambda xp, a: int(a[1]), mentions=("NaN",)),
        BadCase("operator.index(float)", (SCALAR,), lambda xp, a: a.__index__()),
        BadCase("range(float 0-d)", (SCALAR,), lambda xp, a: range(a)),
        BadCase("astype(int64) of nan", (NAN,), lambda xp, a: a.astype(numpy.int64), warns=warn),
        BadCase("astype(uint8) of nan", (NAN,), lambda xp, a: a.astype(numpy.uint8), warns=warn),
        BadCase("astype(int32) of inf", (INF,), lambda xp, a: a.astype(numpy.int32), warns=warn),
        BadCase(
            "astype(float32) overflow",
            (numpy.array([1e300]),),
            lambda xp, a: a.astype(numpy.float32),
            warns=warn,
        ),
        BadCase("log(0)", (numpy.array([0.0, 1.0]),), lambda xp, a: xp.log(a), warns=warn),
        BadCase("sqrt(-1)", (numpy.array([-1.0, 4.0]),), lambda xp, a: xp.sqrt(a), warns=warn),
        BadCase("exp overflow", (numpy.array([1000.0]),), lambda xp, a: xp.exp(a), warns=warn),
        BadCase(
            "int // 0",
            (numpy.array([1, 2]), numpy.array([0, 1])),
            lambda xp, a, b: a // b,
            warns=warn,
        ),
        BadCase(
            "int % 0",
            (numpy.array([1, 2]), numpy.array([0, 1])),
            lambda xp, a, b: a % b,
            warns=warn,
        ),
        BadCase("inf - inf", (INF, INF), lambda xp, a, b: a - b, warns=warn),
        BadCase(
            "nanmax all-nan",
            (numpy.array([numpy.nan, numpy.nan]),),
            lambda xp, a: xp.nanmax(a),
            warns=warn,
        ),
        BadCase(
            "int ** negative array",
            (numpy.array([2, 3]), numpy.array([1, -1])),
            lambda xp, a, b: a**b,
            deferred=NEGATIVE_POWER,
            mentions=("negative",),
        ),
        BadCase(
            "power(int, negative array)",
            (numpy.array([2, 3]), numpy.array([-2, 1])),
            lambda xp, a, b: xp.power(a, b),
            deferred=NEGATIVE_POWER,
            mentions=("negative",),
        ),
        BadCase("int ** -1", (numpy.array([2, 3]),), lambda xp, a: a**-1, mentions=("negative",)),
        *_failing_write_cases(),
    ]


def _power_into(a, b):
    a[:2] = a[:2] ** b


def _in_place_power(a, b):
    a **= b


def _power_out(xp, a, b) -> None:
    xp.power(a, b, out=a)


def _failing_write_cases() -> list[BadCase]:
    """Writes whose error needs the values: raised at the first synchronization, and the
    target rolled back (``_array/rollback.py``)."""
    ints, negative = numpy.arange(1, 7), numpy.array([1, -1])
    return [
        BadCase(
            "a[:2] = a[:2] ** negative",
            (ints, negative),
            lambda xp, a, b: _power_into(a, b),
            deferred=NEGATIVE_POWER,
            mentions=("negative",),
        ),
        BadCase(
            "a **= negative",
            (ints[:2].copy(), negative),
            lambda xp, a, b: _in_place_power(a, b),
            deferred=NEGATIVE_POWER,
            mentions=("negative",),
        ),
        BadCase(
            "power(a, negative, out=a)",
            (ints[:2].copy(), negative),
            _power_out,
            deferred=NEGATIVE_POWER,
            mentions=("negative",),
        ),
    ]


def _empty_and_0d_cases() -> list[BadCase]:
    no_identity = ("zero-size", "no identity")
    return [
        BadCase("max(empty)", (EMPTY,), lambda xp, a: xp.max(a), mentions=no_identity),
        BadCase(
            "min(empty int)", (numpy.zeros(0, int),), lambda xp, a: a.min(), mentions=no_identity
        ),
        BadCase(
            "max(empty, axis=0)", (EMPTY_2D,), lambda xp, a: a.max(axis=0), mentions=no_identity
        ),
        BadCase("ptp(empty)", (EMPTY,), lambda xp, a: xp.ptp(a), mentions=("zero-size",)),
        BadCase("argmax(empty)", (EMPTY,), lambda xp, a: xp.argmax(a), mentions=("empty",)),
        BadCase("argmin(empty)", (EMPTY,), lambda xp, a: a.argmin(), mentions=("empty",)),
        BadCase("argmax(empty, axis=0)", (EMPTY_2D,), lambda xp, a: a.argmax(axis=0)),
        BadCase("item(empty)", (EMPTY,), lambda xp, a: a.item(), mentions=("size 1",)),
        BadCase("float(empty)", (EMPTY,), lambda xp, a: float(a)),
        BadCase("bool(empty)", (EMPTY,), lambda xp, a: bool(a), mentions=("empty",)),
        BadCase("bool(two)", (V[:2].copy(),), lambda xp, a: bool(a), mentions=("ambiguous",)),
        BadCase("float(two)", (V[:2].copy(),), lambda xp, a: float(a), mentions=("0-dimensional",)),
        BadCase("int(two)", (V[:2].copy(),), lambda xp, a: int(a), mentions=("0-dimensional",)),
        BadCase("mean(empty)", (EMPTY,), lambda xp, a: xp.mean(a), warns=RuntimeWarning),
        BadCase(
            "var(one, ddof=2)",
            (V[:1].copy(),),
            lambda xp, a: xp.var(a, ddof=2),
            warns=RuntimeWarning,
        ),
        BadCase("len(0-d)", (SCALAR,), lambda xp, a: len(a), mentions=("unsized",)),
        BadCase("iter(0-d)", (SCALAR,), lambda xp, a: iter(a), mentions=("0-d",)),
        BadCase(
            "0-d mean(axis=0)",
            (SCALAR,),
            lambda xp, a: a.mean(axis=0),
            mentions=("axis 0", "dimension 0"),
        ),
        BadCase(
            "concatenate 0-d",
            (SCALAR,),
            lambda xp, a: xp.concatenate([a, a]),
            mentions=("zero-dimensional",),
        ),
        BadCase("matmul 0-d", (SCALAR, SCALAR), lambda xp, a, b: a @ b, mentions=("matmul",)),
        BadCase("transpose 0-d", (SCALAR,), lambda xp, a: a.transpose(0)),
        BadCase("reshape size", (V,), lambda xp, a: a.reshape(4), mentions=("size 6", "(4,)")),
        BadCase("reshape empty", (EMPTY,), lambda xp, a: a.reshape(3), mentions=("size 0",)),
        BadCase("reshape two -1", (V,), lambda xp, a: a.reshape(-1, -1), mentions=("one unknown",)),
        BadCase("reshape 0-d", (SCALAR,), lambda xp, a: a.reshape(2)),
        BadCase("empty[0]", (EMPTY,), lambda xp, a: a[0], mentions=("index 0", "size 0")),
        BadCase(
            "empty[0] = 1", (EMPTY,), lambda xp, a: a.__setitem__(0, 1.0), mentions=("size 0",)
        ),
    ]


def _non_array_cases() -> list[BadCase]:
    ragged = [[1.0], [1.0, 2.0]]
    return [
        BadCase("array(ragged)", (), lambda xp: xp.array(ragged), mentions=("inhomogeneous",)),
        BadCase("asarray(ragged)", (), lambda xp: xp.asarray(ragged), mentions=("inhomogeneous",)),
        BadCase(
            "a + ragged",
            (V[:2].copy(),),
            lambda xp, a: a + [1.0, [2.0, 3.0]],
            mentions=("inhomogeneous",),
        ),
        BadCase("add(ragged, 1)", (), lambda xp: xp.add(ragged, 1.0), mentions=("inhomogeneous",)),
        BadCase("sum(ragged)", (), lambda xp: xp.sum(ragged)),
        BadCase("a + 'a'", (V,), lambda xp, a: a + "a", mentions=("add",)),
        BadCase("add(a, 'a')", (V,), lambda xp, a: xp.add(a, "a"), mentions=("add",)),
        BadCase("multiply(a, b'x')", (V,), lambda xp, a: xp.multiply(a, b"x")),
        BadCase("sqrt(object())", (), lambda xp: xp.sqrt(xp.array(object()))),
        BadCase("a * object()", (V,), lambda xp, a: a * object()),
        BadCase("a < 'a'", (V,), lambda xp, a: a < "a"),
        BadCase("sum(strings)", (), lambda xp: xp.sum(xp.array(["a", "b"]))),
        BadCase("zeros('a')", (), lambda xp: xp.zeros("a")),
        BadCase("ones((2, 'a'))", (), lambda xp: xp.ones((2, "a")), mentions=("str",)),
        BadCase("empty((2.5,))", (), lambda xp: xp.empty((2.5,)), mentions=("float",)),
        BadCase("zeros(-1)", (), lambda xp: xp.zeros(-1), mentions=("negative",)),
        BadCase("full((2, -3), 0)", (), lambda xp: xp.full((2, -3), 0.0), mentions=("negative",)),
        BadCase("eye('a')", (), lambda xp: xp.eye("a")),
        BadCase("arange('a')", (), lambda xp: xp.arange("a")),
        BadCase("arange step 0", (), lambda xp: xp.arange(0, 10, 0)),
        BadCase("linspace(num=-1)", (), lambda xp: xp.linspace(0, 1, -1), mentions=("-1",)),
        BadCase("reshape('x')", (V,), lambda xp, a: a.reshape("x")),
        BadCase("a[None, 'x']", (V,), lambda xp, a: a[None, "x"]),
        BadCase("where(1, object, a)", (V,), lambda xp, a: xp.where(True, object(), a) + 1),
    ]


NAN_INF = _nan_inf_cases()
EMPTY_AND_0D = _empty_and_0d_cases()
NON_ARRAY = _non_array_cases()
