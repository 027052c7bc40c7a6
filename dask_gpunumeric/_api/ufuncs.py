"""``ufunc`` objects generated from ``ufunc_table``: calls, ``out=``, ``dtype=``,
``casting=``, ``where=``, and the in-place forms the operators use."""

from __future__ import annotations

import warnings
from typing import Any

import numpy

from .._array import tiny_ufuncs
from .._array.coercion import UNSUPPORTED_KINDS, as_operand
from .._ir.dtypes import check_output_shapes, operand_shape, stand_in
from .._ir.elementwise import cast_node, ufunc_node, where_node
from .._ir.ufunc_table import UfuncSpec, ufunc_table
from . import host_outputs
from .ndarray import ndarray
from .reductions import ufunc_reduce, ufunc_reducers, ufunc_scans

_NOT_GIVEN = object()  # out= omitted (NumPy warns about where= then), not out=None
_WHERE_WITHOUT_OUT = (
    "'where' used without 'out', expect unitialized memory in output. "
    "If this is intentional, use out=None."
)


_OPTIONS = frozenset({"out", "where", "casting", "order", "dtype", "subok", "signature"})


class ufunc:  # noqa: N801 - NumPy's name
    """dask_gpunumeric implementation of a :class:`numpy.ufunc`."""

    def __init__(self, spec: UfuncSpec) -> None:
        self.spec = spec
        self.__name__ = spec.name
        self.__qualname__ = spec.name
        self.__doc__ = f"dask_gpunumeric implementation of :func:`numpy.{spec.name}`."

    nin = property(lambda self: self.spec.nin)
    nout = property(lambda self: self.spec.nout)
    nargs = property(lambda self: self.spec.nin + self.spec.nout)

    def __repr__(self) -> str:
        return f"<dask_gpunumeric ufunc '{self.spec.name}'>"

    def __call__(self, *args: Any, **options: Any) -> Any:
        spec = self.spec
        if not options and len(args) == spec.nin:  # the usual tiny call, at once
            computed = (
                tiny_ufuncs.unary(spec.numpy_ufunc, args[0], ndarray)
                if len(args) == 1
                else tiny_ufuncs.new_value(spec.numpy_ufunc, args, ndarray)
            )
            if computed is not tiny_ufuncs.NOT_TAKEN:
                return computed
        unknown = [name for name in options if name not in _OPTIONS]
        if unknown:  # NumPy's message, the first in the call's order (``_call``'s: its own)
            raise TypeError(f"{self.__name__}() got an unexpected keyword argument '{unknown[0]}'")
        return self._call(*args, **options)

    def _call(
        self,
        *args: Any,
        out: Any = _NOT_GIVEN,
        where: Any = True,
        casting: str = "same_kind",
        order: str = "K",
        dtype: Any = None,
        subok: bool = True,
        signature: Any = None,
    ) -> Any:
        if (
            out is _NOT_GIVEN
            and len(args) == self.spec.nin
            and _plain(where, casting, order, dtype, subok, signature)
        ):
            computed = tiny_ufuncs.new_value(self.spec.numpy_ufunc, args, ndarray)
            if computed is not tiny_ufuncs.NOT_TAKEN:  # the usual tiny call, at once
                return computed
        if out is _NOT_GIVEN:
            out = None
            if where is not True and len(args) <= self.nin:
                warnings.warn(_WHERE_WITHOUT_OUT, UserWarning, stacklevel=2)
        inputs, outs = _split_outputs(self, args, out)
        options = {"casting": casting, "dtype": dtype, "order": order, "subok": subok}
        if outs is not None and any(map(host_outputs.is_host_output, outs)):
            return _into_host_outputs(self, inputs, outs, where, signature=signature, **options)
        computed = tiny_ufuncs.call(
            self.spec.numpy_ufunc, inputs, outs, where, ndarray, signature=signature, **options
        )
        if computed is not tiny_ufuncs.NOT_TAKEN:
            return computed
        _refuse_like_numpy(self, inputs)
        operands = tuple(as_operand(x) for x in inputs)
        if signature is not None:
            raise NotImplementedError("dask_gpunumeric ufuncs do not support signature=")
        if outs is not None or where is not True:
            # NumPy's order: the where= mask, then the types (casting into out=), then shapes.
            outs = outs or (None,) * self.nout
            _check_where(where)
            _check_output_casting(self, operands, outs, dtype, casting)
            _check_output_shapes(operands, outs, where)
        results = ufunc_node(self.spec.name, self.spec.numpy_ufunc, operands, dtype, casting)
        _check_scalar_exponent(self, operands, results[0])
        if outs is None:
            wrapped = tuple(ndarray._from_expr(r) for r in results)
            return wrapped[0] if len(wrapped) == 1 else wrapped
        written = tuple(
            _write_output(self, r, o, where, casting) for r, o in zip(results, outs, strict=True)
        )
        return written[0] if len(written) == 1 else written

    def __getattr__(self, name: str) -> Any:
        # Static metadata is NumPy's own (identity, types, ...).
        if name in _NUMPY_METADATA:
            return getattr(self.spec.numpy_ufunc, name)
        raise AttributeError(f"'ufunc' object has no attribute '{name}'")

    def outer(self, A: Any, B: Any, /, **kwargs: Any) -> Any:  # noqa: N803 - NumPy's names
        """``ufunc.outer``: ``ufunc(A[..., newaxis * B.ndim], B)``, the first a live view."""
        if self.nin != 2:
            raise ValueError("method outer is only supported for binary functions")
        from .creation import asarray

        a, b = asarray(A), asarray(B)
        return self(a.reshape(a.shape + (1,) * b.ndim), b, **kwargs)

    def reduce(
        self, array: Any, axis: Any = 0, dtype: Any = None, out: Any = None, **kwargs: Any
    ) -> Any:
        """``ufunc.reduce`` for the ufuncs NumPy's reductions stand for (add: sum, ...)."""
        reducer = ufunc_reducers.get(self.spec.name)
        if reducer is None:
            raise _method_not_implemented(self, "reduce")
        return ufunc_reduce(reducer, array, axis=axis, dtype=dtype, out=out, **kwargs)

    def accumulate(
        self, array: Any, axis: int = 0, dtype: Any = None, out: Any = None, **kwargs: Any
    ) -> Any:
        """``ufunc.accumulate`` for add (cumsum) and multiply (cumprod)."""
        scan = ufunc_scans.get(self.spec.name)
        if scan is None:
            raise _method_not_implemented(self, "accumulate")
        return ufunc_reduce(scan, array, axis=axis, dtype=dtype, out=out, **kwargs)

    def at(self, *args: Any, **kwargs: Any) -> None:
        raise _method_not_implemented(self, "at")

    def reduceat(self, *args: Any, **kwargs: Any) -> Any:
        raise _method_not_implemented(self, "reduceat")


_NUMPY_METADATA = frozenset(("identity", "types", "ntypes", "signature"))


def _method_not_implemented(function: ufunc, method: str) -> NotImplementedError:
    name = function.spec.name
    return NotImplementedError(
        f"dask_gpunumeric does not implement {name}.{method} yet; compute first and use "
        f"numpy.{name}.{method}(a.compute(), ...), or work on a.to_dask()"
    )


def _plain(where: Any, casting: str, order: str, dtype: Any, subok: bool, signature: Any) -> bool:
    """Whether a call's options are all the defaults."""
    return (
        where is True
        and casting == "same_kind"
        and order == "K"
        and dtype is None
        and subok is True
        and signature is None
    )


def _split_outputs(function: ufunc, args: tuple[Any, ...], out: Any) -> tuple[tuple[Any, ...], Any]:
    nin = function.nin
    if not nin <= len(args) <= nin + function.nout:
        raise TypeError(
            f"{function.__name__}() takes from {nin} to {nin + function.nout} positional "
            f"arguments but {len(args)} were given"
        )
    positional_out = args[nin:]
    if positional_out and out is not None:
        raise TypeError("cannot specify 'out' as both a positional and keyword argument")
    # NumPy's reading: positional outputs may be fewer than nout (the rest allocated); a
    # keyword tuple has one entry per output; a lone keyword array only for one output.
    if positional_out:
        outs = positional_out + (None,) * (function.nout - len(positional_out))
    elif out is None:
        return args[:nin], None
    elif isinstance(out, tuple):
        if len(out) != function.nout:
            raise ValueError("The 'out' tuple must have exactly one entry per ufunc output")
        outs = out
    elif function.nout > 1:
        raise TypeError("'out' must be a tuple of arrays")
    else:
        outs = (out,)
    for o in outs:
        host_outputs.check_output(o)
    return args[:nin], outs


def _into_host_outputs(
    function: ufunc, inputs: tuple[Any, ...], outs: tuple[Any, ...], where: Any, **options: Any
) -> Any:
    """The call into stand-ins of ours for the host outputs, then each computed and copied
    into its host array (``host_outputs``): NumPy's checks, one materialization.

    When ``h``'s values are needed (``h *= ours``: a host operand; or ``where=``, which
    keeps the unselected ones) and every output is a host array, our operands come to the
    host and NumPy's ufunc runs there, after NumPy's checks on stand-ins: shipping ``h``
    to the workers and back would move it twice."""
    host_operand = any(isinstance(x, (numpy.ndarray, list, tuple)) for x in (*inputs, where))
    if all(map(host_outputs.is_host_output, outs)) and (host_operand or where is not True):
        return host_outputs.ufunc_on_host(function.spec.numpy_ufunc, inputs, outs, where, options)
    stand_ins = tuple(
        host_outputs.stand_in_for(o, keep_values=where is not True)
        if host_outputs.is_host_output(o)
        else o
        for o in outs
    )
    function(*inputs, out=stand_ins, where=where, **options)
    for host, stand_in_out in zip(outs, stand_ins, strict=True):
        if host_outputs.is_host_output(host):
            host_outputs.assign(host, stand_in_out)
    return outs[0] if len(outs) == 1 else outs


def _input_dtype(value: Any) -> numpy.dtype | None:
    if isinstance(value, (bool, int, float, complex, ndarray)):
        return None  # supported; Python scalars must stay weak, so no dtype is taken
    dtype = getattr(value, "dtype", None)
    return numpy.dtype(dtype) if dtype is not None else numpy.asarray(value).dtype


def _refuse_like_numpy(function: ufunc, inputs: tuple[Any, ...]) -> None:
    """Strings and objects are not supported, but when NumPy itself refuses the call (no
    loop for ``add(x, "a")``) users catch NumPy's exception class: raise that one first."""
    dtypes = [_input_dtype(x) for x in inputs]
    if not any(d is not None and d.kind in UNSUPPORTED_KINDS for d in dtypes):
        return
    stand_ins = [
        x
        if d is None and not isinstance(x, ndarray)
        else numpy.empty((0,), dtype=x.dtype if d is None else d)
        for x, d in zip(inputs, dtypes, strict=True)
    ]
    function.spec.numpy_ufunc(*stand_ins)


def _check_scalar_exponent(function: ufunc, operands: tuple[Any, ...], result: Any) -> None:
    """NumPy refuses ``int ** -n`` when its loop meets it. A scalar exponent is known now,
    so the error comes at the call (an array exponent's values are only seen at compute)."""
    if function.spec.name != "power" or result.dtype.kind not in "iu" or result.size == 0:
        return
    exponent = operands[1]
    is_integer = isinstance(exponent, (int, numpy.integer)) and not isinstance(exponent, bool)
    if is_integer and exponent < 0:
        raise ValueError("Integers to negative integer powers are not allowed.")


def _check_where(where: Any) -> None:
    """An array ``where=`` must cast to bool safely (an int mask is NumPy's TypeError);
    scalars and lists are converted to bool."""
    if isinstance(where, numpy.generic) or not hasattr(where, "dtype"):
        return
    dtype = where.dtype
    if not numpy.can_cast(dtype, numpy.bool_, casting="safe"):
        raise TypeError(
            f"Cannot cast array data from {dtype!r} to dtype('bool') according to the rule 'safe'"
        )


def _check_output_casting(
    function: ufunc, operands: tuple[Any, ...], outs: tuple[Any, ...], dtype: Any, casting: str
) -> None:
    """NumPy's own check (and exception) for casting the results into ``out``."""
    stand_in_outs = tuple(None if o is None else numpy.empty((0,), dtype=o.dtype) for o in outs)
    kwargs = {} if dtype is None else {"dtype": dtype}
    function.spec.numpy_ufunc(
        *(stand_in(x) for x in operands), out=stand_in_outs, casting=casting, **kwargs
    )


def _check_output_shapes(operands: tuple[Any, ...], outs: tuple[Any, ...], where: Any) -> None:
    check_output_shapes(
        [operand_shape(x) for x in operands],
        [o.shape for o in outs if o is not None],
        [] if where is True else [operand_shape(as_operand(where))],
    )


def _write_output(
    function: ufunc, result: Any, out: ndarray | None, where: Any, casting: str
) -> ndarray:
    """Cast ``result`` into ``out`` by ``casting`` (NumPy's check) and write it through
    ``out``'s view; ``where=False`` positions keep ``out``'s old values.

    Differences from NumPy: without ``out``, unselected elements are zeros (NumPy leaves
    them uninitialized)."""
    if out is None:
        if where is True:
            return ndarray._from_expr(result)
        from .creation import zeros

        # NumPy leaves the unselected elements uninitialized; ours are zeros, as empty's.
        out = zeros(result.shape, dtype=result.dtype)
    value = cast_node(result, out.dtype)
    if where is not True:
        value = where_node(as_operand(where), value, out._read())
    # The expression itself, not a new array holding it: one store write, so a tiny
    # result is evaluated once, when ``out``'s store takes it.
    out[...] = value
    return out


def _one_object_per_ufunc() -> dict[str, ufunc]:
    # Aliases share the object of their ufunc, as in NumPy (np.abs is np.absolute).
    return {name: function for function in map(ufunc, ufunc_table) for name in function.spec.names}


ufuncs: dict[str, ufunc] = _one_object_per_ufunc()
