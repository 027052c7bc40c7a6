"""Wrong dtypes and unsafe casts: in-place operators, ``out=``, element assignment, dtype
arguments, and ufuncs without a loop for the input types."""

from __future__ import annotations

import operator

import numpy

from .case import BadCase

INTS = numpy.arange(1, 7)  # int64
INT8 = numpy.arange(1, 7, dtype=numpy.int8)
UINT8 = numpy.arange(1, 7, dtype=numpy.uint8)
FLOATS = numpy.arange(1.0, 7.0)
FLOAT32 = FLOATS.astype(numpy.float32)
COMPLEX = FLOATS + 1j
BOOLS = numpy.array([True, False, True, False, True, True])


def _in_place(op, value):
    return lambda xp, a: op(a, value)


def _in_place_array(op):
    return lambda xp, a, b: op(a, b)


def _in_place_cases() -> list[BadCase]:
    scalar = [
        ("int += 1.5", INTS, operator.iadd, 1.5, ("cast", "float64", "int64")),
        ("int -= 0.5", INTS, operator.isub, 0.5, ("cast",)),
        ("int *= 1.5", INTS, operator.imul, 1.5, ("cast",)),
        ("int /= 2", INTS, operator.itruediv, 2, ("cast", "divide")),
        ("int **= 0.5", INTS, operator.ipow, 0.5, ("cast",)),
        ("int += 1j", INTS, operator.iadd, 1j, ("cast", "complex")),
        ("float += 1j", FLOATS, operator.iadd, 1j, ("cast", "complex")),
        ("float32 *= 1j", FLOAT32, operator.imul, 1j, ("cast",)),
        ("bool += 1", BOOLS, operator.iadd, 1, ("cast",)),
        ("bool *= 2.0", BOOLS, operator.imul, 2.0, ("cast",)),
        ("uint8 += -1", UINT8, operator.iadd, -1, ("-1", "uint8")),
        ("int8 += 300", INT8, operator.iadd, 300, ("300", "int8")),
        ("uint8 *= 256", UINT8, operator.imul, 256, ("256",)),
        ("float &= 1", FLOATS, operator.iand, 1, ("bitwise_and",)),
        ("float |= 1", FLOATS, operator.ior, 1, ("bitwise_or",)),
        ("float <<= 1", FLOATS, operator.ilshift, 1, ("left_shift",)),
        ("int &= 1.5", INTS, operator.iand, 1.5, ("bitwise_and",)),
        ("int //= 1j", INTS, operator.ifloordiv, 1j, ()),
        ("int %= 1j", INTS, operator.imod, 1j, ()),
    ]
    cases = [
        BadCase(name, (host,), _in_place(op, value), mentions=mentions)
        for name, host, op, value, mentions in scalar
    ]
    arrays = [
        ("int += float array", INTS, FLOATS, operator.iadd),
        ("int8 -= float array", INT8, FLOATS, operator.isub),
        ("float32 += complex array", FLOAT32, COMPLEX, operator.iadd),
        ("float *= complex array", FLOATS, COMPLEX, operator.imul),
        ("uint8 += float32 array", UINT8, FLOAT32, operator.iadd),
        ("bool |= int array", BOOLS, INTS, operator.ior),
        ("int /= int array", INTS, INTS.copy(), operator.itruediv),
        ("float ^= float array", FLOATS, FLOATS.copy(), operator.ixor),
    ]
    cases += [
        BadCase(
            name,
            (a, b),
            _in_place_array(op),
            mentions=("cast",) if "=" in name[:10] and op not in (operator.ixor,) else (),
        )
        for name, a, b, op in arrays
    ]
    return cases


def _out_cases() -> list[BadCase]:
    cases = []
    for name, inputs, out in [
        ("add float -> int out", (FLOATS, FLOATS), numpy.zeros(6, numpy.int64)),
        ("multiply complex -> float out", (COMPLEX, COMPLEX), numpy.zeros(6)),
        ("sqrt -> int out", (FLOATS,), numpy.zeros(6, numpy.int64)),
        ("negative -> bool out", (INTS,), numpy.zeros(6, bool)),
        ("divide int -> int out", (INTS, INTS), numpy.zeros(6, numpy.int64)),
        ("sin int -> int out", (INTS,), numpy.zeros(6, numpy.int64)),
        ("add float32 -> uint8 out", (FLOAT32, FLOAT32), numpy.zeros(6, numpy.uint8)),
    ]:
        ufunc = name.split()[0]
        cases.append(
            BadCase(
                name,
                (*inputs, out),
                lambda xp, *args, ufunc=ufunc: getattr(xp, ufunc)(*args[:-1], out=args[-1]),
                mentions=("cast", ufunc),
            )
        )
    return cases


def _set_element(index, value):
    def call(xp, a):
        a[index] = value

    return call


def _assignment_cases() -> list[BadCase]:
    bad = [
        ("uint8[0] = 300", UINT8, 0, 300, ("300", "uint8")),
        ("int8[0] = -129", INT8, 0, -129, ("-129", "int8")),
        ("uint8[:] = -1", UINT8, slice(None), -1, ("-1", "uint8")),
        ("int[0] = 'abc'", INTS, 0, "abc", ("abc",)),
        ("int[0] = 1j", INTS, 0, 1j, ("complex",)),
        ("float[0] = 1j", FLOATS, 0, 1j, ("complex",)),
        ("int[0] = [1, 2]", INTS, 0, [1, 2], ("list",)),
        ("int[0] = object()", INTS, 0, object(), ("object",)),
        ("int[0] = None", INTS, 0, None, ("NoneType",)),
        ("float[:] = 'x'", FLOATS, slice(None), "x", ("x",)),
        ("int[:2] = [1.5, 'a']", INTS, slice(None, 2), [1.5, "a"], ()),
        ("int[0] = nan", INTS, 0, float("nan"), ("NaN",)),
        ("int[0] = inf", INTS, 0, float("inf"), ("infinity",)),
        ("int[:] = [nan] * 6", INTS, slice(None), [float("nan")] * 6, ("NaN",)),
        ("int64[0] = 2**64", INTS, 0, 2**64, ()),
    ]
    return [
        BadCase(name, (host,), _set_element(index, value), mentions=mentions)
        for name, host, index, value, mentions in bad
    ]


def _dtype_argument_cases() -> list[BadCase]:
    return [
        BadCase("astype('nodtype')", (FLOATS,), lambda xp, a: a.astype("nodtype")),
        BadCase(
            "astype casting=safe",
            (FLOATS,),
            lambda xp, a: a.astype(numpy.int64, casting="safe"),
            mentions=("safe",),
        ),
        BadCase("zeros dtype", (), lambda xp: xp.zeros(3, dtype="nodtype")),
        BadCase("ones dtype object()", (), lambda xp: xp.ones(3, dtype=object())),
        BadCase("sum dtype", (FLOATS,), lambda xp, a: a.sum(dtype="nodtype")),
        BadCase("array dtype", (), lambda xp: xp.array([1, 2], dtype="nodtype")),
        BadCase("arange dtype", (), lambda xp: xp.arange(3, dtype="nodtype")),
        BadCase(
            "add dtype casting",
            (FLOATS, FLOATS),
            lambda xp, a, b: xp.add(a, b, dtype=numpy.int64, casting="safe"),
        ),
        BadCase(
            "bitwise_and floats",
            (FLOATS, FLOATS),
            lambda xp, a, b: xp.bitwise_and(a, b),
            mentions=("bitwise_and",),
        ),
        BadCase("invert float", (FLOATS,), lambda xp, a: xp.invert(a), mentions=("invert",)),
        BadCase(
            "left_shift float",
            (FLOATS,),
            lambda xp, a: xp.left_shift(a, 1),
            mentions=("left_shift",),
        ),
        BadCase("floor complex", (COMPLEX,), lambda xp, a: xp.floor(a), mentions=("floor",)),
        BadCase("a & 1.5", (INTS,), lambda xp, a: a & 1.5, mentions=("bitwise_and",)),
        BadCase("~float", (FLOATS,), lambda xp, a: ~a, mentions=("invert",)),
        BadCase("a >> 1.0", (INTS,), lambda xp, a: a >> 1.0, mentions=("right_shift",)),
        BadCase("gcd floats", (FLOATS, FLOATS), lambda xp, a, b: xp.gcd(a, b), mentions=("gcd",)),
        BadCase(
            "arctan2 complex",
            (COMPLEX, COMPLEX),
            lambda xp, a, b: xp.arctan2(a, b),
            mentions=("arctan2",),
        ),
        BadCase(
            "maximum complex out float",
            (COMPLEX, COMPLEX, FLOATS),
            lambda xp, a, b, o: xp.maximum(a, b, out=o),
        ),
    ]


CASES = [*_in_place_cases(), *_out_cases(), *_assignment_cases(), *_dtype_argument_cases()]
