"""``dgn-run`` checks the optional dependencies of the flags it is given before it starts a
cluster or runs the script, and says what to install."""

from __future__ import annotations

import pathlib
import sys

import pytest

from dask_gpunumeric import cli
from dask_gpunumeric._runtime import cluster


@pytest.fixture
def script(tmp_path: pathlib.Path) -> pathlib.Path:
    """A script that leaves a mark when it runs."""
    path = tmp_path / "script.py"
    path.write_text(f"open({str(tmp_path / 'ran')!r}, 'w').close()\n")
    return path


@pytest.fixture(autouse=True)
def no_cluster(monkeypatch: pytest.MonkeyPatch) -> None:
    """Starting a cluster fails the test: the check comes first."""

    def refuse() -> None:
        raise AssertionError("dgn-run started a cluster before checking its flags")

    monkeypatch.setattr(cluster, "client_for_computation", refuse)


def test_profile_without_bokeh_exits_before_the_script(
    monkeypatch: pytest.MonkeyPatch, script: pathlib.Path, tmp_path: pathlib.Path
) -> None:
    monkeypatch.setitem(sys.modules, "bokeh", None)  # import bokeh raises ImportError
    with pytest.raises(SystemExit) as exit_request:
        cli.main(["--profile", str(tmp_path / "report.html"), str(script)])
    message = str(exit_request.value.code)
    assert "--profile needs bokeh" in message
    assert "dask_gpunumeric[diagnostics]" in message
    assert not (tmp_path / "ran").exists()
    assert not (tmp_path / "report.html").exists()


def test_dataflow_without_graphviz_package_or_program(
    monkeypatch: pytest.MonkeyPatch, script: pathlib.Path, tmp_path: pathlib.Path
) -> None:
    monkeypatch.setitem(sys.modules, "graphviz", None)
    monkeypatch.setattr(cli.shutil, "which", lambda name: None)
    with pytest.raises(SystemExit) as exit_request:
        cli.main(["--dataflow", str(tmp_path / "graph.svg"), str(script)])
    message = str(exit_request.value.code)
    assert "--dataflow needs graphviz, the dot program" in message
    assert "apt-get install graphviz" in message
    assert not (tmp_path / "ran").exists()


def test_flags_whose_dependencies_are_installed_pass_the_check(tmp_path: pathlib.Path) -> None:
    pytest.importorskip("bokeh")
    options = cli.build_parser().parse_args(["--profile", str(tmp_path / "r.html"), "s.py"])
    cli.check_optional_dependencies(options)  # returns: bokeh is installed (test extra)
    plain = cli.build_parser().parse_args(["s.py"])
    cli.check_optional_dependencies(plain)
