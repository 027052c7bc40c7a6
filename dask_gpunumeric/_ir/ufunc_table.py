"""ufunc_table: one row per NumPy ufunc. The namespace, the operators and the parity tests
are generated from these rows (the chunk-fusion work adds each row's C++ expression).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

import numpy


@dataclass(frozen=True)
class UfuncSpec:
    name: str  # our name, NumPy's name (aliases included)
    numpy_name: str  # the canonical NumPy ufunc it stands for
    family: str  # the NumPy reference section it belongs to

    @functools.cached_property
    def numpy_ufunc(self) -> numpy.ufunc:
        return getattr(numpy, self.numpy_name)

    @property
    def nin(self) -> int:
        return self.numpy_ufunc.nin

    @property
    def nout(self) -> int:
        return self.numpy_ufunc.nout


def _rows(family: str, names: str) -> list[UfuncSpec]:
    rows = []
    for entry in names.split():
        name, _, canonical = entry.partition("=")
        rows.append(UfuncSpec(name, canonical or name, family))
    return rows


ufunc_table: tuple[UfuncSpec, ...] = tuple(
    _rows(
        "arithmetic",
        "add subtract multiply divide true_divide=divide floor_divide power pow=power "
        "float_power remainder mod=remainder fmod divmod negative positive absolute "
        "abs=absolute fabs reciprocal square sqrt cbrt sign heaviside conjugate "
        "conj=conjugate gcd lcm",
    )
    + _rows(
        "exponents-logarithms",
        "exp exp2 expm1 log log2 log10 log1p logaddexp logaddexp2",
    )
    + _rows(
        "trigonometric",
        "sin cos tan arcsin arccos arctan arctan2 asin=arcsin acos=arccos atan=arctan "
        "atan2=arctan2 hypot sinh cosh tanh arcsinh arccosh arctanh asinh=arcsinh "
        "acosh=arccosh atanh=arctanh degrees radians deg2rad rad2deg",
    )
    + _rows(
        "comparison",
        "greater greater_equal less less_equal equal not_equal logical_and logical_or "
        "logical_xor logical_not maximum minimum fmax fmin",
    )
    + _rows(
        "bitwise",
        "bitwise_and bitwise_or bitwise_xor invert bitwise_not=invert "
        "bitwise_invert=invert left_shift bitwise_left_shift=left_shift right_shift "
        "bitwise_right_shift=right_shift bitwise_count",
    )
    + _rows(
        "floating",
        "isfinite isinf isnan isnat signbit copysign nextafter spacing modf ldexp frexp "
        "floor ceil trunc rint",
    )
)

ufunc_by_name: dict[str, UfuncSpec] = {row.name: row for row in ufunc_table}
