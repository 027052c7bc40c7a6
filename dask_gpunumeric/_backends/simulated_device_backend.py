"""A device that is not there: NumPy underneath, CuPy's manners on top.

``SimulatedDeviceArray`` holds a NumPy array but behaves like a ``cupy.ndarray`` where
CuPy differs from NumPy: implicit conversion to a host array (``numpy.asarray(chunk)``)
raises ``TypeError``, mixing it with host ``numpy.ndarray`` operands raises ``TypeError``,
and the way back to the host is explicit (``.get()``, ``backend.to_host``); functions
whose arguments or arithmetic CuPy handles differently follow CuPy's rules
(``cupy_rules.py``). It is a
wrapper, not an ``ndarray`` subclass, because ``numpy.asarray`` strips subclasses without
asking. It is registered with dask's chunk-type dispatch the way dask registers CuPy, so
the test suite drives dask through the same paths CuPy chunks take. It counts its copies
to and from the host and its kernel launches (``device_counts.py``).
"""

from __future__ import annotations

import sys
from typing import Any

import numpy
from numpy.lib.mixins import NDArrayOperatorsMixin

from .._codegen import cpu
from .._ir.scalar_program import ScalarProgram
from .base import ChunkBackend
from .cupy_backend import evaluate_op_by_op
from .cupy_rules import cupy_rules, has_integer_power, rule_for
from .device_counts import count_fused_kernel, count_kernel, count_to_device, count_to_host

_IMPLICIT_HOST_MESSAGE = (
    "Implicit conversion to a NumPy array is not allowed (simulated device chunk, as in "
    "CuPy). Please use `.get()` to construct a NumPy array explicitly."
)


class SimulatedDeviceArray(NDArrayOperatorsMixin):
    """A chunk on the simulated device."""

    __slots__ = ("_data", "__weakref__")  # tests watch a chunk weakly
    __array_priority__ = 100

    def __init__(self, data: numpy.ndarray) -> None:
        self._data = data

    # -- the host boundary -------------------------------------------------------------
    def __array__(self, dtype: Any = None, copy: Any = None) -> numpy.ndarray:
        raise TypeError(_IMPLICIT_HOST_MESSAGE)

    def get(self) -> numpy.ndarray:
        """Copy to the host, explicitly (``cupy.ndarray.get``)."""
        count_to_host(self._data.nbytes)
        return self._data.copy()

    # -- NumPy protocols: compute on the "device", refuse host operands ------------------
    def __array_ufunc__(self, ufunc: numpy.ufunc, method: str, *inputs: Any, **kwargs: Any) -> Any:
        if not is_device_ufunc(ufunc):
            # CuPy runs only its own ufuncs on its arrays: a host ufunc (a Numba CPU
            # @vectorize/@guvectorize, numpy.frompyfunc) gets NotImplemented there, and
            # NumPy raises TypeError. NumPy's own ufuncs stand for CuPy's.
            return NotImplemented
        inputs = tuple(_unwrap(x) for x in inputs)
        if "out" in kwargs:
            kwargs["out"] = tuple(_unwrap(x) for x in kwargs["out"])
        if "where" in kwargs:
            kwargs["where"] = _unwrap(kwargs["where"])
        call = getattr(ufunc, method)
        if method == "__call__":  # CuPy's own arithmetic where it differs (cupy_rules)
            call = cupy_rules.get(ufunc.__name__, call)
        count_kernel()
        return _wrap(call(*inputs, **kwargs))

    def __array_function__(self, func: Any, types: Any, args: Any, kwargs: Any) -> Any:
        func = rule_for(func) or func  # CuPy's argument rules and arithmetic, where they differ
        args, kwargs = _unwrap(args), _unwrap(kwargs)
        return _wrap(_launched(func(*args, **kwargs), args))

    # -- array attributes -----------------------------------------------------------------
    shape = property(lambda self: self._data.shape)
    dtype = property(lambda self: self._data.dtype)
    ndim = property(lambda self: self._data.ndim)
    size = property(lambda self: self._data.size)
    nbytes = property(lambda self: self._data.nbytes)
    itemsize = property(lambda self: self._data.itemsize)
    strides = property(lambda self: self._data.strides)
    T = property(lambda self: SimulatedDeviceArray(self._data.T))
    real = property(lambda self: SimulatedDeviceArray(self._data.real))
    imag = property(lambda self: SimulatedDeviceArray(self._data.imag))

    def __getattr__(self, name: str) -> Any:
        # Methods (sum, astype, reshape, ...) run on the device and return device arrays.
        # Dunders are never forwarded: __array_interface__ / __array_struct__ / buffers
        # would hand NumPy the host memory behind the device's back.
        if name.startswith("__"):
            raise AttributeError(name)
        attribute = getattr(self._data, name)
        if not callable(attribute):
            return attribute
        data = self._data

        def method(*args: Any, **kwargs: Any) -> Any:
            if name in _HOST_READS:
                count_to_host(data.nbytes)
                return attribute(*_unwrap(args), **_unwrap(kwargs))
            return _wrap(_launched(attribute(*_unwrap(args), **_unwrap(kwargs)), (data,)))

        return method

    def __getitem__(self, index: Any) -> Any:
        result = self._data[_unwrap(index, allow_host=True)]
        # an element is a 0-d view on CuPy: no kernel
        return _wrap(
            result if isinstance(result, numpy.generic) else _launched(result, (self._data,))
        )

    def __setitem__(self, index: Any, value: Any) -> None:
        count_kernel()
        self._data[_unwrap(index, allow_host=True)] = _unwrap(value)

    def __len__(self) -> int:
        return len(self._data)

    def __iter__(self) -> Any:
        return (_wrap(x) for x in self._data)

    # Scalars cross to the host implicitly, as in CuPy (a synchronizing device read); not
    # as an index: cupy.ndarray has no __index__ (cupy/cupy#5784: an implicit device read),
    # so host[x] with a 0-d device integer x reaches __array__ and raises, and
    # operator.index(x), range(x) and a_list[x] raise TypeError.
    def __bool__(self) -> bool:
        count_to_host(self._data.itemsize)
        return bool(self._data)

    def __float__(self) -> float:
        count_to_host(self._data.itemsize)
        return float(self._data)

    def __int__(self) -> int:
        count_to_host(self._data.itemsize)
        return int(self._data)

    def __complex__(self) -> complex:
        count_to_host(self._data.itemsize)
        return complex(self._data)

    # DLPack is an explicit export (``numpy.from_dlpack``): the simulated device's memory
    # is host memory, so it exports it as such (CuPy exports a CUDA buffer).
    def __dlpack__(self, **keywords: Any) -> Any:
        return self._data.__dlpack__(**keywords)

    def __dlpack_device__(self) -> tuple[int, int]:
        return self._data.__dlpack_device__()  # type: ignore[no-any-return]

    def __repr__(self) -> str:
        return f"simulated_device_array({numpy.array2string(self._data, separator=', ')})"

    def __reduce__(self) -> Any:
        # A CuPy chunk leaves its device to be sent to another process (or spilled).
        count_to_host(self._data.nbytes)
        return (SimulatedDeviceArray, (self._data,))

    def __dask_tokenize__(self) -> Any:
        from dask.base import tokenize

        return ("simulated-device", tokenize(self._data))


# Methods of a device array that hand its values to the host (``cupy.ndarray.tolist``...).
_HOST_READS = frozenset({"tolist", "item", "tobytes", "tofile"})
# Creation functions that allocate without writing (no kernel), and those that take
# host data onto the device (``cupy.asarray(host)``: a copy, not a kernel).
_ALLOCATIONS = frozenset({"empty", "empty_like"})
_TRANSFERS = frozenset({"asarray", "array"})


def _launched(result: Any, sources: Any) -> Any:
    """``result`` of a device operation on ``sources``, a kernel launch counted unless it
    is empty or a view of one of them (a basic index, ``reshape``, ``.T``: metadata only)."""
    is_array = isinstance(result, numpy.ndarray)
    if not (is_array and (result.size == 0 or _views_any(result, sources))):
        count_kernel()
    return result


def _views_any(result: numpy.ndarray, sources: Any) -> bool:
    if isinstance(sources, numpy.ndarray):
        return numpy.may_share_memory(result, sources)
    if isinstance(sources, (list, tuple)):
        return any(_views_any(result, source) for source in sources)
    return False


def is_device_ufunc(ufunc: Any) -> bool:
    """True for NumPy's own ufuncs (the device's, as CuPy's are), False for a host one."""
    return getattr(numpy, getattr(ufunc, "__name__", ""), None) is ufunc


def _unwrap(value: Any, allow_host: bool = False) -> Any:
    if isinstance(value, SimulatedDeviceArray):
        return value._data
    if isinstance(value, numpy.ndarray) and not allow_host:
        raise TypeError(
            f"Unsupported type {type(value)}: a host numpy.ndarray cannot be an operand of a "
            "simulated device array (as in CuPy); transfer it explicitly first."
        )
    if isinstance(value, (list, tuple)):
        return _same_sequence(value, [_unwrap(x, allow_host) for x in value])
    if isinstance(value, dict):
        return {k: _unwrap(v, allow_host) for k, v in value.items()}
    return value


def _wrap(value: Any) -> Any:
    if isinstance(value, numpy.ndarray):
        if value.dtype.names is not None:
            # CuPy has no structured dtypes; dask's arg reductions fall back to dicts there.
            raise TypeError(f"Unsupported dtype {value.dtype} (structured, as in CuPy)")
        return SimulatedDeviceArray(value)
    if isinstance(value, numpy.generic):
        # CuPy reductions give 0-d device arrays, never host scalars.
        return SimulatedDeviceArray(numpy.asarray(value))
    if isinstance(value, (list, tuple)) and any(isinstance(x, numpy.ndarray) for x in value):
        return _same_sequence(value, [_wrap(x) for x in value])
    return value


def _same_sequence(like: list | tuple, items: list[Any]) -> Any:
    """``items`` as a sequence of ``like``'s type; named tuples (linalg's ``QRResult``)
    take their fields as separate arguments."""
    return type(like)(*items) if hasattr(like, "_fields") else type(like)(items)


class _DeviceRandom:
    """``xp.random`` of the simulated device: ``default_rng`` gives a generator whose draws
    are device arrays (``cupy.random.default_rng``)."""

    def default_rng(self, seed: Any = None) -> Any:
        return _DeviceGenerator(numpy.random.default_rng(seed))


class _DeviceNamespace:
    """``xp`` for the simulated device: NumPy's names, run on the device. Creation functions
    take host data (an explicit transfer, like ``cupy.asarray``); every other function
    refuses host arrays, as CuPy's do. Types (``xp.float64``, ``xp.finfo``) are NumPy's;
    ``xp.random.default_rng`` draws on the device."""

    random = _DeviceRandom()

    _creation = frozenset(
        "zeros ones full empty arange linspace eye identity asarray array "
        "zeros_like ones_like full_like empty_like".split()
    )

    def __getattr__(self, name: str) -> Any:
        attribute = cupy_rules.get(name) or getattr(numpy, name)
        if isinstance(attribute, type) or not callable(attribute):
            return attribute
        allow_host = name in self._creation

        def on_device(*args: Any, **kwargs: Any) -> Any:
            source = args[0] if args else next(iter(kwargs.values()), None)
            if name in _TRANSFERS and _refused_sequence(source):
                raise TypeError(_IMPLICIT_HOST_MESSAGE)
            from_host = name in _TRANSFERS and not isinstance(source, SimulatedDeviceArray)
            args, kwargs = _unwrap(args, allow_host), _unwrap(kwargs, allow_host)
            result = attribute(*args, **kwargs)
            if from_host:
                count_to_device(numpy.asarray(result).nbytes)  # host data onto the device
            elif name not in _ALLOCATIONS:
                _launched(result, args)
            return _wrap(result)

        return on_device


def _refused_sequence(source: Any) -> bool:
    """Whether ``cupy.asarray(source)`` raises CuPy's implicit-conversion ``TypeError``: a
    list or tuple holding a device array, but not as a (nested) sequence of device arrays
    of one shape, which CuPy concatenates on the device. Any other sequence CuPy hands to
    ``numpy.array``, which asks each device array in it for ``__array__``: ``[x[0], 1.0]``
    or ``[x.sum(), host_value]`` (cupy/_core/_routines_creation.pyx, ``array`` and
    ``_compute_concat_info_impl``)."""
    return _holds_device_array(source) and _stacked_shape(source) is None


def _holds_device_array(value: Any) -> bool:
    if isinstance(value, SimulatedDeviceArray):
        return True
    return isinstance(value, (list, tuple)) and any(_holds_device_array(x) for x in value)


def _stacked_shape(value: Any) -> tuple[int, ...] | None:
    """The shape of ``value`` stacked, if it is a device array or a non-empty (nested)
    sequence of device arrays of one shape; else None."""
    if isinstance(value, SimulatedDeviceArray):
        return tuple(value.shape)
    if not isinstance(value, (list, tuple)) or not value:
        return None
    shapes = {_stacked_shape(item) for item in value}
    if len(shapes) != 1 or None in shapes:
        return None
    (shape,) = shapes
    assert shape is not None
    return (len(value), *shape)


class _DeviceGenerator:
    """A random generator on the simulated device: NumPy's, its draws device arrays (as
    ``cupy.random.Generator``'s are)."""

    def __init__(self, generator: numpy.random.Generator) -> None:
        self._generator = generator

    def __getattr__(self, name: str) -> Any:
        method = getattr(self._generator, name)

        def draw(*args: Any, **kwargs: Any) -> Any:
            count_kernel()
            return _wrap(method(*_unwrap(args), **_unwrap(kwargs)))

        return draw


class SimulatedDeviceBackend(ChunkBackend):
    name = "simulated-device"
    xp: Any = _DeviceNamespace()
    chunk_type: type = SimulatedDeviceArray

    def from_host(self, host: numpy.ndarray) -> SimulatedDeviceArray:
        if isinstance(host, SimulatedDeviceArray):
            return host
        data = numpy.array(host)
        count_to_device(data.nbytes)
        return SimulatedDeviceArray(data)

    def generator(self, seed: numpy.random.SeedSequence) -> Any:
        return _DeviceGenerator(numpy.random.Generator(numpy.random.PCG64(seed)))

    def owns_its_memory(self, chunk: Any) -> bool:
        """A view's wrapper holds the NumPy array it views, not the viewed wrapper: the
        array under ``chunk`` must be referred to by ``chunk`` alone (each count: that
        reference, the local name, ``getrefcount``'s argument)."""
        data = chunk._data if isinstance(chunk, SimulatedDeviceArray) else chunk
        extra = 1 if data is chunk else 0  # a NumPy chunk: also the caller's argument
        return data.base is None and data.flags.writeable and sys.getrefcount(data) <= 3 + extra

    def to_host(self, chunk: Any) -> numpy.ndarray:
        if isinstance(chunk, SimulatedDeviceArray):
            return chunk.get()
        if isinstance(chunk, numpy.ndarray):
            return chunk
        raise TypeError(f"not a simulated device chunk: {type(chunk).__name__}")

    def evaluate_program(
        self, program: ScalarProgram, *operands: Any, out: SimulatedDeviceArray | None = None
    ) -> SimulatedDeviceArray:
        """The "device kernel": the CPU evaluator on the device's own arrays (unwrapped
        explicitly, never through ``__array__``); host operands (and a host ``out``) are
        refused as CuPy's ElementwiseKernel refuses them."""
        if has_integer_power(program):
            # NumPy's loop would raise for int ** -n; CuPy's kernel gives 0, 1 or -1 there.
            result = evaluate_op_by_op(self.xp, program, operands)
            if out is None:
                return result  # type: ignore[no-any-return]
            out[...] = result
            return out
        target = None if out is None else _unwrap(out)
        count_fused_kernel()  # one ElementwiseKernel launch on CuPy
        return SimulatedDeviceArray(cpu.evaluate(program, *_unwrap(operands), out=target))

    def evaluates_quietly(self, program: ScalarProgram) -> bool:
        return cpu.evaluates_quietly(program)


def _register_with_dask() -> None:
    """Register the chunk type with dask's dispatch, as dask registers cupy."""
    from dask.array.chunk_types import register_chunk_type
    from dask.array.dispatch import (
        concatenate_lookup,
        einsum_lookup,
        empty_lookup,
        nannumel_lookup,
        numel_lookup,
        take_lookup,
        tensordot_lookup,
        to_numpy_dispatch,
    )
    from dask.sizeof import sizeof

    from .._runtime import distributed_internals

    def on_device(numpy_function: Any) -> Any:
        def run(*args: Any, **kwargs: Any) -> Any:
            args, kwargs = _unwrap(args), _unwrap(kwargs)
            result = numpy_function(*args, **kwargs)
            return _wrap(result if numpy_function is numpy.empty else _launched(result, args))

        return run

    register_chunk_type(SimulatedDeviceArray)
    concatenate_lookup.register(SimulatedDeviceArray, on_device(numpy.concatenate))
    tensordot_lookup.register(SimulatedDeviceArray, on_device(numpy.tensordot))
    einsum_lookup.register(SimulatedDeviceArray, on_device(numpy.einsum))
    take_lookup.register(SimulatedDeviceArray, on_device(numpy.take))
    empty_lookup.register(SimulatedDeviceArray, on_device(numpy.empty))
    numel_lookup.register(SimulatedDeviceArray, distributed_internals.numel_like)
    nannumel_lookup.register(SimulatedDeviceArray, distributed_internals.nannumel_like)
    to_numpy_dispatch.register(SimulatedDeviceArray, lambda data, **kwargs: data.get())
    # dask.sizeof counts a cupy.ndarray's bytes: a worker's memory manager counts (and
    # spills) the simulated device's chunks by their bytes too, not as tens-of-bytes objects
    # that a worker holds until its nanny restarts it.
    sizeof.register(SimulatedDeviceArray, lambda chunk: int(chunk.nbytes))


# At import, not at first use: a worker process that unpickles a chunk imports this module,
# and dask's dispatch (concatenate, tensordot, ...) must know the type there too.
_register_with_dask()


def make_backend() -> SimulatedDeviceBackend:
    return SimulatedDeviceBackend()
