"""C++ spellings of dtypes, constants and casts for CuPy's ``ElementwiseKernel``.

Type names are the ones CuPy declares kernel variables with (``double``,
``complex<float>``, ``signed char``...); ``cuda_helpers.py`` holds the device functions
the casts call. ``float16`` is not supported: its loops are listed unfusible.
"""

from __future__ import annotations

import math
from typing import Any

import numpy

CPP_TYPES: dict[str, str] = {
    "bool": "bool",
    "int8": "signed char",
    "int16": "short",
    "int32": "int",
    "int64": "long long",
    "uint8": "unsigned char",
    "uint16": "unsigned short",
    "uint32": "unsigned int",
    "uint64": "unsigned long long",
    "float32": "float",
    "float64": "double",
    "complex64": "complex<float>",
    "complex128": "complex<double>",
}


class NotFusibleError(ValueError):
    """An operation or dtype the CUDA generator cannot spell exactly as NumPy computes it."""


class UnsupportedDtypeError(NotFusibleError):
    """A dtype the CUDA generator has no C++ type for (``float16``, datetimes...)."""


def cpp_type(dtype: numpy.dtype) -> str:
    """``"complex<double>"`` for ``complex128``; raises for dtypes CuPy kernels lack here."""
    try:
        return CPP_TYPES[numpy.dtype(dtype).name]
    except KeyError:
        raise UnsupportedDtypeError(
            f"the CUDA generator has no C++ type for {dtype}: keep this operation out of "
            "fused kernels (gpunumeric.fusion: false, or astype to float32 first)"
        ) from None


def kind_of(dtype: numpy.dtype) -> str:
    """NumPy's kind letter: ``b`` bool, ``i`` signed, ``u`` unsigned, ``f``, ``c``."""
    return numpy.dtype(dtype).kind


def compute_unsigned(dtype: numpy.dtype) -> str:
    """The unsigned C++ type integer arithmetic of ``dtype`` wraps in (no signed overflow,
    which is undefined in C++, and no promotion of small types to ``int``)."""
    return "unsigned long long" if numpy.dtype(dtype).itemsize == 8 else "unsigned int"


def real_dtype(dtype: numpy.dtype) -> numpy.dtype:
    """``float32`` for ``complex64`` and ``float32``; ``float64`` otherwise."""
    single = numpy.dtype(dtype).name in ("complex64", "float32")
    return numpy.dtype("float32" if single else "float64")


def real_type(dtype: numpy.dtype) -> str:
    """``float`` for ``complex64`` and ``float32``; ``double`` for the 128/64-bit ones."""
    return cpp_type(real_dtype(dtype))


def literal(value: Any, dtype: numpy.dtype) -> str:
    """A C++ expression of type ``dtype`` equal to ``value`` (exact: shortest round-trip
    decimal for floats, bit patterns for NaN and infinities)."""
    dtype = numpy.dtype(dtype)
    kind = dtype.kind
    if kind == "b":
        return "true" if value else "false"
    if kind in "iu":
        return _integer_literal(int(value), dtype)
    if kind == "f":
        return _float_literal(float(value), dtype)
    if kind == "c":
        value = complex(value)
        real = _float_literal(value.real, real_dtype(dtype))
        imag = _float_literal(value.imag, real_dtype(dtype))
        return f"{cpp_type(dtype)}({real}, {imag})"
    raise UnsupportedDtypeError(f"no C++ literal for a {dtype} constant")


def _integer_literal(value: int, dtype: numpy.dtype) -> str:
    value = int(numpy.array(value).astype(dtype, casting="unsafe"))
    if value < 0:
        # "-9223372036854775808LL" is unary minus on an out-of-range literal.
        return f"(({cpp_type(dtype)})({value + 1}LL - 1))"
    return f"(({cpp_type(dtype)}){value}ULL)"


def _float_literal(value: float, dtype: numpy.dtype) -> str:
    single = numpy.dtype(dtype).name == "float32"
    if math.isnan(value):
        return "gn_nan_f()" if single else "gn_nan()"
    if math.isinf(value):
        sign = "-" if value < 0 else ""
        return f"({sign}gn_inf_f())" if single else f"({sign}gn_inf())"
    text = f"{numpy.float32(value)!r}"[len("np.float32(") : -1] + "f" if single else repr(value)
    return f"({text})" if text.startswith("-") else text
