"""The fallback's policy: one warning per call site naming the user's file and line,
``gpunumeric.fallback`` = warn | silent | raise, and the size guard on gathering."""

from __future__ import annotations

import warnings
from collections.abc import Iterator

import numpy
import pytest

import dask_gpunumeric as dnp
from dask_gpunumeric import _api_coverage as coverage
from dask_gpunumeric._api.fallback import FallbackModule, FallbackSizeError, fallback_for, policy
from dask_gpunumeric.testing import assert_eq


@pytest.fixture(autouse=True)
def fresh_call_sites() -> Iterator[None]:
    """Each test (and each backend's run of it) starts with no call site warned about."""
    policy._warned.clear()
    yield
    policy._warned.clear()


def test_warns_once_per_call_site_at_the_users_line() -> None:
    x = dnp.asarray(numpy.linspace(0, 1, 10))
    sinc = fallback_for("sinc")
    with pytest.warns(RuntimeWarning) as record:
        for _ in range(3):
            sinc(x)  # one call site, three calls
        sinc(x)  # a second call site
    assert len(record) == 2
    assert all(w.filename == __file__ for w in record)
    assert record[1].lineno == record[0].lineno + 1
    assert "numpy.sinc" in str(record[0].message)
    assert "chunk by chunk" in str(record[0].message)


def test_gathering_warning_says_it_gathers() -> None:
    x = dnp.asarray(numpy.arange(10.0))
    with pytest.warns(RuntimeWarning, match=r"numpy\.median .*gathers .*80 B"):
        fallback_for("median")(x)


def test_silent_mode_does_not_warn() -> None:
    x = dnp.asarray(numpy.arange(10.0))
    with dnp.config.set(fallback="silent"), warnings.catch_warnings():
        warnings.simplefilter("error")
        assert_eq(fallback_for("sinc")(x), numpy.sinc(numpy.arange(10.0)))


@pytest.mark.parametrize("name", ["sinc", "median"])
def test_raise_mode_names_the_function_and_the_escape_hatch(name: str) -> None:
    x = dnp.asarray(numpy.arange(10.0))
    with dnp.config.set(fallback="raise"), pytest.raises(NotImplementedError) as error:
        fallback_for(name)(x)
    assert f"numpy.{name}" in str(error.value) and ".compute()" in str(error.value)


def test_an_unknown_mode_is_refused() -> None:
    with dnp.config.set(fallback="loud"), pytest.raises(ValueError, match="warn, silent, raise"):
        fallback_for("sinc")(dnp.ones(3))


def test_size_guard_refuses_to_gather_and_names_the_key() -> None:
    x = dnp.ones((100, 100))  # 80,000 bytes
    with dnp.config.set(fallback_max_bytes=50_000), pytest.raises(FallbackSizeError) as error:
        fallback_for("median")(x)
    message = str(error.value)
    assert "numpy.median" in message and "78.1 KiB" in message
    assert "gpunumeric.fallback-max-bytes" in message
    with dnp.config.set(fallback_max_bytes=80_000):
        assert float(fallback_for("median")(x)) == 1.0


def test_chunkwise_fallback_gathers_nothing_so_the_guard_does_not_apply() -> None:
    host = numpy.linspace(-2, 2, 10_000).reshape(100, 100)
    with dnp.config.set(fallback_max_bytes=0):
        assert_eq(fallback_for("sinc")(dnp.asarray(host, chunks=(50, 50))), numpy.sinc(host))


def test_fallback_module_stands_in_for_a_subpackage() -> None:
    host = numpy.eye(3) * 2
    linalg = FallbackModule("linalg")
    assert_eq(linalg.inv(dnp.asarray(host)), numpy.linalg.inv(host))
    assert linalg.LinAlgError is numpy.linalg.LinAlgError
    assert_eq(dnp.linalg.inv(dnp.asarray(host)), numpy.linalg.inv(host))  # ours, or this


def test_numpy_function_on_our_array_warns_at_the_users_line() -> None:
    x = dnp.asarray(numpy.linspace(0, 1, 10))
    with warnings.catch_warnings(record=True) as record:
        warnings.simplefilter("always")
        numpy.i0(x)
    if coverage.status(dnp, "i0") != "native":
        assert [w.filename for w in record] == [__file__]


def test_a_row_larger_than_the_limit_is_not_mapped_but_guarded() -> None:
    x = dnp.asarray(numpy.ones((4, 20)), chunks=(2, 10))  # rows of 160 bytes
    with dnp.config.set(fallback_max_bytes=150), pytest.raises(FallbackSizeError):
        fallback_for("unwrap")(x)
    with dnp.config.set(fallback_max_bytes=160):
        assert_eq(fallback_for("unwrap")(x), numpy.unwrap(numpy.ones((4, 20))))
