"""The committed coverage table is the one the registry generates today."""

from __future__ import annotations

import types

import numpy

import dask_gpunumeric as dnp
from dask_gpunumeric import _api_coverage as coverage
from dask_gpunumeric._api.fallback import FallbackModule, fallback_getattr


def test_committed_table_is_current() -> None:
    committed = coverage.TABLE_PATH.read_text() if coverage.TABLE_PATH.exists() else ""
    assert committed == coverage.render(), (
        f"docs/api-coverage.md is stale: regenerate it with `{coverage.COMMAND}` and commit it"
    )


def test_statuses_follow_the_namespace() -> None:
    namespace = types.ModuleType("a_namespace")
    namespace.sin = dnp.sin  # type: ignore[attr-defined]
    namespace.__getattr__ = fallback_getattr("numpy")  # type: ignore[method-assign]
    assert coverage.status(namespace, "sin") == "native"
    assert coverage.status(namespace, "sinc") == "chunk-wise fallback"
    assert coverage.status(namespace, "median") == "gathering fallback"
    assert coverage.status(namespace, "ma") == "missing"
    assert coverage.status(namespace, "no_such_function") == "missing"
    assert coverage.status(FallbackModule("fft"), "fftshift") == "gathering fallback"


def test_counted_names_leave_out_types_utilities_and_deprecated_names() -> None:
    names = coverage.counted_names("numpy")
    assert "sinc" in names and "add" in names  # functions and ufuncs count
    for left_out in ("float64", "errstate", "set_printoptions", "row_stack", "ma"):
        assert left_out not in names
    assert set(names) <= set(numpy.__all__)
