"""Functional programming (NumPy reference section): ``vectorize`` and ``frompyfunc``, whose
Python functions run block by block on the workers when applied to our arrays."""

from __future__ import annotations

from typing import Any

import numpy

from .._ir.chunkwise_call import ChunkwiseCall
from .._kernels.user_functions import portable
from .creation import asarray
from .generalized_ufuncs import apply_generalized_ufunc, parse_signature
from .ndarray import ndarray

__all__ = ["frompyfunc", "vectorize"]


def frompyfunc(func: Any, /, nin: int, nout: int, *, identity: Any = None) -> numpy.ufunc:
    """dask_gpunumeric implementation of :func:`numpy.frompyfunc`: NumPy's ufunc, which
    applied to our arrays runs block by block on the workers (``__array_ufunc__``)."""
    kwargs = {} if identity is None else {"identity": identity}
    return numpy.frompyfunc(func, nin, nout, **kwargs)


class vectorize(numpy.vectorize):  # noqa: N801 - NumPy's name
    """dask_gpunumeric implementation of :class:`numpy.vectorize`: on our arrays the
    function runs block by block on the workers, lazily (with ``signature=``, by core
    dimensions, each block holding them whole); on anything else it is NumPy's.

    Differences from NumPy: without ``otypes``, the output dtype is found as NumPy finds
    it, from the function on the first elements, which computes those elements at the
    call (pass ``otypes`` to stay lazy). ``excluded`` and keyword arguments are not
    supported on our arrays (``NotImplementedError``).
    """

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        if not any(isinstance(a, ndarray) for a in (*args, *kwargs.values())):
            return super().__call__(*args, **kwargs)
        if kwargs or self.excluded:
            raise NotImplementedError(
                "dask_gpunumeric.vectorize on our arrays takes positional arguments only "
                "(no keywords, no excluded=); compute the arrays first for those"
            )
        arrays = [asarray(a) if isinstance(a, (list, tuple)) else a for a in args]
        dtypes = self._output_dtypes(arrays)
        if len(dtypes) != 1:
            raise NotImplementedError(
                "dask_gpunumeric.vectorize on our arrays supports functions of one output"
            )
        per_block = numpy.vectorize(self.pyfunc, otypes=dtypes, signature=self.signature)
        if self.signature is not None:
            return apply_generalized_ufunc(per_block, tuple(arrays), {})
        shape = numpy.broadcast_shapes(*(numpy.shape(a) for a in arrays))
        operands = tuple(a._read() if isinstance(a, ndarray) else a for a in arrays)
        return ndarray._from_expr(
            ChunkwiseCall(portable(per_block), operands, (), shape, dtypes[0])
        )

    def _output_dtypes(self, arrays: list[Any]) -> list[numpy.dtype]:
        """``otypes``, else NumPy's choice: the function's results on the first elements."""
        if self.otypes:
            return [numpy.dtype(t) for t in self.otypes]
        if any(numpy.size(a) == 0 for a in arrays):
            raise ValueError("cannot call `vectorize` on size 0 inputs unless `otypes` is set")
        if self.signature is not None:
            core_in, _ = parse_signature("vectorize", "".join(self.signature.split()))
            firsts = [_first_loop_element(a, len(c)) for a, c in zip(arrays, core_in, strict=False)]
        else:
            firsts = [_first(a) for a in arrays]
        results = numpy.vectorize(self.pyfunc, signature=self.signature)(*firsts)
        results = results if isinstance(results, tuple) else (results,)
        return [numpy.asarray(r).dtype for r in results]


def _first(value: Any) -> Any:
    """The first element (computed, for our arrays), as NumPy's vectorize reads it."""
    if isinstance(value, ndarray):
        return value.reshape(-1)[0].compute()
    return numpy.asarray(value).reshape(-1)[0]


def _first_loop_element(value: Any, core_ndim: int) -> Any:
    """The first loop element (its core dimensions whole; computed, for our arrays)."""
    if not isinstance(value, ndarray) or value.ndim < core_ndim:
        return value  # NumPy's own error for too few dimensions comes from the probe
    return value[(0,) * (value.ndim - core_ndim)].compute()
