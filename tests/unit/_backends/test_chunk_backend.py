"""The chunk backend is one object with capabilities (``_backends/base.py``): found by
file name or entry point, carried in tasks as its name, asked by every kernel; nothing
outside ``_backends/`` compares backend names."""

from __future__ import annotations

import pathlib
import pickle
import re
import sys
from typing import Any

import numpy
import pytest
from dask.base import tokenize

import dask_gpunumeric as dnp
from dask_gpunumeric import _backends
from dask_gpunumeric._backends import backend_names, cupy_backend, get_backend
from dask_gpunumeric._backends.base import ChunkBackend
from dask_gpunumeric._backends.simulated_device_backend import SimulatedDeviceBackend
from dask_gpunumeric.testing import assert_eq

PACKAGE_DIR = pathlib.Path(dnp.__file__).parent


def test_every_backend_file_is_a_backend() -> None:
    files = sorted(p.stem for p in (PACKAGE_DIR / "_backends").glob("*_backend.py"))
    names = [stem.removesuffix("_backend").replace("_", "-") for stem in files]
    assert set(backend_names()) == {"auto", *names}
    for name in names:
        if name != "cupy":  # needs CuPy installed to be made
            assert get_backend(name).name == name


def test_a_backend_travels_as_its_name(backend: str) -> None:
    chosen = get_backend(backend)
    assert pickle.loads(pickle.dumps(chosen)) is chosen  # looked up again, not copied
    assert len(pickle.dumps(chosen)) < 200
    assert tokenize(chosen) == tokenize(get_backend(backend))
    other = "numpy" if backend != "numpy" else "simulated-device"
    assert tokenize(chosen) != tokenize(get_backend(other))


class _FourthBackend(SimulatedDeviceBackend):
    """What a fourth backend needs: a name and what differs from a base it extends."""

    name = "fourth"


def make_fourth_backend() -> ChunkBackend:
    return _FourthBackend()


def test_a_fourth_backend_is_one_entry_point(tmp_path: pathlib.Path) -> None:
    """An installed distribution declaring ``dask_gpunumeric.backends`` is a backend."""
    distribution = tmp_path / "fourth_backend-1.0.dist-info"
    distribution.mkdir()
    (distribution / "METADATA").write_text("Metadata-Version: 2.1\nName: fourth-backend\n")
    (distribution / "entry_points.txt").write_text(
        f"[dask_gpunumeric.backends]\nfourth = {__name__}:make_fourth_backend\n"
    )
    sys.path.insert(0, str(tmp_path))
    _backends._makers.cache_clear()
    try:
        assert "fourth" in backend_names()
        with dnp.config.set(backend="fourth"):
            x = dnp.arange(10.0, chunks=5)
            assert_eq((x * 2 + 1).sum(), (numpy.arange(10.0) * 2 + 1).sum())
    finally:
        sys.path.remove(str(tmp_path))
        _backends._makers.cache_clear()
        _backends._instances.pop("fourth", None)


def test_cupy_evaluates_in_the_client_only_where_it_sees_a_device(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    backend = cupy_backend.CupyBackend(xp=numpy, chunk_type=numpy.ndarray)
    for seen in (False, True):
        monkeypatch.setattr(cupy_backend, "_device_here", lambda seen=seen: seen)
        assert backend.evaluates_in_client is seen


def test_a_backend_that_cannot_evaluate_here_sends_tiny_work_to_tasks(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The in-process evaluator and the tiny ufunc route both ask the backend."""
    with dnp.config.set(backend="simulated-device"):
        x = dnp.arange(8.0)
        assert type(x._store.version).__name__ == "ChunkValue"
        monkeypatch.setattr(SimulatedDeviceBackend, "evaluates_in_client", False)
        y = dnp.arange(8.0)
        z = y * 2
        for array in (y, z):
            assert type(array._store.version).__name__ != "ChunkValue"
        assert_eq(z, numpy.arange(8.0) * 2)


def test_cupy_drops_sort_kinds_it_does_not_take() -> None:
    backend = cupy_backend.CupyBackend(xp=numpy, chunk_type=numpy.ndarray)
    assert backend.lane_keywords("sort", {"kind": "quicksort", "x": 1}) == {"x": 1}
    assert get_backend("numpy").lane_keywords("sort", {"kind": "stable"}) == {"kind": "stable"}


# A backend's name compared with a literal (``backend.name == "numpy"``), or a capability
# nobody defines read with a default: decisions belong to the backend's own methods.
_NAME_BRANCH = re.compile(
    r"backend(\w*\.name|_name)\s*(==|!=|in)\s*[\"'(\[{]|[\"']\s*(==|!=)\s*\w*backend(\w*\.name|_name)"
    r"|client_has_device|getattr\(\s*\w*backend\s*,"
)


def test_no_code_outside_the_backends_branches_on_a_backend_name() -> None:
    found = []
    for path in PACKAGE_DIR.rglob("*.py"):
        if path.parent.name == "_backends":
            continue
        for number, line in enumerate(path.read_text().splitlines(), 1):
            if _NAME_BRANCH.search(line):
                found.append(f"{path.relative_to(PACKAGE_DIR)}:{number}: {line.strip()}")
    assert found == []


def test_kernels_ask_the_backend_they_are_given() -> None:
    """``_kernels`` receive their backend; none looks up the configured one."""
    found: list[Any] = []
    for path in (PACKAGE_DIR / "_kernels").glob("*.py"):
        if path.name == "in_process.py":  # the client's evaluation resolves it, once
            continue
        text = path.read_text()
        found += [path.name for call in re.findall(r"get_backend\(\)", text)]
    assert found == []
