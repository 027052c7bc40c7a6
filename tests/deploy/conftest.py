"""Deployment recipes (``deploy/``) tested for real where this machine can: the SLURM tests
(``-m slurm``) start a single-node SLURM from Debian's packages (``.ci/run`` installs them);
the Kubernetes and Docker tests validate manifests and lint the Dockerfile offline."""

from __future__ import annotations

import os
import pathlib
from collections.abc import Iterator

import pytest

from tests.deploy.local_slurm import INSTALL, LocalSlurm, missing_programs

REPOSITORY = pathlib.Path(__file__).resolve().parents[2]
DEPLOY = REPOSITORY / "deploy"


@pytest.fixture(scope="session")
def local_slurm(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LocalSlurm]:
    """A running single-node SLURM (munged, slurmctld, slurmd) for the test session."""
    missing = missing_programs()
    if missing:
        reason = f"SLURM is not installed ({', '.join(missing)} missing): {INSTALL}"
        if os.environ.get("DGN_REQUIRE_SLURM"):  # CI's SLURM step: a skip would hide it
            pytest.fail(reason)
        pytest.skip(reason)
    if os.geteuid() != 0:
        pytest.skip("the local SLURM runs its daemons as root (slurmd starts jobs as any user)")
    cluster = LocalSlurm(tmp_path_factory.mktemp("slurm"))
    try:
        cluster.start()
        yield cluster
    finally:
        cluster.stop()
