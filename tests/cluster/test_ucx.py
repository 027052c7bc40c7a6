"""``--protocol ucx``: a real ``ucx://127.0.0.1`` cluster (UCX over TCP on loopback here)
runs the stencil and conjugate gradient, both equal to NumPy's."""

from __future__ import annotations

import re

import pytest

pytest.importorskip("distributed_ucxx", reason="needs distributed-ucxx-cu12 (the test extra)")

SCRIPT = """
import distributed, numpy
import dask_gpunumeric as np
from examples.stencil import stencil
from examples.conjugate_gradient import conjugate_gradient, make_system

ours, theirs = float(stencil(np, 40, 5).sum()), float(stencil(numpy, 40, 5).sum())
print("stencil", ours == theirs)
x = conjugate_gradient(np, *make_system(np, 40))
expected = conjugate_gradient(numpy, *make_system(numpy, 40))
print("cg", numpy.allclose(numpy.asarray(x), expected, rtol=1e-8, atol=1e-10))
print("workers", *distributed.get_client().scheduler_info()["workers"])
"""


@pytest.mark.slow
def test_stencil_and_cg_on_a_ucx_cluster(backend, tmp_path, dgn_run, repo_root) -> None:
    script = tmp_path / "ucx_run.py"
    script.write_text(SCRIPT)
    run = dgn_run("--protocol", "ucx", str(script), backend=backend, cwd=repo_root)
    assert run.returncode == 0, run.stderr
    assert "stencil True\ncg True\n" in run.stdout
    workers = re.search(r"^workers (.*)$", run.stdout, re.MULTILINE)
    assert workers, run.stdout
    addresses = workers.group(1).split()
    assert addresses and all(a.startswith("ucx://127.0.0.1:") for a in addresses), addresses
