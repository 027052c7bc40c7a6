"""The pass pipeline is switched by ``gpunumeric.fusion`` (config or environment)."""

from __future__ import annotations

import os
import subprocess
import sys

import numpy

import dask_gpunumeric as dnp
from dask_gpunumeric._ir.elementwise import ufunc_node
from dask_gpunumeric._ir.fused import FusedElementwise
from dask_gpunumeric._ir.leaves import HostData
from dask_gpunumeric._passes.pipeline import run_passes
from dask_gpunumeric.testing import assert_eq

PROBE = (
    "import numpy\n"
    "from dask_gpunumeric._ir.elementwise import ufunc_node\n"
    "from dask_gpunumeric._ir.leaves import HostData\n"
    "from dask_gpunumeric._passes.pipeline import run_passes\n"
    "x = HostData(numpy.ones(3), owned=True)\n"
    "print(type(run_passes([ufunc_node('add', numpy.add, (x, 1))[0]])[0]).__name__)\n"
)


def test_config_switches_fusion() -> None:
    root = ufunc_node("add", numpy.add, (HostData(numpy.ones(3), owned=True), 1))[0]
    assert isinstance(run_passes([root])[0], FusedElementwise)
    with dnp.config.set(fusion=False):
        assert run_passes([root]) == [root]


def test_environment_variable_switches_fusion_off() -> None:
    for value, expected in (("false", "Elementwise"), ("true", "FusedElementwise")):
        environment = {**os.environ, "DASK_GPUNUMERIC__FUSION": value}
        output = subprocess.run(
            [sys.executable, "-c", PROBE], env=environment, capture_output=True, text=True
        )
        assert output.stdout.strip() == expected, output.stderr


def test_results_agree_on_and_off() -> None:
    host = numpy.linspace(-3.0, 3.0, 50).reshape(5, 10)
    x = dnp.array(host, chunks=(2, 5))
    result = dnp.where(x > 0, dnp.sqrt(abs(x)) * 2, -x) + x.max()
    expected = numpy.where(host > 0, numpy.sqrt(abs(host)) * 2, -host) + host.max()
    assert_eq(result, expected)
    with dnp.config.set(fusion=False):
        assert_eq(result, expected)
