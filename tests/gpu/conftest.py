"""Tests of the real CuPy path (each module skips itself where CuPy is missing or sees no
device): every test here runs with CuPy chunks."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

import dask_gpunumeric as dnp


@pytest.fixture(autouse=True)
def cupy_backend() -> Iterator[None]:
    with dnp.config.set(backend="cupy"):
        yield
