"""Random sampling, ``Generator`` API (NumPy reference: "Random sampling (numpy.random)").

Every draw is a ``RandomDraw`` leaf: its chunks are drawn on the workers by the backend's
generator (NumPy's PCG64 on CPUs, ``cupy.random`` on GPUs), each from its own stream
``SeedSequence(entropy, spawn_key=(draw number, *chunk offset))``. The same seed and
chunking give the same values; different seeds, draws and chunks are independent.

Differences from NumPy: the values are not NumPy's for the same seed (NumPy draws one
sequence; a distributed draw cannot); distribution, dtypes, shapes and errors are.
Distribution parameters are scalars, except for ``uniform``, ``normal`` and
``exponential``, whose array parameters are applied to standard draws elementwise.
"""

from __future__ import annotations

import operator
from typing import Any

import numpy

from .._ir.random import RandomDraw
from .creation import asarray
from .ndarray import ndarray
from .random_distributions import GeneratorDistributions
from .ufuncs import ufuncs

__all__ = ["Generator", "default_rng"]

# method -> (standard method, how its array parameters transform the standard draw)
_AFFINE = {"normal": "standard_normal", "uniform": "random", "exponential": "standard_exponential"}


def _shape(size: Any) -> tuple[int, ...]:
    if isinstance(size, (tuple, list)):
        return tuple(operator.index(n) for n in size)
    return (operator.index(size),)


def _is_scalar(value: Any) -> bool:
    return not isinstance(value, ndarray) and numpy.ndim(value) == 0


class Generator(GeneratorDistributions):
    """dask_gpunumeric implementation of :class:`numpy.random.Generator`
    (its distributions, ``beta`` ... ``zipf``, are ``random_distributions``'s)."""

    def __init__(self, seed: Any = None) -> None:
        sequence = seed if isinstance(seed, numpy.random.SeedSequence) else None
        if sequence is None:
            sequence = numpy.random.SeedSequence(seed)
        entropy = sequence.entropy  # an int, or the sequence of ints the user gave
        self._entropy = entropy if isinstance(entropy, int) else tuple(entropy)  # type: ignore[arg-type]
        self._spawn_key = tuple(sequence.spawn_key)
        self._draws = 0

    def __repr__(self) -> str:
        return f"Generator(dask_gpunumeric, entropy={self._entropy})"

    def _next_stream(self) -> tuple[int, ...]:
        self._draws += 1
        return self._spawn_key + (self._draws,)

    def host_generator(self) -> numpy.random.Generator:
        """A NumPy generator on the next stream of this one (small client-side draws)."""
        sequence = numpy.random.SeedSequence(self._entropy, spawn_key=self._next_stream())
        return numpy.random.Generator(numpy.random.PCG64(sequence))

    def _draw(
        self,
        method: str,
        arguments: tuple[Any, ...],
        size: Any,
        chunks: Any = None,
        **keywords: Any,
    ) -> Any:
        """NumPy checks the call on a one-element probe (its errors, its dtype); the draw
        itself is a ``RandomDraw`` leaf, or a host scalar for ``size=None``."""
        probe_generator = numpy.random.default_rng(0)
        probe = getattr(probe_generator, method)(*arguments, size=1, **keywords)
        if size is None:
            scalar = getattr(probe_generator, method)(*arguments, **keywords)
            value = getattr(self.host_generator(), method)(*arguments, **keywords)
            return type(scalar)(value)
        shape = _shape(size)
        if any(n < 0 for n in shape):
            raise ValueError("negative dimensions are not allowed")
        if chunks is not None:
            from dask.array.core import normalize_chunks

            chunks = normalize_chunks(chunks, shape)
        leaf = RandomDraw(
            shape,
            probe.dtype,
            method,
            arguments,
            tuple(sorted(keywords.items())),
            self._entropy,
            self._next_stream(),
            chunks,
        )
        return ndarray._from_expr(leaf)

    def _distribution(
        self, method: str, parameters: tuple[Any, ...], size: Any, chunks: Any
    ) -> Any:
        """A draw from ``method``'s distribution, ``parameters`` in NumPy's order: one
        ``RandomDraw`` for scalar parameters, standard draws shifted and scaled for the
        array parameters of ``normal``, ``uniform`` and ``exponential``."""
        if all(_is_scalar(v) for v in parameters):
            return self._draw(method, parameters, size, chunks)
        if method not in _AFFINE:
            raise NotImplementedError(
                f"dask_gpunumeric: Generator.{method} takes scalar parameters; draw with "
                "NumPy (dask_gpunumeric arrays' .compute()) for array parameters"
            )
        return _affine(self, method, list(parameters), size, chunks)

    # -- the basic draws (dtype= and out=) ---------------------------------------------
    def random(
        self, size: Any = None, dtype: Any = numpy.float64, out: Any = None, *, chunks: Any = None
    ) -> Any:
        """dask_gpunumeric implementation of :meth:`numpy.random.Generator.random`
        (extra: ``chunks=``, as on the creation functions; likewise for every draw)."""
        return self._standard("random", size, dtype, out, chunks)

    def standard_normal(
        self, size: Any = None, dtype: Any = numpy.float64, out: Any = None, *, chunks: Any = None
    ) -> Any:
        """dask_gpunumeric implementation of :meth:`numpy.random.Generator.standard_normal`."""
        return self._standard("standard_normal", size, dtype, out, chunks)

    def standard_exponential(
        self,
        size: Any = None,
        dtype: Any = numpy.float64,
        method: str = "zig",
        out: Any = None,
        *,
        chunks: Any = None,
    ) -> Any:
        """dask_gpunumeric implementation of
        :meth:`numpy.random.Generator.standard_exponential`."""
        return self._standard("standard_exponential", size, dtype, out, chunks)

    def standard_gamma(
        self,
        shape: Any,
        size: Any = None,
        dtype: Any = numpy.float64,
        out: Any = None,
        *,
        chunks: Any = None,
    ) -> Any:
        """dask_gpunumeric implementation of :meth:`numpy.random.Generator.standard_gamma`."""
        if out is not None:
            size = out.shape
        result = self._draw("standard_gamma", (shape,), size, chunks, dtype=numpy.dtype(dtype))
        return _into(out, result)

    def _standard(self, method: str, size: Any, dtype: Any, out: Any, chunks: Any) -> Any:
        if out is not None:
            size = out.shape
        return _into(out, self._draw(method, (), size, chunks, dtype=numpy.dtype(dtype)))

    def integers(
        self,
        low: Any,
        high: Any = None,
        size: Any = None,
        dtype: Any = numpy.int64,
        endpoint: bool = False,
        *,
        chunks: Any = None,
    ) -> Any:
        """dask_gpunumeric implementation of :meth:`numpy.random.Generator.integers`."""
        if high is None:
            low, high = 0, low
        keywords = {"dtype": numpy.dtype(dtype), "endpoint": endpoint}
        return self._draw("integers", (low, high), size, chunks, **keywords)

    # -- sequences ---------------------------------------------------------------------
    def permutation(self, x: Any, axis: int = 0) -> ndarray:
        """dask_gpunumeric implementation of :meth:`numpy.random.Generator.permutation`.

        Differences from NumPy: the permutation (of the indices) is drawn on one worker,
        as one chunk of ``n`` integers; the array itself stays distributed.
        """
        if isinstance(x, (int, numpy.integer)):
            numpy.random.default_rng(0).permutation(x)  # NumPy's errors
            return self._indices(int(x))
        array = asarray(x)
        if array.ndim == 0:
            raise numpy.exceptions.AxisError("x must be an integer or at least 1-dimensional")
        axis = numpy.lib.array_utils.normalize_axis_index(axis, array.ndim)
        index = (slice(None),) * axis + (self._indices(array.shape[axis]),)
        return array[index]

    def _indices(self, n: int) -> ndarray:
        stream = self._next_stream()
        leaf = RandomDraw((n,), numpy.int64, "permutation", (n,), (), self._entropy, stream)
        leaf.chunks = ((n,),)
        return ndarray._from_expr(leaf)

    def shuffle(self, x: Any, axis: int = 0) -> None:
        """dask_gpunumeric implementation of :meth:`numpy.random.Generator.shuffle`
        (in place; a NumPy array is shuffled on the host)."""
        if isinstance(x, ndarray):
            x[...] = self.permutation(x, axis=axis)
        else:
            self.host_generator().shuffle(x, axis=axis)

    def choice(
        self,
        a: Any,
        size: Any = None,
        replace: bool = True,
        p: Any = None,
        axis: int = 0,
        shuffle: bool = True,
    ) -> Any:
        """dask_gpunumeric implementation of :meth:`numpy.random.Generator.choice`.

        Differences from NumPy: ``p`` is a host sequence (it is sent with every task);
        without replacement the indices are a permutation drawn on one worker.
        """
        population = int(a) if _is_scalar(a) and not isinstance(a, ndarray) else None
        candidates = None if population is not None else asarray(a)
        n = population if population is not None else candidates.shape[axis]  # type: ignore[union-attr]
        host_p = None if p is None else tuple(numpy.asarray(p, dtype=float).tolist())
        stand_in = a if population is not None else numpy.zeros(candidates.shape)  # type: ignore[union-attr]
        numpy.random.default_rng(0).choice(
            stand_in, size=size if size is not None else 1, replace=replace, p=host_p, axis=axis
        )
        if size is None:  # one element: NumPy gives a scalar (a sub-array of an n-D ``a``)
            index = self.host_generator().choice(n, replace=replace, p=host_p)
            if candidates is None:
                return index
            picked = candidates[(slice(None),) * axis + (int(index),)]
            return picked.compute()[()] if picked.ndim == 0 else picked
        shape = () if size is None else _shape(size)
        if replace:
            indices = self._draw("choice", (n,), shape, p=host_p)
        else:
            indices = self._indices(n)[: int(numpy.prod(shape))].reshape(shape)
        if candidates is None:
            return indices
        return candidates[(slice(None),) * axis + (indices,)]

    def spawn(self, n_children: int) -> list[Generator]:
        """dask_gpunumeric implementation of :meth:`numpy.random.Generator.spawn`."""
        sequence = numpy.random.SeedSequence(self._entropy, spawn_key=self._next_stream())
        return [Generator(child) for child in sequence.spawn(n_children)]


def _into(out: Any, result: Any) -> Any:
    if out is None:
        return result
    out[...] = result
    return out


def _affine(
    generator: Generator, method: str, values: list[Any], size: Any, chunks: Any
) -> ndarray:
    """``normal``/``uniform``/``exponential`` with array parameters: standard draws of the
    broadcast shape, shifted and scaled elementwise (NumPy's checks on a stand-in)."""
    arrays = [asarray(v) for v in values]
    stand_ins = [
        numpy.zeros(x.shape, dtype=x.dtype) + (1 if method == "exponential" else 0) for x in arrays
    ]
    probe = getattr(numpy.random.default_rng(0), method)(*stand_ins, size=size)
    standard = generator._draw(_AFFINE[method], (), numpy.shape(probe), chunks)
    multiply, add = ufuncs["multiply"], ufuncs["add"]
    if method == "exponential":
        return multiply(arrays[0], standard)
    if method == "normal":
        return add(arrays[0], multiply(arrays[1], standard))
    return add(arrays[0], multiply(ufuncs["subtract"](arrays[1], arrays[0]), standard))


def default_rng(seed: Any = None) -> Generator:
    """dask_gpunumeric implementation of :func:`numpy.random.default_rng`.

    Differences from NumPy: ``seed`` is None, an int, a sequence of ints or a
    ``SeedSequence`` (not a NumPy bit generator); the values are not NumPy's.
    """
    if isinstance(seed, Generator):
        return seed
    return Generator(seed)
