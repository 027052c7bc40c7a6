"""The pass pipeline is switched by ``gpunumeric.fusion`` (config or environment), read by
lowering (``pass_settings``) and handed to the passes."""

from __future__ import annotations

import os
import subprocess
import sys
from typing import Any

import numpy

import dask_gpunumeric as dnp
from dask_gpunumeric._ir.elementwise import ufunc_node
from dask_gpunumeric._ir.fused import FusedElementwise
from dask_gpunumeric._ir.leaves import HostData
from dask_gpunumeric._lowering.core import pass_settings
from dask_gpunumeric._passes.pipeline import run_passes
from dask_gpunumeric.testing import assert_eq

PROBE = (
    "import numpy\n"
    "from dask_gpunumeric._ir.elementwise import ufunc_node\n"
    "from dask_gpunumeric._ir.leaves import HostData\n"
    "from dask_gpunumeric._lowering.core import pass_settings\n"
    "from dask_gpunumeric._passes.pipeline import run_passes\n"
    "x = HostData(numpy.ones(3), owned=True)\n"
    "root = ufunc_node('add', numpy.add, (x, 1))[0]\n"
    "print(type(run_passes([root], pass_settings())[0]).__name__)\n"
)


def test_config_switches_fusion() -> None:
    root = ufunc_node("add", numpy.add, (HostData(numpy.ones(3), owned=True), 1))[0]
    assert isinstance(run_passes([root], pass_settings())[0], FusedElementwise)
    with dnp.config.set(fusion=False):
        assert run_passes([root], pass_settings()) == [root]


def test_environment_variable_switches_fusion_off() -> None:
    for value, expected in (("false", "Elementwise"), ("true", "FusedElementwise")):
        environment = {**os.environ, "DASK_GPUNUMERIC__FUSION": value}
        output = subprocess.run(
            [sys.executable, "-c", PROBE], env=environment, capture_output=True, text=True
        )
        assert output.stdout.strip() == expected, output.stderr


def _program(np: Any, x: Any) -> Any:
    return np.where(x > 0, np.sqrt(abs(x)) * 2, -x) + x.max()


def test_results_agree_on_and_off() -> None:
    """The same program, built afresh under each setting (a computed array would be a
    persisted leaf: nothing left for the passes), lowered through the passes (one fused
    layer for its elementwise tree with fusion on, one layer per operation with it off),
    equals NumPy's either way."""
    host = numpy.linspace(-3.0, 3.0, 50).reshape(5, 10)
    expected = _program(numpy, host)
    for fusion in (True, False):
        with dnp.config.set(fusion=fusion):
            result = _program(dnp, dnp.array(host, chunks=(2, 5)))  # 6 blocks: not in process
            layers = result.__dask_graph__().layers
            fused = [name for name in layers if "~" in name]  # FusedElementwise.name
            elementwise = [n for n in layers if n.startswith("elementwise-") and "~" not in n]
            assert (len(fused), len(elementwise)) == ((1, 0) if fusion else (0, 7)), layers
            assert_eq(result, expected)
