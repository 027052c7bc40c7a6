"""A NumPy function we do not implement, called through us: ``FallbackFunction``.

A call announces itself (``policy``), runs chunk by chunk when the classification and its
arguments allow (``chunkwise``), and otherwise gathers: our array arguments are computed
whole in one run (device memory stays on the device), the backend's function (NumPy's,
or CuPy's on GPUs; NumPy's on an explicit host copy when the device namespace lacks it)
runs on them, and array results become our arrays again.
"""

from __future__ import annotations

import functools
import inspect
from typing import Any

import numpy

from ..._array import gather
from ..ndarray import ndarray
from . import policy
from .chunkwise import try_chunkwise
from .classification import ChunkwiseSpec, chunkwise_table, mutating_table


class FallbackFunction:
    """``numpy.<path>`` called through dask_gpunumeric (see the module docstring)."""

    __doc__: str | None

    def __init__(self, path: str, function: Any) -> None:
        self.path = path
        self.function = function
        self.signature = _signature(function)
        self.spec = chunkwise_spec(path, function) if self.signature is not None else None
        self.__name__ = self.__qualname__ = path.rpartition(".")[2]
        self.__doc__ = (
            f"dask_gpunumeric fallback for :func:`numpy.{path}` "
            f"({self.kind}; not implemented natively).\n\n{function.__doc__ or ''}"
        )

    @property
    def kind(self) -> str:
        """``chunk-wise`` or ``gathering``: what the coverage table reports."""
        return "chunk-wise" if self.spec is not None else "gathering"

    def __repr__(self) -> str:
        return f"<dask_gpunumeric fallback for numpy.{self.path} ({self.kind})>"

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        args, kwargs, out = self._take_out(args, kwargs)
        args, kwargs, in_place = self._in_place_target(args, kwargs)
        result = None
        if self.spec is not None:
            result = try_chunkwise(self, args, kwargs)
            if result is not None:
                policy.announce(self.path, "runs chunk by chunk on the workers")
        if result is None:
            result = self._gathering_call(args, kwargs)
        target = out if out is not None else in_place
        if target is None:
            return result
        target[...] = result
        return target

    def _take_out(self, args: tuple, kwargs: dict) -> tuple[tuple, dict, Any]:
        """The arguments without their ``out=`` array (positional, keyword, or a ufunc's
        one-element tuple; ours or a host array), and that array: the result is written
        into it afterwards, so a gathered copy is never what gets filled."""
        try:
            bound = self.signature.bind(*args, **kwargs)  # type: ignore[union-attr]
        except (AttributeError, TypeError):
            return args, kwargs, None  # no signature, or NumPy raises its own error
        out = bound.arguments.get("out")
        if isinstance(out, tuple) and len(out) == 1:
            out = out[0]
        if not isinstance(out, (ndarray, numpy.ndarray)):
            return args, kwargs, None
        bound.arguments["out"] = None
        return bound.args, dict(bound.kwargs), out

    def _in_place_target(self, args: tuple, kwargs: dict) -> tuple[tuple, dict, Any]:
        """``nan_to_num(x, copy=False)`` writes into ``x``: the arguments for a copy
        instead, and ``x`` to write it back into (None when not in place)."""
        if self.path != "nan_to_num" or self.signature is None:
            return args, kwargs, None
        try:
            bound = self.signature.bind(*args, **kwargs)
        except TypeError:
            return args, kwargs, None  # NumPy raises its own error when called
        target = bound.arguments.get("x")
        if bound.arguments.get("copy", True) or not isinstance(target, ndarray):
            return args, kwargs, None
        bound.arguments["copy"] = True
        return bound.args, dict(bound.kwargs), target

    def _gathering_call(self, args: tuple, kwargs: dict) -> Any:
        ours = _our_arrays((args, kwargs))
        nbytes = sum(array.nbytes for array in ours)
        policy.check_gather_size(self.path, nbytes)
        policy.announce(
            self.path, f"gathers its array arguments ({policy.human_size(nbytes)}) to one place"
        )
        function, on_device = self._resolve()
        values = gather.gather(ours)
        if self.path in mutating_table:  # never let NumPy write into a chunk others may share
            values = [value.copy() for value in values]
        if not on_device:
            values = [gather.to_host(value) for value in values]
        by_id = {id(array): value for array, value in zip(ours, values, strict=True)}
        call_args, call_kwargs = _substitute((args, kwargs), by_id, on_device)
        try:
            result = function(*call_args, **call_kwargs)
        except TypeError:
            if not on_device:
                raise
            # CuPy refuses an argument NumPy takes (polyval's list of coefficients: "p must
            # be 1d ndarray"): NumPy's function on host copies, which raises NumPy's error
            # if the arguments are wrong for NumPy too.
            by_id = {key: gather.to_host(value) for key, value in by_id.items()}
            call_args, call_kwargs = _substitute((args, kwargs), by_id, False)
            result = self.function(*call_args, **call_kwargs)
        self._write_back(args, kwargs, call_args, call_kwargs)
        return _wrap(result)

    def _resolve(self) -> tuple[Any, bool]:
        """The function to run and whether it runs on the backend's chunks (True) or on
        host arrays (False)."""
        namespace = gather.backend_namespace()
        if namespace is numpy:
            return self.function, False
        try:
            return functools.reduce(getattr, self.path.split("."), namespace), True
        except AttributeError:
            return self.function, False

    def _write_back(self, args: tuple, kwargs: dict, call_args: Any, call_kwargs: Any) -> None:
        """A function that mutates an argument (``numpy.place``...) mutated the gathered
        copy: write it back into our array."""
        parameter = mutating_table.get(self.path)
        if parameter is None:
            return
        try:
            ours = self.signature.bind(*args, **kwargs).arguments  # type: ignore[union-attr]
            theirs = self.signature.bind(*call_args, **call_kwargs).arguments  # type: ignore[union-attr]
        except (AttributeError, TypeError):
            return
        if isinstance(ours.get(parameter), ndarray):
            ours[parameter][...] = gather.wrap(theirs[parameter], owned=False, array_type=ndarray)


def _signature(function: Any) -> inspect.Signature | None:
    try:
        return inspect.signature(function)
    except (TypeError, ValueError):  # a builtin without one: the call always gathers
        return None


def chunkwise_spec(path: str, function: Any) -> ChunkwiseSpec | None:
    """How ``numpy.<path>`` maps blocks, or None when it must gather."""
    spec = chunkwise_table.get(path)
    if spec is not None or not isinstance(function, numpy.ufunc) or function.signature:
        return spec
    parameters = list(inspect.signature(function).parameters)
    return ChunkwiseSpec(tuple(parameters[: function.nin]))


def _our_arrays(value: Any, found: dict[int, ndarray] | None = None) -> list[ndarray]:
    """Our arrays anywhere in ``value`` (nested lists, tuples, dicts), each once."""
    found = {} if found is None else found
    if isinstance(value, ndarray):
        found.setdefault(id(value), value)
    elif isinstance(value, (list, tuple)):
        for item in value:
            _our_arrays(item, found)
    elif isinstance(value, dict):
        for item in value.values():
            _our_arrays(item, found)
    return list(found.values())


def _substitute(value: Any, by_id: dict[int, Any], on_device: bool) -> Any:
    """``value`` with our arrays replaced by their gathered values; host arrays move to
    the device explicitly when the call runs there."""
    if isinstance(value, ndarray):
        return by_id[id(value)]
    if isinstance(value, numpy.ndarray) and on_device:
        return gather.from_host(value)
    if isinstance(value, (list, tuple)):
        items = [_substitute(item, by_id, on_device) for item in value]
        return type(value)(*items) if hasattr(value, "_fields") else type(value)(items)
    if isinstance(value, dict):
        return {key: _substitute(item, by_id, on_device) for key, item in value.items()}
    return value


def _wrap(result: Any) -> Any:
    """Array results as our arrays (in tuples and lists too); scalars stay scalars."""
    if gather.is_chunk(result):
        return gather.wrap(result, owned=False, array_type=ndarray)
    if isinstance(result, (list, tuple)):
        items = [_wrap(item) for item in result]
        return type(result)(*items) if hasattr(result, "_fields") else type(result)(items)
    return result
