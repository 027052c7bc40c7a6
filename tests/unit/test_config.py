"""Configuration lives under ``gpunumeric.*`` in dask.config; environment variables work."""

from __future__ import annotations

import os
import subprocess
import sys

import dask

import dask_gpunumeric as dnp


def test_defaults_are_loaded() -> None:
    assert dask.config.get("gpunumeric.persist-depth") == dnp.config.get("persist-depth")
    assert isinstance(dnp.config.get("min-chunk-elements"), int)


def test_set_is_a_context_manager_with_underscores_for_dashes() -> None:
    before = dnp.config.get("persist-depth")
    with dnp.config.set(persist_depth=7):
        assert dnp.config.get("persist-depth") == 7
    assert dnp.config.get("persist-depth") == before


def test_environment_variable_chooses_the_backend() -> None:
    env = dict(os.environ, DASK_GPUNUMERIC__BACKEND="simulated-device")
    code = (
        "import dask_gpunumeric as np, dask_gpunumeric._backends as b; "
        "print(np.config.get('backend'), type(np.ones(3).to_dask()._meta).__name__)"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
    ).stdout.split()
    assert out == ["simulated-device", "SimulatedDeviceArray"]


def test_settings_made_before_the_import_stay() -> None:
    """Worker and scheduler processes get their client's config before importing us:
    importing must not reset it; an environment variable set after dask's import (and
    before ours) still counts."""
    code = (
        "import os, dask; "
        "dask.config.set({'distributed.admin.low-level-log-length': 7, "
        "'gpunumeric.persist-depth': 3}); "
        "os.environ['DASK_GPUNUMERIC__FUSION'] = 'False'; "
        "import dask_gpunumeric as np; "
        "print(dask.config.get('distributed.admin.low-level-log-length'), "
        "np.config.get('persist-depth'), np.config.get('fusion'), "
        "np.config.get('min-chunk-elements') > 0)"
    )
    env = {k: v for k, v in os.environ.items() if not k.startswith("DASK_")}
    out = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
    ).stdout.split()
    assert out == ["7", "3", "False", "True"]


def _agrees_with_dask(keys: list[str]) -> None:
    for key in keys:
        assert dnp.config.get(key, "absent") == dask.config.get(f"gpunumeric.{key}", "absent")


def test_reads_see_every_change_at_once() -> None:
    """``config.get`` reads the live section (no cache): it always says what dask says."""
    keys = [*dask.config.get("gpunumeric"), "cluster.threads-per-worker", "no-such-key"]
    _agrees_with_dask(keys)
    with dask.config.set({"gpunumeric.persist-depth": 3, "gpunumeric.fusion": False}):
        assert dnp.config.get("persist-depth") == 3
        assert dnp.config.get("fusion") is False
        _agrees_with_dask(keys)
        with dnp.config.set(persist_depth=5):
            assert dnp.config.get("persist-depth") == 5
            with dask.config.set({"gpunumeric.cluster.threads-per-worker": 2}):
                assert dnp.config.get("cluster.threads-per-worker") == 2
                _agrees_with_dask(keys)
        assert dnp.config.get("persist-depth") == 3
    with dask.config.set({"gpunumeric.persist_depth": 9}):  # dask's canonical spelling
        assert dnp.config.get("persist-depth") == 9
    with dask.config.set({"gpunumeric": {"persist-depth": 4}}):  # the section replaced
        assert dnp.config.get("persist-depth") == 4
        assert dnp.config.get("fusion", "absent") == "absent"
        _agrees_with_dask(keys)
    _agrees_with_dask(keys)
