"""Operators and NumPy methods attached to ``ndarray`` from this layer (JAX attaches its
array methods from its NumPy layer the same way), plus the NumPy dispatch protocols."""

from __future__ import annotations

import types as types_module
from typing import Any

import numpy

from .._array.ndarray import ndarray
from . import creation, elementwise, io, linear_algebra, reductions, sorting, user_ufuncs
from .ufuncs import ufuncs

_BINARY_OPERATORS = {
    "add": "add",
    "sub": "subtract",
    "mul": "multiply",
    "truediv": "divide",
    "floordiv": "floor_divide",
    "mod": "remainder",
    "pow": "power",
    "and": "bitwise_and",
    "or": "bitwise_or",
    "xor": "bitwise_xor",
    "lshift": "left_shift",
    "rshift": "right_shift",
}
_COMPARISONS = {
    "lt": "less",
    "le": "less_equal",
    "gt": "greater",
    "ge": "greater_equal",
    "eq": "equal",
    "ne": "not_equal",
}
_UNARY = {"neg": "negative", "pos": "positive", "abs": "absolute", "invert": "invert"}


def _operator(function: Any) -> Any:
    def forward(self: ndarray, other: Any) -> Any:
        return function(self, other)

    def reflected(self: ndarray, other: Any) -> Any:
        return function(other, self)

    def in_place(self: ndarray, other: Any) -> Any:
        return function(self, other, out=self)

    return forward, reflected, in_place


def _as_method(function: Any) -> Any:
    """ufunc objects are not descriptors: bind ``self`` explicitly."""

    def method(self: ndarray, *args: Any, **kwargs: Any) -> Any:
        return function(self, *args, **kwargs)

    return method


def _comparison(function: Any) -> Any:
    def compare(self: ndarray, other: Any) -> Any:
        try:
            return function(self, other)
        except TypeError:
            if function.__name__ in ("equal", "not_equal"):
                return _all_unequal(self, other, function.__name__ == "not_equal")
            raise  # NumPy's UFuncTypeError for ordering an array with a string

    return compare


def _all_unequal(array: ndarray, other: Any, value: bool) -> Any:
    """NumPy's ``==``/``!=`` with an object it cannot compare (``None``, a string): every
    element differs, broadcast as NumPy broadcasts it."""
    try:
        other_shape = numpy.shape(other)
        shape = numpy.broadcast_shapes(array.shape, other_shape)
    except (TypeError, ValueError):
        return NotImplemented
    return creation.full(shape, value, dtype=bool)


def _install_operators() -> None:
    for short, name in _BINARY_OPERATORS.items():
        forward, reflected, in_place = _operator(ufuncs[name])
        setattr(ndarray, f"__{short}__", forward)
        setattr(ndarray, f"__r{short}__", reflected)
        setattr(ndarray, f"__i{short}__", in_place)
    for short, name in _COMPARISONS.items():
        setattr(ndarray, f"__{short}__", _comparison(ufuncs[name]))
    for short, name in _UNARY.items():
        setattr(ndarray, f"__{short}__", _as_method(ufuncs[name]))
    forward, reflected, in_place = _operator(linear_algebra.matmul)
    special = {
        "__matmul__": forward,
        "__rmatmul__": reflected,
        "__imatmul__": lambda self, other: linear_algebra.matmul(self, other, out=self),
        "__divmod__": lambda self, other: ufuncs["divmod"](self, other),
        "__rdivmod__": lambda self, other: ufuncs["divmod"](other, self),
    }
    for name, method in special.items():
        setattr(ndarray, name, method)


def _conjugate(self: ndarray) -> ndarray:
    """``ndarray.conj()``: NumPy returns a real array itself (``numpy.conj`` would cast
    bool to int8)."""
    return ufuncs["conjugate"](self) if self.dtype.kind == "c" else self


_METHODS = {
    "sum": reductions.sum,
    "prod": reductions.prod,
    "mean": reductions.mean,
    "var": reductions.var,
    "std": reductions.std,
    "max": reductions.max,
    "min": reductions.min,
    "any": reductions.any,
    "all": reductions.all,
    "argmax": reductions.argmax,
    "argmin": reductions.argmin,
    "cumsum": reductions.cumsum,
    "cumprod": reductions.cumprod,
    "dot": linear_algebra.dot,
    "astype": elementwise.astype,
    "clip": elementwise.clip,
    "conj": _conjugate,
    "conjugate": _conjugate,
}


def _copy(self: ndarray, order: str = "C") -> ndarray:
    return creation.copy(self)


def _fill(self: ndarray, value: Any) -> None:
    self[...] = value


def _flatten(self: ndarray, order: str = "C") -> ndarray:
    return creation.copy(self.reshape(-1))


# -- math section (api-math): sorting and partitioning methods; sort/partition are
# in place, as in NumPy (through views too: the result is written back).
def _sort_in_place(
    self: ndarray, axis: Any = -1, kind: Any = None, order: Any = None, *, stable: Any = None
) -> None:
    self[...] = sorting.sort(self, axis, kind, order, stable=stable)


def _partition_in_place(
    self: ndarray, kth: Any, axis: Any = -1, kind: str = "introselect", order: Any = None
) -> None:
    self[...] = sorting.partition(self, kth, axis, kind, order)


_MATH_METHODS = {
    "argsort": sorting.argsort,
    "argpartition": sorting.argpartition,
    "sort": _sort_in_place,
    "partition": _partition_in_place,
}
# -- end of the math section -------------------------------------------------------------


def _array_ufunc(
    self: ndarray, ufunc: numpy.ufunc, method: str, *inputs: Any, **kwargs: Any
) -> Any:
    product = _PRODUCT_UFUNCS.get(ufunc.__name__)
    if product is not None and method == "__call__":
        return product(*inputs, **kwargs)
    if method == "__call__" and user_ufuncs.is_user_ufunc(ufunc):
        return user_ufuncs.apply_user_ufunc(ufunc, inputs, kwargs)
    ours = ufuncs.get(ufunc.__name__)
    if ours is None or method != "__call__":
        reducer = reductions.ufunc_reducers.get(ufunc.__name__)
        if method == "reduce" and reducer is not None:
            return reductions.ufunc_reduce(reducer, *inputs, **kwargs)
        scan = reductions.ufunc_scans.get(ufunc.__name__)
        if method == "accumulate" and scan is not None:
            return reductions.ufunc_reduce(scan, *inputs, **kwargs)
        if method == "outer" and ours is not None:
            return ours.outer(*inputs, **kwargs)
        return NotImplemented
    if "out" in kwargs and isinstance(kwargs["out"], tuple) and len(kwargs["out"]) == 1:
        kwargs["out"] = kwargs["out"][0]
    return ours(*inputs, **kwargs)


# NumPy's gufuncs that are products: ``host @ ours`` reaches us as the matmul ufunc.
_PRODUCT_UFUNCS = {"matmul": linear_algebra.matmul}


# NumPy functions our namespace re-exports that look at their array arguments' dtypes only.
_DTYPE_ONLY = frozenset({"result_type", "can_cast"})


def _array_function(self: ndarray, func: Any, types: Any, args: Any, kwargs: Any) -> Any:
    import dask_gpunumeric

    # numpy.linalg.inv(ours) finds dask_gpunumeric.linalg.inv (or its fallback).
    namespace: Any = dask_gpunumeric
    if func.__module__ and func.__module__.startswith("numpy."):
        for part in func.__module__.split(".")[1:]:
            namespace = getattr(namespace, part, dask_gpunumeric)
    ours: Any = getattr(namespace, func.__name__, None)
    if func.__name__ in _DTYPE_ONLY and ours is func:
        # NumPy's own dtype helpers, re-exported: they need our arrays' dtypes only.
        return ours(*(a.dtype if isinstance(a, ndarray) else a for a in args), **kwargs)
    # A subpackage of the same name (numpy.fft(ours) must not find our fft module).
    if ours is None or ours is func or isinstance(ours, types_module.ModuleType):
        return NotImplemented
    return ours(*args, **kwargs)


# -- Array manipulation and indexing routines (api-manipulation) -------------------------
def _manipulation_methods() -> dict[str, Any]:
    from . import diagonals, insertion, manipulation, selection, tiling

    return {
        "squeeze": manipulation.squeeze,
        "repeat": tiling.repeat,
        "diagonal": diagonals.diagonal,
        "trace": diagonals.trace,
        "take": selection.take,
        "compress": lambda self, condition, axis=None, out=None: selection.compress(
            condition, self, axis, out
        ),
        "choose": lambda self, choices, out=None, mode="raise": selection.choose(
            self, choices, out, mode
        ),
        "nonzero": selection.nonzero,
        "searchsorted": selection.searchsorted,
        "put": insertion.put,
    }


# -- end of api-manipulation methods ---------------------------------------------------
# -- Input and output (api-subpackages) ----------------------------------------------------
def _tofile(self: ndarray, fid: Any, sep: str = "", format: str = "%s") -> None:  # noqa: A002
    io.tofile(self, fid, sep, format)


# -- Rounding (api-more) ----------------------------------------------------------------
def _round(self: ndarray, decimals: int = 0, out: Any = None) -> ndarray:
    from . import math_misc

    return math_misc.around(self, decimals, out)


# -- end of api-more methods ------------------------------------------------------------


def install() -> None:
    _install_operators()
    for name, function in {**_METHODS, **_manipulation_methods()}.items():
        setattr(ndarray, name, function)
    for name, function in _MATH_METHODS.items():
        setattr(ndarray, name, function)
    ndarray.copy = _copy  # type: ignore[attr-defined]
    ndarray.fill = _fill  # type: ignore[attr-defined]
    ndarray.flatten = _flatten  # type: ignore[attr-defined]
    ndarray.real = property(elementwise.real)  # type: ignore[attr-defined]
    ndarray.imag = property(elementwise.imag)  # type: ignore[attr-defined]
    ndarray.__array_ufunc__ = _array_ufunc  # type: ignore[attr-defined]
    ndarray.__array_function__ = _array_function  # type: ignore[attr-defined]
    ndarray.tofile = _tofile  # type: ignore[attr-defined]
    ndarray.round = _round  # type: ignore[attr-defined]


install()
