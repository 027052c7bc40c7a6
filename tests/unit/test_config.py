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
