"""Recipes that start Dask clusters for dask_gpunumeric on real machines (the ``deploy``
extra: ``pip install 'dask_gpunumeric[deploy]'``).

- :mod:`dask_gpunumeric.deploy.slurm`: dask-jobqueue ``SLURMCluster`` of dask-cuda workers;
- :mod:`dask_gpunumeric.deploy.kubernetes`: dask-kubernetes operator ``DaskCluster`` and a
  ``Job`` that runs ``dgn-run`` against it.

Nothing in the core package imports these modules; ``deploy/*/README.md`` in the repository
documents them with the batch scripts and manifests they generate.
"""

from __future__ import annotations

import os
from dataclasses import dataclass


@dataclass(frozen=True)
class TLSFiles:
    """PEM files of a TLS-secured cluster: the CA, and one certificate with its key that the
    scheduler, the workers and the client all present (one per role works the same way)."""

    ca_file: str
    cert: str
    key: str

    @classmethod
    def from_environment(cls) -> TLSFiles | None:
        """``DGN_TLS_CA_FILE``, ``DGN_TLS_CERT`` and ``DGN_TLS_KEY``, when all three are set
        (the names ``deploy/slurm/stencil.sbatch`` reads too); ``None`` when none is."""
        names = ("DGN_TLS_CA_FILE", "DGN_TLS_CERT", "DGN_TLS_KEY")
        values = [os.environ.get(name) for name in names]
        if not any(values):
            return None
        if not all(values):
            missing = [name for name, value in zip(names, values, strict=True) if not value]
            raise ValueError(f"TLS needs all of {', '.join(names)}; set {', '.join(missing)}")
        ca_file, cert, key = (str(value) for value in values)
        return cls(ca_file, cert, key)
