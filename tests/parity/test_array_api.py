"""The array API standard (2024.12, NumPy 2.4's version) against NumPy: the namespace and
its inspection object, devices and ``device=``, DLPack both ways, ``flags`` of views, and
every name and parameter of the standard (array-api-strict's list of 2024.12)."""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any

import array_api_strict
import numpy
import pytest
from hypothesis import given, settings
from hypothesis.extra.array_api import make_strategies_namespace

import dask_gpunumeric as dnp
from dask_gpunumeric.testing import assert_eq, assert_raises_like

HOST = numpy.arange(24.0).reshape(4, 6)


def ours() -> Any:
    return dnp.asarray(HOST, chunks=(2, 4))


def test_namespace_and_version() -> None:
    assert ours().__array_namespace__() is dnp
    assert dnp.__array_api_version__ == numpy.__array_api_version__ == "2024.12"
    for version in ("2021.12", "2022.12", "2023.12", "2024.12", None):
        assert ours().__array_namespace__(api_version=version) is dnp
    assert_raises_like(
        lambda: HOST.__array_namespace__(api_version="2020.10"),
        lambda: ours().__array_namespace__(api_version="2020.10"),
    )


def test_inspection_object_matches_numpy() -> None:
    info, numpy_info = dnp.__array_namespace_info__(), numpy.__array_namespace_info__()
    assert info.capabilities() == numpy_info.capabilities()
    assert info.default_dtypes() == numpy_info.default_dtypes()
    for kind in (None, "bool", "signed integer", "integral", "real floating", "numeric"):
        assert info.dtypes(kind=kind) == numpy_info.dtypes(kind=kind)
    assert info.dtypes(kind=("bool", "complex floating")) == numpy_info.dtypes(
        kind=("bool", "complex floating")
    )
    assert_raises_like(
        lambda: numpy_info.dtypes(kind="strings"), lambda: info.dtypes(kind="strings")
    )
    assert_raises_like(
        lambda: numpy_info.default_dtypes(device="gpu"), lambda: info.default_dtypes(device="gpu")
    )


def test_one_device_named_after_the_backend(backend: str) -> None:
    info = dnp.__array_namespace_info__()
    device = ours().device
    assert info.devices() == [info.default_device()] == [device]
    assert device == {"numpy": "cpu", "cupy": "cuda"}.get(backend, backend)
    assert info.dtypes(device=device) == numpy.__array_namespace_info__().dtypes()
    x = ours()
    assert x.to_device(device) is x
    assert_raises_like(lambda: HOST.to_device("gpu"), lambda: x.to_device("gpu"))


CREATIONS: dict[str, Callable[[Any, Any], Any]] = {
    "zeros": lambda xp, device: xp.zeros((2, 3), device=device),
    "ones": lambda xp, device: xp.ones(3, dtype="int8", device=device),
    "empty": lambda xp, device: xp.zeros_like(xp.empty(4, device=device)),
    "full": lambda xp, device: xp.full((2, 2), 7, device=device),
    "zeros_like": lambda xp, device: xp.zeros_like(xp.asarray(HOST), device=device),
    "ones_like": lambda xp, device: xp.ones_like(xp.asarray(HOST), device=device),
    "empty_like": lambda xp, device: xp.zeros_like(xp.empty_like(xp.asarray(HOST), device=device)),
    "full_like": lambda xp, device: xp.full_like(xp.asarray(HOST), 2.5, device=device),
    "arange": lambda xp, device: xp.arange(1, 9, 2, device=device),
    "linspace": lambda xp, device: xp.linspace(0, 1, 5, device=device),
    "eye": lambda xp, device: xp.eye(3, 4, k=1, device=device),
    "asarray": lambda xp, device: xp.asarray([1, 2, 3], device=device),
    "astype": lambda xp, device: xp.astype(xp.asarray(HOST), "int16", device=device),
    "fftfreq": lambda xp, device: xp.fft.fftfreq(8, device=device),
    "rfftfreq": lambda xp, device: xp.fft.rfftfreq(8, device=device),
}


@pytest.mark.parametrize("name", CREATIONS)
def test_device_keyword(name: str) -> None:
    create = CREATIONS[name]
    expected = create(numpy, "cpu")
    assert_eq(create(dnp, None), expected)
    assert_eq(create(dnp, ours().device), expected)
    assert_raises_like(lambda: create(numpy, "gpu"), lambda: create(dnp, "gpu"))


VIEWS: dict[str, Callable[[Any], Any]] = {
    "fresh": lambda x: x,
    "transpose": lambda x: x.T,
    "rows": lambda x: x[1:3],
    "columns": lambda x: x[:, ::2],
    "one row": lambda x: x[2],
    "reshape": lambda x: x.reshape(2, 12),
    "broadcast_to": lambda x: x.__array_namespace__().broadcast_to(x[0], (3, 6)),
    "diagonal": lambda x: x.diagonal(),
    "0-d": lambda x: x[1, 2, ...],
}


@pytest.mark.parametrize("name", VIEWS)
def test_flags_of_views(name: str) -> None:
    view = VIEWS[name]
    expected, actual = view(HOST.copy()).flags, view(ours()).flags
    for flag in ("C_CONTIGUOUS", "F_CONTIGUOUS", "OWNDATA", "WRITEABLE", "ALIGNED"):
        assert actual[flag] == expected[flag], flag
    assert (actual.c_contiguous, actual["C"], actual.writeable) == (
        expected.c_contiguous,
        expected["C"],
        expected.writeable,
    )
    with pytest.raises(KeyError):
        actual["NONSENSE"]


@pytest.mark.not_on_cupy(reason="CuPy chunks export a CUDA buffer, which NumPy cannot read")
@pytest.mark.parametrize("dtype", ["bool", "uint8", "int32", "float32", "complex128"])
def test_dlpack_export_computes_the_value(dtype: str) -> None:
    host = (HOST % 3).astype(dtype)
    x = dnp.asarray(host, chunks=(2, 4))[1:, ::2]
    assert x.__dlpack_device__() == (1, 0)  # kDLCPU: both CPU backends hold host memory
    exported = numpy.from_dlpack(x)
    assert exported.dtype == host.dtype
    numpy.testing.assert_array_equal(exported, host[1:, ::2])


def test_dlpack_export_refuses_sharing() -> None:
    with pytest.raises(BufferError):
        ours().__dlpack__(copy=False)


@pytest.mark.parametrize("dtype", ["bool", "int8", "uint64", "float64", "complex64"])
def test_from_dlpack_imports_host_buffers(dtype: str) -> None:
    host = (HOST % 5).astype(dtype)
    assert_eq(dnp.from_dlpack(host), numpy.from_dlpack(host))
    assert_eq(dnp.from_dlpack(host[::2, 1:]), numpy.from_dlpack(host[::2, 1:]))
    imported = dnp.from_dlpack(host)
    host[0, 0] = 1  # a copy: later writes to the producer are not seen
    assert_eq(imported, (HOST % 5).astype(dtype))
    x = ours()
    assert dnp.from_dlpack(x) is x
    assert dnp.from_dlpack(x, copy=True) is not x
    with pytest.raises(BufferError):
        dnp.from_dlpack(HOST, copy=False)
    assert_raises_like(
        lambda: numpy.from_dlpack(HOST, device="gpu"), lambda: dnp.from_dlpack(HOST, device="gpu")
    )


# Hypothesis builds arrays through the namespace alone (asarray, reshape, setitem...): a
# consumer of the standard, as array-api-tests is.
xps = make_strategies_namespace(dnp, api_version="2024.12")


@settings(max_examples=25, deadline=None)
@given(xps.arrays(dtype=xps.scalar_dtypes(), shape=xps.array_shapes(min_dims=0, max_side=4)))
def test_hypothesis_array_api_strategies_build_our_arrays(x: Any) -> None:
    assert isinstance(x, dnp.ndarray) and x.__array_namespace__() is dnp
    if x.__dlpack_device__()[0] == 1:  # kDLCPU: NumPy reads the export
        numpy.testing.assert_array_equal(numpy.from_dlpack(x), numpy.asarray(x))
    assert bool(dnp.all(dnp.logical_or(x == x, dnp.isnan(x))))  # one value, however read


def standard_names(module: Any) -> list[str]:
    strict_only = {n for n in dir(module) if "strict" in n.lower()} | {"Device"}
    return [name for name in module.__all__ if name not in strict_only]


@pytest.fixture(scope="module")
def standard() -> Any:
    array_api_strict.set_array_api_strict_flags(api_version="2024.12")
    yield array_api_strict
    array_api_strict.reset_array_api_strict_flags()


@pytest.mark.parametrize("extension", ["", "linalg", "fft"])
def test_every_name_of_the_standard_is_ours(standard: Any, extension: str) -> None:
    """Natively: none of them reaches the fallback (``__getattr__``), which computes in
    NumPy on the client."""
    theirs = getattr(standard, extension) if extension else standard
    namespace = getattr(dnp, extension) if extension else dnp
    missing = [n for n in standard_names(theirs) if n not in vars(namespace)]
    assert not missing


# Parameters of the standard that NumPy 2.4 lacks too (the test checks that it does).
ALSO_MISSING_IN_NUMPY = {("fft.fftfreq", "dtype"), ("fft.rfftfreq", "dtype")}


@pytest.mark.parametrize("extension", ["", "linalg", "fft"])
def test_every_parameter_of_the_standard_is_accepted(standard: Any, extension: str) -> None:
    theirs = getattr(standard, extension) if extension else standard
    namespace = getattr(dnp, extension) if extension else dnp
    numpy_namespace = getattr(numpy, extension) if extension else numpy
    prefix = f"{extension}." if extension else ""
    problems = []
    for name in standard_names(theirs):
        function = getattr(theirs, name)
        if not inspect.isfunction(function):
            continue
        for parameter in missing_parameters(function, getattr(namespace, name)):
            if (prefix + name, parameter) in ALSO_MISSING_IN_NUMPY:
                assert parameter in missing_parameters(function, getattr(numpy_namespace, name))
            else:
                problems.append(f"{prefix}{name}: {parameter}")
    assert not problems


def missing_parameters(standard: Callable[..., Any], ours: Callable[..., Any]) -> list[str]:
    """The standard's parameters ``ours`` cannot be called with as the standard allows
    (positional-only ones need no name; keyword-only ones need a name)."""
    kinds = inspect.Parameter
    try:
        accepted = inspect.signature(ours).parameters
    except ValueError:  # a NumPy ufunc: no signature to read, NumPy's own parameters
        return []
    takes_keywords = any(p.kind == kinds.VAR_KEYWORD for p in accepted.values())
    missing = []
    for name, parameter in inspect.signature(standard).parameters.items():
        if parameter.kind in (kinds.VAR_POSITIONAL, kinds.VAR_KEYWORD):
            if not any(p.kind == parameter.kind for p in accepted.values()):
                missing.append(f"*{name}")
        elif name not in accepted:
            if parameter.kind != kinds.POSITIONAL_ONLY and not takes_keywords:
                missing.append(name)
        elif parameter.kind == kinds.KEYWORD_ONLY and accepted[name].kind == kinds.POSITIONAL_ONLY:
            missing.append(name)
    return missing
