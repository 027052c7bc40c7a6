"""A user's own ufunc applied to our arrays: ``numba_ufunc(x)`` runs block by block.

A Numba ``@vectorize`` function (or ``numpy.frompyfunc``, or any ``numpy.ufunc`` that is
not one of NumPy's own) reaches ``ndarray.__array_ufunc__`` with a name our ufunc table
does not know. It is elementwise by definition, so the same result comes block by block on
any chunking: one ``ChunkwiseCall`` node holding the ufunc itself, which the workers call
on their blocks (Numba compiles there, per process, for the blocks' dtypes). Shape and
dtype are NumPy's, found at the call by running the ufunc on one-element stand-ins, so a
bad dtype raises the ufunc's own error at the call, as NumPy would.

Before/after, for ``f = numba.vectorize(lambda x, y: x * x + y)`` and ``f(a, 1.0)``::

    f(View(a), 1.0)  ->  ChunkwiseCall(f, (View(a), 1.0), shape=a.shape, dtype=float64)
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


def is_user_ufunc(ufunc: Any) -> bool:
    """True for a ufunc-like object that is not NumPy's ufunc of the same name."""
    return getattr(numpy, getattr(ufunc, "__name__", ""), None) is not ufunc and hasattr(
        ufunc, "nin"
    )


def apply_user_ufunc(ufunc: Any, inputs: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
    """``ufunc(*inputs, out=..., where=..., casting=...)`` as one chunk-wise node, written
    into ``out`` (ours, or a host array: computed and copied) as our ufuncs write;
    ``NotImplemented`` for what that cannot express (other keywords, operands that are
    arrays of another kind); ufuncs of several outputs are refused clearly."""
    keywords = dict(kwargs)
    out, where = keywords.pop("out", None), keywords.pop("where", True)
    casting = keywords.pop("casting", "same_kind")
    if getattr(ufunc, "nout", 1) != 1:
        raise NotImplementedError(
            f"dask_gpunumeric applies user ufuncs of one output; {ufunc!r} has {ufunc.nout}: "
            "compute the arrays first (a.compute()) for it"
        )
    if keywords:
        return NotImplemented
    if any(not _is_operand(x) for x in inputs):
        return NotImplemented
    from .creation import asarray

    inputs = tuple(asarray(x) if isinstance(x, numpy.ndarray) else x for x in inputs)
    ours = [x for x in inputs if isinstance(x, ndarray)]
    shape = numpy.broadcast_shapes(*(numpy.shape(x) for x in inputs))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        probe = ufunc(*(_stand_in(x) for x in inputs))
    if not ours or shape == () or not isinstance(probe, numpy.ndarray):
        return NotImplemented
    arguments = tuple(x._read() if isinstance(x, ndarray) else x for x in inputs)
    node = ChunkwiseCall(portable(ufunc), arguments, (), shape, probe.dtype)
    if out is None and where is True:
        return ndarray._from_expr(node)
    return _write_user_result(ufunc, node, out, where, casting)


def _write_user_result(ufunc: Any, node: ChunkwiseCall, out: Any, where: Any, casting: str) -> Any:
    """The result into ``out`` under ``where``, with NumPy's casting check; a host ``out``
    receives it computed (``host_outputs``)."""
    from . import host_outputs
    from .ufuncs import _check_where, _write_output

    target = out[0] if isinstance(out, tuple) and len(out) == 1 else out
    host_outputs.check_output(target)
    _check_where(where)
    castable = target is None or numpy.can_cast(node.dtype, target.dtype, casting)  # type: ignore[arg-type]
    if not castable:
        raise numpy._core._exceptions._UFuncOutputCastingError(  # type: ignore[attr-defined]
            ufunc, casting, node.dtype, target.dtype, 0
        )
    if not host_outputs.is_host_output(target):
        return _write_output(ufunc, node, target, where, casting)
    stand_in = host_outputs.stand_in_for(target, keep_values=where is not True)
    _write_output(ufunc, node, stand_in, where, casting)
    return host_outputs.assign(target, stand_in)


def _is_operand(value: Any) -> bool:
    return isinstance(value, (ndarray, numpy.ndarray, int, float, complex, bool, numpy.generic))


def _stand_in(value: Any) -> Any:
    if isinstance(value, ndarray):
        return numpy.ones((1,) * max(value.ndim, 1), dtype=value.dtype)
    return value


def is_generalized(ufunc: Any) -> bool:
    """True for a generalized ufunc (``ufunc.signature`` set: Numba's ``guvectorize``,
    NumPy's ``vecdot``)."""
    return isinstance(getattr(ufunc, "signature", None), str)


def apply_generalized_ufunc(ufunc: Any, inputs: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
    """``ufunc(*inputs, **kwargs)`` by its core dimensions: one chunk-wise node whose blocks
    hold the core dimensions whole and split the loop dimensions as the operands are split.
    ``axes=``/``axis=`` move the core axes last first (live views), ``keepdims=`` and
    ``out=`` apply to the result, as NumPy does.

    Before/after, for ``rowsum = numba.guvectorize(..., "(n)->()")`` and ``rowsum(a)``::

        rowsum(View(a))  ->  ChunkwiseCall(rowsum, (View(a),), signature="(n)->()")
    """
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
    if not numpy.can_cast(result.dtype, target.dtype, "same_kind"):
        raise numpy._core._exceptions._UFuncOutputCastingError(  # type: ignore[attr-defined]
            ufunc, "same_kind", result.dtype, target.dtype, 0
        )
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
