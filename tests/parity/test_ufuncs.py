"""Every ufunc of ``ufunc_table`` against NumPy: dtypes, shapes, chunkings, scalar operands,
two-output ufuncs and the ``out=``/``dtype=``/``casting=``/``where=`` keywords.

The parametrization is generated from the table (STYLE.md point 2): a new row is tested
without touching this file.
"""

from __future__ import annotations

from typing import Any

import dask
import numpy
import pytest

import dask_gpunumeric as dnp
from dask_gpunumeric._ir.ufunc_table import UfuncSpec, ufunc_by_name, ufunc_table
from dask_gpunumeric.testing import PARITY_DTYPES, assert_eq, assert_raises_like

DTYPES = PARITY_DTYPES
# Results of these go through libm-style approximations whose last bit may differ between
# NumPy's SIMD and scalar loops (chunk lengths differ from the whole array's).
TRANSCENDENTAL_FAMILIES = ("exponents-logarithms", "trigonometric")
TRANSCENDENTAL_EXTRA = ("cbrt", "power", "float_power")
EXACT_TRIG = ("degrees", "radians", "deg2rad", "rad2deg")

CANONICAL = ufunc_table  # one row per ufunc; its aliases are the same object
NAMES = [(name, row) for row in ufunc_table for name in row.names]


def _ids(rows: tuple[UfuncSpec, ...]) -> list[str]:
    return [row.name for row in rows]


def is_transcendental(spec: UfuncSpec) -> bool:
    if spec.name in EXACT_TRIG:
        return False
    return spec.family in TRANSCENDENTAL_FAMILIES or spec.name in TRANSCENDENTAL_EXTRA


def tolerance(spec: UfuncSpec, dtype: numpy.dtype) -> float:
    if not is_transcendental(spec) or dtype.kind not in "fc":
        return 0.0
    return 1e-6 if dtype.itemsize <= 4 or dtype == numpy.complex64 else 1e-12


def _pool(dtype: numpy.dtype, second: bool, spec: UfuncSpec | None) -> list[Any]:
    """Values that matter for ``dtype``: NaN, inf, -0.0, negatives, zeros, extremes."""
    if dtype.kind == "b":
        return [True, False]
    if dtype.kind == "f":
        return [numpy.nan, numpy.inf, -numpy.inf, -0.0, 0.0, 1.0, -1.0, 0.5, -2.5, 3.0, 0.1, 7.25]
    if dtype.kind == "c":
        return [
            complex(numpy.nan, 1),
            complex(numpy.inf, 0),
            complex(0, -numpy.inf),
            -0.0j,
            0j,
            1 + 1j,
            -2.5 + 0.5j,
            3 - 1j,
            0.5j,
            -1 + 0j,
            0.25 + 2j,
            1.5 + 0j,
        ]
    info = numpy.iinfo(dtype)
    if second and spec is not None and spec.name in ("power", "left_shift", "right_shift", "ldexp"):
        # Negative integer exponents raise at compute time in NumPy (data-dependent).
        return [0, 1, 2, 3, 5, 7, 0, 1]
    values = [0, 1, 2, 3, 7, 100, info.max, info.max - 1]
    if info.min < 0:
        values += [-1, -2, -7, info.min]
    return [v for v in values if info.min <= v <= info.max]


def sample(
    dtype: Any,
    shape: tuple[int, ...],
    seed: int = 0,
    *,
    second: bool = False,
    spec: UfuncSpec | None = None,
) -> numpy.ndarray:
    dtype = numpy.dtype(dtype)
    pool = numpy.array(_pool(dtype, second, spec), dtype=dtype)
    size = int(numpy.prod(shape, dtype=numpy.int64))
    rng = numpy.random.default_rng(seed)
    # Start with the whole pool (every special value appears), then random picks.
    picks = numpy.concatenate([numpy.arange(len(pool)), rng.integers(0, len(pool), size)])
    return pool[picks[:size] if seed == 0 else rng.permutation(picks)[:size]].reshape(shape)


def _second_dtype(spec: UfuncSpec, dtype: str) -> str:
    return "int32" if spec.name == "ldexp" and dtype not in ("bool",) else dtype


def inputs_for(
    spec: UfuncSpec, dtype: str, shapes: tuple[tuple[int, ...], ...]
) -> list[numpy.ndarray]:
    hosts = [sample(dtype, shapes[0], 0, spec=spec)]
    if spec.nin == 2:
        hosts.append(sample(_second_dtype(spec, dtype), shapes[1], 1, second=True, spec=spec))
    return hosts


def ours(host: numpy.ndarray, chunks: Any) -> dnp.ndarray:
    return dnp.array(host, chunks=chunks)


Pending = list[tuple[dnp.ndarray, Any, float, str]]


def check_call(
    spec: UfuncSpec, hosts: list[Any], operands: list[Any], pending: Pending, **kwargs: Any
) -> None:
    """``spec(*operands)`` equals NumPy's ``spec(*hosts)``, or raises NumPy's exception.

    Errors are checked at once (they are raised at the call); values are appended to
    ``pending`` and compared by ``verify``, which computes them all in one pass."""
    numpy_ufunc = getattr(numpy, spec.name)
    ours_ufunc = getattr(dnp, spec.name)
    try:
        expected = numpy_ufunc(*hosts, **kwargs)
    except Exception:  # noqa: BLE001 - NumPy refuses: we must refuse the same way
        assert_raises_like(
            lambda: numpy_ufunc(*hosts, **kwargs), lambda: ours_ufunc(*operands, **kwargs)
        )
        return
    actual = ours_ufunc(*operands, **kwargs)
    expected_tuple = expected if isinstance(expected, tuple) else (expected,)
    actual_tuple = actual if isinstance(actual, tuple) else (actual,)
    assert len(actual_tuple) == len(expected_tuple)
    label = f"{spec.name}{tuple(_describe(h) for h in hosts)} {kwargs or ''}"
    for mine, theirs in zip(actual_tuple, expected_tuple, strict=True):
        pending.append((mine, theirs, tolerance(spec, numpy.asarray(theirs).dtype), label))


def _describe(host: Any) -> str:
    if isinstance(host, numpy.ndarray):
        return f"{host.dtype}{list(host.shape)}"
    return repr(host)


def verify(pending: Pending) -> None:
    """``assert_eq`` on every pending result; one dask pass computes them all first (the
    per-compute scheduler overhead would otherwise dominate these small arrays)."""
    computed = dask.persist(*(mine for mine, _, _, _ in pending))
    for mine, (_, theirs, rtol, label) in zip(computed, pending, strict=True):
        try:
            assert_eq(mine, theirs, rtol=rtol)
        except AssertionError as error:
            raise AssertionError(f"{label}: {error}") from None


def check_now(spec: UfuncSpec, hosts: list[Any], operands: list[Any], **kwargs: Any) -> None:
    pending: Pending = []
    check_call(spec, hosts, operands, pending, **kwargs)
    verify(pending)


# -- every row: namespace and metadata ---------------------------------------------------
@pytest.mark.parametrize("name,spec", NAMES, ids=[name for name, _ in NAMES])
def test_namespace_row(name: str, spec: UfuncSpec) -> None:
    ours_ufunc = getattr(dnp, name)
    assert (ours_ufunc.nin, ours_ufunc.nout) == (spec.numpy_ufunc.nin, spec.numpy_ufunc.nout)
    assert getattr(numpy, name) is spec.numpy_ufunc  # NumPy's alias of the same ufunc
    assert ours_ufunc is getattr(dnp, spec.name)  # aliases are the same object


# -- the dtype sweep: every canonical ufunc x every dtype, several uneven chunks ----------
@pytest.mark.parametrize("spec", CANONICAL, ids=_ids(CANONICAL))
def test_dtype_sweep(spec: UfuncSpec) -> None:
    """Where NumPy refuses a dtype (``invert`` of floats...) we must raise its class."""
    pending: Pending = []
    for dtype in DTYPES:
        hosts = inputs_for(spec, dtype, ((4, 6), (4, 6)))
        check_call(spec, hosts, [ours(h, (3, 4)) for h in hosts], pending)
    verify(pending)


# -- the shape/chunking sweep ------------------------------------------------------------
SHAPES = [(), (0,), (0, 3), (7,), (3, 5), (2, 3, 4), (2, 1, 3, 2)]
PAIRS = [
    ((3, 1), (1, 4)),
    ((2, 3, 4), (4,)),
    ((), (3, 2)),
    ((5, 1, 3), (1, 2, 1)),
    ((0, 3), (1, 3)),
    ((4,), ()),
    ((3, 4), (3, 4)),
]
CASES = [(shape, shape) for shape in SHAPES] + PAIRS


def chunking(shape: tuple[int, ...], split: bool) -> tuple[int, ...]:
    """One chunk, or about two per axis (uneven when the length is odd)."""
    return tuple(max(1, (n + 1) // 2) for n in shape) if split else shape


def has_integer_loop(spec: UfuncSpec) -> bool:
    """Integer inputs stay integers (bitwise, gcd, floor_divide...): the int64 path is its
    own loop there, not a cast to float64 that the float64 sweep already covers."""
    try:
        probe = spec.numpy_ufunc(*([numpy.empty(0, dtype=numpy.int64)] * spec.nin))
    except TypeError:
        return False  # isnat: no numeric loop at all (the dtype sweep checks the error)
    first = probe[0] if isinstance(probe, tuple) else probe
    return first.dtype.kind in "iub"


SHAPE_SWEEP = [(spec, "float64") for spec in CANONICAL] + [
    (spec, "int64") for spec in CANONICAL if has_integer_loop(spec)
]


@pytest.mark.parametrize(
    "spec,dtype", SHAPE_SWEEP, ids=[f"{spec.name}-{dtype}" for spec, dtype in SHAPE_SWEEP]
)
def test_shape_sweep(spec: UfuncSpec, dtype: str) -> None:
    """All shapes and broadcasting pairs, each in one chunk and split; every other binary
    case splits only its first operand (then the inputs must be aligned onto one chunking)."""
    pending: Pending = []
    for i, shapes in enumerate(CASES[: len(SHAPES)] if spec.nin == 1 else CASES):
        hosts = inputs_for(spec, dtype, shapes)
        for splits in ((False, False), (True, i % 2 == 1)):
            operands = [
                ours(h, chunking(h.shape, split)) for h, split in zip(hosts, splits, strict=False)
            ]
            check_call(spec, hosts, operands, pending)
    verify(pending)


# -- mixed dtypes: NumPy's promotion table -----------------------------------------------
PROMOTING = ("add", "divide", "left_shift", "equal")


@pytest.mark.parametrize("name", PROMOTING)
def test_mixed_dtype_promotion(name: str) -> None:
    spec = ufunc_by_name[name]
    pending: Pending = []
    for left in DTYPES:
        for right in DTYPES:
            hosts = [sample(left, (5,), 0), sample(right, (5,), 1, second=True, spec=spec)]
            check_call(spec, hosts, [ours(h, 2) for h in hosts], pending)
    verify(pending)


# -- scalars: NEP 50 weak Python scalars, strong NumPy scalars ----------------------------
PYTHON_SCALARS = [2, -3, 0, 2.5, -0.0, float("nan"), True, 1j, 300, -1, 2**70, 70000]
SCALAR_UFUNCS = (  # one per kind of weak-scalar result: arithmetic, int/float, comparison...
    "add",
    "floor_divide",
    "power",
    "less",
    "bitwise_and",
    "arctan2",
    "ldexp",
)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("name", SCALAR_UFUNCS)
def test_python_scalar_operands(name: str, dtype: str) -> None:
    spec = ufunc_by_name[name]
    host = sample(dtype, (6,), 0)
    array = ours(host, 4)
    pending: Pending = []
    for scalar in PYTHON_SCALARS:
        check_call(spec, [host, scalar], [array, scalar], pending)
        if spec.name != "ldexp":
            check_call(spec, [scalar, host], [scalar, array], pending)
    verify(pending)


def test_out_of_range_python_int_overflows() -> None:
    host = numpy.arange(4, dtype=numpy.uint8)
    assert_raises_like(lambda: host + 300, lambda: dnp.array(host) + 300)
    assert_raises_like(lambda: numpy.add(host, -1), lambda: dnp.add(dnp.array(host), -1))
    assert_raises_like(lambda: numpy.int8(1) + 2**70, lambda: dnp.add(dnp.int8(1), 2**70))


NUMPY_SCALARS = [
    numpy.int8(-3),
    numpy.uint8(200),
    numpy.int64(5),
    numpy.float32(2.5),
    numpy.float64(-0.0),
    numpy.complex128(1j),
    numpy.bool_(True),
    numpy.uint64(2**63),
]


@pytest.mark.parametrize("dtype", ["int8", "uint8", "int64", "float32", "bool", "uint64"])
@pytest.mark.parametrize("name", ["add", "multiply", "maximum", "true_divide", "greater"])
def test_numpy_scalar_operands(name: str, dtype: str) -> None:
    spec = ufunc_by_name[name]
    host = sample(dtype, (2, 3), 0)
    array = ours(host, (1, 2))
    pending: Pending = []
    for scalar in NUMPY_SCALARS:
        check_call(spec, [host, scalar], [array, scalar], pending)
        check_call(spec, [scalar, host], [scalar, array], pending)
    verify(pending)


@pytest.mark.parametrize("name", ["add", "sin", "divmod", "isnan"])
def test_all_scalar_operands_give_0d_arrays(name: str) -> None:
    spec = ufunc_by_name[name]
    hosts = [numpy.float64(2.5)] * spec.nin
    actual = getattr(dnp, name)(*hosts)
    expected = getattr(numpy, name)(*hosts)
    for mine, theirs in zip(
        actual if spec.nout > 1 else (actual,),
        expected if spec.nout > 1 else (expected,),
        strict=True,
    ):
        assert_eq(mine, numpy.asarray(theirs))


# -- two-output ufuncs -------------------------------------------------------------------
TWO_OUTPUT = tuple(row for row in CANONICAL if row.nout == 2)


@pytest.mark.parametrize("spec", TWO_OUTPUT, ids=_ids(TWO_OUTPUT))
def test_two_outputs_into_out_tuple(spec: UfuncSpec) -> None:
    hosts = inputs_for(spec, "float64", ((3, 4), (3, 4)))
    expected = getattr(numpy, spec.name)(*hosts)
    outs = tuple(dnp.zeros((3, 4), dtype=e.dtype, chunks=2) for e in expected)
    returned = getattr(dnp, spec.name)(*[ours(h, 2) for h in hosts], out=outs)
    for mine, given, theirs in zip(returned, outs, expected, strict=True):
        assert mine is given
        assert_eq(mine, theirs)
    # One output given, the other None: NumPy allocates it.
    first = dnp.zeros((3, 4), dtype=expected[0].dtype)
    returned = getattr(dnp, spec.name)(*[ours(h, 2) for h in hosts], out=(first, None))
    assert returned[0] is first
    assert_eq(returned[1], expected[1])


def test_two_outputs_positional_out() -> None:
    host = sample("float64", (5,))
    a, b = dnp.zeros(5), dnp.zeros(5)
    dnp.modf(dnp.array(host), a, b)
    fraction, whole = numpy.modf(host)
    assert_eq(a, fraction)
    assert_eq(b, whole)


def test_out_tuple_of_wrong_length() -> None:
    host = sample("float64", (5,))
    assert_raises_like(
        lambda: numpy.modf(host, out=(numpy.zeros(5),)),
        lambda: dnp.modf(dnp.array(host), out=(dnp.zeros(5),)),
    )


# -- out= --------------------------------------------------------------------------------
@pytest.mark.parametrize("name", ["add", "sqrt", "floor_divide", "arctan2", "logical_and"])
def test_out_full_array(name: str) -> None:
    spec = ufunc_by_name[name]
    hosts = inputs_for(spec, "float64", ((4, 5), (4, 5)))
    expected_out = numpy.ones((4, 5))
    expected = getattr(numpy, name)(*hosts, out=expected_out)
    out = dnp.ones((4, 5), chunks=(3, 2))
    returned = getattr(dnp, name)(*[ours(h, 2) for h in hosts], out=out)
    assert returned is out
    assert expected is expected_out
    assert_eq(out, expected_out, rtol=tolerance(spec, numpy.dtype("float64")))


def test_out_is_a_view_writes_into_base() -> None:
    host = numpy.arange(24.0).reshape(4, 6)
    base = dnp.array(host, chunks=(3, 4))
    view = base[1:, ::2]
    returned = dnp.multiply(view, 10, out=view)
    numpy.multiply(host[1:, ::2], 10, out=host[1:, ::2])
    assert returned is view
    assert_eq(base, host)
    assert_eq(view, host[1:, ::2])


def test_out_view_of_another_array() -> None:
    source = numpy.arange(6.0)
    target_host = numpy.zeros((3, 6))
    target = dnp.zeros((3, 6), chunks=(2, 4))
    dnp.sqrt(dnp.array(source), out=target[1])
    numpy.sqrt(source, out=target_host[1])
    assert_eq(target, target_host)


def test_out_broadcasts_inputs() -> None:
    host = numpy.arange(3.0)
    out_host = numpy.zeros((2, 3))
    out = dnp.zeros((2, 3))
    numpy.negative(host, out=out_host)
    dnp.negative(dnp.array(host), out=out)
    assert_eq(out, out_host)


def test_out_wrong_shape_raises() -> None:
    host = numpy.arange(6.0)
    assert_raises_like(
        lambda: numpy.add(host, 1, out=numpy.zeros(3)),
        lambda: dnp.add(dnp.array(host), 1, out=dnp.zeros(3)),
    )


def test_out_same_kind_error() -> None:
    host = numpy.arange(6.0)
    error = assert_raises_like(
        lambda: numpy.add(host, 1, out=numpy.zeros(6, dtype=int)),
        lambda: dnp.add(dnp.array(host), 1, out=dnp.zeros(6, dtype=int)),
    )
    assert isinstance(error, numpy._core._exceptions._UFuncOutputCastingError)


def test_out_lower_precision_same_kind() -> None:
    host = sample("float64", (6,))
    out = dnp.zeros(6, dtype="float32")
    out_host = numpy.zeros(6, dtype="float32")
    numpy.multiply(host, 3, out=out_host)
    dnp.multiply(dnp.array(host, chunks=4), 3, out=out)
    assert_eq(out, out_host)


def test_out_aliasing_input() -> None:
    host = numpy.arange(10.0)
    a = dnp.array(host, chunks=3)
    dnp.add(a[:-1], a[1:], out=a[1:])
    numpy.add(host[:-1].copy(), host[1:], out=host[1:])
    assert_eq(a, host)


# -- dtype= and casting= -----------------------------------------------------------------
@pytest.mark.parametrize("dtype", ["float32", "float64", "int16", "complex128", "uint8"])
@pytest.mark.parametrize("name", ["add", "multiply", "sqrt", "negative", "divide"])
def test_dtype_keyword(name: str, dtype: str) -> None:
    spec = ufunc_by_name[name]
    hosts = inputs_for(spec, "int16", ((7,), (7,)))
    for casting in ("unsafe", "same_kind"):
        check_now(spec, hosts, [ours(h, 3) for h in hosts], dtype=dtype, casting=casting)


@pytest.mark.parametrize("casting", ["no", "equiv", "safe", "same_kind", "unsafe"])
@pytest.mark.parametrize(
    "left,right",
    [
        ("int8", "int8"),
        ("int8", "float64"),
        ("float64", "float32"),
        ("int64", "uint64"),
        ("complex128", "float64"),
    ],
)
def test_casting_keyword(left: str, right: str, casting: str) -> None:
    spec = ufunc_by_name["add"]
    hosts = [sample(left, (5,)), sample(right, (5,), 1)]
    check_now(spec, hosts, [ours(h, 2) for h in hosts], casting=casting)
    check_now(spec, hosts, [ours(h, 2) for h in hosts], casting=casting, dtype="float32")


def test_out_and_casting_unsafe() -> None:
    host = sample("float64", (6,))
    out_host = numpy.zeros(6, dtype="int32")
    numpy.multiply(numpy.nan_to_num(host), 2, out=out_host, casting="unsafe")
    out = dnp.zeros(6, dtype="int32")
    dnp.multiply(dnp.array(numpy.nan_to_num(host)), 2, out=out, casting="unsafe")
    assert_eq(out, out_host)


# -- where= ------------------------------------------------------------------------------
def test_where_with_out() -> None:
    host = sample("float64", (4, 5))
    mask = numpy.arange(20).reshape(4, 5) % 3 == 0
    out_host = numpy.full((4, 5), -7.0)
    numpy.sqrt(host, out=out_host, where=mask)
    out = dnp.full((4, 5), -7.0, chunks=(3, 2))
    returned = dnp.sqrt(dnp.array(host, chunks=(2, 3)), out=out, where=dnp.array(mask))
    assert returned is out
    assert_eq(out, out_host)


def test_where_broadcast_mask_and_view_out() -> None:
    host = numpy.arange(12.0).reshape(3, 4)
    mask = numpy.array([True, False, True, False])
    base_host = numpy.zeros((4, 4))
    numpy.multiply(host, 2, out=base_host[1:], where=mask)
    base = dnp.zeros((4, 4), chunks=2)
    dnp.multiply(dnp.array(host), 2, out=base[1:], where=mask)
    assert_eq(base, base_host)


def test_where_scalar_false_keeps_out() -> None:
    out = dnp.arange(5.0)
    dnp.add(dnp.ones(5), 1, out=out, where=False)
    assert_eq(out, numpy.arange(5.0))


def test_where_two_outputs() -> None:
    host = sample("float64", (6,))
    mask = numpy.array([1, 0, 1, 1, 0, 0], dtype=bool)
    expected = (numpy.zeros(6), numpy.ones(6))
    numpy.modf(host, out=expected, where=mask)
    outs = (dnp.zeros(6), dnp.ones(6))
    dnp.modf(dnp.array(host, chunks=4), out=outs, where=dnp.array(mask))
    assert_eq(outs[0], expected[0])
    assert_eq(outs[1], expected[1])


# -- errors at the call ------------------------------------------------------------------
def test_wrong_number_of_arguments() -> None:
    assert_raises_like(lambda: numpy.add(numpy.ones(2)), lambda: dnp.add(dnp.ones(2)))
    assert_raises_like(
        lambda: numpy.sin(numpy.ones(2), numpy.ones(2), numpy.ones(2)),
        lambda: dnp.sin(dnp.ones(2), dnp.ones(2), dnp.ones(2)),
    )


def test_broadcast_error_is_raised_at_call() -> None:
    assert_raises_like(
        lambda: numpy.add(numpy.ones((2, 3)), numpy.ones(4)),
        lambda: dnp.add(dnp.ones((2, 3)), dnp.ones(4)),
    )


def test_unsupported_type_raises() -> None:
    assert_raises_like(lambda: numpy.invert(numpy.ones(2)), lambda: dnp.invert(dnp.ones(2)))
    assert_raises_like(lambda: numpy.add(numpy.ones(2), "a"), lambda: dnp.add(dnp.ones(2), "a"))


def test_host_inputs_give_our_arrays() -> None:
    host = sample("float64", (5,))
    assert_eq(dnp.exp(host), numpy.exp(host), rtol=1e-12)
    assert_eq(dnp.add([1, 2, 3], 1), numpy.add([1, 2, 3], 1))
    assert_eq(dnp.add(host, host), numpy.add(host, host))


# -- ufunc methods -----------------------------------------------------------------------
BINARY_ROWS = tuple(row for row in CANONICAL if row.nin == 2)


@pytest.mark.parametrize("dtype", ["float64", "int64"])
def test_outer_every_binary_ufunc(dtype: str) -> None:
    """``ufunc.outer`` of every binary row; NumPy's ``numpy.add.outer(ours, x)`` too."""
    pending: Pending = []
    for spec in BINARY_ROWS:
        left = sample(dtype, (2, 3), 0, spec=spec)
        right = sample(_second_dtype(spec, dtype), (4,), 1, second=True, spec=spec)
        outer = spec.numpy_ufunc.outer
        try:
            expected = outer(left, right)
        except Exception:  # noqa: BLE001
            assert_raises_like(
                lambda: outer(left, right),  # noqa: B023 - called at once
                lambda: getattr(dnp, spec.name).outer(ours(left, 2), right),  # noqa: B023
            )
            continue
        actual = getattr(dnp, spec.name).outer(ours(left, (1, 2)), ours(right, 3))
        dispatched = outer(ours(left, 2), right)
        for mine, theirs in zip(
            actual if spec.nout > 1 else (actual,),
            expected if spec.nout > 1 else (expected,),
            strict=True,
        ):
            pending.append((mine, theirs, tolerance(spec, theirs.dtype), f"{spec.name}.outer"))
        first = dispatched[0] if spec.nout > 1 else dispatched
        first_expected = expected[0] if spec.nout > 1 else expected
        pending.append((first, first_expected, tolerance(spec, first_expected.dtype), "dispatch"))
    verify(pending)


def test_outer_of_unary_ufunc_raises() -> None:
    host = numpy.arange(3.0)
    assert_raises_like(lambda: numpy.sin.outer(host, host), lambda: dnp.sin.outer(host, host))


def test_reduce_accumulate_and_metadata() -> None:
    host = numpy.arange(1, 13).reshape(3, 4)
    array = ours(host, 2)
    assert_eq(dnp.add.reduce(array), numpy.add.reduce(host))
    assert_eq(dnp.maximum.reduce(array, axis=1), numpy.maximum.reduce(host, axis=1))
    assert_eq(dnp.multiply.accumulate(array), numpy.multiply.accumulate(host))
    for name in ("add", "maximum", "logical_and", "sin"):
        assert getattr(dnp, name).identity == getattr(numpy, name).identity
        assert getattr(dnp, name).types == getattr(numpy, name).types
    with pytest.raises(NotImplementedError, match=r"numpy\.add\.at"):
        dnp.add.at(array, [0], 1)
    with pytest.raises(NotImplementedError, match="compute"):
        dnp.subtract.reduce(array)


def test_where_without_out_selected_values() -> None:
    """NumPy leaves unselected elements uninitialized: only selected ones are compared;
    ours are documented as zeros (as ``empty``'s contents)."""
    host = sample("float64", (3, 4))
    mask = numpy.arange(12).reshape(3, 4) % 2 == 0
    expected = numpy.sqrt(host, where=mask, out=None)
    actual = dnp.sqrt(dnp.array(host, chunks=2), where=mask, out=None)
    assert_eq(dnp.where(mask, actual, 0.0), numpy.where(mask, expected, 0.0))
    assert_eq(actual, numpy.where(mask, expected, 0.0))
    quotient, remainder = dnp.divmod(dnp.array(host), 2.0, where=dnp.array(mask), out=None)
    assert_eq(remainder, numpy.where(mask, numpy.divmod(host, 2.0)[1], 0.0))
    # Without out= at all, NumPy warns that the output is uninitialized; so do we.
    with pytest.warns(UserWarning, match="where"):
        numpy.sqrt(host, where=mask)
    with pytest.warns(UserWarning, match="where"):
        dnp.sqrt(dnp.array(host), where=mask)


@pytest.mark.parametrize(
    "mask",
    [
        1,
        0.0,
        numpy.float32(1),
        [1, 0],
        [1.5, 0],
        [True, False],
        numpy.array([1, 0]),
        numpy.array(1),
        numpy.array(True),
    ],
    ids=repr,
)
def test_where_mask_conversion(mask: Any) -> None:
    """Arrays must cast to bool safely (int arrays are NumPy's TypeError); scalars and lists
    are converted to bool."""

    def run(module: Any) -> Any:
        out = module.zeros(2, dtype=int)
        module.add(module.arange(2), 1, out=out, where=mask)
        return out

    try:
        expected = run(numpy)
    except TypeError:
        assert_raises_like(lambda: run(numpy), lambda: run(dnp))
        return
    assert_eq(run(dnp), expected)
