"""``show_config()`` and the array's HTML repr (which never computes)."""

from __future__ import annotations

import pathlib

import numpy
import tomllib

import dask_gpunumeric as dnp
from dask_gpunumeric._array import html_repr as html_repr_module
from dask_gpunumeric._backends.cupy_backend import device_available


def test_show_config_prints_versions_backend_cluster_and_chunk_policy(capsys, backend) -> None:
    assert dnp.show_config() is None
    out = capsys.readouterr().out
    for heading in ("versions:", "backend:", "cluster:", "chunk policy:"):
        assert heading in out
    assert f"numpy: {numpy.__version__}" in out
    assert f"in use: {backend}" in out
    assert "scheduler: threads" in out and "min-chunk-elements" in out


def test_show_config_as_dicts_and_auto_says_how_it_chose(backend) -> None:
    with dnp.config.set(backend="auto"):
        info = dnp.show_config(mode="dicts")
    assert info["backend"]["configured"] == "auto"
    seen = device_available()  # the real probe, here: no cluster runs in threads mode
    assert info["backend"]["in use"] == ("cupy" if seen else "numpy")
    assert f"CuPy sees {'a' if seen else 'no'} device" in info["backend"]["chosen by"]
    assert info["chunk policy"]["cluster shape"].workers >= 1


def test_html_repr_shows_the_layout_without_computing(backend, monkeypatch) -> None:
    a = dnp.ones((3000, 10)) * 2
    monkeypatch.setattr(dnp.ndarray, "__array__", _refuse)
    html = a._repr_html_()
    assert "<th>shape</th><td>(3000, 10)</td>" in html
    assert "<th>dtype</th><td>float64</td>" in html
    chunks = a.to_dask().chunks
    assert f"x {len(chunks[0]) * len(chunks[1])}</td>" in html
    assert f"<th>backend</th><td>{backend}</td>" in html
    assert "dashboard" not in html  # no cluster runs in threads mode


def test_html_repr_links_the_dashboard_when_a_cluster_runs(monkeypatch) -> None:
    link = "http://127.0.0.1:8787/status"
    monkeypatch.setattr(html_repr_module, "dashboard_link", lambda: link)
    assert f'<a href="{link}" target="_blank">{link}</a>' in dnp.ones(4)._repr_html_()


def test_the_launcher_is_a_console_script() -> None:
    pyproject = pathlib.Path(__file__).resolve().parents[2] / "pyproject.toml"
    scripts = tomllib.loads(pyproject.read_text())["project"]["scripts"]
    assert scripts == {"dgn-run": "dask_gpunumeric.cli:main"}


def _refuse(*args, **kwargs):
    raise AssertionError("the HTML repr computed the array")
