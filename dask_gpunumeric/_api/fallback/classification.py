"""Which NumPy functions fall back chunk by chunk, and how; which mutate an argument.

A NumPy function we do not implement is *chunk-wise* when it gives the same result block
by block: elementwise functions on any chunking, per-row functions once each block holds
its rows whole along one axis. Everything else *gathers*: its array arguments are computed
whole to one place (the size guard applies) and NumPy, or the device's namespace, runs on
them there. A ufunc without its own signature (``numpy.ufunc.signature is None``) is
elementwise by definition and needs no row here.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class ChunkwiseSpec:
    """How a function maps blocks.

    ``operands``: the parameters holding arrays mapped block by block (an array passed in
    any other parameter makes the call gather). ``axis``: None for elementwise functions;
    for per-row functions the name of the parameter holding the axis (``None`` there, a
    flattening call, gathers) or a fixed axis.
    """

    operands: tuple[str, ...]
    axis: str | int | None = None
    axis_default: int | None = None


def _elementwise(*operands: str) -> ChunkwiseSpec:
    return ChunkwiseSpec(operands)


def _along(operand: str, axis: str | int, default: int | None = -1) -> ChunkwiseSpec:
    return ChunkwiseSpec((operand,), axis, default)


# Keyed by path under numpy ("sinc", "linalg.norm"). real_if_close is not here: its result
# dtype depends on the values of the whole array.
chunkwise_table: dict[str, ChunkwiseSpec] = {
    "sinc": _elementwise("x"),
    "i0": _elementwise("x"),
    "nan_to_num": _elementwise("x"),
    "angle": _elementwise("z"),
    "fix": _elementwise("x"),
    "around": _elementwise("a"),
    "round": _elementwise("a"),
    "isreal": _elementwise("x"),
    "iscomplex": _elementwise("x"),
    "isneginf": _elementwise("x"),
    "isposinf": _elementwise("x"),
    "isclose": _elementwise("a", "b"),
    "unwrap": _along("p", "axis"),
    "sort_complex": _along("a", -1),
    "sort": _along("a", "axis"),
    "argsort": _along("a", "axis"),
    "partition": _along("a", "axis"),
    "argpartition": _along("a", "axis"),
    "diff": _along("a", "axis"),
    "gradient": _along("f", "axis", None),
    "nancumsum": _along("a", "axis", None),
    "nancumprod": _along("a", "axis", None),
    "cumulative_sum": _along("x", "axis", None),
    "cumulative_prod": _along("x", "axis", None),
    "fft.fft": _along("a", "axis"),
    "fft.ifft": _along("a", "axis"),
    "fft.rfft": _along("a", "axis"),
    "fft.irfft": _along("a", "axis"),
    "fft.hfft": _along("a", "axis"),
    "fft.ihfft": _along("a", "axis"),
}

# Functions that write into an argument (path -> the parameter they mutate): a gathering
# fallback writes the gathered, mutated value back into our array.
mutating_table: dict[str, str] = {
    "place": "arr",
    "put": "a",
    "putmask": "a",
    "put_along_axis": "arr",
    "copyto": "dst",
    "fill_diagonal": "a",
    "random.shuffle": "x",
}

# Submodules that hold only types, exceptions or annotations: NumPy's own serve.
passthrough_submodules = frozenset({"exceptions", "dtypes", "typing"})
# Our own subpackages, created by the API layer; until one exists, a fallback module
# stands in for it (every name falls back to NumPy's).
# numpy.lib.stride_tricks: xarray reads ``xp.lib.stride_tricks`` of an array's namespace
# before it dispatches sliding windows of dask-like arrays to dask.
subpackages = frozenset({"linalg", "fft", "random", "lib", "lib.stride_tricks"})

# NumPy utilities that take no array data (printing, error state, build information,
# dtype and number formatting): our namespace gives NumPy's own, without a warning, and
# the coverage table does not count them.
numpy_own_table = frozenset(
    {
        "base_repr",
        "binary_repr",
        "datetime_data",
        "format_float_positional",
        "format_float_scientific",
        "get_include",
        "get_printoptions",
        "getbufsize",
        "geterr",
        "geterrcall",
        "info",
        "isdtype",
        "isscalar",
        "iterable",
        "mintypecode",
        "printoptions",
        "set_printoptions",
        "setbufsize",
        "seterr",
        "seterrcall",
        "show_config",
        "show_runtime",
        "test",
        "typename",
        "random.bytes",
        "random.get_state",
        "random.set_state",
        "random.seed",
    }
)

# Deprecated by NumPy (not counted by the coverage table; still present through the
# fallback, where NumPy warns about them itself).
deprecated_table = frozenset({"row_stack", "random.random_integers"})
