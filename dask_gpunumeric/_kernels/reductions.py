"""Steps of reductions that run on blocks: the combine and aggregate of an arg reduction
over all axes that keep NumPy's "first occurrence" (dask breaks ties between blocks by
block order, not by flat index)."""

from __future__ import annotations

from typing import Any

import numpy


def nanargmax_block(block: Any, axis: Any = None, **keywords: Any) -> Any:
    """NumPy's ``nanargmax`` of a block without its all-NaN ``ValueError``: NaN counts as
    -inf, as NumPy's own ``nanargmax`` computes it (an all-NaN lane gives 0; the aggregate
    raises NumPy's error when the whole lane is NaN). Not ``xp.nanargmax``: CuPy's returns
    -1 for an all-NaN lane, which the H100 check met as "invalid entry in index array"
    (the index unravelled) or as no error at all."""
    return numpy.argmax(_nan_as(block, -numpy.inf), axis=axis, **keywords)


def nanargmin_block(block: Any, axis: Any = None, **keywords: Any) -> Any:
    """``nanargmax_block``'s twin: NaN counts as +inf."""
    return numpy.argmin(_nan_as(block, numpy.inf), axis=axis, **keywords)


def check_nan_arg(kind: str, block: Any, axis: Any) -> None:
    """NumPy's ``ValueError`` for a ``nanarg*`` over a lane of nothing but NaN."""
    if kind.startswith("nanarg") and block.dtype.kind in "fc" and block.size:
        if bool(numpy.any(numpy.all(numpy.isnan(block), axis=axis))):
            raise ValueError("All-NaN slice encountered")


def _nan_as(block: Any, value: float) -> Any:
    # numpy.where/isnan dispatch to the chunk's own library (CuPy, the simulated device).
    return numpy.where(numpy.isnan(block), value, block) if block.dtype.kind in "fc" else block


def _first_winner(arg_function: Any, data: Any) -> tuple[Any, Any]:
    """Among the blocks' (value, flat index) candidates, the winning value and the smallest
    flat index holding it (NaN matches NaN: NumPy's arg reductions stop at the first NaN)."""
    values, indices = data["vals"].ravel(), data["arg"].ravel()
    winner = values[arg_function(values, None)]
    ties = (values == winner) | ((values != values) & (winner != winner))
    return winner, indices[ties].min()


def first_arg_combine(arg_function: Any, data: Any, axis: Any = None, **kwargs: Any) -> Any:
    """Candidates of several blocks -> one candidate (the winner, its first flat index)."""
    winner, index = _first_winner(arg_function, data)
    ndim = data["vals"].ndim
    values, indices = winner.reshape((1,) * ndim), index.reshape((1,) * ndim)
    result: Any
    try:
        result = numpy.empty_like(
            values, shape=values.shape, dtype=[("vals", values.dtype), ("arg", indices.dtype)]
        )
    except TypeError:  # chunk types without structured dtypes (CuPy), as dask does
        result = {}
    result["vals"] = values
    result["arg"] = indices
    return result


def first_arg_aggregate(
    arg_function: Any,
    skips_nan: bool,
    data: Any,
    axis: Any = None,
    keepdims: bool = False,
    **kwargs: Any,
) -> Any:
    """The final flat index; a NaN-skipping reduction of nothing but NaNs raises NumPy's
    ``ValueError``."""
    winner, index = _first_winner(arg_function, data)
    if skips_nan and winner != winner:
        raise ValueError("All-NaN slice encountered")
    return index.reshape((1,) * data["vals"].ndim) if keepdims else index.reshape(())


def concatenated_partials(backend: Any, parts: list[Any], axis: int) -> Any:
    """Partial results of a tree reduction joined along ``axis``: structured arrays, or the
    ``{"vals", "arg"}`` dicts of chunk types without structured dtypes (CuPy), as dask's
    tree reductions join them."""
    if isinstance(parts[0], dict):
        return {k: backend.xp.concatenate([p[k] for p in parts], axis=axis) for k in parts[0]}
    return backend.xp.concatenate(parts, axis=axis)


def combined_partials(
    backend: Any, combine: Any, axis: int, axes: tuple[int, ...], parts: list[Any]
) -> Any:
    """One partial result from several (``combine`` of them joined along ``axis``)."""
    return combine(concatenated_partials(backend, parts, axis), axis=axes, keepdims=True)


def value_at_arg(arg_function: Any, x: Any, axis: Any = None, keepdims: bool = True) -> Any:
    """The block's value at ``arg_function``'s index (the chunk step's winning value): for
    the NaN-skipping ones, no "All-NaN slice" warning where a block's slice is all NaN (its
    index then points at a NaN; the aggregate raises NumPy's error if the whole slice is)."""
    index = arg_function(x, axis=axis, keepdims=True)
    if axis is None:
        flat = numpy.take_along_axis(x.reshape(-1), index.reshape(-1), 0)
        return flat.reshape(index.shape)
    return numpy.take_along_axis(x, index, axis)
