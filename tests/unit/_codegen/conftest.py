"""Fixtures of the CUDA code generator tests: one build directory per session."""

from __future__ import annotations

import pathlib

import pytest


@pytest.fixture(scope="session")
def build_cache(tmp_path_factory: pytest.TempPathFactory) -> pathlib.Path:
    """Where compiled kernels live for the session, keyed by source hash."""
    return tmp_path_factory.mktemp("cuda-builds")
