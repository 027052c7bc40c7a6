"""What the quick-start notebook shows of an array (its HTML repr): shape, dtype, chunks,
chunk type, backend and, with a cluster running, the dashboard link; never computing."""

from __future__ import annotations

import re

import pytest
from distributed import Client, LocalCluster

import dask_gpunumeric as dgn
from dask_gpunumeric._backends import get_backend


def _rows(html: str) -> dict[str, str]:
    return dict(re.findall(r"<tr><th>([^<]+)</th><td>(.*?)</td></tr>", html))


def test_every_row_the_notebook_promises(backend: str, monkeypatch: pytest.MonkeyPatch) -> None:
    a = dgn.ones((3000, 10), chunks=(1000, 10)) + 1
    monkeypatch.setattr(dgn.ndarray, "__array__", _refuse)
    rows = _rows(a._repr_html_())
    chunk_type = get_backend().chunk_type
    assert rows["shape"] == "(3000, 10)"
    assert rows["dtype"] == "float64"
    assert rows["chunks"] == "(1000, 10) x 3"
    assert rows["chunk type"] == f"{chunk_type.__module__}.{chunk_type.__name__}"
    assert rows["backend"] == backend
    assert "dashboard" not in rows  # the threaded scheduler has no dashboard


def test_the_dashboard_link_of_a_running_cluster() -> None:
    with (
        LocalCluster(n_workers=1, processes=False, dashboard_address=":0") as cluster,
        Client(cluster) as client,
        dgn.config.set(scheduler="distributed"),
    ):
        rows = _rows(dgn.ones(10)._repr_html_())
        link = client.dashboard_link
    assert rows["dashboard"] == f'<a href="{link}" target="_blank">{link}</a>'


def _refuse(*args: object, **kwargs: object) -> None:
    raise AssertionError("the HTML repr computed the array")
