"""Host arrays as outputs: ``numpy.add(ours, 1, out=h)``, ``h *= ours``, ``numpy.put(h, ...)``.

NumPy writes into a ``numpy.ndarray`` passed as ``out=`` (and ``h *= ours`` is
``numpy.multiply(h, ours, out=(h,))``, which reaches our ``__array_ufunc__``). Such a write
is a materialization boundary: the result is built lazily as usual, into a stand-in of
ours with the host array's shape and dtype (so NumPy's casting, broadcasting and ``where=``
rules apply exactly as for one of our arrays), then computed and copied into the host
array. The copy is the backend's explicit ``to_host`` (``compute_expr``), never an
implicit ``__array__`` of a device chunk.

Before/after, for ``numpy.add(ours, 1, out=h)``::

    add(ours, 1, out=h)  ->  add(ours, 1, out=s); h[...] = to_host(s)   (s: empty like h)

With host data among the operands too (``h *= ours``), NumPy's ufunc runs on the host
instead, on our operands fetched the same way (``ufunc_on_host``): ``h`` is not shipped
to the workers and back.

Only ``numpy.ndarray`` (and its subclasses) are accepted, as NumPy accepts: any other
object, even one with ``__array__``, is NumPy's ``TypeError``.
"""

from __future__ import annotations

from typing import Any

import numpy

from .._array.flags import check_writeable
from .._ir.dtypes import check_output_shapes
from .ndarray import ndarray


def is_host_output(value: Any) -> bool:
    """True for a host array passed where an output goes."""
    return isinstance(value, numpy.ndarray)


def check_output(value: Any) -> None:
    """NumPy's refusal of an ``out=`` that is not an array it can write."""
    if value is not None and not isinstance(value, (ndarray, numpy.ndarray)):
        raise TypeError("return arrays must be of ArrayType")
    if isinstance(value, numpy.ndarray) and not value.flags.writeable:
        raise ValueError("output array is read-only")
    if isinstance(value, ndarray):
        check_writeable(value, "output array is read-only")


def check_cast(ufunc: Any, casting: str, result_dtype: Any, out_dtype: Any) -> None:
    """NumPy's refusal to write ``ufunc``'s result of ``result_dtype`` into an output of
    ``out_dtype`` under ``casting`` (its own exception type and message)."""
    if not numpy.can_cast(result_dtype, out_dtype, casting):  # type: ignore[arg-type]
        raise numpy._core._exceptions._UFuncOutputCastingError(  # type: ignore[attr-defined]
            ufunc, casting, result_dtype, out_dtype, 0
        )


def stand_in_for(host: numpy.ndarray, keep_values: bool) -> ndarray:
    """One of our arrays of ``host``'s shape and dtype to compute into: with ``host``'s
    values when the write may keep some (``where=``), else empty (nothing is shipped)."""
    from .creation import array, empty

    if keep_values:
        return array(host)
    return empty(host.shape, dtype=host.dtype)


def assign(out: Any, result: ndarray) -> Any:
    """``out[...] = result`` for one of our arrays; for a host one, ``result`` computed
    and copied in (the caller has checked shape and casting)."""
    check_output(out)
    if is_host_output(out):
        numpy.copyto(out, result.get(), casting="unsafe")
        return out
    out[...] = result
    return out


def ufunc_on_host(
    numpy_ufunc: numpy.ufunc,
    inputs: tuple[Any, ...],
    outs: tuple[numpy.ndarray, ...],
    where: Any,
    options: dict[str, Any],
) -> Any:
    """NumPy's ufunc on the host: its dtype, casting and shape checks first on empty
    stand-ins (nothing computed), then our operands computed (``.get()``: the backend's
    explicit transfer) and the call itself, with NumPy's own errors and overlap rules."""
    inputs = tuple(numpy.asarray(x) if isinstance(x, (list, tuple)) else x for x in inputs)
    options = {k: v for k, v in options.items() if v is not None}  # NumPy's "not given"
    if isinstance(where, (list, tuple)):
        where = numpy.asarray(where)

    def dtype_only(value: Any) -> Any:
        if isinstance(value, (ndarray, numpy.ndarray)):
            return numpy.empty((0,), dtype=value.dtype)
        return value

    numpy_ufunc(
        *map(dtype_only, inputs),
        out=tuple(numpy.empty((0,), dtype=o.dtype) for o in outs),
        where=dtype_only(where),
        **options,
    )
    check_output_shapes(
        [numpy.shape(x) for x in inputs],
        [o.shape for o in outs],
        [] if where is True else [numpy.shape(where)],
    )

    def computed(value: Any) -> Any:
        return value.get() if isinstance(value, ndarray) else value

    numpy_ufunc(*map(computed, inputs), out=outs, where=computed(where), **options)
    return outs[0] if len(outs) == 1 else outs
