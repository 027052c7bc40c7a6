"""A generalized ufunc applied to our arrays, by its core dimensions.

A ufunc with a ``signature`` (Numba's ``@guvectorize``, ``numpy.vectorize(...,
signature=...)``) computes over whole core dimensions: ``"(n)->()"`` reduces each row.
It becomes one ``ChunkwiseCall`` holding the signature, lowered through
``da.apply_gufunc`` with every operand's core axes made whole in each block and the loop
axes split as the operands are. ``axes=``/``axis=`` move the core axes last first (live
views), ``keepdims=`` and ``out=`` apply to the result, as NumPy does; the result dtype
comes from the ufunc on one-loop-element stand-ins (core dimensions at most 2 long).

Before/after, for ``row_sum = numba.guvectorize(..., "(n)->()")`` and ``row_sum(a)``::

    row_sum(View(a))  ->  ChunkwiseCall(row_sum, (View(a),), signature="(n)->()")
"""

from __future__ import annotations

import operator
import re
import warnings
from typing import Any

import numpy

from .._ir.chunkwise_call import ChunkwiseCall
from .._kernels.user_functions import portable
from .ndarray import ndarray


def is_generalized(ufunc: Any) -> bool:
    """True for a generalized ufunc (``ufunc.signature`` set: Numba's ``guvectorize``,
    NumPy's ``vecdot``)."""
    return isinstance(getattr(ufunc, "signature", None), str)


def apply_generalized_ufunc(ufunc: Any, inputs: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
    """``ufunc(*inputs, **kwargs)`` by its core dimensions: one chunk-wise node whose blocks
    hold the core dimensions whole and split the loop dimensions as the operands are split.
    ``axes=``/``axis=`` move the core axes last first (live views), ``keepdims=`` and
    ``out=`` apply to the result, as NumPy does."""
    name = getattr(ufunc, "__name__", repr(ufunc))
    keywords = dict(kwargs)
    axes, axis = keywords.pop("axes", None), keywords.pop("axis", None)
    keepdims, out = keywords.pop("keepdims", False), keywords.pop("out", None)
    if keywords:
        raise NotImplementedError(
            f"dask_gpunumeric applies the generalized ufunc {name} with axes=, axis=, "
            f"keepdims= and out= only ({', '.join(sorted(keywords))} given)"
        )
    signature = "".join(ufunc.signature.split())
    core_in, core_out = parse_signature(name, signature)
    if len(inputs) != len(core_in):
        raise TypeError(f"{name}() takes {len(core_in)} positional arguments, {len(inputs)} given")
    if len(core_out) != 1:
        raise NotImplementedError(
            f"dask_gpunumeric applies generalized ufuncs of one output; {name} has {signature}"
        )
    from .creation import asarray

    arrays = [asarray(x) for x in inputs]
    axes = _operand_axes(name, core_in, core_out[0], axes, axis, bool(keepdims))
    if axes is not None:
        arrays = [
            _core_last(a, a_axes, len(dims))
            for a, a_axes, dims in zip(arrays, axes, core_in, strict=False)
        ]
    result = _by_core_dimensions(ufunc, name, signature, arrays, core_in, core_out[0])
    if keepdims:
        result = _keep_dims(name, result, core_in, core_out[0], axes)
    elif axes is not None and core_out[0]:
        result = _core_to(result, axes[len(core_in)])
    if out is None:
        return result
    return _into_out(ufunc, name, result, out)


def _by_core_dimensions(
    ufunc: Any,
    name: str,
    signature: str,
    arrays: list[ndarray],
    core_in: list[tuple[str, ...]],
    core_out: tuple[str, ...],
) -> ndarray:
    sizes = _core_sizes(name, signature, arrays, core_in)
    missing = sorted(set(core_out) - set(sizes))
    if missing:
        raise NotImplementedError(
            f"dask_gpunumeric applies generalized ufuncs whose output core dimensions all "
            f"come from the inputs; {name} has signature {signature}"
        )
    loops = [a.shape[: a.ndim - len(dims)] for a, dims in zip(arrays, core_in, strict=True)]
    loop_shape = numpy.broadcast_shapes(*loops)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        probe = ufunc(
            *(_core_stand_in(a, dims, sizes) for a, dims in zip(arrays, core_in, strict=True))
        )
    shape = loop_shape + tuple(sizes[d] for d in core_out)
    operands = tuple(a._read() for a in arrays)
    node = ChunkwiseCall(
        portable(ufunc), operands, (), shape, numpy.asarray(probe).dtype, signature=signature
    )
    return ndarray._from_expr(node)


def _operand_axes(
    name: str,
    core_in: list[tuple[str, ...]],
    core_out: tuple[str, ...],
    axes: Any,
    axis: Any,
    keepdims: bool = False,
) -> list[tuple[int, ...]] | None:
    """``axes=`` (or ``axis=``) as one tuple per operand, the output's last where given
    (with ``keepdims``, the output's entry places the kept axes); NumPy's errors."""
    if axis is not None:
        if axes is not None:
            raise TypeError("cannot specify both 'axis' and 'axes'")
        if any(len(dims) != 1 for dims in core_in) or len(core_out) > 1:
            raise TypeError(f"{name}: axis can only be used with a single shared core dimension")
        with_output = len(core_out) == 1 or keepdims
        return [(operator.index(axis),)] * (len(core_in) + with_output)
    if axes is None:
        return None
    if not isinstance(axes, list):
        raise TypeError("axes should be a list.")
    wanted = len(core_in) + 1
    if len(axes) != wanted and not (len(axes) == len(core_in) and not core_out):
        raise ValueError(
            f"The 'axes' argument to {name} must be a list of {wanted} tuples, got {len(axes)}"
        )
    normalized = [(a,) if isinstance(a, int) else tuple(a) for a in axes]
    output_dims = core_in[0] if keepdims and core_in else core_out
    for entry, dims in zip(normalized, [*core_in, output_dims], strict=False):
        if len(entry) != len(dims):
            raise ValueError(
                f"{name}: operand axes {entry} do not match its {len(dims)} core dimensions"
            )
    return normalized


def _core_last(array: ndarray, axes: tuple[int, ...], core_ndim: int) -> ndarray:
    """``array`` with the axes ``axes`` moved last, in order (NumPy's ``AxisError``)."""
    from .manipulation import moveaxis

    return moveaxis(array, axes, tuple(range(array.ndim - core_ndim, array.ndim)))


def _core_to(result: ndarray, axes: tuple[int, ...]) -> ndarray:
    """The result's trailing core axes moved to ``axes`` (the output's ``axes`` entry)."""
    from .manipulation import moveaxis

    return moveaxis(result, tuple(range(result.ndim - len(axes), result.ndim)), axes)


def _keep_dims(
    name: str,
    result: ndarray,
    core_in: list[tuple[str, ...]],
    core_out: tuple[str, ...],
    axes: list[tuple[int, ...]] | None,
) -> ndarray:
    """NumPy's ``keepdims=True``: the reduced core axes back as length 1, last or where
    the output's ``axes`` entry (``axis=``) puts them."""
    ndims = {len(dims) for dims in core_in}
    if core_out or len(ndims) != 1:
        raise TypeError(
            f"{name}: keepdims can only be used for reductions (outputs without core "
            "dimensions, inputs with the same number of core dimensions)"
        )
    (count,) = ndims
    kept = result.reshape(result.shape + (1,) * count)
    return kept if axes is None or len(axes) == len(core_in) else _core_to(kept, axes[-1])


def _into_out(ufunc: Any, name: str, result: ndarray, out: Any) -> Any:
    """``out=`` as a ufunc takes it: ``same_kind`` casting, the result's shape."""
    from . import host_outputs

    target = out[0] if isinstance(out, tuple) and len(out) == 1 else out
    host_outputs.check_output(target)
    host_outputs.check_cast(ufunc, "same_kind", result.dtype, target.dtype)
    if target.shape != result.shape:
        raise ValueError(
            f"{name}: Output operand 0 has shape {target.shape}, the result {result.shape}"
        )
    return host_outputs.assign(target, result)


def parse_signature(
    name: str, signature: str
) -> tuple[list[tuple[str, ...]], list[tuple[str, ...]]]:
    """``"(m,n),(n)->(m)"`` -> ``[("m", "n"), ("n",)]``, ``[("m",)]``; fixed sizes and
    optional dimensions (``(3)``, ``(n?)``) are refused."""
    inputs, _, outputs = signature.partition("->")

    def cores(text: str) -> list[tuple[str, ...]]:
        groups = re.findall(r"\(([^()]*)\)", text)
        return [tuple(d for d in group.split(",") if d) for group in groups]

    core_in, core_out = cores(inputs), cores(outputs)
    for dim in (d for dims in core_in + core_out for d in dims):
        if not dim.isidentifier():
            raise NotImplementedError(
                f"dask_gpunumeric does not apply generalized ufuncs with fixed or optional "
                f"core dimensions ({name}: {signature})"
            )
    return core_in, core_out


def _core_sizes(
    name: str, signature: str, arrays: list[ndarray], core_in: list[tuple[str, ...]]
) -> dict[str, int]:
    """Each core dimension's size, with NumPy's errors for too few dimensions or a
    mismatch."""
    sizes: dict[str, int] = {}
    for i, (array, dims) in enumerate(zip(arrays, core_in, strict=True)):
        if array.ndim < len(dims):
            raise ValueError(
                f"{name}: Input operand {i} does not have enough dimensions (has "
                f"{array.ndim}, gufunc core with signature {signature} requires {len(dims)})"
            )
        for k, (dim, size) in enumerate(
            zip(dims, array.shape[array.ndim - len(dims) :], strict=True)
        ):
            if sizes.setdefault(dim, size) != size:
                raise ValueError(
                    f"{name}: Input operand {i} has a mismatch in its core dimension {k}, "
                    f"with gufunc signature {signature} (size {size} is different from "
                    f"{sizes[dim]})"
                )
    return sizes


def _core_stand_in(array: ndarray, dims: tuple[str, ...], sizes: dict[str, int]) -> Any:
    """One loop element of ``array``'s dtype; core dimensions at most 2 long (a probe for
    the result dtype and the ufunc's own type errors, not for its values)."""
    return numpy.ones(tuple(min(sizes[d], 2) for d in dims), dtype=array.dtype)
