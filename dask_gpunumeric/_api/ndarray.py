"""``ndarray``: the public array class, the handle with NumPy's operators and methods.

``_array.handle.ArrayHandle`` is what an array is (store, view, indexing, materialization);
this subclass adds what an array *does*, each operator and method a one-line call to the
API function NumPy's method stands for (``a.sum(axis)`` is ``reductions.sum(a, axis)``),
so a reader and a type checker see every one of them here.

The import cycle: this class needs the API modules (reductions, ufuncs, ...) and every
one of them needs this class (``isinstance``, ``ndarray._from_expr``). The class is
defined before those modules are imported (at the bottom of this file); the methods look
them up when called. ``_api/__init__.py`` imports this module before any other, so
whichever API module a program imports first, this class exists before any sibling runs
``from .ndarray import ndarray``, and the siblings import each other as they always did.
"""

from __future__ import annotations

import types as types_module
from typing import Any

import numpy

from .._array import tiny_ufuncs
from .._array.flags import check_writeable
from .._array.handle import ArrayHandle

# NumPy's "argument not given" marker, as the API functions' defaults use it.
_NoValue: Any = numpy._NoValue  # type: ignore[attr-defined]

# NumPy functions our namespace re-exports that look at their array arguments' dtypes only.
_DTYPE_ONLY = frozenset({"result_type", "can_cast"})


class ndarray(ArrayHandle):  # noqa: N801 - NumPy's name
    """dask_gpunumeric's array: NumPy semantics, partitioned over Dask workers, lazy.

    Basic indexing, ``.T``, ``transpose``, ``swapaxes`` and view-compatible ``reshape``
    return live views of the same store: writes through any of them are seen by all.
    """

    __slots__ = ()

    # -- arithmetic operators: forward, reflected, in place (``out=self``) ----------------
    def __add__(self, other: Any) -> ndarray:
        return _binary(numpy.add, "add", self, other)

    def __radd__(self, other: Any) -> ndarray:
        return _binary(numpy.add, "add", other, self)

    def __iadd__(self, other: Any) -> ndarray:
        return ufuncs["add"](self, other, out=self)

    def __sub__(self, other: Any) -> ndarray:
        return _binary(numpy.subtract, "subtract", self, other)

    def __rsub__(self, other: Any) -> ndarray:
        return _binary(numpy.subtract, "subtract", other, self)

    def __isub__(self, other: Any) -> ndarray:
        return ufuncs["subtract"](self, other, out=self)

    def __mul__(self, other: Any) -> ndarray:
        return _binary(numpy.multiply, "multiply", self, other)

    def __rmul__(self, other: Any) -> ndarray:
        return _binary(numpy.multiply, "multiply", other, self)

    def __imul__(self, other: Any) -> ndarray:
        return ufuncs["multiply"](self, other, out=self)

    def __truediv__(self, other: Any) -> ndarray:
        return _binary(numpy.divide, "divide", self, other)

    def __rtruediv__(self, other: Any) -> ndarray:
        return _binary(numpy.divide, "divide", other, self)

    def __itruediv__(self, other: Any) -> ndarray:
        return ufuncs["divide"](self, other, out=self)

    def __floordiv__(self, other: Any) -> ndarray:
        return ufuncs["floor_divide"](self, other)

    def __rfloordiv__(self, other: Any) -> ndarray:
        return ufuncs["floor_divide"](other, self)

    def __ifloordiv__(self, other: Any) -> ndarray:
        return ufuncs["floor_divide"](self, other, out=self)

    def __mod__(self, other: Any) -> ndarray:
        return ufuncs["remainder"](self, other)

    def __rmod__(self, other: Any) -> ndarray:
        return ufuncs["remainder"](other, self)

    def __imod__(self, other: Any) -> ndarray:
        return ufuncs["remainder"](self, other, out=self)

    def __pow__(self, other: Any) -> ndarray:
        return _binary(numpy.power, "power", self, other)

    def __rpow__(self, other: Any) -> ndarray:
        return _binary(numpy.power, "power", other, self)

    def __ipow__(self, other: Any) -> ndarray:
        return ufuncs["power"](self, other, out=self)

    def __divmod__(self, other: Any) -> tuple[ndarray, ndarray]:
        return ufuncs["divmod"](self, other)

    def __rdivmod__(self, other: Any) -> tuple[ndarray, ndarray]:
        return ufuncs["divmod"](other, self)

    def __matmul__(self, other: Any) -> ndarray:
        computed = tiny_ufuncs.matmul(self, other, ndarray)  # a solver's ``r @ r``, at once
        return linear_algebra.matmul(self, other) if computed is tiny_ufuncs.NOT_TAKEN else computed

    def __rmatmul__(self, other: Any) -> ndarray:
        return linear_algebra.matmul(other, self)

    def __imatmul__(self, other: Any) -> ndarray:
        return linear_algebra.matmul(self, other, out=self)

    # -- bitwise operators ------------------------------------------------------------------
    def __and__(self, other: Any) -> ndarray:
        return ufuncs["bitwise_and"](self, other)

    def __rand__(self, other: Any) -> ndarray:
        return ufuncs["bitwise_and"](other, self)

    def __iand__(self, other: Any) -> ndarray:
        return ufuncs["bitwise_and"](self, other, out=self)

    def __or__(self, other: Any) -> ndarray:
        return ufuncs["bitwise_or"](self, other)

    def __ror__(self, other: Any) -> ndarray:
        return ufuncs["bitwise_or"](other, self)

    def __ior__(self, other: Any) -> ndarray:
        return ufuncs["bitwise_or"](self, other, out=self)

    def __xor__(self, other: Any) -> ndarray:
        return ufuncs["bitwise_xor"](self, other)

    def __rxor__(self, other: Any) -> ndarray:
        return ufuncs["bitwise_xor"](other, self)

    def __ixor__(self, other: Any) -> ndarray:
        return ufuncs["bitwise_xor"](self, other, out=self)

    def __lshift__(self, other: Any) -> ndarray:
        return ufuncs["left_shift"](self, other)

    def __rlshift__(self, other: Any) -> ndarray:
        return ufuncs["left_shift"](other, self)

    def __ilshift__(self, other: Any) -> ndarray:
        return ufuncs["left_shift"](self, other, out=self)

    def __rshift__(self, other: Any) -> ndarray:
        return ufuncs["right_shift"](self, other)

    def __rrshift__(self, other: Any) -> ndarray:
        return ufuncs["right_shift"](other, self)

    def __irshift__(self, other: Any) -> ndarray:
        return ufuncs["right_shift"](self, other, out=self)

    # -- comparisons ------------------------------------------------------------------------
    def __lt__(self, other: Any) -> ndarray:
        return ufuncs["less"](self, other)

    def __le__(self, other: Any) -> ndarray:
        return ufuncs["less_equal"](self, other)

    def __gt__(self, other: Any) -> ndarray:
        return ufuncs["greater"](self, other)

    def __ge__(self, other: Any) -> ndarray:
        return ufuncs["greater_equal"](self, other)

    def __eq__(self, other: object) -> ndarray:  # type: ignore[override] # NumPy's: an array
        try:
            return ufuncs["equal"](self, other)
        except TypeError:
            return _all_unequal(self, other, False)

    def __ne__(self, other: object) -> ndarray:  # type: ignore[override] # NumPy's: an array
        try:
            return ufuncs["not_equal"](self, other)
        except TypeError:
            return _all_unequal(self, other, True)

    def __contains__(self, key: object) -> bool:
        # NumPy's ``(a == key).any()``, not Python's iteration over rows (ambiguous truth
        # values for n-d arrays, and a TypeError for 0-d ones)
        return bool((self == key).any())

    # -- unary operators --------------------------------------------------------------------
    def __neg__(self) -> ndarray:
        return ufuncs["negative"](self)

    def __pos__(self) -> ndarray:
        return ufuncs["positive"](self)

    def __abs__(self) -> ndarray:
        return ufuncs["absolute"](self)

    def __invert__(self) -> ndarray:
        return ufuncs["invert"](self)

    # -- NumPy's dispatch protocols ---------------------------------------------------------
    def __array_ufunc__(self, ufunc: numpy.ufunc, method: str, *inputs: Any, **kwargs: Any) -> Any:
        return _array_ufunc(ufunc, method, inputs, kwargs)

    def __array_function__(self, func: Any, types: Any, args: Any, kwargs: Any) -> Any:
        return _array_function(func, args, kwargs)

    # -- complex parts ----------------------------------------------------------------------
    @property
    def real(self) -> ndarray:
        return elementwise.real(self)

    @property
    def imag(self) -> ndarray:
        return elementwise.imag(self)

    def conj(self) -> ndarray:
        return self.conjugate()

    def conjugate(self) -> ndarray:
        """NumPy's method returns a real array itself (``numpy.conj`` would cast bool to
        int8)."""
        return ufuncs["conjugate"](self) if self.dtype.kind == "c" else self

    # -- reductions and scans ---------------------------------------------------------------
    def sum(
        self,
        axis: Any = None,
        dtype: Any = None,
        out: Any = None,
        keepdims: Any = False,
        initial: Any = _NoValue,
        where: Any = _NoValue,
    ) -> ndarray:
        return reductions.sum(self, axis, dtype, out, keepdims, initial, where)

    def prod(
        self,
        axis: Any = None,
        dtype: Any = None,
        out: Any = None,
        keepdims: Any = False,
        initial: Any = _NoValue,
        where: Any = _NoValue,
    ) -> ndarray:
        return reductions.prod(self, axis, dtype, out, keepdims, initial, where)

    def mean(
        self,
        axis: Any = None,
        dtype: Any = None,
        out: Any = None,
        keepdims: Any = False,
        *,
        where: Any = _NoValue,
    ) -> ndarray:
        return reductions.mean(self, axis, dtype, out, keepdims, where=where)

    def var(
        self,
        axis: Any = None,
        dtype: Any = None,
        out: Any = None,
        ddof: Any = 0,
        keepdims: Any = False,
        *,
        where: Any = _NoValue,
        mean: Any = _NoValue,
        correction: Any = _NoValue,
    ) -> ndarray:
        return reductions.var(
            self, axis, dtype, out, ddof, keepdims, where=where, mean=mean, correction=correction
        )

    def std(
        self,
        axis: Any = None,
        dtype: Any = None,
        out: Any = None,
        ddof: Any = 0,
        keepdims: Any = False,
        *,
        where: Any = _NoValue,
        mean: Any = _NoValue,
        correction: Any = _NoValue,
    ) -> ndarray:
        return reductions.std(
            self, axis, dtype, out, ddof, keepdims, where=where, mean=mean, correction=correction
        )

    def max(
        self,
        axis: Any = None,
        out: Any = None,
        keepdims: Any = False,
        initial: Any = _NoValue,
        where: Any = _NoValue,
    ) -> ndarray:
        return reductions.max(self, axis, out, keepdims, initial, where)

    def min(
        self,
        axis: Any = None,
        out: Any = None,
        keepdims: Any = False,
        initial: Any = _NoValue,
        where: Any = _NoValue,
    ) -> ndarray:
        return reductions.min(self, axis, out, keepdims, initial, where)

    def any(
        self, axis: Any = None, out: Any = None, keepdims: Any = False, *, where: Any = _NoValue
    ) -> ndarray:
        return reductions.any(self, axis, out, keepdims, where=where)

    def all(
        self, axis: Any = None, out: Any = None, keepdims: Any = False, *, where: Any = _NoValue
    ) -> ndarray:
        return reductions.all(self, axis, out, keepdims, where=where)

    def argmax(self, axis: Any = None, out: Any = None, *, keepdims: Any = False) -> ndarray:
        return reductions.argmax(self, axis, out, keepdims=keepdims)

    def argmin(self, axis: Any = None, out: Any = None, *, keepdims: Any = False) -> ndarray:
        return reductions.argmin(self, axis, out, keepdims=keepdims)

    def cumsum(self, axis: Any = None, dtype: Any = None, out: Any = None) -> ndarray:
        return reductions.cumsum(self, axis, dtype, out)

    def cumprod(self, axis: Any = None, dtype: Any = None, out: Any = None) -> ndarray:
        return reductions.cumprod(self, axis, dtype, out)

    def trace(
        self, offset: int = 0, axis1: int = 0, axis2: int = 1, dtype: Any = None, out: Any = None
    ) -> ndarray:
        return diagonals.trace(self, offset, axis1, axis2, dtype, out)

    # -- products ---------------------------------------------------------------------------
    def dot(self, b: Any, out: Any = None) -> ndarray:
        return linear_algebra.dot(self, b, out)

    # -- elementwise ------------------------------------------------------------------------
    def astype(
        self,
        dtype: Any,
        order: str = "K",
        casting: Any = "unsafe",
        subok: bool = True,
        copy: bool = True,
    ) -> ndarray:
        return elementwise.astype(self, dtype, order, casting, subok, copy)

    def clip(
        self,
        min: Any = _NoValue,  # noqa: A002 - NumPy's names (``a.clip(min=0)``)
        max: Any = _NoValue,  # noqa: A002
        out: Any = None,
        **kwargs: Any,
    ) -> ndarray:
        return elementwise.clip(self, min, max, out, **kwargs)

    def round(self, decimals: int = 0, out: Any = None) -> ndarray:
        return math_misc.around(self, decimals, out)

    # -- copies and writes ------------------------------------------------------------------
    def copy(self, order: str = "C") -> ndarray:
        return creation.copy(self, order)

    def fill(self, value: Any) -> None:
        self[...] = value

    def flatten(self, order: str = "C") -> ndarray:
        return creation.copy(self.ravel(order))

    @property
    def flat(self) -> flat_iterator.FlatIterator:
        return flat_iterator.FlatIterator(self)

    @flat.setter
    def flat(self, value: Any) -> None:
        flat_iterator.assign_all(self, value)

    def put(self, ind: Any, v: Any, mode: str = "raise") -> None:
        insertion.put(self, ind, v, mode)

    def tofile(self, fid: Any, sep: str = "", format: str = "%s") -> None:  # noqa: A002
        io.tofile(self, fid, sep, format)

    # -- sorting and searching (sort and partition are in place, as in NumPy: through a
    # view too, the result is written back) ------------------------------------------------
    def sort(
        self, axis: Any = -1, kind: Any = None, order: Any = None, *, stable: Any = None
    ) -> None:
        result = sorting.sort(
            self, axis, kind, order, stable=stable
        )  # NumPy's argument errors first
        check_writeable(self, "sort array is read-only")
        self[...] = result

    def partition(
        self, kth: Any, axis: Any = -1, kind: str = "introselect", order: Any = None
    ) -> None:
        result = sorting.partition(self, kth, axis, kind, order)  # NumPy's argument errors first
        check_writeable(self, "partition array is read-only")
        self[...] = result

    def argsort(
        self, axis: Any = -1, kind: Any = None, order: Any = None, *, stable: Any = None
    ) -> ndarray:
        return sorting.argsort(self, axis, kind, order, stable=stable)

    def argpartition(
        self, kth: Any, axis: Any = -1, kind: str = "introselect", order: Any = None
    ) -> ndarray:
        return sorting.argpartition(self, kth, axis, kind, order)

    def searchsorted(self, v: Any, side: str = "left", sorter: Any = None) -> ndarray:
        return selection.searchsorted(self, v, side, sorter)

    def nonzero(self) -> tuple[ndarray, ...]:
        return selection.nonzero(self)

    # -- manipulation and selection ---------------------------------------------------------
    def squeeze(self, axis: Any = None) -> ndarray:
        return manipulation.squeeze(self, axis)

    def repeat(self, repeats: Any, axis: int | None = None) -> ndarray:
        return tiling.repeat(self, repeats, axis)

    def diagonal(self, offset: int = 0, axis1: int = 0, axis2: int = 1) -> ndarray:
        return diagonals.diagonal(self, offset, axis1, axis2)

    def take(
        self, indices: Any, axis: int | None = None, out: Any = None, mode: str = "raise"
    ) -> ndarray:
        return selection.take(self, indices, axis, out, mode)

    def compress(self, condition: Any, axis: int | None = None, out: Any = None) -> ndarray:
        return selection.compress(condition, self, axis, out)

    def choose(self, choices: Any, out: Any = None, mode: str = "raise") -> ndarray:
        return selection.choose(self, choices, out, mode)

    # -- the array API standard (``array_api.py``) -----------------------------------------
    def __array_namespace__(self, /, *, api_version: str | None = None) -> types_module.ModuleType:
        array_api.check_api_version(api_version)
        return _public_namespace[0]

    @property
    def device(self) -> str:
        return array_api.current_device()

    def to_device(self, device: Any, /, *, stream: Any = None) -> ndarray:
        return array_api.to_device(self, device, stream)

    def __dlpack__(
        self,
        *,
        stream: Any = None,
        max_version: Any = None,
        dl_device: Any = None,
        copy: Any = None,
    ) -> Any:
        return array_api.dlpack(self, stream, max_version, dl_device, copy)

    def __dlpack_device__(self) -> tuple[int, int]:
        return array_api.dlpack_device(self)


def _all_unequal(array: ndarray, other: Any, value: bool) -> Any:
    """NumPy's ``==``/``!=`` with an object it cannot compare (``None``, a string): every
    element differs, broadcast as NumPy broadcasts it."""
    try:
        other_shape = numpy.shape(other)
        shape = numpy.broadcast_shapes(array.shape, other_shape)
    except (TypeError, ValueError):
        return NotImplemented
    return creation.full(shape, value, dtype=bool)


def _array_ufunc(ufunc: numpy.ufunc, method: str, inputs: tuple, kwargs: dict) -> Any:
    """``numpy.add(host, ours)`` and friends: our ufunc (or reduction, scan, outer)."""
    if ufunc.__name__ == "matmul" and method == "__call__":
        # NumPy's gufuncs that are products: ``host @ ours`` reaches us as the matmul ufunc.
        return linear_algebra.matmul(*inputs, **kwargs)
    if method == "__call__" and generalized_ufuncs.is_generalized(ufunc):
        # NumPy's own product gufuncs are ours (vecdot, matvec, vecmat); others (Numba's
        # guvectorize) apply by their core dimensions.
        product = getattr(linear_algebra, ufunc.__name__, None)
        if product is not None and getattr(numpy, ufunc.__name__, None) is ufunc:
            if isinstance(kwargs.get("out"), tuple) and len(kwargs["out"]) == 1:
                kwargs["out"] = kwargs["out"][0]  # the ufunc protocol's 1-tuple
            return product(*inputs, **kwargs)
        return generalized_ufuncs.apply_generalized_ufunc(ufunc, inputs, kwargs)
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


# The public package ``numpy.f(ours)`` dispatches into. It is assembled above this layer
# (``dask_gpunumeric/__init__.py``, from these modules and the subpackages), which hands
# itself over once complete: imports flow down, so this layer never imports it.
_public_namespace: list[types_module.ModuleType] = []


def dispatch_numpy_functions_to(namespace: types_module.ModuleType) -> None:
    """Make ``numpy.f(ours)`` call ``namespace.f`` (the public package)."""
    _public_namespace[:] = [namespace]


def _array_function(func: Any, args: Any, kwargs: Any) -> Any:
    """``numpy.f(ours)``: our ``f`` of the same name, in the subpackage ``f.__module__``
    names (``numpy.linalg.inv(ours)`` finds ``dask_gpunumeric.linalg.inv`` or its
    fallback)."""
    if not _public_namespace:  # the package is still being imported
        return NotImplemented
    top = namespace = _public_namespace[0]
    if func.__module__ and func.__module__.startswith("numpy."):
        for part in func.__module__.split(".")[1:]:
            namespace = getattr(namespace, part, top)
    ours: Any = getattr(namespace, func.__name__, None)
    if func.__name__ in _DTYPE_ONLY and ours is func:
        # NumPy's own dtype helpers, re-exported: they need our arrays' dtypes only.
        return ours(*(a.dtype if isinstance(a, ndarray) else a for a in args), **kwargs)
    # A subpackage of the same name (numpy.fft(ours) must not find our fft module).
    if ours is None or ours is func or isinstance(ours, types_module.ModuleType):
        return NotImplemented
    return ours(*args, **kwargs)


def _binary(numpy_ufunc: numpy.ufunc, name: str, x: Any, y: Any) -> ndarray:
    """``ufuncs[name](x, y)`` for an operator, a call of tiny whole arrays computed at once
    first: the ufunc object's option checks are the larger part of a solver's
    ``alpha * p`` (``python -m benchmarks.latency``)."""
    computed = tiny_ufuncs.binary(numpy_ufunc, x, y, ndarray)
    return ufuncs[name]._call(x, y) if computed is tiny_ufuncs.NOT_TAKEN else computed


# After the class, on purpose: these modules import ``ndarray`` from here (module docstring).
from . import (  # noqa: E402
    array_api,
    creation,
    diagonals,
    elementwise,
    flat_iterator,
    generalized_ufuncs,
    insertion,
    io,
    linear_algebra,
    manipulation,
    math_misc,
    reductions,
    selection,
    sorting,
    tiling,
    user_ufuncs,
)
from .ufuncs import ufuncs  # noqa: E402
